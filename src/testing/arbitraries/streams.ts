/**
 * Event streams per protocol from two sources: each protocol's hand-written stream arbitrary (deltas
 * split at odd places, cut off) and `replay` of a generated response, so a bug in `replay` cannot hide
 * and a bug in the hand-written grammar cannot either.
 */
import fc from "fast-check";
import { type Protocol, replay } from "../../index";
import type { Hard } from "./common";
import type { ProtocolArbitraries } from "./types";

/** Streams that follow their protocol's grammar and end normally or cut off (no error event). */
export function wellFormedStreamArb(
  protocol: Protocol,
  entry: ProtocolArbitraries,
  hard: Hard,
): fc.Arbitrary<unknown[]> {
  return fc.oneof(
    entry.stream(hard),
    entry.replayableResponse(hard).map((body) => replay(protocol, body as never) as unknown[]),
  );
}

/** Any stream: the well-formed ones and odd chunk sequences, error events included (for grammar and bytes). */
export function anyStreamArb(
  protocol: Protocol,
  entry: ProtocolArbitraries,
  hard: Hard,
): fc.Arbitrary<unknown[]> {
  return fc.oneof(entry.rawStream(), wellFormedStreamArb(protocol, entry, hard));
}
