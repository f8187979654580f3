/**
 * messages request ↔ common request. Decoding keeps everything the common model can hold and reports the
 * rest as `dropped`; encoding lives in `request-encode.ts`.
 * @see https://docs.anthropic.com/en/api/messages
 */

import { createPartList } from "../../common/carrier";
import type { Loss, Translated } from "../../common/loss";
import { loss } from "../../common/loss";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import { at } from "../../common/pointer";
import { readCarrier } from "./carrier";
import { decodeBlock, decodeCache, dropExtras } from "./decode-blocks";
import type {
  CustomTool,
  Request,
  TextBlock,
  ThinkingBlock,
  ThinkingConfig,
  Tool,
  ToolChoice,
} from "./schema";

/** The fields each node has in the common model; others are reported as dropped. */
const SYSTEM_BLOCK_KEYS: readonly string[] = ["type", "text", "cache_control"];
const MESSAGE_KEYS: readonly string[] = ["role", "content"];
const TOOL_KEYS: readonly string[] = [
  "type",
  "name",
  "description",
  "input_schema",
  "strict",
  "defer_loading",
  "cache_control",
];
const THINKING_KEYS: readonly string[] = ["type", "budget_tokens", "display"];
const OUTPUT_CONFIG_KEYS: readonly string[] = ["effort", "format"];
const FORMAT_KEYS: readonly string[] = ["type", "schema"];
const METADATA_KEYS: readonly string[] = ["user_id"];
/** A thinking block that carries another protocol's state holds nothing else the common model keeps. */
const CARRIER_KEYS: readonly string[] = ["type", "thinking", "signature"];

export { encodeMessagesRequest } from "./request-encode";

const KNOWN_FIELDS = [
  "model",
  "messages",
  "max_tokens",
  "system",
  "temperature",
  "top_p",
  "top_k",
  "stream",
  "stop_sequences",
  "tools",
  "tool_choice",
  "thinking",
  "metadata",
  "service_tier",
  "output_config",
] as const;

function decodeSystem(system: Request["system"], losses: Loss[]): common.SystemBlock[] {
  if (system === undefined) return [];
  if (typeof system === "string") return [{ text: system, source: "/system" }];
  return system.map((block, index) => {
    const source = at("/system", index);
    dropExtras(block, SYSTEM_BLOCK_KEYS, source, "a system block", losses);
    const cache = decodeCache(block.cache_control, source);
    return cache === undefined ? { text: block.text, source } : { text: block.text, source, cache };
  });
}

/**
 * A `system` turn of the conversation → system blocks marked late when a turn came before it (hoisting
 * it is an approximation, as for chat). Only text blocks are instructions; others are dropped.
 */
function decodeSystemTurn(
  message: Request["messages"][number],
  source: string,
  late: number | undefined,
  losses: Loss[],
): common.SystemBlock[] {
  if (typeof message.content === "string") {
    return [
      late === undefined
        ? { text: message.content, source }
        : { text: message.content, late: true, at: late, source },
    ];
  }
  const blocks: common.SystemBlock[] = [];
  message.content.forEach((block, position) => {
    const blockSource = `${source}/content/${position}`;
    if (block.type !== "text") {
      losses.push(
        loss(
          blockSource,
          "dropped",
          `A ${block.type} block in a system turn has no common equivalent and was dropped.`,
        ),
      );
      return;
    }
    const text = block as TextBlock;
    dropExtras(text, SYSTEM_BLOCK_KEYS, blockSource, "a system block", losses);
    const value: common.Draft<common.SystemBlock> = { text: text.text, source: blockSource };
    const cache = decodeCache(text.cache_control, blockSource);
    if (cache !== undefined) value.cache = cache;
    if (late !== undefined) {
      value.late = true;
      value.at = late;
    }
    blocks.push(value);
  });
  return blocks;
}

