/**
 * Wire schemas of the asynchronous music API: audio submit, task polling, lyrics, upload, persona,
 * helper endpoints and the error body. Loose objects (unknown fields kept), open vendor enums, no
 * defaults: `validateAudioRequest` fills defaults and checks limits.
 */
import { z } from "zod/v4";
import type { ErrorCode, ModelId, TaskStatus } from "./limits";

/** A string schema whose type still suggests the known values (`"a" | (string & {})`). */
const openEnum = <T extends string>(): z.ZodType<T | (string & {})> => z.string();

const seconds = z.number();
const idList = z.array(z.string());

/** The 17 documented actions (any other action string is answered with `action_not_supported`; names are case-sensitive). */
export const actionIds = [
  "generate",
  "extend",
  "concat",
  "cover",
  "upload_cover",
  "upload_extend",
  "artist_consistency",
  "artist_consistency_vox",
  "stems",
  "all_stems",
  "replace_section",
  "underpainting",
  "overpainting",
  "samples",
  "remaster",
  "mashup",
  "inspo",
] as const;
/** A music action (`generate`, `extend`, `cover` …), one of `actionIds`. */
export type ActionId = (typeof actionIds)[number];

// ─── POST /music/audios ──────────────────────────────────────────────────────────────────────────

/** `POST /music/audios` body, every action; all fields optional on the wire (defaults: `validateAudioRequest` fills them). */
export const audioRequest = z.looseObject({
  model: openEnum<ModelId>().optional(),
  action: openEnum<ActionId>().optional(),
  async: z.boolean().optional(),
  prompt: z.string().optional(),
  lyric: z.string().optional(),
  custom: z.boolean().optional(),
  instrumental: z.boolean().optional(),
  title: z.string().optional(),
  style: z.string().optional(),
  style_negative: z.string().optional(),
  duration: z.number().optional(),
  audio_id: z.string().optional(),
  audio_urls: idList.optional(),
  mashup_audio_ids: idList.optional(),
  continue_at: seconds.optional(),
  persona_id: z.string().optional(),
  vocal_gender: openEnum<"f" | "m">().optional(),
  variation_category: openEnum<"high" | "normal" | "subtle">().optional(),
  replace_section_start: seconds.optional(),
  replace_section_end: seconds.optional(),
  underpainting_start: seconds.optional(),
  underpainting_end: seconds.optional(),
  overpainting_start: seconds.optional(),
  overpainting_end: seconds.optional(),
  samples_start: seconds.optional(),
  samples_end: seconds.optional(),
  // 0..1 tuning knobs of the upstream; not among the documented fields, checked when sent.
  weirdness: z.number().optional(),
  style_influence: z.number().optional(),
  audio_weight: z.number().optional(),
});
/**
 * `POST /music/audios` body, every action; all fields optional on the wire (defaults: `validateAudioRequest`
 * fills them). The type `audioRequest` parses to.
 */
export type AudioRequest = z.infer<typeof audioRequest>;

/** Answer to any submit with `async: true`. */
export const submitResponse = z.looseObject({ success: z.boolean(), task_id: z.string() });
/** Answer to any submit with `async: true`. The type `submitResponse` parses to. */
export type SubmitResponse = z.infer<typeof submitResponse>;

// ─── POST /music/tasks ───────────────────────────────────────────────────────────────────────────

/** `POST /music/tasks` body that polls one task: `{ action: "retrieve", id }`. */
export const retrieveRequest = z.looseObject({ action: z.literal("retrieve"), id: z.string() });
/**
 * `POST /music/tasks` body that polls one task: `{ action: "retrieve", id }`. The type `retrieveRequest`
 * parses to.
 */
export type RetrieveRequest = z.infer<typeof retrieveRequest>;

/** `POST /music/tasks` body that polls several tasks: `{ action: "retrieve_batch", ids }`. */
export const retrieveBatchRequest = z.looseObject({ action: z.literal("retrieve_batch"), ids: idList });
/**
 * `POST /music/tasks` body that polls several tasks: `{ action: "retrieve_batch", ids }`. The type
 * `retrieveBatchRequest` parses to.
 */
export type RetrieveBatchRequest = z.infer<typeof retrieveBatchRequest>;

/** `POST /music/tasks` body: one task by `id`, or several by `ids`. */
export const tasksRequest = z.discriminatedUnion("action", [retrieveRequest, retrieveBatchRequest]);
/** `POST /music/tasks` body: one task by `id`, or several by `ids`. The type `tasksRequest` parses to. */
export type TasksRequest = z.infer<typeof tasksRequest>;

