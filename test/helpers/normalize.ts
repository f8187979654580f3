/**
 * What "equal" ignores when two translations are compared. Every line here weakens a law, so each
 * says why it is sound.
 */

type Json = unknown;

/** Keys dropped before comparing. */
const ignoredKeys = new Set<string>([
  // Pure formatting of argument JSON: compared parsed instead (see below).
]);

export function normalize(value: Json): Json {
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, Json> = {};
  for (const key of Object.keys(value).sort()) {
    if (ignoredKeys.has(key)) continue;
    const item = (value as Record<string, Json>)[key];
    // Absent and undefined are the same on the wire (JSON.stringify drops undefined).
    if (item === undefined) continue;
    // Tool-call arguments are JSON text in chat: `{"a":1}` and `{"a": 1}` are the same arguments.
    if (key === "arguments" && typeof item === "string") {
      out[key] = parsedOrSame(item);
      continue;
    }
    // messages `input_json_delta` pieces and `partial_json` likewise.
    if (key === "partial_json" && typeof item === "string") {
      out[key] = parsedOrSame(item);
      continue;
    }
    out[key] = normalize(item);
  }
  return out;
}

function parsedOrSame(text: string): Json {
  try {
    return normalize(JSON.parse(text));
  } catch {
    return text;
  }
}
