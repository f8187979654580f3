/** Small JSON helpers shared by the protocol folders. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The deepest nesting of objects and arrays the library takes, the outermost counting as 1. Deeper
 * input is refused the same way on every runtime: validation answers a TranslationError 400 naming the
 * limit, and tool-call arguments text nested deeper is not read as an object. Below it, no function of
 * the library comes near a runtime's stack (`JSON.stringify` overflows at about 5,000 levels on Node
 * 20–24, not at all on others), so what deep input gives does not depend on where it runs.
 */
export const NESTING_LIMIT = 512;

/**
 * The path to the first object or array of `value` nested deeper than `limit` (JSON keys and array
 * indices, outermost first), or `undefined`. A cycle counts as nesting without end. The walk recurses
 * at most `limit` levels itself, whatever the input.
 */
export function nestedTooDeep(value: unknown, limit = NESTING_LIMIT): PropertyKey[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  return deeperThan(value, limit - 1)?.reverse();
}

/** The path (innermost first) to a container more than `room` levels below `value`. */
function deeperThan(value: object, room: number): PropertyKey[] | undefined {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item !== "object" || item === null) continue;
      if (room === 0) return [index];
      const path = deeperThan(item, room - 1);
      if (path !== undefined) {
        path.push(index);
        return path;
      }
    }
    return undefined;
  }
  // `for…in` walks without allocating a key array; JSON objects inherit no enumerable keys.
  for (const key in value) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item !== "object" || item === null) continue;
    if (room === 0) return [key];
    const path = deeperThan(item, room - 1);
    if (path !== undefined) {
      path.push(key);
      return path;
    }
  }
  return undefined;
}

/**
 * Parses tool-call arguments text; `undefined` when it is not a JSON object, or one nested deeper than
 * `NESTING_LIMIT` (the caller reports it).
 */
export function parseJsonObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) && nestedTooDeep(value) === undefined ? value : undefined;
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
