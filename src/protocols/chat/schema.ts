/**
 * Zod schemas of the chat-completions wire format: request, response, stream chunk, error body.
 * Loose objects throughout (unknown fields survive a parse); vendor enums are open strings.
 * @see https://platform.openai.com/docs/api-reference/chat
 */
import { z } from "zod/v4";

/** An open vendor enum: every string passes at runtime; the type lists the known values. */
function openEnum<const T extends string>(): z.ZodType<T | (string & {})> {
  return z.string();
}

// ─── Content parts ────────────────────────────────────────────────────────────────────────────────

/** A prompt-caching hint some chat gateways accept on parts (OpenRouter passes it to Anthropic). */
export const cacheControl = z.looseObject({ type: z.string(), ttl: z.string().optional() });
/**
 * A prompt-caching hint some chat gateways accept on parts (OpenRouter passes it to Anthropic). The type
 * `cacheControl` parses to.
 */
export type CacheControl = z.infer<typeof cacheControl>;

/** A text content part: `{ type: "text", text }`. */
export const textPart = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  cache_control: cacheControl.optional(),
  /** OpenAI: an explicit prompt cache breakpoint after this part (`prompt_cache_options.mode: "explicit"`). */
  prompt_cache_breakpoint: z.looseObject({ mode: z.literal("explicit") }).optional(),
});
/** A text content part: `{ type: "text", text }`. The type `textPart` parses to. */
export type TextPart = z.infer<typeof textPart>;

/**
 * An image content part: `{ type: "image_url", image_url: { url, detail? } }`; `url` is an http(s) URL or a `data:` URL.
 */
export const imageUrlPart = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({ url: z.string(), detail: openEnum<"auto" | "low" | "high">().optional() }),
  cache_control: cacheControl.optional(),
});
/**
 * An image content part: `{ type: "image_url", image_url: { url, detail? } }`; `url` is an http(s) URL or a
 * `data:` URL. The type `imageUrlPart` parses to.
 */
export type ImageUrlPart = z.infer<typeof imageUrlPart>;

/** An audio content part: `{ type: "input_audio", input_audio: { data, format } }` (base64 data). */
export const inputAudioPart = z.looseObject({
  type: z.literal("input_audio"),
  input_audio: z.looseObject({ data: z.string(), format: openEnum<"wav" | "mp3">() }),
  cache_control: cacheControl.optional(),
});
/**
 * An audio content part: `{ type: "input_audio", input_audio: { data, format } }` (base64 data). The type
 * `inputAudioPart` parses to.
 */
export type InputAudioPart = z.infer<typeof inputAudioPart>;

/** A file content part: `{ type: "file", file: { file_data?, file_id?, filename? } }`. */
export const filePart = z.looseObject({
  type: z.literal("file"),
  file: z.looseObject({
    file_data: z.string().optional(),
    file_id: z.string().optional(),
    filename: z.string().optional(),
  }),
  cache_control: cacheControl.optional(),
});
/**
 * A file content part: `{ type: "file", file: { file_data?, file_id?, filename? } }`. The type `filePart`
 * parses to.
 */
export type FilePart = z.infer<typeof filePart>;

/** A refusal content part of an assistant message: `{ type: "refusal", refusal }`. */
export const refusalPart = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });
/**
 * A refusal content part of an assistant message: `{ type: "refusal", refusal }`. The type `refusalPart`
 * parses to.
 */
export type RefusalPart = z.infer<typeof refusalPart>;

/**
 * Mistral's reasoning chunk in an assistant message's content (and in stream deltas): `thinking` is a
 * list of chunks, text ones carrying the reasoning.
 * @see https://docs.mistral.ai/capabilities/reasoning/
 */
export const thinkingPart = z.looseObject({
  type: z.literal("thinking"),
  thinking: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  closed: z.boolean().nullable().optional(),
});
/**
 * Mistral's reasoning chunk in an assistant message's content (and in stream deltas): `thinking` is a list of
 * chunks, text ones carrying the reasoning. The type `thinkingPart` parses to.
 */
export type ThinkingPart = z.infer<typeof thinkingPart>;

