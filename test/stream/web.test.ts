import { describe, expect, test } from "vitest";
import { TranslationError, translateEventStream } from "../../src/index";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const chunk = (content: string, extra = ""): string =>
  `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}${extra}}]}\n\n`;

/** A byte source that counts how often it was pulled, and records how it was cancelled. */
function countingSource(chunks: readonly string[]) {
  const seen = { pulls: 0, cancelled: undefined as unknown };
  let at = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        seen.pulls++;
        const next = chunks[at++];
        if (next === undefined) controller.close();
        else controller.enqueue(encoder.encode(next));
      },
      cancel(reason) {
        seen.cancelled = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(decoder.decode(value));
  }
}

describe("translateEventStream over Web Streams", () => {
  test("one output chunk per input chunk that completes events; none for a chunk that completes none", async () => {
    const whole = chunk("Hel") + chunk("lo") + chunk("", ',"finish_reason":"stop"');
    const cut = whole.indexOf("lo");
    const { stream } = countingSource([
      whole.slice(0, 10),
      whole.slice(10, cut),
      whole.slice(cut),
      "data: [DONE]\n\n",
    ]);
    const out = await readAll(translateEventStream("chat", "messages", stream));
    // The first piece completes no event; the second completes one; the third two and the finish.
    expect(out.length).toBe(3);
    expect(out[0]).toContain("event: message_start");
    expect(out.join("")).toContain('"text":"Hel"');
    expect(out.join("")).toContain('"text":"lo"');
    expect(out.join("")).toContain("event: message_stop");
  });

  test("reads the body only as the consumer pulls (backpressure reaches the upstream)", async () => {
    const { stream, seen } = countingSource(Array.from({ length: 50 }, (_, index) => chunk(`t${index}`)));
    const reader = translateEventStream("chat", "messages", stream).getReader();
    await reader.read();
    await reader.read();
    // Two output chunks need two input chunks; a pipe with buffers would have read ahead.
    expect(seen.pulls).toBeLessThanOrEqual(3);
    await reader.cancel("client went away");
    expect(seen.cancelled).toBe("client went away");
  });

  test("an event that is not JSON errors the output with a 502 TranslationError and cancels the body", async () => {
    const { stream, seen } = countingSource([chunk("a"), "data: {not json\n\n", chunk("never read")]);
    const failure = await readAll(translateEventStream("chat", "messages", stream)).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TranslationError);
    expect((failure as TranslationError).status).toBe(502);
    expect((failure as TranslationError).message).toContain("not JSON");
    // The upstream connection is released rather than left open until it is collected.
    expect(seen.cancelled).toBe(failure);
    expect(seen.pulls).toBe(2);
  });

  test("an upstream failure reaches the consumer as the same error", async () => {
    const problem = new Error("socket hang up");
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(problem);
        else controller.enqueue(encoder.encode(chunk("partial")));
        sent = true;
      },
    });
    const reader = translateEventStream("chat", "generative", stream, { model: "m" }).getReader();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toContain("partial");
    await expect(reader.read()).rejects.toBe(problem);
  });

  test("the same protocol on both sides returns the body itself", () => {
    const { stream } = countingSource([]);
    expect(translateEventStream("chat", "chat", stream)).toBe(stream);
  });
});
