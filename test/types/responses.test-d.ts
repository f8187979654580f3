/**
 * Type tests (checked by `tsc --noEmit`): our inferred responses types and the `openai` SDK's types
 * agree on the fields both define (DESIGN rule 8). Our unions of items, parts, tools and events are
 * open (`UnknownKind` takes any `{type: string}`), so a check against a whole union would pass for any
 * member: the known kinds are checked one by one.
 */
import type OpenAI from "openai";
import type * as responses from "../../src/protocols/responses/schema";

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

type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming;

// ─── Our request → the SDK's request ─────────────────────────────────────────────────────────────

/**
 * Fields omitted because our schema is deliberately wider than the SDK (vendor enums left open, open
 * unions of kinds, shapes other servers accept):
 * - input: items, and the parts of messages, form open unions; the known ones are checked below.
 * - tools, tool_choice, text: open unions of tool kinds, choice objects and formats (xAI's `x_search`
 *   …); function/custom tools, the function choice and the json_schema format are checked below.
 * - reasoning (effort, summary, context, mode), include, truncation, service_tier,
 *   prompt_cache_retention, prompt_cache_options (mode, ttl), moderation (policy modes): open vendor enums.
 * - prompt: `variables` is kept as any record (the SDK lists the part types it may hold).
 * - stream: ours may be `true`; this checks the non-streaming params (the streaming one differs only there).
 */
type OmittedFromRequest =
  | "input"
  | "tools"
  | "tool_choice"
  | "text"
  | "reasoning"
  | "include"
  | "truncation"
  | "service_tier"
  | "prompt_cache_retention"
  | "prompt_cache_options"
  | "moderation"
  | "prompt"
  | "stream";

declare const request: Without<responses.Request, OmittedFromRequest>;
const requestFields: Omit<Params, OmittedFromRequest> = request;
void requestFields;

// Input items, kind by kind (status/phase/detail are open enums on ours; part lists are open unions;
// ours takes `prompt_cache_breakpoint: null`, which the SDK's message parts do not list).
declare const easyMessage: Without<responses.InputMessage, "content" | "phase" | "status" | "id" | "type"> & {
  content: string;
};
const easyMessageParam: OpenAI.Responses.EasyInputMessage = easyMessage;
declare const functionCall: Without<responses.FunctionCall, "status" | "caller">;
const functionCallParam: OpenAI.Responses.ResponseFunctionToolCall = functionCall;
declare const functionOutput: Without<responses.FunctionCallOutput, "output" | "status" | "caller"> & {
  output: string;
};
const functionOutputParam: OpenAI.Responses.ResponseInputItem.FunctionCallOutput = functionOutput;
declare const reasoningItem: Without<responses.Reasoning, "status" | "content">;
const reasoningParam: OpenAI.Responses.ResponseReasoningItem = reasoningItem;
declare const reference: responses.ItemReference;
const referenceParam: OpenAI.Responses.ResponseInputItem.ItemReference = reference;
declare const compactionItem: responses.Compaction;
const compactionParam: OpenAI.Responses.ResponseCompactionItemParam = compactionItem;
declare const customCall: Without<responses.CustomToolCall, "status" | "caller">;
const customCallParam: OpenAI.Responses.ResponseCustomToolCall = customCall;
declare const text: Without<responses.InputText, "prompt_cache_breakpoint">;
const textParam: OpenAI.Responses.ResponseInputText = text;
declare const image: Without<responses.InputImage, "detail" | "prompt_cache_breakpoint">;
const imageParam: OpenAI.Responses.ResponseInputImageContent = image;
declare const file: Without<responses.InputFile, "detail" | "prompt_cache_breakpoint">;
const fileParam: OpenAI.Responses.ResponseInputFileContent = file;
void [
  easyMessageParam,
  functionCallParam,
  functionOutputParam,
  reasoningParam,
  referenceParam,
  compactionParam,
  customCallParam,
  textParam,
  imageParam,
  fileParam,
];

