/**
 * UTF-8 text of a body that arrives in pieces cut anywhere, even inside a character: the same text as
 * `new TextDecoder("utf-8", { ignoreBOM: true })` decoding each piece with `{ stream: true }` and the
 * end without, but cheaper on node 20, where a streaming TextDecoder makes an ICU converter per
 * instance (several µs, as much as a short stream's whole translation) and decodes through it, while a
 * decode without `stream` takes the fast UTF-8 path. So every body shares one decoder that never
 * streams, and the few bytes of a character cut at a piece's end wait for the next piece here.
 *
 * Why the text is the same: a piece is decoded up to the start of its last character when that
 * character is cut (its lead byte announces more bytes than the piece has left), and the held bytes
 * open the next piece. The text before a lead byte does not depend on what follows it (an unfinished
 * sequence before it is one U+FFFD either way), so decoding the body in these parts gives the text of
 * the whole body, as streaming does. test/common/utf8.test.ts compares the two on hostile bytes.
 */

/** Shared: without `stream` a TextDecoder keeps no state between calls. Keeps a BOM, like the streaming one. */
const shared = new TextDecoder("utf-8", { ignoreBOM: true });

/** How many bytes at the end of `bytes` begin a character that continues in the next piece (0 to 3). */
function cutTail(bytes: Uint8Array): number {
  const length = bytes.length;
  for (let back = 1; back <= 3 && back <= length; back++) {
    const byte = bytes[length - back] as number;
    // A continuation byte (10xxxxxx): look further back for the byte that opens its character.
    if ((byte & 0xc0) === 0x80) continue;
    // The lead byte's sequence length (an ASCII byte or a byte that opens no sequence: 1).
    const needed = byte >= 0xf0 ? (byte <= 0xf4 ? 4 : 1) : byte >= 0xe0 ? 3 : byte >= 0xc2 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
}

export type Utf8Decoder = {
  /** The text of the next piece; the bytes of a character cut at its end wait for the next piece. */
  decode(chunk: Uint8Array): string;
  /** The text of the bytes still waiting (U+FFFD for a character the body cut off); the decoder is then fresh. */
  end(): string;
};

/** A decoder for one body. */
export function createUtf8Decoder(): Utf8Decoder {
  let held: Uint8Array | undefined;
  return {
    decode(chunk) {
      let bytes = chunk;
      if (held !== undefined) {
        bytes = new Uint8Array(held.length + chunk.length);
        bytes.set(held);
        bytes.set(chunk, held.length);
        held = undefined;
      }
      const tail = cutTail(bytes);
      if (tail === 0) return shared.decode(bytes);
      // A copy: the caller may reuse the chunk's buffer once `decode` returns.
      held = bytes.slice(bytes.length - tail);
      return shared.decode(bytes.subarray(0, bytes.length - tail));
    },
    end() {
      const rest = held;
      held = undefined;
      return rest === undefined ? "" : shared.decode(rest);
    },
  };
}
