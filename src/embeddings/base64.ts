/**
 * `encoding_format: "base64"` vectors: float32, little-endian, concatenated, in standard base64.
 * No `Buffer` or `atob`: runs the same in Node, browsers and edge runtimes.
 */
import { TranslationError } from "../common/errors";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

const DECODE: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i += 1) table[ALPHABET.charCodeAt(i)] = i;
  // URL-safe letters decode too.
  table["-".charCodeAt(0)] = 62;
  table["_".charCodeAt(0)] = 63;
  return table;
})();

function bytesToBase64(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const left = bytes.length - i;
  if (left === 1) {
    const n = bytes[i]! << 16;
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}==`;
  } else if (left === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}${ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

function base64ToBytes(text: string): Uint8Array {
  const clean = text.replace(/[\s]+/g, "").replace(/={1,2}$/, "");
  if (clean.length % 4 === 1)
    throw new TranslationError("Invalid base64 embedding: its length is not valid base64.");
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < clean.length; i += 1) {
    const code = clean.charCodeAt(i);
    const value = code < 128 ? DECODE[code]! : -1;
    if (value === -1)
      throw new TranslationError(`Invalid base64 embedding: unexpected character at position ${i}.`);
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at] = (buffer >> bits) & 0xff;
      at += 1;
    }
  }
  return bytes;
}

/**
 * A vector as base64 of float32 little-endian values (each number rounded to float32).
 * @example
 * encodeBase64([1, -2]); // => "AACAPwAAAMA="
 */
export function encodeBase64(vector: readonly number[] | Float32Array): string {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i += 1) view.setFloat32(i * 4, vector[i] ?? Number.NaN, true);
  return bytesToBase64(bytes);
}

/**
 * The float32 values of a base64 vector, read little-endian whatever the host's byte order. Throws
 * `TranslationError` (400) on characters outside base64 or a byte count that is not a multiple of 4.
 * @example
 * decodeBase64("AAAAPwAAgD4AAIC/"); // => Float32Array [0.5, 0.25, -1]
 */
export function decodeBase64(text: string): Float32Array {
  const bytes = base64ToBytes(text);
  if (bytes.length % 4 !== 0)
    throw new TranslationError(
      `Invalid base64 embedding: ${bytes.length} bytes is not a whole number of float32 values.`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i += 1) out[i] = view.getFloat32(i * 4, true);
  return out;
}
