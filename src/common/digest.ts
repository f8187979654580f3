/**
 * The seeds of synthesized ids: a small pure digest of what the input carries, so that equal inputs
 * give equal ids and different inputs different ones (DESIGN rule 1) without a clock, randomness or a
 * crypto import.
 */

/**
 * FNV-1a over `text`'s UTF-16 code units in two 32-bit lanes (different offsets, the second also mixing
 * in the position), 53 bits of them as 11 base-36 characters. Not cryptographic: ids only need to
 * differ between different inputs.
 */
export function digest(text: string): string {
  let high = 0x811c9dc5;
  let low = 0x050c5d1f;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    high = Math.imul(high ^ unit, 0x01000193);
    low = Math.imul(low ^ (unit + index), 0x01000193);
  }
  // 64 bits would not fit a double exactly: one lane's 32 bits and 21 of the other's.
  const value = (high >>> 0) * 2 ** 21 + ((low >>> 0) & 0x1fffff);
  return value.toString(36).padStart(11, "0");
}

/**
 * The digest of a value's JSON text (the canonical form of a parsed body or event: its fields in the
 * order they came), for a response or stream that carries no id of its own. A value JSON cannot write
 * (a BigInt, a cycle: only from a caller's hand-made object) digests as its string form.
 */
export function inputSeed(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  return digest(text ?? String(value));
}
