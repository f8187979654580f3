import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { validationErrorCodes } from "../../src/music/limits";
import { audioRequest } from "../../src/music/schema";
import { validateAudioRequest } from "../../src/music/validate";

const fieldNames = [
  "model",
  "action",
  "async",
  "prompt",
  "lyric",
  "custom",
  "instrumental",
  "title",
  "style",
  "style_negative",
  "duration",
  "audio_id",
  "audio_urls",
  "mashup_audio_ids",
  "continue_at",
  "persona_id",
  "vocal_gender",
  "variation_category",
  "replace_section_start",
  "replace_section_end",
  "underpainting_start",
  "underpainting_end",
  "overpainting_start",
  "overpainting_end",
  "samples_start",
  "samples_end",
  "weirdness",
  "style_influence",
  "audio_weight",
  "__proto__",
  "constructor",
];

const models = ["chirp-v5-5", "chirp-v5", "chirp-v4-5-plus", "chirp-v4-5", "chirp-v4", "chirp-v3-5"];
const actions = ["generate", "extend", "stems", "mashup", "inspo", "artist_consistency", "replace_section"];

/** Values that hit the rules: real enum members, boundary numbers, blanks, long text, wrong types. */
const fieldValueArb = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(...models, ...actions, "f", "m", "high", "subtle", "", " ", "\u3000"),
  fc.constantFrom(0, 0.5, 1, 9, 10, 360, 361, -1, 30, "30", "true", true, false, null),
  fc.array(fc.webUrl(), { maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 40 }).map((text) => text.repeat(20)),
);

/** Objects built from the real field names with random values (from a JSON text, so __proto__ is own). */
const fieldObjectArb = fc
  .dictionary(fc.constantFrom(...fieldNames), fieldValueArb, { maxKeys: 8 })
  .map((record) => JSON.parse(JSON.stringify(record)) as unknown);

const anyBodyArb = fc.oneof(fc.jsonValue(), fieldObjectArb);

/** Bodies that are valid by construction, spread over the actions and optional fields. */
const validBodyArb = fc.oneof(
  fc.record(
    {
      model: fc.constantFrom(...models),
      prompt: fc
        .string({ unit: "binary", minLength: 1, maxLength: 300 })
        .filter((text) => text.length <= 500 && /\S/.test(text)),
      async: fc.boolean(),
      instrumental: fc.boolean(),
      title: fc.string({ maxLength: 80 }),
      vocal_gender: fc.constantFrom("f", "m"),
      extra_field: fc.jsonValue(),
    },
    { requiredKeys: ["prompt"] },
  ),
  fc.record(
    {
      custom: fc.constant(true),
      lyric: fc.constantFrom("[Verse] la", "歌🎵"),
      style: fc.string({ maxLength: 200 }).map((text) => `pop${text}`.slice(0, 200)),
      duration: fc.integer({ min: 10, max: 360 }),
      prompt: fc.string({ maxLength: 2000 }),
    },
    { requiredKeys: ["custom", "lyric", "style"] },
  ),
  fc.record({
    action: fc.constant("extend"),
    audio_id: fc.constantFrom("a1", "clip-2"),
    continue_at: fc.double({ min: 0.001, max: 1e6, noNaN: true }),
  }),
  fc.record({
    action: fc.constant("inspo"),
    audio_urls: fc.array(fc.webUrl(), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({
    action: fc.constant("samples"),
    audio_id: fc.constant("a1"),
    samples_start: fc.integer({ min: 0, max: 100 }),
    samples_end: fc.integer({ min: 101, max: 400 }),
  }),
);

describe("validateAudioRequest laws", () => {
  test("any JSON body gives ok or a 400 body with a listed code, never an exception", () => {
    fc.assert(
      fc.property(anyBodyArb, (body) => {
        const result = validateAudioRequest(body);
        if (result.ok) {
          expect(audioRequest.safeParse(result.value).success).toBe(true);
          expect(result.value).toEqual({
            model: "chirp-v4",
            action: "generate",
            async: false,
            ...(body as object),
          });
          expect(validateAudioRequest(result.value)).toEqual(result);
          return;
        }
        expect(result.status).toBe(400);
        expect(result.body.success).toBe(false);
        expect(validationErrorCodes).toContain(result.body.error);
        expect(typeof result.body.message).toBe("string");
        // JSON input never reaches the catch-all for unreadable objects
        expect(result.body.message).not.toContain("could not be read");
      }),
    );
  });

  test("a valid body stays valid and unchanged except for the filled defaults, and validating again is a fixed point", () => {
    fc.assert(
      fc.property(validBodyArb, (body) => {
        const before = structuredClone(body);
        const result = validateAudioRequest(body);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(body).toEqual(before);
        expect(result.value).toEqual({ model: "chirp-v4", action: "generate", async: false, ...body });
        expect(validateAudioRequest(result.value)).toEqual(result);
      }),
    );
  });

  test("deep nesting in an unknown field does not crash", () => {
    let nested: unknown = "leaf";
    for (let depth = 0; depth < 10_000; depth += 1) nested = [nested];
    expect(validateAudioRequest({ prompt: "x", deep: nested }).ok).toBe(true);
    expect(validateAudioRequest({ prompt: "x", audio_urls: nested }).ok).toBe(false);
  });
});
