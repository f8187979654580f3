/**
 * Incremental splitter for a generative stream sent as one JSON array (`streamGenerateContent` without `alt=sse`).
 * It frames elements; it does not validate them: each element's text goes to `JSON.parse` next.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
import { TranslationError } from "../../common/errors";
import { createUtf8Decoder, type Utf8Decoder } from "../../common/utf8";

export type JsonArrayParserOptions = {
  /**
   * The longest element, in UTF-16 code units. Past it `feed` throws a TranslationError instead of buffering without bound.
   * @defaultValue 67_108_864 (64 Mi), the same as the SSE line limit.
   */
  maxElementLength?: number;
};

export type JsonArrayParser = {
  /** Parses the next piece of the body (cut anywhere) and returns the JSON text of each element it completed. */
  feed(chunk: string | Uint8Array): string[];
  /** Ends the body; throws a TranslationError when it was cut off inside an element. The parser is then fresh. */
  end(): string[];
};

const BEFORE_ARRAY = 0;
const BEFORE_ELEMENT = 1;
const IN_ELEMENT = 2;
const AFTER_ELEMENT = 3;
const DONE = 4;

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const QUOTE = 34;
const COMMA = 44;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const BOM = 0xfeff;

const isWhitespace = (code: number): boolean => code === SPACE || code === LF || code === CR || code === TAB;

/** What a parser has seen: where in the array it is, and the element it is in. */
type State = {
  readonly maxElementLength: number;
  decoder: Utf8Decoder | undefined;
  atStart: boolean;
  phase: number;
  afterComma: boolean;
  /** The body is one object, not an array. */
  bare: boolean;
  /** The element is a number or literal: it ends at a delimiter, not a bracket. */
  scalar: boolean;
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** The unfinished element, in the pieces it arrived in. */
  fragments: string[];
  fragmentsLength: number;
  failure: TranslationError | undefined;
};
function fail(state: State, message: string): never {
  state.failure = new TranslationError(message);
  state.fragments = [];
  state.fragmentsLength = 0;
  throw state.failure;
}

function unexpected(state: State, code: number, where: string): never {
  return fail(
    state,
    `The JSON-array stream has ${JSON.stringify(String.fromCharCode(code))} ${where}; it is not a JSON array.`,
  );
}

function tooLong(state: State): never {
  return fail(
    state,
    `A JSON-array stream element exceeded state.maxElementLength (${state.maxElementLength} UTF-16 code units); raise it with createJsonArrayParser({ state.maxElementLength }) if the stream is legitimate.`,
  );
}

function emit(state: State, text: string, start: number, end: number, elements: string[]): void {
  if (state.fragmentsLength + end - start > state.maxElementLength) tooLong(state);
  const piece = text.slice(start, end);
  elements.push(state.fragments.length === 0 ? piece : state.fragments.join("") + piece);
  state.fragments = [];
  state.fragmentsLength = 0;
  state.phase = state.bare ? DONE : AFTER_ELEMENT;
}

/**
 * Scans an element from `index` (the string, escape and nesting state carried over from earlier pieces);
 * returns where it stopped: past the element's end (emitted), or `text.length`.
 */
function scanElement(state: State, text: string, index: number, start: number, elements: string[]): number {
  const length = text.length;
  // Next quote and backslash at or after `index`; -2 = not looked for yet, -1 = none left. Forward-only scans.
  let quote = -2;
  let backslash = -2;
  while (index < length) {
    if (state.inString) {
      if (state.escaped) {
        state.escaped = false;
        index++;
        continue;
      }
      if (quote !== -1 && quote < index) quote = text.indexOf('"', index);
      if (backslash !== -1 && backslash < index) backslash = text.indexOf("\\", index);
      if (backslash !== -1 && (quote === -1 || backslash < quote)) {
        state.escaped = true;
        index = backslash + 1;
        continue;
      }
      if (quote === -1) return length;
      index = quote + 1;
      state.inString = false;
      if (state.depth === 0) {
        emit(state, text, start, index, elements);
        return index;
      }
      continue;
    }
    const code = text.charCodeAt(index);
    if (state.scalar) {
      if (isWhitespace(code) || code === COMMA || code === CLOSE_BRACKET) {
        emit(state, text, start, index, elements);
        return index; // the delimiter belongs to the array
      }
    } else if (code === QUOTE) {
      state.inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      state.depth++;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      state.depth--;
      if (state.depth === 0) {
        emit(state, text, start, index + 1, elements);
        return index + 1;
      }
    }
    index++;
  }
  return length;
}

