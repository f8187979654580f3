/**
 * Zod schemas of the responses protocol (`POST /v1/responses`): the request here; items, content parts,
 * tools, the response, errors and stream events in the `schema-*` files beside it, re-exported below.
 * Loose objects keep unknown fields; item, part, tool and event unions stay open to new kinds.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
import { z } from "zod/v4";
import { refined } from "../../validate/open-union";
import { inputItem } from "./schema-items";
import { nonNegativeInt, openEnum } from "./schema-shared";
import { reasoningConfig, textConfig, tool, toolChoice } from "./schema-tools";

export * from "./schema-content";
export * from "./schema-events";
export * from "./schema-items";
export * from "./schema-response";
export { type Caller, caller, type ItemStatus, itemStatus, type UnknownKind } from "./schema-shared";
export * from "./schema-tools";

/** Output data the response should include beyond the default (`include`). */
export const includable = openEnum([
  "file_search_call.results",
  "web_search_call.results",
  "web_search_call.action.sources",
  "message.input_image.image_url",
  "computer_call_output.output.image_url",
  "code_interpreter_call.outputs",
  "reasoning.encrypted_content",
  "message.output_text.logprobs",
]);
/**
 * Output data the response should include beyond the default (`include`). The type `includable` parses to.
 */
export type Includable = z.infer<typeof includable>;

/** A stored prompt template; it may supply the model. */
export const prompt = z.looseObject({
  id: z.string(),
  version: z.string().nullable().optional(),
  variables: z.record(z.string(), z.unknown()).nullable().optional(),
});
/** A stored prompt template; it may supply the model. The type `prompt` parses to. */
export type Prompt = z.infer<typeof prompt>;

const nullableString = z.string().nullable().optional();
const nullableBoolean = z.boolean().nullable().optional();

/**
 * A `POST /v1/responses` body. `input` is a string or items; `model` may be left to a stored `prompt`,
 * else it is required. Bounds are the API's: `max_output_tokens` ≥ 16, `temperature` 0–2, `top_p`
 * 0–1, `top_logprobs` 0–20.
 */
export const request = refined(
  z.looseObject({
    model: z.string().optional(),
    input: z.union([z.string(), z.array(inputItem)]).optional(),
    instructions: nullableString,
    tools: z.array(tool).optional(),
    tool_choice: toolChoice.optional(),
    parallel_tool_calls: nullableBoolean,
    max_output_tokens: z.number().int().min(16).nullable().optional(),
    max_tool_calls: nonNegativeInt.nullable().optional(),
    reasoning: reasoningConfig.nullable().optional(),
    text: textConfig.optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    top_logprobs: z.number().int().min(0).max(20).nullable().optional(),
    store: nullableBoolean,
    include: z.array(includable).nullable().optional(),
    previous_response_id: nullableString,
    conversation: z
      .union([z.string(), z.looseObject({ id: z.string() })])
      .nullable()
      .optional(),
    prompt: prompt.nullable().optional(),
    metadata: z.record(z.string(), z.string()).nullable().optional(),
    truncation: openEnum(["auto", "disabled"]).nullable().optional(),
    service_tier: openEnum(["auto", "default", "flex", "scale", "priority", "fast", "ultrafast"])
      .nullable()
      .optional(),
    user: z.string().optional(),
    safety_identifier: nullableString,
    prompt_cache_key: nullableString,
    prompt_cache_retention: openEnum(["in_memory", "24h"]).nullable().optional(),
    /**
     * How the prompt is cached: `implicit` (the default) adds one breakpoint of the service's own to the
     * parts marked `prompt_cache_breakpoint`, `explicit` only those; `ttl` the least lifetime (`30m`).
     */
    prompt_cache_options: z
      .looseObject({ mode: openEnum(["implicit", "explicit"]).optional(), ttl: nullableString })
      .nullable()
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
    stream: nullableBoolean,
    stream_options: z.looseObject({ include_obfuscation: z.boolean().optional() }).nullable().optional(),
    background: nullableBoolean,
    context_management: z
      .array(z.looseObject({ type: z.string(), compact_threshold: z.number().nullable().optional() }))
      .nullable()
      .optional(),
  }),
  (body, context) => {
    if (body.model === undefined && (body.prompt === undefined || body.prompt === null))
      context.addIssue({
        code: "custom",
        path: ["model"],
        message: "`model` is required unless a stored `prompt` supplies it",
      });
  },
  (body) => body.model !== undefined || (body.prompt !== undefined && body.prompt !== null),
);
/**
 * A `POST /v1/responses` body. `input` is a string or items; `model` may be left to a stored `prompt`, else
 * it is required. Bounds are the API's: `max_output_tokens` ≥ 16, `temperature` 0–2, `top_p` 0–1,
 * `top_logprobs` 0–20. The type `request` parses to.
 */
export type Request = z.infer<typeof request>;
