/**
 * Server-sent events framing: an incremental parser and a formatter. No protocol knowledge lives here.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
import { TranslationError } from "../common/errors";
import { createUtf8Decoder, type Utf8Decoder } from "../common/utf8";

/** One dispatched event. `id` is the id given in this event's own block; it is not carried over to later events. */
export type SseMessage = { event?: string; data: string; id?: string };

/** Options of `createParser`. */
export type SseParserOptions = {
  /**
   * The longest line, and the longest joined `data` of one event, in UTF-16 code units. Past it `feed`
   * throws a TranslationError instead of buffering without bound.
   * @defaultValue 67_108_864 (64 Mi): generous, because inline base64 images from image models can pass 16 Mi.
   */
  maxLineLength?: number;
};

/** An incremental SSE parser, made by `createParser`. */
export type SseParser = {
  /** Parses the next piece of the body (cut anywhere, even inside a UTF-8 sequence) and returns the events it completed. */
  feed(chunk: string | Uint8Array): SseMessage[];
  /** Ends the body: a last event without its blank line is delivered. The parser is then fresh for a new body. */
  end(): SseMessage[];
};

/** The default `maxLineLength` of `createParser`: 64 Mi UTF-16 code units. */
export const defaultMaxLineLength = 64 * 1024 * 1024;

const LF = 10;
const SPACE = 32;
const COLON = 58;
const BOM = 0xfeff;

/**
 * An incremental SSE parser: LF, CR and CRLF line ends, comments, multi-line `data`, a single optional space
 * after the colon, a leading BOM. Unknown fields and `retry` are ignored.
 * @example
 * const parser = createParser();
 * parser.feed("event: ping\ndata: a\n"); // => []
 * parser.feed("data: b\n\n");            // => [{ event: "ping", data: "a\nb" }]
 */
export function createParser(options: SseParserOptions = {}): SseParser {
  const maxLineLength = options.maxLineLength === undefined ? defaultMaxLineLength : options.maxLineLength;
  if (!(maxLineLength > 0)) throw new TypeError("createParser: `maxLineLength` must be a positive number.");

  let decoder: Utf8Decoder | undefined;
  let atStart = true; // no character seen yet: a BOM here is dropped
  let skipLf = false; // the last text ended in CR, so a leading LF completes that CRLF
  let fragments: string[] = []; // the unfinished line, in the pieces it arrived in
  let fragmentsLength = 0;
  let data = "";
  let dataLines = 0;
  let eventType: string | undefined;
  let id: string | undefined;
  let failure: TranslationError | undefined;

  function fail(what: string): never {
    failure = new TranslationError(
      `An SSE ${what} exceeded maxLineLength (${maxLineLength} UTF-16 code units); raise it with createParser({ maxLineLength }) if the stream is legitimate.`,
    );
    fragments = [];
    fragmentsLength = 0;
    data = "";
    throw failure;
  }

  function dispatch(messages: SseMessage[]): void {
    if (dataLines > 0) {
      if (eventType === undefined) messages.push(id === undefined ? { data } : { data, id });
      else messages.push(id === undefined ? { event: eventType, data } : { event: eventType, data, id });
    }
    data = "";
    dataLines = 0;
    eventType = undefined;
    id = undefined;
  }

  function appendData(value: string): void {
    data = dataLines === 0 ? value : `${data}\n${value}`;
    dataLines++;
    if (data.length > maxLineLength) fail("event's data");
  }

  // One line: text[start, end), without its line end.
  function line(text: string, start: number, end: number, messages: SseMessage[]): void {
    if (start === end) {
      dispatch(messages);
      return;
    }
    const first = text.charCodeAt(start);
    if (first === COLON) return;
    // "data:" is nearly every line of an LLM stream: recognise it without slicing the field name.
    if (
      first === 100 &&
      text.charCodeAt(start + 1) === 97 &&
      text.charCodeAt(start + 2) === 116 &&
      text.charCodeAt(start + 3) === 97 &&
      text.charCodeAt(start + 4) === COLON
    ) {
      appendData(text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end));
      return;
    }
    let colon = start;
    while (colon < end && text.charCodeAt(colon) !== COLON) colon++;
    const field = text.slice(start, colon);
    let valueStart = colon + 1;
    if (valueStart < end && text.charCodeAt(valueStart) === SPACE) valueStart++;
    const value = valueStart < end ? text.slice(valueStart, end) : "";
    switch (field) {
      case "data":
        appendData(value);
        return;
      case "event":
        // An empty event type means the default ("message"), which we express as absent.
        eventType = value === "" ? undefined : value;
        return;
      case "id":
        if (!value.includes("\0")) id = value;
        return;
    }
  }

  function feedText(text: string, messages: SseMessage[]): void {
    if (text.length === 0) return;
    if (atStart) {
      atStart = false;
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
    }
    if (fragments.length > 0) {
      if (text.indexOf("\n") === -1 && text.indexOf("\r") === -1) {
        fragments.push(text);
        fragmentsLength += text.length;
        if (fragmentsLength > maxLineLength) fail("line");
        return;
      }
      fragments.push(text);
      text = fragments.join("");
      fragments = [];
      fragmentsLength = 0;
    }
    const length = text.length;
    let position = 0;
    if (skipLf) {
      skipLf = false;
      if (text.charCodeAt(0) === LF) position = 1;
    }
    // Both scans move forward only, so a chunk costs O(length) however its lines end.
    let lf = text.indexOf("\n", position);
    let cr = text.indexOf("\r", position);
    while (lf !== -1 || cr !== -1) {
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (end - position > maxLineLength) fail("line");
      line(text, position, end, messages);
      if (end === lf) {
        position = end + 1;
        lf = text.indexOf("\n", position);
      } else if (end + 1 === length) {
        position = length;
        skipLf = true; // the CR ended the line; an LF opening the next chunk is its other half
        break;
      } else {
        position = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
        cr = text.indexOf("\r", position);
        if (lf !== -1 && lf < position) lf = text.indexOf("\n", position);
      }
    }
    if (position < length) {
      const rest = position === 0 ? text : text.slice(position);
      if (rest.length > maxLineLength) fail("line");
      fragments.push(rest);
      fragmentsLength = rest.length;
    }
  }

  return {
    feed(chunk) {
      if (failure !== undefined) throw failure;
      const messages: SseMessage[] = [];
      if (typeof chunk === "string") {
        // Bytes cut mid-character and then a string: the stray bytes become U+FFFD, as at the end of a body.
        if (decoder !== undefined) feedText(decoder.end(), messages);
        feedText(chunk, messages);
      } else {
        // The decoder keeps the BOM in the text so one rule strips it for string and byte input alike.
        decoder ??= createUtf8Decoder();
        feedText(decoder.decode(chunk), messages);
      }
      return messages;
    },
    end() {
      if (failure !== undefined) throw failure;
      const messages: SseMessage[] = [];
      if (decoder !== undefined) feedText(decoder.end(), messages);
      if (fragments.length > 0) {
        const last = fragments.join("");
        line(last, 0, last.length, messages);
      }
      dispatch(messages);
      decoder = undefined;
      atStart = true;
      skipLf = false;
      fragments = [];
      fragmentsLength = 0;
      return messages;
    },
  };
}

