/**
 * Embeddings bodies of the two protocols that have the endpoint: chat-style `/v1/embeddings` requests
 * and responses (float or base64 vectors), and generative `:embedContent` / `:batchEmbedContents`.
 */
import fc from "fast-check";
import { embeddings } from "../../index";

export type EmbeddingsProtocol = embeddings.EmbeddingsProtocol;

const textArb = fc.string({ maxLength: 16 });
const modelArb = fc.constantFrom(
  "text-embedding-3-small",
  "text-embedding-3-large",
  "gemini-embedding-001",
  "m",
);
const vectorArb = fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), {
  minLength: 1,
  maxLength: 8,
});

const chatRequestArb = fc.record(
  {
    model: modelArb,
    input: fc.oneof(
      textArb,
      fc.array(textArb, { minLength: 1, maxLength: 6 }),
      fc.array(fc.nat(50_000), { minLength: 1, maxLength: 8 }),
      fc.array(fc.array(fc.nat(50_000), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
    ),
    encoding_format: fc.constantFrom("float", "base64"),
    dimensions: fc.integer({ min: 1, max: 3072 }),
    user: textArb,
  },
  { requiredKeys: ["model", "input"] },
);

const contentArb = fc.record(
  {
    role: fc.constant("user"),
    parts: fc.array(fc.record({ text: textArb }), { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ["parts"] },
);
const embedContentArb = fc.record(
  {
    model: modelArb.map((model) => `models/${model}`),
    content: contentArb,
    taskType: fc.constantFrom("RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT", "SEMANTIC_SIMILARITY"),
    title: textArb,
    outputDimensionality: fc.integer({ min: 1, max: 3072 }),
  },
  { requiredKeys: ["content"] },
);

const generativeRequestArb = fc.oneof(
  embedContentArb,
  fc.record({ requests: fc.array(embedContentArb, { minLength: 1, maxLength: 4 }) }),
);

const chatResponseArb = fc
  .record({
    vectors: fc.array(vectorArb, { minLength: 1, maxLength: 4 }),
    base64: fc.boolean(),
    model: modelArb,
    prompt: fc.nat(10_000),
  })
  .map(({ vectors, base64, model, prompt }) => ({
    object: "list",
    data: vectors.map((vector, index) => ({
      object: "embedding",
      index,
      embedding: base64 ? embeddings.encodeBase64(vector) : vector,
    })),
    model,
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  }));

const generativeResponseArb = fc.oneof(
  vectorArb.map((values) => ({ embedding: { values } })),
  fc.array(vectorArb, { minLength: 1, maxLength: 4 }).map((vectors) => ({
    embeddings: vectors.map((values) => ({ values })),
  })),
);

function check(protocol: unknown): EmbeddingsProtocol {
  if (protocol === "chat" || protocol === "generative") return protocol;
  throw new TypeError(`Unknown embeddings protocol ${JSON.stringify(protocol)}: use "chat" or "generative".`);
}

/** Embeddings requests of `protocol` (generative: an `:embedContent` or a `:batchEmbedContents` body). */
export function embeddingsRequestArb(protocol: EmbeddingsProtocol): fc.Arbitrary<unknown> {
  return check(protocol) === "chat" ? chatRequestArb : generativeRequestArb;
}

/** Embeddings responses of `protocol`. */
export function embeddingsResponseArb(protocol: EmbeddingsProtocol): fc.Arbitrary<unknown> {
  return check(protocol) === "chat" ? chatResponseArb : generativeResponseArb;
}
