/**
 * Type tests (checked by `tsc --noEmit`): our inferred messages types and the `@anthropic-ai/sdk` types
 * agree on the fields both define (DESIGN rule 8).
 */
import type Anthropic from "@anthropic-ai/sdk";
import type * as messages from "../../src/protocols/messages/schema";

/** Our loose objects carry `[key: string]: unknown`; SDK interfaces have none, so compare without it. */
type Known<T> = T extends readonly (infer U)[]
  ? Known<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;

/** `Omit` for loose objects: the built-in one collapses a type with an index signature. */
type Without<T, K extends PropertyKey> = {
  [P in keyof T as string extends P ? never : P extends K ? never : P]: T[P];
};

type Params = Anthropic.Messages.MessageCreateParamsNonStreaming;

// ─── Our request → the SDK's request ─────────────────────────────────────────────────────────────

/**
 * Fields omitted because our schema is deliberately wider than the SDK:
 * - messages, system: content blocks form an open union (unknown `type`s pass) and citations are open
 *   loose objects; the known blocks are checked one by one below.
 * - tools: server tools (`web_search_…`, `bash_…`, future ones) are an open union; custom tools are checked below.
 * - thinking: an open union (unknown thinking modes pass); the known modes are checked below.
 * - service_tier, output_config (`effort`), container (`skills` kept open), speed, context_management
 *   (edits of any type): open vendor enums / objects.
 * - mcp_servers: not in the SDK's non-beta params (the beta API defines it).
 * - stream: ours may be `true`; this checks the non-streaming params (the streaming one differs only there).
 */
type OmittedFromRequest =
  | "messages"
  | "system"
  | "tools"
  | "thinking"
  | "service_tier"
  | "output_config"
  | "container"
  | "mcp_servers"
  | "speed"
  | "context_management"
  | "stream";

declare const request: Without<messages.Request, OmittedFromRequest>;
const requestFields: Omit<Params, OmittedFromRequest> = request;
void requestFields;

// Known blocks, one by one (citations are open on ours, so they are left out of the text block check).
declare const text: Without<messages.TextBlock, "citations">;
const textParam: Omit<Anthropic.Messages.TextBlockParam, "citations"> = text;
declare const image: messages.ImageBlock;
const imageParam: Anthropic.Messages.ImageBlockParam = image;
declare const documentBlock: Without<messages.DocumentBlock, "source"> & {
  source: Exclude<messages.DocumentSource, { type: "content" }>;
};
const documentParam: Anthropic.Messages.DocumentBlockParam = documentBlock;
declare const thinking: messages.ThinkingBlock;
const thinkingParam: Anthropic.Messages.ThinkingBlockParam = thinking;
declare const redacted: messages.RedactedThinkingBlock;
const redactedParam: Anthropic.Messages.RedactedThinkingBlockParam = redacted;
declare const toolUse: messages.ToolUseBlock;
const toolUseParam: Anthropic.Messages.ToolUseBlockParam = toolUse;
// tool_result content may hold blocks of any (open) type; the string form and known blocks are checked.
declare const toolResult: Without<messages.ToolResultBlock, "content"> & {
  content?: string | (messages.ImageBlock | Without<messages.TextBlock, "citations">)[];
};
const toolResultParam: Anthropic.Messages.ToolResultBlockParam = toolResult;
declare const containerUpload: messages.ContainerUploadBlock;
const containerUploadParam: Anthropic.Messages.ContainerUploadBlockParam = containerUpload;
declare const customTool: messages.CustomTool;
const toolParam: Anthropic.Messages.Tool = customTool;
declare const toolChoice: messages.ToolChoice;
const toolChoiceParam: Anthropic.Messages.ToolChoice = toolChoice;
declare const enabled: { type: "enabled"; budget_tokens: number };
const thinkingConfig: Anthropic.Messages.ThinkingConfigParam = enabled;
declare const metadata: messages.Metadata;
const metadataParam: Anthropic.Messages.Metadata = metadata;
declare const role: messages.Message["role"];
const roleParam: Anthropic.Messages.MessageParam["role"] = role;
void [
  textParam,
  imageParam,
  documentParam,
  thinkingParam,
  redactedParam,
  toolUseParam,
  toolResultParam,
  containerUploadParam,
  toolParam,
  toolChoiceParam,
  thinkingConfig,
  metadataParam,
  roleParam,
];

// ─── The SDK's response, events and errors → ours ────────────────────────────────────────────────

// Our unions are open (an unknown `type` is a loose object that any SDK value would match), so the
// known members are compared: every SDK event and block must fit one of the kinds we model.
declare const sdkMessage: Anthropic.Messages.Message;
const response: Known<Without<messages.Response, "content"> & { content: messages.KnownContentBlock[] }> =
  sdkMessage;
declare const sdkEvent: Anthropic.Messages.RawMessageStreamEvent;
const event: Known<messages.KnownStreamEvent> = sdkEvent;
declare const sdkUsage: Anthropic.Messages.Usage;
const usage: Known<messages.Usage> = sdkUsage;
declare const sdkBlock: Anthropic.Messages.ContentBlock;
const block: Known<messages.KnownContentBlock> = sdkBlock;
declare const sdkError: Anthropic.ErrorResponse;
const errorBody: Known<messages.ErrorBody> = sdkError;
void [response, event, usage, block, errorBody];