/**
 * One result of a successful task: a song's `audio_id`, `audio_url`, `image_url`, `lyric`, `style`, `title`, `duration` …
 */
export const taskData = z.looseObject({
  audio_url: z.string().optional(),
  video_url: z.string().optional(),
  title: z.string().optional(),
  text: z.string().optional(),
  duration: z.number().optional(),
  model_name: z.string().optional(),
});
/**
 * One result of a successful task: a song's `audio_id`, `audio_url`, `image_url`, `lyric`, `style`, `title`,
 * `duration` …. The type `taskData` parses to.
 */
export type TaskData = z.infer<typeof taskData>;

/** A task: `data` on `success`, `error` on `failed`; other states carry neither. */
export const task = z.looseObject({
  id: z.string(),
  status: openEnum<TaskStatus>(),
  data: taskData.optional(),
  error: z.string().optional(),
});
/**
 * A task: `data` on `success`, `error` on `failed`; other states carry neither. The type `task` parses to.
 */
export type Task = z.infer<typeof task>;

/** `retrieve_batch` answer: `count` as returned, not recomputed. */
export const taskBatch = z.looseObject({ items: z.array(task), count: z.number() });
/** `retrieve_batch` answer: `count` as returned, not recomputed. The type `taskBatch` parses to. */
export type TaskBatch = z.infer<typeof taskBatch>;

// ─── Lyrics, upload, persona ─────────────────────────────────────────────────────────────────────

/** Wraps a sync result the way every music endpoint does: `{success, task_id, trace_id?, data}`. */
const envelope = <T extends z.ZodType>(data: T) =>
  z.looseObject({
    success: z.boolean(),
    task_id: z.string().optional(),
    trace_id: z.string().optional(),
    data,
  });

/** `POST /music/lyrics` body; `model` is `default` when absent. */
export const lyricsRequest = z.looseObject({
  prompt: z.string(),
  model: openEnum<"default" | "remi-v1">().optional(),
});
/** `POST /music/lyrics` body; `model` is `default` when absent. The type `lyricsRequest` parses to. */
export type LyricsRequest = z.infer<typeof lyricsRequest>;

/** One lyrics candidate: `{ text, title?, status?, tags? }`. */
export const lyricsItem = z.looseObject({
  text: z.string(),
  title: z.string().optional(),
  status: z.string().optional(),
  tags: z.array(z.string()).optional(),
});
/** One lyrics candidate: `{ text, title?, status?, tags? }`. The type `lyricsItem` parses to. */
export type LyricsItem = z.infer<typeof lyricsItem>;

/** One candidate (older shape) or an array of candidates (newer): both are accepted. */
export const lyricsResponse = envelope(z.union([lyricsItem, z.array(lyricsItem)]));
/**
 * One candidate (older shape) or an array of candidates (newer): both are accepted. The type `lyricsResponse`
 * parses to.
 */
export type LyricsResponse = z.infer<typeof lyricsResponse>;

/** `POST /music/upload` body (`mode`, `name` and `callback_url` as public music APIs take them). */
export const uploadRequest = z.looseObject({
  audio_url: z.string(),
  mode: openEnum<"standard" | "enhanced">().optional(),
  name: z.string().optional(),
  callback_url: z.string().optional(),
});
/**
 * `POST /music/upload` body (`mode`, `name` and `callback_url` as public music APIs take them). The type
 * `uploadRequest` parses to.
 */
export type UploadRequest = z.infer<typeof uploadRequest>;

/** Answer of `POST /music/upload`: the new `audio_id` and what the service read from the audio. */
export const uploadResponse = envelope(
  z.looseObject({
    audio_id: z.string(),
    lyric: z.string().optional(),
    style: z.string().optional(),
    title: z.string().optional(),
    duration: z.number().optional(),
    audio_url: z.string().optional(),
    image_url: z.string().optional(),
    image_large_url: z.string().optional(),
  }),
);
/**
 * Answer of `POST /music/upload`: the new `audio_id` and what the service read from the audio. The type
 * `uploadResponse` parses to.
 */
export type UploadResponse = z.infer<typeof uploadResponse>;

