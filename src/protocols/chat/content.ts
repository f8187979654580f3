/**
 * Chat content parts ↔ common parts: text, images (`image_url`), audio (`input_audio`), files, refusals.
 * @see https://platform.openai.com/docs/guides/images-vision
 */
import { type Keys, unknownKeys } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import { dataUrl, kindOfMediaType, parseDataUrl } from "../../common/media";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import type * as chat from "./schema";

/**
 * A chat `cache_control` extension, or OpenAI's `prompt_cache_breakpoint` (of the part at `source`), as
 * a common hint: a breakpoint is the messages protocol's `ephemeral` cache point.
 */
export function cacheHint(
  control: chat.CacheControl | undefined,
  source: string,
  breakpoint?: unknown,
): common.CacheHint | undefined {
  if (control === undefined)
    return breakpoint === undefined || breakpoint === null
      ? undefined
      : { type: "ephemeral", source: `${source}/prompt_cache_breakpoint` };
  const pointer = `${source}/cache_control`;
  return control.ttl === undefined
    ? { type: control.type, source: pointer }
    : { type: control.type, ttl: control.ttl, source: pointer };
}

const KNOWN_PART_KEYS: Record<chat.ContentPart["type"], Keys> = {
  text: ["type", "text", "cache_control", "prompt_cache_breakpoint"],
  image_url: ["type", "image_url", "cache_control", "prompt_cache_breakpoint"],
  input_audio: ["type", "input_audio", "cache_control"],
  file: ["type", "file", "cache_control", "prompt_cache_breakpoint"],
  refusal: ["type", "refusal"],
};

/** One chat content part → one common part; fields the common model has no slot for become losses. */
export function decodeContentPart(part: chat.ContentPart, source: string, losses: Loss[]): common.Part {
  for (const key of unknownKeys(part, KNOWN_PART_KEYS[part.type])) {
    losses.push(
      loss(
        at(source, key),
        "dropped",
        `\`${key}\` on a content part has no common equivalent and was dropped.`,
      ),
    );
  }
  const cache =
    part.type === "refusal"
      ? undefined
      : cacheHint(
          part.cache_control,
          source,
          (part as { prompt_cache_breakpoint?: unknown }).prompt_cache_breakpoint,
        );
  switch (part.type) {
    case "text":
      return cache === undefined
        ? { type: "text", text: part.text, source }
        : { type: "text", text: part.text, source, cache };
    case "refusal":
      return { type: "refusal", text: part.refusal, source };
    case "image_url": {
      const parsed = parseDataUrl(part.image_url.url);
      const detail = part.image_url.detail;
      const media: common.Draft<common.MediaPart> =
        parsed === undefined
          ? { type: "media", kind: "image", url: part.image_url.url, source }
          : { type: "media", kind: "image", data: parsed.data, mediaType: parsed.mediaType, source };
      if (detail !== undefined) media.detail = detail;
      if (cache !== undefined) media.cache = cache;
      return media;
    }
    case "input_audio": {
      const format = part.input_audio.format;
      const media: common.Draft<common.MediaPart> = {
        type: "media",
        kind: "audio",
        mediaType: `audio/${format}`,
        data: part.input_audio.data,
        source,
      };
      if (cache !== undefined) media.cache = cache;
      return media;
    }
    case "file": {
      const file = part.file;
      const parsed = file.file_data === undefined ? undefined : parseDataUrl(file.file_data);
      if (file.file_data !== undefined && parsed === undefined) {
        losses.push(
          loss(
            at(source, "file", "file_data"),
            "dropped",
            "`file_data` is not a base64 data: URL and was dropped.",
          ),
        );
      }
      return {
        type: "media",
        kind: kindOfMediaType(parsed?.mediaType),
        ...(parsed === undefined ? {} : { data: parsed.data, mediaType: parsed.mediaType }),
        ...(file.file_id === undefined ? {} : { fileId: file.file_id }),
        ...(file.filename === undefined ? {} : { filename: file.filename }),
        source,
        ...(cache === undefined ? {} : { cache }),
      };
    }
  }
}

