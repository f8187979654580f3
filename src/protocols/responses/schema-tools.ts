/**
 * Tools, tool choice and output-format settings of the responses protocol. Function and custom tools are
 * flat (`{type: "function", name, parameters, strict}`); built-in tools are checked for the fields the
 * API requires and kept whole; tool kinds this library does not know are kept.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 */
import { z } from "zod/v4";
import { type KnownOf, openEnum, openUnion, type UnknownKind } from "./schema-shared";

const jsonObject = z.record(z.string(), z.unknown());
const allowedCallers = {
  allowed_callers: z
    .array(openEnum(["direct", "programmatic"]))
    .nullable()
    .optional(),
};

/**
 * A function tool. An omitted `strict` is not `false`: the service then treats the schema as strict and
 * rewrites optional parameters into required ones, so encoders say it explicitly.
 */
export const functionTool = z.looseObject({
  type: z.literal("function"),
  name: z.string(),
  description: z.string().nullable().optional(),
  parameters: jsonObject.nullable().optional(),
  strict: z.boolean().nullable().optional(),
  defer_loading: z.boolean().optional(),
  output_schema: jsonObject.nullable().optional(),
  ...allowedCallers,
});
/**
 * A function tool. An omitted `strict` is not `false`: the service then treats the schema as strict and
 * rewrites optional parameters into required ones, so encoders say it explicitly. The type
 * `functionTool` parses to.
 */
export type FunctionTool = z.infer<typeof functionTool>;

const customToolFormatKinds = [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("grammar"), syntax: openEnum(["lark", "regex"]), definition: z.string() }),
] as const;
export type CustomToolFormat = z.output<KnownOf<typeof customToolFormatKinds>> | UnknownKind;
export type CustomToolFormatInput = z.input<KnownOf<typeof customToolFormatKinds>> | UnknownKind;
/** How a custom tool's free-form input is constrained: plain text or a grammar (lark / regex). */
export const customToolFormat: z.ZodType<CustomToolFormat, CustomToolFormatInput> =
  openUnion(customToolFormatKinds);

/** A tool whose input is free text rather than JSON arguments. */
export const customTool = z.looseObject({
  type: z.literal("custom"),
  name: z.string(),
  description: z.string().optional(),
  format: customToolFormat.optional(),
  defer_loading: z.boolean().optional(),
  ...allowedCallers,
});
/** A tool whose input is free text rather than JSON arguments. The type `customTool` parses to. */
export type CustomTool = z.infer<typeof customTool>;

/** A named group of function and custom tools (tool search). */
export const namespaceTool = z.looseObject({
  type: z.literal("namespace"),
  name: z.string(),
  description: z.string().optional(),
  tools: z.array(z.looseObject({ type: z.string(), name: z.string() })),
});
export type NamespaceTool = z.infer<typeof namespaceTool>;

export const fileSearchTool = z.looseObject({
  type: z.literal("file_search"),
  vector_store_ids: z.array(z.string()),
});
export type FileSearchTool = z.infer<typeof fileSearchTool>;

export const webSearchTool = z.looseObject({
  type: z.enum([
    "web_search",
    "web_search_2025_08_26",
    "web_search_preview",
    "web_search_preview_2025_03_11",
  ]),
  search_context_size: openEnum(["low", "medium", "high"]).optional(),
  user_location: z.looseObject({}).nullable().optional(),
  filters: z.looseObject({}).nullable().optional(),
});
export type WebSearchTool = z.infer<typeof webSearchTool>;

export const mcpTool = z.looseObject({
  type: z.literal("mcp"),
  server_label: z.string(),
  server_url: z.string().nullable().optional(),
  connector_id: z.string().nullable().optional(),
  allowed_tools: z
    .union([z.array(z.string()), z.looseObject({})])
    .nullable()
    .optional(),
  require_approval: z
    .union([z.string(), z.looseObject({})])
    .nullable()
    .optional(),
});
export type McpTool = z.infer<typeof mcpTool>;

/** `container` is a container id or `{type: "auto", …}`; OpenAI requires it, xAI takes and echoes the tool without. */
export const codeInterpreterTool = z.looseObject({
  type: z.literal("code_interpreter"),
  container: z.union([z.string(), z.looseObject({ type: z.string() })]).optional(),
});
export type CodeInterpreterTool = z.infer<typeof codeInterpreterTool>;

/** Built-in tools configured by `type` alone or by options this library carries as given. */
export const hostedTool = z.looseObject({
  type: z.enum([
    "computer",
    "computer_use_preview",
    "image_generation",
    "local_shell",
    "shell",
    "apply_patch",
    "tool_search",
    "programmatic_tool_calling",
  ]),
});
export type HostedTool = z.infer<typeof hostedTool>;

