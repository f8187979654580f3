/**
 * Losses of streams (API.md `onLoss`, DESIGN rule 2 and 7): at the byte level `onLoss` is the only
 * channel, and it hears exactly what the event-level translator lists; every stream loss points into
 * the event it came from, never at "".
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { resolvePointer } from "../../src/common/pointer";
import {
  createStreamTranslator,
  createTranslateStream,
  type Loss,
  type Protocol,
  replay,
  translateEventStream,
  translateResponse,
} from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { generativeModel, readFixture, streamEvents, wiredFixtures } from "../helpers/fixtures";

const protocols: Protocol[] = ["chat", "messages", "generative"];
const options = { idPrefix: "gp", created: 1_700_000_000 };

function eventLevel(from: Protocol, to: Protocol, events: readonly unknown[], model?: string) {
  const heard: Loss[] = [];
  const translator = createStreamTranslator(from, to, {
    ...options,
    model,
    onLoss: (loss) => heard.push(loss),
  });
  for (const event of events) translator.push(event as never);
  translator.end();
  return { listed: translator.losses, heard };
}

async function byteLevel(
  from: Protocol,
  to: Protocol,
  text: string,
  form: "stream" | "transform",
  model?: string,
) {
  const heard: Loss[] = [];
  const withLosses = { ...options, model, onLoss: (loss: Loss) => heard.push(loss) };
  const body = new Response(text).body as ReadableStream<Uint8Array>;
  const output =
    form === "stream"
      ? translateEventStream(from, to, body, withLosses)
      : body.pipeThrough(createTranslateStream(from, to, withLosses));
  await new Response(output).text();
  return heard;
}

describe("onLoss at the byte level hears exactly what the stream translator lists, for every fixture stream", () => {
  for (const entry of wiredFixtures("stream")) {
    for (const to of protocols.filter((protocol) => protocol !== entry.protocol)) {
      test(`${entry.path} → ${to}`, async () => {
        const from = entry.protocol;
        const model = from === "generative" ? generativeModel(entry) : undefined;
        const events = streamEvents(entry);
        const { listed, heard } = eventLevel(from, to, events, model);
        // Event level: onLoss hears each listed loss once, as it is listed.
        expect(heard).toEqual(listed);
        const text = readFixture(entry);
        expect(await byteLevel(from, to, text, "stream", model)).toEqual(listed);
        expect(await byteLevel(from, to, text, "transform", model)).toEqual(listed);
        // Every loss points into the list of events: at an event (or a field of one) that resolves, or
        // one past the last (the end of a stream cut before its finish).
        for (const loss of listed) {
          expect(loss.path, loss.message).not.toBe("");
          const [, position] = /^\/(\d+)/.exec(loss.path) ?? [];
          expect(position, loss.path).toBeDefined();
          if (Number(position) === events.length) expect(loss.path).toBe(`/${events.length}`);
          else if (loss.kind !== "synthesized")
            expect(resolvePointer(events, loss.path).found, `${loss.path}: ${loss.message}`).toBe(true);
        }
      });
    }
  }
});

describe('translating any generated response and its stream never reports a loss at ""', () => {
  for (const from of protocols) {
    for (const to of protocols.filter((protocol) => protocol !== from)) {
      test(`${from} → ${to}`, () => {
        fc.assert(
          fc.property(arbitraries.response(from), (body) => {
            let response: ReturnType<typeof translateResponse>;
            let events: unknown[];
            try {
              response = translateResponse(from, to, body, { model: "m" });
              events = replay(from, body as never);
            } catch {
              // Bodies the library refuses (not every generated body is valid) lose nothing.
              return;
            }
            for (const loss of response.losses) expect(loss.path, loss.message).not.toBe("");
            const translator = createStreamTranslator(from, to, { model: "m" });
            for (const event of events) translator.push(event as never);
            translator.end();
            for (const loss of translator.losses) {
              expect(loss.path, loss.message).not.toBe("");
              expect(loss.path, loss.message).toMatch(/^\/\d+(\/|$)/);
            }
          }),
          { numRuns: 120 },
        );
      });
    }
  }
});

describe("stream losses point at the field, in the event it came from", () => {
  test("a dropped field of the 13th event is /12/…", () => {
    const chunk = (delta: object, extra: object = {}) => ({
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta, finish_reason: null, ...extra }],
    });
    const events = [
      ...Array.from({ length: 12 }, (_, index) => chunk({ content: `${index}` })),
      chunk({ content: "x" }, { logprobs: { content: [] } }),
    ];
    const { listed } = eventLevel("chat", "messages", events);
    expect(listed.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      "dropped /12/choices/0/logprobs",
      // The stream stops without a finish: an error event, at the event that never came.
      "synthesized /13",
    ]);
  });

  test("an encoder's loss points at the input event whose part caused it", () => {
    // A messages signature_delta has no chat form: the loss is at that delta's field.
    const events = [
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
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hm" } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "pause_turn", stop_sequence: null },
        usage: { output_tokens: 2 },
      },
      { type: "message_stop" },
    ];
    const { listed } = eventLevel("messages", "chat", events);
    expect(listed.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      "dropped /3/delta/signature",
      // The finish reason chat has no word for: at the field that gave it.
      "approximated /5/delta/stop_reason",
    ]);
    for (const loss of listed) expect(resolvePointer(events, loss.path).found).toBe(true);
  });
});