/** A content chunk of another kind in an assistant message (Mistral `reference` ...): kept as given. */
export const otherAssistantPart = z.looseObject({
  type: z
    .string()
    .refine((type) => type !== "text" && type !== "refusal" && type !== "thinking", "a known part type"),
});
/**
 * A content chunk of another kind in an assistant message (Mistral `reference` ...): kept as given. The type
 * `otherAssistantPart` parses to.
 */
export type OtherAssistantPart = z.infer<typeof otherAssistantPart>;

/** A content part of an assistant message, request history or response: text, refusal, thinking, or another kind. */
export const assistantPart = z.union([
  z.discriminatedUnion("type", [textPart, refusalPart, thinkingPart]),
  otherAssistantPart,
]);
/**
 * A content part of an assistant message, request history or response: text, refusal, thinking, or another
 * kind. The type `assistantPart` parses to.
 */
export type AssistantPart = z.infer<typeof assistantPart>;

/**
 * One entry of OpenRouter's `reasoning_details`: `reasoning.text` (with the provider's `signature`),
 * `reasoning.summary` or `reasoning.encrypted` (`data`); `format` names the provider the signature or
 * data belongs to (`anthropic-claude-v1`, `google-gemini-v1`, `openai-responses-v1`, `unknown`).
 * @see https://openrouter.ai/docs/use-cases/reasoning-tokens
 */
export const reasoningDetail = z.looseObject({
  type: openEnum<"reasoning.text" | "reasoning.summary" | "reasoning.encrypted">(),
  text: z.string().nullable().optional(),
  signature: z.string().nullable().optional(),
  summary: z.string().nullable().optional(),
  data: z.string().nullable().optional(),
  format: z.string().nullable().optional(),
  id: z.string().nullable().optional(),
  index: z.number().nullable().optional(),
});
/**
 * One entry of OpenRouter's `reasoning_details`: `reasoning.text` (with the provider's `signature`),
 * `reasoning.summary` or `reasoning.encrypted` (`data`); `format` names the provider the signature or data
 * belongs to (`anthropic-claude-v1`, `google-gemini-v1`, `openai-responses-v1`, `unknown`). The type
 * `reasoningDetail` parses to.
 */
export type ReasoningDetail = z.infer<typeof reasoningDetail>;

/** Any content part of a message, by `type`: text, image, audio, file or refusal (vendor parts are kept). */
export const contentPart = z.discriminatedUnion("type", [
  textPart,
  imageUrlPart,
  inputAudioPart,
  filePart,
  refusalPart,
]);
/**
 * Any content part of a message, by `type`: text, image, audio, file or refusal (vendor parts are kept). The
 * type `contentPart` parses to.
 */
export type ContentPart = z.infer<typeof contentPart>;

// ─── Tool calls ───────────────────────────────────────────────────────────────────────────────────

/**
 * Gemini's OpenAI-compatible endpoint carries a call's thought signature here; it must come back with
 * the call on the next turn.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export const extraContent = z.looseObject({
  google: z.looseObject({ thought_signature: z.string().optional() }).optional(),
});
/**
 * Gemini's OpenAI-compatible endpoint carries a call's thought signature here; it must come back with the
 * call on the next turn. The type `extraContent` parses to.
 */
export type ExtraContent = z.infer<typeof extraContent>;

/**
 * A function tool call of an assistant message: `{ id, type: "function", function: { name, arguments } }` (`arguments` is JSON text).
 */
export const functionToolCall = z.looseObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
  extra_content: extraContent.optional(),
});
/**
 * A function tool call of an assistant message: `{ id, type: "function", function: { name, arguments } }`
 * (`arguments` is JSON text). The type `functionToolCall` parses to.
 */
export type FunctionToolCall = z.infer<typeof functionToolCall>;

/**
 * A custom tool call of an assistant message: `{ id, type: "custom", custom: { name, input } }` (free-form text input).
 */
export const customToolCall = z.looseObject({
  id: z.string(),
  type: z.literal("custom"),
  custom: z.looseObject({ name: z.string(), input: z.string() }),
});
/**
 * A custom tool call of an assistant message: `{ id, type: "custom", custom: { name, input } }` (free-form
 * text input). The type `customToolCall` parses to.
 */
export type CustomToolCall = z.infer<typeof customToolCall>;

/** One entry of an assistant message's `tool_calls`: a function or a custom tool call. */
export const toolCall = z.discriminatedUnion("type", [functionToolCall, customToolCall]);
/**
 * One entry of an assistant message's `tool_calls`: a function or a custom tool call. The type `toolCall`
 * parses to.
 */
