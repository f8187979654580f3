/**
 * Most events of a stream are one delta after another: the same JSON text each time but for a few
 * values (the text or the tool-call arguments, and in some protocols a per-event nonce such as
 * `obfuscation` or a counter such as `sequence_number`). Parsing each in full is the largest cost of
 * byte-level translation, so the last parsed event is kept as a template: when the next event's text
 * is the template's with only those values changed (each a string literal, or a counter's digits), the
 * event is the template with only those values changed. Anything else (another shape, another key
 * order, a second occurrence, a malformed literal) falls back to `JSON.parse`. The result always
 * equals `JSON.parse(data)`; test/stream/repeat.test.ts checks that on generated and hostile input.
 */
import type { DeltaPath } from "../protocols/adapter";

/** A changing value: its path in the parsed event, and the key that holds it as it appears in JSON text. */
type Site = { readonly key: string; readonly path: DeltaPath };

const site = (path: DeltaPath): Site => ({ key: `"${String(path[path.length - 1])}":`, path });

/** Sites by adapter table entry, made once rather than per stream. */
const sitesOf = new WeakMap<readonly DeltaPath[], readonly Site[]>();

/** After this many templates in a row that the next event did not fit, stop learning for a while. */
const MISSES_BEFORE_REST = 3;
const REST_EVENTS = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ZERO = 0x30;
const NINE = 0x39;
/** A counter's most digits: every such integer is exact as a double. */
const MAX_DIGITS = 15;

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

