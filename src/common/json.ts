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

/** Own enumerable keys of `body` that are not in `known`: the unknown fields a loose schema kept. */
export function unknownKeys(body: object, known: ReadonlySet<string>): string[] {
  const extra: string[] = [];
  for (const key of Object.keys(body)) if (!known.has(key)) extra.push(key);
  return extra;
}
