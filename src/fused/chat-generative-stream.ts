/**
 * A fused chat → generative stream path for the most frequent chunks: text, a refusal's text or
 * reasoning continuing the block of the chunk before it, which the hub translated into one chunk of
 * one text (or thought) part, leaving both of its states as they were. It knows two wires, so it lives
 * outside both protocol folders; the hub (the chat decoder, the generative encoder) stays the
 * specification and translates every other chunk, mid-stream. Why it is exact: chat-stream-run.ts and
 * generative-stream-target.ts. Argument pieces never qualify: generative sends a call whole when its
 * block ends.
 */
import { chatRun } from "./chat-stream-run";
import { type GenerativePiece, generativePiece, nextGenerativeChunk } from "./generative-stream-target";
import type { FusedStream } from "./index";

/** The fused path of one stream (it remembers the last chunk the hub translated into one text chunk). */
export function chatToGenerativeStream(): FusedStream {
  const run = chatRun();
  let piece: GenerativePiece | undefined;
  return {
    next(input) {
      const text = run.next(input);
      return text === undefined || piece === undefined ? undefined : nextGenerativeChunk(piece, text);
    },
    saw(input, result, unchanged) {
      if (!unchanged) return;
      const made = generativePiece(result);
      if (made !== undefined && run.remember(input, made.thought ? "reasoning" : "text", made.text))
        piece = made;
    },
  };
}
