import { describe, expect, test } from "vitest";
import { TranslationError } from "../../src/common/errors";
import { translateEmbeddingsRequest } from "../../src/embeddings/request";
import { translateEmbeddingsResponse } from "../../src/embeddings/response";
import {
  batchEmbedContentsRequest,
  embedContentRequest,
  request,
  response,
} from "../../src/embeddings/schema";

const lossesOf = (out: { losses: { path: string; kind: string }[] }) =>
  out.losses.map(({ path, kind }) => ({ path, kind }));

describe("translateEmbeddingsRequest chat → generative (research M1)", () => {
  test("a batch becomes batchEmbedContents with models/{id} in every request and outputDimensionality", () => {
    const out = translateEmbeddingsRequest("chat", "generative", {
      model: "gemini-embedding-001",
      input: ["a", "b"],
      dimensions: 768,
    });
    expect(out.value).toEqual({
      path: "/v1beta/models/gemini-embedding-001:batchEmbedContents",
      body: {
        requests: [
          {
            model: "models/gemini-embedding-001",
            content: { parts: [{ text: "a" }] },
            outputDimensionality: 768,
          },
          {
            model: "models/gemini-embedding-001",
            content: { parts: [{ text: "b" }] },
            outputDimensionality: 768,
          },
        ],
      },
    });
    expect(out.losses).toEqual([]);
    expect(out.model).toBe("gemini-embedding-001");
    expect(batchEmbedContentsRequest.safeParse(out.value.body).success).toBe(true);
  });

  test("one text becomes embedContent", () => {
    const out = translateEmbeddingsRequest("chat", "generative", {
      model: "text-embedding-004",
      input: "hello",
    });
    expect(out.value).toEqual({
      path: "/v1beta/models/text-embedding-004:embedContent",
      body: { content: { parts: [{ text: "hello" }] } },
    });
    expect(embedContentRequest.safeParse(out.value.body).success).toBe(true);
  });

  test("dimensions 0 is given, not absent", () => {
    const out = translateEmbeddingsRequest("chat", "generative", { model: "m", input: "x", dimensions: 0 });
    expect(out.value.body).toMatchObject({ outputDimensionality: 0 });
  });

  test("user and unknown fields are dropped with a loss each; encoding_format is not a loss", () => {
    const out = translateEmbeddingsRequest("chat", "generative", {
      model: "m",
      input: "x",
      user: "u1",
      encoding_format: "base64",
      extra: true,
    });
    expect(lossesOf(out)).toEqual([
      { path: "/extra", kind: "dropped" },
      { path: "/user", kind: "dropped" },
    ]);
  });

  test.each([
    ["token ids", [1, 2, 3]],
    ["token-id batches", [[1, 2]]],
    ["an empty batch", []],
  ])("%s cannot be sent: TranslationError 400", (_, input) => {
    const run = () => translateEmbeddingsRequest("chat", "generative", { model: "m", input });
    expect(run).toThrow(TranslationError);
    try {
      run();
    } catch (error) {
      expect((error as TranslationError).status).toBe(400);
    }
  });

  test("an invalid body is a TranslationError naming the field", () => {
    expect(() => translateEmbeddingsRequest("chat", "generative", { input: "x" })).toThrow(/\/model/);
  });
});

