/**
 * Items of the responses protocol: what `input` lists and `output` returns. Messages, function calls and
 * their outputs, reasoning and item references are checked field by field; built-in tool calls and
 * their outputs are checked for the ids that tie them together and kept whole; unknown item types pass.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-output
 */
import { z } from "zod/v4";
import {
  type InputContent,
  inputContent,
  outputContent,
  reasoningContent,
  summaryText,
  toolOutputContent,
} from "./schema-content";
import {
  caller,
  itemStatus,
  type KnownOf,
  openEnum,
  openItemUnion,
  openUnion,
  typesOf,
  type UnknownKind,
} from "./schema-shared";

const status = { status: itemStatus.nullable().optional() };
const optionalId = { id: z.string().nullable().optional() };
const loose = z.looseObject({});

// ─── Messages ─────────────────────────────────────────────────────────────────────────────────────

/** The role of a message item: `user`, `assistant`, `system` or `developer`. */
export const role = z.enum(["user", "assistant", "system", "developer"]);
/** The role of a message item: `user`, `assistant`, `system` or `developer`. The type `role` parses to. */
export type Role = z.infer<typeof role>;

/** Marks an assistant message as intermediate commentary or the final answer (Codex models). */
export const phase = openEnum(["commentary", "final_answer"]).nullable().optional();

/**
 * A message in `input`: `type` may be omitted (EasyInputMessage), `content` is a string or parts, and
 * an assistant turn may be replayed with its output parts, `id` and `status`.
 */
export const inputMessage = z.looseObject({
  type: z.literal("message").optional(),
  role,
  content: z.union([z.string(), z.array(inputContent)]),
  id: z.string().optional(),
  phase,
  ...status,
});
/**
 * A message in `input`: `type` may be omitted (EasyInputMessage), `content` is a string or parts, and an
 * assistant turn may be replayed with its output parts, `id` and `status`. The type `inputMessage` parses to.
 */
export type InputMessage = z.infer<typeof inputMessage>;
export type { InputContent };

/** An assistant message in `output`. */
export const outputMessage = z.looseObject({
  type: z.literal("message"),
  id: z.string(),
  role: z.literal("assistant"),
  content: z.array(outputContent),
  phase,
  ...status,
});
/** An assistant message in `output`. The type `outputMessage` parses to. */
export type OutputMessage = z.infer<typeof outputMessage>;

// ─── Function and custom tool calls ───────────────────────────────────────────────────────────────

/** A function call: `call_id` pairs it with its output; `arguments` is the JSON text the model wrote. */
export const functionCall = z.looseObject({
  type: z.literal("function_call"),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  id: z.string().optional(),
  namespace: z.string().optional(),
  caller: caller.nullable().optional(),
  ...status,
});
/**
 * A function call: `call_id` pairs it with its output; `arguments` is the JSON text the model wrote. The type
 * `functionCall` parses to.
 */
export type FunctionCall = z.infer<typeof functionCall>;

/** A function's result, matched to its call by `call_id`; `output` is text or input parts. */
export const functionCallOutput = z.looseObject({
  type: z.literal("function_call_output"),
  call_id: z.string(),
  output: z.union([z.string(), z.array(toolOutputContent)]),
  caller: caller.nullable().optional(),
  ...optionalId,
  ...status,
});
/**
 * A function's result, matched to its call by `call_id`; `output` is text or input parts. The type
 * `functionCallOutput` parses to.
 */
export type FunctionCallOutput = z.infer<typeof functionCallOutput>;

/** A call of a custom tool: free-text `input` instead of JSON arguments. */
export const customToolCall = z.looseObject({
  type: z.literal("custom_tool_call"),
  call_id: z.string(),
  name: z.string(),
  input: z.string(),
  id: z.string().optional(),
  namespace: z.string().optional(),
  caller: caller.nullable().optional(),
  ...status,
});
/**
 * A call of a custom tool: free-text `input` instead of JSON arguments. The type `customToolCall` parses to.
 */
export type CustomToolCall = z.infer<typeof customToolCall>;

/**
 * The output of a custom tool call, sent back as input: `{ type: "custom_tool_call_output", call_id, output }`.
 */
export const customToolCallOutput = z.looseObject({
  type: z.literal("custom_tool_call_output"),
  call_id: z.string(),
  output: z.union([z.string(), z.array(toolOutputContent)]),
  caller: caller.nullable().optional(),
  ...optionalId,
  ...status,
});
/**
 * The output of a custom tool call, sent back as input: `{ type: "custom_tool_call_output", call_id, output
 * }`. The type `customToolCallOutput` parses to.
 */
export type CustomToolCallOutput = z.infer<typeof customToolCallOutput>;

// ─── Reasoning, compaction, references ────────────────────────────────────────────────────────────

/**
 * A reasoning item: `summary` (kept even when empty), raw `content` from some servers, and the opaque
 * `encrypted_content` only its issuer can read. It must be replayed immediately before the item that
 * followed it, or the API answers 400 (see the recorded error fixture).
 */
