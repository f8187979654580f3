/**
 * What the fused paths toward responses share with its encoder (src/protocols/responses/request.ts):
 * the sampling ranges and the smallest budget, with the hub's losses word for word.
 */
import { type Loss, loss } from "../common/loss";

/** The smallest `max_output_tokens` the responses API accepts (the hub raises smaller ones). */
export const MIN_OUTPUT_TOKENS = 16;

/** A sampling value clamped to its responses range 0–`max`, with the hub's loss when it moved. */
export function clampResponses(
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

/** A budget raised to the responses minimum, with the hub's loss when it moved. */
export function responsesBudget(max: number, path: string, losses: Loss[]): number {
  if (max < MIN_OUTPUT_TOKENS)
    losses.push(
      loss(
        path,
        "clamped",
        `responses needs max_output_tokens of at least ${MIN_OUTPUT_TOKENS}; ${max} was raised to ${MIN_OUTPUT_TOKENS}.`,
      ),
    );
  return Math.max(MIN_OUTPUT_TOKENS, max);
}
