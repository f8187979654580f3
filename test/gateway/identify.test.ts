import { describe, expect, test } from "vitest";
import { type IdentifyResult, identifyRequest } from "../../src/gateway/identify";

const bearer = { authorization: "Bearer sk-t" };

type Row = {
  title: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  out: IdentifyResult;
};

// Spec section 4 endpoints with spec section 5 credentials.
const routes: Row[] = [
  {
    title: "chat completions with a Bearer token",
    method: "POST",
    path: "/v1/chat/completions",
    headers: bearer,
    out: { protocol: "chat", operation: "chat.completions", token: "sk-t" },
  },
  {
    title: "embeddings with a Bearer token",
    method: "POST",
    path: "/v1/embeddings",
    headers: bearer,
    out: { protocol: "chat", operation: "embeddings", token: "sk-t" },
  },
  {
    title: "messages with a Bearer token",
    method: "POST",
    path: "/v1/messages",
    headers: bearer,
    out: { protocol: "messages", operation: "messages", token: "sk-t" },
  },
  {
    title: "messages with x-api-key and x-proto-version",
    method: "POST",
    path: "/v1/messages",
    headers: { "x-api-key": "sk-m", "x-proto-version": "2023-06-01" },
    out: { protocol: "messages", operation: "messages", token: "sk-m" },
  },
  {
    title: "messages with x-api-key alone",
    method: "POST",
    path: "/v1/messages",
    headers: { "x-api-key": "sk-m" },
    out: { protocol: "messages", operation: "messages", token: "sk-m" },
  },
  {
    title: "count_tokens on messages with x-api-key",
    method: "POST",
    path: "/v1/messages/count_tokens",
    headers: { "x-api-key": "sk-m", "anthropic-version": "2023-06-01" },
    out: { protocol: "messages", operation: "messages.count_tokens", token: "sk-m" },
  },
  {
    title: "countTokens on a generative model",
    method: "POST",
    path: "/v1beta/models/gemini-2.5-pro:countTokens",
    headers: { "x-goog-api-key": "sk-g" },
    out: { protocol: "generative", operation: "countTokens", model: "gemini-2.5-pro", token: "sk-g" },
  },
  {
    title: "input_tokens of a responses request",
    method: "POST",
    path: "/v1/responses/input_tokens",
    headers: { authorization: "Bearer sk-r" },
    out: { protocol: "responses", operation: "responses.input_tokens", token: "sk-r" },
  },
  {
    title: "generateContent with x-alt-api-key",
    method: "POST",
    path: "/v1beta/models/gemini-2.5-pro:generateContent",
    headers: { "x-alt-api-key": "sk-g" },
    out: {
      protocol: "generative",
      operation: "generateContent",
      model: "gemini-2.5-pro",
      stream: false,
      token: "sk-g",
    },
  },
  {
    title: "streamGenerateContent?alt=sse with x-goog-api-key",
    method: "POST",
    path: "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    headers: { "x-goog-api-key": "sk-g" },
    out: {
      protocol: "generative",
      operation: "streamGenerateContent",
      model: "gemini-2.5-pro",
      stream: true,
      streamFormat: "sse",
      token: "sk-g",
    },
  },
  {
    title: "streamGenerateContent without alt=sse streams a JSON array",
    method: "POST",
    path: "/v1beta/models/gemini-2.5-pro:streamGenerateContent",
    headers: bearer,
    out: {
      protocol: "generative",
      operation: "streamGenerateContent",
      model: "gemini-2.5-pro",
      stream: true,
      streamFormat: "json",
      token: "sk-t",
    },
  },
  {
    title: "generateContent under /v1/models, as the generative SDK calls it",
    method: "POST",
    path: "/v1/models/gemini-2.0-flash:generateContent",
    headers: { "x-goog-api-key": "sk-g" },
    out: {
      protocol: "generative",
      operation: "generateContent",
      model: "gemini-2.0-flash",
      stream: false,
      token: "sk-g",
    },
  },
  {
    title: "generateContent with the ?key= query parameter",
    method: "POST",
    path: "/v1beta/models/gemini-2.5-pro:generateContent?key=sk-q",
    headers: {},
    out: {
      protocol: "generative",
      operation: "generateContent",
      model: "gemini-2.5-pro",
      stream: false,
      token: "sk-q",
    },
  },
  {
    title: "embedContent",
    method: "POST",
    path: "/v1beta/models/text-embedding-004:embedContent",
    headers: { "x-goog-api-key": "sk-g" },
    out: { protocol: "generative", operation: "embedContent", model: "text-embedding-004", token: "sk-g" },
  },
  {
    title: "batchEmbedContents",
    method: "POST",
    path: "/v1beta/models/text-embedding-004:batchEmbedContents",
    headers: { "x-goog-api-key": "sk-g" },
    out: {
      protocol: "generative",
      operation: "batchEmbedContents",
      model: "text-embedding-004",
      token: "sk-g",
    },
  },
  {
    title: "a model id with dots, slashes and a colon runs to the last colon",
    method: "POST",
    path: "/v1beta/models/org/llama-3.1:8b:generateContent",
    headers: bearer,
    out: {
      protocol: "generative",
      operation: "generateContent",
      model: "org/llama-3.1:8b",
      stream: false,
      token: "sk-t",
    },
  },
  {
    title: "a percent-encoded model id is decoded (an encoded colon stays in the id)",
    method: "POST",
    path: "/v1beta/models/org%2Fmodel%3Av1:generateContent",
    headers: bearer,
    out: {
      protocol: "generative",
      operation: "generateContent",
      model: "org/model:v1",
      stream: false,
      token: "sk-t",
    },
  },
  {
    title: "model list with a Bearer token: chat format",
    method: "GET",
    path: "/v1/models",
    headers: bearer,
    out: { protocol: "chat", operation: "models.list", token: "sk-t", listFormat: "chat" },
  },
  {
    title: "model list with x-api-key and x-proto-version: messages format",
    method: "GET",
    path: "/v1/models",
    headers: { "x-api-key": "sk-m", "x-proto-version": "2023-06-01" },
    out: { protocol: "messages", operation: "models.list", token: "sk-m", listFormat: "messages" },
  },
  {
    title: "model list with x-api-key and the messages SDK's anthropic-version: messages format",
    method: "GET",
    path: "/v1/models",
    headers: { "x-api-key": "sk-m", "anthropic-version": "2023-06-01" },
    out: { protocol: "messages", operation: "models.list", token: "sk-m", listFormat: "messages" },
  },
  {
    title: "model list with x-api-key alone: chat format",
    method: "GET",
    path: "/v1/models",
    headers: { "x-api-key": "sk-m" },
    out: { protocol: "chat", operation: "models.list", token: "sk-m", listFormat: "chat" },
  },
  {
    title: "model list with Bearer plus x-api-key and x-proto-version: messages format",
    method: "GET",
    path: "/v1/models",
    headers: { ...bearer, "x-api-key": "sk-m", "x-proto-version": "2023-06-01" },
    out: { protocol: "messages", operation: "models.list", token: "sk-t", listFormat: "messages" },
  },
  {
    title: "model list on /v1/models with x-goog-api-key (generative SDK, apiVersion v1): generative format",
    method: "GET",
    path: "/v1/models",
    headers: { "x-goog-api-key": "sk-g" },
    out: { protocol: "generative", operation: "models.list", token: "sk-g", listFormat: "generative" },
  },
  {
    title: "/models is rewritten like /v1/models",
    method: "GET",
    path: "/models",
    headers: bearer,
    out: { protocol: "chat", operation: "models.list", token: "sk-t", listFormat: "chat" },
  },
  {
    title: "/models with x-api-key and x-proto-version: messages format",
    method: "GET",
    path: "/models",
    headers: { "x-api-key": "sk-m", "x-proto-version": "2023-06-01" },
    out: { protocol: "messages", operation: "models.list", token: "sk-m", listFormat: "messages" },
  },
  {
    title: "generative model list with x-alt-api-key",
    method: "GET",
    path: "/v1beta/models",
    headers: { "x-alt-api-key": "sk-g" },
    out: { protocol: "generative", operation: "models.list", token: "sk-g", listFormat: "generative" },
  },
  {
    title: "generative model list with a Bearer token is still generative",
    method: "GET",
    path: "/v1beta/models",
    headers: bearer,
    out: { protocol: "generative", operation: "models.list", token: "sk-t", listFormat: "generative" },
  },
  {
    title: "model retrieve",
    method: "GET",
    path: "/v1/models/gpt-4o-mini",
    headers: bearer,
    out: {
      protocol: "chat",
      operation: "models.retrieve",
      model: "gpt-4o-mini",
      token: "sk-t",
      listFormat: "chat",
    },
  },
  {
    title: "model retrieve keeps slashes and colons of the id",
    method: "GET",
    path: "/v1/models/org/model:free",
    headers: bearer,
    out: {
      protocol: "chat",
      operation: "models.retrieve",
      model: "org/model:free",
      token: "sk-t",
      listFormat: "chat",
    },
  },
  {
    title: "generative model retrieve",
    method: "GET",
    path: "/v1beta/models/gemini-2.5-pro",
    headers: { "x-goog-api-key": "sk-g" },
    out: {
      protocol: "generative",
      operation: "models.retrieve",
      model: "gemini-2.5-pro",
      token: "sk-g",
      listFormat: "generative",
    },
  },
  {
    title: "responses (spec 4.6)",
    method: "POST",
    path: "/v1/responses",
    headers: bearer,
    out: { protocol: "responses", operation: "responses", token: "sk-t" },
  },
  {
    title: "image generations (spec 4.6)",
    method: "POST",
    path: "/v1/images/generations",
    headers: bearer,
    out: { operation: "images.generations", token: "sk-t" },
  },
  {
    title: "rerank (spec 4.6)",
    method: "POST",
    path: "/v1/rerank",
    headers: bearer,
    out: { operation: "rerank", token: "sk-t" },
  },
];