export type ToolCall = z.infer<typeof toolCall>;

const legacyFunctionCall = z.looseObject({ name: z.string(), arguments: z.string() });

// ─── Messages ─────────────────────────────────────────────────────────────────────────────────────

/** A `system` message: instructions, as a string or text parts. */
export const systemMessage = z.looseObject({
  role: z.literal("system"),
  content: z.union([z.string(), z.array(textPart)]),
  name: z.string().optional(),
});
/** A `system` message: instructions, as a string or text parts. The type `systemMessage` parses to. */
export type SystemMessage = z.infer<typeof systemMessage>;

/** A `developer` message: the newer name of `system` for reasoning models. */
export const developerMessage = z.looseObject({
  role: z.literal("developer"),
  content: z.union([z.string(), z.array(textPart)]),
  name: z.string().optional(),
});
/**
 * A `developer` message: the newer name of `system` for reasoning models. The type `developerMessage` parses
 * to.
 */
export type DeveloperMessage = z.infer<typeof developerMessage>;

/** A `user` message: a string or content parts (text, images, audio, files). */
export const userMessage = z.looseObject({
  role: z.literal("user"),
  content: z.union([z.string(), z.array(contentPart)]),
  name: z.string().optional(),
});
/**
 * A `user` message: a string or content parts (text, images, audio, files). The type `userMessage` parses to.
 */
export type UserMessage = z.infer<typeof userMessage>;

/**
 * An `assistant` message of the history: text or parts, `tool_calls`, a `refusal`, and the reasoning fields of chat-compatible servers (`reasoning_content`, `reasoning`, `reasoning_details`).
 */
export const assistantMessage = z.looseObject({
  role: z.literal("assistant"),
  content: z
    .union([z.string(), z.array(assistantPart)])
    .nullable()
    .optional(),
  refusal: z.string().nullable().optional(),
  tool_calls: z.array(toolCall).nullable().optional(),
  function_call: legacyFunctionCall.nullable().optional(),
  audio: z.looseObject({ id: z.string() }).nullable().optional(),
  name: z.string().optional(),
  /** DeepSeek-style reasoning text replayed in history. */
  reasoning_content: z.string().nullable().optional(),
  /** OpenRouter's and vLLM's name for the same. */
  reasoning: z.string().nullable().optional(),
  /** OpenRouter: the reasoning with its signatures, to be sent back as received. */
  reasoning_details: z.array(reasoningDetail).nullable().optional(),
});
/**
 * An `assistant` message of the history: text or parts, `tool_calls`, a `refusal`, and the reasoning fields
 * of chat-compatible servers (`reasoning_content`, `reasoning`, `reasoning_details`). The type
 * `assistantMessage` parses to.
 */
export type AssistantMessage = z.infer<typeof assistantMessage>;

/** A `tool` message: the result of the call `tool_call_id`, as a string or text parts. */
export const toolMessage = z.looseObject({
  role: z.literal("tool"),
  content: z.union([z.string(), z.array(textPart)]),
  tool_call_id: z.string(),
});
/**
 * A `tool` message: the result of the call `tool_call_id`, as a string or text parts. The type `toolMessage`
 * parses to.
 */
export type ToolMessage = z.infer<typeof toolMessage>;

/** Legacy `function` role (answers a `function_call`). */
export const functionMessage = z.looseObject({
  role: z.literal("function"),
  content: z.string().nullable(),
  name: z.string(),
});
/** Legacy `function` role (answers a `function_call`). The type `functionMessage` parses to. */
export type FunctionMessage = z.infer<typeof functionMessage>;

/**
 * One entry of a request's `messages`, by `role` (`system`, `developer`, `user`, `assistant`, `tool`, and the legacy `function`).
 */
export const message = z.discriminatedUnion("role", [
  systemMessage,
  developerMessage,
  userMessage,
  assistantMessage,
  toolMessage,
  functionMessage,
]);
/**
 * One entry of a request's `messages`, by `role` (`system`, `developer`, `user`, `assistant`, `tool`, and the
 * legacy `function`). The type `message` parses to.
 */
export type Message = z.infer<typeof message>;

// ─── Tools, tool choice, response format ──────────────────────────────────────────────────────────

