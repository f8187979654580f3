import { describe, expect, test } from "vitest";
import { checkDimensions, defaultDimensions, supportsDimensions } from "../../src/embeddings/dimensions";
import { request } from "../../src/embeddings/schema";

describe("defaultDimensions (spec 2.6)", () => {
  test("holds the table of spec 2.6", () => {
    expect(defaultDimensions).toEqual({
      "text-embedding-3-small": 1536,
      "text-embedding-3-large": 3072,
      "text-embedding-ada-002": 1536,
      "text-embedding-004": 768,
      "x-embedding-001": 768,
      "text-embedding-v1": 1024,
      "embedding-bert-512-v1": 512,
      "bge-large-zh": 1024,
      "bge-large-en": 1024,
    });
  });

  test("is frozen", () => {
    expect(Object.isFrozen(defaultDimensions)).toBe(true);
  });
});

describe("checkDimensions", () => {
  test("absent dimensions are fine for every model", () => {
    expect(checkDimensions({ model: "text-embedding-ada-002" })).toEqual({ ok: true });
  });

  test.each(["text-embedding-3-small", "text-embedding-3-large"])("%s accepts dimensions", (model) => {
    expect(supportsDimensions(model)).toBe(true);
    expect(checkDimensions({ model, dimensions: 256 })).toEqual({ ok: true });
  });

  test.each(["text-embedding-ada-002", "text-embedding-004", "bge-large-en", "x-embedding-001"])(
    "%s refuses dimensions with a 400 in chat's error shape",
    (model) => {
      expect(checkDimensions({ model, dimensions: 256 })).toEqual({
        ok: false,
        status: 400,
        body: {
          error: {
            message: `The model ${model} does not support \`dimensions\`; remove it from the request.`,
            type: "invalid_request_error",
            param: "dimensions",
            code: "unsupported_parameter",
          },
        },
      });
    },
  );

  test.each([0, -1, 1.5, 1537])("text-embedding-3-small refuses dimensions %s", (dimensions) => {
    expect(checkDimensions({ model: "text-embedding-3-small", dimensions })).toMatchObject({
      ok: false,
      status: 400,
      body: { error: { param: "dimensions", code: "invalid_value" } },
    });
  });

  test("the largest size is the model's default", () => {
    expect(checkDimensions({ model: "text-embedding-3-large", dimensions: 3072 })).toEqual({ ok: true });
  });

  test("a custom predicate widens the models that accept dimensions", () => {
    const check = checkDimensions({ model: "gemini-embedding-001", dimensions: 768 }, (m) =>
      m.startsWith("gemini-"),
    );
    expect(check).toEqual({ ok: true });
  });
});

describe("embeddings.request schema", () => {
  test.each([
    ["one text", "hello"],
    ["a batch", ["a", "b"]],
    ["token ids", [1, 2, 3]],
    ["token-id batches", [[1], [2, 3]]],
  ])("accepts %s as input", (_, input) => {
    expect(request.safeParse({ model: "m", input }).success).toBe(true);
  });

  test("keeps unknown fields", () => {
    expect(request.parse({ model: "m", input: "x", extra: 1 })).toEqual({ model: "m", input: "x", extra: 1 });
  });

  test("requires model and input", () => {
    expect(request.safeParse({ input: "x" }).success).toBe(false);
    expect(request.safeParse({ model: "m" }).success).toBe(false);
  });
});