export const reasoning = z.looseObject({
  type: z.literal("reasoning"),
  id: z.string(),
  summary: z.array(summaryText),
  content: z.array(reasoningContent).nullable().optional(),
  encrypted_content: z.string().nullable().optional(),
  ...status,
});
/**
 * A reasoning item: `summary` (kept even when empty), raw `content` from some servers, and the opaque
 * `encrypted_content` only its issuer can read. It must be replayed immediately before the item that followed
 * it, or the API answers 400 (see the recorded error fixture). The type `reasoning` parses to.
 */
export type Reasoning = z.infer<typeof reasoning>;
/**
 * A reasoning item as a request replays it: its `id` may be left out (stateless clients such as Codex
 * replay the encrypted content without it, and the service accepts that).
 */
export const inputReasoning = z.looseObject({ ...reasoning.shape, id: z.string().optional() });
export type InputReasoning = z.infer<typeof inputReasoning>;

/** Earlier context compacted by the service into one opaque item. */
export const compaction = z.looseObject({
  type: z.literal("compaction"),
  encrypted_content: z.string(),
  ...optionalId,
});
/** Earlier context compacted by the service into one opaque item. The type `compaction` parses to. */
export type Compaction = z.infer<typeof compaction>;

export const compactionTrigger = z.looseObject({ type: z.literal("compaction_trigger") });
export type CompactionTrigger = z.infer<typeof compactionTrigger>;

/** A stored item named by id; `type` may be omitted or null. */
export const itemReference = z.looseObject({
  type: z.literal("item_reference").nullable().optional(),
  id: z.string(),
});
/** A stored item named by id; `type` may be omitted or null. The type `itemReference` parses to. */
export type ItemReference = z.infer<typeof itemReference>;

// ─── Built-in tool calls and their outputs (kept whole) ───────────────────────────────────────────

