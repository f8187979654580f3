/**
 * The processing tier a request asks for (`service_tier`). Chat and responses share its words, so it
 * passes between them as given; messages has `auto` and `standard_only` (chat's `default`); a tier the
 * target has no word for is a loss at the field, never a silent change of what the request costs.
 * The requests are the ones the official SDKs send.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { chat, generative, messages, type Protocol, responses, translateRequest } from "../../src/index";

const schemas = { chat, messages, generative, responses };

/** The JSON body an SDK sends for a call, caught at its `fetch` (nothing goes on the network). */
async function sent(call: (fetch: typeof globalThis.fetch) => Promise<unknown>): Promise<unknown> {
  let body: unknown;
  const fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    body = JSON.parse(String(init?.body));
    throw new Error("caught");
  };
  await call(fetch as typeof globalThis.fetch).catch(() => undefined);
  if (body === undefined) throw new Error("the SDK sent nothing");
  return body;
}

const openai = (fetch: typeof globalThis.fetch) =>
  new OpenAI({ apiKey: "sk-test", baseURL: "http://gateway.example/v1", fetch, maxRetries: 0 });
const anthropic = (fetch: typeof globalThis.fetch) =>
  new Anthropic({ apiKey: "sk-test", baseURL: "http://gateway.example", fetch, maxRetries: 0 });

const chatBody = (tier: string) =>
  sent((fetch) =>
    openai(fetch).chat.completions.create({
      model: "gpt-5",
      messages: [{ role: "user", content: "hi" }],
      service_tier: tier as "flex",
    }),
  );
const responsesBody = (tier: string) =>
  sent((fetch) =>
    openai(fetch).responses.create({ model: "gpt-5", input: "hi", service_tier: tier as "flex" }),
  );
const messagesBody = (tier: "auto" | "standard_only") =>
  sent((fetch) =>
    anthropic(fetch).messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      messages: [{ role: "user", content: "hi" }],
      service_tier: tier,
    }),
  );

/** The translation's body (valid for the target) and what it said about the tier. */
function translated(from: Protocol, to: Protocol, body: unknown) {
  const { value, losses } = translateRequest(from, to, body as never, { maxTokens: 64 });
  expect(schemas[to].request.safeParse(value).success).toBe(true);
  return {
    tier: (value as { service_tier?: unknown }).service_tier,
    said: losses.filter((loss) => loss.path === "/service_tier").map((loss) => loss.kind),
  };
}

describe("chat and responses pass every tier as given", () => {
  // Groq's chat endpoint takes `on_demand`: a tier the target's provider knows is not ours to judge.
  for (const tier of ["auto", "default", "flex", "scale", "priority", "on_demand"])
    test(tier, async () => {
      expect(translated("chat", "responses", await chatBody(tier))).toEqual({ tier, said: [] });
      expect(translated("responses", "chat", await responsesBody(tier))).toEqual({ tier, said: [] });
    });
});

describe("messages: auto is auto, standard_only is chat's default", () => {
  test("from messages", async () => {
    for (const to of ["chat", "responses"] as const) {
      expect(translated("messages", to, await messagesBody("auto"))).toEqual({ tier: "auto", said: [] });
      expect(translated("messages", to, await messagesBody("standard_only"))).toEqual({
        tier: "default",
        said: [],
      });
    }
  });

  test("to messages", async () => {
    expect(translated("chat", "messages", await chatBody("default"))).toEqual({
      tier: "standard_only",
      said: [],
    });
    expect(translated("responses", "messages", await responsesBody("auto"))).toEqual({
      tier: "auto",
      said: [],
    });
  });

  test("a round trip through chat gives the messages tier back", async () => {
    const body = await messagesBody("standard_only");
    const chat = translateRequest("messages", "chat", body as never).value;
    expect(translated("chat", "messages", chat).tier).toBe("standard_only");
  });

  test("a tier messages has no word for is dropped, and said", async () => {
    for (const tier of ["flex", "scale", "priority"]) {
      const { value, losses } = translateRequest("chat", "messages", (await chatBody(tier)) as never, {
        maxTokens: 64,
      });
      expect("service_tier" in value).toBe(false);
      const said = losses.find((loss) => loss.path === "/service_tier");
      expect(said?.kind).toBe("dropped");
      expect(said?.message).toContain(`\`${tier}\``);
    }
  });
});

test("generative's tiers (standard, flex, priority) are sent as Gemini's serviceTier; a tier it lacks (scale) is dropped, and said", async () => {
  const tierOf = (from: Protocol, body: unknown) => {
    const { value, losses } = translateRequest(from, "generative", body as never, { maxTokens: 64 });
    expect(schemas.generative.request.safeParse(value).success).toBe(true);
    return {
      tier: (value as { serviceTier?: unknown }).serviceTier,
      said: losses.filter((loss) => loss.path === "/service_tier").map((loss) => loss.kind),
    };
  };
  expect(tierOf("chat", await chatBody("flex"))).toEqual({ tier: "flex", said: [] });
  expect(tierOf("chat", await chatBody("default"))).toEqual({ tier: "standard", said: [] });
  expect(tierOf("responses", await responsesBody("priority"))).toEqual({ tier: "priority", said: [] });
  // messages standard_only is the standard tier (chat's default).
  expect(tierOf("messages", await messagesBody("standard_only"))).toEqual({ tier: "standard", said: [] });
  expect(tierOf("responses", await responsesBody("scale"))).toEqual({ tier: undefined, said: ["dropped"] });
  // And back: Gemini's standard is chat's default.
  const back = translateRequest(
    "generative",
    "chat",
    { contents: [{ role: "user", parts: [{ text: "x" }] }], serviceTier: "standard" },
    { model: "gemini-3-flash-preview" },
  );
  expect(back.value.service_tier).toBe("default");
  expect(back.losses).toEqual([]);
});
