/**
 * The toolkit's own parts: `sseBytes`, `cutBytes`, `assertValid`, the arbitraries outside the protocol
 * table (embeddings, model lists, music requests), and how `checkTranslator` reads its options.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { embeddings, models, music, protocols, sse, translateRequest } from "../../src/index";
import { resolveBias } from "../../src/testing/arbitraries/common";
import { protocolArbitraries, unwrittenArbitraries } from "../../src/testing/arbitraries/index";
import {
  arbitraries,
  assertLaws,
  assertValid,
  checkTranslator,
  cutBytes,
  type MusicRule,
  musicRules,
  sseBytes,
  type Translator,
  translatorLaws,
} from "../../src/testing/index";
import { firstDifference, shown } from "../../src/testing/laws/support";
import { runs } from "../helpers/tier";

const decoder = new TextDecoder();
const concat = (chunks: readonly Uint8Array[]) => Buffer.concat(chunks.map((chunk) => Buffer.from(chunk)));

describe("sseBytes", () => {
  test("writes one data line per event, chat's [DONE] as is", () => {
    const chunk = { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [] };
    expect(decoder.decode(sseBytes("chat", [chunk, "[DONE]"]))).toBe(
      `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`,
    );
  });

  test("names each messages event with its type, and parses back to the same events", () => {
    const events = [{ type: "ping" }, { type: "message_stop" }];
    const parser = sse.createParser();
    const messages = [...parser.feed(sseBytes("messages", events)), ...parser.end()];
    expect(messages).toEqual(events.map((event) => ({ event: event.type, data: JSON.stringify(event) })));
  });

  test.each([["\r\n"], ["\r"]] as const)(
    "frames with %j line ends when asked, parsing to the same messages",
    (lineEnd) => {
      fc.assert(
        fc.property(arbitraries.anyStreamEvents("messages"), (events) => {
          const bytes = sseBytes("messages", events, { lineEnd });
          expect(decoder.decode(bytes)).not.toMatch(lineEnd === "\r" ? /\n/ : /(?<!\r)\n/);
          const parse = (body: Uint8Array) => {
            const parser = sse.createParser();
            return [...parser.feed(body), ...parser.end()];
          };
          expect(parse(bytes)).toEqual(parse(sseBytes("messages", events)));
        }),
        { numRuns: 50 },
      );
    },
  );

  test("rejects a protocol outside the list, naming the valid ones", () => {
    expect(() => sseBytes("grpc" as never, [])).toThrow(
      new RegExp(`Unknown protocol "grpc": use one of ${protocols.join(", ")}`),
    );
  });
});

describe("cutBytes", () => {
  const text = 'data: {"text":"é€😀 ok"}\r\n\r\n';
  const bytes = new TextEncoder().encode(text);

  test("the chunks always concatenate to the bytes", () => {
    fc.assert(
      fc.property(
        cutBytes(bytes),
        (chunks) => void expect(concat(chunks).equals(Buffer.from(bytes))).toBe(true),
      ),
    );
  });

  test("cuts inside multi-byte characters, between CR and LF, and one byte at a time", () => {
    const samples = fc.sample(cutBytes(bytes), { numRuns: 300, seed: 7 });
    const boundaries = samples.map((chunks) => {
      const ends: number[] = [];
      let offset = 0;
      for (const chunk of chunks.slice(0, -1)) {
        offset += chunk.length;
        ends.push(offset);
      }
      return ends;
    });
    // Offsets before a continuation byte split a character; after the CR of CRLF split the line end.
    const inside = [...bytes.keys()].filter((index) => (bytes[index]! & 0xc0) === 0x80);
    const crlf = [...bytes.keys()].filter(
      (index) => index > 0 && bytes[index - 1] === 0x0d && bytes[index] === 0x0a,
    );
    expect(boundaries.some((ends) => ends.some((end) => inside.includes(end)))).toBe(true);
    expect(boundaries.some((ends) => ends.some((end) => crlf.includes(end)))).toBe(true);
    expect(
      samples.some((chunks) => chunks.length === bytes.length && chunks.every((chunk) => chunk.length === 1)),
    ).toBe(true);
  });
});

describe("assertValid", () => {
  test("passes a valid payload", () => {
    expect(() =>
      assertValid("chat", "request", { model: "m", messages: [{ role: "user", content: "hi" }] }),
    ).not.toThrow();
  });

  test("throws an Error listing each issue with its JSON pointer", () => {
    let thrown: unknown;
    try {
      assertValid("messages", "request", {
        model: "m",
        max_tokens: 0,
        messages: [{ role: "robot", content: "x" }],
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const message = (thrown as Error).message;
    expect(message).toMatch(/^Invalid messages request \(\d+ issues\):/);
    expect(message).toContain("\n  /max_tokens: ");
    expect(message).toContain("\n  /messages/0/role: ");
    expect((thrown as Error).cause).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: ["max_tokens"] })]),
    );
  });

  test("escapes pointer tokens (RFC 6901) and names the whole value when that is wrong", () => {
    expect(() => assertValid("generative", "errorBody", "oops")).toThrow(/\(the whole value\): /);
  });

  test("a kind or protocol outside the lists is a TypeError naming the valid ones", () => {
    expect(() => assertValid("chat", "chunk" as never, {})).toThrow(TypeError);
    expect(() => assertValid("chat", "chunk" as never, {})).toThrow(
      /request, response, streamEvent, errorBody/,
    );
    expect(() => assertValid("grpc" as never, "request", {})).toThrow(TypeError);
  });
});

describe("embeddings and model-list arbitraries", () => {
  const generativeEmbeddings = (value: unknown) =>
    embeddings.embedContentRequest.safeParse(value).success ||
    embeddings.batchEmbedContentsRequest.safeParse(value).success;

  test("every generated value parses with its schema (1,000 runs each)", () => {
    const parses = (check: (value: unknown) => boolean) => (value: unknown) =>
      void expect(check(value)).toBe(true);
    const cases: [fc.Arbitrary<unknown>, (value: unknown) => boolean][] = [
      [arbitraries.embeddingsRequest("chat"), (value) => embeddings.request.safeParse(value).success],
      [arbitraries.embeddingsRequest("generative"), generativeEmbeddings],
      [arbitraries.embeddingsResponse("chat"), (value) => embeddings.response.safeParse(value).success],
      [
        arbitraries.embeddingsResponse("generative"),
        (value) =>
          embeddings.embedContentResponse.safeParse(value).success ||
          embeddings.batchEmbedContentsResponse.safeParse(value).success,
      ],
      [arbitraries.modelList("chat"), (value) => models.chatList.safeParse(value).success],
      [arbitraries.modelList("messages"), (value) => models.messagesList.safeParse(value).success],
      [arbitraries.modelList("generative"), (value) => models.generativeList.safeParse(value).success],
      [arbitraries.modelEntry(), (value) => models.modelEntry.safeParse(value).success],
    ];
    for (const [arbitrary, check] of cases)
      fc.assert(fc.property(arbitrary, parses(check)), { numRuns: runs(1000, 50) });
  });

  test("they reach batches, token ids, base64 vectors, empty lists and ids with slashes and colons", () => {
    const sample = <T>(arbitrary: fc.Arbitrary<T>) => fc.sample(arbitrary, { numRuns: 200, seed: 11 });
    const chatInputs = sample(arbitraries.embeddingsRequest("chat")).map(
      (body) => (body as embeddings.Request).input,
    );
    expect(chatInputs.some((input) => Array.isArray(input) && typeof input[0] === "string")).toBe(true);
    expect(chatInputs.some((input) => Array.isArray(input) && Array.isArray(input[0]))).toBe(true);
    expect(
      sample(arbitraries.embeddingsRequest("generative")).some((body) => "requests" in (body as object)),
    ).toBe(true);
    expect(
      sample(arbitraries.embeddingsResponse("chat")).some(
        (body) => typeof (body as embeddings.Response).data[0]?.embedding === "string",
      ),
    ).toBe(true);
    const lists = sample(arbitraries.modelList("chat")) as models.ChatList[];
    expect(lists.some((list) => list.data.length === 0)).toBe(true);
    expect(lists.some((list) => list.data.some((model) => /[/:]/.test(model.id)))).toBe(true);
  });

  test("an embeddings protocol or list format outside the lists is a TypeError", () => {
    expect(() => arbitraries.embeddingsRequest("messages" as never)).toThrow(TypeError);
    expect(() => arbitraries.modelList("xml" as never)).toThrow(TypeError);
  });
});

describe("music request arbitraries", () => {
  test("every valid body passes validateAudioRequest and parses with the schema (1,000 runs)", () => {
    fc.assert(
      fc.property(arbitraries.musicRequest(), (body) => {
        const result = music.validateAudioRequest(body);
        expect(result.ok ? "ok" : result.body.message).toBe("ok");
        expect(music.audioRequest.safeParse(body).success).toBe(true);
      }),
      { numRuns: runs(1000, 50) },
    );
  });

  test.each(Object.entries(musicRules) as [MusicRule, string][])(
    "a body breaking %s is rejected with %s, that rule and nothing else",
    (rule, code) => {
      fc.assert(
        fc.property(arbitraries.musicRequest({ valid: false, rule }), (body) => {
          const result = music.validateAudioRequest(body);
          expect(result.ok ? "ok" : result.body.error).toBe(code);
        }),
        { numRuns: 200 },
      );
    },
  );

  test("without a rule, invalid bodies reach every rule's error code", () => {
    const codes = new Set(
      fc.sample(arbitraries.musicRequest({ valid: false }), { numRuns: 1000, seed: 3 }).map((body) => {
        const result = music.validateAudioRequest(body);
        return result.ok ? "ok" : result.body.error;
      }),
    );
    expect(codes).not.toContain("ok");
    expect([...codes].sort()).toEqual([...new Set(Object.values(musicRules))].sort());
  });

  test("valid bodies reach every action, every model and the default model", () => {
    const bodies = fc.sample(arbitraries.musicRequest({ valid: true }), { numRuns: 1000, seed: 5 }) as Record<
      string,
      unknown
    >[];
    expect(new Set(bodies.map((body) => body.action ?? "generate"))).toEqual(new Set(music.actionIds));
    expect(new Set(bodies.map((body) => body.model ?? "default"))).toEqual(
      new Set([...music.modelIds, "default"]),
    );
  });

  test("an unknown rule, or a rule asked of a valid body, is a TypeError", () => {
    expect(() => arbitraries.musicRequest({ valid: false, rule: "too_loud" as never })).toThrow(TypeError);
    expect(() => arbitraries.musicRequest({ valid: true, rule: "prompt_missing" })).toThrow(TypeError);
  });
});

describe("checkTranslator options", () => {
  test("runs only the laws whose functions the translator has, and none it lacks", async () => {
    const results = await checkTranslator(
      { translateRequest },
      { numRuns: 5, protocols: ["chat", "messages"] },
    );
    const laws = new Set(results.map((result) => `${result.law} ${result.subject}`));
    expect(laws).toEqual(
      new Set([
        "valid-output request",
        "identity request",
        "determinism request",
        "round-trip request",
        "loss-paths request",
        "strict-iff-losses request",
        "explicit-zeros request",
        "totality request",
      ]),
    );
    expect(results.every((result) => result.ok)).toBe(true);
  });

  test("`pairs` limits the directions, `laws` the laws", () => {
    const laws = translatorLaws(
      { translateRequest },
      { pairs: [["chat", "messages"]], laws: ["round-trip", "explicit-zeros"] },
    );
    expect(laws.map((law) => [law.law, law.from, law.to])).toEqual([
      ["explicit-zeros", "chat", "messages"],
      ["round-trip", "chat", "messages"],
    ]);
  });

  test("a translator with none of the functions, an unknown law or protocol is a TypeError", () => {
    expect(() => translatorLaws({})).toThrow(/at least one of translateRequest/);
    expect(() => translatorLaws({ translateRequest }, { laws: ["speed" as never] })).toThrow(TypeError);
    expect(() => translatorLaws({ translateRequest }, { protocols: ["grpc" as never] })).toThrow(TypeError);
  });

  test("a failing law answers its shrunk counterexample and the seed that replays it", async () => {
    const broken = {
      translateRequest: (from: never, to: never, body: unknown) => {
        const result = translateRequest(from, to, body);
        return { ...result, value: { ...(result.value as object), model: `${Math.random()}` } };
      },
    };
    const [result] = await checkTranslator(broken, {
      pairs: [["chat", "chat"]],
      laws: ["determinism"],
      numRuns: 20,
    });
    expect(result).toMatchObject({
      law: "determinism",
      subject: "request",
      from: "chat",
      to: "chat",
      ok: false,
    });
    expect(result?.message).toMatch(
      /a second call differs: the output at \/model: "0\.\d+" instead of "0\.\d+"/,
    );
    expect(result?.message).toMatch(
      /seed -?\d+, path "[\d:]*", found at run \d+( after \d+ skipped)?, shrunk \d+ times?\)/,
    );
    expect(result?.path).toMatch(/^\d+(:\d+)*$/);
    expect(() => assertValid("chat", "request", result?.counterexample)).not.toThrow();
    const again = await checkTranslator(broken, {
      pairs: [["chat", "chat"]],
      laws: ["determinism"],
      numRuns: 20,
      seed: result?.seed ?? 0,
    });
    expect(again[0]?.counterexample).toEqual(result?.counterexample);
  });
});

describe("checkTranslator calls only the pairs asked for", () => {
  /** The library's translateRequest, recording each direction it is called on. */
  function recording(): { translator: Translator; calls: Set<string> } {
    const calls = new Set<string>();
    return {
      calls,
      translator: {
        translateRequest(from, to, body, options) {
          calls.add(`${from} → ${to}`);
          return translateRequest(from, to, body, options);
        },
      },
    };
  }

  test("with `pairs`, the round trip comes back through the library's own translator, and says so", async () => {
    const { translator, calls } = recording();
    const results = await checkTranslator(translator, { pairs: [["chat", "messages"]], numRuns: 10 });
    assertLaws(results);
    expect([...calls]).toEqual(["chat → messages"]);
    const roundTrip = results.find((result) => result.law === "round-trip");
    expect(roundTrip?.statement).toMatch(
      /the way back by gateway-protocols' own translateRequest: messages → chat is not among the pairs checked/,
    );
  });

  test("when both directions are checked, the round trip takes the translator both ways", async () => {
    const { translator, calls } = recording();
    const results = await checkTranslator(translator, {
      pairs: [
        ["chat", "messages"],
        ["messages", "chat"],
      ],
      laws: ["round-trip"],
      numRuns: 10,
    });
    assertLaws(results);
    expect([...calls].sort()).toEqual(["chat → messages", "messages → chat"]);
    for (const result of results) expect(result.statement).not.toMatch(/way back/);
  });
});

