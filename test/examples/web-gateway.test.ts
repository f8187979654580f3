/**
 * examples/web-gateway.ts, the gateway as a Web-standard `fetch(request, env)` handler: the three
 * official SDKs call it through their `fetch` option (no server in between), and it calls the
 * scripted upstream. It must bundle for a browser-like runtime (no node: modules).
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import { type GenerateContentResponse, GoogleGenAI } from "@google/genai";
import { buildSync } from "esbuild";
import OpenAI from "openai";
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  type MockInstance,
  test,
  vi,
} from "vitest";
import gateway, { type GatewayEnv, handlerFor } from "../../examples/web-gateway";
import { answerOf } from "./answers";
import { ANSWERS, startUpstream } from "./upstream";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let env: GatewayEnv;

beforeAll(async () => {
  upstream = await startUpstream();
  env = { UPSTREAM_URL: upstream.url, UPSTREAM_PROTOCOL: "messages", UPSTREAM_KEY: "sk-upstream" };
});
afterAll(() => upstream?.close());

// The handler reports each loss with console.warn (a Worker's log): collected here, and checked.
let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(() => warn.mockRestore());
const warned = () => warn.mock.calls.map((call) => String(call[0]));

/** What an SDK's `fetch` option calls: the handler, with the runtime's environment. */
const viaHandler = (input: string | URL | Request, init?: RequestInit) =>
  gateway.fetch(new Request(input, init), env);
const BASE = "http://gateway.example";
const expected = () => answerOf("messages", ANSWERS.messages.text[0]).text;
const expectedStream = () => answerOf("messages", ANSWERS.messages.text[1]).text;

describe("examples/web-gateway.ts builds the gateway once", () => {
  test("a new environment object with the same values (Deno's env.toObject() per request) reuses it", () => {
    const first = handlerFor({ ...env });
    expect(handlerFor({ ...env })).toBe(first);
    expect(handlerFor({ ...env, MAX_TOKENS: "1000" })).not.toBe(first);
    expect(handlerFor({ ...env })).not.toBe(first);
  });
});

describe("examples/web-gateway.ts in front of a messages upstream", () => {
  test("openai: text, stream, and a 429 in its own error class", async () => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${BASE}/v1`, fetch: viaHandler, maxRetries: 0 });
    const messages = [{ role: "user" as const, content: "hi" }];
    const completion = await client.chat.completions.create({ model: "text-model", messages });
    expect(completion.choices[0]?.message.content).toBe(expected());
    let text = "";
    for await (const chunk of await client.chat.completions.create({
      model: "text-model",
      messages,
      stream: true,
    }))
      text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe(expectedStream());
    await expect(
      client.chat.completions.create({ model: "rate-limit-model", messages }),
    ).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });

  test("@anthropic-ai/sdk: passed through natively, the request unchanged but for the key", async () => {
    let version: string | null = null;
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      version = new Request(input, init).headers.get("anthropic-version");
      return viaHandler(input, init);
    };
    const client = new Anthropic({ apiKey: "sk-test", baseURL: BASE, fetch, maxRetries: 0 });
    const before = upstream.received.length;
    const request = {
      model: "text-model",
      max_tokens: 64,
      messages: [{ role: "user" as const, content: "hi" }],
    };
    const message = await client.messages.stream(request).finalMessage();
    expect(message.content.map((block) => (block.type === "text" ? block.text : "")).join("")).toBe(
      expectedStream(),
    );
    const [seen] = upstream.received.slice(before);
    expect(seen?.body).toEqual({ ...request, stream: true });
    expect(seen?.headers["x-api-key"]).toBe("sk-upstream");
    // The client's version header goes upstream as given (spec section 5).
    expect(version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(seen?.headers["anthropic-version"]).toBe(version);
    // Nothing lost; the stream's usage billed once, from the stream as it passed.
    expect(warned()).toEqual([
      "usage messages→messages text-model stream input=20 cachedRead=0 cacheWrite=0 output=5 reasoning=0 total=25",
    ]);
  });

  test("@google/genai: text and stream", async () => {
    const client = new GoogleGenAI({
      apiKey: "sk-test",
      httpOptions: { baseUrl: BASE, apiVersion: "v1beta", fetch: viaHandler },
    });
    const textOf = (responses: GenerateContentResponse[]) =>
      responses
        .flatMap((response) => response.candidates?.[0]?.content?.parts ?? [])
        .map((part) => (part.thought !== true && typeof part.text === "string" ? part.text : ""))
        .join("");
    expect(textOf([await client.models.generateContent({ model: "text-model", contents: "hi" })])).toBe(
      expected(),
    );
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of await client.models.generateContentStream({
      model: "text-model",
      contents: "hi",
    }))
      chunks.push(chunk);
    expect(textOf(chunks)).toBe(expectedStream());
  });

  test("an upstream reset mid-stream fails the stream without taking the handler down", async () => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${BASE}/v1`, fetch: viaHandler, maxRetries: 0 });
    const messages = [{ role: "user" as const, content: "hi" }];
    const consume = async () => {
      for await (const _ of await client.chat.completions.create({
        model: "reset-model",
        messages,
        stream: true,
      })) {
        // read to the end
      }
    };
    await expect(consume()).rejects.toThrow();
    const completion = await client.chat.completions.create({ model: "text-model", messages });
    expect(completion.choices[0]?.message.content).toBe(expected());
  });

  test("it bundles for a browser-like runtime: no node: modules", () => {
    const result = buildSync({
      entryPoints: [join(root, "examples", "web-gateway.ts")],
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      external: ["zod", "zod/*"],
      logLevel: "silent",
      metafile: true,
      tsconfigRaw: {},
    });
    const inputs = Object.keys(result.metafile?.inputs ?? {});
    expect(inputs.some((input) => input.startsWith("node:"))).toBe(false);
    expect(inputs).toContain("examples/gateway.mjs");
  });
});
