/**
 * Chat `usage` ↔ common usage. Chat `prompt_tokens` includes `cached_tokens` and `completion_tokens`
 * includes `reasoning_tokens`, as the common form does, so the figures pass through.
 * What the common form has no slot for (audio tokens, prediction tokens, explicit nulls, vendor fields)
 * is kept in `extra` so that chat itself restores it (accumulate/replay).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
import type * as common from "../../common/model";
import { pick } from "./extra";
import type * as chat from "./schema";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const isFigure = (key: string): boolean =>
  key === "prompt_tokens" || key === "completion_tokens" || key === "total_tokens";

/** The figures a details object holds in the common form. */
const PROMPT_HELD: readonly string[] = ["cached_tokens", "cache_write_tokens"];
const COMPLETION_HELD: readonly string[] = ["reasoning_tokens"];

/** `node` without the keys whose (numeric) value the common form holds; `undefined` when nothing is left. */
function rest(node: object, held: readonly string[]): Record<string, unknown> | undefined {
  let keys: string[] | undefined;
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    if (held.includes(key) && typeof (node as Record<string, unknown>)[key] === "number") continue;
    if (keys === undefined) keys = [];
    keys.push(key);
  }
  return keys === undefined ? undefined : pick(node, keys);
}

function isEmptyObject(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

export function decodeChatUsage(usage: chat.Usage, source: string): common.Usage {
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  let keys: string[] | undefined;
  let details: [string, Record<string, unknown>][] | undefined;
  for (const key in usage) {
    if (!Object.hasOwn(usage, key)) continue;
    const value = (usage as Record<string, unknown>)[key];
    if (isFigure(key) && typeof value === "number") continue;
    const held =
      key === "prompt_tokens_details"
        ? PROMPT_HELD
        : key === "completion_tokens_details"
          ? COMPLETION_HELD
          : undefined;
    if (held === undefined || value === null || typeof value !== "object") {
      if (keys === undefined) keys = [];
      keys.push(key);
    } else {
      // What the figures do not say: the object's other fields, or that it was given empty.
      const left = rest(value, held);
      if (left !== undefined || isEmptyObject(value)) {
        if (keys === undefined) keys = [];
        keys.push(key);
        if (details === undefined) details = [];
        details.push([key, left ?? {}]);
      }
    }
  }
  const decoded: Mutable<common.Usage> = {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    source,
  };
  if (cacheRead !== undefined && cacheRead !== null) decoded.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined && cacheWrite !== null) decoded.cacheWriteTokens = cacheWrite;
  if (reasoning !== undefined && reasoning !== null) decoded.reasoningTokens = reasoning;
  if (usage.total_tokens !== undefined) decoded.totalTokens = usage.total_tokens;
  if (keys !== undefined) {
    const raw = pick(usage, keys);
    if (details !== undefined) for (const [key, left] of details) raw[key] = left;
    decoded.extra = { origin: "chat", raw };
  }
  return decoded;
}

/** A details object: the kept one (chat's own) with the common figures written over it. */
function details(kept: unknown, figures: Record<string, number>): Record<string, unknown> | null | undefined {
  const base = kept !== null && typeof kept === "object" ? (kept as Record<string, unknown>) : undefined;
  if (isEmptyObject(figures)) return kept === null ? null : base;
  return { ...base, ...figures };
}

/**
 * Common usage → chat `usage`. `cacheCounters` adds DeepSeek's `prompt_cache_hit_tokens` and
 * `prompt_cache_miss_tokens` (both part of `prompt_tokens`) beside OpenAI's details.
 */
export function encodeChatUsage(usage: common.Usage, cacheCounters = false): chat.Usage {
  const own = usage.extra?.origin === "chat" ? usage.extra.raw : {};
  const prompt: Record<string, number> = {};
  if (usage.cacheReadTokens !== undefined) prompt.cached_tokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) prompt.cache_write_tokens = usage.cacheWriteTokens;
  const completion: Record<string, number> =
    usage.reasoningTokens === undefined ? {} : { reasoning_tokens: usage.reasoningTokens };
  const promptDetails = details(own.prompt_tokens_details, prompt);
  const completionDetails = details(own.completion_tokens_details, completion);
  const encoded: Record<string, unknown> = {
    ...own,
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
  };
  if (promptDetails !== undefined) encoded.prompt_tokens_details = promptDetails;
  if (completionDetails !== undefined) encoded.completion_tokens_details = completionDetails;
  if (cacheCounters) {
    const hit = usage.cacheReadTokens ?? 0;
    encoded.prompt_cache_hit_tokens = hit;
    encoded.prompt_cache_miss_tokens = Math.max(0, usage.inputTokens - hit);
  }
  return encoded as chat.Usage;
}
