/**
 * responses `usage` ↔ common usage. `input_tokens` includes `cached_tokens` and `output_tokens`
 * includes `reasoning_tokens`, as the common form does, so the figures pass through.
 * The whole object is kept in `extra`, so that responses itself restores it exactly.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
import type { Loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import { isBlank, keepRest, type Raw } from "./fields";
import type { Usage } from "./schema";

const HELD = new Set([
  "input_tokens",
  "output_tokens",
  "total_tokens",
  "input_tokens_details",
  "output_tokens_details",
]);
const INPUT_HELD = new Set(["cached_tokens", "cache_write_tokens"]);
const OUTPUT_HELD = new Set(["reasoning_tokens"]);

const figure = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

/** responses usage → common usage; fields without a common slot are reported (non-blank ones). */
export function decodeResponsesUsage(usage: Usage, source: string, losses: Loss[]): common.Usage {
  keepRest(usage, HELD, source, "`usage`", losses);
  const input = usage.input_tokens_details;
  const output = usage.output_tokens_details;
  if (input != null) keepRest(input, INPUT_HELD, at(source, "input_tokens_details"), "`usage`", losses);
  if (output != null) keepRest(output, OUTPUT_HELD, at(source, "output_tokens_details"), "`usage`", losses);
  const decoded: common.Draft<common.Usage> = {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    source,
  };
  const read = figure(input?.cached_tokens);
  const write = figure(input?.cache_write_tokens);
  const reasoning = figure(output?.reasoning_tokens);
  if (read !== undefined) decoded.cacheReadTokens = read;
  if (write !== undefined) decoded.cacheWriteTokens = write;
  if (reasoning !== undefined) decoded.reasoningTokens = reasoning;
  decoded.totalTokens = usage.total_tokens;
  decoded.extra = { origin: "responses", raw: usage };
  return decoded;
}

/** A details object: the kept one with the common figures written over it. */
function details(kept: unknown, figures: Raw): Raw | null {
  if (kept === null && isBlank(figures)) return null;
  return kept !== null && typeof kept === "object" ? { ...(kept as Raw), ...figures } : figures;
}

/**
 * Common usage → responses usage. Another protocol's usage gets both detail objects with every figure
 * the description requires (`cached_tokens`, `cache_write_tokens`, `reasoning_tokens`), 0 where the
 * source said nothing; responses' own is restored as it came.
 */
export function encodeResponsesUsage(usage: common.Usage): Usage {
  const total = usage.totalTokens ?? usage.inputTokens + usage.outputTokens;
  if (usage.extra?.origin !== "responses") {
    return {
      input_tokens: usage.inputTokens,
      input_tokens_details: {
        cached_tokens: usage.cacheReadTokens ?? 0,
        cache_write_tokens: usage.cacheWriteTokens ?? 0,
      },
      output_tokens: usage.outputTokens,
      output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
      total_tokens: total,
    };
  }
  const own = usage.extra.raw;
  const encoded: Raw = { ...own, input_tokens: usage.inputTokens, output_tokens: usage.outputTokens };
  encoded.total_tokens = total;
  const input: Raw = {};
  if (usage.cacheReadTokens !== undefined) input.cached_tokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) input.cache_write_tokens = usage.cacheWriteTokens;
  const output: Raw = usage.reasoningTokens === undefined ? {} : { reasoning_tokens: usage.reasoningTokens };
  if (own.input_tokens_details !== undefined || !isBlank(input))
    encoded.input_tokens_details = details(own.input_tokens_details ?? null, input);
  if (own.output_tokens_details !== undefined || !isBlank(output))
    encoded.output_tokens_details = details(own.output_tokens_details ?? null, output);
  return encoded as Usage;
}
