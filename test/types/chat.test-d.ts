/**
 * Type tests (checked by `tsc --noEmit`): our inferred chat types and the `openai` SDK's types agree on
 * the fields both define (DESIGN rule 8).
 */
import type OpenAI from "openai";
import type * as chat from "../../src/protocols/chat/schema";

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

type Params = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

// ─── Our request → the SDK's request ─────────────────────────────────────────────────────────────

/**
 * Fields omitted because our schema is deliberately wider than the SDK (vendor enums left open, and
 * shapes other providers send that OpenAI's types do not list):
 * - messages: content part `detail`/`format` and tool-call types are open strings, assistant messages
 *   carry `reasoning_content`/`reasoning` and a nullable `function_call`; checked per role below.
 * - tools, tool_choice: other tool types and vendor tool_choice values are kept open.
 * - service_tier, reasoning_effort, verbosity, modalities: open vendor enums.
 * - audio: `format` is an open string.
 * - web_search_options: `search_context_size` is open and `user_location` is any object.
 * - function_call: the legacy option accepts any string.
 * - response_format: the SDK names `json_schema.schema` with its own JSON Schema type; checked below.
 * - stream: ours may be `true`; this checks the non-streaming params (the streaming one differs only there).
 * - prompt_cache_options: `ttl` is an open string (the SDK lists only today's `30m`).
 * - moderation: the policy's modes are open strings.
 */
type OmittedFromRequest =
  | "messages"
  | "tools"
  | "tool_choice"
  | "service_tier"
  | "reasoning_effort"
  | "verbosity"
  | "modalities"
  | "audio"
  | "web_search_options"
  | "function_call"
  | "stream"
  | "prompt_cache_options"
  | "moderation";

declare const request: Without<chat.Request, OmittedFromRequest>;
const requestFields: Omit<Params, OmittedFromRequest> = request;
void requestFields;

// Messages role by role, with the open-enum fields of parts removed.
declare const system: chat.SystemMessage;
const systemParam: OpenAI.Chat.Completions.ChatCompletionSystemMessageParam = system;
declare const developer: chat.DeveloperMessage;
const developerParam: OpenAI.Chat.Completions.ChatCompletionDeveloperMessageParam = developer;
declare const tool: chat.ToolMessage;
const toolParam: OpenAI.Chat.Completions.ChatCompletionToolMessageParam = tool;
declare const fn: chat.FunctionMessage;
const functionParam: OpenAI.Chat.Completions.ChatCompletionFunctionMessageParam = fn;
declare const text: chat.TextPart;
const textParam: OpenAI.Chat.Completions.ChatCompletionContentPartText = text;
declare const file: chat.FilePart;
const fileParam: OpenAI.Chat.Completions.ChatCompletionContentPart.File = file;
declare const functionCall: chat.FunctionToolCall;
const functionCallParam: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall = functionCall;
declare const named: chat.NamedToolChoice;
const namedParam: OpenAI.Chat.Completions.ChatCompletionNamedToolChoice = named;
declare const functionTool: chat.FunctionTool;
const functionToolParam: OpenAI.Chat.Completions.ChatCompletionFunctionTool = functionTool;
// `reasoning_content`/`reasoning`/`reasoning_details` are extensions; `function_call` and `tool_calls` are
// nullable in ours (providers send null); content parts also take Mistral `thinking` chunks, so only the
// text and refusal parts are checked.
declare const assistant: Without<chat.AssistantMessage, "function_call" | "tool_calls" | "content"> & {
  tool_calls?: chat.FunctionToolCall[];
  content?: string | (chat.TextPart | chat.RefusalPart)[] | null;
};
const assistantParam: OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam = assistant;
void [
  systemParam,
  developerParam,
  toolParam,
  functionParam,
  textParam,
  fileParam,
  functionCallParam,
  namedParam,
  functionToolParam,
  assistantParam,
];

// ─── The SDK's response and chunk → ours ─────────────────────────────────────────────────────────

declare const completion: OpenAI.Chat.Completions.ChatCompletion;
const response: Known<chat.Response> = completion;
declare const sdkChunk: OpenAI.Chat.Completions.ChatCompletionChunk;
const ourChunk: Known<chat.Chunk> = sdkChunk;
const ourEvent: Known<chat.StreamEvent> = sdkChunk;
declare const usage: OpenAI.CompletionUsage;
const ourUsage: Known<chat.Usage> = usage;
declare const apiError: {
  error: { message: string; type: string; param: string | null; code: string | null };
};
const ourError: Known<chat.ErrorBody> = apiError;
void [response, ourChunk, ourEvent, ourUsage, ourError];
