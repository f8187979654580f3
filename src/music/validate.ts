/**
 * `validateAudioRequest`: checks a `POST /music/audios` body before it is queued upstream and answers
 * at once with a precise 400, or returns the body with its defaults filled.
 */
import {
  audioUrlsRange,
  defaultModel,
  durationRange,
  type ModelId,
  mashupAudioIdsMin,
  modelLimits,
  promptLimit,
  type ValidationErrorCode,
} from "./limits";
import { type ActionId, type AudioRequest, actionIds, type ErrorBody } from "./schema";

/** A valid request: the body as sent (same values, unknown fields kept) plus the filled defaults. */
export type ValidAudioRequest = AudioRequest & { model: ModelId; action: ActionId; async: boolean };

/** The answer of `validateAudioRequest`: the request with its defaults filled, or the 400 to send. */
export type AudioRequestResult =
  | { ok: true; value: ValidAudioRequest }
  | { ok: false; status: 400; body: ErrorBody & { error: ValidationErrorCode } };

type Body = Readonly<Record<string, unknown>>;
type Failure = { readonly code: ValidationErrorCode; readonly message: string };
type Kind = "string" | "boolean" | "number" | "string[]";

// Order is precedence: the first field with a wrong type is the one reported.
const fieldKinds: ReadonlyArray<readonly [string, Kind]> = [
  ["model", "string"],
  ["action", "string"],
  ["async", "boolean"],
  ["custom", "boolean"],
  ["instrumental", "boolean"],
  ["prompt", "string"],
  ["lyric", "string"],
  ["title", "string"],
  ["style", "string"],
  ["style_negative", "string"],
  ["duration", "number"],
  ["audio_id", "string"],
  ["audio_urls", "string[]"],
  ["mashup_audio_ids", "string[]"],
  ["continue_at", "number"],
  ["persona_id", "string"],
  ["vocal_gender", "string"],
  ["variation_category", "string"],
  ["replace_section_start", "number"],
  ["replace_section_end", "number"],
  ["underpainting_start", "number"],
  ["underpainting_end", "number"],
  ["overpainting_start", "number"],
  ["overpainting_end", "number"],
  ["samples_start", "number"],
  ["samples_end", "number"],
  ["weirdness", "number"],
  ["style_influence", "number"],
  ["audio_weight", "number"],
];

/** "lyric|prompt" means either one, non-blank. `generate` is checked on its own (custom mode). */
const requiredFields: Readonly<Record<ActionId, readonly string[]>> = {
  generate: [],
  extend: ["audio_id", "continue_at"],
  concat: ["audio_id"],
  cover: ["audio_id"],
  upload_cover: ["audio_id"],
  upload_extend: ["audio_id", "continue_at"],
  artist_consistency: ["persona_id", "lyric|prompt"],
  artist_consistency_vox: ["persona_id", "lyric|prompt"],
  stems: ["audio_id"],
  all_stems: ["audio_id"],
  replace_section: ["audio_id", "replace_section_start", "replace_section_end"],
  // The start defaults to 0 upstream ("default value is 0"; its own examples send only `*_end`).
  underpainting: ["audio_id", "underpainting_end"],
  overpainting: ["audio_id", "overpainting_end"],
  samples: ["audio_id", "samples_start", "samples_end"],
  remaster: ["audio_id"],
  mashup: ["mashup_audio_ids"],
  inspo: ["audio_urls"],
};

const timeRanges = ["replace_section", "underpainting", "overpainting", "samples"] as const;
const unitIntervalFields = ["weirdness", "style_influence", "audio_weight"] as const;
const vocalGenders: readonly unknown[] = ["f", "m"];
const variationCategories: readonly unknown[] = ["high", "normal", "subtle"];
const actionSet: ReadonlySet<unknown> = new Set(actionIds);

/**
 * Validates a `POST /music/audios` body. On success `value` is a new object holding every field as
 * sent — unknown fields kept, strings never trimmed, explicit `false`/`0`/`""` kept — plus the
 * defaults for absent fields: `model` "chirp-v4", `action` "generate", `async` false.
 *
 * Lengths are JavaScript string lengths, i.e. UTF-16 code units: a BMP character (`歌`, `é`) counts 1,
 * a character outside the BMP (the emoji `🎵`, CJK Extension B) counts 2; grapheme clusters are not
 * merged. This is never smaller than a code-point count, so what passes here also fits an upstream
 * that counts code points.
 *
 * A rejection is `{ ok: false, status: 400, body: { success: false, error, message } }`; `error` is one
 * of `validationErrorCodes` and `message` names the field, the limit and the model. When several
 * rules fail, the first in this order wins: body shape, field types, model, action, required fields,
 * ranges and enums, lengths. Never throws.
 * @example
 * validateAudioRequest({ prompt: "a calm piano piece" });
 * // => { ok: true, value: { prompt: "a calm piano piece", model: "chirp-v4", action: "generate", async: false } }
 * validateAudioRequest({ custom: true, lyric: "[Verse]", style: "pop", title: "x".repeat(81) });
 * // => { ok: false, status: 400, body: { success: false, error: "title_too_long", message: "`title` is 81 characters long; model chirp-v4 allows at most 80 (UTF-16 code units)." } }
 */
