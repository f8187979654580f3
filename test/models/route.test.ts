import { describe, expect, test } from "vitest";
import { identifyRequest } from "../../src/gateway/identify";
import { endpointTypeOf, type RouteRequest, route } from "../../src/models/route";
import { protocols } from "../../src/protocols";

// Spec 4.1's endpoint types; `music-generate` stands for any `music-*` type.
const TYPES = [
  "std",
  "std-response",
  "msg",
  "gen",
  "embeddings",
  "image-generation",
  "x-rerank",
  "std-video",
  "music-generate",
] as const;
type EndpointType = (typeof TYPES)[number];

const translated = (upstream: string) => ({ upstream, translate: true });
const native = (upstream: string) => ({ upstream, translate: false });
const viaResponses = translated("responses");

// Client requests as identifyRequest gives them, and per single endpoint type of the model the
// expected upstream (undefined: refused).
const table: {
  client: string;
  request: RouteRequest;
  expected: Partial<Record<EndpointType, { upstream: string; translate: boolean }>>;
}[] = [
  {
    client: "chat completions",
    request: { protocol: "chat", operation: "chat.completions" },
    expected: {
      std: native("chat"),
      msg: translated("messages"),
      gen: translated("generative"),
      "std-response": viaResponses,
    },
  },
  {
    client: "messages",
    request: { protocol: "messages", operation: "messages" },
    expected: {
      msg: native("messages"),
      std: translated("chat"),
      gen: translated("generative"),
      "std-response": viaResponses,
    },
  },
  {
    client: "generateContent",
    request: { protocol: "generative", operation: "generateContent" },
    expected: {
      gen: native("generative"),
      std: translated("chat"),
      msg: translated("messages"),
      "std-response": viaResponses,
    },
  },
  {
    client: "streamGenerateContent",
    request: { protocol: "generative", operation: "streamGenerateContent" },
    expected: {
      gen: native("generative"),
      std: translated("chat"),
      msg: translated("messages"),
      "std-response": viaResponses,
    },
  },
  {
    client: "responses",
    request: { protocol: "responses", operation: "responses" },
    expected: {
      "std-response": native("responses"),
      std: translated("chat"),
      msg: translated("messages"),
      gen: translated("generative"),
    },
  },
  {
    client: "embeddings",
    request: { protocol: "chat", operation: "embeddings" },
    expected: { embeddings: native("embeddings") },
  },
  {
    client: "generative embedContent",
    request: { protocol: "generative", operation: "embedContent" },
    expected: { embeddings: translated("embeddings") },
  },
  {
    client: "generative batchEmbedContents",
    request: { protocol: "generative", operation: "batchEmbedContents" },
    expected: { embeddings: translated("embeddings") },
  },
  {
    client: "messages count_tokens",
    request: { protocol: "messages", operation: "messages.count_tokens" },
    expected: {
      msg: native("messages"),
      std: translated("chat"),
      gen: translated("generative"),
      "std-response": viaResponses,
    },
  },
  {
    client: "generative countTokens",
    request: { protocol: "generative", operation: "countTokens" },
    expected: {
      gen: native("generative"),
      std: translated("chat"),
      msg: translated("messages"),
      "std-response": viaResponses,
    },
  },
  {
    client: "responses input_tokens",
    request: { protocol: "responses", operation: "responses.input_tokens" },
    expected: {
      "std-response": native("responses"),
      std: translated("chat"),
      msg: translated("messages"),
      gen: translated("generative"),
    },
  },
  {
    client: "image generations",
    request: { operation: "images.generations" },
    expected: { "image-generation": native("image-generation") },
  },
  { client: "rerank", request: { operation: "rerank" }, expected: { "x-rerank": native("x-rerank") } },
  {
    client: "music audios",
    request: { operation: "music.audios" },
    expected: { "music-generate": native("music-generate") },
  },
];

const cases = table.flatMap(({ client, request, expected }) =>
  TYPES.map((type) => ({ client, request, type, expected: expected[type] })),
);

describe("route: every client request against a model of each single endpoint type (spec 4.1)", () => {
  test.each(cases)("$client on a model with [$type]", ({ request, type, expected }) => {
    const result = route(request, { id: "m-1", supported_endpoint_types: [type] });
    if (expected !== undefined) expect(result).toEqual(expected);
    else expect(result).toMatchObject({ error: { status: 400 } });
  });
});

