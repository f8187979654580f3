/**
 * `POST /music/audios` bodies: valid ones spread over every action and optional field, and ones that
 * break exactly one named rule (each rule with the error code a validator must answer).
 */
import fc from "fast-check";
import { music } from "../../index";
import { lazy } from "./common";

/** The rules a music request can break, each with the error code of its rejection. */
export const musicRules = {
  not_an_object: "invalid_request",
  wrong_type: "invalid_parameter",
  model_not_supported: "model_not_supported",
  action_not_supported: "action_not_supported",
  prompt_missing: "prompt_empty",
  custom_field_missing: "missing_parameter",
  audio_id_missing: "audio_id_required",
  action_field_missing: "missing_parameter",
  duration_out_of_range: "invalid_parameter",
  duration_without_custom: "invalid_parameter",
  continue_at_not_positive: "invalid_parameter",
  time_range_negative: "invalid_parameter",
  time_range_reversed: "invalid_parameter",
  audio_urls_count: "invalid_parameter",
  mashup_ids_count: "invalid_parameter",
  vocal_gender_unknown: "invalid_parameter",
  variation_category_unknown: "invalid_parameter",
  unit_interval: "invalid_parameter",
  prompt_too_long: "prompt_too_long",
  lyric_too_long: "lyric_too_long",
  style_too_long: "style_too_long",
  title_too_long: "title_too_long",
} as const satisfies Record<string, music.ValidationErrorCode>;
/** The name of a music request rule, a key of `musicRules`. */
export type MusicRule = keyof typeof musicRules;

type Body = Record<string, unknown>;

// Spec 4.1 and 8: duration 10–360 s with `custom` only, 1–4 reference URLs; mashup needs two songs.
const duration = { min: 10, max: 360 };
const audioUrls = { min: 1, max: 4 };
const audioIdActions = ["concat", "cover", "upload_cover", "stems", "all_stems", "remaster"] as const;
const rangeActions = ["replace_section", "underpainting", "overpainting", "samples"] as const;

const modelArb = fc.constantFrom(...music.modelIds);
/** Non-blank text of at most `max` UTF-16 code units (emoji count 2). */
const textUpTo = (max: number) =>
  fc
    .string({ unit: fc.constantFrom("a", "歌", "🎵", " ", "[Verse]", "\n"), minLength: 1, maxLength: max })
    .map((text) => text.slice(0, max))
    .filter((text) => /\S/.test(text) && !/[\uD800-\uDBFF]$/.test(text));
const idArb = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
const urlArb = lazy(() => fc.webUrl());

/** Fields any request may carry, valid for every action. */
const commonArb = fc.record(
  {
    async: fc.boolean(),
    vocal_gender: fc.constantFrom("f", "m"),
    variation_category: fc.constantFrom("high", "normal", "subtle"),
    weirdness: fc.double({ min: 0, max: 1, noNaN: true }),
    style_influence: fc.double({ min: 0, max: 1, noNaN: true }),
    style_negative: fc.string({ maxLength: 20 }),
    callback_hint: fc.string({ maxLength: 8 }),
  },
  { requiredKeys: [] },
);

/** A valid body for `model` (absent means the default chirp-v4), by action. */
function validFor(model: music.ModelId | undefined): fc.Arbitrary<Body> {
  const limits = music.modelLimits[model ?? "chirp-v4"];
  const withModel = (body: Body): Body => (model === undefined ? body : { model, ...body });
  const actions: fc.Arbitrary<Body>[] = [
    fc.record(
      {
        prompt: textUpTo(music.promptLimit),
        instrumental: fc.boolean(),
        title: textUpTo(limits.title),
        style: textUpTo(limits.style),
      },
      { requiredKeys: ["prompt"] },
    ),
    fc.record(
      {
        action: fc.constant("generate"),
        custom: fc.constant(true),
        instrumental: fc.constant(false),
        lyric: textUpTo(limits.lyric),
        style: textUpTo(limits.style),
        title: textUpTo(limits.title),
        duration: fc.integer(duration),
        prompt: fc.string({ maxLength: 600 }),
      },
      { requiredKeys: ["custom", "lyric", "style"] },
    ),
    fc.record(
      { custom: fc.constant(true), instrumental: fc.constant(true), style: textUpTo(limits.style) },
      { requiredKeys: ["custom", "instrumental", "style"] },
    ),
    fc.record({
      action: fc.constantFrom("extend", "upload_extend"),
      audio_id: idArb,
      continue_at: fc.double({ min: 0.001, max: 1e5, noNaN: true }),
    }),
    fc.record({ action: fc.constantFrom(...audioIdActions), audio_id: idArb }),
    fc
      .record(
        {
          action: fc.constantFrom("artist_consistency", "artist_consistency_vox"),
          persona_id: idArb,
          lyric: textUpTo(limits.lyric),
          prompt: textUpTo(music.promptLimit),
        },
        { requiredKeys: ["action", "persona_id"] },
      )
      .filter((body) => body.lyric !== undefined || body.prompt !== undefined),
    fc
      .record({
        action: fc.constantFrom(...rangeActions),
        audio_id: idArb,
        start: fc.integer({ min: 0, max: 200 }),
        length: fc.integer({ min: 1, max: 200 }),
      })
      .map(({ action, audio_id, start, length }) => ({
        action,
        audio_id,
        [`${action}_start`]: start,
        [`${action}_end`]: start + length,
      })),
    fc.record({
      action: fc.constant("mashup"),
      mashup_audio_ids: fc.array(idArb, { minLength: 2, maxLength: 4 }),
    }),
    fc.record({
      action: fc.constant("inspo"),
      audio_urls: fc.array(urlArb, { minLength: audioUrls.min, maxLength: audioUrls.max }),
    }),
  ];
  return fc.tuple(fc.oneof(...actions), commonArb).map(([body, common]) => withModel({ ...common, ...body }));
}

