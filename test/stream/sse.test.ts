import { describe, expect, test } from "vitest";
import { TranslationError } from "../../src/common/errors";
import { protocols } from "../../src/index";
import { createParser, format, type SseMessage } from "../../src/stream/sse";
import { fixtures, readFixture, sseDataPayloads } from "../helpers/fixtures";

const encoder = new TextEncoder();

/** Feeds each piece in turn, records what each feed returned, then what end returned. */
function run(pieces: readonly (string | Uint8Array)[], options?: { maxLineLength?: number }) {
  const parser = createParser(options);
  const perFeed = pieces.map((piece) => parser.feed(piece));
  return { perFeed, atEnd: parser.end() };
}

function parse(...pieces: (string | Uint8Array)[]): SseMessage[] {
  const parser = createParser();
  return [...pieces.flatMap((piece) => parser.feed(piece)), ...parser.end()];
}

describe("createParser", () => {
  test("parses research X11: CRLF, an event split inside its data, a comment and multi-line data", () => {
    expect(
      parse(
        'event: message_start\r\ndata: {"type":',
        '"message_start"}\r\n\r\n: ping\r\n\r\ndata: a\ndata: b\n\n',
      ),
    ).toEqual([{ event: "message_start", data: '{"type":"message_start"}' }, { data: "a\nb" }]);
  });

  test("delivers an event from the feed that brings its blank line", () => {
    const { perFeed } = run(["data: a\n", "\n", "data: b\n\ndata: c"]);
    expect(perFeed).toEqual([[], [{ data: "a" }], [{ data: "b" }]]);
  });

  test("accepts LF, CR and CRLF line ends, mixed in one body", () => {
    expect(parse("data: a\n\ndata: b\r\rdata: c\r\n\r\ndata: d\r\n\n")).toEqual([
      { data: "a" },
      { data: "b" },
      { data: "c" },
      { data: "d" },
    ]);
  });

  test("a line end split from its line across chunks still ends the line", () => {
    expect(parse("data: a", "\n", "\n")).toEqual([{ data: "a" }]);
    expect(parse("data: a", "\r", "\r")).toEqual([{ data: "a" }]);
  });

  test("CRLF split between CR and LF is one line end, not two", () => {
    const { perFeed, atEnd } = run(["data: a\r", "\ndata: b\r", "\n\r", "\n"]);
    expect(perFeed).toEqual([[], [], [{ data: "a\nb" }], []]);
    expect(atEnd).toEqual([]);
  });

  test("a CR at the end of a chunk ends the line at once, so the event is not held back", () => {
    expect(run(["data: a\r\r"]).perFeed).toEqual([[{ data: "a" }]]);
  });

  test("a multi-byte character split across byte chunks decodes whole", () => {
    const bytes = encoder.encode("data: é😀€\n\n");
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(parse(bytes.subarray(0, cut), bytes.subarray(cut))).toEqual([{ data: "é😀€" }]);
    }
    expect(parse(...Array.from(bytes, (byte) => Uint8Array.of(byte)))).toEqual([{ data: "é😀€" }]);
  });

  test("bytes cut off inside a character at the end become U+FFFD", () => {
    expect(parse(encoder.encode("data: €").subarray(0, 8))).toEqual([{ data: "\uFFFD" }]);
  });

  test("strips a BOM at the very start once, for bytes and for text", () => {
    expect(parse(Uint8Array.of(0xef, 0xbb), Uint8Array.of(0xbf), "data: a\n\n")).toEqual([{ data: "a" }]);
    expect(parse("\uFEFF\uFEFFdata: a\n\n")).toEqual([]); // the second BOM is part of a field name
    expect(parse("", "\uFEFFdata: a\n\n")).toEqual([{ data: "a" }]);
    expect(parse("data: \uFEFF\n\n")).toEqual([{ data: "\uFEFF" }]);
  });

  test("ignores comment lines, a bare colon included", () => {
    expect(parse(": keep-alive\n:\ndata: a\n: between\n\n")).toEqual([{ data: "a" }]);
  });

  test("joins data lines with LF and keeps an empty data line", () => {
    expect(parse("data: a\ndata:\ndata: b\n\n")).toEqual([{ data: "a\n\nb" }]);
  });

  test("strips exactly one space after the colon", () => {
    expect(parse("data:a\n\ndata:  a\n\nevent:  e\ndata: x\n\n")).toEqual([
      { data: "a" },
      { data: " a" },
      { event: " e", data: "x" },
    ]);
  });

  test("reads a field without a colon as that field with an empty value", () => {
    expect(parse("data\n\nevent\ndata\ndata\n\n")).toEqual([{ data: "" }, { data: "\n" }]);
  });

  test("an event with empty data is delivered; a block without data lines is not", () => {
    expect(parse("data:\n\nevent: ping\n\nid: 7\n\n")).toEqual([{ data: "" }]);
  });

  test("reads event and id, per event, and drops an id holding NUL", () => {
    expect(parse("event: a\nid: 1\ndata: x\n\ndata: y\n\nid: 2\0\ndata: z\n\nid:\ndata: w\n\n")).toEqual([
      { event: "a", data: "x", id: "1" },
      { data: "y" },
      { data: "z" },
      { data: "w", id: "" },
    ]);
  });

  test("an empty event name means the default type and is left out", () => {
    expect(parse("event:\ndata: x\n\n")).toEqual([{ data: "x" }]);
  });

  test("ignores retry and unknown fields", () => {
    expect(parse("retry: 1000\nfoo: bar\nData: no\ndata: x\n\n")).toEqual([{ data: "x" }]);
  });

  test("end delivers a last event that lacks its blank line, its last line unfinished too", () => {
    expect(run(["data: a\n\ndata: b\n"]).atEnd).toEqual([{ data: "b" }]);
    expect(run(["event: e\ndata: a\ndata: b"]).atEnd).toEqual([{ event: "e", data: "a\nb" }]);
  });

  test("after end the parser starts a fresh body, BOM included", () => {
    const parser = createParser();
    expect(parser.feed("data: a")).toEqual([]);
    expect(parser.end()).toEqual([{ data: "a" }]);
    expect(parser.feed("\uFEFF\ndata: b\n\n")).toEqual([{ data: "b" }]);
  });

  test("a string chunk after bytes cut inside a character turns the stray bytes into U+FFFD", () => {
    expect(parse(Uint8Array.of(0x64, 0x61, 0x74, 0x61, 0x3a, 0xe2, 0x82), "\n\n")).toEqual([
      { data: "\uFFFD" },
    ]);
  });

  test("a line longer than maxLineLength throws a TranslationError naming the limit", () => {
    const parser = createParser({ maxLineLength: 10 });
    expect(parser.feed("data: 1234\n\n")).toEqual([{ data: "1234" }]);
    expect(() => parser.feed("data: 12345\n")).toThrow(/maxLineLength \(10 UTF-16 code units\)/);
    expect(() => parser.feed("data: 1\n\n")).toThrow(TranslationError);
  });

  test("an unfinished line growing past maxLineLength throws before the line ends", () => {
    const parser = createParser({ maxLineLength: 10 });
    expect(parser.feed("data: ")).toEqual([]);
    expect(parser.feed("1234")).toEqual([]);
    expect(() => parser.feed("5")).toThrow(TranslationError);
  });

  test("an event whose data lines together pass maxLineLength throws", () => {
    const parser = createParser({ maxLineLength: 10 });
    expect(() => parser.feed("data:12345\ndata:12345\n")).toThrow(/event's data exceeded maxLineLength/);
  });

  test("a non-positive maxLineLength is a usage error", () => {
    expect(() => createParser({ maxLineLength: 0 })).toThrow(TypeError);
  });
});

