import { describe, expect, test } from "vitest";
import { createStreamTranslator, type Protocol } from "../../src/index";
import { protocolArbitraries } from "../../src/testing/index";

/** Research X10 and X5: what each target gets for a mid-stream error and for a stream cut off early. */
const options = { model: "m", idPrefix: "gp", created: 1 };

const started: Partial<Record<Protocol, unknown[]>> = {
  chat: [
    {
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "g",
      choices: [{ index: 0, delta: { role: "assistant", content: "" } }],
    },
    {
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "g",
      choices: [{ index: 0, delta: { content: "Hal" } }],
    },
  ],
  messages: [
    {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "c",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hal" } },
  ],
  generative: [
    { responseId: "r", candidates: [{ index: 0, content: { role: "model", parts: [{ text: "Hal" }] } }] },
  ],
  responses: [
    {
      type: "response.created",
      sequence_number: 0,
      response: {
        id: "resp_1",
        object: "response",
        created_at: 1,
        status: "in_progress",
        model: "o",
        output: [],
      },
    },
    {
      type: "response.output_item.added",
      sequence_number: 1,
      output_index: 0,
      item: { id: "msg_1", type: "message", status: "in_progress", role: "assistant", content: [] },
    },
    {
      type: "response.content_part.added",
      sequence_number: 2,
      item_id: "msg_1",
      output_index: 0,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    },
    {
      type: "response.output_text.delta",
      sequence_number: 3,
      item_id: "msg_1",
      output_index: 0,
      content_index: 0,
      delta: "Hal",
    },
  ],
};

const failure: Partial<Record<Protocol, unknown>> = {
  chat: { error: { message: "Overloaded", type: "overloaded_error", code: null } },
  messages: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
  generative: { error: { code: 503, message: "Overloaded", status: "UNAVAILABLE" } },
  // As recorded (test/fixtures/responses/stream/openai-error-insufficient-quota.sse): the error nested.
  responses: {
    type: "error",
    sequence_number: 4,
    error: { type: "server_error", code: "server_error", message: "Overloaded", param: null },
  },
};

// The pairs are those of the examples above (each protocol's started stream and error event).
const examples = Object.keys(started) as Protocol[];
const pairs = examples.flatMap((from) =>
  examples.filter((to) => to !== from).map((to) => [from, to] as const),
);
const grammar = (to: Protocol, out: readonly unknown[]) => protocolArbitraries[to].grammar?.(out) ?? [];

function run(from: Protocol, to: Protocol, events: readonly unknown[]) {
  const translator = createStreamTranslator(from, to, options);
  const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
  return { out, losses: translator.losses };
}

describe.each(pairs)("%s → %s", (from, to) => {
  test("a mid-stream error ends the target stream with its own error shape, never a normal stop", () => {
    const { out } = run(from, to, [...(started[from] ?? []), failure[from]]);
    expect(grammar(to, out)).toEqual([]);
    const last = out.at(-1) as Record<string, unknown>;
    const text = JSON.stringify(out);
    if (to === "messages") {
      // responses has no code for an overloaded service: its server_error is messages' api_error.
      const type = from === "responses" ? "api_error" : "overloaded_error";
      expect(last).toEqual({ type: "error", error: { type, message: "Overloaded" } });
      expect(text).not.toContain("message_stop");
    } else if (to === "responses") {
      // The `error` event (which the SDKs raise), then the failed response; never a completed one.
      expect(out.at(-2)).toMatchObject({
        type: "error",
        message: "Overloaded",
        error: { message: "Overloaded" },
      });
      expect(last).toMatchObject({
        type: "response.failed",
        response: { status: "failed", error: { message: "Overloaded" } },
      });
      expect(text).not.toMatch(/response\.(completed|incomplete)/);
    } else {
      expect(last.error).toMatchObject({ message: "Overloaded" });
      expect(text).not.toContain("[DONE]");
      expect(text).not.toMatch(/"finish(_r|R)eason":"/);
    }
    expect(text).toContain("Hal");
  });

  test("a stream cut off before its terminal event ends with the target's error event, never a normal stop", () => {
    const { out, losses } = run(from, to, started[from] ?? []);
    expect(grammar(to, out)).toEqual([]);
    const text = JSON.stringify(out);
    expect(text).toContain("Hal");
    const last = out.at(-1) as Record<string, unknown>;
    if (to === "messages") {
      expect(last).toMatchObject({ type: "error", error: { type: "api_error" } });
      expect(text).not.toContain("message_stop");
      expect(text).not.toContain("message_delta");
    } else if (to === "responses") {
      expect(last).toMatchObject({
        type: "response.failed",
        response: {
          status: "failed",
          error: { message: expect.stringContaining("ended before its finish") },
        },
      });
      expect(text).not.toMatch(/response\.(completed|incomplete)/);
    } else {
      expect(last.error).toMatchObject({ message: expect.stringContaining("ended before its finish") });
      expect(text).not.toContain("[DONE]");
      expect(text).not.toMatch(/"finish(_r|R)eason":"/);
    }
    expect(
      losses.filter((entry) => entry.kind === "synthesized" && /ended before its finish/.test(entry.message)),
    ).toHaveLength(1);
  });
});