// Tools and settings. The SDK's FunctionTool requires `parameters` and `strict` (nullable); the API
// takes them absent (an absent `strict` means strict), so ours has them optional.
declare const functionTool: Without<responses.FunctionTool, "allowed_callers"> & {
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
};
const functionToolParam: OpenAI.Responses.FunctionTool = functionTool;
declare const customTool: Without<responses.CustomTool, "format" | "allowed_callers">;
const customToolParam: OpenAI.Responses.CustomTool = customTool;
declare const functionChoice: { type: "function"; name: string };
const functionChoiceParam: OpenAI.Responses.ToolChoiceFunction = functionChoice;
declare const schemaFormat: Without<responses.JsonSchemaFormat, "description">;
const schemaFormatParam: OpenAI.Responses.ResponseFormatTextJSONSchemaConfig = schemaFormat;
void [functionToolParam, customToolParam, functionChoiceParam, schemaFormatParam];

// ─── The SDK's response, items, usage and events → ours ──────────────────────────────────────────

declare const sdkResponse: OpenAI.Responses.Response;
const ourResponse: Known<responses.Response> = sdkResponse;
declare const sdkUsage: OpenAI.Responses.ResponseUsage;
const ourUsage: Known<responses.Usage> = sdkUsage;
declare const sdkError: OpenAI.Responses.ResponseError;
const ourError: Known<responses.ResponseError> = sdkError;
declare const apiError: { error: OpenAI.ErrorObject };
const ourErrorBody: Known<responses.ErrorBody> = apiError;
void [ourResponse, ourUsage, ourError, ourErrorBody];

declare const sdkMessage: OpenAI.Responses.ResponseOutputMessage;
const ourMessage: Known<responses.OutputMessage> = sdkMessage;
declare const sdkOutputText: OpenAI.Responses.ResponseOutputText;
const ourOutputText: Known<responses.OutputText> = sdkOutputText;
declare const sdkRefusal: OpenAI.Responses.ResponseOutputRefusal;
const ourRefusal: Known<responses.Refusal> = sdkRefusal;
declare const sdkUrlCitation: OpenAI.Responses.ResponseOutputText.URLCitation;
const ourUrlCitation: Known<responses.UrlCitation> = sdkUrlCitation;
declare const sdkFileCitation: OpenAI.Responses.ResponseOutputText.FileCitation;
const ourFileCitation: Known<responses.FileCitation> = sdkFileCitation;
declare const sdkFunctionCall: OpenAI.Responses.ResponseFunctionToolCall;
const ourFunctionCall: Known<responses.FunctionCall> = sdkFunctionCall;
declare const sdkFunctionOutput: OpenAI.Responses.ResponseFunctionToolCallOutputItem;
const ourFunctionOutput: Known<responses.FunctionCallOutput> = sdkFunctionOutput;
declare const sdkReasoning: OpenAI.Responses.ResponseReasoningItem;
const ourReasoning: Known<responses.Reasoning> = sdkReasoning;
declare const sdkCustomCall: OpenAI.Responses.ResponseCustomToolCall;
const ourCustomCall: Known<responses.CustomToolCall> = sdkCustomCall;
declare const sdkCompaction: OpenAI.Responses.ResponseCompactionItem;
const ourCompaction: Known<responses.Compaction> = sdkCompaction;
declare const sdkWebSearch: OpenAI.Responses.ResponseFunctionWebSearch;
const ourWebSearch: Known<responses.WebSearchCall> = sdkWebSearch;
declare const sdkFileSearch: OpenAI.Responses.ResponseFileSearchToolCall;
const ourFileSearch: Known<responses.FileSearchCall> = sdkFileSearch;
declare const sdkCodeInterpreter: OpenAI.Responses.ResponseCodeInterpreterToolCall;
const ourCodeInterpreter: Known<responses.CodeInterpreterCall> = sdkCodeInterpreter;
declare const sdkMcpCall: OpenAI.Responses.ResponseOutputItem.McpCall;
const ourMcpCall: Known<responses.McpCall> = sdkMcpCall;
declare const sdkShellCall: OpenAI.Responses.ResponseFunctionShellToolCall;
const ourShellCall: Known<responses.ShellCall> = sdkShellCall;
declare const sdkOutputItem: OpenAI.Responses.ResponseOutputItem;
const ourOutputItem: Known<responses.OutputItem> = sdkOutputItem;
void [
  ourMessage,
  ourOutputText,
  ourRefusal,
  ourUrlCitation,
  ourFileCitation,
  ourFunctionCall,
  ourFunctionOutput,
  ourReasoning,
  ourCustomCall,
  ourCompaction,
  ourWebSearch,
  ourFileSearch,
  ourCodeInterpreter,
  ourMcpCall,
  ourShellCall,
  ourOutputItem,
];

