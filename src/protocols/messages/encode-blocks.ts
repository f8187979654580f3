/** Common parts → messages content blocks (requests; responses reuse text and tool calls). */
import { isObject, parseJsonObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import { parseDataUrl } from "../../common/media";
import type * as common from "../../common/model";
import { base64ToText } from "./base64";
import type {
  CacheControl,
  ContentBlockParam,
  DocumentBlock,
  ImageBlock,
  TextBlock,
  ToolResultBlock,
  ToolUseBlock,
} from "./schema";

export const IMAGE_TYPES: ReadonlySet<string> = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
]);

export function encodeCache(
  hint: common.CacheHint | undefined,
  losses: Loss[],
): { cache_control?: CacheControl } {
  const control = cacheControl(hint, losses);
  return control === undefined ? {} : { cache_control: control };
}

/** A cache hint → `cache_control`, or undefined (for blocks built by assignment). */
export function cacheControl(hint: common.CacheHint | undefined, losses: Loss[]): CacheControl | undefined {
  if (hint === undefined) return undefined;
  if (hint.type !== "ephemeral") {
    losses.push(
      loss(hint.source, "dropped", `Cache hint \`${hint.type}\` has no messages equivalent and was dropped.`),
    );
    return undefined;
  }
  if (hint.ttl === undefined) return { type: "ephemeral" };
  if (hint.ttl === "5m" || hint.ttl === "1h") return { type: "ephemeral", ttl: hint.ttl };
  losses.push(
    loss(`${hint.source}/ttl`, "dropped", `Cache lifetime \`${hint.ttl}\` is not 5m or 1h and was dropped.`),
  );
  return { type: "ephemeral" };
}

/** A thought signature of another protocol is dropped: messages could not verify it. */
export function dropForeignSignature(part: common.TextPart | common.ToolCallPart, losses: Loss[]): void {
  if (part.signature !== undefined && part.signature.origin !== "messages") {
    losses.push(
      loss(
        part.signature.source ?? part.source,
        "dropped",
        "A thought signature is valid only at the provider that issued it and was dropped.",
        "thinking.signature.foreign",
      ),
    );
  }
}

/** messages' own citations of a text part, kept; another protocol's are dropped. */
export function encodeCitations(part: common.TextPart, losses: Loss[]): TextBlock["citations"] {
  if (part.citations === undefined) return undefined;
  if (part.citations.origin === "messages") return part.citations.items as TextBlock["citations"];
  losses.push(
    loss(
      part.citations.source ?? part.source,
      "dropped",
      `Citations from the ${part.citations.origin} protocol have no messages equivalent and were dropped.`,
      "citations.dropped",
    ),
  );
  return undefined;
}

/** An opaque part of messages origin → its raw block; any other origin is dropped. */
export function encodeOpaquePart(part: common.OpaquePart, losses: Loss[]): unknown {
  if (part.origin === "messages") return part.raw;
  losses.push(
    loss(
      part.source,
      "dropped",
      `A ${part.origin} ${part.label} has no messages equivalent and was dropped.`,
      "block.dropped",
    ),
  );
  return undefined;
}

/** A text part → a text block, or nothing for empty text (the API rejects empty text blocks). */
export function encodeTextPart(part: common.TextPart, losses: Loss[]): TextBlock | undefined {
  dropForeignSignature(part, losses);
  if (part.text.trim() === "") {
    if (part.text !== "")
      losses.push(
        loss(
          part.source,
          "dropped",
          "A whitespace-only text block is rejected by the messages API and was dropped.",
        ),
      );
    else if (part.cache !== undefined)
      losses.push(
        loss(
          part.cache.source,
          "dropped",
          "An empty text block is rejected by the messages API; it and its `cache_control` were dropped.",
        ),
      );
    return undefined;
  }
  const citations = encodeCitations(part, losses);
  const block: TextBlock = { type: "text", text: part.text };
  if (citations !== undefined) block.citations = citations;
  const control = cacheControl(part.cache, losses);
  if (control !== undefined) block.cache_control = control;
  return block;
}

