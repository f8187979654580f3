import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { createUtf8Decoder } from "../../src/common/utf8";
import { runs } from "../helpers/tier";

/** The text the streaming TextDecoder gives for the pieces, as the SSE and JSON-array parsers used it. */
function streamed(pieces: readonly Uint8Array[]): string {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let text = "";
  for (const piece of pieces) text += decoder.decode(piece, { stream: true });
  return text + decoder.decode();
}

function decoded(pieces: readonly Uint8Array[]): string {
  const decoder = createUtf8Decoder();
  let text = "";
  for (const piece of pieces) text += decoder.decode(piece);
  return text + decoder.end();
}

/** Bytes around every boundary of UTF-8: lead bytes of each length, continuations, bytes that open nothing. */
const edgeByte = fc.oneof(
  fc.constantFrom(0x00, 0x0a, 0x0d, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbb, 0xbf, 0xc0, 0xc1),
  fc.constantFrom(0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf8, 0xff),
  fc.integer({ min: 0, max: 255 }),
);

/** Bytes cut into pieces at the given positions. */
function cut(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    pieces.push(bytes.slice(from, to));
    from = to;
  }
  return pieces;
}

describe("createUtf8Decoder", () => {
  test.prop([fc.array(edgeByte, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 12 })], {
    numRuns: runs(3000),
  })("gives the streaming TextDecoder's text for any bytes cut anywhere", (list, cuts) => {
    const pieces = cut(Uint8Array.from(list), cuts);
    expect(decoded(pieces)).toBe(streamed(pieces));
  });

  test.prop([fc.string({ unit: "grapheme", maxLength: 30 }), fc.array(fc.nat(), { maxLength: 12 })])(
    "gives back any text cut inside its characters",
    (text, cuts) => {
      const pieces = cut(new TextEncoder().encode(text), cuts);
      expect(decoded(pieces)).toBe(text);
    },
  );

  it("holds a character cut at a piece's end until its last byte, and keeps a BOM", () => {
    const decoder = createUtf8Decoder();
    // U+20AC (E2 82 AC) in three pieces, after a BOM (EF BB BF).
    expect(decoder.decode(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61, 0xe2))).toBe("\ufeffa");
    expect(decoder.decode(Uint8Array.of(0x82))).toBe("");
    expect(decoder.decode(Uint8Array.of(0xac, 0x62))).toBe("€b");
    // A character the body cuts off is one U+FFFD at the end, and the decoder is fresh after it.
    expect(decoder.decode(Uint8Array.of(0xf0, 0x9f))).toBe("");
    expect(decoder.end()).toBe("\ufffd");
    expect(decoder.decode(Uint8Array.of(0x63))).toBe("c");
  });

  it("does not keep the caller's buffer: a piece's bytes may be reused once decode returns", () => {
    const decoder = createUtf8Decoder();
    const buffer = Uint8Array.of(0x61, 0xe2, 0x82);
    expect(decoder.decode(buffer)).toBe("a");
    buffer.fill(0x41);
    expect(decoder.decode(Uint8Array.of(0xac))).toBe("€");
  });
});