/** `POST /music/persona` body: a voice from `vocal_start`..`vocal_end` seconds of an uploaded audio. */
export const personaRequest = z.looseObject({
  audio_id: z.string(),
  name: z.string(),
  vocal_start: seconds.optional(),
  vocal_end: seconds.optional(),
  description: z.string().optional(),
  vox_audio_id: z.string().optional(),
});
/**
 * `POST /music/persona` body: a voice from `vocal_start`..`vocal_end` seconds of an uploaded audio. The type
 * `personaRequest` parses to.
 */
export type PersonaRequest = z.infer<typeof personaRequest>;

/** `GET /music/persona` query parameters (strings on the wire). */
export const personaListQuery = z.looseObject({
  user_id: z.string().optional(),
  limit: z.string().optional(),
  offset: z.string().optional(),
});
/** `GET /music/persona` query parameters (strings on the wire). The type `personaListQuery` parses to. */
export type PersonaListQuery = z.infer<typeof personaListQuery>;

/** A voice persona: `{ persona_id, … }`. */
export const persona = z.looseObject({
  persona_id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  is_public: z.boolean().optional(),
});
/** A voice persona: `{ persona_id, … }`. The type `persona` parses to. */
export type Persona = z.infer<typeof persona>;

/** Answer of `POST /music/persona`: the new persona. */
export const personaResponse = envelope(persona);
/** Answer of `POST /music/persona`: the new persona. The type `personaResponse` parses to. */
export type PersonaResponse = z.infer<typeof personaResponse>;

/** The list shape is not public; this shape follows public music APIs, loose so variants still parse. */
export const personaListResponse = envelope(
  z.looseObject({ items: z.array(persona), count: z.number().optional() }),
);
/**
 * The list shape is not public; this shape follows public music APIs, loose so variants still parse. The type
 * `personaListResponse` parses to.
 */
export type PersonaListResponse = z.infer<typeof personaListResponse>;

// ─── Helper endpoints (bodies and results as public music APIs document them) ─────────────

const audioIdBody = z.looseObject({ audio_id: z.string(), callback_url: z.string().optional() });

/** `POST /music/voices` body: the audio (`audio_url`) to extract a voice from. */
export const voicesRequest = z.looseObject({
  audio_url: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
});
/**
 * `POST /music/voices` body: the audio (`audio_url`) to extract a voice from. The type `voicesRequest` parses
 * to.
 */
export type VoicesRequest = z.infer<typeof voicesRequest>;
/** Answer of `POST /music/voices`: the new persona. */
export const voicesResponse = envelope(persona);
/** Answer of `POST /music/voices`: the new persona. The type `voicesResponse` parses to. */
export type VoicesResponse = z.infer<typeof voicesResponse>;

/** `POST /music/style` body: `{ prompt }`, a style description to expand. */
export const styleRequest = z.looseObject({ prompt: z.string() });
/**
 * `POST /music/style` body: `{ prompt }`, a style description to expand. The type `styleRequest` parses to.
 */
export type StyleRequest = z.infer<typeof styleRequest>;
/** Answer of `POST /music/style`: `{ upsampled_tags }`. */
export const styleResponse = envelope(z.looseObject({ upsampled_tags: z.string() }));
/** Answer of `POST /music/style`: `{ upsampled_tags }`. The type `styleResponse` parses to. */
export type StyleResponse = z.infer<typeof styleResponse>;

/** `POST /music/mashup-lyrics` body: the two lyrics to blend, `lyrics_a` and `lyrics_b`. */
export const mashupLyricsRequest = z.looseObject({ lyrics_a: z.string(), lyrics_b: z.string() });
/**
 * `POST /music/mashup-lyrics` body: the two lyrics to blend, `lyrics_a` and `lyrics_b`. The type
 * `mashupLyricsRequest` parses to.
 */
export type MashupLyricsRequest = z.infer<typeof mashupLyricsRequest>;
/** Answer of `POST /music/mashup-lyrics`: the blended lyrics. */
export const mashupLyricsResponse = envelope(lyricsItem);
/** Answer of `POST /music/mashup-lyrics`: the blended lyrics. The type `mashupLyricsResponse` parses to. */
export type MashupLyricsResponse = z.infer<typeof mashupLyricsResponse>;