function checkField(name: "event" | "id", value: string): void {
  if (
    value.indexOf("\n") !== -1 ||
    value.indexOf("\r") !== -1 ||
    (name === "id" && value.indexOf("\0") !== -1)
  ) {
    throw new TranslationError(
      `An SSE \`${name}\` cannot contain a line break${name === "id" ? " or NUL" : ""}; it would change the framing.`,
    );
  }
}

/**
 * One event as SSE text: `event:` and `id:` when set, one `data:` line per line of `data`, then a blank line.
 * @example
 * format({ event: "ping", data: "a\nb" }); // => "event: ping\ndata: a\ndata: b\n\n"
 */
export function format(message: SseMessage): string {
  let head = "";
  if (message.event !== undefined) {
    checkField("event", message.event);
    head = `event: ${message.event}\n`;
  }
  if (message.id !== undefined) {
    checkField("id", message.id);
    head += `id: ${message.id}\n`;
  }
  const data = message.data;
  if (data.indexOf("\n") === -1 && data.indexOf("\r") === -1) return `${head}data: ${data}\n\n`;
  return `${head}data: ${data.replace(/\r\n|\r|\n/g, "\ndata: ")}\n\n`;
}

/**
 * An SSE body's events as their `data` texts, one chunk per event: what a transport that frames each
 * event itself sends as one message (a WebSocket: Responses over WebSocket carries the same events as
 * SSE, one JSON object a message). Events without data are skipped; a body that breaks the parser's
 * limits errors the output, as `createParser` throws.
 * @example
 * translateEventStream("chat", "responses", body, options).pipeThrough(sse.createDataStream());
 * // => a ReadableStream<string> of `{"type":"response.created",…}`, `{"type":"response.in_progress",…}` …
 */
export function createDataStream(options: SseParserOptions = {}): TransformStream<Uint8Array, string> {
  const parser = createParser(options);
  const send = (messages: SseMessage[], controller: TransformStreamDefaultController<string>): void => {
    for (const message of messages) if (message.data !== "") controller.enqueue(message.data);
  };
  return new TransformStream<Uint8Array, string>({
    transform(chunk, controller) {
      send(parser.feed(chunk), controller);
    },
    flush(controller) {
      send(parser.end(), controller);
    },
  });
}
