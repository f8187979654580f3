/**
 * Zod schemas of the messages protocol (`POST /v1/messages`): request, response, stream events, error body.
 * Loose objects keep unknown fields; block, tool and event unions stay open so new kinds are not rejected.
 * @see https://docs.anthropic.com/en/api/messages
 */

import { z } from "zod/v4";
import { openEnum, openUnion, type UnknownKind } from "../../validate/open-union";

export type { UnknownKind };

const nonNegativeInt = z.number().int().min(0);

// ─── Shared pieces ────────────────────────────────────────────────────────────────────────────────

/** Prompt-caching breakpoint; the API knows only `ephemeral` with a 5m or 1h lifetime. */
export const cacheControl = z.looseObject({
  type: z.literal("ephemeral"),
  ttl: z.enum(["5m", "1h"]).optional(),
});
/**
 * Prompt-caching breakpoint; the API knows only `ephemeral` with a 5m or 1h lifetime. The type `cacheControl`
 * parses to.
 */
export type CacheControl = z.infer<typeof cacheControl>;

const cache = { cache_control: cacheControl.nullable().optional() };

/** A citation (request or response); its kinds grow, so it stays open. */
export const citation = z.looseObject({
  type: openEnum([
    "char_location",
    "page_location",
    "content_block_location",
    "web_search_result_location",
    "search_result_location",
  ]),
});
export type Citation = z.infer<typeof citation>;

export const textBlock = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  citations: z.array(citation).nullable().optional(),
  ...cache,
});
export type TextBlock = z.infer<typeof textBlock>;

export const imageSource = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("base64"),
    media_type: z.enum(["image/jpeg", "image/png", "image/gif", "image/webp"]),
    data: z.string(),
  }),
  z.looseObject({ type: z.literal("url"), url: z.string() }),
  z.looseObject({ type: z.literal("file"), file_id: z.string() }),
]);
export type ImageSource = z.infer<typeof imageSource>;

export const imageBlock = z.looseObject({ type: z.literal("image"), source: imageSource, ...cache });
export type ImageBlock = z.infer<typeof imageBlock>;

export const documentSource = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("base64"), media_type: z.literal("application/pdf"), data: z.string() }),
  z.looseObject({ type: z.literal("text"), media_type: z.literal("text/plain"), data: z.string() }),
  z.looseObject({
    type: z.literal("content"),
    content: z.union([z.string(), z.array(z.union([textBlock, imageBlock]))]),
  }),
  z.looseObject({ type: z.literal("url"), url: z.string() }),
  z.looseObject({ type: z.literal("file"), file_id: z.string() }),
]);
export type DocumentSource = z.infer<typeof documentSource>;

export const documentBlock = z.looseObject({
  type: z.literal("document"),
  source: documentSource,
  title: z.string().nullable().optional(),
  context: z.string().nullable().optional(),
  citations: z.looseObject({ enabled: z.boolean().optional() }).nullable().optional(),
  ...cache,
});
export type DocumentBlock = z.infer<typeof documentBlock>;

export const searchResultBlock = z.looseObject({
  type: z.literal("search_result"),
  source: z.string(),
  title: z.string(),
  content: z.array(textBlock),
  citations: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  ...cache,
});
export type SearchResultBlock = z.infer<typeof searchResultBlock>;

export const thinkingBlock = z.looseObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  signature: z.string(),
});
export type ThinkingBlock = z.infer<typeof thinkingBlock>;

export const redactedThinkingBlock = z.looseObject({
  type: z.literal("redacted_thinking"),
  data: z.string(),
});
export type RedactedThinkingBlock = z.infer<typeof redactedThinkingBlock>;

/** A tool call in a request: the API requires `input` to be an object. */
export const toolUseBlock = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  ...cache,
});
export type ToolUseBlock = z.infer<typeof toolUseBlock>;

const toolResultContentTypes = ["text", "image", "document", "search_result"] as const;
export const toolResultContent = openUnion(
  toolResultContentTypes,
  z.discriminatedUnion("type", [textBlock, imageBlock, documentBlock, searchResultBlock]),
);
export type ToolResultContent = z.infer<typeof toolResultContent>;

export const toolResultBlock = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(toolResultContent)]).optional(),
  is_error: z.boolean().optional(),
  ...cache,
});
export type ToolResultBlock = z.infer<typeof toolResultBlock>;