describe("translateEmbeddingsRequest generative → chat (research M4)", () => {
  test("outputDimensionality → dimensions, taskType dropped", () => {
    const out = translateEmbeddingsRequest(
      "generative",
      "chat",
      { content: { parts: [{ text: "hello" }] }, taskType: "RETRIEVAL_DOCUMENT", outputDimensionality: 256 },
      { model: "text-embedding-3-small" },
    );
    expect(out.value).toEqual({ model: "text-embedding-3-small", input: "hello", dimensions: 256 });
    expect(lossesOf(out)).toEqual([{ path: "/taskType", kind: "dropped" }]);
    expect(request.safeParse(out.value).success).toBe(true);
  });

  test("batchEmbedContents becomes one request with input: string[] in order", () => {
    const out = translateEmbeddingsRequest("generative", "chat", {
      requests: [
        { model: "models/m", content: { parts: [{ text: "a" }] }, title: "T" },
        { model: "models/m", content: { role: "user", parts: [{ text: "b" }] } },
      ],
    });
    expect(out.value).toEqual({ model: "m", input: ["a", "b"] });
    expect(out.model).toBe("m");
    expect(lossesOf(out)).toEqual([
      { path: "/requests/0/title", kind: "dropped" },
      { path: "/requests/1/content/role", kind: "dropped" },
    ]);
  });

  test("differing outputDimensionality in a batch keeps the first, approximated for the others", () => {
    const out = translateEmbeddingsRequest(
      "generative",
      "chat",
      {
        requests: [
          { content: { parts: [{ text: "a" }] } },
          { content: { parts: [{ text: "b" }] }, outputDimensionality: 128 },
          { content: { parts: [{ text: "c" }] }, outputDimensionality: 64 },
        ],
      },
      { model: "m" },
    );
    expect(out.value).toEqual({ model: "m", input: ["a", "b", "c"], dimensions: 128 });
    expect(lossesOf(out)).toEqual([
      { path: "/requests/0", kind: "approximated" },
      { path: "/requests/2/outputDimensionality", kind: "approximated" },
    ]);
  });

  test("several text parts are joined with newlines, approximated", () => {
    const out = translateEmbeddingsRequest(
      "generative",
      "chat",
      { content: { parts: [{ text: "a" }, { text: "b" }] } },
      { model: "m" },
    );
    expect(out.value.input).toBe("a\nb");
    expect(lossesOf(out)).toEqual([{ path: "/content/parts", kind: "approximated" }]);
  });

  test("an image part is a TranslationError (chat embeddings take text only)", () => {
    const body = { content: { parts: [{ inlineData: { mimeType: "image/png", data: "AAAA" } }] } };
    expect(() => translateEmbeddingsRequest("generative", "chat", body, { model: "m" })).toThrow(/Only text/);
  });

  test("a batch request naming another model is a TranslationError", () => {
    const body = { requests: [{ model: "models/other", content: { parts: [{ text: "a" }] } }] };
    expect(() => translateEmbeddingsRequest("generative", "chat", body, { model: "m" })).toThrow(
      TranslationError,
    );
  });

  test("without a model anywhere it is a TranslationError", () => {
    expect(() =>
      translateEmbeddingsRequest("generative", "chat", { content: { parts: [{ text: "a" }] } }),
    ).toThrow(/Model name not specified/);
  });
});

describe("translateEmbeddingsRequest: same protocol is the identity", () => {
  test("chat → chat", () => {
    const body = { model: "m", input: ["a"], user: "u", extra: 1 };
    expect(translateEmbeddingsRequest("chat", "chat", body)).toEqual({ value: body, losses: [], model: "m" });
  });

  test("generative → generative keeps the body and builds the call path", () => {
    const body = { content: { parts: [{ text: "a" }] }, taskType: "X" };
    expect(translateEmbeddingsRequest("generative", "generative", body, { model: "m" })).toEqual({
      value: { path: "/v1beta/models/m:embedContent", body },
      losses: [],
      model: "m",
    });
  });

  test("an unknown protocol is a TypeError", () => {
    expect(() => translateEmbeddingsRequest("messages" as never, "chat", {})).toThrow(TypeError);
  });
});

