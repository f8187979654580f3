import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { createStreamTranslator, type Protocol, protocols } from "../../src/index";
import { adapters } from "../../src/protocols";
import { arbitraries } from "../../src/testing/index";
import { textStream } from "../helpers/text-stream";

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

/** A chat chunk of one choice, the input of the tests that look at what a chunk becomes. */
const chunk = (delta: object, finish: string | null = null) => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const pairs = protocols.flatMap((from) =>
  protocols.filter((to) => to !== from).map((to) => [from, to] as const),
);

describe("event formatters write exactly JSON.stringify's bytes, text deltas by their fast path", () => {
  test.each(protocols)("%s: every text delta of a long stream takes the fast path", (to) => {
    expect(expectStringify(to, textStream(to, 50))).toBeGreaterThanOrEqual(50);
  });

  for (const [from, to] of pairs) {
    test.prop([fc.oneof(arbitraries.streamEvents(from), arbitraries.anyStreamEvents(from))])(
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

  test("chat: the opening role, the finish and the usage chunk take the fast path too", () => {
    const translator = createStreamTranslator("generative", "chat", { model: "m", created: 1 });
    const out = [
      ...translator.push({
        candidates: [{ content: { role: "model", parts: [{ text: 'Hi "there"' }] }, finishReason: "STOP" }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
        modelVersion: "gemini-2.5-flash",
        responseId: 'r"1',
      } as never),
      ...translator.end(),
    ].filter((event) => typeof event === "object");
    const deltas = out.map((event) => (event as { choices: { delta?: object }[] }).choices[0]?.delta);
    // role, text, finish ({}), usage (no choice).
    expect(deltas).toEqual([
      { role: "assistant", content: "", refusal: null },
      { content: 'Hi "there"' },
      {},
      undefined,
    ]);
    expect(expectStringify("chat", out)).toBe(4);
    // A chunk the template does not know (another finish value type, a kept field) is JSON.stringify's.
    const [role, , finish, usage] = out as Record<string, unknown>[];
    const odd = [
      { ...role, system_fingerprint: "fp" },
      { ...(finish as object), choices: [{ index: 0, delta: {}, finish_reason: 1 }] },
      { ...(usage as object), usage: null },
      {
        ...(finish as object),
        choices: [{ index: 0, delta: { content: "", role: "assistant" }, finish_reason: null }],
      },
    ];
    expect(expectStringify("chat", odd)).toBe(0);
  });

  test("messages: the events around a block and at the end take the fast path too", () => {
    const translator = createStreamTranslator("chat", "messages");
    const out = [
      ...translator.push(chunk({ role: "assistant", reasoning_content: "hm" }) as never),
      ...translator.push(chunk({ content: 'x"\n' }) as never),
      ...translator.push(chunk({}, "stop") as never),
      ...translator.end(),
    ];
    const types = out.map((event) => (event as { type: string }).type);
    expect(types).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      // chat's reasoning goes home to chat: its origin rides in the signature (issue 29).
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    // All but message_start.
    expect(expectStringify("messages", out)).toBe(out.length - 1);
    const odd = [
      { type: "content_block_stop", index: 0, extra: 1 },
      { type: "message_stop", x: null },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "already" } },
      { type: "content_block_start", index: 0, content_block: { text: "", type: "text" } },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "thinking", thinking: "", signature: "s" },
      },
      {
        type: "message_delta",
        delta: { stop_reason: null, stop_sequence: null },
        usage: { output_tokens: 1 },
      },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
      { type: "message_delta", delta: { stop_reason: "stop_sequence", stop_sequence: 1 }, usage: {} },
    ];
    expect(expectStringify("messages", odd)).toBe(0);
    const sequence = {
      type: "message_delta",
      delta: { stop_reason: "stop_sequence", stop_sequence: '"' },
      usage: {},
    };
    expect(expectStringify("messages", [sequence])).toBe(1);
  });

  test("responses: the events around a message's text and a call's arguments take the fast path too", () => {
    const translator = createStreamTranslator("chat", "responses", { idPrefix: "gp" });
    const call = {
      index: 0,
      id: "call_1",
      type: "function",
      function: { name: "f", arguments: '{"a":"\u2028"}' },
    };
    const out = [
      ...translator.push(chunk({ role: "assistant", content: 'x"\n' }) as never),
      ...translator.push(chunk({ tool_calls: [call] }) as never),
      ...translator.push(chunk({}, "tool_calls") as never),
      ...translator.end(),
    ];
    const slow = out.filter((event) => {
      const probe = adapters.responses.eventFormatter();
      return probe(marked(event as object)) === JSON.stringify(SLOW);
    });
    // Only the events that carry the whole response are JSON.stringify's.
    expect(slow.map((event) => (event as { type: string }).type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.completed",
    ]);
    expect(expectStringify("responses", out)).toBe(out.length - 3);
    const [, , added, partAdded, , textDone] = out as Record<string, unknown>[];
    const odd = [
      { ...added, item: { ...(added?.item as object), role: "user" } },
      { ...added, item: { ...(added?.item as object), x: 1 } },
      {
        ...partAdded,
        part: { type: "output_text", annotations: [{ type: "url_citation" }], logprobs: [], text: "" },
      },
      { ...textDone, logprobs: [{ token: "x" }] },
      { ...textDone, sequence_number: "7" },
    ];
    expect(expectStringify("responses", odd)).toBe(0);
  });

  test("responses: deltas of items taking turns write each event's own item id (it is remembered per item)", () => {
    const delta = (item: string, text: string, sequence: number) => ({
      type: "response.function_call_arguments.delta",
      sequence_number: sequence,
      item_id: item,
      output_index: 0,
      delta: text,
    });
    const events = ["fc_1", "fc_1", 'fc_"2"\n', "fc_1", "fc_\u2028", "fc_\u2028", "fc_1"].map((item, index) =>
      delta(item, `{"a":${index}`, index),
    );
    expect(expectStringify("responses", events)).toBe(events.length);
  });

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