/** The index just past the digits opening at `start` (`start` itself when there are none). */
function digitsEnd(data: string, start: number): number {
  let index = start;
  while (index < data.length) {
    const code = data.charCodeAt(index);
    if (code < ZERO || code > NINE) break;
    index++;
  }
  return index;
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

type Node = Record<string | number, unknown>;

/** A copy of `node` with the value at `path` replaced; everything off the path is shared. */
function replacedOne(node: unknown, path: DeltaPath, depth: number, value: unknown): unknown {
  if (depth === path.length) return value;
  const key = path[depth] as string | number;
  if (Array.isArray(node)) {
    const copy = node.slice();
    copy[key as number] = replacedOne(node[key as number], path, depth + 1, value);
    return copy;
  }
  const copy: Node = { ...(node as Node) };
  copy[key] = replacedOne((node as Node)[key], path, depth + 1, value);
  return copy;
}

/**
 * A copy of `node` with the value at each path replaced; everything off the paths is shared. Each
 * object or array on a path is copied once, however many paths go through it.
 */
function replaced(node: unknown, paths: readonly DeltaPath[], values: readonly unknown[]): unknown {
  const copies: unknown[] = [];
  const copyOf = (original: unknown): Node => {
    const copy = (Array.isArray(original) ? original.slice() : { ...(original as Node) }) as Node;
    copies.push(copy);
    return copy;
  };
  const root = copyOf(node);
  for (let hole = 0; hole < paths.length; hole++) {
    const path = paths[hole] as DeltaPath;
    let current = root;
    for (let depth = 0; depth < path.length - 1; depth++) {
      const key = path[depth] as string | number;
      let child = current[key];
      if (!copies.includes(child)) {
        child = copyOf(child);
        current[key] = child;
      }
      current = child as Node;
    }
    current[path[path.length - 1] as string | number] = values[hole];
  }
  return root;
}

/**
 * A learned event: its text is `segments[0]`, the value at `paths[0]`, `segments[1]`, … and
 * `segments[paths.length]`, where each value is a string literal, or a counter's digits when
 * `counters[i]`.
 */
type Template = {
  readonly segments: readonly string[];
  readonly paths: readonly DeltaPath[];
  readonly counters: readonly boolean[];
  readonly event: unknown;
};

type Hole = {
  readonly start: number;
  readonly end: number;
  readonly path: DeltaPath;
  readonly counter: boolean;
};

/** Where the value at `path` sits in `data`, or `undefined` when it cannot be told for certain. */
function holeOf(data: string, { key, path }: Site, event: unknown): Hole | undefined {
  // The cheap test first: most events have no value at most sites.
  const value = valueAt(event, path);
  const counter = typeof value === "number";
  if (
    counter
      ? !(Number.isSafeInteger(value) && (value as number) >= 0)
      : typeof value !== "string" || value === ""
  )
    return undefined;
  // The key must occur once in the whole text, and the text around the values must not spell any key
  // with an escape (checked by the caller): then the one property of that name in the parsed event,
  // the one `path` found, is this value's (a duplicate key later in an object would win in JSON.parse).
  const at = data.indexOf(key);
  if (at === -1 || data.indexOf(key, at + key.length) !== -1) return undefined;
  const start = at + key.length;
  if (counter) {
    // The digits must spell the number and nothing more follows them (no fraction, no exponent).
    const end = digitsEnd(data, start);
    if (end === start || data.slice(start, end) !== String(value)) return undefined;
    const next = data.charCodeAt(end);
    if (next === 0x2e || next === 0x65 || next === 0x45) return undefined;
    return { start, end, path, counter };
  }
  const end = literalEnd(data, start);
  if (end === -1 || literalValue(data.slice(start, end)) !== value) return undefined;
  return { start, end, path, counter };
}

/**
 * `JSON.parse` of one event's data; `reused()` says whether the last event it returned was the template's
 * with only its changing values changed (each a string, or a counter's non-negative safe integer).
 */
export type RepeatParser = ((data: string) => unknown) & { readonly reused: () => boolean };

/** Parses event data like `JSON.parse`, reusing the previous event when only its changing values changed. */
export function createRepeatParser(
  paths: readonly DeltaPath[],
  parse: (data: string) => unknown,
): RepeatParser {
  let sites = sitesOf.get(paths);
  if (sites === undefined) {
    sites = paths.map(site);
    sitesOf.set(paths, sites);
  }
  let template: Template | undefined;
  // Streams whose every event differs elsewhere too (usage counted on every chunk) would pay for
  // learning on every event: after a few misses, rest.
  let misses = 0;
  let resting = 0;

  const learn = (data: string, event: unknown): Template | undefined => {
    const holes: Hole[] = [];
    for (const each of sites) {
      const hole = holeOf(data, each, event);
      if (hole !== undefined) holes.push(hole);
    }
    if (holes.length === 0) return undefined;
    holes.sort((a, b) => a.start - b.start);
    const segments: string[] = [];
    let from = 0;
    for (const hole of holes) {
      if (hole.start < from) return undefined;
      segments.push(data.slice(from, hole.start));
      from = hole.end;
    }
    segments.push(data.slice(from));
    for (const segment of segments) if (segment.includes("\\")) return undefined;
    return {
      segments,
      paths: holes.map((hole) => hole.path),
      counters: holes.map((hole) => hole.counter),
      event,
    };
  };

  /** The event `data` spells with the template's text around new values, or `undefined`. */
  const reuse = (known: Template, data: string): unknown => {
    const segments = known.segments;
    const count = known.paths.length;
    const first = segments[0] as string;
    const last = segments[count] as string;
    const tail = data.length - last.length;
    // slice + === rather than startsWith/endsWith: a third of the time on node 20 (endsWith: 3x).
    if (tail < first.length || data.slice(0, first.length) !== first || data.slice(tail) !== last)
      return undefined;
    // One value (most templates): no list, and the one-path copy.
    const values: unknown[] | undefined = count === 1 ? undefined : [];
    let single: unknown;
    let position = first.length;
    for (let hole = 0; hole < count; hole++) {
      const last = hole + 1 === count;
      let end: number;
      let value: unknown;
      if (known.counters[hole] === true) {
        end = digitsEnd(data, position);
        const digits = end - position;
        // JSON has no leading zeros; JSON.parse gives its own error for them.
        if (digits === 0 || digits > MAX_DIGITS || (digits > 1 && data.charCodeAt(position) === ZERO))
          return undefined;
        value = Number(data.slice(position, end));
      } else if (last) {
        // The last value runs up to the template's tail: one literal exactly, or no reuse.
        end = tail;
        value = literalValue(data.slice(position, tail));
      } else {
        end = literalEnd(data, position);
        if (end === -1 || end > tail) return undefined;
        value = literalValue(data.slice(position, end));
      }
      if (value === undefined) return undefined;
      if (last) {
        if (end !== tail) return undefined;
      } else {
        const segment = segments[hole + 1] as string;
        if (data.slice(end, end + segment.length) !== segment) return undefined;
        position = end + segment.length;
      }
      if (values === undefined) single = value;
      else values.push(value);
    }
    if (values === undefined) return replacedOne(known.event, known.paths[0] as DeltaPath, 0, single);
    return replaced(known.event, known.paths, values);
  };

  let hit = false;
  const parser = (data: string): unknown => {
    const known = template;
    if (known !== undefined) {
      const event = reuse(known, data);
      if (event !== undefined) {
        misses = 0;
        hit = true;
        return event;
      }
      misses++;
    }
    hit = false;
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
  return Object.assign(parser, { reused: () => hit });
}
