/**
 * The toolkit catches bugs it was not written against: translators that wrap this library and plant one
 * classic gateway bug each. For each, a law fails within 200 runs from a fixed seed with a message that
 * names the field at fault (its JSON pointer), while the library itself holds the same laws on the same
 * pairs. The run at which each bug was found is printed, so a change that makes a law slower to catch
 * it shows.
 */
import { describe, expect, test } from "vitest";
import * as library from "../../src/index";
import { createStreamTranslator, type Protocol, type TranslateOptions } from "../../src/index";
import {
  assertLaws,
  type CheckOptions,
  checkTranslator,
  type LawResult,
  sseBytes,
  type Translator,
} from "../../src/testing/index";
import { runs } from "../helpers/tier";

type Json = Record<string, unknown>;

/** The bound of the acceptance: every planted bug is caught within this many runs. */
const MOST_RUNS = 200;
/** Fixed, so each figure below is reproducible (the tier's FC_SEED does not move it). */
const SEED = 20_261_128;

/** The run at which a failed law found its counterexample (from its message). */
function foundAt(result: LawResult): number {
  const match = /found at run (\d+)/.exec(result.message ?? "");
  return Number(match?.[1] ?? Number.NaN);
}

/**
 * Runs the laws of `options` against `broken` (up to 200 runs, stopping at the first failure) and
 * against the library (the tier's runs), and expects a law of `laws` to fail with a message naming
 * `field`, within 200 runs, on a counterexample; answers that result.
 */
async function expectCaught(
  name: string,
  broken: Translator,
  options: CheckOptions & { laws: NonNullable<CheckOptions["laws"]> },
  field: RegExp,
): Promise<LawResult> {
  const found = await checkTranslator(broken, { ...options, seed: SEED, numRuns: MOST_RUNS });
  const failed = found.filter((result) => !result.ok);
  const naming = failed.find((result) => field.test(result.message ?? ""));
  expect(naming, failed.map((result) => result.message).join("\n\n") || "no law failed").toBeDefined();
  if (naming === undefined) throw new Error("unreachable");
  expect(naming.counterexample).toBeDefined();
  expect(naming.seed).toBe(SEED);
  expect(naming.path).toMatch(/^\d+(:\d+)*$/);
  expect(foundAt(naming)).toBeLessThanOrEqual(MOST_RUNS);
  const skipped = /found at run \d+ after (\d+) skipped/.exec(naming.message ?? "")?.[1] ?? "0";
  console.log(
    `${name}: ${naming.law} (${naming.from} → ${naming.to}) at run ${foundAt(naming)} (${skipped} inputs skipped)`,
  );
  // The same laws hold for the library on the same pairs: the failure is the planted bug's.
  assertLaws(await checkTranslator(library, { ...options, seed: SEED, numRuns: runs(MOST_RUNS) }));
  return naming;
}

