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
export type AudioRequest = z.infer<typeof audioRequest>;

/** Answer to any submit with `async: true`. */
export const submitResponse = z.looseObject({ success: z.boolean(), task_id: z.string() });
export type SubmitResponse = z.infer<typeof submitResponse>;

// ─── POST /music/tasks ───────────────────────────────────────────────────────────────────────────

export const retrieveRequest = z.looseObject({ action: z.literal("retrieve"), id: z.string() });
export type RetrieveRequest = z.infer<typeof retrieveRequest>;

export const retrieveBatchRequest = z.looseObject({ action: z.literal("retrieve_batch"), ids: idList });
export type RetrieveBatchRequest = z.infer<typeof retrieveBatchRequest>;

/** `POST /music/tasks` body: one task by `id`, or several by `ids`. */
export const tasksRequest = z.discriminatedUnion("action", [retrieveRequest, retrieveBatchRequest]);
export type TasksRequest = z.infer<typeof tasksRequest>;

export const taskData = z.looseObject({
  audio_url: z.string().optional(),
  video_url: z.string().optional(),
  title: z.string().optional(),
  text: z.string().optional(),
  duration: z.number().optional(),
  model_name: z.string().optional(),
});
export type TaskData = z.infer<typeof taskData>;

/** A task: `data` on `success`, `error` on `failed`; other states carry neither. */
export const task = z.looseObject({
  id: z.string(),
  status: openEnum<TaskStatus>(),
  data: taskData.optional(),
  error: z.string().optional(),
});
export type Task = z.infer<typeof task>;

/** `retrieve_batch` answer: `count` as returned, not recomputed. */
export const taskBatch = z.looseObject({ items: z.array(task), count: z.number() });
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
export type LyricsRequest = z.infer<typeof lyricsRequest>;

export const lyricsItem = z.looseObject({
  text: z.string(),
  title: z.string().optional(),
  status: z.string().optional(),
  tags: z.array(z.string()).optional(),
});
export type LyricsItem = z.infer<typeof lyricsItem>;

/** One candidate (older shape) or an array of candidates (newer): both are accepted. */
export const lyricsResponse = envelope(z.union([lyricsItem, z.array(lyricsItem)]));
export type LyricsResponse = z.infer<typeof lyricsResponse>;

/** `POST /music/upload` body (`mode`, `name` and `callback_url` as public music APIs take them). */
export const uploadRequest = z.looseObject({
  audio_url: z.string(),
  mode: openEnum<"standard" | "enhanced">().optional(),
  name: z.string().optional(),
  callback_url: z.string().optional(),
});
export type UploadRequest = z.infer<typeof uploadRequest>;

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
export type PersonaRequest = z.infer<typeof personaRequest>;

/** `GET /music/persona` query parameters (strings on the wire). */
export const personaListQuery = z.looseObject({
  user_id: z.string().optional(),
  limit: z.string().optional(),
  offset: z.string().optional(),
});
export type PersonaListQuery = z.infer<typeof personaListQuery>;

export const persona = z.looseObject({
  persona_id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  is_public: z.boolean().optional(),
});
export type Persona = z.infer<typeof persona>;

export const personaResponse = envelope(persona);
export type PersonaResponse = z.infer<typeof personaResponse>;

/** The list shape is not public; this shape follows public music APIs, loose so variants still parse. */
export const personaListResponse = envelope(
  z.looseObject({ items: z.array(persona), count: z.number().optional() }),
);
export type PersonaListResponse = z.infer<typeof personaListResponse>;

// ─── Helper endpoints (bodies and results as public music APIs document them) ─────────────

const audioIdBody = z.looseObject({ audio_id: z.string(), callback_url: z.string().optional() });

export const voicesRequest = z.looseObject({
  audio_url: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
});
export type VoicesRequest = z.infer<typeof voicesRequest>;
export const voicesResponse = envelope(persona);
export type VoicesResponse = z.infer<typeof voicesResponse>;

export const styleRequest = z.looseObject({ prompt: z.string() });
export type StyleRequest = z.infer<typeof styleRequest>;
export const styleResponse = envelope(z.looseObject({ upsampled_tags: z.string() }));
export type StyleResponse = z.infer<typeof styleResponse>;

export const mashupLyricsRequest = z.looseObject({ lyrics_a: z.string(), lyrics_b: z.string() });
export type MashupLyricsRequest = z.infer<typeof mashupLyricsRequest>;
export const mashupLyricsResponse = envelope(lyricsItem);
export type MashupLyricsResponse = z.infer<typeof mashupLyricsResponse>;

export const wavRequest = audioIdBody;
export type WavRequest = z.infer<typeof wavRequest>;
export const wavResponse = envelope(z.array(z.looseObject({ file_url: z.string() })));
export type WavResponse = z.infer<typeof wavResponse>;

export const mp4Request = audioIdBody;
export type Mp4Request = z.infer<typeof mp4Request>;
export const mp4Response = envelope(z.looseObject({ video_url: z.string() }));
export type Mp4Response = z.infer<typeof mp4Response>;

const midiNote = z.looseObject({ pitch: z.number(), start: seconds, end: seconds, velocity: z.number() });
const midiInstrument = z.looseObject({ name: z.string(), notes: z.array(midiNote) });

export const midiRequest = audioIdBody;
export type MidiRequest = z.infer<typeof midiRequest>;
export const midiResponse = envelope(
  z.array(z.looseObject({ state: z.string().optional(), instruments: z.array(midiInstrument) })),
);
export type MidiResponse = z.infer<typeof midiResponse>;

const alignedWord = z.looseObject({
  word: z.string(),
  success: z.boolean().optional(),
  start_s: seconds,
  end_s: seconds,
  p_align: z.number().optional(),
});

export const timingRequest = audioIdBody;
export type TimingRequest = z.infer<typeof timingRequest>;
export const timingResponse = envelope(
  z.looseObject({
    aligned_words: z.array(alignedWord),
    waveform_data: z.array(z.number()).optional(),
    hoot_cer: z.number().optional(),
    is_streamed: z.boolean().optional(),
  }),
);
export type TimingResponse = z.infer<typeof timingResponse>;

export const voxRequest = z.looseObject({
  audio_id: z.string(),
  vocal_start: seconds.optional(),
  vocal_end: seconds.optional(),
});
export type VoxRequest = z.infer<typeof voxRequest>;
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
export type VoxResponse = z.infer<typeof voxResponse>;

// ─── Errors ──────────────────────────────────────────────────────────────────────────────────────

/** Error body of every music endpoint: flat, unlike the upstream's nested `error` object. */
export const errorBody = z.looseObject({
  success: z.literal(false),
  error: openEnum<ErrorCode>(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBody>;