export const serverToolUseBlock = z.looseObject({
  type: z.literal("server_tool_use"),
  id: z.string(),
  name: openEnum([
    "web_search",
    "web_fetch",
    "code_execution",
    "bash_code_execution",
    "text_editor_code_execution",
  ]),
  input: z.unknown(),
  ...cache,
});
export type ServerToolUseBlock = z.infer<typeof serverToolUseBlock>;

/** Results of server tools that run at the provider; their content is theirs to define. */
export const serverToolResultTypes = [
  "web_search_tool_result",
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "tool_search_tool_result",
] as const;
export const serverToolResultBlock = z.looseObject({
  type: z.enum(serverToolResultTypes),
  tool_use_id: z.string(),
  content: z.unknown(),
  ...cache,
});
export type ServerToolResultBlock = z.infer<typeof serverToolResultBlock>;

export const mcpToolUseBlock = z.looseObject({
  type: z.literal("mcp_tool_use"),
  id: z.string(),
  name: z.string(),
  server_name: z.string(),
  input: z.unknown(),
  ...cache,
});
export type McpToolUseBlock = z.infer<typeof mcpToolUseBlock>;

export const mcpToolResultBlock = z.looseObject({
  type: z.literal("mcp_tool_result"),
  tool_use_id: z.string(),
  is_error: z.boolean().optional(),
  content: z.union([z.string(), z.array(textBlock)]),
  ...cache,
});
export type McpToolResultBlock = z.infer<typeof mcpToolResultBlock>;

export const containerUploadBlock = z.looseObject({
  type: z.literal("container_upload"),
  file_id: z.string(),
  ...cache,
});
export type ContainerUploadBlock = z.infer<typeof containerUploadBlock>;

// ─── Request ──────────────────────────────────────────────────────────────────────────────────────

const requestBlockTypes = [
  "text",
  "image",
  "document",
  "search_result",
  "thinking",
  "redacted_thinking",
  "tool_use",
  "tool_result",
  "server_tool_use",
  ...serverToolResultTypes,
  "mcp_tool_use",
  "mcp_tool_result",
  "container_upload",
] as const;

/** The content blocks of a request this library models. */
export const knownContentBlockParam = z.discriminatedUnion("type", [
  textBlock,
  imageBlock,
  documentBlock,
  searchResultBlock,
  thinkingBlock,
  redactedThinkingBlock,
  toolUseBlock,
  toolResultBlock,
  serverToolUseBlock,
  serverToolResultBlock,
  mcpToolUseBlock,
  mcpToolResultBlock,
  containerUploadBlock,
]);
export type KnownContentBlockParam = z.infer<typeof knownContentBlockParam>;

/** One content block of a request message; unknown `type`s are kept as loose objects. */
export const contentBlockParam = openUnion(requestBlockTypes, knownContentBlockParam);
/**
 * One content block of a request message; unknown `type`s are kept as loose objects. The type
 * `contentBlockParam` parses to.
 */
export type ContentBlockParam = z.infer<typeof contentBlockParam>;

/**
 * Roles `user` and `assistant`, and `system` for an instruction given mid-conversation (newer models
 * accept it); turn order is not imposed on input (the API accepts an assistant first).
 * @see https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages
 */
export const message = z.looseObject({
  role: z.enum(["user", "assistant", "system"]),
  content: z.union([z.string(), z.array(contentBlockParam)]),
  /** A system turn's effort for the turns after it (Claude Code sends it). */
  output_config: z
    .looseObject({ effort: openEnum(["low", "medium", "high", "xhigh", "max"]).nullable().optional() })
    .optional(),
});
/**
 * Roles `user` and `assistant`, and `system` for an instruction given mid-conversation (newer models accept
 * it); turn order is not imposed on input (the API accepts an assistant first). The type `message` parses to.
 */
export type Message = z.infer<typeof message>;

export const customTool = z.looseObject({
  type: z.literal("custom").nullable().optional(),
  name: z.string(),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal("object") }),
  strict: z.boolean().optional(),
  /** Loaded only when a tool search returns it (`tool_reference`). */
  defer_loading: z.boolean().optional(),
  /** Stream the input as it is generated (`true`), or never (`false`); null: as the beta headers say. */
  eager_input_streaming: z.boolean().nullable().optional(),
  input_examples: z.array(z.record(z.string(), z.unknown())).optional(),
  ...cache,
});
export type CustomTool = z.infer<typeof customTool>;