function dropMedia(part: common.MediaPart, why: string, losses: Loss[]): undefined {
  losses.push(loss(part.source, "dropped", why, "media.dropped"));
  return undefined;
}

function encodeImage(part: common.MediaPart, losses: Loss[]): ImageBlock | undefined {
  const inline = part.url === undefined ? undefined : parseDataUrl(part.url);
  const data = part.data ?? inline?.data;
  const mediaType = part.mediaType ?? inline?.mediaType;
  const cache = encodeCache(part.cache, losses);
  if (data !== undefined) {
    if (mediaType === undefined || !IMAGE_TYPES.has(mediaType)) {
      return dropMedia(
        part,
        `Image type \`${mediaType ?? "unknown"}\` is not accepted by the messages API (jpeg, png, gif, webp) and the image was dropped.`,
        losses,
      );
    }
    return {
      type: "image",
      source: { type: "base64", media_type: mediaType as "image/png", data },
      ...cache,
    };
  }
  if (part.url !== undefined) return { type: "image", source: { type: "url", url: part.url }, ...cache };
  return dropMedia(
    part,
    "A provider file id is valid only at the provider that issued it; the image was dropped.",
    losses,
  );
}

function encodeDocument(part: common.MediaPart, losses: Loss[]): DocumentBlock | undefined {
  const inline = part.url === undefined ? undefined : parseDataUrl(part.url);
  const data = part.data ?? inline?.data;
  const mediaType = part.mediaType ?? inline?.mediaType;
  const title = part.title ?? part.filename;
  const extra = {
    ...(title === undefined ? {} : { title }),
    ...encodeCache(part.cache, losses),
  };
  if (data !== undefined) {
    if (mediaType === "application/pdf") {
      return { type: "document", source: { type: "base64", media_type: "application/pdf", data }, ...extra };
    }
    if (mediaType?.startsWith("text/")) {
      const text = base64ToText(data);
      if (text === undefined)
        return dropMedia(part, "A text document that is not UTF-8 base64 was dropped.", losses);
      if (mediaType !== "text/plain") {
        losses.push(
          loss(part.source, "approximated", `A \`${mediaType}\` document was sent as a text/plain document.`),
        );
      }
      return { type: "document", source: { type: "text", media_type: "text/plain", data: text }, ...extra };
    }
    return dropMedia(
      part,
      `Documents of type \`${mediaType ?? "unknown"}\` are not accepted by the messages API and were dropped.`,
      losses,
    );
  }
  if (part.url !== undefined && (mediaType === undefined || mediaType === "application/pdf")) {
    return { type: "document", source: { type: "url", url: part.url }, ...extra };
  }
  if (part.url !== undefined) {
    return dropMedia(
      part,
      `A \`${mediaType ?? "unknown"}\` document by URL is not accepted by the messages API and was dropped.`,
      losses,
    );
  }
  return dropMedia(
    part,
    "A provider file id is valid only at the provider that issued it; the document was dropped.",
    losses,
  );
}

/** A media part → an image or document block; what messages cannot take is dropped. */
export function encodeMediaPart(
  part: common.MediaPart,
  losses: Loss[],
): ImageBlock | DocumentBlock | undefined {
  if (part.detail !== undefined)
    losses.push(
      loss(
        part.source,
        "dropped",
        "Image `detail` has no messages equivalent and was dropped.",
        "media.detail.dropped",
      ),
    );
  const mediaType =
    part.mediaType ?? (part.url === undefined ? undefined : parseDataUrl(part.url)?.mediaType);
  if (
    part.kind === "audio" ||
    part.kind === "video" ||
    mediaType?.startsWith("audio/") ||
    mediaType?.startsWith("video/")
  ) {
    return dropMedia(part, "The messages API takes no audio or video input; the part was dropped.", losses);
  }
  const image = part.kind === "image" || mediaType?.startsWith("image/") === true;
  return image ? encodeImage(part, losses) : encodeDocument(part, losses);
}

/**
 * Tool-call arguments as the object messages needs: malformed or non-object text becomes `{"_raw": text}`
 * with an approximated loss; never throws.
 */