describe("format", () => {
  test("writes data with a blank line after it", () => {
    expect(format({ data: '{"a":1}' })).toBe('data: {"a":1}\n\n');
  });

  test("writes event and id before data, each line of data on its own data line", () => {
    expect(format({ event: "message_start", id: "7", data: "a\r\nb\rc\nd" })).toBe(
      "event: message_start\nid: 7\ndata: a\ndata: b\ndata: c\ndata: d\n\n",
    );
  });

  test("writes empty data and an empty id as given", () => {
    expect(format({ data: "", id: "" })).toBe("id: \ndata: \n\n");
  });

  test("refuses an event or id that would break the framing", () => {
    expect(() => format({ event: "a\ndata: injected", data: "x" })).toThrow(TranslationError);
    expect(() => format({ id: "a\r", data: "x" })).toThrow(TranslationError);
    expect(() => format({ id: "a\0", data: "x" })).toThrow(TranslationError);
  });

  test("parsing what format wrote gives the message back", () => {
    const messages: SseMessage[] = [
      { event: "content_block_delta", data: '{"text":"a\\nb"}', id: "1" },
      { data: " leading space" },
      { data: "two\nlines" },
      { data: "" },
      { event: "é😀", data: "" },
    ];
    expect(parse(messages.map(format).join(""))).toEqual(messages);
  });
});

describe("recorded fixture streams", () => {
  const streams = fixtures("stream");

  test.each(streams.map((entry) => [entry.path, entry] as const))(
    "%s parses, every data payload is JSON or [DONE]",
    (_path, entry) => {
      const body = readFixture(entry);
      const messages = parse(encoder.encode(body));
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.map((message) => message.data)).toEqual(sseDataPayloads(body));
      for (const message of messages) {
        if (message.data !== "[DONE]") expect(() => JSON.parse(message.data)).not.toThrow();
      }
    },
  );

  test("covers every protocol", () => {
    const recorded = new Set<string>(streams.map((entry) => entry.protocol));
    for (const protocol of protocols) expect(recorded).toContain(protocol);
  });
});