export const webSearchCall = z.looseObject({
  type: z.literal("web_search_call"),
  id: z.string(),
  action: loose.optional(),
});
export type WebSearchCall = z.infer<typeof webSearchCall>;
export const fileSearchCall = z.looseObject({
  type: z.literal("file_search_call"),
  id: z.string(),
  queries: z.array(z.string()).optional(),
  results: z.array(loose).nullable().optional(),
});
export type FileSearchCall = z.infer<typeof fileSearchCall>;
export const codeInterpreterCall = z.looseObject({
  type: z.literal("code_interpreter_call"),
  id: z.string(),
  code: z.string().nullable().optional(),
  container_id: z.string().optional(),
  outputs: z.array(loose).nullable().optional(),
});
export type CodeInterpreterCall = z.infer<typeof codeInterpreterCall>;
export const imageGenerationCall = z.looseObject({
  type: z.literal("image_generation_call"),
  id: z.string(),
  result: z.string().nullable().optional(),
});
export type ImageGenerationCall = z.infer<typeof imageGenerationCall>;
export const computerCall = z.looseObject({
  type: z.literal("computer_call"),
  id: z.string(),
  call_id: z.string(),
});
export type ComputerCall = z.infer<typeof computerCall>;
export const computerCallOutput = z.looseObject({
  type: z.literal("computer_call_output"),
  call_id: z.string(),
  output: z.looseObject({ type: z.string() }),
});
export type ComputerCallOutput = z.infer<typeof computerCallOutput>;
export const localShellCall = z.looseObject({
  type: z.literal("local_shell_call"),
  id: z.string(),
  call_id: z.string(),
  action: loose,
});
export type LocalShellCall = z.infer<typeof localShellCall>;
export const localShellCallOutput = z.looseObject({
  type: z.literal("local_shell_call_output"),
  id: z.string(),
  output: z.string(),
});
export type LocalShellCallOutput = z.infer<typeof localShellCallOutput>;
export const shellCall = z.looseObject({
  type: z.literal("shell_call"),
  call_id: z.string(),
  action: z.looseObject({ commands: z.array(z.string()) }),
});
export type ShellCall = z.infer<typeof shellCall>;
export const shellCallOutput = z.looseObject({
  type: z.literal("shell_call_output"),
  call_id: z.string(),
  output: z.array(loose),
});
export type ShellCallOutput = z.infer<typeof shellCallOutput>;
export const applyPatchCall = z.looseObject({
  type: z.literal("apply_patch_call"),
  call_id: z.string(),
  operation: z.looseObject({ type: z.string() }),
});
export type ApplyPatchCall = z.infer<typeof applyPatchCall>;
export const applyPatchCallOutput = z.looseObject({
  type: z.literal("apply_patch_call_output"),
  call_id: z.string(),
});
export type ApplyPatchCallOutput = z.infer<typeof applyPatchCallOutput>;
export const mcpListTools = z.looseObject({
  type: z.literal("mcp_list_tools"),
  id: z.string(),
  server_label: z.string(),
  tools: z.array(z.looseObject({ name: z.string() })),
});
export type McpListTools = z.infer<typeof mcpListTools>;
export const mcpApprovalRequest = z.looseObject({
  type: z.literal("mcp_approval_request"),
  id: z.string(),
  server_label: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type McpApprovalRequest = z.infer<typeof mcpApprovalRequest>;
export const mcpApprovalResponse = z.looseObject({
  type: z.literal("mcp_approval_response"),
  approval_request_id: z.string(),
  approve: z.boolean(),
});
export type McpApprovalResponse = z.infer<typeof mcpApprovalResponse>;
/** `error` is a string in the SDK's types and an object `{code, message, type}` on the wire (recorded). */
export const mcpCall = z.looseObject({
  type: z.literal("mcp_call"),
  id: z.string(),
  server_label: z.string(),
  name: z.string(),
  arguments: z.string(),
  output: z.string().nullable().optional(),
  error: z.unknown().optional(),
});
export type McpCall = z.infer<typeof mcpCall>;
export const toolSearchCall = z.looseObject({ type: z.literal("tool_search_call"), arguments: z.unknown() });
export type ToolSearchCall = z.infer<typeof toolSearchCall>;
export const toolSearchOutput = z.looseObject({
  type: z.literal("tool_search_output"),
  tools: z.array(loose),
});
export type ToolSearchOutput = z.infer<typeof toolSearchOutput>;
export const additionalTools = z.looseObject({ type: z.literal("additional_tools"), tools: z.array(loose) });
export type AdditionalTools = z.infer<typeof additionalTools>;
export const program = z.looseObject({ type: z.literal("program"), id: z.string(), call_id: z.string() });
export type Program = z.infer<typeof program>;
export const programOutput = z.looseObject({
  type: z.literal("program_output"),
  id: z.string(),
  call_id: z.string(),
});
export type ProgramOutput = z.infer<typeof programOutput>;

/** The built-in tool items, by `type`. */
const builtInItems = [
  webSearchCall,
  fileSearchCall,
  codeInterpreterCall,
  imageGenerationCall,
  computerCall,
  computerCallOutput,
  localShellCall,
  localShellCallOutput,
  shellCall,
  shellCallOutput,
  applyPatchCall,
  applyPatchCallOutput,
  mcpListTools,
  mcpApprovalRequest,
  mcpApprovalResponse,
  mcpCall,
  toolSearchCall,
  toolSearchOutput,
  additionalTools,
  program,
  programOutput,
] as const;
export type BuiltInItem = z.infer<(typeof builtInItems)[number]>;

// ─── Unions ───────────────────────────────────────────────────────────────────────────────────────

const inputItemSchemas = [
  z.looseObject({ ...inputMessage.shape, type: z.literal("message") }),
  functionCall,
  functionCallOutput,
  customToolCall,
  customToolCallOutput,
  inputReasoning,
  compaction,
  compactionTrigger,
  z.looseObject({ ...itemReference.shape, type: z.literal("item_reference") }),
  ...builtInItems,
] as const;

/** The `type`s of input items checked field by field (any other is kept as it comes). */
export const inputItemTypes = typesOf(inputItemSchemas);

/**
 * One entry of a request's `input`. An entry without `type` is a message when it has a `role` and an
 * item reference otherwise; unknown types are kept.
 */
export type InputItem =
  | z.output<KnownOf<typeof inputItemSchemas>>
  | InputMessage
  | ItemReference
  | UnknownKind;
export type InputItemInput =
  | z.input<KnownOf<typeof inputItemSchemas>>
  | z.input<typeof inputMessage>
  | z.input<typeof itemReference>
  | UnknownKind;
/**
 * Schema of one entry of a request's `input` (`InputItem`): a message (also the short `{ role, content }` form), a tool call or its output, reasoning, an `item_reference`, or an unknown type (kept).
 */
export const inputItem: z.ZodType<InputItem, InputItemInput> = openItemUnion(inputItemSchemas, {
  message: inputMessage,
  reference: itemReference,
});

const outputItemSchemas = [
  outputMessage,
  functionCall,
  functionCallOutput,
  customToolCall,
  customToolCallOutput,
  reasoning,
  compaction,
  ...builtInItems,
] as const;

/** The `type`s of output items checked field by field (any other is kept as it comes). */
export const outputItemTypes = typesOf(outputItemSchemas);

/** One entry of a response's `output` (also the `item` of `response.output_item.*` events). */
export type OutputItem = z.output<KnownOf<typeof outputItemSchemas>> | UnknownKind;
export type OutputItemInput = z.input<KnownOf<typeof outputItemSchemas>> | UnknownKind;
/** Schema of one entry of a response's `output` (`OutputItem`). */
export const outputItem: z.ZodType<OutputItem, OutputItemInput> = openUnion(outputItemSchemas);