describe("route: choosing among several endpoint types", () => {
  test("the client's own protocol wins wherever the model lists it: no conversion", () => {
    const entry = { id: "m", supported_endpoint_types: ["gen", "msg", "std"] };
    expect(route({ protocol: "chat", operation: "chat.completions" }, entry)).toEqual(native("chat"));
    expect(route({ protocol: "messages", operation: "messages" }, entry)).toEqual(native("messages"));
    expect(route({ protocol: "generative", operation: "generateContent" }, entry)).toEqual(
      native("generative"),
    );
  });

  test("otherwise the first translatable type in the model's own order", () => {
    const request = { protocol: "chat", operation: "chat.completions" } as const;
    expect(route(request, { id: "m", supported_endpoint_types: ["embeddings", "gen", "msg"] })).toEqual(
      translated("generative"),
    );
    expect(route(request, { id: "m", supported_endpoint_types: ["msg", "gen"] })).toEqual(
      translated("messages"),
    );
  });

  test("a type this library does not know is skipped, not an error", () => {
    const entry = { id: "m", supported_endpoint_types: ["x-future", "msg"] };
    expect(route({ protocol: "chat", operation: "chat.completions" }, entry)).toEqual(translated("messages"));
  });

  test("endpoint types match exactly (case and spelling, like model ids)", () => {
    const entry = { id: "m", supported_endpoint_types: ["Embeddings", "embedding"] };
    expect(route({ protocol: "chat", operation: "embeddings" }, entry)).toMatchObject({
      error: { status: 400 },
    });
  });

  test("takes identifyRequest's result as it is", () => {
    const identified = identifyRequest({
      method: "POST",
      path: "/v1beta/models/m:streamGenerateContent?alt=sse",
      headers: { "x-goog-api-key": "k" },
    });
    if ("error" in identified) throw new Error("expected a route");
    expect(route(identified, { id: "m", supported_endpoint_types: ["std"] })).toEqual(translated("chat"));
  });
});

describe("route: a mismatch is a 400 in the client's error shape", () => {
  const chatOnly = { id: "gpt-x", supported_endpoint_types: ["std", "msg"] };
  const message =
    "The model 'gpt-x' does not support POST /v1/embeddings (its endpoint types: std, msg; this endpoint needs embeddings): use a model whose supported_endpoint_types include it.";

  test("a model without embeddings on /v1/embeddings (chat shape)", () => {
    expect(route({ protocol: "chat", operation: "embeddings" }, chatOnly)).toEqual({
      error: {
        status: 400,
        body: {
          error: { message, type: "invalid_request_error", param: "model", code: "unsupported_endpoint" },
        },
      },
    });
  });

  test("a messages client on a model with no generation type (messages shape)", () => {
    const out = route(
      { protocol: "messages", operation: "messages" },
      { id: "e", supported_endpoint_types: [] },
    );
    expect(out).toEqual({
      error: {
        status: 400,
        body: {
          type: "error",
          error: {
            type: "invalid_request_error",
            message:
              "The model 'e' does not support POST /v1/messages (its endpoint types: none; this endpoint needs msg): use a model whose supported_endpoint_types include it.",
          },
        },
      },
    });
  });

  test("a generative embedContent on a chat model (generative shape)", () => {
    expect(route({ protocol: "generative", operation: "embedContent" }, chatOnly)).toEqual({
      error: {
        status: 400,
        body: {
          error: { code: 400, message: expect.stringContaining("embedContent"), status: "INVALID_ARGUMENT" },
        },
      },
    });
  });

  test("music on a chat model (music shape)", () => {
    expect(route({ operation: "music.audios" }, chatOnly)).toEqual({
      error: {
        status: 400,
        body: { success: false, error: "unsupported_endpoint", message: expect.stringContaining("music-*") },
      },
    });
  });

  test("images without a protocol answer in the chat shape", () => {
    expect(route({ operation: "images.generations" }, chatOnly)).toMatchObject({
      error: { status: 400, body: { error: { code: "unsupported_endpoint", param: "model" } } },
    });
  });

  test("count_tokens follows generation: a chat-only model counts by translation, a model without generation refuses", () => {
    const count = { protocol: "messages", operation: "messages.count_tokens" } as const;
    expect(route(count, { id: "c", supported_endpoint_types: ["std"] })).toEqual(translated("chat"));
    expect(route(count, { id: "e", supported_endpoint_types: ["embeddings"] })).toMatchObject({
      error: { status: 400, body: { type: "error" } },
    });
  });
});

describe("route: misuse is a TypeError", () => {
  test.each(["models.list", "models.retrieve"])("%s is answered by the gateway, not routed", (operation) => {
    expect(() => route({ operation }, { id: "m", supported_endpoint_types: ["std"] })).toThrow(
      /answered by the gateway itself/,
    );
  });

  test("an operation identifyRequest does not produce", () => {
    expect(() => route({ operation: "chat" }, { id: "m", supported_endpoint_types: ["std"] })).toThrow(
      TypeError,
    );
  });
});

describe("endpointTypeOf", () => {
  test.each([
    ["chat", "std"],
    ["messages", "msg"],
    ["generative", "gen"],
    ["responses", "std-response"],
  ] as const)("%s → %s", (protocol, type) => {
    expect(endpointTypeOf(protocol)).toBe(type);
  });

  test("every protocol the library knows has one", () => {
    for (const protocol of protocols) expect(typeof endpointTypeOf(protocol)).toBe("string");
  });

  test("an unknown id names the valid ones", () => {
    expect(() => endpointTypeOf("nope" as never)).toThrow(/Unknown protocol "nope": use one of "chat"/);
  });
});
