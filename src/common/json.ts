/** Small JSON helpers shared by the protocol folders. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses tool-call arguments text; `undefined` when it is not a JSON object (the caller reports it). */
export function parseJsonObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The keys a decoder knows on one kind of node. A plain list, scanned by `isKnown`: property keys and
 * these literals are internalized strings, so each comparison is an identity check, and for the few
 * keys of a node the scan is faster than a `Set`'s hash lookup (and than `includes`).
 */
export type Keys = readonly string[];

/** Whether `key` is one of `known`. */
export function isKnown(known: Keys, key: string): boolean {
  for (let index = 0; index < known.length; index++) if (known[index] === key) return true;
  return false;
}

/** Own enumerable keys of `body` that are not in `known`: the unknown fields a loose schema kept. */
export function unknownKeys(body: object, known: Keys): string[] {
  let extra: string[] | undefined;
  // `for…in` walks the enumeration cache without allocating a key array; JSON objects inherit no
  // enumerable keys, and `hasOwn` (asked of unknown keys only) keeps an inherited one out regardless.
  for (const key in body) {
    if (isKnown(known, key) || !Object.hasOwn(body, key)) continue;
    if (extra === undefined) extra = [];
    extra.push(key);
  }
  return extra ?? [];
}

/**
 * Whether `value`'s enumerable keys are exactly `expected`, in that order (the order JSON.stringify
 * writes them). `for…in` reads V8's enumeration cache without allocating a key array; an inherited
 * enumerable key makes the answer `false`, which only sends the caller down its general path.
 */
export function keysAre(value: object, expected: readonly string[]): boolean {
  let at = 0;
  for (const key in value) {
    if (key !== expected[at]) return false;
    at++;
  }
  return at === expected.length;
}
