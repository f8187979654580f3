/**
 * The response object of the responses protocol (returned whole, and carried by the stream's lifecycle
 * events), its usage, and the error shapes: the HTTP error body and a failed response's `error`.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
import { z } from "zod/v4";
import { inputItem, outputItem } from "./schema-items";
import { nonNegativeInt, openEnum } from "./schema-shared";
import { reasoningConfig, textConfig, tool, toolChoice } from "./schema-tools";

// ─── Usage ────────────────────────────────────────────────────────────────────────────────────────

/**
 * Token usage. `input_tokens` includes `cached_tokens`; `output_tokens` includes `reasoning_tokens`.
 * The details are always sent by OpenAI; other servers may omit them.
 */
export const usage = z.looseObject({
  input_tokens: nonNegativeInt,
  output_tokens: nonNegativeInt,
  total_tokens: nonNegativeInt,
  input_tokens_details: z
    .looseObject({
      cached_tokens: nonNegativeInt.optional(),
      cache_write_tokens: nonNegativeInt.optional(),
    })
    .nullable()
    .optional(),
  output_tokens_details: z.looseObject({ reasoning_tokens: nonNegativeInt.optional() }).nullable().optional(),
});
/**
 * Token usage. `input_tokens` includes `cached_tokens`; `output_tokens` includes `reasoning_tokens`. The
 * details are always sent by OpenAI; other servers may omit them. The type `usage` parses to.
 */
export type Usage = z.infer<typeof usage>;

// ─── Errors ───────────────────────────────────────────────────────────────────────────────────────

/** The inner object of an error body (and of a nested stream `error` event). */
export const errorObject = z.looseObject({
  message: z.string(),
  type: z.string().nullable().optional(),
  param: z.string().nullable().optional(),
  code: z.union([z.string(), z.number()]).nullable().optional(),
});
/**
 * The inner object of an error body (and of a nested stream `error` event). The type `errorObject` parses to.
 */
export type ErrorObject = z.infer<typeof errorObject>;

/** The HTTP error body, as chat-completions: `{error: {message, type, param, code}}`. */
export const errorBody = z.looseObject({ error: errorObject });
/**
 * The HTTP error body, as chat-completions: `{error: {message, type, param, code}}`. The type `errorBody`
 * parses to.
 */
export type ErrorBody = z.infer<typeof errorBody>;

/** Why a response failed (`status: "failed"`); recorded with codes outside the SDK's list (`insufficient_quota`). */
export const responseError = z.looseObject({
  code: openEnum([
    "server_error",
    "rate_limit_exceeded",
    "invalid_prompt",
    "vector_store_timeout",
    "invalid_image",
    "invalid_image_format",
    "invalid_base64_image",
    "invalid_image_url",
    "image_too_large",
    "image_too_small",
    "image_parse_error",
    "image_content_policy_violation",
    "invalid_image_mode",
    "image_file_too_large",
    "unsupported_image_media_type",
    "empty_image_file",
    "failed_to_download_image",
    "image_file_not_found",
  ])
    .nullable()
    .optional(),
  message: z.string(),
});
/**
 * Why a response failed (`status: "failed"`); recorded with codes outside the SDK's list
 * (`insufficient_quota`). The type `responseError` parses to.
 */
export type ResponseError = z.infer<typeof responseError>;

// ─── Response ─────────────────────────────────────────────────────────────────────────────────────

/**
 * A response's `status`: `completed`, `failed`, `in_progress`, `cancelled`, `queued` or `incomplete` (later values accepted).
 */
export const responseStatus = openEnum([
  "completed",
  "failed",
  "in_progress",
  "cancelled",
  "queued",
  "incomplete",
]);
/**
 * A response's `status`: `completed`, `failed`, `in_progress`, `cancelled`, `queued` or `incomplete` (later
 * values accepted). The type `responseStatus` parses to.
 */
export type ResponseStatus = z.infer<typeof responseStatus>;

/** Why a response stopped early (`status: "incomplete"`). */
export const incompleteDetails = z.looseObject({
  reason: openEnum(["max_output_tokens", "content_filter"]).nullable().optional(),
});
/** Why a response stopped early (`status: "incomplete"`). The type `incompleteDetails` parses to. */
export type IncompleteDetails = z.infer<typeof incompleteDetails>;

const nullableString = z.string().nullable().optional();
const nullableNumber = z.number().nullable().optional();
const nullableBoolean = z.boolean().nullable().optional();

/**
 * A response: `output` items and `status` (`incomplete` with `incomplete_details`, `failed` with
 * `error`), usage, and the request's settings echoed back (most of them null when not set).
 */
export const response = z.looseObject({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.number(),
  model: z.string(),
  output: z.array(outputItem),
  status: responseStatus.optional(),
  error: responseError.nullable().optional(),
  incomplete_details: incompleteDetails.nullable().optional(),
  usage: usage.nullable().optional(),
  /** The SDK's convenience text, sent on the wire by some servers (OpenRouter). */
  output_text: z.string().nullable().optional(),
  // Echoed request settings.
  instructions: z
    .union([z.string(), z.array(inputItem)])
    .nullable()
    .optional(),
  tools: z.array(tool).optional(),
  tool_choice: toolChoice.optional(),
  parallel_tool_calls: nullableBoolean,
  max_output_tokens: nonNegativeInt.nullable().optional(),
  max_tool_calls: nonNegativeInt.nullable().optional(),
  previous_response_id: nullableString,
  reasoning: reasoningConfig.nullable().optional(),
  text: textConfig.nullable().optional(),
  temperature: nullableNumber,
  top_p: nullableNumber,
  top_logprobs: nonNegativeInt.nullable().optional(),
  truncation: openEnum(["auto", "disabled"]).nullable().optional(),
  store: nullableBoolean,
  background: nullableBoolean,
  service_tier: openEnum(["auto", "default", "flex", "scale", "priority"]).nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  user: nullableString,
  safety_identifier: nullableString,
  prompt_cache_key: nullableString,
  prompt_cache_retention: openEnum(["in_memory", "24h"]).nullable().optional(),
  conversation: z.looseObject({ id: z.string() }).nullable().optional(),
  completed_at: nullableNumber,
});
/**
 * A response: `output` items and `status` (`incomplete` with `incomplete_details`, `failed` with `error`),
 * usage, and the request's settings echoed back (most of them null when not set). The type `response` parses
 * to.
 */
export type Response = z.infer<typeof response>;