function decodeMessages(
  messages: Request["messages"],
  system: common.SystemBlock[],
  losses: Loss[],
): common.Message[] {
  const turns: common.Message[] = [];
  messages.forEach((message, index) => {
    const source = at("/messages", index);
    dropExtras(message, MESSAGE_KEYS, source, "a message", losses);
    if (message.role === "system") {
      system.push(...decodeSystemTurn(message, source, turns.length > 0 ? turns.length : undefined, losses));
      return;
    }
    if (typeof message.content === "string") {
      turns.push({
        role: message.role,
        parts: [{ type: "text", text: message.content, source: `${source}/content` }],
        source,
      });
      return;
    }
    const parts = createPartList(losses);
    message.content.forEach((block, position) => {
      const blockSource = `${source}/content/${position}`;
      // Another protocol's reasoning state, carried home in a thinking block's signature.
      const carried =
        block.type === "thinking" ? readCarrier(block as ThinkingBlock, blockSource) : undefined;
      if (carried !== undefined) {
        dropExtras(block, CARRIER_KEYS, blockSource, "a thinking block", losses);
        parts.carry(carried, blockSource);
        return;
      }
      const part = decodeBlock(block, blockSource, losses);
      if (part !== undefined) parts.push(part);
    });
    turns.push({ role: message.role, parts: parts.parts(), source });
  });
  return turns;
}

function decodeTool(tool: Tool, source: string, losses: Loss[]): common.Tool {
  if (tool.type !== undefined && tool.type !== null && tool.type !== "custom") {
    const label = `${tool.type} tool`;
    // Every version of the code execution tool runs code in a sandbox, as generative's `codeExecution` does.
    // Every version of the web search tool searches the web, as generative's `googleSearch` does.
    const kind = tool.type.startsWith("code_execution_")
      ? "code-execution"
      : tool.type.startsWith("web_search_")
        ? "web-search"
        : undefined;
    return kind === undefined
      ? { type: "provider", origin: "messages", raw: tool, label, source }
      : { type: "provider", origin: "messages", raw: tool, label, kind, source };
  }
  const custom = tool as CustomTool;
  dropExtras(custom, TOOL_KEYS, source, "a tool", losses);
  const cache = decodeCache(custom.cache_control, source);
  const decoded: common.Draft<common.FunctionTool> = { type: "function", name: custom.name, source };
  if (custom.description !== undefined) decoded.description = custom.description;
  decoded.parameters = custom.input_schema;
  decoded.parametersSource = `${source}/input_schema`;
  if (custom.strict !== undefined) decoded.strict = custom.strict;
  if (custom.defer_loading !== undefined)
    decoded.deferLoading = { value: custom.defer_loading, source: `${source}/defer_loading` };
  if (cache !== undefined) decoded.cache = cache;
  return decoded;
}

function decodeToolChoice(choice: ToolChoice): common.ToolChoice {
  const source = "/tool_choice";
  switch (choice.type) {
    case "auto":
      return { type: "auto", source };
    case "any":
      return { type: "required", source };
    case "tool":
      return { type: "tool", name: choice.name, source };
    default:
      return { type: "none", source };
  }
}

function decodeReasoning(body: Request, losses: Loss[]): common.ReasoningConfig | undefined {
  const effort = body.output_config?.effort;
  const thinking: ThinkingConfig | undefined = body.thinking;
  const effortPart = effort === undefined || effort === null ? {} : { effort };
  if (thinking === undefined) {
    return effort === undefined || effort === null ? undefined : { effort, source: "/output_config/effort" };
  }
  const source = "/thinking";
  if (thinking.type === "enabled" || thinking.type === "adaptive") {
    dropExtras(thinking, THINKING_KEYS, source, "`thinking`", losses);
    const budget = (thinking as { budget_tokens?: number }).budget_tokens;
    // `display`: the thoughts summarized, or left out (signature-only thinking blocks).
    const display = thinking.display;
    return {
      enabled: true,
      ...(budget === undefined ? {} : { budgetTokens: budget, budgetSource: `${source}/budget_tokens` }),
      ...effortPart,
      ...(display === "summarized" || display === "omitted"
        ? { includeThoughts: display === "summarized", includeSource: `${source}/display` }
        : {}),
      source,
    };
  }
  if (thinking.type === "disabled") return { enabled: false, ...effortPart, source };
  losses.push(
    loss(
      source,
      "dropped",
      `Thinking mode \`${thinking.type}\` has no equivalent in the common model and was dropped.`,
    ),
  );
  return effort === undefined || effort === null ? undefined : { effort, source: "/output_config/effort" };
}

