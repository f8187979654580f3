/**
 * Free-form (custom) tools toward protocols that only have JSON function calls: the tool becomes a
 * function of one string parameter, `input`, and its calls carry `{"input": text}`. This file holds
 * the parameter schema that marks such a function (so that a request coming back recognises it) and
 * the two directions of the arguments: wrapping text into that JSON, chunk by chunk, and unwrapping
 * it again, chunk by chunk, so that a stream gives the text a whole response gives.
 */
import { isObject, type JsonObject } from "./json";

/** The one parameter a free-form tool's function has. */
export const FREEFORM_PARAMETER = "input";

/** The description of that parameter: fixed, so that a function with it is known for a free-form tool. */
export const FREEFORM_DESCRIPTION = "The tool's free-form input: the raw text, not JSON.";

/** The parameter schema of a free-form tool sent as a function (the marker `isFreeformParameters` reads). */
export function freeformParameters(): JsonObject {
  return {
    type: "object",
    properties: { [FREEFORM_PARAMETER]: { type: "string", description: FREEFORM_DESCRIPTION } },
    required: [FREEFORM_PARAMETER],
    additionalProperties: false,
  };
}

/** Whether `schema` is the parameter schema of a free-form tool sent as a function (`freeformParameters`). */
export function isFreeformParameters(schema: unknown): boolean {
  if (!isObject(schema) || schema.type !== "object") return false;
  const properties = schema.properties;
  if (!isObject(properties)) return false;
  const keys = Object.keys(properties);
  if (keys.length !== 1 || keys[0] !== FREEFORM_PARAMETER) return false;
  const input = properties[FREEFORM_PARAMETER];
  return isObject(input) && input.type === "string" && input.description === FREEFORM_DESCRIPTION;
}

// ─── Wrapping: text → `{"input": text}` ───────────────────────────────────────────────────────────

/** What a wrapped call's arguments text starts with. */
export const WRAP_OPEN = `{"${FREEFORM_PARAMETER}":"`;
/** What it ends with. */
export const WRAP_CLOSE = '"}';

/** A piece of the text as it goes inside the JSON string (any piece: escapes never span two). */
export function escapeChunk(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

// ─── Unwrapping: `{"input": text}` → text ─────────────────────────────────────────────────────────

/**
 * Where an unwrapping is: reading the `{"input": "` head, inside the string, after it, or `raw` (the
 * arguments were not of that shape: their text is the input as it is). `pending` holds what a chunk
 * ended in the middle of (the head so far, a cut escape, a first surrogate half).
 */
export type Unwrapping = {
  readonly phase: "head" | "string" | "tail" | "raw";
  readonly pending: string;
  /** Something besides the input came after it (other arguments): reported once, at the end. */
  readonly extra: boolean;
};

export const UNWRAP_START: Unwrapping = { phase: "head", pending: "", extra: false };

const HEAD = ["{", `"${FREEFORM_PARAMETER}"`, ":", '"'] as const;

const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 10 || code === 13;

/** The length of the head `{"input":"` at the start of `text` (spaces between tokens allowed); -1: need more; -2: not it. */
function headLength(text: string): number {
  let index = 0;
  for (const token of HEAD) {
    while (index < text.length && isSpace(text.charCodeAt(index))) index++;
    for (let at = 0; at < token.length; at++) {
      if (index + at >= text.length) return -1;
      if (text[index + at] !== token[at]) return -2;
    }
    index += token.length;
  }
  return index;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** Decodes string content up to its closing quote: the text, the rest after the quote, or the cut escape. */
function decodeString(text: string): { text: string; rest?: string; pending: string } {
  let out = "";
  let start = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 34)
      return { text: out + text.slice(start, index), rest: text.slice(index + 1), pending: "" };
    if (code !== 92) {
      index++;
      continue;
    }
    out += text.slice(start, index);
    const kind = text[index + 1];
    if (kind === undefined) return { text: out, pending: text.slice(index) };
    if (kind === "u") {
      if (index + 6 > text.length) return { text: out, pending: text.slice(index) };
      const hex = text.slice(index + 2, index + 6);
      out += /^[0-9a-fA-F]{4}$/.test(hex) ? String.fromCharCode(Number.parseInt(hex, 16)) : hex;
      index += 6;
    } else {
      out += ESCAPES[kind] ?? kind;
      index += 2;
    }
    start = index;
  }
  return { text: out + text.slice(start), pending: "" };
}

/** A first surrogate half at the end of `text` waits for its second (a client may parse each piece as JSON). */
function splitSurrogate(text: string): { text: string; held: string } {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff
    ? { text: text.slice(0, -1), held: text.slice(-1) }
    : { text, held: "" };
}

/** Reads the text after the closing quote: spaces and one `}` are the object's end; anything else is more arguments. */
function tailHasMore(text: string): boolean {
  let closed = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isSpace(code)) continue;
    if (code === 125 && !closed) closed = true;
    else return true;
  }
  return false;
}

/**
 * The next chunk of a call's arguments text: the input text it adds. While inside the string, the
 * text comes out as it arrives (a cut escape or surrogate half waits for the next chunk).
 */
export function unwrapChunk(state: Unwrapping, chunk: string): { state: Unwrapping; text: string } {
  switch (state.phase) {
    case "raw":
      return { state, text: chunk };
    case "tail":
      return state.extra || !tailHasMore(chunk)
        ? { state, text: "" }
        : { state: { phase: "tail", pending: "", extra: true }, text: "" };
    case "head": {
      const text = state.pending + chunk;
      const length = headLength(text);
      if (length === -1) return { state: { phase: "head", pending: text, extra: false }, text: "" };
      if (length === -2) return { state: { phase: "raw", pending: "", extra: false }, text };
      return unwrapChunk({ phase: "string", pending: "", extra: false }, text.slice(length));
    }
    case "string": {
      // `pending` is an escape cut short (raw) or a surrogate half (decoded, not a backslash).
      const held = state.pending.startsWith("\\") ? "" : state.pending;
      const decoded = decodeString(held === "" ? state.pending + chunk : chunk);
      const whole = held + decoded.text;
      if (decoded.rest !== undefined) {
        const extra = tailHasMore(decoded.rest);
        return { state: { phase: "tail", pending: "", extra }, text: whole };
      }
      if (decoded.pending !== "")
        return { state: { phase: "string", pending: decoded.pending, extra: false }, text: whole };
      const split = splitSurrogate(whole);
      return { state: { phase: "string", pending: split.held, extra: false }, text: split.text };
    }
  }
}

/**
 * The end of a call's arguments: what is left of the input, and whether the arguments were exactly
 * `{"input": text}` (or empty). When they were not, their text was passed on as the input (or other
 * arguments beside it were left out): the caller reports it.
 */
export function unwrapEnd(state: Unwrapping): { text: string; exact: boolean } {
  switch (state.phase) {
    case "tail":
      return { text: "", exact: !state.extra };
    case "raw":
      return { text: "", exact: false };
    case "head":
      return { text: state.pending, exact: state.pending.trim() === "" };
    case "string":
      return { text: state.pending, exact: false };
  }
}

/** A call's whole arguments text → its free-form input (one chunk, then the end: what a stream gives). */
export function unwrapText(text: string): { text: string; exact: boolean } {
  const first = unwrapChunk(UNWRAP_START, text);
  const end = unwrapEnd(first.state);
  return { text: first.text + end.text, exact: end.exact };
}
