/** Runs a StreamReducer over inputs, collecting every output and loss (test helper). */
import type { Loss } from "../../../src/common/loss";
import type { StreamReducer } from "../../../src/common/reducer";

export function runAll<S, I, O>(
  reducer: StreamReducer<S, I, O>,
  inputs: readonly I[],
  end = true,
): { out: O[]; losses: Loss[]; perStep: O[][] } {
  let state = reducer.initial;
  const out: O[] = [];
  const losses: Loss[] = [];
  const perStep: O[][] = [];
  for (const input of inputs) {
    const result = reducer.step(state, input);
    state = result.state;
    out.push(...result.out);
    perStep.push([...result.out]);
    losses.push(...(result.losses ?? []));
  }
  if (end) {
    const result = reducer.end(state);
    out.push(...result.out);
    losses.push(...(result.losses ?? []));
  }
  return { out, losses, perStep };
}
