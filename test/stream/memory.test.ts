import { describe, expect, test } from "vitest";
import type * as common from "../../src/common/model";
import { resolveOptions } from "../../src/common/options";
import type { Protocol } from "../../src/index";
import { adapters } from "../../src/protocols";

/**
 * DESIGN rule 7: a translator's state holds open blocks only, never the text seen so far. One million
 * text events go through the same reducers `createStreamTranslator` runs; the JSON size of both states,
 * sampled every 100,000 events, must stay small and flat.
 */
const EVENTS = 1_000_000;
const options = resolveOptions({ model: "m", idPrefix: "gp", created: 1 });

const streams: Record<"chat" | "messages", { head: unknown[]; text: (n: number) => unknown }> = {
  chat: {
    head: [
      {
        id: "c",
        object: "chat.completion.chunk",
        created: 1,
        model: "g",
        choices: [{ index: 0, delta: { role: "assistant", content: "" } }],
      },
    ],
    text: (n) => ({
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "g",
      choices: [{ index: 0, delta: { content: `w${n % 10} ` } }],
    }),
  },
  messages: {
    head: [
      {
        type: "message_start",
        message: {
          id: "m",
          type: "message",
          role: "assistant",
          model: "c",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ],
    text: (n) => ({
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: `w${n % 10} ` },
    }),
  },
};

describe.each([
  ["chat", "messages"],
  ["messages", "generative"],
] as const)("%s → %s", (from: "chat" | "messages", to: Protocol) => {
  test("a million text events leave the translator's state as small as after the first", () => {
    const decoder = adapters[from].streamDecoder(options);
    const encoder = adapters[to].streamEncoder(options);
    let decoded = decoder.initial;
    let encoded = encoder.initial;
    let emitted = 0;
    const push = (event: unknown) => {
      const parts: common.StreamPart[] = [];
      decoded = decoder.step(decoded, event, parts, []);
      for (const part of parts) {
        const out: unknown[] = [];
        encoded = encoder.step(encoded, part, out, []);
        emitted += out.length;
      }
    };
    const size = () => JSON.stringify([decoded, encoded]).length;
    for (const event of streams[from].head) push(event);
    push(streams[from].text(0));
    const first = size();
    const samples: number[] = [];
    for (let n = 1; n < EVENTS; n++) {
      push(streams[from].text(n));
      if (n % 100_000 === 0) samples.push(size());
    }
    expect(emitted).toBeGreaterThanOrEqual(EVENTS);
    // Flat: every sample is within a few bytes of the first (figures, not text, may change).
    for (const sample of samples) expect(sample).toBeLessThan(first + 64);
    expect(first).toBeLessThan(2_000);
  }, 30_000);
});
