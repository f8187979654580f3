/**
 * Most events of a stream are one delta after another: the same JSON text each time but for one
 * string (the text, the tool-call arguments). Parsing each in full is the largest cost of byte-level
 * translation, so the last parsed event is kept as a template: when the next event's text is the
 * template's with only that string literal changed, the event is the template with only that value
 * changed. Anything else (another shape, another key order, a second occurrence, a malformed literal)
 * falls back to `JSON.parse`. The result always equals `JSON.parse(data)`; test/stream/repeat.test.ts
 * checks that on generated and hostile input.
 */
import type { DeltaPath } from "../protocols/adapter";

/** A delta's string: its path in the parsed event, and the key that holds it as it appears in JSON text. */
type Site = { readonly key: string; readonly path: DeltaPath };

const site = (path: DeltaPath): Site => ({ key: `"${String(path[path.length - 1])}":`, path });

/** Sites by adapter table entry, made once rather than per stream. */
const sitesOf = new WeakMap<readonly DeltaPath[], readonly Site[]>();

/** After this many templates in a row that the next event did not fit, stop learning for a while. */
const MISSES_BEFORE_REST = 3;
const REST_EVENTS = 32;

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

function valueAt(node: unknown, path: DeltaPath): unknown {
  let current = node;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** A copy of `node` with the value at `path` replaced; everything off the path is shared. */
function replaced(node: unknown, path: DeltaPath, depth: number, value: string): unknown {
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
  readonly path: DeltaPath;
};

/** Parses event data like `JSON.parse`, reusing the previous event when only its delta string changed. */
export function createRepeatParser(
  paths: readonly DeltaPath[],
  parse: (data: string) => unknown,
): (data: string) => unknown {
  let sites = sitesOf.get(paths);
  if (sites === undefined) {
    sites = paths.map(site);
    sitesOf.set(paths, sites);
  }
  let template: Template | undefined;
  // Streams whose every event differs elsewhere too (a per-event nonce such as chat's `obfuscation`,
  // usage counted on every chunk) would pay for learning on every event: after a few misses, rest.
  let misses = 0;
  let resting = 0;

  const learn = (data: string, event: unknown): Template | undefined => {
    for (const { key, path } of sites) {
      // The cheap test first: most events have no string at any site.
      const value = valueAt(event, path);
      if (typeof value !== "string" || value === "") continue;
      // The key must occur once in the whole text, and the text around the literal must not spell any
      // key with an escape: then the one property of that name in the parsed event, the one `path`
      // found, is this literal's (a duplicate key later in an object would win in JSON.parse).
      const at = data.indexOf(key);
      if (at === -1 || data.indexOf(key, at + key.length) !== -1) continue;
      const start = at + key.length;
      const end = literalEnd(data, start);
      if (end === -1) continue;
      const prefix = data.slice(0, start);
      const suffix = data.slice(end);
      if (prefix.includes("\\") || suffix.includes("\\")) continue;
      if (literalValue(data.slice(start, end)) !== value) continue;
      return { prefix, suffix, event, path };
    }
    return undefined;
  };

  return (data) => {
    const known = template;
    if (known !== undefined) {
      const head = known.prefix.length;
      const tail = data.length - known.suffix.length;
      // slice + === rather than startsWith/endsWith: a third of the time on node 20 (endsWith: 3x).
      if (tail >= head + 2 && data.slice(0, head) === known.prefix && data.slice(tail) === known.suffix) {
        const value = literalValue(data.slice(head, tail));
        if (value !== undefined) {
          misses = 0;
          return replaced(known.event, known.path, 0, value);
        }
      }
      misses++;
    }
    const event = parse(data);
    template = undefined;
    if (resting > 0) {
      resting--;
    } else if (misses >= MISSES_BEFORE_REST) {
      misses = 0;
      resting = REST_EVENTS;
    } else {
      template = learn(data, event);
    }
    return event;
  };
}
