/**
 * Model lists in the three list formats (what upstreams and the gateway answer on `GET /v1/models`,
 * `/v1/models` with the messages headers, `/v1beta/models`) and catalogue entries for the visibility rules.
 */
import fc from "fast-check";
import type { models } from "../../index";

const idArb = fc.oneof(
  fc.constantFrom("gpt-4o", "claude-sonnet-4-5", "gemini-2.5-flash", "org/model.v1:latest"),
  fc.stringMatching(/^[a-z0-9][a-z0-9._/-]{0,20}$/),
);
const endpointTypesArb = fc.uniqueArray(
  fc.constantFrom("std", "msg", "gen", "std-response", "embeddings", "x-new"),
  {
    maxLength: 4,
  },
);

const chatListArb = fc.record(
  {
    success: fc.boolean(),
    object: fc.constant("list"),
    data: fc.array(
      fc.record(
        {
          id: idArb,
          object: fc.constant("model"),
          created: fc.nat(),
          owned_by: fc.constantFrom("openai", "custom", "system", ""),
          supported_endpoint_types: endpointTypesArb,
        },
        { requiredKeys: ["id", "object", "created", "owned_by"] },
      ),
      { maxLength: 5 },
    ),
  },
  { requiredKeys: ["object", "data"] },
);

const messagesListArb = fc
  .array(
    fc.record({
      id: idArb,
      type: fc.constant("model"),
      display_name: fc.string({ maxLength: 20 }),
      created_at: fc.constantFrom("2025-02-19T00:00:00Z", "1970-01-01T00:00:00Z"),
    }),
    { maxLength: 5 },
  )
  .chain((data) =>
    fc.record({
      data: fc.constant(data),
      first_id: fc.constant(data[0]?.id ?? null),
      last_id: fc.constant(data.at(-1)?.id ?? null),
      has_more: fc.boolean(),
    }),
  );

const nullish = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
const generativeListArb = fc.record(
  {
    models: fc.array(
      fc.record(
        {
          name: idArb.map((id) => `models/${id}`),
          baseModelId: nullish(idArb),
          version: nullish(fc.constantFrom("001", "2.5")),
          displayName: nullish(fc.string({ maxLength: 20 })),
          description: nullish(fc.string({ maxLength: 20 })),
          inputTokenLimit: nullish(fc.nat(2_000_000)),
          outputTokenLimit: nullish(fc.nat(100_000)),
          supportedGenerationMethods: nullish(
            fc.uniqueArray(
              fc.constantFrom("generateContent", "streamGenerateContent", "embedContent", "countTokens"),
            ),
          ),
          temperature: nullish(fc.double({ min: 0, max: 2, noNaN: true })),
          maxTemperature: nullish(fc.double({ min: 0, max: 2, noNaN: true })),
          topP: nullish(fc.double({ min: 0, max: 1, noNaN: true })),
          topK: nullish(fc.nat(100)),
          thinking: nullish(fc.boolean()),
        },
        { requiredKeys: ["name"] },
      ),
      { maxLength: 5 },
    ),
    nextPageToken: nullish(fc.string({ maxLength: 8 })),
  },
  { requiredKeys: ["models"] },
);

/** A model list in `format`. */
export function modelListArb(format: models.ListFormat): fc.Arbitrary<unknown> {
  switch (format) {
    case "chat":
      return chatListArb;
    case "messages":
      return messagesListArb;
    case "generative":
      return generativeListArb;
    default:
      throw new TypeError(
        `Unknown list format ${JSON.stringify(format)}: use "chat", "messages" or "generative".`,
      );
  }
}

/** A catalogue entry as the gateway knows it (the input of `models.visibleModels`). */
export const modelEntryArb: fc.Arbitrary<models.ModelEntry> = fc.record({
  id: idArb,
  owned_by: fc.constantFrom("openai", "anthropic", "google", "custom"),
  supported_endpoint_types: endpointTypesArb,
  groups: fc.uniqueArray(fc.constantFrom("default", "vip", "svip", "free"), { maxLength: 3 }),
  hasChannel: fc.boolean(),
  listed: fc.boolean(),
  priced: fc.boolean(),
});
