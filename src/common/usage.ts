/**
 * Usage for billing: one shape and one arithmetic whichever protocol reported it. The decoders already
 * bring each protocol's convention to the common form (messages `input_tokens` excludes cache reads and
 * writes; chat `prompt_tokens`, responses `input_tokens` and generative `promptTokenCount` include
 * cached reads); this only reads the figures off it.
 */
import type * as common from "./model";

/**
 * Token usage, normalised: `input` counts every prompt token, cached reads and cache writes included;
 * `output` every generated token, reasoning included; `total` is `input + output`.
 * @example
 * // messages: { input_tokens: 10, cache_read_input_tokens: 80, cache_creation_input_tokens: 5, output_tokens: 20 }
 * { input: 95, cachedRead: 80, cacheWrite: 5, output: 20, reasoning: 0, total: 115 }
 */
export type Usage = {
  /** Every prompt token: those read from a cache and those written to one included. */
  readonly input: number;
  /** Prompt tokens read from a cache (part of `input`). */
  readonly cachedRead: number;
  /** Prompt tokens written to a cache (part of `input`). */
  readonly cacheWrite: number;
  /** Every generated token: reasoning included. */
  readonly output: number;
  /** Reasoning (thinking) tokens (part of `output`). */
  readonly reasoning: number;
  /** `input + output`. */
  readonly total: number;
};

/** The normalised figures of a common usage; a figure the source did not give is 0. */
export function normalizeUsage(usage: common.Usage): Usage {
  return {
    input: usage.inputTokens,
    cachedRead: usage.cacheReadTokens ?? 0,
    cacheWrite: usage.cacheWriteTokens ?? 0,
    output: usage.outputTokens,
    reasoning: usage.reasoningTokens ?? 0,
    total: usage.inputTokens + usage.outputTokens,
  };
}