export function validateAudioRequest(body: unknown): AudioRequestResult {
  let failure: Failure | undefined;
  try {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return reject({
        code: "invalid_request",
        message: `The request body must be a JSON object; got ${describe(body)}.`,
      });
    }
    const fields = readKnownFields(body);
    failure = check(fields);
    if (failure === undefined) return { ok: true, value: withDefaults(body, fields) };
  } catch {
    // Only exotic non-JSON inputs (a throwing getter or Proxy) get here.
    failure = { code: "invalid_request", message: "The request body could not be read as a JSON object." };
  }
  return reject(failure);
}

function reject(failure: Failure): AudioRequestResult {
  return { ok: false, status: 400, body: { success: false, error: failure.code, message: failure.message } };
}

/** Own known fields only: an inherited `model` or a `__proto__` key is never read through the prototype. */
function readKnownFields(body: object): Body {
  const entries: [string, unknown][] = [];
  for (const [key] of fieldKinds) if (Object.hasOwn(body, key)) entries.push([key, Reflect.get(body, key)]);
  return Object.fromEntries(entries);
}

function withDefaults(body: object, fields: Body): ValidAudioRequest {
  return {
    ...body,
    model: (fields.model ?? defaultModel) as ModelId,
    action: (fields.action ?? "generate") as ActionId,
    async: (fields.async ?? false) as boolean,
  };
}

function check(fields: Body): Failure | undefined {
  const modelName = typeof fields.model === "string" ? fields.model : defaultModel;
  const model = `model ${shown(modelName)}`;
  for (const [field, kind] of fieldKinds) {
    const value = fields[field];
    if (value !== undefined && !hasKind(value, kind)) {
      return invalid(`\`${field}\` must be ${kindName(kind)}; got ${describe(value)} (${model}).`);
    }
  }
  if (!Object.hasOwn(modelLimits, modelName)) {
    return {
      code: "model_not_supported",
      message: `\`model\` ${shown(modelName)} is not supported; use one of ${Object.keys(modelLimits).join(", ")}.`,
    };
  }
  const action = fields.action === undefined ? "generate" : fields.action;
  if (!actionSet.has(action)) {
    return {
      code: "action_not_supported",
      message: `\`action\` ${shown(String(action))} is not supported (${model}); use one of ${actionIds.join(", ")}.`,
    };
  }
  const context = { fields, model, limits: modelLimits[modelName as ModelId], action: action as ActionId };
  return checkRequired(context) ?? checkRanges(context) ?? checkLengths(context);
}

type Context = { fields: Body; model: string; limits: (typeof modelLimits)[ModelId]; action: ActionId };

function checkRequired({ fields, model, action }: Context): Failure | undefined {
  const where = `for action ${action} (${model})`;
  if (action === "generate") {
    if (fields.custom !== true) {
      if (isGiven(fields.prompt)) return undefined;
      return {
        code: "prompt_empty",
        message: `\`prompt\` is required and must not be blank ${where} unless \`custom\` is true.`,
      };
    }
    const needed = fields.instrumental === true ? ["style"] : ["lyric", "style"];
    for (const field of needed) {
      if (!isGiven(fields[field])) {
        return missing(`\`${field}\` is required and must not be blank ${where} with \`custom\` true.`);
      }
    }
    return undefined;
  }
  for (const field of requiredFields[action]) {
    if (field === "lyric|prompt") {
      if (isGiven(fields.lyric) || isGiven(fields.prompt)) continue;
      return {
        code: "prompt_empty",
        message: `\`lyric\` or \`prompt\` is required and must not be blank ${where}.`,
      };
    }
    if (isGiven(fields[field])) continue;
    const message = `\`${field}\` is required${typeof fields[field] === "string" ? " and must not be blank" : ""} ${where}.`;
    return field === "audio_id" ? { code: "audio_id_required", message } : missing(message);
  }
  return undefined;
}

