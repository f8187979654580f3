import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { createStreamTranslator, type Protocol } from "../../src/index";
import { chatDeltaFormatter } from "../../src/protocols/chat/stream";
import { generativeDeltaFormatter } from "../../src/protocols/generative/stream";
import { formatMessagesDelta } from "../../src/protocols/messages/stream";
import { arbitraries } from "../../src/testing/index";

/** Each target's formatter for its most frequent events; a fresh one per stream, as translateEventStream makes. */
const formatters: Record<Protocol, () => (event: never) => string | undefined> = {
  chat: chatDeltaFormatter,
  messages: () => formatMessagesDelta,
  generative: generativeDeltaFormatter,
};

/** Whatever a formatter writes is byte for byte JSON.stringify's; it may decline (undefined). */
function expectStringifyOrNothing(to: Protocol, events: readonly unknown[]): number {
  const format = formatters[to]();
  let formatted = 0;
  for (const event of events) {
    const text = format(event as never);
    if (text === undefined) continue;
    formatted++;
    expect(text).toBe(JSON.stringify(event));
  }
  return formatted;
}

const protocols = Object.keys(formatters) as Protocol[];
const pairs = protocols.flatMap((from) =>
  protocols.filter((to) => to !== from).map((to) => [from, to] as const),
);

describe("delta formatters write exactly JSON.stringify's bytes", () => {
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
        expectStringifyOrNothing(to, out);
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
    expect(expectStringifyOrNothing("generative", events)).toBe(events.length);
  });

  test("generative: extra keys, other key orders and other part shapes are declined", () => {
    const format = generativeDeltaFormatter();
    const text = { candidates: [{ content: { role: "model", parts: [{ text: "a" }] } }] };
    expect(format(text as never)).toBe(JSON.stringify(text));
    expect(format({ modelVersion: "v", ...text } as never)).toBeUndefined();
    expect(format({ ...text, promptFeedback: {} } as never)).toBeUndefined();
    expect(
      format({ candidates: [{ content: { parts: [{ text: "a" }], role: "model" } }] } as never),
    ).toBeUndefined();
    expect(
      format({ candidates: [{ content: { role: "model", parts: [{ text: "a", x: 1 }] } }] } as never),
    ).toBeUndefined();
    expect(format({} as never)).toBeUndefined();
  });
});
