import { type Loss, loss } from "./loss";
import type { Protocol, StreamPart } from "./model";

/**
 * What a stream decoder's `end()` emits when its input stopped before the protocol's finish (the
 * upstream was cut off, or its body failed): an `error` part, which every encoder renders as its own
 * error event and never as a normal stop (DESIGN rule 7), and a loss saying the error was made up.
 * The loss points at the event that never came (the translator places event-relative pointers).
 */
export function cutOff(protocol: Protocol, out: { push(part: StreamPart): unknown }, losses: Loss[]): void {
  const message = `The upstream ${protocol} stream ended before its finish: the answer is incomplete.`;
  out.push({ type: "error", error: { status: 502, kind: "server", message } });
  losses.push(
    loss("", "synthesized", `${message} An error event was sent in its place; no normal end was made up.`),
  );
}
