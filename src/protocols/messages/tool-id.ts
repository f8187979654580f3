/** The tool call ids messages takes (`tool_use.id`, `tool_result.tool_use_id`). */
import type { IdRule } from "../../common/tool-id";

export const TOOL_IDS: IdRule = { name: "messages", pattern: /^[a-zA-Z0-9_-]+$/ };
