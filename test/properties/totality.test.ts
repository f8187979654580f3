import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  accumulate,
  createStreamTranslator,
  protocols,
  TranslationError,
  translateError,
  translateRequest,
  translateResponse,
} from "../../src/index";

const pairs = protocols.flatMap((from) => protocols.map((to) => [from, to] as const));

/** Runs `run`; passes when it returns or throws a TranslationError with a 4xx/5xx status. */
function total(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof TranslationError)) throw error;
    expect(error.status).toBeGreaterThanOrEqual(400);
  }
}

// Arbitrary JSON, and objects that look like each protocol's payloads but hold arbitrary values.
const shaped = fc.oneof(
  fc.jsonValue(),
  fc.record(
    { model: fc.jsonValue(), messages: fc.jsonValue(), max_tokens: fc.jsonValue() },
    { requiredKeys: [] },
  ),
  fc.record({ contents: fc.jsonValue(), generationConfig: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({ choices: fc.jsonValue(), usage: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record(
    { candidates: fc.jsonValue(), content: fc.jsonValue(), type: fc.constant("message") },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      input: fc.jsonValue(),
      output: fc.jsonValue(),
      type: fc.string(),
      response: fc.jsonValue(),
      item: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
);

describe.each(pairs)("%s → %s on arbitrary JSON", (from, to) => {
  test("translateRequest returns or throws TranslationError, validated or not", () => {
    fc.assert(
      fc.property(shaped, fc.boolean(), (body, validate) => {
        total(() => translateRequest(from, to, body, { validate, model: "m" }));
      }),
    );
  });
  test("translateResponse returns or throws TranslationError, validated or not", () => {
    fc.assert(
      fc.property(shaped, fc.boolean(), (body, validate) => {
        total(() => translateResponse(from, to, body, { validate }));
      }),
    );
  });
  test("translateError never throws and always gives an error status", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999 }), fc.oneof(fc.jsonValue(), fc.string()), (status, body) => {
        const result = translateError(from, to, { status, body });
        expect(result.status).toBeGreaterThanOrEqual(400);
        expect(result.status).toBeLessThan(600);
      }),
    );
  });
  test("a stream translator returns or throws TranslationError on arbitrary events", () => {
    fc.assert(
      fc.property(fc.array(shaped, { maxLength: 8 }), (events) => {
        total(() => {
          const translator = createStreamTranslator(from, to);
          for (const event of events) translator.push(event as never);
          translator.end();
        });
      }),
    );
  });
});

describe.each(protocols)("%s: hostile input", (protocol) => {
  const deep = (depth: number): unknown => {
    let node: unknown = "leaf";
    for (let i = 0; i < depth; i++) node = { a: [node] };
    return node;
  };
  const hostile: [string, unknown][] = [
    ["null", null],
    ["a string", "hello"],
    ["a number", 42],
    ["an array", []],
    [
      "10 MB of text",
      {
        model: "m",
        messages: [{ role: "user", content: "x".repeat(10_000_000) }],
        contents: [],
        input: "x".repeat(10_000_000),
      },
    ],
    [
      "10,000-deep nesting",
      { model: "m", messages: deep(10_000), contents: deep(10_000), input: deep(10_000), max_tokens: 1 },
    ],
    [
      "10,000-deep nesting in a tool schema",
      {
        model: "m",
        max_tokens: 1,
        messages: [{ role: "user", content: "x" }],
        contents: [{ role: "user", parts: [{ text: "x" }] }],
        tools: [
          { type: "function", function: { name: "f", parameters: deep(10_000) } },
          {
            name: "f",
            input_schema: deep(10_000),
            functionDeclarations: [{ name: "f", parameters: deep(10_000) }],
          },
          { type: "function", name: "g", parameters: deep(10_000) },
        ],
      },
    ],
  ];
  for (const to of protocols) {
    test.each(hostile)(`${protocol} → ${to}: %s gives a result or a TranslationError`, (_, body) => {
      total(() => translateRequest(protocol, to, body, { model: "m" }));
      total(() => translateResponse(protocol, to, body));
    });
  }
  test("__proto__ and constructor keys never reach Object.prototype", () => {
    const body = JSON.parse(
      '{"model":"m","max_tokens":5,"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},' +
        '"messages":[{"role":"user","content":"hi","__proto__":{"polluted":3}}],' +
        '"contents":[{"role":"user","parts":[{"text":"hi","__proto__":{"polluted":4}}]}],' +
        '"input":[{"role":"user","content":[{"type":"input_text","text":"hi","__proto__":{"polluted":5}}]}]}',
    );
    for (const to of protocols) total(() => translateRequest(protocol, to, body, { model: "m" }));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  test("accumulate on arbitrary events returns or throws TranslationError", () => {
    fc.assert(
      fc.property(fc.array(shaped, { maxLength: 6 }), (events) => {
        total(() => accumulate(protocol, events as never));
      }),
    );
  });
});
