/**
 * responses content parts ↔ common parts: `input_text`, `input_image` (URL, data URL or file id),
 * `input_file` (data URL, URL or file id), `input_audio`, and the `output_text` / `refusal` parts an
 * assistant turn is replayed with.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
import { type Loss, loss } from "../../common/loss";
import { dataUrl, kindOfMediaType, parseDataUrl } from "../../common/media";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import { keepRest } from "./fields";
import type { InputContent } from "./schema";

const TEXT_KEYS = new Set(["type", "text", "prompt_cache_breakpoint"]);
const IMAGE_KEYS = new Set(["type", "image_url", "file_id", "detail", "prompt_cache_breakpoint"]);
const FILE_KEYS = new Set([
  "type",
  "file_data",
  "file_id",
  "file_url",
  "filename",
  "detail",
  "prompt_cache_breakpoint",
]);
const AUDIO_KEYS = new Set(["type", "input_audio"]);
const OUTPUT_TEXT_KEYS = new Set(["type", "text", "annotations"]);
const REFUSAL_KEYS = new Set(["type", "refusal"]);

type Raw = Record<string, unknown>;

const given = (value: unknown): value is string => typeof value === "string";

/** A part's `prompt_cache_breakpoint` as a common hint: the messages protocol's `ephemeral` cache point. */
export function breakpointHint(part: Raw, source: string): common.CacheHint | undefined {
  const mark = part.prompt_cache_breakpoint;
  return mark === undefined || mark === null
    ? undefined
    : { type: "ephemeral", source: at(source, "prompt_cache_breakpoint") };
}

const BREAKPOINT = { mode: "explicit" } as const;

/**
 * A cache hint toward responses: an explicit breakpoint on the part it ends (`prompt_cache_breakpoint`,
 * kept 30 minutes at least: another lifetime asked for is said).
 */
export function cacheBreakpoint(
  hint: common.CacheHint | undefined,
  losses: Loss[],
): { mode: "explicit" } | undefined {
  if (hint === undefined) return undefined;
  if (hint.ttl !== undefined && hint.ttl !== "5m")
    losses.push(
      loss(
        at(hint.source, "ttl"),
        "approximated",
        `The responses API keeps a cache breakpoint 30 minutes at least, and takes no other lifetime; the ${hint.ttl} one was not sent.`,
        "cache_control.ttl.approximated",
      ),
    );
  return BREAKPOINT;
}

/** One content part of an input message or of a function output → one common part. */
export function decodeContentPart(part: InputContent, source: string, losses: Loss[]): common.Part {
  const raw = part as Raw;
  switch (part.type) {
    case "input_text": {
      keepRest(part, TEXT_KEYS, source, "an input_text part", losses);
      const cache = breakpointHint(raw, source);
      return cache === undefined
        ? { type: "text", text: raw.text as string, source }
        : { type: "text", text: raw.text as string, source, cache };
    }
    case "output_text": {
      keepRest(part, OUTPUT_TEXT_KEYS, source, "an output_text part", losses);
      const annotations = raw.annotations;
      const text: common.Draft<common.TextPart> = { type: "text", text: raw.text as string, source };
      if (Array.isArray(annotations) && annotations.length > 0)
        text.citations = { origin: "responses", items: annotations, source: at(source, "annotations") };
      return text;
    }
    case "refusal":
      keepRest(part, REFUSAL_KEYS, source, "a refusal part", losses);
      return { type: "refusal", text: raw.refusal as string, source };
    case "input_image": {
      keepRest(part, IMAGE_KEYS, source, "an input_image part", losses);
      const media: common.Draft<common.MediaPart> = { type: "media", kind: "image", source };
      const url = raw.image_url;
      if (given(url)) {
        const parsed = parseDataUrl(url);
        if (parsed === undefined) media.url = url;
        else {
          media.mediaType = parsed.mediaType;
          media.data = parsed.data;
        }
      }
      if (given(raw.file_id)) media.fileId = raw.file_id;
      if (given(raw.detail)) media.detail = raw.detail;
      const cache = breakpointHint(raw, source);
      if (cache !== undefined) media.cache = cache;
      return media;
    }
    case "input_file": {
      keepRest(part, FILE_KEYS, source, "an input_file part", losses);
      const media: common.Draft<common.MediaPart> = { type: "media", kind: "file", source };
      const data = raw.file_data;
      if (given(data)) {
        const parsed = parseDataUrl(data);
        if (parsed === undefined) {
          losses.push(
            loss(
              at(source, "file_data"),
              "dropped",
              "`file_data` is not a base64 data: URL and was dropped.",
            ),
          );
        } else {
          media.kind = kindOfMediaType(parsed.mediaType);
          media.mediaType = parsed.mediaType;
          media.data = parsed.data;
        }
      }
      if (given(raw.file_url)) media.url = raw.file_url;
      if (given(raw.file_id)) media.fileId = raw.file_id;
      if (given(raw.filename)) media.filename = raw.filename;
      if (given(raw.detail)) media.detail = raw.detail;
      const cache = breakpointHint(raw, source);
      if (cache !== undefined) media.cache = cache;
      return media;
    }
    case "input_audio": {
      keepRest(part, AUDIO_KEYS, source, "an input_audio part", losses);
      const audio = raw.input_audio as { data: string; format: string };
      return { type: "media", kind: "audio", mediaType: `audio/${audio.format}`, data: audio.data, source };
    }
    default:
      return { type: "opaque", origin: "responses", raw: part, label: `${part.type} part`, source };
  }
}