function decodeResponseFormat(body: Request, losses: Loss[]): common.ResponseFormat | undefined {
  const config = body.output_config;
  if (config === undefined) return undefined;
  dropExtras(config, OUTPUT_CONFIG_KEYS, "/output_config", "`output_config`", losses);
  const format = config.format;
  if (format === undefined || format === null) return undefined;
  const source = "/output_config/format";
  if (format.type !== "json_schema" || format.schema === undefined) {
    losses.push(
      loss(
        source,
        "dropped",
        `Output format \`${format.type}\` has no equivalent in the common model and was dropped.`,
      ),
    );
    return undefined;
  }
  dropExtras(format, FORMAT_KEYS, source, "`output_config.format`", losses);
  return { type: "json-schema", schema: format.schema, schemaSource: `${source}/schema`, source };
}

/** messages request → common request; fields with no common slot are reported as `dropped`. */
export function decodeMessagesRequest(body: Request, _options: ResolvedOptions): Translated<common.Request> {
  const losses: Loss[] = [];
  dropExtras(body, KNOWN_FIELDS, "", "the request", losses);
  const system = decodeSystem(body.system, losses);
  const messages = decodeMessages(body.messages, system, losses);
  const tools = (body.tools ?? []).map((tool, index) => decodeTool(tool, at("/tools", index), losses));
  const choice = body.tool_choice;
  const disable =
    choice !== undefined && "disable_parallel_tool_use" in choice
      ? choice.disable_parallel_tool_use
      : undefined;
  let user: common.Given<string> | undefined;
  if (body.metadata !== undefined) {
    dropExtras(body.metadata, METADATA_KEYS, "/metadata", "`metadata`", losses);
    const id = body.metadata.user_id;
    if (typeof id === "string") user = { value: id, source: "/metadata/user_id" };
  }
  const value: common.Draft<common.Request> = {
    model: body.model,
    stream: body.stream === true,
    system,
    messages,
    tools,
  };
  if (body.stream !== undefined && body.stream !== null) value.streamGiven = true;
  if (choice !== undefined) value.toolChoice = decodeToolChoice(choice);
  if (typeof disable === "boolean") {
    value.parallelToolCalls = { value: !disable, source: "/tool_choice/disable_parallel_tool_use" };
  }
  value.maxTokens = { value: body.max_tokens, source: "/max_tokens" };
  if (body.temperature !== undefined) value.temperature = { value: body.temperature, source: "/temperature" };
  if (body.top_p !== undefined) value.topP = { value: body.top_p, source: "/top_p" };
  if (body.top_k !== undefined) value.topK = { value: body.top_k, source: "/top_k" };
  if (body.stop_sequences !== undefined)
    value.stop = { value: body.stop_sequences, source: "/stop_sequences" };
  if (user !== undefined) value.user = user;
  const tier = body.service_tier;
  if (tier !== undefined)
    value.serviceTier = { value: tier === "standard_only" ? "default" : tier, source: "/service_tier" };
  const reasoning = decodeReasoning(body, losses);
  if (reasoning !== undefined) value.reasoning = reasoning;
  const responseFormat = decodeResponseFormat(body, losses);
  if (responseFormat !== undefined) value.responseFormat = responseFormat;
  return { value, losses };
}

/** The model and stream flag of a messages request. */
export function messagesRequestInfo(body: Request): { model: string; stream: boolean } {
  return { model: body.model, stream: body.stream === true };
}
