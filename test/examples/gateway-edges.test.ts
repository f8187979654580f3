/**
 * What examples/node-gateway.mjs does around the translation, driven by the official SDKs on loopback
 * in front of a scripted upstream of each protocol: retry signals an SDK honours, beta headers that
 * reach an upstream of the client's own protocol, token counts for every upstream, headers back in
 * the client's conventions, the max_tokens policy, and a usage line per request.
 */
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Usage, usageOf } from "../../src/index";
import { fixtureIndex, readJsonFixture, streamEvents } from "../helpers/fixtures";
import { type Gateway, startGateway } from "./spawn";
import {
  ANSWERS,
  COUNTED_TOKENS,
  PROVIDER_CONVENTIONS,
  RETRY_CONVENTIONS,
  type RetryConvention,
  startUpstream,
  UPSTREAM_REQUEST_ID,
  type UpstreamProtocol,
} from "./upstream";

const UPSTREAMS: UpstreamProtocol[] = ["chat", "messages", "generative", "responses"];
let upstream: Awaited<ReturnType<typeof startUpstream>>;
const gateways = new Map<UpstreamProtocol, Gateway>();

beforeAll(async () => {
  upstream = await startUpstream();
  await Promise.all(
    UPSTREAMS.map(async (protocol) =>
      gateways.set(
        protocol,
        await startGateway({
          UPSTREAM_URL: upstream.url,
          UPSTREAM_PROTOCOL: protocol,
          UPSTREAM_KEY: "sk-upstream",
        }),
      ),
    ),
  );
});

afterAll(async () => {
  for (const gateway of gateways.values()) gateway.child.kill();
  await upstream?.close();
});

const urlOf = (protocol: UpstreamProtocol): string => {
  const gateway = gateways.get(protocol);
  if (gateway === undefined) throw new Error(`no gateway for ${protocol}`);
  return gateway.url;
};

/** The requests the upstream received for a model (in the body, or in a generative path). */
const receivedFor = (model: string) =>
  upstream.received.filter((request) => request.body.model === model || request.path.includes(`/${model}:`));

let unique = 0;
const modelFor = (convention: RetryConvention) => `retry-${convention}-${++unique}`;

/** Each client SDK, set to retry once, asking for one answer; what it saw of the 429 it retried. */
type RetryClient = (url: string, model: string) => Promise<{ text: string; seen?: Headers; body?: string }>;

const RETRY_CLIENTS: Record<string, RetryClient> = {
  openai: async (url, model) => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${url}/v1`, maxRetries: 1 });
    const completion = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "hi" }],
    });
    return { text: completion.choices[0]?.message.content ?? "" };
  },
  "openai (responses)": async (url, model) => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${url}/v1`, maxRetries: 1 });
    return { text: (await client.responses.create({ model, input: "hi" })).output_text };
  },
  "@anthropic-ai/sdk": async (url, model) => {
    const client = new Anthropic({ apiKey: "sk-test", baseURL: url, maxRetries: 1 });
    const message = await client.messages.create({
      model,
      max_tokens: 64,
      messages: [{ role: "user", content: "hi" }],
    });
    return { text: message.content.map((block) => (block.type === "text" ? block.text : "")).join("") };
  },
  // @google/genai's generateContent retries on its own schedule (p-retry backoff): it reads neither
  // retry-after nor RetryInfo. The test checks what the gateway told it; Gemini CLI reads RetryInfo.
  "@google/genai": async (url, model) => {
    let seen: Headers | undefined;
    let body: string | undefined;
    const client = new GoogleGenAI({
      apiKey: "sk-test",
      httpOptions: {
        baseUrl: url,
        apiVersion: "v1beta",
        retryOptions: { attempts: 2, initialDelay: 0.05, maxDelay: 0.05, jitter: 0 },
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          if (response.status === 429 && seen === undefined) {
            seen = response.headers;
            body = await response.clone().text();
          }
          return response;
        },
      },
    });
    const response = await client.models.generateContent({ model, contents: "hi" });
    const text = (response.candidates?.[0]?.content?.parts ?? [])
      .map((part) => (part.thought !== true && typeof part.text === "string" ? part.text : ""))
      .join("");
    return { text, ...(seen === undefined ? {} : { seen }), ...(body === undefined ? {} : { body }) };
  },
};

