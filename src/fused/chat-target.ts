/**
 * What the fused paths toward chat share with its encoder (src/protocols/chat/request.ts): the
 * sampling ranges, with the hub's loss word for word.
 */
import { type Loss, loss } from "../common/loss";

/** A sampling value clamped to its chat range `min`–`max`, with the hub's loss at `path` when it moved. */
export function clampChat(
  value: number,
  min: number,
  max: number,
  path: string,
  name: string,
  losses: Loss[],
): number {
  if (value >= min && value <= max) return value;
  const clamped = Math.min(max, Math.max(min, value));
  losses.push(
    loss(
      path,
      "clamped",
      `Chat \`${name}\` must be within ${min}–${max}; ${value} was clamped to ${clamped}.`,
    ),
  );
  return clamped;
}

/** The chat response encoder's loss for a `created` that neither the response nor `options` gives. */
export const createdSynthesized = (): Loss =>
  loss(
    "/created",
    "synthesized",
    "The response carries no creation time and `options.created` gives none; chat's `created` was sent as 0.",
  );

/**
 * A chat response's `usage` as the hub's encoder writes it from the common figures (src/protocols/chat/
 * usage.ts, for a source other than chat): the three counts, the prompt details when a cache count is
 * given, the completion details when a reasoning count is, and DeepSeek's cache counters when
 * `cacheCounters`. `undefined` is a count the source did not give.
 */
export function chatUsage(
  prompt: number,
  completion: number,
  total: number,
  cacheRead: number | undefined,
  cacheWrite: number | undefined,
  reasoning: number | undefined,
  cacheCounters: boolean,
): Record<string, unknown> {
  const usage: Record<string, unknown> = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: total,
  };
  if (cacheRead !== undefined || cacheWrite !== undefined) {
    const details: Record<string, unknown> = {};
    if (cacheRead !== undefined) details.cached_tokens = cacheRead;
    if (cacheWrite !== undefined) details.cache_write_tokens = cacheWrite;
    usage.prompt_tokens_details = details;
  }
  if (reasoning !== undefined) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  if (cacheCounters) {
    const hit = cacheRead ?? 0;
    usage.prompt_cache_hit_tokens = hit;
    usage.prompt_cache_miss_tokens = Math.max(0, prompt - hit);
  }
  return usage;
}
