/**
 * Stream events of the responses protocol (`event: <type>` + `data: <json>`): the response lifecycle,
 * output items opened and closed by `output_index`, content parts and their deltas, built-in tool
 * progress, and `error`. Event types this library does not know are accepted as they come.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
import { z } from "zod/v4";
import { annotation, logprob, streamedPart, summaryText } from "./schema-content";
import { outputItem } from "./schema-items";
import { errorObject, response } from "./schema-response";
import { type KnownOf, nonNegativeInt, openUnion, typesOf, type UnknownKind } from "./schema-shared";

/**
 * `sequence_number` increases by one per event. Recordings from March 2025 carry none, so it is
 * optional here; encoders always write it.
 */
const sequence = { sequence_number: nonNegativeInt.optional() };
/** Events about one output item. */
const ofItem = { ...sequence, item_id: z.string(), output_index: nonNegativeInt };
/** Events about one content part of an output item. */
const ofPart = { ...ofItem, content_index: nonNegativeInt };
/** Events about one reasoning summary part. */
const ofSummary = { ...ofItem, summary_index: nonNegativeInt };

/** An event carrying only its place: `{type, sequence_number, item_id, output_index}`. */
function progress<const T extends readonly [string, ...string[]]>(types: T) {
  return z.looseObject({ type: z.enum(types), ...ofItem });
}

// ─── Lifecycle ────────────────────────────────────────────────────────────────────────────────────

/** `response.created` … `.completed` / `.incomplete` / `.failed`: the whole response so far. */
export const lifecycleEvent = z.looseObject({
  type: z.enum([
    "response.created",
    "response.queued",
    "response.in_progress",
    "response.completed",
    "response.incomplete",
    "response.failed",
  ]),
  response,
  ...sequence,
});
/**
 * `response.created` … `.completed` / `.incomplete` / `.failed`: the whole response so far. The type
 * `lifecycleEvent` parses to.
 */
export type LifecycleEvent = z.infer<typeof lifecycleEvent>;

/**
 * A stream error. The SDK types it flat (`{code, message, param}`); the API has been recorded sending
 * the error nested (`{error: {type, code, message, param}}`), so both are accepted.
 */
export const errorEvent = z.looseObject({
  type: z.literal("error"),
  code: z.string().nullable().optional(),
  message: z.string().optional(),
  param: z.string().nullable().optional(),
  error: errorObject.optional(),
  ...sequence,
});
/**
 * A stream error. The SDK types it flat (`{code, message, param}`); the API has been recorded sending the
 * error nested (`{error: {type, code, message, param}}`), so both are accepted. The type `errorEvent` parses
 * to.
 */
export type ErrorEvent = z.infer<typeof errorEvent>;

// ─── Items and content parts ──────────────────────────────────────────────────────────────────────

/** An output item opens (`added`, often still empty) or closes (`done`, complete: encrypted_content arrives here). */
export const outputItemEvent = z.looseObject({
  type: z.enum(["response.output_item.added", "response.output_item.done"]),
  output_index: nonNegativeInt,
  item: outputItem,
  ...sequence,
});
/**
 * An output item opens (`added`, often still empty) or closes (`done`, complete: encrypted_content arrives
 * here). The type `outputItemEvent` parses to.
 */
export type OutputItemEvent = z.infer<typeof outputItemEvent>;

export const contentPartEvent = z.looseObject({
  type: z.enum(["response.content_part.added", "response.content_part.done"]),
  part: streamedPart,
  ...ofPart,
});
export type ContentPartEvent = z.infer<typeof contentPartEvent>;

export const outputTextDeltaEvent = z.looseObject({
  type: z.literal("response.output_text.delta"),
  delta: z.string(),
  logprobs: z.array(logprob).optional(),
  ...ofPart,
});
export type OutputTextDeltaEvent = z.infer<typeof outputTextDeltaEvent>;

export const outputTextDoneEvent = z.looseObject({
  type: z.literal("response.output_text.done"),
  text: z.string(),
  logprobs: z.array(logprob).optional(),
  ...ofPart,
});
export type OutputTextDoneEvent = z.infer<typeof outputTextDoneEvent>;

export const annotationAddedEvent = z.looseObject({
  type: z.literal("response.output_text.annotation.added"),
  annotation_index: nonNegativeInt,
  annotation,
  ...ofPart,
});
export type AnnotationAddedEvent = z.infer<typeof annotationAddedEvent>;

export const refusalDeltaEvent = z.looseObject({
  type: z.literal("response.refusal.delta"),
  delta: z.string(),
  ...ofPart,
});
export type RefusalDeltaEvent = z.infer<typeof refusalDeltaEvent>;

export const refusalDoneEvent = z.looseObject({
  type: z.literal("response.refusal.done"),
  refusal: z.string(),
  ...ofPart,
});
export type RefusalDoneEvent = z.infer<typeof refusalDoneEvent>;

export const functionCallArgumentsDeltaEvent = z.looseObject({
  type: z.literal("response.function_call_arguments.delta"),
  delta: z.string(),
  ...ofItem,
});
export type FunctionCallArgumentsDeltaEvent = z.infer<typeof functionCallArgumentsDeltaEvent>;

