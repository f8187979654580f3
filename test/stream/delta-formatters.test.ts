import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { createStreamTranslator, type Protocol, protocols } from "../../src/index";
import { adapters } from "../../src/protocols";
import { anyStreamArbs, streamArbs } from "../arbitraries/streams";

const SLOW = "written by JSON.stringify";

/**
 * `event` with a non-enumerable `toJSON`: JSON.stringify (the general path) writes `SLOW` for it, while a
 * formatter's concatenating fast path never calls `toJSON` — so the output tells which path ran.
 */
function marked(event: object): object {
  const copy = { ...event };
  Object.defineProperty(copy, "toJSON", { value: () => SLOW, enumerable: false });
  return copy;
}

/** Every event is written byte for byte as JSON.stringify writes it; returns how many took the fast path. */
function expectStringify(to: Protocol, events: readonly unknown[]): number {
  const format = adapters[to].eventFormatter();
  const probe = adapters[to].eventFormatter();
  let fast = 0;
  for (const event of events) {
    expect(format(event)).toBe(typeof event === "string" ? event : JSON.stringify(event));
    if (typeof event === "object" && event !== null && probe(marked(event)) !== JSON.stringify(SLOW)) fast++;
  }
  return fast;
}

const pairs = protocols.flatMap((from) =>
  protocols.filter((to) => to !== from).map((to) => [from, to] as const),
);

/** A text stream of `count` deltas in `from`, for each target's most frequent event. */
function textStream(from: Protocol, count: number): unknown[] {
  const pieces = Array.from({ length: count }, (_, index) => `piece ${index} "é"\n`);
  if (from === "chat") {
    const chunk = (delta: object, finish: string | null = null) => ({
      id: "c1",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    return [
      chunk({ role: "assistant", content: "" }),
      ...pieces.map((text) => chunk({ content: text })),
      chunk({}, "stop"),
      "[DONE]",
    ];
  }
  return [
    {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "m",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ...pieces.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: 9 },
    },
    { type: "message_stop" },
  ];
}

describe("event formatters write exactly JSON.stringify's bytes, text deltas by their fast path", () => {
  test.each(protocols)("%s: every text delta of a long stream takes the fast path", (to) => {
    const from: Protocol = to === "chat" ? "messages" : "chat";
    const translator = createStreamTranslator(from, to, { model: "m", idPrefix: "gp", created: 1 });
    const events = textStream(from, 50);
    const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
    expect(expectStringify(to, out)).toBeGreaterThanOrEqual(50);
  });

  for (const [from, to] of pairs) {
    test.prop([fc.oneof(streamArbs[from], anyStreamArbs[from])])(
      `${to} events translated from generated ${from} streams`,
      (events) => {
        const translator = createStreamTranslator(from, to, { model: "m", idPrefix: "gp", created: 1 });
        const out: unknown[] = [];
        try {
          for (const event of events) out.push(...translator.push(event as never));
          out.push(...translator.end());
        } catch {
          // Hostile streams may end in a TranslationError; the events before it still count.
        }
        expectStringify(to, out);
      },
    );
  }

  test("generative: a changed usage, model version, response id or role mid-stream is written as changed", () => {
    const chunk = (text: string, role: string, version: string, id: string, usage: object) => ({
      candidates: [{ content: { role, parts: [{ text }] } }],
      usageMetadata: usage,
      modelVersion: version,
      responseId: id,
    });
    const events = [
      chunk("a", "model", "v1", "r1", { promptTokenCount: 1 }),
      chunk("b", "model", "v1", "r1", { promptTokenCount: 1 }),
      chunk("c", "model", "v2", "r1", { promptTokenCount: 2 }),
      chunk("d", "user", "v2", "r2", { promptTokenCount: 2 }),
      chunk('"\n\u2028', "model", 'v"3', "r\\3", {}),
    ];
    expect(expectStringify("generative", events)).toBe(events.length);
  });

  test("generative: extra keys, other key orders and other part shapes go to JSON.stringify", () => {
    const text = { candidates: [{ content: { role: "model", parts: [{ text: "a" }] } }] };
    expect(expectStringify("generative", [text])).toBe(1);
    const others = [
      { modelVersion: "v", ...text },
      { ...text, promptFeedback: {} },
      { candidates: [{ content: { parts: [{ text: "a" }], role: "model" } }] },
      { candidates: [{ content: { role: "model", parts: [{ text: "a", x: 1 }] } }] },
      {},
    ];
    expect(expectStringify("generative", others)).toBe(0);
  });
});