describe("a translator with one planted bug is caught by a law naming the field at fault", () => {
  test("an explicit zero dropped (`if (body.temperature)`): explicit-zeros names /temperature alone", async () => {
    const broken: Translator = {
      translateRequest(from, to, body, options) {
        const { temperature, ...rest } = body as Json;
        return library.translateRequest(from, to, temperature ? body : rest, options);
      },
    };
    const result = await expectCaught(
      "explicit zero dropped",
      broken,
      { laws: ["explicit-zeros"], pairs: [["chat", "messages"]] },
      /: \/temperature \(0\) was translated as if it were absent, and no loss names it\n/,
    );
    // The counterexample shrinks to the request holding every zero, and only the dropped one is named.
    expect(result.counterexample).toMatchObject({
      body: { temperature: 0, top_p: 0, seed: 0, logprobs: false, user: "" },
    });
  });

  test("every zero dropped is named, each with its pointer, not the first one alone", async () => {
    const broken: Translator = {
      translateRequest(from, to, body, options) {
        const { temperature, top_p, seed, ...rest } = body as Json;
        const kept = { ...rest, ...(temperature ? { temperature } : {}), ...(top_p ? { top_p } : {}) };
        return library.translateRequest(from, to, seed ? { ...kept, seed } : kept, options);
      },
    };
    await expectCaught(
      "three zeros dropped",
      broken,
      { laws: ["explicit-zeros"], pairs: [["chat", "generative"]] },
      /: 3 given values were translated as if they were absent, and no loss names them: \/temperature \(0\), \/top_p \(0\) and \/seed \(0\)\n/,
    );
  });

  test("a tool result lost (a turn's results overwritten, the last one kept): valid-output names the call left without it", async () => {
    const broken: Translator = {
      translateRequest(from, to, body, options) {
        const result = library.translateRequest(from, to, body, options);
        if (to !== "messages") return result;
        const value = result.value as { messages: { role: string; content: unknown }[] };
        const messages = value.messages.map((message) => {
          if (!Array.isArray(message.content)) return message;
          const results = message.content.filter((block: Json) => block.type === "tool_result");
          const others = message.content.filter((block: Json) => block.type !== "tool_result");
          return { ...message, content: [...results.slice(-1), ...others] };
        });
        return { ...result, value: { ...value, messages } };
      },
    };
    // Not round-trip: the way back (the library's messages → chat) answers the orphan call with a
    // synthesized result and reports it, so the law sets the run aside; valid-output names the call.
    await expectCaught(
      "tool result lost",
      broken,
      { laws: ["valid-output", "round-trip"], pairs: [["chat", "messages"]] },
      /the messages service would refuse the output: \/messages\/\d+\/content\/\d+: tool call \S+ has no tool result/,
    );
  });

  test("a stream cut off upstream ending as a normal stop: honest-end names the finish", async () => {
    const broken: Translator = {
      createStreamTranslator(from, to, options) {
        const inner = createStreamTranslator(from, to, options) as {
          push(event: never): unknown[];
          end(): unknown[];
          readonly losses: readonly library.Loss[];
        };
        let last: Json = {};
        const seen = (events: unknown[]) => {
          for (const event of events) if (typeof event === "object" && event !== null) last = event as Json;
          return events;
        };
        return {
          push: (event: never) => seen(inner.push(event)),
          // The error chunk of a cut-off stream becomes a plain stop: the client takes the half answer for the whole.
          end: (): unknown[] =>
            (inner.end() as unknown[]).flatMap((event) =>
              typeof event === "object" && event !== null && "error" in event
                ? [
                    {
                      id: last.id ?? "chatcmpl-x",
                      object: "chat.completion.chunk",
                      created: last.created ?? 0,
                      model: last.model ?? "m",
                      choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
                    },
                    "[DONE]",
                  ]
                : [event],
            ),
          get losses() {
            return inner.losses;
          },
        };
      },
    };
    await expectCaught(
      "stream cut ending as a normal stop",
      broken,
      { laws: ["honest-end"], pairs: [["messages", "chat"]] },
      /cut off after \d+ events?, before its finish, yet the chat output ends as a normal finish at \/\d+\/choices\/0\/finish_reason \("stop"\)/,
    );
  });

  test("a usage sum wrong (cache reads left out of the prompt tokens): usage names the fields", async () => {
    const broken: Translator = {
      translateResponse(from, to, body, options) {
        const result = library.translateResponse(from, to, body, options);
        const usage = (result.value as { usage?: Json }).usage;
        const given = (body as { usage?: Json }).usage;
        if (to !== "chat" || usage === undefined || given === undefined) return result;
        const prompt = Number(given.input_tokens);
        const completion = Number(usage.completion_tokens);
        const value = {
          ...(result.value as Json),
          usage: { ...usage, prompt_tokens: prompt, total_tokens: prompt + completion },
        };
        return { ...result, value };
      },
    };
    await expectCaught(
      "usage sum wrong",
      broken,
      { laws: ["usage"], pairs: [["messages", "chat"]] },
      /\/usage\/prompt_tokens = \d+, not the \d+ input tokens of the messages response \(\/usage\/input_tokens \+ \/usage\/cache_read_input_tokens/,
    );
  });

  test("a nondeterministic id (from a counter): determinism names /id", async () => {
    let counter = 0;
    const broken: Translator = {
      translateResponse(from, to, body, options) {
        const result = library.translateResponse(from, to, body, options);
        counter += 1;
        return { ...result, value: { ...(result.value as Json), id: `chatcmpl-${counter}` } };
      },
    };
    await expectCaught(
      "nondeterministic id",
      broken,
      { laws: ["determinism"], pairs: [["messages", "chat"]] },
      /a second call differs: the output at \/id: "chatcmpl-\d+" instead of "chatcmpl-\d+"/,
    );
  });

  test("a timestamp from the clock (equal within a second): determinism, across a clock change, names /created", async () => {
    const broken: Translator = {
      translateResponse(from, to, body, options) {
        const result = library.translateResponse(from, to, body, options);
        return { ...result, value: { ...(result.value as Json), created: Math.floor(Date.now() / 1000) } };
      },
    };
    await expectCaught(
      "timestamp from the clock",
      broken,
      { laws: ["determinism"], pairs: [["messages", "chat"]] },
      /a call a year later differs: the output at \/created: \d+ instead of \d+/,
    );
  });

  test("a loss with a wrong pointer (indexes counted from 1): loss-paths names the pointer", async () => {
    const broken: Translator = {
      translateRequest(from, to, body, options) {
        const result = library.translateRequest(from, to, body, options);
        const losses = result.losses.map((entry) => ({
          ...entry,
          path: entry.path.replace(/\/(\d+)(?=\/|$)/g, (_, index: string) => `/${Number(index) + 1}`),
        }));
        return { ...result, losses };
      },
    };
    await expectCaught(
      "loss with a wrong pointer",
      broken,
      { laws: ["loss-paths"], pairs: [["messages", "chat"]] },
      /the \w+ loss "\/messages\/\d+[^"]*" \([^)]*\) does not resolve in the input/,
    );
  });
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
  const numRuns = runs(1000);

  test("written right, it holds the chunking law", async () => {
    const results = await checkTranslator(eventStream({ streamingDecoder: true, crLineEnds: true }), {
      numRuns,
      laws: ["chunking"],
      pairs,
    });
    expect(results).toHaveLength(pairs.length);
    assertLaws(results);
  });

  test("a TextDecoder per chunk (a character split across chunks breaks): chunking", async () => {
    const results = await checkTranslator(eventStream({ streamingDecoder: false, crLineEnds: true }), {
      numRuns: MOST_RUNS,
      seed: SEED,
      laws: ["chunking"],
      pairs,
    });
    const failed = results.filter((result) => !result.ok);
    expect(failed.length).toBeGreaterThan(0);
    for (const result of failed) {
      expect(result.message).toMatch(
        /the output differs from that of the whole LF-framed body in output event \d+, at character \d+: /,
      );
      expect(foundAt(result)).toBeLessThanOrEqual(MOST_RUNS);
    }
  });

  test("an SSE parser blind to CR-only line ends: chunking, on a CR-framed body", async () => {
    const results = await checkTranslator(eventStream({ streamingDecoder: true, crLineEnds: false }), {
      numRuns: MOST_RUNS,
      seed: SEED,
      laws: ["chunking"],
      pairs,
    });
    const failed = results.filter((result) => !result.ok);
    expect(failed.length).toBeGreaterThan(0);
    for (const result of failed) {
      expect((result.counterexample as { lineEnd: string }).lineEnd).toBe("\r");
      expect(foundAt(result)).toBeLessThanOrEqual(MOST_RUNS);
    }
  });
});
