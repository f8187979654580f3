/**
 * Usage for billing: `usageOf` over a response or an event list, and `options.onUsage` of the stream
 * translators, agree with each other and with `accumulate`, on every recorded stream, cut off or not;
 * and the cached-token arithmetic of each protocol, and across every pair, is pinned here.
 */
import { describe, expect, test } from "vitest";
import {
  accumulate,
  createStreamTranslator,
  type Protocol,
  protocols,
  translateEventStream,
  translateResponse,
  type Usage,
  usageOf,
} from "../../src/index";
import { fixtureIndex, readFixture, readJsonFixture, streamEvents, wiredFixtures } from "../helpers/fixtures";

/** The usage `onUsage` reports for `events` pushed through a `from` → `to` translator; `undefined`: not called. */
function viaCallback(from: Protocol, to: Protocol, events: readonly unknown[]): Usage | undefined {
  const calls: Usage[] = [];
  const translator = createStreamTranslator(from, to, { onUsage: (usage) => calls.push(usage) });
  for (const event of events) translator.push(event as never);
  expect(calls).toEqual([]);
  translator.end();
  translator.end();
  expect(calls.length).toBeLessThanOrEqual(1);
  return calls[0];
}

function accumulated(protocol: Protocol, events: readonly unknown[]): Usage | undefined | "cut" {
  try {
    return usageOf(protocol, accumulate(protocol, events as never));
  } catch {
    return "cut";
  }
}

const streams = wiredFixtures("stream");

describe("onUsage equals usageOf and accumulate's usage on every recorded stream", () => {
  test.each(streams.map((entry) => [entry.path, entry] as const))("%s", (_path, entry) => {
    const events = streamEvents(entry);
    const expected = usageOf(entry.protocol, events);
    const whole = accumulated(entry.protocol, events);
    // A stream that ends with its finish adds up to a response carrying the same figures.
    if (whole !== "cut") expect(whole).toEqual(expected);
    for (const to of protocols) expect(viaCallback(entry.protocol, to, events), `→ ${to}`).toEqual(expected);
    // Cut off: what arrived, the same whichever the target.
    for (const cut of new Set([1, Math.floor(events.length / 2), events.length - 1])) {
      const head = events.slice(0, cut);
      const arrived = usageOf(entry.protocol, head);
      for (const to of protocols)
        expect(viaCallback(entry.protocol, to, head), `cut at ${cut} → ${to}`).toEqual(arrived);
    }
  });

  test("most recorded streams carry usage (the walk above is not vacuous)", () => {
    const carrying = streams.filter((entry) => usageOf(entry.protocol, streamEvents(entry)) !== undefined);
    expect(carrying.length).toBeGreaterThan(streams.length * 0.8);
  });

  test("a messages stream cut after message_start still bills its input tokens", () => {
    const entry = fixtureIndex.find((item) => item.path === "messages/stream/anthropic-text-short.sse");
    if (entry === undefined) throw new Error("fixture missing");
    const events = streamEvents(entry);
    const usage = viaCallback("messages", "chat", events.slice(0, 1));
    expect(usage?.input).toBeGreaterThan(0);
    expect(usage?.output).toBe(
      (events[0] as { message: { usage: { output_tokens: number } } }).message.usage.output_tokens,
    );
  });
});

describe("the byte level reports the same usage, once, when the body ends, fails or is cancelled", () => {
  const bytesOf = (text: string) => new Blob([text]).stream();
  const sample = streams.filter((entry) => entry.path.includes("text")).slice(0, 8);

  test.each(sample.map((entry) => [entry.path, entry] as const))("%s", async (_path, entry) => {
    const text = readFixture(entry);
    const expected = usageOf(entry.protocol, streamEvents(entry));
    for (const to of protocols) {
      const calls: Usage[] = [];
      const out = translateEventStream(entry.protocol, to, bytesOf(text), { onUsage: (u) => calls.push(u) });
      await new Response(out).text();
      expect(calls).toEqual(expected === undefined ? [] : [expected]);
    }
  });

  test("a body that fails mid-way bills what arrived", async () => {
    const entry = sample[0];
    if (entry === undefined) throw new Error("no text stream");
    const text = readFixture(entry);
    const events = streamEvents(entry);
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(new Error("connection reset"));
        else controller.enqueue(new TextEncoder().encode(text.slice(0, Math.floor(text.length / 2))));
        sent = true;
      },
    });
    const calls: Usage[] = [];
    await new Response(
      translateEventStream(entry.protocol, "chat", body, { onUsage: (u) => calls.push(u) }),
    ).text();
    expect(calls.length).toBeLessThanOrEqual(1);
    // Only whole events count: the half body's events are a prefix of the recorded ones.
    const arrived = events.map((_, count) => usageOf(entry.protocol, events.slice(0, count)));
    if (calls[0] !== undefined) expect(arrived).toContainEqual(calls[0]);
  });

  test("a consumer that cancels still hears the usage that arrived", async () => {
    const entry = fixtureIndex.find((item) => item.path === "messages/stream/anthropic-text-short.sse");
    if (entry === undefined) throw new Error("fixture missing");
    const first = readFixture(entry).split("\n\n")[0] ?? "";
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`${first}\n\n`));
      },
    });
    const calls: Usage[] = [];
    const reader = translateEventStream("messages", "chat", body, {
      onUsage: (u) => calls.push(u),
    }).getReader();
    await reader.read();
    await reader.cancel("client went away");
    expect(calls).toHaveLength(1);
    expect(calls[0]?.input).toBeGreaterThan(0);
  });
});

