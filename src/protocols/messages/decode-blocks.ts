/** messages content blocks (request or response) → common parts; fields without a common slot become losses. */
import { isKnown, isObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import { restoreToolId } from "../../common/tool-id";
import { textToBase64 } from "./base64";
import type {
  CacheControl,
  ContentBlock,
  ContentBlockParam,
  DocumentBlock,
  ImageBlock,
  TextBlock,
  ToolResultBlock,
  ToolResultContent,
} from "./schema";

/** The fields each kind of block or setting has in the common model; others are reported as dropped. */
const TEXT_KEYS: readonly string[] = ["type", "text", "cache_control", "citations"];
const IMAGE_KEYS: readonly string[] = ["type", "source", "cache_control"];
const DOCUMENT_KEYS: readonly string[] = ["type", "source", "title", "cache_control"];
const TOOL_RESULT_KEYS: readonly string[] = ["type", "tool_use_id", "content", "is_error", "cache_control"];
const TOOL_USE_KEYS: readonly string[] = ["type", "id", "name", "input", "cache_control"];
const THINKING_KEYS: readonly string[] = ["type", "thinking", "signature"];
const REDACTED_THINKING_KEYS: readonly string[] = ["type", "data"];

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type AnyBlock = ContentBlockParam | ContentBlock | ToolResultContent;

/** Reports each own key of `value` that is not in `known` as dropped, and returns those fields. */
export function dropExtras(
  value: object,
  known: readonly string[],
  base: string,
  what: string,
  losses: Loss[],
): Record<string, unknown> | undefined {
  let entries: [string, unknown][] | undefined;
  for (const key in value) {
    if (isKnown(known, key) || !Object.hasOwn(value, key)) continue;
    if (entries === undefined) entries = [];
    entries.push([key, (value as Record<string, unknown>)[key]]);
    losses.push(
      loss(
        at(base, key),
        "dropped",
        `\`${key}\` of ${what} has no equivalent in the common model and was dropped.`,
      ),
    );
  }
  return entries === undefined ? undefined : Object.fromEntries(entries);
}

/** A block's `cache_control` (the block at `source`) as a common hint. */
export function decodeCache(
  cacheControl: CacheControl | null | undefined,
  source: string,
): common.CacheHint | undefined {
  if (cacheControl === null || cacheControl === undefined) return undefined;
  const pointer = `${source}/cache_control`;
  return cacheControl.ttl === undefined
    ? { type: cacheControl.type, source: pointer }
    : { type: cacheControl.type, ttl: cacheControl.ttl, source: pointer };
}

function opaque(block: { readonly type: string }, source: string): common.OpaquePart {
  return { type: "opaque", origin: "messages", raw: block, label: `${block.type} block`, source };
}

export function decodeText(block: TextBlock, source: string, losses: Loss[]): common.TextPart {
  dropExtras(block, TEXT_KEYS, source, "a text block", losses);
  const cache = decodeCache(block.cache_control, source);
  const citations = block.citations;
  const part: Mutable<common.TextPart> = { type: "text", text: block.text, source };
  if (cache !== undefined) part.cache = cache;
  if (citations !== null && citations !== undefined && citations.length > 0)
    part.citations = { origin: "messages", items: citations, source: `${source}/citations` };
  return part;
}

function decodeImage(block: ImageBlock, source: string, losses: Loss[]): common.MediaPart {
  dropExtras(block, IMAGE_KEYS, source, "an image block", losses);
  const cache = decodeCache(block.cache_control, source);
  const part: Mutable<common.MediaPart> = { type: "media", kind: "image", source };
  if (cache !== undefined) part.cache = cache;
  const input = block.source;
  if (input.type === "base64") {
    part.mediaType = input.media_type;
    part.data = input.data;
  } else if (input.type === "url") part.url = input.url;
  else part.fileId = input.file_id;
  return part;
}

function decodeDocument(
  block: DocumentBlock,
  source: string,
  losses: Loss[],
): common.MediaPart | common.OpaquePart {
  const input = block.source;
  if (input.type === "content") return opaque(block, source);
  dropExtras(block, DOCUMENT_KEYS, source, "a document block", losses);
  const cache = decodeCache(block.cache_control, source);
  const base = {
    type: "media" as const,
    kind: "document" as const,
    source,
    ...(typeof block.title === "string" ? { title: block.title } : {}),
    ...(cache === undefined ? {} : { cache }),
  };
  if (input.type === "base64") return { ...base, mediaType: input.media_type, data: input.data };
  if (input.type === "text") return { ...base, mediaType: input.media_type, data: textToBase64(input.data) };
  if (input.type === "url") return { ...base, mediaType: "application/pdf", url: input.url };
  return { ...base, fileId: input.file_id };
}

function decodeToolResult(block: ToolResultBlock, source: string, losses: Loss[]): common.ToolResultPart {
  dropExtras(block, TOOL_RESULT_KEYS, source, "a tool_result block", losses);
  const content: (common.TextPart | common.MediaPart)[] = [];
  if (typeof block.content === "string") {
    content.push({ type: "text", text: block.content, source: `${source}/content` });
  } else if (block.content !== undefined) {
    block.content.forEach((item, index) => {
      const part = decodeBlock(item, `${source}/content/${index}`, losses);
      if (part?.type === "text" || part?.type === "media") content.push(part);
      else
        losses.push(
          loss(
            `${source}/content/${index}`,
            "dropped",
            `A ${item.type} block inside a tool result has no equivalent in the common model and was dropped.`,
          ),
        );
    });
  }
  const cache = decodeCache(block.cache_control, source);
  const part: Mutable<common.ToolResultPart> = {
    type: "tool-result",
    callId: restoreToolId(block.tool_use_id),
    content,
    source,
  };
  if (block.is_error !== undefined) part.isError = block.is_error;
  if (cache !== undefined) part.cache = cache;
  return part;
}

function decodeToolUse(
  block: {
    readonly id: string;
    readonly name: string;
    readonly input: unknown;
    readonly cache_control?: CacheControl | null;
  },
  source: string,
  losses: Loss[],
): common.ToolCallPart {
  const extra = dropExtras(block, TOOL_USE_KEYS, source, "a tool_use block", losses);
  const cache = decodeCache(block.cache_control, source);
  // An id rewritten to fit messages goes home as the original (common/tool-id.ts).
  const id = restoreToolId(block.id);
  const part: Mutable<common.ToolCallPart> = { type: "tool-call", id, name: block.name, source };
  if (isObject(block.input)) part.arguments = block.input;
  else part.argumentsText = JSON.stringify(block.input ?? {});
  if (cache !== undefined) part.cache = cache;
  if (extra !== undefined) part.extra = { origin: "messages", raw: extra };
  return part;
}

/**
 * One block → one part. Server-side blocks (`server_tool_use`, their results, MCP blocks …) become opaque
 * parts of messages origin: other protocols drop them, messages restores them exactly.
 */
export function decodeBlock(block: AnyBlock, source: string, losses: Loss[]): common.Part | undefined {
  switch (block.type) {
    case "text":
      return decodeText(block as TextBlock, source, losses);
    case "image":
      return decodeImage(block as ImageBlock, source, losses);
    case "document":
      return decodeDocument(block as DocumentBlock, source, losses);
    case "thinking": {
      const thinking = block as { thinking: string; signature: string };
      dropExtras(block, THINKING_KEYS, source, "a thinking block", losses);
      return {
        type: "reasoning",
        text: thinking.thinking,
        signature: thinking.signature,
        signatureSource: `${source}/signature`,
        origin: "messages",
        source,
      };
    }
    case "redacted_thinking": {
      dropExtras(block, REDACTED_THINKING_KEYS, source, "a redacted_thinking block", losses);
      return {
        type: "reasoning",
        text: "",
        redacted: (block as { data: string }).data,
        origin: "messages",
        source,
      };
    }
    case "tool_use":
      return decodeToolUse(block as { id: string; name: string; input: unknown }, source, losses);
    case "tool_result":
      return decodeToolResult(block as ToolResultBlock, source, losses);
    default:
      return isObject(block) ? opaque(block, source) : undefined;
  }
}
