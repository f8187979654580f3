/** Drives a StreamReducer in tests: one step at a time, or over a whole input list. */
import type { Loss } from "../../src/common/loss";
import type { StreamReducer } from "../../src/common/reducer";

export type StepResult<S, O> = { state: S; out: O[]; losses: Loss[] };

/** One `step` with fresh output and loss lists (`position`: the input's place in the stream, for pointers). */
export function stepOnce<S, I, O>(
  reducer: StreamReducer<S, I, O>,
  state: S,
  input: I,
  position?: number,
): StepResult<S, O> {
  const out: O[] = [];
  const losses: Loss[] = [];
  return { state: reducer.step(state, input, out, losses, position), out, losses };
}

/** `end` with fresh output and loss lists. */
export function endOnce<S, I, O>(
  reducer: StreamReducer<S, I, O>,
  state: S,
  position?: number,
): StepResult<S, O> {
  const out: O[] = [];
  const losses: Loss[] = [];
  return { state: reducer.end(state, out, losses, position), out, losses };
}

/**
 * Runs `reducer` over `inputs` (then `end`, unless told not to), collecting every output and loss.
 * `positioned`: each step gets its input's position (and `end` the count), so pointers are into the
 * list of inputs as in a stream translator; else they are relative to each input.
 */
export function runAll<S, I, O>(
  reducer: StreamReducer<S, I, O>,
  inputs: readonly I[],
  end = true,
  positioned = false,
): { out: O[]; losses: Loss[]; perStep: O[][]; state: S } {
  let state = reducer.initial;
  const out: O[] = [];
  const losses: Loss[] = [];
  const perStep: O[][] = [];
  for (const [index, input] of inputs.entries()) {
    const result = stepOnce(reducer, state, input, positioned ? index : undefined);
    state = result.state;
    out.push(...result.out);
    perStep.push(result.out);
    losses.push(...result.losses);
  }
  if (end) {
    const result = endOnce(reducer, state, positioned ? inputs.length : undefined);
    state = result.state;
    out.push(...result.out);
    losses.push(...result.losses);
  }
  return { out, losses, perStep, state };
}