function checkRanges({ fields, model }: Context): Failure | undefined {
  const { duration, continue_at: continueAt, audio_urls: audioUrls, mashup_audio_ids: mashupIds } = fields;
  if (typeof duration === "number") {
    const { min, max } = durationRange;
    if (!Number.isInteger(duration) || duration < min || duration > max) {
      return invalid(
        `\`duration\` must be an integer from ${min} to ${max} seconds; got ${duration} (${model}).`,
      );
    }
    if (fields.custom !== true) {
      return invalid(
        `\`duration\` (${min} to ${max} seconds) is accepted only with \`custom\` true (${model}).`,
      );
    }
  }
  if (typeof continueAt === "number" && !(continueAt > 0)) {
    return invalid(
      `\`continue_at\` must be a number of seconds greater than 0; got ${continueAt} (${model}).`,
    );
  }
  for (const range of timeRanges) {
    const start = fields[`${range}_start`];
    const end = fields[`${range}_end`];
    for (const [field, value] of [
      [`${range}_start`, start],
      [`${range}_end`, end],
    ] as const) {
      if (typeof value === "number" && value < 0) {
        return invalid(`\`${field}\` must be at least 0 seconds; got ${value} (${model}).`);
      }
    }
    if (typeof start === "number" && typeof end === "number" && !(end > start)) {
      return invalid(
        `\`${range}_end\` (${end}) must be greater than \`${range}_start\` (${start}) seconds (${model}).`,
      );
    }
  }
  if (
    Array.isArray(audioUrls) &&
    (audioUrls.length < audioUrlsRange.min || audioUrls.length > audioUrlsRange.max)
  ) {
    const { min, max } = audioUrlsRange;
    return invalid(`\`audio_urls\` must hold ${min} to ${max} URLs; got ${audioUrls.length} (${model}).`);
  }
  if (Array.isArray(mashupIds) && mashupIds.length < mashupAudioIdsMin) {
    return invalid(
      `\`mashup_audio_ids\` must hold at least ${mashupAudioIdsMin} audio ids; got ${mashupIds.length} (${model}).`,
    );
  }
  if (fields.vocal_gender !== undefined && !vocalGenders.includes(fields.vocal_gender)) {
    return invalid(`\`vocal_gender\` must be "f" or "m"; got ${describe(fields.vocal_gender)} (${model}).`);
  }
  if (fields.variation_category !== undefined && !variationCategories.includes(fields.variation_category)) {
    return invalid(
      `\`variation_category\` must be "high", "normal" or "subtle"; got ${describe(fields.variation_category)} (${model}).`,
    );
  }
  for (const field of unitIntervalFields) {
    const value = fields[field];
    if (typeof value === "number" && (value < 0 || value > 1)) {
      return invalid(`\`${field}\` must be from 0 to 1; got ${value} (${model}).`);
    }
  }
  return undefined;
}

function checkLengths({ fields, model, limits }: Context): Failure | undefined {
  const { prompt } = fields;
  if (fields.custom !== true && typeof prompt === "string" && prompt.length > promptLimit) {
    return {
      code: "prompt_too_long",
      message: `\`prompt\` is ${prompt.length} characters long; ${model} allows at most ${promptLimit} without \`custom\` true (UTF-16 code units).`,
    };
  }
  for (const field of ["lyric", "style", "title"] as const) {
    const value = fields[field];
    if (typeof value === "string" && value.length > limits[field]) {
      return {
        code: `${field}_too_long`,
        message: `\`${field}\` is ${value.length} characters long; ${model} allows at most ${limits[field]} (UTF-16 code units).`,
      };
    }
  }
  return undefined;
}

/** A required value is given unless absent or, for text, blank as `String.prototype.trim` sees it. */
function isGiven(value: unknown): boolean {
  if (value === undefined) return false;
  return typeof value !== "string" || /\S/.test(value);
}

function hasKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case "string":
    case "boolean":
      return typeof value === kind;
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "string[]":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
  }
}

function kindName(kind: Kind): string {
  switch (kind) {
    case "string":
      return "a string";
    case "boolean":
      return "a boolean (true or false)";
    case "number":
      return "a finite number";
    case "string[]":
      return "an array of strings";
  }
}

function invalid(message: string): Failure {
  return { code: "invalid_parameter", message };
}

function missing(message: string): Failure {
  return { code: "missing_parameter", message };
}

/** A value for a message, cut short so a huge input does not make a huge message. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) {
    const bad = value.find((item) => typeof item !== "string");
    if (value.length === 0 || bad === undefined) return "an array";
    return `an array holding ${Array.isArray(bad) ? "an array" : describe(bad)}`;
  }
  if (typeof value === "string") return `string ${shown(value)}`;
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${String(value)}`;
  return typeof value === "object" ? "an object" : typeof value;
}

function shown(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
