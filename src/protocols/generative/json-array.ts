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

  let decoder: Utf8Decoder | undefined;
  let atStart = true;
  let phase = BEFORE_ARRAY;
  let afterComma = false;
  let bare = false; // the body is one object, not an array
  let scalar = false; // the element is a number or literal: it ends at a delimiter, not a bracket
  let depth = 0;
  let inString = false;
  let escaped = false;
  let fragments: string[] = []; // the unfinished element, in the pieces it arrived in
  let fragmentsLength = 0;
  let failure: TranslationError | undefined;

  function fail(message: string): never {
    failure = new TranslationError(message);
    fragments = [];
    fragmentsLength = 0;
    throw failure;
  }

  function unexpected(code: number, where: string): never {
    return fail(
      `The JSON-array stream has ${JSON.stringify(String.fromCharCode(code))} ${where}; it is not a JSON array.`,
    );
  }

  function tooLong(): never {
    return fail(
      `A JSON-array stream element exceeded maxElementLength (${maxElementLength} UTF-16 code units); raise it with createJsonArrayParser({ maxElementLength }) if the stream is legitimate.`,
    );
  }

  function emit(text: string, start: number, end: number, elements: string[]): void {
    if (fragmentsLength + end - start > maxElementLength) tooLong();
    const piece = text.slice(start, end);
    elements.push(fragments.length === 0 ? piece : fragments.join("") + piece);
    fragments = [];
    fragmentsLength = 0;
    phase = bare ? DONE : AFTER_ELEMENT;
  }

  function feedText(text: string, elements: string[]): void {
    const length = text.length;
    let index = 0;
    if (length > 0 && atStart) {
      atStart = false;
      if (text.charCodeAt(0) === BOM) index = 1;
    }
    let start = 0; // where the current element begins in `text`
    // Next quote and backslash at or after `index`; -2 = not looked for yet, -1 = none left. Forward-only scans.
    let quote = -2;
    let backslash = -2;
    while (index < length) {
      if (phase === IN_ELEMENT) {
        if (inString) {
          if (escaped) {
            escaped = false;
            index++;
            continue;
          }
          if (quote !== -1 && quote < index) quote = text.indexOf('"', index);
          if (backslash !== -1 && backslash < index) backslash = text.indexOf("\\", index);
          if (backslash !== -1 && (quote === -1 || backslash < quote)) {
            escaped = true;
            index = backslash + 1;
            continue;
          }
          if (quote === -1) {
            index = length;
            break;
          }
          index = quote + 1;
          inString = false;
          if (depth === 0) emit(text, start, index, elements);
          continue;
        }
        const code = text.charCodeAt(index);
        if (scalar) {
          if (isWhitespace(code) || code === COMMA || code === CLOSE_BRACKET) {
            emit(text, start, index, elements);
            continue; // the delimiter belongs to the array
          }
        } else if (code === QUOTE) {
          inString = true;
        } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
          depth++;
        } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
          depth--;
          if (depth === 0) {
            emit(text, start, index + 1, elements);
            index++;
            continue;
          }
        }
        index++;
        continue;
      }
      const code = text.charCodeAt(index);
      if (isWhitespace(code)) {
        index++;
        continue;
      }
      if (phase === BEFORE_ARRAY) {
        if (code === OPEN_BRACKET) {
          phase = BEFORE_ELEMENT;
          index++;
        } else if (code === OPEN_BRACE) {
          bare = true;
          phase = BEFORE_ELEMENT;
        } else {
          unexpected(code, "where the array should open");
        }
      } else if (phase === BEFORE_ELEMENT) {
        if (code === CLOSE_BRACKET && !afterComma && !bare) {
          phase = DONE;
          index++;
        } else if (code === CLOSE_BRACKET || code === COMMA || code === CLOSE_BRACE) {
          unexpected(code, "where an element should start");
        } else {
          // Start an element; this character is scanned again as its first.
          phase = IN_ELEMENT;
          afterComma = false;
          start = index;
          depth = 0;
          scalar = code !== OPEN_BRACE && code !== OPEN_BRACKET && code !== QUOTE;
        }
      } else if (phase === AFTER_ELEMENT) {
        if (code === COMMA) {
          phase = BEFORE_ELEMENT;
          afterComma = true;
        } else if (code === CLOSE_BRACKET) {
          phase = DONE;
        } else {
          unexpected(code, "between elements");
        }
        index++;
      } else {
        unexpected(code, "after the end of the array");
      }
    }
    if (phase === IN_ELEMENT && start < length) {
      const rest = start === 0 ? text : text.slice(start);
      fragmentsLength += rest.length;
      if (fragmentsLength > maxElementLength) tooLong();
      fragments.push(rest);
    }
  }

  return {
    feed(chunk) {
      if (failure !== undefined) throw failure;
      const elements: string[] = [];
      if (typeof chunk === "string") {
        if (decoder !== undefined) feedText(decoder.end(), elements);
        feedText(chunk, elements);
      } else {
        decoder ??= createUtf8Decoder();
        feedText(decoder.decode(chunk), elements);
      }
      return elements;
    },
    end() {
      if (failure !== undefined) throw failure;
      const elements: string[] = [];
      if (decoder !== undefined) feedText(decoder.end(), elements);
      if (phase === IN_ELEMENT) {
        fail(
          `The JSON-array stream was cut off inside an element (${fragmentsLength} characters of it arrived); the upstream response is incomplete.`,
        );
      }
      decoder = undefined;
      atStart = true;
      phase = BEFORE_ARRAY;
      afterComma = false;
      bare = false;
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