function audioFormat(mediaType: string | undefined): "wav" | "mp3" | undefined {
  switch (mediaType) {
    case "audio/wav":
    case "audio/x-wav":
    case "audio/wave":
      return "wav";
    case "audio/mp3":
    case "audio/mpeg":
      return "mp3";
    default:
      return undefined;
  }
}

/** The loss of a prompt-caching hint: chat has none. */
export const cacheDropped = (hint: common.CacheHint): Loss =>
  loss(hint.source, "dropped", "Chat has no prompt-caching hint; `cache_control` was dropped.");

const BREAKPOINT = { mode: "explicit" } as const;

/**
 * A cache hint toward chat: OpenAI's explicit breakpoint on the part it ends (`prompt_cache_breakpoint`,
 * kept 30 minutes at least: a longer lifetime asked for is said); the other dialects have none.
 */
export function cacheBreakpoint(
  hint: common.CacheHint | undefined,
  breakpoints: boolean,
  losses: Loss[],
): { mode: "explicit" } | undefined {
  if (hint === undefined) return undefined;
  if (!breakpoints) {
    losses.push(cacheDropped(hint));
    return undefined;
  }
  if (hint.ttl !== undefined && hint.ttl !== "5m")
    losses.push(
      loss(
        `${hint.source}/ttl`,
        "approximated",
        `OpenAI keeps a cache breakpoint 30 minutes at least, and takes no other lifetime; the ${hint.ttl} one was not sent.`,
        "cache_control.ttl.approximated",
      ),
    );
  return BREAKPOINT;
}

/** A common media part → a chat user content part, or undefined (with a loss) when chat cannot carry it. */
export function encodeMediaPart(
  part: common.MediaPart,
  losses: Loss[],
  breakpoints = false,
): chat.ContentPart | undefined {
  const encoded = encodeMedia(part, losses);
  if (part.cache === undefined) return encoded;
  // Audio parts take no breakpoint.
  const breakpoint =
    encoded === undefined || encoded.type === "input_audio"
      ? undefined
      : cacheBreakpoint(part.cache, breakpoints, losses);
  if (encoded !== undefined && encoded.type === "input_audio") losses.push(cacheDropped(part.cache));
  return breakpoint === undefined || encoded === undefined
    ? encoded
    : { ...encoded, prompt_cache_breakpoint: breakpoint };
}

function encodeMedia(part: common.MediaPart, losses: Loss[]): chat.ContentPart | undefined {
  if (part.kind === "image" && (part.data !== undefined || part.url !== undefined)) {
    const url =
      part.data !== undefined ? dataUrl(part.mediaType ?? "image/png", part.data) : (part.url ?? "");
    if (part.data !== undefined && part.mediaType === undefined) {
      losses.push(
        loss(
          part.source,
          "approximated",
          "The image had no media type; `image/png` was assumed for its data: URL.",
        ),
      );
    }
    return {
      type: "image_url",
      image_url: part.detail === undefined ? { url } : { url, detail: part.detail },
    };
  }
  if (part.kind === "audio" && part.data !== undefined) {
    const format = audioFormat(part.mediaType);
    if (format !== undefined) return { type: "input_audio", input_audio: { data: part.data, format } };
    losses.push(
      loss(
        part.source,
        "dropped",
        `Chat audio input takes only wav or mp3; ${part.mediaType ?? "audio of unknown type"} was dropped.`,
      ),
    );
    return undefined;
  }
  if (
    part.kind !== "image" &&
    part.kind !== "audio" &&
    (part.data !== undefined || part.fileId !== undefined)
  ) {
    const file: { file_data?: string; file_id?: string; filename?: string } = {};
    if (part.data !== undefined)
      file.file_data = dataUrl(part.mediaType ?? "application/octet-stream", part.data);
    if (part.fileId !== undefined) file.file_id = part.fileId;
    const filename = part.filename ?? part.title;
    if (filename !== undefined) file.filename = filename;
    return { type: "file", file };
  }
  losses.push(
    loss(
      part.source,
      "dropped",
      `Chat cannot take ${part.kind} content ${part.url !== undefined ? "by URL" : "in this form"}; it was dropped.`,
      "media.dropped",
    ),
  );
  return undefined;
}
