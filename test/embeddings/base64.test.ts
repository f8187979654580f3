import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { TranslationError } from "../../src/common/errors";
import { decodeBase64, encodeBase64 } from "../../src/embeddings/base64";

// Bytes computed by hand: 1.0f = 0x3F800000, -2.0f = 0xC0000000, stored little-endian.
const oneMinusTwo = [0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0];

function bytesOfBase64(text: string): number[] {
  return [...atob(text)].map((char) => char.charCodeAt(0));
}

describe("encodeBase64 / decodeBase64 (research M3)", () => {
  test("[1, -2] encodes to AACAPwAAAMA=", () => {
    expect(encodeBase64([1, -2])).toBe("AACAPwAAAMA=");
    expect(bytesOfBase64(encodeBase64([1, -2]))).toEqual(oneMinusTwo);
  });

  test("AACAPwAAAMA= decodes to [1, -2]", () => {
    expect(decodeBase64("AACAPwAAAMA=")).toEqual(Float32Array.from([1, -2]));
  });

  test("AAAAPwAAgD4AAIC/ decodes to [0.5, 0.25, -1]", () => {
    expect(Array.from(decodeBase64("AAAAPwAAgD4AAIC/"))).toEqual([0.5, 0.25, -1]);
  });

  test("the byte order is little-endian whatever the host's", () => {
    // 0.1f = 0x3DCCCCCD: the low byte CD comes first.
    expect(bytesOfBase64(encodeBase64([0.1]))).toEqual([0xcd, 0xcc, 0xcc, 0x3d]);
  });

  test("an empty vector is an empty string and back", () => {
    expect(encodeBase64([])).toBe("");
    expect(decodeBase64("")).toEqual(new Float32Array(0));
  });

  test("numbers are rounded to float32", () => {
    expect(decodeBase64(encodeBase64([0.1]))[0]).toBe(Math.fround(0.1));
  });

  test("missing padding, line breaks and URL-safe letters are accepted", () => {
    expect(decodeBase64("AACAPwAA\nAMA")).toEqual(Float32Array.from([1, -2]));
    const urlSafe = encodeBase64([-1e30, 3]).replaceAll("+", "-").replaceAll("/", "_");
    expect(decodeBase64(urlSafe)).toEqual(Float32Array.from([-1e30, 3]));
  });

  test("a character outside base64 is a TranslationError", () => {
    expect(() => decodeBase64("AACA*wAAAMA=")).toThrow(TranslationError);
  });

  test("a byte count that is not a multiple of 4 is a TranslationError", () => {
    expect(() => decodeBase64("AACAPwA=")).toThrow(/not a whole number of float32 values/);
  });

  test("an impossible base64 length is a TranslationError", () => {
    expect(() => decodeBase64("AACAP")).toThrow(TranslationError);
  });

  test("agrees with the platform's base64 on arbitrary vectors", () => {
    fc.assert(
      fc.property(fc.array(fc.float({ noNaN: true })), (vector) => {
        const bytes = new Uint8Array(Float32Array.from(vector).buffer);
        // Float32Array uses host order; every platform we run on is little-endian, as the assertion checks.
        expect(new Uint8Array(Float32Array.of(1).buffer)[3]).toBe(0x3f);
        expect(encodeBase64(vector)).toBe(btoa(String.fromCharCode(...bytes)));
      }),
    );
  });

  test("decodeBase64(encodeBase64(v)) equals Float32Array.from(v)", () => {
    fc.assert(
      fc.property(fc.array(fc.double()), (vector) => {
        expect(decodeBase64(encodeBase64(vector))).toEqual(Float32Array.from(vector));
      }),
    );
  });
});
