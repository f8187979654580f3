import fc from "fast-check";
import { expect, test } from "vitest";
import { translateEmbeddingsRequest } from "../../src/embeddings/request";
import { translateEmbeddingsResponse } from "../../src/embeddings/response";
import type { BatchEmbedContentsRequest } from "../../src/embeddings/schema";

const texts = fc.array(fc.string(), { minLength: 2, maxLength: 20 });
const vectors = fc.array(fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { maxLength: 8 }), {
  minLength: 1,
  maxLength: 20,
});

test("a chat batch keeps its count and order through generative and back", () => {
  fc.assert(
    fc.property(texts, (input) => {
      const there = translateEmbeddingsRequest("chat", "generative", { model: "m", input });
      const body = there.value.body as BatchEmbedContentsRequest;
      expect(body.requests.map((request) => request.content.parts[0]?.text)).toEqual(input);
      const back = translateEmbeddingsRequest("generative", "chat", body, { model: "m" });
      expect(back.value.input).toEqual(input);
    }),
  );
});

test("a generative batch answer keeps its count and order in chat, with index = position", () => {
  fc.assert(
    fc.property(vectors, (values) => {
      const out = translateEmbeddingsResponse(
        "generative",
        "chat",
        { embeddings: values.map((v) => ({ values: v })) },
        { model: "m" },
      );
      expect(out.value.data.map((item) => item.index)).toEqual(values.map((_, index) => index));
      expect(out.value.data.map((item) => item.embedding)).toEqual(values);
    }),
  );
});

test("a shuffled chat answer comes back to generative in index order, through base64 or not", () => {
  fc.assert(
    fc.property(vectors, fc.boolean(), fc.nat(), (values, base64, seed) => {
      const chat = translateEmbeddingsResponse(
        "generative",
        "chat",
        { embeddings: values.map((v) => ({ values: v })) },
        {
          model: "m",
          encodingFormat: base64 ? "base64" : "float",
        },
      ).value;
      const shuffled = [...chat.data].sort(
        (a, b) => ((a.index * 7919 + seed) % 101) - ((b.index * 7919 + seed) % 101),
      );
      const out = translateEmbeddingsResponse(
        "chat",
        "generative",
        { ...chat, data: shuffled },
        { method: "batchEmbedContents" },
      );
      const expected = values.map((v) => ({ values: Array.from(Float32Array.from(v)) }));
      expect(out.value).toEqual({ embeddings: expected });
    }),
  );
});
