/**
 * Media helpers every protocol shares: data URLs and the kind of media a type names.
 * Protocol-free: the common model's `MediaPart` is all they know.
 */
import type { MediaPart } from "./model";

/** `data:<type>;base64,<data>` → its parts; anything else → `undefined`. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  // `/^data:([^;,]+);base64,(.*)$/s` without running a regular expression over the whole payload.
  if (!url.startsWith("data:")) return undefined;
  const end = url.indexOf(";");
  if (end <= 5) return undefined;
  const comma = url.indexOf(",");
  if (comma !== -1 && comma < end) return undefined;
  if (!url.startsWith(";base64,", end)) return undefined;
  return { mediaType: url.slice(5, end), data: url.slice(end + 8) };
}

/** The data URL of base64 `data` of `mediaType`. */
export function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** The kind of media a type names; an unknown or missing type is a `file`. */
export function kindOfMediaType(mediaType: string | undefined): MediaPart["kind"] {
  if (mediaType === undefined) return "file";
  if (mediaType.startsWith("image/")) return "image";
  if (mediaType.startsWith("audio/")) return "audio";
  if (mediaType.startsWith("video/")) return "video";
  if (mediaType === "application/pdf" || mediaType.startsWith("text/")) return "document";
  return "file";
}