/** A function a model may call: `name`, `description`, `parameters` (a JSON Schema) and `strict`. */
export const functionDefinition = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  strict: z.boolean().nullable().optional(),
});
/**
 * A function a model may call: `name`, `description`, `parameters` (a JSON Schema) and `strict`. The type
 * `functionDefinition` parses to.
 */
export type FunctionDefinition = z.infer<typeof functionDefinition>;

/** A function tool of a request: `{ type: "function", function }`. */
export const functionTool = z.looseObject({ type: z.literal("function"), function: functionDefinition });
/** A function tool of a request: `{ type: "function", function }`. The type `functionTool` parses to. */
export type FunctionTool = z.infer<typeof functionTool>;

/** How a custom tool's free-form input is constrained: plain text, or a grammar (`lark` or `regex`). */
export const customToolFormat = z.union([
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({
    type: z.literal("grammar"),
    grammar: z.looseObject({ definition: z.string(), syntax: z.string() }),
  }),
]);
/** How a custom tool's free-form input is constrained. The type `customToolFormat` parses to. */
export type CustomToolFormat = z.infer<typeof customToolFormat>;

/**
 * A custom (free-form) tool of a request: `{ type: "custom", custom: { name, description, format } }`,
 * called with plain text rather than JSON arguments.
 * @see https://platform.openai.com/docs/guides/function-calling#custom-tools
 */
export const customTool = z.looseObject({
  type: z.literal("custom"),
  custom: z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    format: customToolFormat.optional(),
  }),
});
/** A custom (free-form) tool of a request. The type `customTool` parses to. */
export type CustomTool = z.infer<typeof customTool>;

/** Any other tool type (vendor tools): kept as given. */
export const otherTool = z.looseObject({
  type: z.string().refine((type) => type !== "function" && type !== "custom"),
});
/** Any other tool type (vendor tools): kept as given. The type `otherTool` parses to. */
export type OtherTool = z.infer<typeof otherTool>;

/** One entry of a request's `tools`: a function tool, a custom tool, or any other tool type, kept as given. */
export const tool = z.union([functionTool, customTool, otherTool]);
/**
 * One entry of a request's `tools`: a function tool, or any other tool type, kept as given. The type `tool`
 * parses to.
 */
export type Tool = z.infer<typeof tool>;

/** A `tool_choice` that forces one function: `{ type: "function", function: { name } }`. */
export const namedToolChoice = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({ name: z.string() }),
});
/**
 * A `tool_choice` that forces one function: `{ type: "function", function: { name } }`. The type
 * `namedToolChoice` parses to.
 */
export type NamedToolChoice = z.infer<typeof namedToolChoice>;

/**
 * A `tool_choice` that limits the model to some tools: `{ type: "allowed_tools", allowed_tools: { mode, tools } }`.
 */
export const allowedToolsChoice = z.looseObject({
  type: z.literal("allowed_tools"),
  allowed_tools: z.looseObject({
    mode: openEnum<"auto" | "required">(),
    tools: z.array(z.record(z.string(), z.unknown())),
  }),
});
/**
 * A `tool_choice` that limits the model to some tools: `{ type: "allowed_tools", allowed_tools: { mode, tools
 * } }`. The type `allowedToolsChoice` parses to.
 */
export type AllowedToolsChoice = z.infer<typeof allowedToolsChoice>;

/** `tool_choice` forcing one custom tool: `{ type: "custom", custom: { name } }`. */
export const namedCustomToolChoice = z.looseObject({
  type: z.literal("custom"),
  custom: z.looseObject({ name: z.string() }),
});
/** `tool_choice` forcing one custom tool. The type `namedCustomToolChoice` parses to. */
export type NamedCustomToolChoice = z.infer<typeof namedCustomToolChoice>;

/**
 * A request's `tool_choice`: `"none"`, `"auto"`, `"required"`, a named function, an allowed-tools list, a
 * named custom tool, or another vendor form (kept).
 */
export const toolChoice = z.union([
  openEnum<"none" | "auto" | "required">(),
  namedToolChoice,
  allowedToolsChoice,
  namedCustomToolChoice,
  z.looseObject({
    type: z.string().refine((type) => type !== "function" && type !== "allowed_tools" && type !== "custom"),
  }),
]);
/**
 * A request's `tool_choice`: `"none"`, `"auto"`, `"required"`, a named function, an allowed-tools list, or
 * another vendor form (kept). The type `toolChoice` parses to.
 */