/** `name` is in the SDK's type; older recordings lack it. */
export const functionCallArgumentsDoneEvent = z.looseObject({
  type: z.literal("response.function_call_arguments.done"),
  arguments: z.string(),
  name: z.string().optional(),
  ...ofItem,
});
export type FunctionCallArgumentsDoneEvent = z.infer<typeof functionCallArgumentsDoneEvent>;

export const customToolCallInputDeltaEvent = z.looseObject({
  type: z.literal("response.custom_tool_call_input.delta"),
  delta: z.string(),
  ...ofItem,
});
export type CustomToolCallInputDeltaEvent = z.infer<typeof customToolCallInputDeltaEvent>;

export const customToolCallInputDoneEvent = z.looseObject({
  type: z.literal("response.custom_tool_call_input.done"),
  input: z.string(),
  ...ofItem,
});
export type CustomToolCallInputDoneEvent = z.infer<typeof customToolCallInputDoneEvent>;

// ─── Reasoning ────────────────────────────────────────────────────────────────────────────────────

export const reasoningSummaryPartEvent = z.looseObject({
  type: z.enum(["response.reasoning_summary_part.added", "response.reasoning_summary_part.done"]),
  part: summaryText,
  ...ofSummary,
});
export type ReasoningSummaryPartEvent = z.infer<typeof reasoningSummaryPartEvent>;

export const reasoningSummaryTextDeltaEvent = z.looseObject({
  type: z.literal("response.reasoning_summary_text.delta"),
  delta: z.string(),
  ...ofSummary,
});
export type ReasoningSummaryTextDeltaEvent = z.infer<typeof reasoningSummaryTextDeltaEvent>;

export const reasoningSummaryTextDoneEvent = z.looseObject({
  type: z.literal("response.reasoning_summary_text.done"),
  text: z.string(),
  ...ofSummary,
});
export type ReasoningSummaryTextDoneEvent = z.infer<typeof reasoningSummaryTextDoneEvent>;

export const reasoningTextDeltaEvent = z.looseObject({
  type: z.literal("response.reasoning_text.delta"),
  delta: z.string(),
  ...ofPart,
});
export type ReasoningTextDeltaEvent = z.infer<typeof reasoningTextDeltaEvent>;

export const reasoningTextDoneEvent = z.looseObject({
  type: z.literal("response.reasoning_text.done"),
  text: z.string(),
  ...ofPart,
});
export type ReasoningTextDoneEvent = z.infer<typeof reasoningTextDoneEvent>;

// ─── Built-in tool progress ───────────────────────────────────────────────────────────────────────

/** Progress of built-in tool calls that carry nothing but their place. */
export const toolProgressEvent = progress([
  "response.web_search_call.in_progress",
  "response.web_search_call.searching",
  "response.web_search_call.completed",
  "response.file_search_call.in_progress",
  "response.file_search_call.searching",
  "response.file_search_call.completed",
  "response.code_interpreter_call.in_progress",
  "response.code_interpreter_call.interpreting",
  "response.code_interpreter_call.completed",
  "response.image_generation_call.in_progress",
  "response.image_generation_call.generating",
  "response.image_generation_call.completed",
  "response.mcp_call.in_progress",
  "response.mcp_call.completed",
  "response.mcp_call.failed",
  "response.mcp_list_tools.in_progress",
  "response.mcp_list_tools.completed",
  "response.mcp_list_tools.failed",
]);
export type ToolProgressEvent = z.infer<typeof toolProgressEvent>;

export const codeInterpreterCodeDeltaEvent = z.looseObject({
  type: z.literal("response.code_interpreter_call_code.delta"),
  delta: z.string(),
  ...ofItem,
});
export type CodeInterpreterCodeDeltaEvent = z.infer<typeof codeInterpreterCodeDeltaEvent>;

export const codeInterpreterCodeDoneEvent = z.looseObject({
  type: z.literal("response.code_interpreter_call_code.done"),
  code: z.string(),
  ...ofItem,
});
export type CodeInterpreterCodeDoneEvent = z.infer<typeof codeInterpreterCodeDoneEvent>;

export const imageGenerationPartialImageEvent = z.looseObject({
  type: z.literal("response.image_generation_call.partial_image"),
  partial_image_b64: z.string(),
  partial_image_index: nonNegativeInt,
  ...ofItem,
});
export type ImageGenerationPartialImageEvent = z.infer<typeof imageGenerationPartialImageEvent>;

export const mcpCallArgumentsDeltaEvent = z.looseObject({
  type: z.literal("response.mcp_call_arguments.delta"),
  delta: z.string(),
  ...ofItem,
});
export type McpCallArgumentsDeltaEvent = z.infer<typeof mcpCallArgumentsDeltaEvent>;

export const mcpCallArgumentsDoneEvent = z.looseObject({
  type: z.literal("response.mcp_call_arguments.done"),
  arguments: z.string(),
  ...ofItem,
});
export type McpCallArgumentsDoneEvent = z.infer<typeof mcpCallArgumentsDoneEvent>;

