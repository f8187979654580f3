import { type Loss, loss } from "./loss";
import type { Protocol, StreamPart } from "./model";

/**
 * How streams end and where their losses point. Every
 * protocol's reducers follow these conventions; a new protocol does the same.
 *
 * Endings:
 * - A decoder knows its protocol's finish (chat: a chunk with a `finish_reason`; messages:
 *   `message_stop`; generative: a `finishReason` or a blocked prompt; an `error` event ends a stream
 *   too). Its `end()` closes the open blocks and, when the finish never came, calls `cutOff`: an
 *   `error` part and a loss. Whatever the decoder holds back until its finish is confirmed (a finish
 *   announced before the terminal event) is not emitted then.
 * - An encoder renders an `error` part as its protocol's own error event, the last event it emits for
 *   the part; it emits nothing after it, and no normal stop.
 * - The translator ends a stream whose body failed, or whose event could not be read, through the same
 *   path: the decoder's `end(state, out, losses, position, failure)`, which passes `failure` on here.
 *
 * Pointers: the input of a stream is its list of events. A reducer's `step` gets the position of the
 * event it handles (`end()` gets the count of events, one past the last); `eventPointer(position)` is
 * that event's pointer, and every loss and every part `source` a reducer makes is built from it
 * (`at(eventPointer(position), "choices", 0, "logprobs")` → `/12/choices/0/logprobs`). A decoder that
 * emits a part later than the event it came from (a finish held until the stream ends) keeps the
 * pointer it built then. An encoder's loss points at the `source` of the part that caused it, else at
 * the event the part was decoded from (the position it was given). Called without a position (a reducer
 * driven on its own), pointers are relative to the event.
 */

/** The pointer of the event at `position` in a stream's list of events; `""` when there is no position. */
export function eventPointer(position: number | undefined): string {
  return position === undefined ? "" : `/${position}`;
}

/**
 * What a stream decoder's `end()` emits when its input stopped before the protocol's finish (the
 * upstream was cut off, or its body failed: `failure` says how): an `error` part, which every encoder
 * renders as its own error event and never as a normal stop, and a loss saying the error was made up,
 * at the event that never came (`position`: the count of events received, or the event that could not
 * be read).
 */
export function cutOff(
  protocol: Protocol,
  out: { push(part: StreamPart): unknown },
  losses: Loss[],
  position?: number,
  failure?: string,
): void {
  const message =
    failure === undefined
      ? `The upstream ${protocol} stream ended before its finish: the answer is incomplete.`
      : `The upstream ${protocol} stream failed before its finish (${failure}): the answer is incomplete.`;
  out.push({ type: "error", error: { status: 502, kind: "server", message } });
  losses.push(
    loss(
      eventPointer(position),
      "synthesized",
      `${message} An error event was sent in its place; no normal end was made up.`,
      "stream.cut",
    ),
  );
}
