/**
 * Hostile input by example: huge and deeply nested bodies, non-objects, prototype pollution. The
 * totality law over generated JSON runs in the protocol suite (test/protocol-suite.ts, `totality`).
 */
import { describe, expect, test } from "vitest";
import { protocols, TranslationError, translateRequest, translateResponse } from "../../src/index";

/** Runs `run`; passes when it returns or throws a TranslationError with a 4xx/5xx status. */
function total(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof TranslationError)) throw error;
    expect(error.status).toBeGreaterThanOrEqual(400);
  }
}

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
      { model: "m", messages: [{ role: "user", content: "x".repeat(10_000_000) }], contents: [] },
    ],
    ["10,000-deep nesting", { model: "m", messages: deep(10_000), contents: deep(10_000), max_tokens: 1 }],
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
        '"contents":[{"role":"user","parts":[{"text":"hi","__proto__":{"polluted":4}}]}]}',
    );
    for (const to of protocols) total(() => translateRequest(protocol, to, body, { model: "m" }));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