/** The loss of a prompt-caching hint: responses caches prompts by itself and takes no hint. */
export const cacheDropped = (hint: common.CacheHint): Loss =>
  loss(
    hint.source,
    "dropped",
    "The responses protocol caches prompts by itself; `cache_control` was dropped.",
  );

const DETAILS = new Set(["low", "high", "auto", "original"]);

/** A common media part → a responses input part, or `undefined` (with a loss) when responses cannot take it. */
export function encodeMediaPart(part: common.MediaPart, losses: Loss[]): InputContent | undefined {
  const encoded = encodeMedia(part, losses);
  if (part.cache === undefined) return encoded;
  // Audio parts take no breakpoint.
  if (encoded === undefined || encoded.type === "input_audio") {
    losses.push(cacheDropped(part.cache));
    return encoded;
  }
  return { ...encoded, prompt_cache_breakpoint: cacheBreakpoint(part.cache, losses) } as InputContent;
}

function encodeMedia(part: common.MediaPart, losses: Loss[]): InputContent | undefined {
  if (part.kind === "image") {
    const image: Raw = { type: "input_image" };
    if (part.data !== undefined) {
      if (part.mediaType === undefined)
        losses.push(
          loss(
            part.source,
            "approximated",
            "The image had no media type; `image/png` was assumed for its data: URL.",
          ),
        );
      image.image_url = dataUrl(part.mediaType ?? "image/png", part.data);
    } else if (part.url !== undefined) image.image_url = part.url;
    if (part.fileId !== undefined) image.file_id = part.fileId;
    if (image.image_url === undefined && image.file_id === undefined) return unreachable(part, losses);
    // The description requires `detail`: the given one, else "auto" (what the service applies to none).
    if (part.detail !== undefined && DETAILS.has(part.detail)) image.detail = part.detail;
    else {
      if (part.detail !== undefined)
        losses.push(
          loss(
            part.source,
            "dropped",
            `Image detail \`${part.detail}\` has no responses equivalent and was dropped; "auto" was sent.`,
          ),
        );
      image.detail = "auto";
    }
    if (part.title !== undefined) titleDropped(part, losses);
    return image as InputContent;
  }
  if (part.kind === "audio" || part.kind === "video") {
    losses.push(
      loss(
        part.source,
        "dropped",
        `The responses protocol takes no ${part.kind} input in messages; it was dropped.`,
        "media.dropped",
      ),
    );
    return undefined;
  }
  const file: Raw = { type: "input_file" };
  const filename = part.filename ?? part.title;
  if (part.data !== undefined) {
    file.file_data = dataUrl(part.mediaType ?? "application/octet-stream", part.data);
    if (filename === undefined)
      losses.push(loss(part.source, "synthesized", 'A file sent as data needs a filename; "file" was used.'));
    file.filename = filename ?? "file";
  } else if (part.url !== undefined) file.file_url = part.url;
  else if (part.fileId === undefined) return unreachable(part, losses);
  if (part.fileId !== undefined) file.file_id = part.fileId;
  if (filename !== undefined) file.filename = filename;
  if (part.title !== undefined && part.filename !== undefined) titleDropped(part, losses);
  if (part.detail !== undefined) {
    if (part.detail === "low" || part.detail === "high" || part.detail === "auto") file.detail = part.detail;
    else
      losses.push(
        loss(
          part.source,
          "dropped",
          `File detail \`${part.detail}\` has no responses equivalent and was dropped.`,
        ),
      );
  }
  return file as InputContent;
}

function titleDropped(part: common.MediaPart, losses: Loss[]): void {
  losses.push(loss(part.source, "dropped", "A media title has no responses equivalent and was dropped."));
}

function unreachable(part: common.MediaPart, losses: Loss[]): undefined {
  losses.push(
    loss(
      part.source,
      "dropped",
      `The ${part.kind} has no data, URL or file id responses can use; it was dropped.`,
    ),
  );
  return undefined;
}