// ─── The arithmetic ─────────────────────────────────────────────────────────────────────────────────

/** The same usage as each protocol writes it: 100 prompt tokens of which 80 read from the cache and 5 written to it, 30 output of which 10 reasoning. */
const WIRE: Record<Protocol, { field: string; usage: unknown }> = {
  chat: {
    field: "usage",
    usage: {
      prompt_tokens: 100,
      completion_tokens: 30,
      total_tokens: 130,
      prompt_tokens_details: { cached_tokens: 80, cache_write_tokens: 5 },
      completion_tokens_details: { reasoning_tokens: 10 },
    },
  },
  // input_tokens excludes both cache figures.
  messages: {
    field: "usage",
    usage: {
      input_tokens: 15,
      cache_read_input_tokens: 80,
      cache_creation_input_tokens: 5,
      output_tokens: 30,
      output_tokens_details: { thinking_tokens: 10 },
    },
  },
  // candidatesTokenCount excludes thoughts; there is no cache-write figure.
  generative: {
    field: "usageMetadata",
    usage: {
      promptTokenCount: 100,
      cachedContentTokenCount: 80,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 10,
      totalTokenCount: 130,
    },
  },
  responses: {
    field: "usage",
    usage: {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 80, cache_write_tokens: 5 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 10 },
      total_tokens: 130,
    },
  },
};

const BASE: Record<Protocol, string> = {
  chat: "chat/response/openai-text.json",
  messages: "messages/response/anthropic-text.json",
  generative: "generative/response/gemini-text.json",
  responses: "responses/response/openai-text.json",
};

function response(protocol: Protocol): unknown {
  const entry = fixtureIndex.find((item) => item.path === BASE[protocol]);
  if (entry === undefined) throw new Error(`no fixture ${BASE[protocol]}`);
  return { ...(readJsonFixture(entry) as object), [WIRE[protocol].field]: WIRE[protocol].usage };
}

const FULL: Usage = { input: 100, cachedRead: 80, cacheWrite: 5, output: 30, reasoning: 10, total: 130 };
// Generative has no cache-write figure: those tokens are still part of the prompt, uncounted as writes.
const NO_WRITE: Usage = { ...FULL, cacheWrite: 0 };

describe("the cached-token arithmetic of each protocol", () => {
  test.each(protocols)("%s", (protocol) => {
    expect(usageOf(protocol, response(protocol))).toEqual(protocol === "generative" ? NO_WRITE : FULL);
  });

  test("generative tool-use prompt tokens are input", () => {
    const body = {
      ...(response("generative") as object),
      usageMetadata: {
        promptTokenCount: 100,
        toolUsePromptTokenCount: 7,
        candidatesTokenCount: 5,
        totalTokenCount: 112,
      },
    };
    expect(usageOf("generative", body)).toEqual({
      input: 107,
      cachedRead: 0,
      cacheWrite: 0,
      output: 5,
      reasoning: 0,
      total: 112,
    });
  });

  test("messages: total is the sum, never input_tokens + output_tokens of the wire", () => {
    expect(usageOf("messages", response("messages"))?.total).toBe(130);
  });
});

describe("the figures survive every pair", () => {
  const pairs = protocols.flatMap((from) => protocols.map((to) => [from, to] as const));
  test.each(pairs)("%s → %s", (from, to) => {
    const translated = translateResponse(from, to, response(from)).value;
    const expected = from === "generative" || to === "generative" ? NO_WRITE : FULL;
    expect(usageOf(to, translated)).toEqual(expected);
  });
});

describe("usageOf on bad input", () => {
  test("no usage: undefined", () => {
    const body = { ...(response("chat") as object) } as Record<string, unknown>;
    delete body.usage;
    expect(usageOf("chat", body)).toBeUndefined();
    expect(usageOf("chat", [])).toBeUndefined();
  });

  test("not the protocol's shape: a TranslationError 400", () => {
    expect(() => usageOf("messages", { hello: "world" })).toThrow(expect.objectContaining({ status: 400 }));
  });
});
