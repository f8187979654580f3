import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  accumulate,
  chat,
  createStreamTranslator,
  generative,
  messages,
  type Protocol,
  protocols,
  responses,
  sse,
  translateEventStream,
  translateResponse,
} from "../../src/index";
import { anyStreamArbs, complete, streamArbs } from "../arbitraries/streams";
import { grammars } from "../helpers/grammar";
import { normalize } from "../helpers/normalize";

const pairs = protocols.flatMap((from) =>
  protocols.filter((to) => to !== from).map((to) => [from, to] as const),
);
const options = { model: "m", idPrefix: "gp", created: 1_700_000_000 };
const eventSchemas = {
  chat: chat.streamEvent,
  messages: messages.streamEvent,
  generative: generative.streamEvent,
  responses: responses.streamEvent,
};

function translateAll(from: Protocol, to: Protocol, events: readonly unknown[]): unknown[] {
  const translator = createStreamTranslator(from, to, options);
  return [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
}

/** messages puts foreign thinking first in a whole response (research K4); a stream cannot move it back. */
function thinkingAfterOther(body: unknown): boolean {
  const content = (body as { content?: { type: string }[] }).content ?? [];
  const first = content.findIndex((block) => block.type !== "thinking" && block.type !== "redacted_thinking");
  return first !== -1 && content.slice(first).some((block) => block.type === "thinking");
}

/** The SSE body a provider would send for these events. */
function sseBody(protocol: Protocol, events: readonly unknown[]): Uint8Array {
  const text = events
    .map((event) =>
      sse.format({
        // messages and responses name each event by its type.
        ...((protocol === "messages" || protocol === "responses") && typeof event === "object"
          ? { event: (event as { type: string }).type }
          : {}),
        data: typeof event === "string" ? event : JSON.stringify(event),
      }),
    )
    .join("");
  return new TextEncoder().encode(text);
}

function cut(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(start, point));
    start = point;
  }
  return chunks.filter((chunk) => chunk.length > 0);
}

async function translateBytes(from: Protocol, to: Protocol, chunks: readonly Uint8Array[]): Promise<string> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const parts: Uint8Array[] = [];
  const reader = translateEventStream(from, to, body, options).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return Buffer.concat(parts).toString("utf8");
}

/** The text deltas (not thoughts) one source event carries. */
function textsOf(protocol: Protocol, event: unknown): string[] {
  if (protocol === "chat") {
    const choice = (event as chat.Chunk).choices?.find((item) => item.index === 0);
    return [choice?.delta.content ?? ""];
  }
  if (protocol === "responses") {
    const typed = event as { type?: string; delta?: string };
    return typed.type === "response.output_text.delta" ? [typed.delta ?? ""] : [];
  }
  if (protocol === "messages") {
    const delta = (event as { type?: string; delta?: { type?: string; text?: string } }).delta;
    return (event as { type?: string }).type === "content_block_delta" && delta?.type === "text_delta"
      ? [delta.text ?? ""]
      : [];
  }
  const candidate = (event as generative.Response).candidates?.find((item) => (item.index ?? 0) === 0);
  return (candidate?.content?.parts ?? [])
    .filter((part) => part.thought !== true && part.functionCall === undefined)
    .map((part) => part.text ?? "");
}

describe.each(pairs)("streams %s → %s", (from, to) => {
  test("accumulating the translated stream equals translating the accumulated response", () => {
    fc.assert(
      fc.property(streamArbs[from], (events) => {
        fc.pre(complete(from, events));
        const viaStream = accumulate(to, translateAll(from, to, events) as never, options);
        const viaResponse = translateResponse(
          from,
          to,
          accumulate(from, events as never, options),
          options,
        ).value;
        fc.pre(!(to === "messages" && thinkingAfterOther(viaStream)));
        expect(normalize(viaStream)).toEqual(normalize(viaResponse));
      }),
    );
  });

  test("every translated event parses with the target's event schema and the sequence follows its grammar", () => {
    fc.assert(
      fc.property(anyStreamArbs[from], (events) => {
        const out = translateAll(from, to, events);
        for (const event of out) expect(eventSchemas[to].safeParse(event).error?.issues ?? []).toEqual([]);
        expect(grammars[to](out)).toEqual([]);
      }),
    );
  });

  test("the same SSE bytes cut anywhere give byte-identical output", async () => {
    await fc.assert(
      fc.asyncProperty(
        anyStreamArbs[from],
        fc.array(fc.nat(), { maxLength: 12 }),
        async (events, offsets) => {
          const bytes = sseBody(from, events);
          const whole = await translateBytes(from, to, [bytes]);
          expect(await translateBytes(from, to, cut(bytes, offsets))).toBe(whole);
        },
      ),
      { numRuns: 50 },
    );
  });

  test("the push that receives a text delta returns its translated text", () => {
    fc.assert(
      fc.property(streamArbs[from], (events) => {
        const translator = createStreamTranslator(from, to, options);
        for (const event of events) {
          const out = translator.push(event as never);
          for (const text of textsOf(from, event))
            if (text !== "") expect(JSON.stringify(out)).toContain(JSON.stringify(text).slice(1, -1));
        }
      }),
    );
  });
});
