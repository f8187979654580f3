/**
 * Media types for generative parts: which image types the API takes and the type of a
 * file URL from its extension, without fetching anything.
 * @see https://ai.google.dev/gemini-api/docs/image-understanding#supported-formats
 */
import type * as common from "../../common/model";

/** Image types generative accepts; others (GIF, SVG ...) must not be relabelled. */
export const IMAGE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/heic",
  "image/heif",
]);

const BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  heic: "image/heic",
  heif: "image/heif",
  gif: "image/gif",
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/md",
  html: "text/html",
  csv: "text/csv",
  json: "application/json",
  mp3: "audio/mp3",
  wav: "audio/wav",
  aac: "audio/aac",
  ogg: "audio/ogg",
  flac: "audio/flac",
  aiff: "audio/aiff",
  m4a: "audio/m4a",
  mp4: "video/mp4",
  mpeg: "video/mpeg",
  mpg: "video/mpg",
  mov: "video/mov",
  avi: "video/avi",
  webm: "video/webm",
  wmv: "video/wmv",
  flv: "video/x-flv",
  "3gp": "video/3gpp",
};

/** The media type a URL's file extension names, if any; YouTube links are videos. */
export function mediaTypeOfUrl(url: string): string | undefined {
  if (/^https?:\/\/(www\.)?(youtube\.com|youtu\.be)\//i.test(url)) return "video/mp4";
  const path = url.split(/[?#]/, 1)[0] ?? "";
  const match = /\.([A-Za-z0-9]+)$/.exec(path);
  return match?.[1] === undefined ? undefined : BY_EXTENSION[match[1].toLowerCase()];
}

/** A stand-in type for media of unknown type, by kind (reported as `approximated` by the caller). */
export function fallbackMediaType(kind: common.MediaPart["kind"]): string {
  switch (kind) {
    case "image":
      return "image/jpeg";
    case "audio":
      return "audio/mpeg";
    case "video":
      return "video/mp4";
    case "document":
      return "application/pdf";
    default:
      return "application/octet-stream";
  }
}