/** `POST /music/wav` body: `{ audio_id, callback_url? }`. */
export const wavRequest = audioIdBody;
/** `POST /music/wav` body: `{ audio_id, callback_url? }`. The type `wavRequest` parses to. */
export type WavRequest = z.infer<typeof wavRequest>;
/** Answer of `POST /music/wav`: the WAV files' URLs. */
export const wavResponse = envelope(z.array(z.looseObject({ file_url: z.string() })));
/** Answer of `POST /music/wav`: the WAV files' URLs. The type `wavResponse` parses to. */
export type WavResponse = z.infer<typeof wavResponse>;

/** `POST /music/mp4` body: `{ audio_id, callback_url? }`. */
export const mp4Request = audioIdBody;
/** `POST /music/mp4` body: `{ audio_id, callback_url? }`. The type `mp4Request` parses to. */
export type Mp4Request = z.infer<typeof mp4Request>;
/** Answer of `POST /music/mp4`: `{ video_url }`. */
export const mp4Response = envelope(z.looseObject({ video_url: z.string() }));
/** Answer of `POST /music/mp4`: `{ video_url }`. The type `mp4Response` parses to. */
export type Mp4Response = z.infer<typeof mp4Response>;

const midiNote = z.looseObject({ pitch: z.number(), start: seconds, end: seconds, velocity: z.number() });
const midiInstrument = z.looseObject({ name: z.string(), notes: z.array(midiNote) });

/** `POST /music/midi` body: `{ audio_id, callback_url? }`. */
export const midiRequest = audioIdBody;
/** `POST /music/midi` body: `{ audio_id, callback_url? }`. The type `midiRequest` parses to. */
export type MidiRequest = z.infer<typeof midiRequest>;
/** Answer of `POST /music/midi`: instruments with their notes (pitch, start, end, velocity). */
export const midiResponse = envelope(
  z.array(z.looseObject({ state: z.string().optional(), instruments: z.array(midiInstrument) })),
);
/**
 * Answer of `POST /music/midi`: instruments with their notes (pitch, start, end, velocity). The type
 * `midiResponse` parses to.
 */
export type MidiResponse = z.infer<typeof midiResponse>;

const alignedWord = z.looseObject({
  word: z.string(),
  success: z.boolean().optional(),
  start_s: seconds,
  end_s: seconds,
  p_align: z.number().optional(),
});

/** `POST /music/timing` body: `{ audio_id, callback_url? }`. */
export const timingRequest = audioIdBody;
/** `POST /music/timing` body: `{ audio_id, callback_url? }`. The type `timingRequest` parses to. */
export type TimingRequest = z.infer<typeof timingRequest>;
/** Answer of `POST /music/timing`: the lyrics' words aligned to the audio (`start_s`, `end_s`). */
export const timingResponse = envelope(
  z.looseObject({
    aligned_words: z.array(alignedWord),
    waveform_data: z.array(z.number()).optional(),
    hoot_cer: z.number().optional(),
    is_streamed: z.boolean().optional(),
  }),
);
/**
 * Answer of `POST /music/timing`: the lyrics' words aligned to the audio (`start_s`, `end_s`). The type
 * `timingResponse` parses to.
 */
export type TimingResponse = z.infer<typeof timingResponse>;

/** `POST /music/vox` body: the song to take the vocals of and the span. */
export const voxRequest = z.looseObject({
  audio_id: z.string(),
  vocal_start: seconds.optional(),
  vocal_end: seconds.optional(),
});
/** `POST /music/vox` body: the song to take the vocals of and the span. The type `voxRequest` parses to. */
export type VoxRequest = z.infer<typeof voxRequest>;
/** Answer of `POST /music/vox`: the isolated vocals. */
export const voxResponse = envelope(
  z.looseObject({
    id: z.string(),
    source_clip_id: z.string().optional(),
    status: z.string().optional(),
    vocal_audio_url: z.string().optional(),
    vocal_start_s: seconds.optional(),
    vocal_end_s: seconds.optional(),
  }),
);
/** Answer of `POST /music/vox`: the isolated vocals. The type `voxResponse` parses to. */
export type VoxResponse = z.infer<typeof voxResponse>;

// ─── Errors ──────────────────────────────────────────────────────────────────────────────────────

/** Error body of every music endpoint: flat, unlike the upstream's nested `error` object. */
export const errorBody = z.looseObject({
  success: z.literal(false),
  error: openEnum<ErrorCode>(),
  message: z.string(),
});
/**
 * Error body of every music endpoint: flat, unlike the upstream's nested `error` object. The type `errorBody`
 * parses to.
 */
export type ErrorBody = z.infer<typeof errorBody>;
