import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { type Protocol, protocols } from "../../src/index";
import { adapters } from "../../src/protocols";
import { createRepeatParser as createWithPaths } from "../../src/stream/repeat";
import { arbitraries } from "../../src/testing/index";

const parse = (data: string): unknown => JSON.parse(data);
/** The parser translateEventStream builds for a source protocol: its adapter's delta paths. */
const createRepeatParser = (protocol: Protocol, parseData: (data: string) => unknown) =>
  createWithPaths(adapters[protocol].deltaStrings, parseData);

/** Runs a parser over data strings; every result must equal JSON.parse of the same text. */
function expectSameAsParse(protocol: Protocol, texts: readonly string[]): void {
  const parser = createRepeatParser(protocol, parse);
  for (const text of texts) expect(parser(text)).toEqual(JSON.parse(text));
}

const chatDelta = (content: string, tail = ""): string =>
  `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${content}}${tail}}]}`;
const messagesDelta = (text: string, tail = ""): string =>
  `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":${text}${tail}}}`;

const responsesDelta = (sequence: string, text: string, nonce: string, tail = ""): string =>
  `{"type":"response.output_text.delta","sequence_number":${sequence},"item_id":"msg_1","output_index":0,"content_index":0,"delta":${text},"logprobs":[]${tail},"obfuscation":${nonce}}`;

/** Spellings of a counter, valid JSON or not: the parser must agree with JSON.parse on each. */
const counterArb = fc.oneof(
  fc.nat().map(String),
  fc.constantFrom(
    "0",
    "00",
    "07",
    "-1",
    "-0",
    "1.5",
    "1e3",
    "2E1",
    "1.",
    "9007199254740993",
    "1234567890123456",
    "",
    " 1",
    "1 ",
  ),
);

/** Strings that stress the literal: escapes, quotes, control characters, lone surrogates, JSON look-alikes. */
const awkwardText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', "\\", "\n", "\u0000", "\u2028", "\ud800", "é", "😀", '","x":"', "}", "]"),
    fc.string({ unit: "binary", maxLength: 3 }),
  ),
  maxLength: 12,
});

/** A JSON string literal for `text`, spelled plainly or with every character escaped as \uXXXX. */
const literalArb = (text: string) =>
  fc.constantFrom(
    JSON.stringify(text),
    `"${[...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"`,
  );