describe("an upstream 429 reaches each SDK with a retry delay it honours", () => {
  const cases = UPSTREAMS.flatMap((protocol) =>
    PROVIDER_CONVENTIONS[protocol].flatMap((convention) =>
      Object.keys(RETRY_CLIENTS).map((client) => [protocol, convention, client] as const),
    ),
  );
  test.concurrent.each(cases)(
    "%s upstream, %s, the %s client: retried once, after the advertised delay",
    async (protocol, convention, clientName) => {
      const model = modelFor(convention);
      const client = RETRY_CLIENTS[clientName];
      if (client === undefined) throw new Error(clientName);
      const answer = await client(urlOf(protocol), model);
      expect(answer.text).not.toBe("");
      const attempts = receivedFor(model);
      expect(attempts).toHaveLength(2);
      const [first, second] = attempts;
      if (first === undefined || second === undefined) throw new Error("two attempts expected");
      const waited = second.at - first.at;
      const { delayMs } = RETRY_CONVENTIONS[convention];
      if (clientName === "@google/genai") {
        // What the gateway said: retry-after in seconds (rounded up), and Gemini's own RetryInfo.
        expect(answer.seen?.get("retry-after")).toBe(String(Math.ceil(delayMs / 1000)));
        expect(JSON.parse(answer.body ?? "{}")).toMatchObject({
          error: {
            status: "RESOURCE_EXHAUSTED",
            details: [
              { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${delayMs / 1000}s` },
            ],
          },
        });
      } else {
        // The SDK waited what the upstream asked (its own default backoff is 0.5 s at most).
        expect(waited).toBeGreaterThanOrEqual(delayMs - 30);
        expect(waited).toBeLessThan(delayMs + 700);
      }
    },
    15_000,
  );
});

describe("anthropic-beta reaches a messages upstream that refuses beta fields without it", () => {
  const request = {
    model: "text-model",
    max_tokens: 64,
    messages: [{ role: "user" as const, content: "hi" }],
    context_management: { edits: [{ type: "clear_tool_uses_20250919" as const }] },
  };

  test("@anthropic-ai/sdk with betas: the upstream gets the header as given and answers", async () => {
    const client = new Anthropic({ apiKey: "sk-test", baseURL: urlOf("messages"), maxRetries: 0 });
    const before = upstream.received.length;
    const message = await client.beta.messages.create({
      ...request,
      betas: ["context-management-2025-06-27", "fine-grained-tool-streaming-2025-05-14"],
    });
    expect(message.content.length).toBeGreaterThan(0);
    const [seen] = upstream.received.slice(before);
    expect(seen?.headers["anthropic-beta"]).toBe(
      "context-management-2025-06-27,fine-grained-tool-streaming-2025-05-14",
    );
    expect(seen?.headers["x-api-key"]).toBe("sk-upstream");
    expect(seen?.body.context_management).toEqual(request.context_management);
  });

  test("without it, the upstream's refusal arrives as the SDK's BadRequestError", async () => {
    const client = new Anthropic({ apiKey: "sk-test", baseURL: urlOf("messages"), maxRetries: 0 });
    await expect(client.messages.create(request as never)).rejects.toThrow(
      /context_management: Extra inputs are not permitted/,
    );
  });
});

describe("token counts for every upstream", () => {
  test.each(UPSTREAMS)("%s upstream: the three count endpoints answer", async (protocol) => {
    const url = urlOf(protocol);
    const estimated = protocol === "chat";
    const anthropic = new Anthropic({ apiKey: "sk-test", baseURL: url, maxRetries: 0 });
    const messages = await anthropic.messages.countTokens({
      model: "count-model",
      messages: [{ role: "user", content: "How many tokens is this?" }],
    });
    const genai = new GoogleGenAI({ apiKey: "sk-test", httpOptions: { baseUrl: url, apiVersion: "v1beta" } });
    const generative = await genai.models.countTokens({
      model: "count-model",
      contents: "How many tokens is this?",
    });
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${url}/v1`, maxRetries: 0 });
    const responses = await openai.responses.inputTokens.count({
      model: "count-model",
      input: "How many tokens is this?",
    });
    if (estimated) {
      // chat has no count endpoint: a rough figure, said to be one (the generative SDK keeps only the header).
      for (const answer of [messages, responses]) expect(answer).toMatchObject({ estimate: true });
      expect(generative.sdkHttpResponse?.headers?.["x-token-count"]).toBe("estimate");
      expect(messages.input_tokens).toBeGreaterThan(0);
      expect(generative.totalTokens).toBeGreaterThan(0);
      expect(responses.input_tokens).toBeGreaterThan(0);
    } else {
      expect(messages).toEqual({ input_tokens: COUNTED_TOKENS });
      expect(generative.totalTokens).toBe(COUNTED_TOKENS);
      expect(responses).toMatchObject({ object: "response.input_tokens", input_tokens: COUNTED_TOKENS });
      const counts = upstream.received.filter(
        (request) =>
          /count_tokens|:countTokens|input_tokens/.test(request.path) &&
          request.path.startsWith(
            {
              messages: "/v1/messages",
              generative: "/v1beta/models/count-model",
              responses: "/v1/responses",
            }[protocol],
          ),
      );
      expect(counts.length).toBeGreaterThanOrEqual(3);
    }
  });
});

describe("the upstream's headers come back in the client's conventions", () => {
  test.each(UPSTREAMS)(
    "%s upstream: the request id reaches the openai and anthropic SDKs",
    async (protocol) => {
      const url = urlOf(protocol);
      const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${url}/v1`, maxRetries: 0 });
      const completion = await openai.chat.completions.create({
        model: "text-model",
        messages: [{ role: "user", content: "hi" }],
      });
      const anthropic = new Anthropic({ apiKey: "sk-test", baseURL: url, maxRetries: 0 });
      const message = await anthropic.messages.create({
        model: "text-model",
        max_tokens: 64,
        messages: [{ role: "user", content: "hi" }],
      });
      expect(completion._request_id).toBe(UPSTREAM_REQUEST_ID);
      expect(message._request_id).toBe(UPSTREAM_REQUEST_ID);
    },
  );
});

describe("max_tokens toward a messages upstream when the client sets none", () => {
  const ask = (url: string, model: string) =>
    new OpenAI({ apiKey: "sk-test", baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions.create({
      model,
      messages: [{ role: "user", content: "hi" }],
    });

  test("a default per model family, chosen by the gateway (no synthesized-4096 loss)", async () => {
    await ask(urlOf("messages"), "text-claude-sonnet-4-5");
    await ask(urlOf("messages"), "text-claude-3-5-haiku");
    await ask(urlOf("messages"), "text-other-model");
    expect(receivedFor("text-claude-sonnet-4-5")[0]?.body.max_tokens).toBe(32000);
    expect(receivedFor("text-claude-3-5-haiku")[0]?.body.max_tokens).toBe(8192);
    expect(receivedFor("text-other-model")[0]?.body.max_tokens).toBe(8192);
    expect(gateways.get("messages")?.stderr()).not.toMatch(/max_tokens\.synthesized/);
  });

  test("MAX_TOKENS sets it", async () => {
    const gateway = await startGateway({
      UPSTREAM_URL: upstream.url,
      UPSTREAM_PROTOCOL: "messages",
      UPSTREAM_KEY: "k",
      MAX_TOKENS: "777",
    });
    try {
      await ask(gateway.url, "text-budget-model");
      expect(receivedFor("text-budget-model")[0]?.body.max_tokens).toBe(777);
    } finally {
      gateway.child.kill();
    }
  });

  test("a MAX_TOKENS that is not a positive integer stops the gateway", async () => {
    await expect(
      startGateway({ UPSTREAM_URL: upstream.url, UPSTREAM_PROTOCOL: "messages", MAX_TOKENS: "lots" }),
    ).rejects.toThrow(/MAX_TOKENS must be a positive integer/);
  });
});

describe("a usage line per request on stderr, from the response or from the stream as it passed", () => {
  const usageLine = (usage: Usage | undefined) =>
    Object.entries(usage ?? {})
      .map(([name, count]) => `${name}=${count}`)
      .join(" ");
  const fixtureUsage = (path: string) => {
    const entry = fixtureIndex.find((item) => item.path === path);
    if (entry === undefined) throw new Error(path);
    return usageOf(entry.protocol, path.endsWith(".sse") ? streamEvents(entry) : readJsonFixture(entry));
  };

  test.each(UPSTREAMS)("%s upstream, a chat client: whole and streamed", async (protocol) => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${urlOf(protocol)}/v1`, maxRetries: 0 });
    const model = `text-usage-${protocol}`;
    await client.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
    for await (const _ of await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    })) {
      // drained: the usage comes with the stream's end
    }
    const [whole, streamed] = ANSWERS[protocol].text;
    const arrow = protocol === "chat" ? "chat→chat" : `${protocol}→chat`;
    const expected = [
      `usage ${arrow} ${model} whole ${usageLine(fixtureUsage(whole))}`,
      `usage ${arrow} ${model} stream ${usageLine(fixtureUsage(streamed))}`,
    ];
    // The stream's line comes when the gateway has read the upstream's end, which may be after the
    // client stopped at its protocol's last event; the child's stderr arrives when it arrives.
    const lines = async () => {
      for (let tries = 0; ; tries++) {
        const found = (gateways.get(protocol)?.stderr() ?? "")
          .split("\n")
          .filter((line) => line.includes(` ${model} `));
        if (found.length >= expected.length || tries > 50) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    expect(await lines()).toEqual(expected);
  });
});