const toolKinds = [
  functionTool,
  customTool,
  namespaceTool,
  fileSearchTool,
  webSearchTool,
  mcpTool,
  codeInterpreterTool,
  hostedTool,
] as const;
/**
 * One entry of a request's `tools`: a function, a custom tool, a built-in tool (web search, file search, code interpreter, MCP …), or an unknown type (kept).
 */
export type Tool = z.output<KnownOf<typeof toolKinds>> | UnknownKind;
export type ToolInput = z.input<KnownOf<typeof toolKinds>> | UnknownKind;
/** One entry of `tools`: function, custom, namespace or built-in; other kinds (xAI's `x_search` …) are kept. */
export const tool: z.ZodType<Tool, ToolInput> = openUnion(toolKinds);

// ─── Tool choice ──────────────────────────────────────────────────────────────────────────────────

export const toolChoiceMode = openEnum(["none", "auto", "required"]);
export type ToolChoiceMode = z.infer<typeof toolChoiceMode>;

const toolChoiceObjectKinds = [
  z.looseObject({ type: z.literal("function"), name: z.string() }),
  z.looseObject({ type: z.literal("custom"), name: z.string() }),
  z.looseObject({ type: z.literal("mcp"), server_label: z.string(), name: z.string().nullable().optional() }),
  z.looseObject({
    type: z.literal("allowed_tools"),
    mode: toolChoiceMode,
    tools: z.array(z.looseObject({})),
  }),
  // A built-in tool forced by its type alone.
  z.looseObject({
    type: z.enum([
      "file_search",
      "web_search_preview",
      "web_search_preview_2025_03_11",
      "computer",
      "computer_use",
      "computer_use_preview",
      "image_generation",
      "code_interpreter",
      "apply_patch",
      "shell",
      "programmatic_tool_calling",
    ]),
  }),
] as const;
export type ToolChoiceObject = z.output<KnownOf<typeof toolChoiceObjectKinds>> | UnknownKind;
export type ToolChoiceObjectInput = z.input<KnownOf<typeof toolChoiceObjectKinds>> | UnknownKind;
/** An object `tool_choice`: one function/custom tool by name, an MCP server (and tool), an allowed set or a built-in type. */
export const toolChoiceObject: z.ZodType<ToolChoiceObject, ToolChoiceObjectInput> =
  openUnion(toolChoiceObjectKinds);

/** `tool_choice`: a mode string, or an object naming a tool, a tool type or an allowed set. */
export const toolChoice = z.union([toolChoiceMode, toolChoiceObject]);
/**
 * `tool_choice`: a mode string, or an object naming a tool, a tool type or an allowed set. The type
 * `toolChoice` parses to.
 */
export type ToolChoice = z.infer<typeof toolChoice>;

// ─── Text output and reasoning settings ───────────────────────────────────────────────────────────

export const jsonSchemaFormat = z.looseObject({
  type: z.literal("json_schema"),
  name: z.string(),
  schema: jsonObject,
  description: z.string().nullable().optional(),
  strict: z.boolean().nullable().optional(),
});
export type JsonSchemaFormat = z.infer<typeof jsonSchemaFormat>;

const textFormatKinds = [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  jsonSchemaFormat,
] as const;
/**
 * The format of text output: `text`, `json_object`, `json_schema` (with `name`, `schema`, `strict`), or an unknown type (kept).
 */
export type TextFormat = z.output<KnownOf<typeof textFormatKinds>> | UnknownKind;
export type TextFormatInput = z.input<KnownOf<typeof textFormatKinds>> | UnknownKind;
/** `text.format`: plain text, JSON mode or a JSON schema (structured outputs). */
export const textFormat: z.ZodType<TextFormat, TextFormatInput> = openUnion(textFormatKinds);

/** A request's `text` settings: the output `format` and `verbosity`. */
export const textConfig = z.looseObject({
  format: textFormat.optional(),
  verbosity: openEnum(["low", "medium", "high"]).nullable().optional(),
});
/** A request's `text` settings: the output `format` and `verbosity`. The type `textConfig` parses to. */
export type TextConfig = z.infer<typeof textConfig>;

/** `reasoning`: effort and summary (`generate_summary` is the deprecated name of `summary`). */
export const reasoningConfig = z.looseObject({
  effort: openEnum(["none", "minimal", "low", "medium", "high", "xhigh", "max"]).nullable().optional(),
  summary: openEnum(["auto", "concise", "detailed"]).nullable().optional(),
  generate_summary: openEnum(["auto", "concise", "detailed"]).nullable().optional(),
  context: openEnum(["auto", "current_turn", "all_turns"]).nullable().optional(),
  mode: openEnum(["standard", "pro"]).nullable().optional(),
});
/**
 * `reasoning`: effort and summary (`generate_summary` is the deprecated name of `summary`). The type
 * `reasoningConfig` parses to.
 */
export type ReasoningConfig = z.infer<typeof reasoningConfig>;
