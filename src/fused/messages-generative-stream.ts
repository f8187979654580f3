/**
 * A fused messages → generative stream path for the most frequent events: a `text_delta` or
 * `thinking_delta` continuing the block whose previous delta of the same kind the hub has just
 * translated into one chunk of one text (or thought) part, leaving both of its states as they were. It
 * knows two wires, so it lives outside both protocol folders; the hub (the messages decoder, the
 * generative encoder) stays the specification and translates every other event, mid-stream. Why it is
 * exact: messages-stream-run.ts (the decoder's part for the piece) and generative-stream-target.ts (the
 * encoder's chunk for it). Argument pieces never qualify: generative sends a call whole when its block
 * ends.
 */
import { type GenerativePiece, generativePiece, nextGenerativeChunk } from "./generative-stream-target";
import type { FusedStream } from "./index";
import { type Kind, pieceOf } from "./messages-stream-run";

/** The fused path of one stream (it remembers the hub's last chunk for a piece). */
export function messagesToGenerativeStream(): FusedStream {
  let piece: GenerativePiece | undefined;
  /** The kind of delta, and the messages block index, the remembered chunk was made for. */
  let kind: Kind = "text_delta";
  let block = 0;
  return {
    next(input) {
      // Cleared until this event is taken here, or the hub has translated it (`saw`).
      const known = piece;
      piece = undefined;
      if (known === undefined) return undefined;
      const next = pieceOf(input);
      if (next === undefined || next.kind !== kind || next.index !== block) return undefined;
      piece = known;
      return nextGenerativeChunk(known, next.text);
    },
    saw(input, result, unchanged) {
      if (!unchanged) return;
      const made = generativePiece(result);
      if (made === undefined) return;
      const read = pieceOf(input);
      if (read === undefined || read.text !== made.text) return;
      if (read.kind !== (made.thought ? "thinking_delta" : "text_delta")) return;
      piece = made;
      kind = read.kind;
      block = read.index;
    },
  };
}
