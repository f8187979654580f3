import { describe, expect, test } from "vitest";
import { TranslationError } from "../../src/common/errors";
import { createJsonArrayParser, sniffStreamFormat } from "../../src/protocols/generative/json-array";
import { fixtures, readFixture, sseDataPayloads } from "../helpers/fixtures";

const encoder = new TextEncoder();

function split(...pieces: (string | Uint8Array)[]): string[] {
  const parser = createJsonArrayParser();
  return [...pieces.flatMap((piece) => parser.feed(piece)), ...parser.end()];
}

describe("createJsonArrayParser", () => {
  test("splits research X8's body into its two chunks", () => {
    const first =
      '{"candidates":[{"index":0,"content":{"role":"model","parts":[{"text":"a"}]}}],"usageMetadata":{"promptTokenCount":4,"totalTokenCount":4}}';
    const second =
      '{"candidates":[{"index":0,"finishReason":"STOP","content":{"role":"model","parts":[{"text":"b"}]}}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"totalTokenCount":6}}';
    expect(split(`[${first}\r\n,${second}]`)).toEqual([first, second]);
  });

  test("delivers each element from the feed that brings its closing brace", () => {
    const parser = createJsonArrayParser();
    expect(parser.feed('[{"a":1')).toEqual([]);
    expect(parser.feed('},\r\n{"b"')).toEqual(['{"a":1}']);
    expect(parser.feed(":2}")).toEqual(['{"b":2}']);
    expect(parser.feed("]")).toEqual([]);
    expect(parser.end()).toEqual([]);
  });

  test("brackets, braces and quotes inside strings do not count, escaped quotes included", () => {
    const element = '{"t":"}]{[\\"\\\\","u":"\\\\"}';
    expect(JSON.parse(element)).toEqual({ t: '}]{["\\', u: "\\" });
    expect(split(`[${element}]`)).toEqual([element]);
  });

  test("an escape split across chunks keeps the string open", () => {
    expect(split('[{"t":"a\\', '"}', '"}]')).toEqual(['{"t":"a\\"}"}']);
    expect(split('[{"t":"a\\', "\\", '"}]')).toEqual(['{"t":"a\\\\"}']);
  });

  test("a multi-byte character split across byte chunks decodes whole", () => {
    const bytes = encoder.encode('[{"t":"é😀"}]');
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(split(bytes.subarray(0, cut), bytes.subarray(cut))).toEqual(['{"t":"é😀"}']);
    }
  });

  test("accepts whitespace and a BOM around the array and between elements", () => {
    expect(split('\uFEFF \r\n[ {}\n, [1]\r\n ,\t{"a":[]} ]\r\n')).toEqual(["{}", "[1]", '{"a":[]}']);
  });

  test("splits out scalar elements at their delimiter", () => {
    expect(split('[1, "x", true,null,-2.5e3]')).toEqual(["1", '"x"', "true", "null", "-2.5e3"]);
    expect(split("[12", "34]")).toEqual(["1234"]);
  });

  test("an empty array gives nothing", () => {
    expect(split("[", "]")).toEqual([]);
    expect(split("")).toEqual([]);
  });

  test("an error sent as the only element comes out as is (research X10)", () => {
    const error = '{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}}';
    expect(split(`[${error}]`)).toEqual([error]);
  });

  test("a body that is one bare object gives that object", () => {
    expect(split('{"error":', '{"code":500}}\n')).toEqual(['{"error":{"code":500}}']);
  });

  test("a body cut off inside an element throws at end", () => {
    const parser = createJsonArrayParser();
    expect(parser.feed('[{"a":1},{"b":')).toEqual(['{"a":1}']);
    expect(() => parser.end()).toThrow(TranslationError);
    expect(() => split('[{"a":"}')).toThrow(/cut off inside an element/);
  });

  test("a body cut off between elements, before its closing bracket, ends quietly", () => {
    expect(split('[{"a":1},')).toEqual(['{"a":1}']);
  });

  test("text that is not a JSON array is rejected", () => {
    expect(() => split("data: {}\n\n")).toThrow(/where the array should open/);
    expect(() => split("[{} {}]")).toThrow(/between elements/);
    expect(() => split("[,{}]")).toThrow(/where an element should start/);
    expect(() => split("[{},]")).toThrow(/where an element should start/);
    expect(() => split("[{}] x")).toThrow(/after the end of the array/);
  });

  test("after a failure every call throws the same error", () => {
    const parser = createJsonArrayParser();
    expect(() => parser.feed("x")).toThrow(TranslationError);
    expect(() => parser.feed("[]")).toThrow(/where the array should open/);
  });

  test("an element longer than maxElementLength throws, whole or still arriving", () => {
    const whole = createJsonArrayParser({ maxElementLength: 10 });
    expect(() => whole.feed('[{"a":"1234"}]')).toThrow(/maxElementLength \(10 UTF-16 code units\)/);
    const growing = createJsonArrayParser({ maxElementLength: 10 });
    expect(growing.feed('[{"a":"')).toEqual([]);
    expect(() => growing.feed("12345")).toThrow(TranslationError);
  });

  test("10,000-deep nesting is split without recursion", () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    expect(split(`[${deep}]`)).toEqual([deep]);
  });

  test("after end the parser starts a fresh body", () => {
    const parser = createJsonArrayParser();
    expect(parser.feed("[{}]")).toEqual(["{}"]);
    expect(parser.end()).toEqual([]);
    expect(parser.feed("[1]")).toEqual(["1"]);
  });

  test("the generative fixture streams, resent as JSON arrays, split into their payloads", () => {
    for (const entry of fixtures("stream", "generative")) {
      const payloads = sseDataPayloads(readFixture(entry));
      expect(split(encoder.encode(`[${payloads.join("\r\n,")}]`))).toEqual(payloads);
    }
  });
});

describe("sniffStreamFormat", () => {
  test("reads [ and { as a JSON array and anything else as SSE", () => {
    expect(sniffStreamFormat("[")).toBe("json-array");
    expect(sniffStreamFormat("{")).toBe("json-array");
    expect(sniffStreamFormat("d")).toBe("sse");
    expect(sniffStreamFormat(":")).toBe("sse");
    expect(sniffStreamFormat("e")).toBe("sse");
  });
});
