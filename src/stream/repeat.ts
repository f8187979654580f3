/**
 * Most events of a stream are one delta after another: the same JSON text each time but for one
 * string (the text, the tool-call arguments). Parsing each in full is the largest cost of byte-level
 * translation, so the last parsed event is kept as a template: when the next event's text is the
 * template's with only that string literal changed, the event is the template with only that value
 * changed. Anything else (another shape, another key order, a second occurrence, a malformed literal)
 * falls back to `JSON.parse`. The result always equals `JSON.parse(data)`; test/stream/repeat.test.ts
 * checks that on generated and hostile input.
 */
import type { Protocol } from "../common/model";

/** Where a delta's string sits: the text just before its literal, and its path in the parsed event. */
type Site = { readonly marker: string; readonly path: readonly (string | number)[] };

const SITES: Record<Protocol, readonly Site[]> = {
  chat: [
    { marker: '"delta":{"content":', path: ["choices", 0, "delta", "content"] },
    { marker: '"delta":{"reasoning_content":', path: ["choices", 0, "delta", "reasoning_content"] },
    {
      marker: '"function":{"arguments":',
      path: ["choices", 0, "delta", "tool_calls", 0, "function", "arguments"],
    },
  ],
  messages: [
    { marker: '"type":"text_delta","text":', path: ["delta", "text"] },
    { marker: '"type":"input_json_delta","partial_json":', path: ["delta", "partial_json"] },
    { marker: '"type":"thinking_delta","thinking":', path: ["delta", "thinking"] },
  ],
  generative: [{ marker: '"parts":[{"text":', path: ["candidates", 0, "content", "parts", 0, "text"] }],
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index just past the JSON string literal opening at `start`, or -1 when there is none. */
function literalEnd(data: string, start: number): number {
  if (data.charCodeAt(start) !== QUOTE) return -1;
  for (let index = start + 1; index < data.length; index++) {
    const code = data.charCodeAt(index);
    if (code === QUOTE) return index + 1;
    if (code === BACKSLASH) index++;
  }
  return -1;
}

/** The value of a JSON string literal, or `undefined` when it is not exactly one. */
function literalValue(literal: string): string | undefined {
  const last = literal.length - 1;
  if (last < 1 || literal.charCodeAt(0) !== QUOTE || literal.charCodeAt(last) !== QUOTE) return undefined;
  for (let index = 1; index < last; index++) {
    const code = literal.charCodeAt(index);
    if (code === BACKSLASH) {
      try {
        const value: unknown = JSON.parse(literal);
        return typeof value === "string" ? value : undefined;
      } catch {
        return undefined;
      }
    }
    if (code === QUOTE || code < 0x20) return undefined;
  }
  return literal.slice(1, last);
}

function valueAt(node: unknown, path: readonly (string | number)[]): unknown {
  let current = node;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** A copy of `node` with the value at `path` replaced; everything off the path is shared. */
function replaced(node: unknown, path: readonly (string | number)[], depth: number, value: string): unknown {
  if (depth === path.length) return value;
  const key = path[depth] as string | number;
  if (Array.isArray(node)) {
    const copy = node.slice();
    copy[key as number] = replaced(node[key as number], path, depth + 1, value);
    return copy;
  }
  const copy: Record<string | number, unknown> = { ...(node as Record<string | number, unknown>) };
  copy[key] = replaced((node as Record<string | number, unknown>)[key], path, depth + 1, value);
  return copy;
}

type Template = {
  readonly prefix: string;
  readonly suffix: string;
  readonly event: unknown;
  readonly path: readonly (string | number)[];
};

/** Parses event data like `JSON.parse`, reusing the previous event when only its delta string changed. */
export function createRepeatParser(
  protocol: Protocol,
  parse: (data: string) => unknown,
): (data: string) => unknown {
  const sites = SITES[protocol];
  let template: Template | undefined;

  const learn = (data: string, event: unknown): void => {
    template = undefined;
    for (const site of sites) {
      const at = data.indexOf(site.marker);
      if (at === -1 || data.indexOf(site.marker, at + 1) !== -1) continue;
      // The literal's key must occur once in the whole text, and no other key may be spelled with an
      // escape: then the one property of that name in the parsed event, wherever `path` finds it, is
      // this literal's (a duplicate key later in the object would otherwise win in JSON.parse).
      const key = `"${String(site.path[site.path.length - 1])}":`;
      const keyAt = data.indexOf(key);
      if (keyAt === -1 || data.indexOf(key, keyAt + 1) !== -1) continue;
      const start = at + site.marker.length;
      const end = literalEnd(data, start);
      if (end === -1) continue;
      const prefix = data.slice(0, start);
      const suffix = data.slice(end);
      if (prefix.includes("\\") || suffix.includes("\\")) continue;
      const value = literalValue(data.slice(start, end));
      if (value === undefined || valueAt(event, site.path) !== value) continue;
      template = { prefix, suffix, event, path: site.path };
      return;
    }
  };

  return (data) => {
    const known = template;
    if (
      known !== undefined &&
      data.length >= known.prefix.length + known.suffix.length + 2 &&
      data.startsWith(known.prefix) &&
      data.endsWith(known.suffix)
    ) {
      const value = literalValue(data.slice(known.prefix.length, data.length - known.suffix.length));
      if (value !== undefined) return replaced(known.event, known.path, 0, value);
    }
    const event = parse(data);
    learn(data, event);
    return event;
  };
}