/** Shell command text, streamed per `command_index`; these events carry no `item_id` (recorded). */
export const shellCallCommandEvent = z.looseObject({
  type: z.enum(["response.shell_call_command.added", "response.shell_call_command.done"]),
  command: z.string(),
  output_index: nonNegativeInt,
  command_index: nonNegativeInt,
  ...sequence,
});
export type ShellCallCommandEvent = z.infer<typeof shellCallCommandEvent>;

export const shellCallCommandDeltaEvent = z.looseObject({
  type: z.literal("response.shell_call_command.delta"),
  delta: z.string(),
  output_index: nonNegativeInt,
  command_index: nonNegativeInt,
  ...sequence,
});
export type ShellCallCommandDeltaEvent = z.infer<typeof shellCallCommandDeltaEvent>;

export const shellCallOutputContentEvent = z.looseObject({
  type: z.enum(["response.shell_call_output_content.delta", "response.shell_call_output_content.done"]),
  command_index: nonNegativeInt,
  ...ofItem,
});
export type ShellCallOutputContentEvent = z.infer<typeof shellCallOutputContentEvent>;

/** apply_patch diff text (recorded; in neither the SDK's union nor the OpenAPI spec). */
export const applyPatchDiffDeltaEvent = z.looseObject({
  type: z.literal("response.apply_patch_call_operation_diff.delta"),
  delta: z.string(),
  ...ofItem,
});
export type ApplyPatchDiffDeltaEvent = z.infer<typeof applyPatchDiffDeltaEvent>;

export const applyPatchDiffDoneEvent = z.looseObject({
  type: z.literal("response.apply_patch_call_operation_diff.done"),
  diff: z.string(),
  ...ofItem,
});
export type ApplyPatchDiffDoneEvent = z.infer<typeof applyPatchDiffDoneEvent>;

/** Audio output (`response.audio.*`), in the SDK's union. */
export const audioEvent = z.looseObject({
  type: z.enum([
    "response.audio.delta",
    "response.audio.done",
    "response.audio.transcript.delta",
    "response.audio.transcript.done",
  ]),
  delta: z.string().optional(),
  ...sequence,
});
export type AudioEvent = z.infer<typeof audioEvent>;

// ─── The stream ───────────────────────────────────────────────────────────────────────────────────

/** `data: [DONE]`: OpenAI's responses streams do not send it; OpenRouter's end with it (recorded). */
export const DONE = "[DONE]" as const;
/** The type of `DONE`. */
export type Done = typeof DONE;

/** The events this library models, by `type`. */
const eventSchemas = [
  lifecycleEvent,
  errorEvent,
  outputItemEvent,
  contentPartEvent,
  outputTextDeltaEvent,
  outputTextDoneEvent,
  annotationAddedEvent,
  refusalDeltaEvent,
  refusalDoneEvent,
  functionCallArgumentsDeltaEvent,
  functionCallArgumentsDoneEvent,
  customToolCallInputDeltaEvent,
  customToolCallInputDoneEvent,
  reasoningSummaryPartEvent,
  reasoningSummaryTextDeltaEvent,
  reasoningSummaryTextDoneEvent,
  reasoningTextDeltaEvent,
  reasoningTextDoneEvent,
  toolProgressEvent,
  codeInterpreterCodeDeltaEvent,
  codeInterpreterCodeDoneEvent,
  imageGenerationPartialImageEvent,
  mcpCallArgumentsDeltaEvent,
  mcpCallArgumentsDoneEvent,
  shellCallCommandEvent,
  shellCallCommandDeltaEvent,
  shellCallOutputContentEvent,
  applyPatchDiffDeltaEvent,
  applyPatchDiffDoneEvent,
  audioEvent,
] as const;

/** The event types the stream schema checks field by field (any other type is kept as it comes). */
export const streamEventTypes = typesOf(eventSchemas);

/** One event object: the kinds this library models are checked by `type`, any other type is kept. */
export type StreamEventObject = z.output<KnownOf<typeof eventSchemas>> | UnknownKind;
export type StreamEventObjectInput = z.input<KnownOf<typeof eventSchemas>> | UnknownKind;
/**
 * Schema of one event object of a responses stream (`StreamEventObject`): known types checked field by field, any other type kept.
 */
export const streamEventObject: z.ZodType<StreamEventObject, StreamEventObjectInput> =
  openUnion(eventSchemas);

/**
 * One SSE `data:` payload of a responses stream: a known event checked by its schema, an event of a type
 * this library does not know (kept, so a new event never breaks a gateway), or OpenRouter's `[DONE]`.
 */
export const streamEvent: z.ZodUnion<readonly [typeof streamEventObject, z.ZodLiteral<Done>]> = z.union([
  streamEventObject,
  z.literal(DONE),
]);
/**
 * One SSE `data:` payload of a responses stream: a known event checked by its schema, an event of a type this
 * library does not know (kept, so a new event never breaks a gateway), or OpenRouter's `[DONE]`. The type
 * `streamEvent` parses to.
 */
export type StreamEvent = z.infer<typeof streamEvent>;