// Events: the whole union, then the known kinds one by one.
type SdkEvent = OpenAI.Responses.ResponseStreamEvent;
type SdkEventOf<T extends SdkEvent["type"]> = Extract<SdkEvent, { type: T }>;
declare const sdkEvent: SdkEvent;
const ourEvent: Known<responses.StreamEvent> = sdkEvent;
declare const created: SdkEventOf<
  "response.created" | "response.completed" | "response.incomplete" | "response.failed"
>;
const ourLifecycle: Known<responses.LifecycleEvent> = created;
declare const itemAdded: SdkEventOf<"response.output_item.added" | "response.output_item.done">;
const ourItemEvent: Known<responses.OutputItemEvent> = itemAdded;
declare const partAdded: SdkEventOf<"response.content_part.added" | "response.content_part.done">;
const ourPartEvent: Known<responses.ContentPartEvent> = partAdded;
declare const textDelta: SdkEventOf<"response.output_text.delta">;
const ourTextDelta: Known<responses.OutputTextDeltaEvent> = textDelta;
declare const textDone: SdkEventOf<"response.output_text.done">;
const ourTextDone: Known<responses.OutputTextDoneEvent> = textDone;
declare const argumentsDelta: SdkEventOf<"response.function_call_arguments.delta">;
const ourArgumentsDelta: Known<responses.FunctionCallArgumentsDeltaEvent> = argumentsDelta;
declare const argumentsDone: SdkEventOf<"response.function_call_arguments.done">;
const ourArgumentsDone: Known<responses.FunctionCallArgumentsDoneEvent> = argumentsDone;
declare const summaryPart: SdkEventOf<"response.reasoning_summary_part.added">;
const ourSummaryPart: Known<responses.ReasoningSummaryPartEvent> = summaryPart;
declare const summaryDelta: SdkEventOf<"response.reasoning_summary_text.delta">;
const ourSummaryDelta: Known<responses.ReasoningSummaryTextDeltaEvent> = summaryDelta;
declare const reasoningDelta: SdkEventOf<"response.reasoning_text.delta">;
const ourReasoningDelta: Known<responses.ReasoningTextDeltaEvent> = reasoningDelta;
declare const refusalDelta: SdkEventOf<"response.refusal.delta">;
const ourRefusalDelta: Known<responses.RefusalDeltaEvent> = refusalDelta;
declare const annotationAdded: SdkEventOf<"response.output_text.annotation.added">;
const ourAnnotationAdded: Known<Without<responses.AnnotationAddedEvent, "annotation">> = annotationAdded;
declare const errorEvent: SdkEventOf<"error">;
const ourErrorEvent: Known<responses.ErrorEvent> = errorEvent;
declare const progress: SdkEventOf<"response.web_search_call.searching" | "response.mcp_call.failed">;
const ourProgress: Known<responses.ToolProgressEvent> = progress;
void [
  ourEvent,
  ourLifecycle,
  ourItemEvent,
  ourPartEvent,
  ourTextDelta,
  ourTextDone,
  ourArgumentsDelta,
  ourArgumentsDone,
  ourSummaryPart,
  ourSummaryDelta,
  ourReasoningDelta,
  ourRefusalDelta,
  ourAnnotationAdded,
  ourErrorEvent,
  ourProgress,
];

// ─── The table: the wire types of "responses" are these schemas' ──────────────────────────────────

import type { ErrorBodyOf, EventOf, RequestOf, ResponseOf } from "../../src/index";
import type { historyOf } from "../../src/protocols/responses/history";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const requestOf: Same<RequestOf<"responses">, responses.Request> = true;
const responseOf: Same<ResponseOf<"responses">, responses.Response> = true;
const eventOf: Same<EventOf<"responses">, responses.StreamEvent> = true;
const errorBodyOf: Same<ErrorBodyOf<"responses">, responses.ErrorBody> = true;
// What historyOf stores is what options.history and a request's `input` take.
const stored: Same<ReturnType<typeof historyOf>, responses.InputItem[]> = true;
void [requestOf, responseOf, eventOf, errorBodyOf, stored];