export type ToolChoice = z.infer<typeof toolChoice>;

/**
 * A request's `response_format`: `text`, `json_object`, or `json_schema` with `{ name, description?, schema?, strict? }`.
 */
export const responseFormat = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  z.looseObject({
    type: z.literal("json_schema"),
    json_schema: z.looseObject({
      name: z.string(),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);
/**
 * A request's `response_format`: `text`, `json_object`, or `json_schema` with `{ name, description?, schema?,
 * strict? }`. The type `responseFormat` parses to.
 */
export type ResponseFormat = z.infer<typeof responseFormat>;

// ─── Request ──────────────────────────────────────────────────────────────────────────────────────

const nullableInt = z.number().int().nullable().optional();

/**
 * A `POST /v1/chat/completions` body: `model` and `messages`, sampling and budget settings, tools,
 * `response_format`, `stream` and `stream_options`, and the fields chat-compatible servers add (kept).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 * @example
 * chat.request.parse({ model: "gpt-4o", messages: [{ role: "user", content: "Hi" }] });
 */
export const request = z.looseObject({
  model: z.string(),
  messages: z.array(message).min(1),
  stream: z.boolean().nullable().optional(),
  stream_options: z
    .looseObject({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() })
    .nullable()
    .optional(),
  /** 0–2; the API rejects values outside. */
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  max_tokens: nullableInt,
  max_completion_tokens: nullableInt,
  n: nullableInt,
  seed: nullableInt,
  stop: z
    .union([z.string(), z.array(z.string())])
    .nullable()
    .optional(),
  presence_penalty: z.number().min(-2).max(2).nullable().optional(),
  frequency_penalty: z.number().min(-2).max(2).nullable().optional(),
  logprobs: z.boolean().nullable().optional(),
  top_logprobs: nullableInt,
  logit_bias: z.record(z.string(), z.number()).nullable().optional(),
  user: z.string().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  store: z.boolean().nullable().optional(),
  service_tier: openEnum<"auto" | "default" | "flex" | "scale" | "priority" | "fast">().nullable().optional(),
  reasoning_effort: openEnum<"none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max">()
    .nullable()
    .optional(),
  verbosity: openEnum<"low" | "medium" | "high">().nullable().optional(),
  /** Requests that share it share a prompt cache (OpenAI). */
  prompt_cache_key: z.string().nullable().optional(),
  /**
   * How the prompt is cached: `implicit` (the default) adds one breakpoint of the service's own to the
   * parts marked `prompt_cache_breakpoint`, `explicit` only those; `ttl` the least lifetime (`30m`).
   */
  prompt_cache_options: z
    .looseObject({ mode: z.enum(["implicit", "explicit"]).optional(), ttl: z.string().optional() })
    .optional(),
  /** Moderation of the input and output by a moderation model, and what a flag does (`block`). */
  moderation: z
    .looseObject({
      model: z.string(),
      policy: z
        .looseObject({
          input: z.looseObject({ mode: z.string() }).nullable().optional(),
          output: z.looseObject({ mode: z.string() }).nullable().optional(),
        })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
  parallel_tool_calls: z.boolean().optional(),
  tools: z.array(tool).optional(),
  tool_choice: toolChoice.optional(),
  response_format: responseFormat.optional(),
  modalities: z.array(openEnum<"text" | "audio">()).nullable().optional(),
  audio: z
    .looseObject({ format: z.string(), voice: z.union([z.string(), z.looseObject({ id: z.string() })]) })
    .nullable()
    .optional(),
  prediction: z
    .looseObject({ type: z.literal("content"), content: z.union([z.string(), z.array(textPart)]) })
    .nullable()
    .optional(),
  web_search_options: z
    .looseObject({
      search_context_size: openEnum<"low" | "medium" | "high">().optional(),
      user_location: z
        .looseObject({ type: z.string(), approximate: z.looseObject({}) })
        .nullable()
        .optional(),
    })
    .optional(),
  /** Legacy function calling. */
  functions: z.array(functionDefinition).optional(),
  function_call: z.union([z.string(), z.looseObject({ name: z.string() })]).optional(),
  /** Non-standard extension some backends accept (vLLM, OpenRouter, Qwen). */
  top_k: z.number().int().nullable().optional(),
  /** OpenRouter's reasoning switch: an effort or a token budget, `exclude` to keep it out of the answer. */
  reasoning: z
    .looseObject({
      effort: openEnum<"none" | "minimal" | "low" | "medium" | "high" | "xhigh">().nullable().optional(),
      max_tokens: z.number().int().nullable().optional(),
      exclude: z.boolean().nullable().optional(),
      enabled: z.boolean().nullable().optional(),
    })
    .nullable()
    .optional(),
  /** DeepSeek's thinking switch (on by default); Claude-serving gateways (LiteLLM) also take its budget. */
  thinking: z
    .looseObject({ type: openEnum<"enabled" | "disabled">(), budget_tokens: z.number().int().optional() })
    .nullable()
    .optional(),
  /** Qwen (Model Studio): thinking on/off and its budget. */
  enable_thinking: z.boolean().nullable().optional(),
  thinking_budget: z.number().int().nullable().optional(),
  /** vLLM: arguments of the chat template (`enable_thinking` for Qwen3-style templates, `thinking` for others). */
  chat_template_kwargs: z.record(z.string(), z.unknown()).nullable().optional(),
});
/**
 * A `POST /v1/chat/completions` body: `model` and `messages`, sampling and budget settings, tools,
 * `response_format`, `stream` and `stream_options`, and the fields chat-compatible servers add (kept). The
 * type `request` parses to.
 */
export type Request = z.infer<typeof request>;

// ─── Response ─────────────────────────────────────────────────────────────────────────────────────

/** The log probability of one output token, with its `bytes` and the `top_logprobs` alternatives. */
export const tokenLogprob = z.looseObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.array(z.number()).nullable().optional(),
  top_logprobs: z.array(z.looseObject({ token: z.string(), logprob: z.number() })).optional(),
});
/** One token's log probability: what the schema `tokenLogprob` parses to. */
export type TokenLogprob = z.infer<typeof tokenLogprob>;

/** A choice's `logprobs`: per-token entries of the `content` and of the `refusal`. */
export const choiceLogprobs = z.looseObject({
  content: z.array(tokenLogprob).nullable().optional(),
  refusal: z.array(tokenLogprob).nullable().optional(),
});
/** A choice's `logprobs`: what the schema `choiceLogprobs` parses to. */
export type ChoiceLogprobs = z.infer<typeof choiceLogprobs>;

/** An annotation of an answer's text, e.g. a `url_citation` with the cited span and URL. */
export const annotation = z.looseObject({
  type: openEnum<"url_citation">(),
  url_citation: z
    .looseObject({
      url: z.string(),
      title: z.string().optional(),
      start_index: z.number().optional(),
      end_index: z.number().optional(),
    })
    .optional(),
});
/**
 * An annotation of an answer's text, e.g. a `url_citation` with the cited span and URL. The type `annotation`
 * parses to.
 */
export type Annotation = z.infer<typeof annotation>;

/**
 * Token usage of a completion: `prompt_tokens`, `completion_tokens`, `total_tokens` and their details (cached and reasoning tokens).
 */
export const usage = z.looseObject({
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  total_tokens: z.number().optional(),
  prompt_tokens_details: z
    .looseObject({
      cached_tokens: z.number().nullable().optional(),
      cache_write_tokens: z.number().nullable().optional(),
      audio_tokens: z.number().nullable().optional(),
    })
    .nullable()
    .optional(),
  completion_tokens_details: z
    .looseObject({
      reasoning_tokens: z.number().nullable().optional(),
      audio_tokens: z.number().nullable().optional(),
      accepted_prediction_tokens: z.number().nullable().optional(),
      rejected_prediction_tokens: z.number().nullable().optional(),
    })
    .nullable()
    .optional(),
  /** DeepSeek's cache counters (prompt_tokens includes both). */
  prompt_cache_hit_tokens: z.number().optional(),
  prompt_cache_miss_tokens: z.number().optional(),
});
/**
 * Token usage of a completion: `prompt_tokens`, `completion_tokens`, `total_tokens` and their details (cached
 * and reasoning tokens). The type `usage` parses to.
 */
export type Usage = z.infer<typeof usage>;

/**
 * The message of a response choice: `content`, `refusal`, `tool_calls`, `annotations`, `audio`, and the reasoning fields of chat-compatible servers.
 */
export const responseMessage = z.looseObject({
  role: openEnum<"assistant">().optional(),
  /** A string; Mistral sends an array of chunks (thinking and text). */
  content: z
    .union([z.string(), z.array(assistantPart)])
    .nullable()
    .optional(),
  refusal: z.string().nullable().optional(),
  tool_calls: z.array(toolCall).nullable().optional(),
  function_call: legacyFunctionCall.nullable().optional(),
  /** vLLM sends `null`. */
  annotations: z.array(annotation).nullable().optional(),
  audio: z
    .looseObject({ id: z.string(), data: z.string(), expires_at: z.number(), transcript: z.string() })
    .nullable()
    .optional(),
  reasoning_content: z.string().nullable().optional(),
  reasoning: z.string().nullable().optional(),
  reasoning_details: z.array(reasoningDetail).nullable().optional(),
});
/**
 * The message of a response choice: `content`, `refusal`, `tool_calls`, `annotations`, `audio`, and the
 * reasoning fields of chat-compatible servers. The type `responseMessage` parses to.
 */
export type ResponseMessage = z.infer<typeof responseMessage>;

/** One choice of a response: `index`, `message`, `finish_reason` and `logprobs`. */
export const choice = z.looseObject({
  index: z.number(),
  message: responseMessage,
  finish_reason: openEnum<"stop" | "length" | "tool_calls" | "content_filter" | "function_call">()
    .nullable()
    .optional(),
  logprobs: choiceLogprobs.nullable().optional(),
});
/**
 * One choice of a response: `index`, `message`, `finish_reason` and `logprobs`. The type `choice` parses to.
 */
export type Choice = z.infer<typeof choice>;

/**
 * A chat completion (`object: "chat.completion"`): `id`, `created`, `model`, `choices` and `usage`.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export const response = z.looseObject({
  id: z.string(),
  object: openEnum<"chat.completion">(),
  created: z.number(),
  model: z.string(),
  choices: z.array(choice),
  usage: usage.nullable().optional(),
  system_fingerprint: z.string().nullable().optional(),
  service_tier: z.string().nullable().optional(),
});
/**
 * A chat completion (`object: "chat.completion"`): `id`, `created`, `model`, `choices` and `usage`. The type
 * `response` parses to.
 */
export type Response = z.infer<typeof response>;

// ─── Stream ───────────────────────────────────────────────────────────────────────────────────────

/** `data: [DONE]`, the chat stream's terminator. */
export const DONE = "[DONE]" as const;
/** The type of `DONE`. */
export type Done = typeof DONE;

/**
 * A piece of a tool call in a stream delta: the first piece carries `index`, `id` and the function `name`, later ones `arguments` text.
 */
export const deltaToolCall = z.looseObject({
  index: z.number().optional(),
  id: z.string().nullable().optional(),
  type: z.string().optional(),
  function: z
    .looseObject({ name: z.string().nullable().optional(), arguments: z.string().nullable().optional() })
    .optional(),
  /** A custom (free-form) tool call: the first piece names it, later ones carry `input` text. */
  custom: z
    .looseObject({ name: z.string().nullable().optional(), input: z.string().nullable().optional() })
    .optional(),
  /** Gemini's compatible endpoint: the call's thought signature, as on a whole response's call. */
  extra_content: extraContent.nullable().optional(),
});
/**
 * A piece of a tool call in a stream delta: the first piece carries `index`, `id` and the function `name`,
 * later ones `arguments` text. The type `deltaToolCall` parses to.
 */
export type DeltaToolCall = z.infer<typeof deltaToolCall>;

/**
 * A piece of an audio answer (OpenAI `modalities: ["audio"]`): the id first, transcript and base64 data
 * in pieces, `expires_at` when the audio is done.
 * @see https://platform.openai.com/docs/guides/audio
 */
export const deltaAudio = z.looseObject({
  id: z.string().nullable().optional(),
  transcript: z.string().nullable().optional(),
  data: z.string().nullable().optional(),
  expires_at: z.number().nullable().optional(),
});
/**
 * A piece of an audio answer (OpenAI `modalities: ["audio"]`): the id first, transcript and base64 data in
 * pieces, `expires_at` when the audio is done. The type `deltaAudio` parses to.
 */
export type DeltaAudio = z.infer<typeof deltaAudio>;

/** The `delta` of a stream chunk's choice: a role, content, refusal, reasoning or tool-call pieces. */
export const delta = z.looseObject({
  role: openEnum<"developer" | "system" | "user" | "assistant" | "tool">().nullable().optional(),
  /** A string; Mistral sends an array of chunks (thinking and text), as in its whole responses. */
  content: z
    .union([z.string(), z.array(assistantPart)])
    .nullable()
    .optional(),
  refusal: z.string().nullable().optional(),
  reasoning_content: z.string().nullable().optional(),
  reasoning: z.string().nullable().optional(),
  /** OpenRouter: the reasoning again, with the provider's signatures and encrypted entries. */
  reasoning_details: z.array(reasoningDetail).nullable().optional(),
  tool_calls: z.array(deltaToolCall).nullable().optional(),
  function_call: z
    .looseObject({ name: z.string().nullable().optional(), arguments: z.string().nullable().optional() })
    .nullable()
    .optional(),
  /** vLLM sends `null`. */
  annotations: z.array(annotation).nullable().optional(),
  audio: deltaAudio.nullable().optional(),
});
/**
 * The `delta` of a stream chunk's choice: a role, content, refusal, reasoning or tool-call pieces. The type
 * `delta` parses to.
 */
export type Delta = z.infer<typeof delta>;

/** One choice of a stream chunk: `index`, `delta`, `finish_reason` (on the last piece) and `logprobs`. */
export const chunkChoice = z.looseObject({
  index: z.number(),
  delta: delta,
  finish_reason: openEnum<"stop" | "length" | "tool_calls" | "content_filter" | "function_call">()
    .nullable()
    .optional(),
  logprobs: choiceLogprobs.nullable().optional(),
});
/**
 * One choice of a stream chunk: `index`, `delta`, `finish_reason` (on the last piece) and `logprobs`. The
 * type `chunkChoice` parses to.
 */
export type ChunkChoice = z.infer<typeof chunkChoice>;

/** The inner error object of a chat error body. */
export const errorObject = z.looseObject({
  message: z.string(),
  type: z.string().nullable().optional(),
  param: z.string().nullable().optional(),
  code: z.union([z.string(), z.number()]).nullable().optional(),
});
/** The inner error object of a chat error body. The type `errorObject` parses to. */
export type ErrorObject = z.infer<typeof errorObject>;

/** One `chat.completion.chunk`. id/created/model are optional: gateways omit them (Azure sends ""). */
export const chunk = z.looseObject({
  id: z.string().optional(),
  object: openEnum<"chat.completion.chunk">().optional(),
  created: z.number().optional(),
  model: z.string().optional(),
  choices: z.array(chunkChoice),
  usage: usage.nullable().optional(),
  system_fingerprint: z.string().nullable().optional(),
  service_tier: z.string().nullable().optional(),
  /** OpenRouter puts a mid-stream error on an otherwise ordinary chunk. */
  error: errorObject.optional(),
});
/**
 * One `chat.completion.chunk`. id/created/model are optional: gateways omit them (Azure sends ""). The type
 * `chunk` parses to.
 */
export type Chunk = z.infer<typeof chunk>;

/** A mid-stream error event: `data: {"error": {...}}` with no `choices`. */
export const streamError = z.looseObject({ error: errorObject });
/** A mid-stream error event: `data: {"error": {...}}` with no `choices`. The type `streamError` parses to. */
export type StreamError = z.infer<typeof streamError>;

/** One SSE `data:` payload of a chat stream. */
export const streamEvent = z.union([chunk, streamError, z.literal(DONE)]);
/** One SSE `data:` payload of a chat stream. The type `streamEvent` parses to. */
export type StreamEvent = z.infer<typeof streamEvent>;

// ─── Errors ───────────────────────────────────────────────────────────────────────────────────────

/** `{error: {message, type, param, code}}`; `code` may be a string, a number (OpenRouter) or null. */
export const errorBody = z.looseObject({ error: errorObject });
/**
 * `{error: {message, type, param, code}}`; `code` may be a string, a number (OpenRouter) or null. The type
 * `errorBody` parses to.
 */
export type ErrorBody = z.infer<typeof errorBody>;