const validArb: fc.Arbitrary<Body> = fc.option(modelArb, { nil: undefined }).chain(validFor);

/** Bodies that break `rule` and nothing else. */
function breaking(rule: MusicRule): fc.Arbitrary<unknown> {
  const limits = (model: music.ModelId | undefined) => music.modelLimits[model ?? "chirp-v4"];
  const modelOr = fc.option(modelArb, { nil: undefined });
  const withModel = (model: music.ModelId | undefined, body: Body): Body =>
    model === undefined ? body : { model, ...body };
  const tooLong = (max: number) =>
    fc.integer({ min: max + 1, max: max + 40 }).map((length) => "a".repeat(length));
  const blank = fc.constantFrom("", " ", "\n\t", "\u3000");
  switch (rule) {
    case "not_an_object":
      return fc.oneof(
        fc.constant(null),
        fc.string(),
        fc.integer(),
        fc.array(fc.jsonValue(), { maxLength: 3 }),
      );
    case "wrong_type":
      return fc
        .tuple(
          validArb,
          fc.oneof(
            fc.record({ async: fc.constantFrom("true", 1, null) }),
            fc.record({ instrumental: fc.constantFrom("no", 0) }),
            fc.record({ style_negative: fc.constantFrom(5, false, ["rock"]) }),
            fc.record({ weirdness: fc.constantFrom("0.5", null, Number.NaN) }),
          ),
        )
        .map(([body, wrong]) => ({ ...body, ...wrong }));
    case "model_not_supported":
      return fc
        .tuple(validFor(undefined), fc.constantFrom("chirp-v9", "gpt-4o", "", "CHIRP-V4"))
        .map(([body, model]) => ({ ...body, model }));
    case "action_not_supported":
      return fc
        .tuple(modelOr, fc.constantFrom("remix", "Generate", "", "extend "))
        .map(([model, action]) => withModel(model, { action, prompt: "a song", audio_id: "a1" }));
    case "prompt_missing":
      return fc.oneof(
        fc
          .tuple(modelOr, fc.option(blank, { nil: undefined }))
          .map(([model, prompt]) =>
            withModel(model, prompt === undefined ? { instrumental: true } : { prompt }),
          ),
        fc
          .tuple(modelOr, fc.constantFrom("artist_consistency", "artist_consistency_vox"), blank)
          .map(([model, action, text]) => withModel(model, { action, persona_id: "p1", lyric: text })),
      );
    case "custom_field_missing":
      return fc
        .tuple(modelOr, fc.boolean(), fc.option(blank, { nil: undefined }))
        .map(([model, lyricGiven, text]) => {
          const body: Body = { custom: true };
          // Without `instrumental` both lyric and style are required: leave exactly one of them out.
          if (lyricGiven) body.lyric = "[Verse] la";
          else body.style = "pop";
          if (text !== undefined) body[lyricGiven ? "style" : "lyric"] = text;
          return withModel(model, body);
        });
    case "audio_id_missing":
      return fc
        .tuple(modelOr, fc.constantFrom(...audioIdActions, "extend"))
        .map(([model, action]) =>
          withModel(model, action === "extend" ? { action, continue_at: 5 } : { action }),
        );
    case "action_field_missing":
      return fc.oneof(
        modelOr.map((model) => withModel(model, { action: "extend", audio_id: "a1" })),
        modelOr.map((model) => withModel(model, { action: "artist_consistency", prompt: "x" })),
        fc
          .tuple(modelOr, fc.constantFrom("replace_section", "samples"))
          .map(([model, action]) => withModel(model, { action, audio_id: "a1", [`${action}_start`]: 1 })),
        modelOr.map((model) => withModel(model, { action: "underpainting", audio_id: "a1" })),
      );
    case "duration_out_of_range":
      return fc
        .tuple(modelOr, fc.constantFrom(duration.min - 1, duration.max + 1, 30.5, -5, 0))
        .map(([model, seconds]) =>
          withModel(model, { custom: true, lyric: "[Verse] la", style: "pop", duration: seconds }),
        );
    case "duration_without_custom":
      return fc
        .tuple(modelOr, fc.integer(duration))
        .map(([model, seconds]) => withModel(model, { prompt: "a song", duration: seconds }));
    case "continue_at_not_positive":
      return fc
        .tuple(modelOr, fc.constantFrom(0, -1, -0.5))
        .map(([model, at]) => withModel(model, { action: "extend", audio_id: "a1", continue_at: at }));
    case "time_range_negative":
      return fc
        .tuple(modelOr, fc.constantFrom(...rangeActions), fc.integer({ min: -100, max: -1 }))
        .map(([model, action, start]) =>
          withModel(model, { action, audio_id: "a1", [`${action}_start`]: start, [`${action}_end`]: 10 }),
        );
    case "time_range_reversed":
      return fc
        .tuple(modelOr, fc.constantFrom(...rangeActions), fc.integer({ min: 1, max: 200 }), fc.nat(50))
        .map(([model, action, start, back]) =>
          withModel(model, {
            action,
            audio_id: "a1",
            [`${action}_start`]: start,
            [`${action}_end`]: Math.max(0, start - back),
          }),
        );
    case "audio_urls_count":
      return fc
        .tuple(
          modelOr,
          fc.oneof(
            fc.constant([]),
            fc.array(urlArb, { minLength: audioUrls.max + 1, maxLength: audioUrls.max + 3 }),
          ),
        )
        .map(([model, urls]) => withModel(model, { action: "inspo", audio_urls: urls }));
    case "mashup_ids_count":
      return fc
        .tuple(modelOr, fc.array(idArb, { maxLength: 1 }))
        .map(([model, ids]) => withModel(model, { action: "mashup", mashup_audio_ids: ids }));
    case "vocal_gender_unknown":
      return fc
        .tuple(validArb, fc.constantFrom("x", "F", "female", ""))
        .map(([body, gender]) => ({ ...body, vocal_gender: gender }));
    case "variation_category_unknown":
      return fc
        .tuple(validArb, fc.constantFrom("extreme", "High", ""))
        .map(([body, category]) => ({ ...body, variation_category: category }));
    case "unit_interval":
      return fc
        .tuple(
          validArb,
          fc.constantFrom("weirdness", "style_influence", "audio_weight"),
          fc.oneof(
            fc.double({ min: 1.0001, max: 10, noNaN: true }),
            fc.double({ min: -10, max: -0.0001, noNaN: true }),
          ),
        )
        .map(([body, field, value]) => ({ ...body, [field]: value }));
    case "prompt_too_long":
      return fc
        .tuple(modelOr, tooLong(music.promptLimit))
        .map(([model, prompt]) => withModel(model, { prompt }));
    case "lyric_too_long":
      return modelOr.chain((model) =>
        tooLong(limits(model).lyric).map((lyric) => withModel(model, { custom: true, lyric, style: "pop" })),
      );
    case "style_too_long":
      return modelOr.chain((model) =>
        tooLong(limits(model).style).map((style) => withModel(model, { custom: true, lyric: "la", style })),
      );
    case "title_too_long":
      return modelOr.chain((model) =>
        tooLong(limits(model).title).map((title) => withModel(model, { prompt: "a song", title })),
      );
  }
}

/**
 * Music request bodies: valid ones (the default), or with `valid: false` ones that break exactly one
 * rule — `rule` when given, else any of `musicRules`.
 */
export function musicRequestArb(options: { valid?: boolean; rule?: MusicRule } = {}): fc.Arbitrary<unknown> {
  if (options.rule !== undefined) {
    if (!Object.hasOwn(musicRules, options.rule)) {
      throw new TypeError(
        `Unknown music rule ${JSON.stringify(options.rule)}: use one of ${Object.keys(musicRules).join(", ")}.`,
      );
    }
    if (options.valid === true) throw new TypeError("A music request that breaks a rule is not valid.");
    return breaking(options.rule);
  }
  if (options.valid === false) return fc.oneof(...(Object.keys(musicRules) as MusicRule[]).map(breaking));
  return validArb;
}