describe("assertLaws", () => {
  const broken: Translator = {
    translateRequest(from, to, body, options) {
      const result = translateRequest(from, to, body, options);
      return { ...result, losses: [...result.losses, { path: "/nowhere", kind: "dropped", message: "x" }] };
    },
  };

  test("throws with each failed law's fields, seed, path and shrunk input, and replays it", async () => {
    const results = await checkTranslator(broken, {
      pairs: [["chat", "messages"]],
      laws: ["loss-paths", "determinism"],
      numRuns: 20,
      seed: 42,
    });
    let thrown: unknown;
    try {
      assertLaws(results);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const message = (thrown as Error).message;
    const failed = results.filter((result) => !result.ok);
    expect(failed.map((result) => result.law)).toEqual(["loss-paths"]);
    expect(message).toMatch(/^1 of 2 laws failed:\n\n1\. loss-paths \(request, chat → messages\)\n/);
    expect(message).toContain('the dropped loss "/nowhere" ("x") does not resolve in the input');
    expect(message).toMatch(
      /\(seed 42, path "[\d:]+", found at run 1( after \d+ skipped)?, shrunk \d+ times?\)/,
    );
    const input = /\n {3}input \(shrunk\): ([\s\S]*?)\n {3}replay: /.exec(message)?.[1];
    expect(JSON.parse(input ?? "")).toEqual(failed[0]?.counterexample);
    expect(message).toContain(
      'replay: checkTranslator(translator, { seed: 42, laws: ["loss-paths"], pairs: [["chat", "messages"]] })',
    );
  });

  test("is silent when every law holds, and a TypeError when given the promise", async () => {
    expect(() => assertLaws([])).not.toThrow();
    const results = checkTranslator({ translateRequest }, { pairs: [["chat", "chat"]], numRuns: 3 });
    expect(() => assertLaws(results as never)).toThrow(/await it first/);
    assertLaws(await results);
  });
});

describe("failure messages name the place", () => {
  test("the first differing pointer with both values, an item missing or added named as such", () => {
    expect(firstDifference({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] })).toBe("/b/1: 2 instead of 3");
    expect(firstDifference({ temperature: undefined }, { temperature: 0 })).toBe(
      "/temperature: missing (expected 0)",
    );
    expect(firstDifference({ x: 1, seed: 0 }, { x: 1 })).toBe("/seed: unexpected 0");
    const tool = { role: "tool", tool_call_id: "call_1", content: "x".repeat(300) };
    const messages = [{ role: "user" }, { role: "assistant" }, { role: "tool", tool_call_id: "call_0" }];
    expect(firstDifference({ messages }, { messages: [...messages, tool] })).toMatch(
      /^\/messages\/3: missing \(expected \{"role":"tool","tool_call_id":"call_1","content":"x+…"\}\)$/,
    );
    expect(firstDifference({ messages }, { messages: [messages[0], tool, ...messages.slice(1)] })).toMatch(
      /^\/messages\/1: missing \(expected \{"role":"tool",/,
    );
    expect(firstDifference({ messages: [messages[0], tool, ...messages.slice(1)] }, { messages })).toMatch(
      /^\/messages\/1: unexpected \{"role":"tool",/,
    );
    expect(firstDifference([{ a: 1 }], [{ a: 1 }])).toBeUndefined();
  });

  test("a long value is abbreviated member by member, never cut into invalid halves of two documents", () => {
    const value = { role: "tool", content: [{ type: "text", text: "y".repeat(500) }], extra: 1 };
    const text = shown(value);
    expect(text.length).toBeLessThanOrEqual(130);
    expect(text).toMatch(/^\{"role":"tool","content":\[\{"type":"text","text":"y+…"\}.*…\}$/);
    expect(shown(undefined)).toBe("undefined");
    expect(shown("short")).toBe('"short"');
  });
});

describe("the per-protocol table", () => {
  test("every protocol of the adapter table has its arbitraries written", () => {
    for (const protocol of protocols) {
      const entry = protocolArbitraries[protocol];
      expect(entry.reach.request.length, protocol).toBeGreaterThan(0);
      expect(fc.sample(entry.request(resolveBias(undefined)), { numRuns: 1, seed: 1 })).toHaveLength(1);
    }
  });

  test("a protocol whose arbitraries are not written fails at first use, naming the file to write", () => {
    const entry = unwrittenArbitraries("responses");
    const message =
      /no arbitraries for protocol "responses" yet: write src\/testing\/arbitraries\/responses\.ts/;
    expect(() => entry.request(resolveBias(undefined))).toThrow(message);
    expect(() => entry.stream(resolveBias(undefined))).toThrow(message);
    expect(() => entry.errorBody()).toThrow(message);
    expect(() => entry.reach).toThrow(message);
  });
});
