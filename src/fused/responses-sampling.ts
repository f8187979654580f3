/**
 * What the fused paths to responses (src/fused/*-responses.ts) write alike: `max_output_tokens` raised
 * to the smallest budget the responses API accepts, and `temperature` / `top_p` clamped to its ranges,
 * each with the hub's loss (protocols/responses/request.ts) when it moved.
 */
import { type Loss, loss } from "../common/loss";

/** The smallest `max_output_tokens` the responses API accepts (the hub raises smaller ones). */
const MIN_OUTPUT_TOKENS = 16;

/** The budget as `max_output_tokens`, with the hub's loss at `path` when it was raised. */
export function outputTokens(max: number, path: string, losses: Loss[]): number {
  if (max >= MIN_OUTPUT_TOKENS) return max;
  losses.push(
    loss(
      path,
      "clamped",
      `responses needs max_output_tokens of at least ${MIN_OUTPUT_TOKENS}; ${max} was raised to ${MIN_OUTPUT_TOKENS}.`,
    ),
  );
  return MIN_OUTPUT_TOKENS;
}

/** A sampling value clamped to its responses range 0–`max`, with the hub's loss when it moved. */
export function clampSampling(
  value: number,
  max: number,
  path: string,
  name: string,
  losses: Loss[],
): number {
  if (value >= 0 && value <= max) return value;
  const clamped = Math.min(max, Math.max(0, value));
  losses.push(
    loss(
      path,
      "clamped",
      `responses \`${name}\` must be within 0–${max}; ${value} was clamped to ${clamped}.`,
    ),
  );
  return clamped;
}
