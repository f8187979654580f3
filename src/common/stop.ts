import type { Loss, Translated } from "./loss";
import { loss } from "./loss";
import type { Request } from "./model";
import { at } from "./pointer";

/**
 * The first `max` stop sequences, and one `dropped` loss for each sequence past them (DESIGN policy:
 * chat takes 4, generative 5). `target` names the protocol in the loss message.
 */
export function keepStopSequences(
  stop: NonNullable<Request["stop"]>,
  max: number,
  target: string,
): Translated<readonly string[]> {
  if (stop.value.length <= max) return { value: stop.value, losses: [] };
  const losses = stop.value
    .slice(max)
    .map((sequence, offset) =>
      loss(
        at(stop.source, max + offset),
        "dropped",
        `${target} accepts at most ${max} stop sequences; ${JSON.stringify(sequence)} was dropped.`,
      ),
    );
  return { value: stop.value.slice(0, max), losses };
}

/**
 * The stop sequence that matched (messages says which), dropped by a target that does not say it: `at`
 * is where the input gave it.
 */
export function matchedStopDropped(at: string, target: string): Loss {
  return loss(
    at,
    "dropped",
    `${target} does not say which stop sequence matched; it was dropped.`,
    "stop_sequence.dropped",
  );
}
