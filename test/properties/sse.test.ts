/**
 * The framing laws: SSE and JSON-array bodies give the same events however the bytes are cut, SSE
 * `format` then parse gives the messages back, and a model-based run of feed/end against a plain oracle.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createJsonArrayParser } from "../../src/protocols/generative/json-array";
import { createParser, format, type SseMessage } from "../../src/stream/sse";
import {
  jsonArrayBodyArb,
  splitPointsArb,
  sseBodyArb,
  sseMessageArb,
} from "../../src/testing/arbitraries/sse";
import { cutAt } from "../../src/testing/bytes";
import { fixtures, readFixture } from "../helpers/fixtures";
import { EndCommand } from "./model/end-command";
import { FeedCommand } from "./model/feed-command";
import { referenceParse, type SseModel, type SseReal } from "./model/sse-reference";

const encoder = new TextEncoder();

function parseAll(pieces: readonly (string | Uint8Array)[]): SseMessage[] {
  const parser = createParser();
  const messages = pieces.flatMap((piece) => parser.feed(piece));
  return [...messages, ...parser.end()];
}

function splitAll(pieces: readonly (string | Uint8Array)[]): string[] {
  const parser = createJsonArrayParser();
  const elements = pieces.flatMap((piece) => parser.feed(piece));
  return [...elements, ...parser.end()];
}

const streamFixtureArb = fc.constantFrom(...fixtures("stream"));

describe("framing arbitraries", () => {
  test("every generated SSE message is one format accepts", () => {
    fc.assert(fc.property(sseMessageArb, (message) => void format(message)));
  });

  test("every generated JSON-array body is the array JSON.parse reads", () => {
    fc.assert(
      fc.property(jsonArrayBodyArb, ({ body, elements }) => {
        expect(JSON.parse(body.replace(/^\uFEFF/, ""))).toEqual(elements);
      }),
    );
  });
});

describe("SSE parser", () => {
  test("the same bytes cut at any offsets, inside UTF-8 sequences included, give the same messages", () => {
    fc.assert(
      fc.property(sseBodyArb, splitPointsArb, (body, offsets) => {
        const bytes = encoder.encode(body);
        expect(parseAll(cutAt(bytes, offsets))).toEqual(parseAll([bytes]));
      }),
    );
  });

  test("the same text cut at any offsets, inside surrogate pairs included, gives the same messages", () => {
    fc.assert(
      fc.property(sseBodyArb, splitPointsArb, (body, offsets) => {
        expect(parseAll(cutAt(body, offsets))).toEqual(parseAll([body]));
      }),
    );
  });

  test("a recorded fixture stream cut at any offsets gives the same messages", () => {
    fc.assert(
      fc.property(streamFixtureArb, splitPointsArb, (entry, offsets) => {
        const bytes = encoder.encode(readFixture(entry));
        const messages = parseAll(cutAt(bytes, offsets));
        expect(messages).toEqual(parseAll([bytes]));
        expect(messages.length).toBeGreaterThan(0);
      }),
    );
  });

  test("parsing the formatted messages gives the messages back, line breaks in data read as LF", () => {
    fc.assert(
      fc.property(fc.array(sseMessageArb, { maxLength: 8 }), splitPointsArb, (messages, offsets) => {
        const body = encoder.encode(messages.map(format).join(""));
        const expected = messages.map((message) => ({
          ...message,
          data: message.data.replace(/\r\n|\r|\n/g, "\n"),
        }));
        expect(parseAll(cutAt(body, offsets))).toEqual(expected);
      }),
    );
  });

  test("feeding and ending in any order agrees with parsing each whole body at once", () => {
    fc.assert(
      fc.property(
        sseBodyArb,
        fc.commands(
          [fc.nat({ max: 40 }).map((size) => new FeedCommand(size)), fc.constant(new EndCommand())],
          {
            maxCommands: 40,
          },
        ),
        (body, commands) => {
          const bytes = encoder.encode(body);
          const model: SseModel = { bytes, offset: 0, segmentStart: 0, delivered: [] };
          const real: SseReal = { parser: createParser() };
          fc.modelRun(() => ({ model, real }), commands);
          // Whatever the commands left over, the rest of the body and an end must still agree with the oracle.
          model.delivered.push(...real.parser.feed(bytes.subarray(model.offset)), ...real.parser.end());
          expect(model.delivered).toEqual(referenceParse(bytes.subarray(model.segmentStart), true));
        },
      ),
    );
  });
});

describe("JSON-array splitter", () => {
  test("the same array cut at any byte offsets gives the elements JSON.parse finds in the whole", () => {
    fc.assert(
      fc.property(jsonArrayBodyArb, splitPointsArb, ({ body, elements, texts }, offsets) => {
        const split = splitAll(cutAt(encoder.encode(body), offsets));
        expect(split).toEqual(texts);
        expect(split.map((text) => JSON.parse(text))).toEqual(elements);
      }),
    );
  });

  test("the same array cut at any text offsets gives the same elements", () => {
    fc.assert(
      fc.property(jsonArrayBodyArb, splitPointsArb, ({ body, texts }, offsets) => {
        expect(splitAll(cutAt(body, offsets))).toEqual(texts);
      }),
    );
  });

  test("a body cut off inside an element is rejected at end, whatever the chunking", () => {
    fc.assert(
      fc.property(jsonArrayBodyArb, splitPointsArb, fc.nat(), ({ body, texts }, offsets, seed) => {
        fc.pre(texts.length > 0);
        const first = texts[0] ?? "";
        // The first element starts right after "["; keep at least one of its characters and never all of a bracketed one.
        const cut = body.indexOf("[") + 1 + 1 + (seed % Math.max(1, first.length - 1));
        const parser = createJsonArrayParser();
        for (const piece of cutAt(encoder.encode(body.slice(0, cut)), offsets)) {
          expect(parser.feed(piece)).toEqual([]);
        }
        expect(() => parser.end()).toThrow(/cut off inside an element/);
      }),
    );
  });
});