describe("createRepeatParser: JSON.parse, reusing the previous event when only its delta string changed", () => {
  test.prop([fc.array(awkwardText.chain(literalArb), { minLength: 1, maxLength: 8 })])(
    "chat content deltas: equal to JSON.parse whatever the literals",
    (literals) =>
      expectSameAsParse(
        "chat",
        literals.map((literal) => chatDelta(literal)),
      ),
  );

  test.prop([fc.array(awkwardText.chain(literalArb), { minLength: 1, maxLength: 8 })])(
    "messages text deltas: equal to JSON.parse whatever the literals",
    (literals) =>
      expectSameAsParse(
        "messages",
        literals.map((literal) => messagesDelta(literal)),
      ),
  );

  for (const protocol of protocols) {
    test.prop([fc.oneof(arbitraries.streamEvents(protocol), arbitraries.anyStreamEvents(protocol))])(
      `${protocol} streams from the arbitraries: every event equal to JSON.parse`,
      (events) =>
        expectSameAsParse(
          protocol,
          events.map((event) => JSON.stringify(event)),
        ),
    );
  }

  test.prop([
    fc.array(fc.tuple(counterArb, awkwardText.chain(literalArb), awkwardText.chain(literalArb)), {
      minLength: 1,
      maxLength: 8,
    }),
  ])(
    "responses deltas, their counter and nonce changing too: equal to JSON.parse (or its error)",
    (events) => {
      const parser = createRepeatParser("responses", parse);
      for (const [sequence, text, nonce] of events) {
        const data = responsesDelta(sequence, text, nonce);
        let expected: unknown;
        try {
          expected = JSON.parse(data);
        } catch {
          expect(() => parser(data)).toThrow(SyntaxError);
          continue;
        }
        expect(parser(data)).toEqual(expected);
      }
    },
  );

  test("a counter and a nonce that change with every delta still reuse the template", () => {
    let parsed = 0;
    const parser = createRepeatParser("responses", (data) => {
      parsed++;
      return JSON.parse(data);
    });
    const texts = ["Hel", "lo", ' "w"', "\\n", "é", ""];
    texts.forEach((text, index) => {
      const data = responsesDelta(String(index + 9), JSON.stringify(text), JSON.stringify(`n${index}x`));
      expect(parser(data)).toEqual(JSON.parse(data));
    });
    expect(parsed).toBe(1);
    // Chat: OpenAI's per-chunk `obfuscation` nonce beside the content.
    parsed = 0;
    const chat = (content: string, nonce: string) =>
      `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${content}}}],"obfuscation":${nonce}}`;
    const chatParser = createRepeatParser("chat", (data) => {
      parsed++;
      return JSON.parse(data);
    });
    for (const [content, nonce] of [
      ['"a"', '"x1"'],
      ['"b"', '"y22"'],
      ['"c\\n"', '"z"'],
    ] as const)
      expect(chatParser(chat(content, nonce))).toEqual(JSON.parse(chat(content, nonce)));
    expect(parsed).toBe(1);
  });

  test("a counter spelled otherwise than its digits (fraction, exponent, leading zero, sign) is parsed in full", () => {
    for (const odd of ["5.0", "5e0", "05", "-5", "1.5", "1e400", "12345678901234567890"]) {
      const texts = [responsesDelta("4", '"a"', '"n"'), responsesDelta(odd, '"b"', '"n"')];
      const parser = createRepeatParser("responses", parse);
      expect(parser(texts[0] as string)).toEqual(JSON.parse(texts[0] as string));
      let expected: unknown;
      try {
        expected = JSON.parse(texts[1] as string);
      } catch {
        expect(() => parser(texts[1] as string)).toThrow(SyntaxError);
        continue;
      }
      const got = parser(texts[1] as string);
      expect(got).toEqual(expected);
      expect(
        Object.is(
          (got as { sequence_number: number }).sequence_number,
          (expected as { sequence_number: number }).sequence_number,
        ),
      ).toBe(true);
    }
  });

  test("a counter key that occurs twice (JSON.parse: last wins) is never replaced in its place", () => {
    expectSameAsParse("responses", [
      responsesDelta("1", '"a"', '"n"', ',"sequence_number":1'),
      responsesDelta("2", '"b"', '"n"', ',"sequence_number":1'),
    ]);
    expectSameAsParse("responses", [
      responsesDelta("1", '"a"', '"n"', ',"sequence_numbe\\u0072":1'),
      responsesDelta("2", '"b"', '"n"', ',"sequence_numbe\\u0072":1'),
    ]);
  });

  test("a duplicate key after the delta string is never replaced in its place (JSON.parse: last wins)", () => {
    expectSameAsParse("chat", [
      chatDelta('"a"', ',"delta":{"content":"a"}'),
      chatDelta('"b"', ',"delta":{"content":"a"}'),
    ]);
    expectSameAsParse("messages", [messagesDelta('"a"', ',"text":"a"'), messagesDelta('"b"', ',"text":"a"')]);
    // The same key spelled with an escape.
    expectSameAsParse("messages", [
      messagesDelta('"a"', ',"te\\u0078t":"a"'),
      messagesDelta('"b"', ',"te\\u0078t":"a"'),
    ]);
  });

  test("the same value elsewhere does not make the wrong literal the template", () => {
    const elsewhere = (text: string) =>
      `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"a"}}],"x":{"delta":{"content":${text}}}}`;
    expectSameAsParse("chat", [elsewhere('"a"'), elsewhere('"b"'), elsewhere('"a"')]);
  });

  test("a literal that is not one string falls back to JSON.parse (and its errors)", () => {
    const parser = createRepeatParser("chat", parse);
    expect(parser(chatDelta('"a"'))).toEqual(JSON.parse(chatDelta('"a"')));
    // Closing the string early and adding a key: not a single literal, so parsed in full.
    const sneaky = chatDelta('"b","role":"x"');
    expect(parser(sneaky)).toEqual(JSON.parse(sneaky));
    expect(() => parser(chatDelta('"b\u0001"'))).toThrow(SyntaxError);
    expect(() => parser(chatDelta('"b\\"'))).toThrow(SyntaxError);
  });

  test("parses in full only when the shape changes", () => {
    let parsed = 0;
    const parser = createRepeatParser("chat", (data) => {
      parsed++;
      return JSON.parse(data);
    });
    for (const text of ["Hel", "lo", ' "w"', "\\n", "é"]) parser(chatDelta(JSON.stringify(text)));
    expect(parsed).toBe(1);
    parser(chatDelta('"x"', ',"finish_reason":"stop"'));
    parser(chatDelta('"y"', ',"finish_reason":"stop"'));
    expect(parsed).toBe(2);
  });

  test("shares the unchanged parts and gives a fresh object along the path", () => {
    const parser = createRepeatParser("messages", parse);
    const first = parser(messagesDelta('"Hel"')) as { delta: { text: string } };
    const second = parser(messagesDelta('"lo"')) as { delta: { text: string } };
    expect(second.delta.text).toBe("lo");
    expect(first.delta.text).toBe("Hel");
    expect(second).not.toBe(first);
  });
});