const music: [string, string, string][] = [
  ["POST", "/music/audios", "music.audios"],
  ["POST", "/music/tasks", "music.tasks"],
  ["POST", "/music/lyrics", "music.lyrics"],
  ["POST", "/music/upload", "music.upload"],
  ["GET", "/music/persona", "music.persona.list"],
  ["POST", "/music/persona", "music.persona.create"],
  ["POST", "/music/voices", "music.voices"],
  ["POST", "/music/style", "music.style"],
  ["POST", "/music/mashup-lyrics", "music.mashup-lyrics"],
  ["POST", "/music/wav", "music.wav"],
  ["POST", "/music/mp4", "music.mp4"],
  ["POST", "/music/midi", "music.midi"],
  ["POST", "/music/timing", "music.timing"],
  ["POST", "/music/vox", "music.vox"],
];

describe("identifyRequest: endpoints and credentials", () => {
  test.each(routes)("$title", ({ method, path, headers, out }) => {
    expect(identifyRequest({ method, path, headers })).toEqual(out);
  });

  test.each(music)("%s %s is %s with a Bearer token", (method, path, operation) => {
    expect(identifyRequest({ method, path, headers: bearer })).toEqual({ operation, token: "sk-t" });
  });
});

describe("identifyRequest: headers", () => {
  test("header names match in any letter case", () => {
    const out = identifyRequest({
      method: "GET",
      path: "/v1/models",
      headers: { "X-Api-Key": "sk-m", "X-PROTO-VERSION": "2023-06-01" },
    });
    expect(out).toEqual({
      protocol: "messages",
      operation: "models.list",
      token: "sk-m",
      listFormat: "messages",
    });
  });

  test("the Bearer scheme matches in any letter case", () => {
    const out = identifyRequest({
      method: "POST",
      path: "/v1/chat/completions",
      headers: { Authorization: "bearer sk-x" },
    });
    expect(out).toMatchObject({ token: "sk-x" });
  });

  test("a Headers instance is read like a plain object", () => {
    const headers = new Headers({ "X-Goog-Api-Key": "sk-g" });
    const out = identifyRequest({ method: "POST", path: "/v1beta/models/g:generateContent", headers });
    expect(out).toEqual({
      protocol: "generative",
      operation: "generateContent",
      model: "g",
      stream: false,
      token: "sk-g",
    });
  });

  test("array header values (Node IncomingHttpHeaders) use the first value", () => {
    const headers = { authorization: ["Bearer sk-a", "Bearer sk-b"] };
    expect(identifyRequest({ method: "POST", path: "/v1/messages", headers })).toMatchObject({
      token: "sk-a",
    });
  });

  test("the method matches in any letter case", () => {
    expect(identifyRequest({ method: "post", path: "/v1/messages", headers: bearer })).toMatchObject({
      operation: "messages",
    });
  });

  test("Bearer wins over x-api-key on messages", () => {
    const headers = { authorization: "Bearer sk-b", "x-api-key": "sk-x" };
    expect(identifyRequest({ method: "POST", path: "/v1/messages", headers })).toMatchObject({
      token: "sk-b",
    });
  });

  test("a header key wins over the ?key= query parameter", () => {
    const out = identifyRequest({
      method: "POST",
      path: "/v1beta/models/g:generateContent?key=sk-q",
      headers: { "x-goog-api-key": "sk-h" },
    });
    expect(out).toMatchObject({ token: "sk-h" });
  });

  test("a trailing slash, a fragment and an absolute URL are tolerated", () => {
    expect(identifyRequest({ method: "POST", path: "/v1/chat/completions/", headers: bearer })).toMatchObject(
      {
        operation: "chat.completions",
      },
    );
    expect(
      identifyRequest({ method: "GET", path: "https://gw.example/v1/models?x=1#top", headers: bearer }),
    ).toMatchObject({ operation: "models.list" });
  });
});

