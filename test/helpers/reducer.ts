/** Drives a StreamReducer in tests: one step at a time, or over a whole input list. */
import type { Loss } from "../../src/common/loss";
import type { StreamReducer } from "../../src/common/reducer";

export type StepResult<S, O> = { state: S; out: O[]; losses: Loss[] };

/** One `step` with fresh output and loss lists. */
export function stepOnce<S, I, O>(reducer: StreamReducer<S, I, O>, state: S, input: I): StepResult<S, O> {
  const out: O[] = [];
  const losses: Loss[] = [];
  return { state: reducer.step(state, input, out, losses), out, losses };
}

/** `end` with fresh output and loss lists. */
export function endOnce<S, I, O>(reducer: StreamReducer<S, I, O>, state: S): StepResult<S, O> {
  const out: O[] = [];
  const losses: Loss[] = [];
  return { state: reducer.end(state, out, losses), out, losses };
}

/** Runs `reducer` over `inputs` (then `end`, unless told not to), collecting every output and loss. */
export function runAll<S, I, O>(
  reducer: StreamReducer<S, I, O>,
  inputs: readonly I[],
  end = true,
): { out: O[]; losses: Loss[]; perStep: O[][]; state: S } {
  let state = reducer.initial;
  const out: O[] = [];
  const losses: Loss[] = [];
  const perStep: O[][] = [];
  for (const input of inputs) {
    const result = stepOnce(reducer, state, input);
    state = result.state;
    out.push(...result.out);
    perStep.push(result.out);
    losses.push(...result.losses);
  }
  if (end) {
    const result = endOnce(reducer, state);
    state = result.state;
    out.push(...result.out);
    losses.push(...result.losses);
  }
  return { out, losses, perStep, state };
}
