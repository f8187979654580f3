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
