/**
 * The toolkit catches bugs it was not written against: small translators that wrap this library and
 * add one classic gateway bug each. For each, the law that catches it fails with a counterexample,
 * while the library itself passes the same law on the same pairs.
 */
import { describe, expect, test } from "vitest";
import * as library from "../../src/index";
import { createStreamTranslator, type Protocol, type TranslateOptions } from "../../src/index";
import {
  type CheckOptions,
  checkTranslator,
  type LawResult,
  sseBytes,
  type Translator,
} from "../../src/testing/index";

type Json = Record<string, unknown>;
const numRuns = 50;

/** Runs `options` against the broken translator and against the library. */
async function compare(
  broken: Translator,
  options: CheckOptions,
): Promise<{ broken: LawResult[]; library: LawResult[] }> {
  const run = { numRuns, ...options };
  return { broken: await checkTranslator(broken, run), library: await checkTranslator(library, run) };
}

function expectCaught(results: { broken: LawResult[]; library: LawResult[] }, message: RegExp): void {
  expect(results.library.length).toBeGreaterThan(0);
  expect(results.library.filter((result) => !result.ok)).toEqual([]);
  const failed = results.broken.filter((result) => !result.ok);
  expect(failed.length).toBeGreaterThan(0);
  for (const result of failed) {
    expect(result.counterexample).toBeDefined();
    expect(result.message).toMatch(message);
  }
}

describe("a translator with a classic bug is caught by the law that names it", () => {
  test("ids from a counter (a response id that changes call to call): determinism", async () => {
    let counter = 0;
    const broken: Translator = {
      translateResponse(from, to, body, options) {
        const result = library.translateResponse(from, to, body, options);
        counter += 1;
        const key = to === "generative" ? "responseId" : "id";
        return { ...result, value: { ...(result.value as Json), [key]: `resp_${counter}` } };
      },
    };
    expectCaught(
      await compare(broken, {
        laws: ["determinism"],
        pairs: [
          ["messages", "chat"],
          ["chat", "generative"],
        ],
      }),
      /a second call differs: \/value\/(id|responseId)/,
    );
  });

  test("a timestamp from the clock (same within a second, so two quick calls agree): determinism, across a clock change", async () => {
    const broken: Translator = {
      translateResponse(from, to, body, options) {
        const result = library.translateResponse(from, to, body, options);
        if (to !== "chat") return result;
        return { ...result, value: { ...(result.value as Json), created: Math.floor(Date.now() / 1000) } };
      },
    };
    expectCaught(
      await compare(broken, { laws: ["determinism"], pairs: [["messages", "chat"]] }),
      /(a call a year later|a second call) differs: \/value\/created/,
    );
  });

  test("`0` dropped (`if (body.temperature)`): explicit-zeros", async () => {
    const broken: Translator = {
      translateRequest(from, to, body, options) {
        const { temperature, ...rest } = body as Json;
        return library.translateRequest(from, to, temperature ? body : rest, options);
      },
    };
    expectCaught(
      await compare(broken, {
        laws: ["explicit-zeros"],
        pairs: [
          ["chat", "messages"],
          ["messages", "generative"],
        ],
      }),
      /\/temperature was translated as if it were absent, and no loss names it/,
    );
  });

  test("tool calls dropped in one direction (assistant tool calls lost going to chat): round-trip", async () => {
    const broken: Translator = {
      translateRequest(from, to, body, options) {
        const result = library.translateRequest(from, to, body, options);
        if (to !== "chat") return result;
        const messages = (result.value as { messages: Json[] }).messages
          .filter((message) => message.role !== "tool")
          .map(({ tool_calls: _, ...message }) => message);
        return { ...result, value: { ...(result.value as Json), messages } };
      },
    };
    expectCaught(
      await compare(broken, { laws: ["round-trip"], pairs: [["chat", "messages"]] }),
      /came back different at \/messages/,
    );
  });

  describe("a byte-stream translator of our own framing (SSE parse, createStreamTranslator, sseBytes)", () => {
    /**
     * A plain SSE body translator as a gateway might write it. `streamingDecoder: false` decodes each
     * chunk on its own (a character split across chunks breaks); `crLineEnds: false` splits lines on
     * LF only (a server ending lines with a bare CR is never read).
     */
    function eventStream(flaws: { streamingDecoder: boolean; crLineEnds: boolean }): Translator {
      return {
        translateEventStream(
          from: Protocol,
          to: Protocol,
          body: ReadableStream<Uint8Array>,
          options?: TranslateOptions,
        ) {
          const translator = createStreamTranslator(from, to, options);
          const decoder = new TextDecoder();
          let buffer = "";
          let data: string[] = [];
          let afterCr = false;
          const dispatch = (controller: TransformStreamDefaultController<Uint8Array>) => {
            if (data.length === 0) return;
            const text = data.join("\n");
            data = [];
            const event = text === "[DONE]" ? text : JSON.parse(text);
            controller.enqueue(sseBytes(to, translator.push(event as never)));
          };
          const read = (controller: TransformStreamDefaultController<Uint8Array>, final: boolean) => {
            if (flaws.crLineEnds && afterCr && buffer.startsWith("\n")) buffer = buffer.slice(1);
            const lines = buffer.split(flaws.crLineEnds ? /\r\n|\r|\n/ : /\r?\n/);
            afterCr = buffer.endsWith("\r");
            buffer = final ? "" : (lines.pop() ?? "");
            for (const line of lines) {
              if (line === "") dispatch(controller);
              else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
            }
          };
          return body.pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              transform(chunk, controller) {
                buffer += flaws.streamingDecoder
                  ? decoder.decode(chunk, { stream: true })
                  : new TextDecoder().decode(chunk);
                read(controller, false);
              },
              flush(controller) {
                buffer += flaws.streamingDecoder ? decoder.decode() : "";
                read(controller, true);
                dispatch(controller);
                controller.enqueue(sseBytes(to, translator.end()));
              },
            }),
          );
        },
      };
    }
    const pairs: [Protocol, Protocol][] = [
      ["chat", "messages"],
      ["messages", "generative"],
      ["generative", "chat"],
    ];

    test("written right, it holds the chunking law", async () => {
      const results = await checkTranslator(eventStream({ streamingDecoder: true, crLineEnds: true }), {
        numRuns,
        laws: ["chunking"],
        pairs,
      });
      expect(results).toHaveLength(pairs.length);
      expect(results.filter((result) => !result.ok)).toEqual([]);
    });

    test("a TextDecoder per chunk (a character split across chunks breaks): chunking", async () => {
      expectCaught(
        await compare(eventStream({ streamingDecoder: false, crLineEnds: true }), {
          laws: ["chunking"],
          pairs,
        }),
        /the output differs from that of the whole LF-framed body/,
      );
    });

    test("an SSE parser blind to CR-only line ends: chunking", async () => {
      const results = await compare(eventStream({ streamingDecoder: true, crLineEnds: false }), {
        laws: ["chunking"],
        pairs,
      });
      expectCaught(results, /the output differs from that of the whole LF-framed body|JSON|Unexpected/);
      for (const result of results.broken.filter((entry) => !entry.ok)) {
        expect((result.counterexample as { lineEnd: string }).lineEnd).toBe("\r");
      }
    });
  });
});