export function encodeArguments(part: common.ToolCallPart, losses: Loss[]): Record<string, unknown> {
  if (part.arguments !== undefined) return part.arguments;
  const text = part.argumentsText;
  if (text === undefined || text.trim() === "") return {};
  const parsed = parseJsonObject(text);
  if (parsed !== undefined) return parsed;
  losses.push(
    loss(
      part.argumentsSource ?? part.source,
      "approximated",
      'Tool-call arguments are not a JSON object; they were wrapped as `{"_raw": text}`.',
    ),
  );
  return { _raw: text };
}

/** A client tool call → a tool_use block (id given or already synthesized by the caller). */
export function encodeToolCallPart(part: common.ToolCallPart, id: string, losses: Loss[]): ToolUseBlock {
  dropForeignSignature(part, losses);
  if (part.extra?.origin === "messages")
    return {
      ...part.extra.raw,
      type: "tool_use",
      id,
      name: part.name,
      input: encodeArguments(part, losses),
      ...encodeCache(part.cache, losses),
    };
  const block: ToolUseBlock = { type: "tool_use", id, name: part.name, input: encodeArguments(part, losses) };
  const control = cacheControl(part.cache, losses);
  if (control !== undefined) block.cache_control = control;
  return block;
}

function resultText(
  json: unknown,
  part: common.ToolResultPart,
  losses: Loss[],
): { text: string; error: boolean } {
  if (isObject(json)) {
    const keys = Object.keys(json);
    if (keys.length === 1 && typeof json.content === "string") return { text: json.content, error: false };
    if (keys.length === 1 && "error" in json) {
      return { text: typeof json.error === "string" ? json.error : JSON.stringify(json.error), error: true };
    }
  }
  if (typeof json === "string") return { text: json, error: false };
  losses.push(
    loss(part.source, "approximated", "A JSON tool result was sent to the messages API as JSON text."),
  );
  return { text: JSON.stringify(json) ?? "", error: false };
}

/** A tool result → a tool_result block; text and media content kept in order. */
export function encodeToolResultPart(
  part: common.ToolResultPart,
  id: string,
  losses: Loss[],
): ToolResultBlock {
  let isError = part.isError;
  let content: ToolResultBlock["content"];
  const onlyText = part.content.every(
    (item) => item.type === "text" && item.cache === undefined && item.citations === undefined,
  );
  if (part.content.length === 0 && part.json !== undefined) {
    const result = resultText(part.json, part, losses);
    content = result.text;
    if (result.error && isError === undefined) isError = true;
  } else if (onlyText && part.content.length === 1 && part.content[0]?.type === "text") {
    content = part.content[0].text;
  } else if (part.content.length > 0) {
    const blocks: NonNullable<ToolResultBlock["content"]> = [];
    for (const item of part.content) {
      const block = item.type === "text" ? encodeTextPart(item, losses) : encodeMediaPart(item, losses);
      if (block !== undefined) blocks.push(block);
    }
    content = blocks;
  }
  const block: ToolResultBlock = { type: "tool_result", tool_use_id: id };
  if (content !== undefined) block.content = content;
  if (isError !== undefined) block.is_error = isError;
  const control = cacheControl(part.cache, losses);
  if (control !== undefined) block.cache_control = control;
  return block;
}

/** Reasoning of messages origin → thinking / redacted_thinking; any other origin is dropped. */
export function encodeReasoningPart(
  part: common.ReasoningPart,
  losses: Loss[],
): ContentBlockParam | undefined {
  if (part.origin !== "messages") {
    losses.push(
      loss(
        part.source,
        "dropped",
        `Reasoning from the ${part.origin} protocol cannot be replayed to the messages API (its signature would be invalid) and was dropped.`,
        "thinking.foreign",
      ),
    );
    return undefined;
  }
  if (part.redacted !== undefined) return { type: "redacted_thinking", data: part.redacted };
  if (part.signature === undefined) {
    losses.push(
      loss(
        part.source,
        "dropped",
        "A thinking block without its signature is rejected by the messages API and was dropped.",
      ),
    );
    return undefined;
  }
  return { type: "thinking", thinking: part.text, signature: part.signature };
}
