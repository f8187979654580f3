/** The tool call ids responses takes: a `call_id` of at most 64 characters. */
import type { IdRule } from "../../common/tool-id";

export const TOOL_IDS: IdRule = { name: "responses", maxLength: 64 };