/** A provider-defined tool (`web_search_20250305`, `bash_20250124`, `text_editor_…`, …), kept open. */
export const serverTool = z.looseObject({
  type: z
    .string()
    .refine((type) => type !== "custom" && type !== "mcp_toolset", "a custom tool needs `input_schema`"),
  name: z.string(),
  ...cache,
});
export type ServerTool = z.infer<typeof serverTool>;

/**
 * The tools of one of the request's `mcp_servers` (MCP connector): named by the server, not by a `name`.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/mcp-connector
 */
export const mcpToolset = z.looseObject({
  type: z.literal("mcp_toolset"),
  mcp_server_name: z.string(),
  default_config: z.looseObject({}).optional(),
  configs: z.record(z.string(), z.looseObject({})).nullable().optional(),
  ...cache,
});
export type McpToolset = z.infer<typeof mcpToolset>;

/**
 * A tool of a messages request: a custom tool with an `input_schema`, a server tool (web search,
 * code execution …) or an MCP toolset.
 */
export const tool = z.union([customTool, serverTool, mcpToolset]);
/**
 * A tool of a messages request: a custom tool with an `input_schema`, a server tool (web search, code
 * execution …) or an MCP toolset. The type `tool` parses to.
 */
export type Tool = z.infer<typeof tool>;

/**
 * `tool_choice` of a messages request: `auto`, `any`, `tool` (with `name`) or `none`, and
 * `disable_parallel_tool_use`.
 */
export const toolChoice = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("auto"), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal("any"), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({
    type: z.literal("tool"),
    name: z.string(),
    disable_parallel_tool_use: z.boolean().optional(),
  }),
  z.looseObject({ type: z.literal("none") }),
]);
/**
 * `tool_choice` of a messages request: `auto`, `any`, `tool` (with `name`) or `none`, and
 * `disable_parallel_tool_use`. The type `toolChoice` parses to.
 */
export type ToolChoice = z.infer<typeof toolChoice>;

const thinkingDisplay = openEnum(["summarized", "omitted"]).nullable().optional();
export const thinkingConfig = openUnion(
  ["enabled", "disabled", "adaptive", "between_tools"],
  z.discriminatedUnion("type", [
    z.looseObject({
      type: z.literal("enabled"),
      budget_tokens: z.number().int().min(1024),
      display: thinkingDisplay,
    }),
    z.looseObject({ type: z.literal("disabled") }),
    z.looseObject({ type: z.literal("adaptive"), display: thinkingDisplay }),
    z.looseObject({ type: z.literal("between_tools") }),
  ]),
);
export type ThinkingConfig = z.infer<typeof thinkingConfig>;

export const metadata = z.looseObject({ user_id: z.string().nullable().optional() });
export type Metadata = z.infer<typeof metadata>;

export const outputConfig = z.looseObject({
  effort: openEnum(["low", "medium", "high", "xhigh", "max"]).nullable().optional(),
  format: z
    .looseObject({ type: openEnum(["json_schema"]), schema: z.record(z.string(), z.unknown()).optional() })
    .nullable()
    .optional(),
});
export type OutputConfig = z.infer<typeof outputConfig>;

export const mcpServer = z.looseObject({
  type: openEnum(["url"]),
  url: z.string(),
  name: z.string(),
  authorization_token: z.string().nullable().optional(),
});
export type McpServer = z.infer<typeof mcpServer>;

/** A `POST /v1/messages` body: `max_tokens` required, at least one message, no `system` role. */
export const request = z.looseObject({
  model: z.string(),
  messages: z.array(message).min(1),
  max_tokens: z.number().int().min(1),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: nonNegativeInt.optional(),
  stream: z.boolean().optional(),
  stop_sequences: z.array(z.string()).optional(),
  tools: z.array(tool).optional(),
  tool_choice: toolChoice.optional(),
  thinking: thinkingConfig.optional(),
  metadata: metadata.optional(),
  output_config: outputConfig.optional(),
  service_tier: openEnum(["auto", "standard_only"]).optional(),
  container: z
    .union([z.string(), z.looseObject({ id: z.string().nullable().optional() })])
    .nullable()
    .optional(),
  mcp_servers: z.array(mcpServer).optional(),
  /** Context editing: edits the service applies to the conversation (`clear_tool_uses_…`, `clear_thinking_…`, `compact_…`). */
  context_management: z
    .looseObject({ edits: z.array(z.looseObject({ type: z.string() })).optional() })
    .nullable()
    .optional(),
  /** Output speed: `fast` is the faster, dearer mode of the models that have one. */
  speed: openEnum(["standard", "fast"]).nullable().optional(),
  /** Where inference runs (`us`, `global` …). */
  inference_geo: z.string().nullable().optional(),
  /** Prompt caching for the whole request (one breakpoint the service places itself), beside the blocks' own. */
  ...cache,
});
/**
 * A `POST /v1/messages` body: `max_tokens` required, at least one message, no `system` role. The type
 * `request` parses to.
 */
