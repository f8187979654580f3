/**
 * Music limits and constants: per-model length limits, task states, the polling schedule and the HTTP
 * status of every error code.
 */

/** The six music model ids. */
export const modelIds = [
  "chirp-v5-5",
  "chirp-v5",
  "chirp-v4-5-plus",
  "chirp-v4-5",
  "chirp-v4",
  "chirp-v3-5",
] as const;
/** A music model id (`chirp-v4`, `chirp-v5` …), one of `modelIds`. */
export type ModelId = (typeof modelIds)[number];

/** The model used when a request names none. */
export const defaultModel: ModelId = "chirp-v4";

/** The length limits of one music model, as `modelLimits` lists them. */
export type ModelLimit = {
  readonly maxDurationSeconds: number;
  /** Maximum `lyric` length in UTF-16 code units (JavaScript `string.length`). */
  readonly lyric: number;
  /** Maximum `style` length in UTF-16 code units. */
  readonly style: number;
  /** Maximum `title` length in UTF-16 code units. */
  readonly title: number;
};

/** Limits per model, as the music API documents them (lengths in UTF-16 code units, durations in seconds). */
export const modelLimits: Readonly<Record<ModelId, ModelLimit>> = {
  "chirp-v5-5": { maxDurationSeconds: 480, lyric: 5000, style: 1000, title: 100 },
  "chirp-v5": { maxDurationSeconds: 480, lyric: 5000, style: 1000, title: 100 },
  "chirp-v4-5-plus": { maxDurationSeconds: 480, lyric: 5000, style: 1000, title: 100 },
  "chirp-v4-5": { maxDurationSeconds: 240, lyric: 5000, style: 1000, title: 100 },
  "chirp-v4": { maxDurationSeconds: 150, lyric: 3000, style: 200, title: 80 },
  "chirp-v3-5": { maxDurationSeconds: 120, lyric: 3000, style: 200, title: 80 },
};

/** The non-custom `prompt` limit, the same for every model. */
export const promptLimit = 500;

/** `duration` range in seconds; a hint, accepted only with `custom: true`. */
export const durationRange = { min: 10, max: 360 } as const;

/** `audio_urls` entry count. */
export const audioUrlsRange = { min: 1, max: 4 } as const;

/** `mashup_audio_ids` needs at least two songs to blend. */
export const mashupAudioIdsMin = 2;

/** The states a music task passes through. */
export const taskStatuses = ["submitted", "queued", "in_progress", "success", "failed"] as const;
/** A music task's state, one of `taskStatuses`. */
export type TaskStatus = (typeof taskStatuses)[number];

/**
 * Whether a task in `status` will not change any more (`success` or `failed`); any other value,
 * including states a vendor may add, means "keep polling".
 * @example
 * isTerminal("in_progress"); // => false
 * isTerminal("failed"); // => true
 */
export function isTerminal(status: unknown): boolean {
  return status === "success" || status === "failed";
}

/**
 * Milliseconds to wait before the next `POST /music/tasks` poll, deterministic.
 * `attempt` is the number of polls already made: 0 is the wait between submit and the first poll
 * (2.5 s, inside the documented 2–3 s); after that the interval starts at 3 s and grows by 0.5 s per poll
 * up to 5 s, staying in the recommended 3–5 s window. Negative or NaN counts as 0, fractions round down.
 * @example
 * nextPollDelayMs(0); // => 2500
 * nextPollDelayMs(1); // => 3000
 * nextPollDelayMs(10); // => 5000
 */
export function nextPollDelayMs(attempt: number): number {
  const polls = typeof attempt === "number" && attempt > 0 ? Math.floor(attempt) : 0;
  if (polls === 0) return 2500;
  return Math.min(3000 + (polls - 1) * 500, 5000);
}

/** Codes `validateAudioRequest` can answer with; every one is HTTP 400. */
export const validationErrorCodes = [
  "invalid_request",
  "invalid_parameter",
  "missing_parameter",
  "prompt_empty",
  "audio_id_required",
  "model_not_supported",
  "action_not_supported",
  "prompt_too_long",
  "lyric_too_long",
  "style_too_long",
  "title_too_long",
] as const;
/** An error code `validateAudioRequest` answers with (always HTTP 400), one of `validationErrorCodes`. */
export type ValidationErrorCode = (typeof validationErrorCodes)[number];

/** Codes the service reports at run time, after a task was accepted. */
export const runtimeErrorCodes = ["generation_failed", "quota_exceeded"] as const;
/** An error code of a task that was accepted and failed later, one of `runtimeErrorCodes`. */
export type RuntimeErrorCode = (typeof runtimeErrorCodes)[number];

/** Every music error code; `statusOfErrorCode` gives the HTTP status of each. */
export type ErrorCode = ValidationErrorCode | RuntimeErrorCode;

/**
 * HTTP status for each music error code. Validation codes are 400; `generation_failed` is 502 (the
 * upstream failed) and `quota_exceeded` is 429 ("insufficient credits", what clients already back off on).
 */
export const statusOfErrorCode: Readonly<Record<ErrorCode, number>> = {
  invalid_request: 400,
  invalid_parameter: 400,
  missing_parameter: 400,
  prompt_empty: 400,
  audio_id_required: 400,
  model_not_supported: 400,
  action_not_supported: 400,
  prompt_too_long: 400,
  lyric_too_long: 400,
  style_too_long: 400,
  title_too_long: 400,
  generation_failed: 502,
  quota_exceeded: 429,
};
