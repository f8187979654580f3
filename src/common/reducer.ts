import type { Loss } from "./loss";
import type { StreamPart } from "./model";

/**
 * A pure stream transducer: all protocol stream logic lives in reducers like this; they know nothing
 * of bytes, SSE or Web Streams.
 *
 * `step` appends what `input` determines to `out` (at once: streams never hold back), each loss to
 * `losses`, and returns the next state. Every reducer updates its state the same way:
 * - nothing changed: it returns `state` itself (the most frequent input, a delta continuing the open
 *   block, takes this path first, inline at the top of `step`, allocating nothing but its output);
 * - something changed: it copies `state` once into a draft (a `common.Draft<State>`, field by field), the
 *   handler for the input's kind changes the draft, and `step` returns the draft.
 * It never mutates `state`, so a caller may keep any earlier state.
 *
 * `position` is where the input came from in the stream's list of events (a decoder: this event; an
 * encoder: the event its part was decoded from), for pointers: losses and part sources are built from
 * `eventPointer(position)` (stream-end.ts, which also sets out how streams end). `end` gets the count
 * of events, and `failure` when the body failed or an event could not be read: a decoder passes it to
 * `cutOff`.
 */
export interface StreamReducer<State, In, Out> {
  readonly initial: State;
  step(state: State, input: In, out: Out[], losses: Loss[], position?: number): State;
  /** Closes open blocks and emits the terminal events (a decoder: `cutOff` when the finish never came). */
  end(state: State, out: Out[], losses: Loss[], position?: number, failure?: string): State;
}

type PartOf<K extends StreamPart["type"]> = Extract<StreamPart, { type: K }>;

/**
 * An encoder's `step` as one handler per common stream part kind: each changes the step's draft
 * (`work`) and appends its events and losses. `context` is what the encoder was made with (options);
 * `position` the step's (a loss without a better `source` points at `eventPointer(position)`).
 */
export type PartHandlers<Work, Out, Context> = {
  readonly [K in StreamPart["type"]]: (
    work: Work,
    part: PartOf<K>,
    out: Out[],
    losses: Loss[],
    context: Context,
    position: number | undefined,
  ) => void;
};

/** Runs the handler for `part`'s kind. */
export function handlePart<Work, Out, Context>(
  handlers: PartHandlers<Work, Out, Context>,
  work: Work,
  part: StreamPart,
  out: Out[],
  losses: Loss[],
  context: Context,
  position?: number,
): void {
  // The table is keyed by kind, so the handler found takes this very part: the one cast the table needs.
  const handler = handlers[part.type] as (
    work: Work,
    part: StreamPart,
    out: Out[],
    losses: Loss[],
    context: Context,
    position: number | undefined,
  ) => void;
  handler(work, part, out, losses, context, position);
}