export type Request = z.infer<typeof request>;

// ─── Response ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Why a messages response stopped (`end_turn`, `max_tokens`, `stop_sequence`, `tool_use`,
 * `pause_turn`, `refusal` …); values the API adds later are accepted.
 */
export const stopReason = openEnum([
  "end_turn",
  "max_tokens",
  "stop_sequence",
  "tool_use",
  "pause_turn",
  "refusal",
  "model_context_window_exceeded",
]);
/**
 * Why a messages response stopped (`end_turn`, `max_tokens`, `stop_sequence`, `tool_use`, `pause_turn`,
 * `refusal` …); values the API adds later are accepted. The type `stopReason` parses to.
 */
export type StopReason = z.infer<typeof stopReason>;

/** Token usage; `input_tokens` excludes cache reads and writes. */
export const usage = z.looseObject({
  input_tokens: nonNegativeInt,
  output_tokens: nonNegativeInt,
  cache_creation_input_tokens: nonNegativeInt.nullable().optional(),
  cache_read_input_tokens: nonNegativeInt.nullable().optional(),
  cache_creation: z.looseObject({}).nullable().optional(),
  output_tokens_details: z.looseObject({ thinking_tokens: nonNegativeInt.optional() }).nullable().optional(),
  server_tool_use: z.looseObject({}).nullable().optional(),
  service_tier: openEnum(["standard", "priority", "batch"]).nullable().optional(),
});
/** Token usage; `input_tokens` excludes cache reads and writes. The type `usage` parses to. */
export type Usage = z.infer<typeof usage>;

/** A tool call in a response (`input` as the model produced it). */
export const responseToolUseBlock = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});
export type ResponseToolUseBlock = z.infer<typeof responseToolUseBlock>;

const responseBlockTypes = [
  "text",
  "thinking",
  "redacted_thinking",
  "tool_use",
  "server_tool_use",
  ...serverToolResultTypes,
  "mcp_tool_use",
  "mcp_tool_result",
  "container_upload",
] as const;

/** The content blocks of a response this library models. */
export const knownContentBlock = z.discriminatedUnion("type", [
  textBlock,
  thinkingBlock,
  redactedThinkingBlock,
  responseToolUseBlock,
  serverToolUseBlock,
  serverToolResultBlock,
  mcpToolUseBlock,
  mcpToolResultBlock,
  containerUploadBlock,
]);
export type KnownContentBlock = z.infer<typeof knownContentBlock>;

/** One content block of a response; unknown `type`s (compaction, advisor results …) are kept. */
export const contentBlock = openUnion(responseBlockTypes, knownContentBlock);
/**
 * One content block of a response; unknown `type`s (compaction, advisor results …) are kept. The type
 * `contentBlock` parses to.
 */
export type ContentBlock = z.infer<typeof contentBlock>;