describe("identifyRequest: 401 in the client protocol's error shape", () => {
  const missing = "Invalid or missing token";

  test("chat without a token", () => {
    const out = identifyRequest({ method: "POST", path: "/v1/chat/completions", headers: {} });
    expect(out).toEqual({
      error: {
        status: 401,
        body: {
          error: {
            message: expect.stringContaining(missing),
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        },
      },
    });
  });

  test("responses without a token: the chat-style envelope the responses API answers with", () => {
    const out = identifyRequest({ method: "POST", path: "/v1/responses", headers: {} });
    expect(out).toEqual({
      error: {
        status: 401,
        body: {
          error: {
            message: expect.stringContaining("Authorization: Bearer"),
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        },
      },
    });
  });

  test("messages without a token", () => {
    const out = identifyRequest({
      method: "POST",
      path: "/v1/messages",
      headers: { "x-proto-version": "2023-06-01" },
    });
    expect(out).toEqual({
      error: {
        status: 401,
        body: {
          type: "error",
          error: { type: "authentication_error", message: expect.stringContaining(missing) },
        },
      },
    });
  });

  test("generative without a token", () => {
    const out = identifyRequest({ method: "POST", path: "/v1beta/models/g:generateContent", headers: {} });
    expect(out).toEqual({
      error: {
        status: 401,
        body: { error: { code: 401, message: expect.stringContaining(missing), status: "UNAUTHENTICATED" } },
      },
    });
  });

  test("generative list without a token", () => {
    const out = identifyRequest({ method: "GET", path: "/v1beta/models", headers: {} });
    expect(out).toMatchObject({ error: { status: 401, body: { error: { status: "UNAUTHENTICATED" } } } });
  });

  test("music without a token", () => {
    const out = identifyRequest({ method: "POST", path: "/music/audios", headers: {} });
    expect(out).toEqual({
      error: {
        status: 401,
        body: { success: false, error: "invalid_api_key", message: expect.stringContaining(missing) },
      },
    });
  });

  test.each([
    ["an empty Authorization header", { authorization: "" }],
    ["a non-Bearer scheme", { authorization: "Basic c2stdA==" }],
    ["a Bearer with no token", { authorization: "Bearer " }],
    ["x-api-key on chat completions (messages and model lists only)", { "x-api-key": "sk-m" }],
    ["x-goog-api-key on chat completions (generative paths only)", { "x-goog-api-key": "sk-g" }],
  ])("chat with %s is 401", (_, headers) => {
    expect(identifyRequest({ method: "POST", path: "/v1/chat/completions", headers })).toMatchObject({
      error: { status: 401 },
    });
  });

  test("x-api-key is not a generative credential", () => {
    const out = identifyRequest({
      method: "POST",
      path: "/v1beta/models/g:generateContent",
      headers: { "x-api-key": "k" },
    });
    expect(out).toMatchObject({ error: { status: 401 } });
  });

  test("?key= is not accepted on chat paths", () => {
    const out = identifyRequest({ method: "POST", path: "/v1/chat/completions?key=sk-q", headers: {} });
    expect(out).toMatchObject({ error: { status: 401 } });
  });
});

describe("identifyRequest: 404, 405 and 400", () => {
  test.each([
    ["POST", "/v2/chat/completions", "chat"],
    ["POST", "/chat/completions", "chat"],
    ["GET", "/models/gpt-4o", "chat"],
    ["GET", "/", "chat"],
    ["POST", "/v1/messages/batches/x", "messages"],
    ["POST", "/v1beta/models/g:unknownMethod", "generative"],
    ["POST", "/v1beta/tunedModels/t:generateContent", "generative"],
    ["POST", "/music/unknown", "music"],
  ])("%s %s is 404 in the %s shape, token or not", (method, path, shape) => {
    const out = identifyRequest({ method, path, headers: bearer });
    expect(out).toMatchObject({ error: { status: 404 } });
    if (!("error" in out)) return;
    const body = out.error.body;
    if (shape === "chat")
      expect(body).toEqual({
        error: { message: expect.any(String), type: "invalid_request_error", param: null, code: "not_found" },
      });
    if (shape === "messages")
      expect(body).toEqual({
        type: "error",
        error: { type: "not_found_error", message: expect.any(String) },
      });
    if (shape === "generative")
      expect(body).toEqual({ error: { code: 404, message: expect.any(String), status: "NOT_FOUND" } });
    if (shape === "music")
      expect(body).toEqual({ success: false, error: "not_found", message: expect.any(String) });
  });

  test.each([
    ["GET", "/v1/chat/completions", "POST", "chat"],
    ["PUT", "/v1/chat/completions", "POST", "chat"],
    ["POST", "/v1/models", "GET", "chat"],
    ["DELETE", "/v1/models/gpt-4o", "GET", "chat"],
    ["POST", "/v1/models/gpt-4o", "GET", "chat"],
    ["GET", "/v1/messages", "POST", "messages"],
    ["GET", "/v1/messages/count_tokens", "POST", "messages"],
    ["POST", "/v1beta/models/g", "GET", "generative"],
    ["GET", "/v1beta/models/g:generateContent/", "POST", "generative"],
    ["GET", "/v1beta/models/g:streamGenerateContent?alt=sse", "POST", "generative"],
    ["GET", "/music/audios", "POST", "music"],
    ["DELETE", "/music/persona", "GET, POST", "music"],
  ])("%s %s is 405 (Allow: %s) in the %s shape, token or not", (method, path, allow, shape) => {
    const out = identifyRequest({ method, path, headers: bearer });
    if (!("error" in out)) throw new Error(`expected a 405, got ${JSON.stringify(out)}`);
    expect(out.error.status).toBe(405);
    expect(out.error.headers).toEqual({ allow });
    const message = `Method ${method} is not allowed on ${path.replace(/\?.*$/, "").replace(/\/$/, "")}: use ${allow.replace(", ", " or ")}.`;
    if (shape === "chat")
      expect(out.error.body).toEqual({
        error: { message, type: "invalid_request_error", param: null, code: "method_not_allowed" },
      });
    if (shape === "messages")
      expect(out.error.body).toEqual({ type: "error", error: { type: "invalid_request_error", message } });
    if (shape === "generative")
      expect(out.error.body).toEqual({ error: { code: 405, message, status: "INVALID_ARGUMENT" } });
    if (shape === "music")
      expect(out.error.body).toEqual({ success: false, error: "method_not_allowed", message });
  });

  test("a wrong method is 405 before the token is checked", () => {
    expect(identifyRequest({ method: "GET", path: "/v1/chat/completions", headers: {} })).toMatchObject({
      error: { status: 405, headers: { allow: "POST" } },
    });
  });

  test("an unknown path is 404 before the token is checked", () => {
    expect(identifyRequest({ method: "POST", path: "/nope", headers: {} })).toMatchObject({
      error: { status: 404 },
    });
  });

  test("a generative method with an empty model is 400 Model name not specified", () => {
    const out = identifyRequest({ method: "POST", path: "/v1beta/models/:generateContent", headers: bearer });
    expect(out).toEqual({
      error: {
        status: 400,
        body: {
          error: {
            code: 400,
            message: expect.stringMatching(/^Model name not specified/),
            status: "INVALID_ARGUMENT",
          },
        },
      },
    });
  });
});
