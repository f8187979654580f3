/**
 * Chat `usage` ↔ common usage. Chat `prompt_tokens` includes `cached_tokens` and `completion_tokens`
 * includes `reasoning_tokens`, as the common form does, so the figures pass through (research F4–F6).
 * What the common form has no slot for (audio tokens, prediction tokens, explicit nulls, vendor fields)
 * is kept in `extra` so that chat itself restores it (accumulate/replay).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
import type * as common from "../../common/model";
import type * as chat from "./schema";

const FIGURES = new Set(["prompt_tokens", "completion_tokens", "total_tokens"]);

/** `node` without the keys whose (numeric) value the common form holds. */
function rest(node: object, held: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(node).filter(([key, value]) => !(held.includes(key) && typeof value === "number")),
  );
}

export function decodeChatUsage(usage: chat.Usage, source: string): common.Usage {
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(usage)) {
    if (FIGURES.has(key) && typeof value === "number") continue;
    const held =
      key === "prompt_tokens_details"
        ? ["cached_tokens", "cache_write_tokens"]
        : key === "completion_tokens_details"
          ? ["reasoning_tokens"]
          : undefined;
    if (held === undefined || value === null || typeof value !== "object") raw[key] = value;
    else {
      // What the figures do not say: the object's other fields, or that it was given empty.
      const left = rest(value, held);
      if (Object.keys(left).length > 0 || Object.keys(value).length === 0) raw[key] = left;
    }
  }
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    ...(cacheRead === undefined || cacheRead === null ? {} : { cacheReadTokens: cacheRead }),
    ...(cacheWrite === undefined || cacheWrite === null ? {} : { cacheWriteTokens: cacheWrite }),
    ...(reasoning === undefined || reasoning === null ? {} : { reasoningTokens: reasoning }),
    ...(usage.total_tokens === undefined ? {} : { totalTokens: usage.total_tokens }),
    ...(Object.keys(raw).length === 0 ? {} : { extra: { origin: "chat" as const, raw } }),
    source,
  };
}

/** A details object: the kept one (chat's own) with the common figures written over it. */
function details(kept: unknown, figures: Record<string, number>): Record<string, unknown> | null | undefined {
  const base = kept !== null && typeof kept === "object" ? (kept as Record<string, unknown>) : undefined;
  if (Object.keys(figures).length === 0) return kept === null ? null : base;
  return { ...base, ...figures };
}

export function encodeChatUsage(usage: common.Usage): chat.Usage {
  const own = usage.extra?.origin === "chat" ? usage.extra.raw : {};
  const prompt: Record<string, number> = {};
  if (usage.cacheReadTokens !== undefined) prompt.cached_tokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) prompt.cache_write_tokens = usage.cacheWriteTokens;
  const completion: Record<string, number> =
    usage.reasoningTokens === undefined ? {} : { reasoning_tokens: usage.reasoningTokens };
  const promptDetails = details(own.prompt_tokens_details, prompt);
  const completionDetails = details(own.completion_tokens_details, completion);
  return {
    ...own,
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
    ...(promptDetails === undefined ? {} : { prompt_tokens_details: promptDetails }),
    ...(completionDetails === undefined ? {} : { completion_tokens_details: completionDetails }),
  } as chat.Usage;
}