/** A messages response; `content` is always an array. */
export const response = z.looseObject({
  id: z.string(),
  type: z.literal("message"),
  role: z.literal("assistant"),
  model: z.string(),
  content: z.array(contentBlock),
  stop_reason: stopReason.nullable(),
  stop_sequence: z.string().nullable().optional(),
  usage,
  container: z.looseObject({ id: z.string() }).nullable().optional(),
  /** Why the model refused (`stop_reason: "refusal"`): the policy category and an explanation. */
  stop_details: z
    .looseObject({
      type: openEnum(["refusal"]),
      category: openEnum(["cyber", "bio", "frontier_llm", "reasoning_extraction", "general_harms"])
        .nullable()
        .optional(),
      explanation: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});
/** A messages response; `content` is always an array. The type `response` parses to. */
export type Response = z.infer<typeof response>;

// ─── Errors ───────────────────────────────────────────────────────────────────────────────────────

export const errorType = openEnum([
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "not_found_error",
  "request_too_large",
  "rate_limit_error",
  "api_error",
  "overloaded_error",
]);
export type ErrorType = z.infer<typeof errorType>;

/** `{type: "error", error: {type, message}, request_id?}`: an HTTP error body and the mid-stream `error` event. */
export const errorBody = z.looseObject({
  type: z.literal("error"),
  error: z.looseObject({ type: errorType, message: z.string() }),
  request_id: z.string().nullable().optional(),
});
/**
 * `{type: "error", error: {type, message}, request_id?}`: an HTTP error body and the mid-stream `error`
 * event. The type `errorBody` parses to.
 */
export type ErrorBody = z.infer<typeof errorBody>;

// ─── Stream events ────────────────────────────────────────────────────────────────────────────────

export const contentBlockDelta = openUnion(
  ["text_delta", "input_json_delta", "thinking_delta", "signature_delta", "citations_delta"],
  z.discriminatedUnion("type", [
    z.looseObject({ type: z.literal("text_delta"), text: z.string() }),
    z.looseObject({ type: z.literal("input_json_delta"), partial_json: z.string() }),
    z.looseObject({ type: z.literal("thinking_delta"), thinking: z.string() }),
    z.looseObject({ type: z.literal("signature_delta"), signature: z.string() }),
    z.looseObject({ type: z.literal("citations_delta"), citation }),
  ]),
);
export type ContentBlockDelta = z.infer<typeof contentBlockDelta>;

/** `message_delta.usage`: cumulative; input and cache fields may be repeated. */
export const deltaUsage = z.looseObject({
  output_tokens: nonNegativeInt,
  input_tokens: nonNegativeInt.nullable().optional(),
  cache_creation_input_tokens: nonNegativeInt.nullable().optional(),
  cache_read_input_tokens: nonNegativeInt.nullable().optional(),
  output_tokens_details: z.looseObject({ thinking_tokens: nonNegativeInt.optional() }).nullable().optional(),
  server_tool_use: z.looseObject({}).nullable().optional(),
});
export type DeltaUsage = z.infer<typeof deltaUsage>;

export const messageStartEvent = z.looseObject({ type: z.literal("message_start"), message: response });
export const contentBlockStartEvent = z.looseObject({
  type: z.literal("content_block_start"),
  index: nonNegativeInt,
  content_block: contentBlock,
});
export const contentBlockDeltaEvent = z.looseObject({
  type: z.literal("content_block_delta"),
  index: nonNegativeInt,
  delta: contentBlockDelta,
});
export const contentBlockStopEvent = z.looseObject({
  type: z.literal("content_block_stop"),
  index: nonNegativeInt,
});
export const messageDeltaEvent = z.looseObject({
  type: z.literal("message_delta"),
  delta: z.looseObject({
    stop_reason: stopReason.nullable().optional(),
    stop_sequence: z.string().nullable().optional(),
  }),
  usage: deltaUsage.optional(),
});
export const messageStopEvent = z.looseObject({ type: z.literal("message_stop") });
export const pingEvent = z.looseObject({ type: z.literal("ping") });
export const errorEvent = errorBody;

/** The stream events this library models. */
export const knownStreamEvent = z.discriminatedUnion("type", [
  messageStartEvent,
  contentBlockStartEvent,
  contentBlockDeltaEvent,
  contentBlockStopEvent,
  messageDeltaEvent,
  messageStopEvent,
  pingEvent,
  errorEvent,
]);
export type KnownStreamEvent = z.infer<typeof knownStreamEvent>;

/** One SSE `data:` payload of a messages stream; new event types are accepted (the API may add some). */
export const streamEvent = openUnion(
  [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
    "error",
  ],
  knownStreamEvent,
);
/**
 * One SSE `data:` payload of a messages stream; new event types are accepted (the API may add some). The type
 * `streamEvent` parses to.
 */
export type StreamEvent = z.infer<typeof streamEvent>;
export type MessageStartEvent = z.infer<typeof messageStartEvent>;
export type ContentBlockStartEvent = z.infer<typeof contentBlockStartEvent>;
export type ContentBlockDeltaEvent = z.infer<typeof contentBlockDeltaEvent>;
export type ContentBlockStopEvent = z.infer<typeof contentBlockStopEvent>;
export type MessageDeltaEvent = z.infer<typeof messageDeltaEvent>;
export type MessageStopEvent = z.infer<typeof messageStopEvent>;
export type PingEvent = z.infer<typeof pingEvent>;
export type ErrorEvent = z.infer<typeof errorEvent>;