/** One character of the array's structure (outside any element, not whitespace); returns the next index. */
function scanStructure(state: State, code: number, index: number): number {
  switch (state.phase) {
    case BEFORE_ARRAY:
      if (code === OPEN_BRACKET) {
        state.phase = BEFORE_ELEMENT;
        return index + 1;
      }
      if (code !== OPEN_BRACE) unexpected(state, code, "where the array should open");
      state.bare = true;
      state.phase = BEFORE_ELEMENT;
      return index;
    case BEFORE_ELEMENT:
      if (code === CLOSE_BRACKET && !state.afterComma && !state.bare) {
        state.phase = DONE;
        return index + 1;
      }
      if (code === CLOSE_BRACKET || code === COMMA || code === CLOSE_BRACE)
        unexpected(state, code, "where an element should start");
      // Start an element; this character is scanned again as its first.
      state.phase = IN_ELEMENT;
      state.afterComma = false;
      state.depth = 0;
      state.scalar = code !== OPEN_BRACE && code !== OPEN_BRACKET && code !== QUOTE;
      return index;
    case AFTER_ELEMENT:
      if (code === COMMA) {
        state.phase = BEFORE_ELEMENT;
        state.afterComma = true;
      } else if (code === CLOSE_BRACKET) state.phase = DONE;
      else unexpected(state, code, "between elements");
      return index + 1;
    default:
      return unexpected(state, code, "after the end of the array");
  }
}

function feedText(state: State, text: string, elements: string[]): void {
  const length = text.length;
  let index = 0;
  if (length > 0 && state.atStart) {
    state.atStart = false;
    if (text.charCodeAt(0) === BOM) index = 1;
  }
  let start = 0; // where the current element begins in `text`
  while (index < length) {
    if (state.phase === IN_ELEMENT) {
      index = scanElement(state, text, index, start, elements);
      continue;
    }
    const code = text.charCodeAt(index);
    if (isWhitespace(code)) {
      index++;
      continue;
    }
    const before = state.phase;
    index = scanStructure(state, code, index);
    if (before !== IN_ELEMENT && state.phase === IN_ELEMENT) start = index;
  }
  if (state.phase === IN_ELEMENT && start < length) {
    const rest = start === 0 ? text : text.slice(start);
    state.fragmentsLength += rest.length;
    if (state.fragmentsLength > state.maxElementLength) tooLong(state);
    state.fragments.push(rest);
  }
}

/**
 * Splits `[{…},\r\n{…}]` into the text of each element as soon as its closing brace arrives. A body that is
 * one bare object (`{"error":…}`, sent instead of an array) yields that object as the single element.
 * @example
 * const parser = createJsonArrayParser();
 * parser.feed('[{"a":"}"},\r\n{"b"'); // => ['{"a":"}"}']
 * parser.feed(":2}]");                // => ['{"b":2}']
 */
export function createJsonArrayParser(options: JsonArrayParserOptions = {}): JsonArrayParser {
  const maxElementLength =
    options.maxElementLength === undefined ? 64 * 1024 * 1024 : options.maxElementLength;
  if (!(maxElementLength > 0)) {
    throw new TypeError("createJsonArrayParser: `maxElementLength` must be a positive number.");
  }
  const state: State = {
    maxElementLength,
    decoder: undefined,
    atStart: true,
    phase: BEFORE_ARRAY,
    afterComma: false,
    bare: false,
    scalar: false,
    depth: 0,
    inString: false,
    escaped: false,
    fragments: [],
    fragmentsLength: 0,
    failure: undefined,
  };
  return {
    feed(chunk) {
      if (state.failure !== undefined) throw state.failure;
      const elements: string[] = [];
      if (typeof chunk === "string") {
        if (state.decoder !== undefined) feedText(state, state.decoder.end(), elements);
        feedText(state, chunk, elements);
      } else {
        state.decoder ??= createUtf8Decoder();
        feedText(state, state.decoder.decode(chunk), elements);
      }
      return elements;
    },
    end() {
      if (state.failure !== undefined) throw state.failure;
      const elements: string[] = [];
      if (state.decoder !== undefined) feedText(state, state.decoder.end(), elements);
      if (state.phase === IN_ELEMENT) {
        fail(
          state,
          `The JSON-array stream was cut off inside an element (${state.fragmentsLength} characters of it arrived); the upstream response is incomplete.`,
        );
      }
      state.decoder = undefined;
      state.atStart = true;
      state.phase = BEFORE_ARRAY;
      state.afterComma = false;
      state.bare = false;
      return elements;
    },
  };
}

/**
 * Which byte framing a streamed generative body uses, from its first non-whitespace character: `[` (or a bare
 * `{`) is a JSON array, anything else (`d` of `data:`, `:` of a comment, `e` of `event:`) is SSE.
 * @example
 * sniffStreamFormat("[");  // => "json-array"
 * sniffStreamFormat("d");  // => "sse"
 */
export function sniffStreamFormat(firstNonWhitespaceChar: string): "json-array" | "sse" {
  const code = firstNonWhitespaceChar.charCodeAt(0);
  return code === OPEN_BRACKET || code === OPEN_BRACE ? "json-array" : "sse";
}

/**
 * Whether a streamed generative body whose first bytes are `first` is a JSON array (`sniffStreamFormat`
 * on its first non-whitespace byte); a chunk of whitespace only is not.
 */
export function startsJsonArray(first: Uint8Array): boolean {
  let at = 0;
  while (at < first.length && isWhitespace(first[at] as number)) at++;
  return at < first.length && sniffStreamFormat(String.fromCharCode(first[at] as number)) === "json-array";
}