describe("translateEmbeddingsResponse generative → chat (research M2, M3)", () => {
  test("a batch answer gets index = position, zero usage and an approximated loss", () => {
    const out = translateEmbeddingsResponse(
      "generative",
      "chat",
      { embeddings: [{ values: [0.1, 0.2] }, { values: [0.3, 0.4] }] },
      { model: "gemini-embedding-001" },
    );
    expect(out.value).toEqual({
      object: "list",
      model: "gemini-embedding-001",
      data: [
        { object: "embedding", index: 0, embedding: [0.1, 0.2] },
        { object: "embedding", index: 1, embedding: [0.3, 0.4] },
      ],
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
    expect(lossesOf(out)).toEqual([{ path: "/usage", kind: "approximated" }]);
    expect(response.safeParse(out.value).success).toBe(true);
  });

  test("a single answer, base64-encoded, with caller-supplied usage and no loss", () => {
    const out = translateEmbeddingsResponse(
      "generative",
      "chat",
      { embedding: { values: [1, -2] } },
      { model: "m", encodingFormat: "base64", promptTokens: 3 },
    );
    expect(out.value).toEqual({
      object: "list",
      model: "m",
      data: [{ object: "embedding", index: 0, embedding: "AACAPwAAAMA=" }],
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    expect(out.losses).toEqual([]);
  });

  test("usageMetadata.promptTokenCount fills usage when present", () => {
    const out = translateEmbeddingsResponse(
      "generative",
      "chat",
      { embedding: { values: [1] }, usageMetadata: { promptTokenCount: 5 } },
      { model: "m" },
    );
    expect(out.value.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
    expect(out.losses).toEqual([]);
  });

  test("no model: an empty model, synthesized", () => {
    const out = translateEmbeddingsResponse(
      "generative",
      "chat",
      { embedding: { values: [1] } },
      { promptTokens: 1 },
    );
    expect(out.value.model).toBe("");
    expect(lossesOf(out)).toEqual([{ path: "/model", kind: "synthesized" }]);
  });

  test("per-vector extras are dropped with a loss", () => {
    const out = translateEmbeddingsResponse(
      "generative",
      "chat",
      { embeddings: [{ values: [1], statistics: { token_count: 2 } }] },
      { model: "m", promptTokens: 2 },
    );
    expect(lossesOf(out)).toEqual([{ path: "/embeddings/0/statistics", kind: "dropped" }]);
  });
});

describe("translateEmbeddingsResponse chat → generative", () => {
  const chat = (data: unknown[]) => ({
    object: "list",
    data,
    model: "text-embedding-3-small",
    usage: { prompt_tokens: 4, total_tokens: 4 },
  });

  test("out-of-order data is put back in index order; model and usage are dropped", () => {
    const out = translateEmbeddingsResponse(
      "chat",
      "generative",
      chat([
        { object: "embedding", index: 1, embedding: [0.3] },
        { object: "embedding", index: 0, embedding: [0.1] },
      ]),
    );
    expect(out.value).toEqual({ embeddings: [{ values: [0.1] }, { values: [0.3] }] });
    expect(lossesOf(out)).toEqual([
      { path: "/model", kind: "dropped" },
      { path: "/usage", kind: "dropped" },
    ]);
  });

  test("one vector answers embedContent; base64 vectors are decoded", () => {
    const out = translateEmbeddingsResponse(
      "chat",
      "generative",
      chat([{ object: "embedding", index: 0, embedding: "AACAPwAAAMA=" }]),
    );
    expect(out.value).toEqual({ embedding: { values: [1, -2] } });
  });

  test("method batchEmbedContents keeps a batch of one", () => {
    const out = translateEmbeddingsResponse(
      "chat",
      "generative",
      chat([{ object: "embedding", index: 0, embedding: [1] }]),
      {
        method: "batchEmbedContents",
      },
    );
    expect(out.value).toEqual({ embeddings: [{ values: [1] }] });
  });

  test("method embedContent with two vectors is a TranslationError", () => {
    const body = chat([
      { object: "embedding", index: 0, embedding: [1] },
      { object: "embedding", index: 1, embedding: [2] },
    ]);
    expect(() => translateEmbeddingsResponse("chat", "generative", body, { method: "embedContent" })).toThrow(
      TranslationError,
    );
  });

  test("a malformed base64 vector is a TranslationError naming the item", () => {
    const body = chat([{ object: "embedding", index: 0, embedding: "***" }]);
    expect(() => translateEmbeddingsResponse("chat", "generative", body)).toThrow(/\/data\/0\/embedding/);
  });

  test("same protocol is the identity", () => {
    const body = chat([{ object: "embedding", index: 0, embedding: [1] }]);
    expect(translateEmbeddingsResponse("chat", "chat", body)).toEqual({ value: body, losses: [] });
  });
});
