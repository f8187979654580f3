import type { Loss } from "./loss";

/** One step of a stream transducer: the next state, what it emits now, and what it lost. */
export type Step<State, Out> = {
  readonly state: State;
  /** A fresh array on every call, never kept by the reducer: a caller may hand it on as its own. */
  readonly out: readonly Out[];
  readonly losses?: readonly Loss[] | undefined;
};

/**
 * A pure stream transducer. All protocol stream logic lives in reducers like this; they know nothing
 * of bytes, SSE or Web Streams. `step` must not mutate `state`.
 */
export interface StreamReducer<State, In, Out> {
  readonly initial: State;
  step(state: State, input: In): Step<State, Out>;
  /** Close open blocks and emit terminal events. */
  end(state: State): Step<State, Out>;
  /**
   * Optional fast path for the inputs a stream sends most (a delta continuing the open block): the one
   * item `step(state, input)` would emit when that step keeps `state` (the same object) and loses
   * nothing; `undefined` whenever it cannot say so cheaply, and then `step` decides. It saves the
   * translator a step object and an array per event; test/stream/single.test.ts checks it agrees with
   * `step` on generated streams.
   */
  single?(state: State, input: In): Out | undefined;
}
