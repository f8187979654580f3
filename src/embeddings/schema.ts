/**
 * Embeddings wire schemas: the chat-style `/v1/embeddings` request and response and the
 * generative `:embedContent` / `:batchEmbedContents` bodies. Loose objects, open enums.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 * @see https://ai.google.dev/api/embeddings
 */
import { z } from "zod/v4";

// ─── chat-style ──────────────────────────────────────────────────────────────────────────────────

/** `input`: one text, a batch of texts, or token ids (one list or a batch of lists). */
export const input = z.union([
  z.string(),
  z.array(z.string()),
  z.array(z.number()),
  z.array(z.array(z.number())),
]);
/**
 * `input`: one text, a batch of texts, or token ids (one list or a batch of lists). The type `input` parses
 * to.
 */
export type Input = z.infer<typeof input>;

/**
 * A chat-style `POST /v1/embeddings` body: `model`, `input` (a string, strings, or token ids), `encoding_format` (`float` or `base64`), `dimensions`, `user`.
 */
export const request = z.looseObject({
  model: z.string(),
  input,
  /** `float` (default) or `base64`. */
  encoding_format: z.string().optional(),
  /** Only the 3-series models accept it (see `checkDimensions`). */
  dimensions: z.number().optional(),
  user: z.string().optional(),
});
/**
 * A chat-style `POST /v1/embeddings` body: `model`, `input` (a string, strings, or token ids),
 * `encoding_format` (`float` or `base64`), `dimensions`, `user`. The type `request` parses to.
 */
export type Request = z.infer<typeof request>;

/** One vector: numbers, or a base64 string of float32 little-endian with `encoding_format: "base64"`. */
export const embedding = z.looseObject({
  object: z.string(),
  index: z.number(),
  embedding: z.union([z.array(z.number()), z.string()]),
});
/**
 * One vector: numbers, or a base64 string of float32 little-endian with `encoding_format: "base64"`. The type
 * `embedding` parses to.
 */
export type Embedding = z.infer<typeof embedding>;

/** Token usage of a chat-style embeddings response. */
export const usage = z.looseObject({ prompt_tokens: z.number(), total_tokens: z.number() });
/** Token usage of a chat-style embeddings response. The type `usage` parses to. */
export type Usage = z.infer<typeof usage>;

/**
 * A chat-style embeddings response: `{ object: "list", data: [{ object: "embedding", index, embedding }], model, usage }`; `embedding` is numbers, or base64 text with `encoding_format: "base64"`.
 */
export const response = z.looseObject({
  object: z.string(),
  data: z.array(embedding),
  model: z.string(),
  usage,
});
/**
 * A chat-style embeddings response: `{ object: "list", data: [{ object: "embedding", index, embedding }],
 * model, usage }`; `embedding` is numbers, or base64 text with `encoding_format: "base64"`. The type
 * `response` parses to.
 */
export type Response = z.infer<typeof response>;

// ─── generative ──────────────────────────────────────────────────────────────────────────────────

/** A content part; embeddings read `text`, other kinds (inlineData ...) are kept as given. */
export const part = z.looseObject({ text: z.string().optional() });
/**
 * A content part; embeddings read `text`, other kinds (inlineData ...) are kept as given. The type `part`
 * parses to.
 */
export type Part = z.infer<typeof part>;

/** The content to embed in a generative embeddings request: `{ role?, parts }`. */
export const content = z.looseObject({ role: z.string().optional(), parts: z.array(part) });
/**
 * The content to embed in a generative embeddings request: `{ role?, parts }`. The type `content` parses to.
 */
export type Content = z.infer<typeof content>;

/** `POST /v1beta/models/{model}:embedContent`; inside a batch each request names `models/{id}`. */
export const embedContentRequest = z.looseObject({
  model: z.string().optional(),
  content,
  taskType: z.string().optional(),
  title: z.string().optional(),
  outputDimensionality: z.number().optional(),
});
/**
 * `POST /v1beta/models/{model}:embedContent`; inside a batch each request names `models/{id}`. The type
 * `embedContentRequest` parses to.
 */
export type EmbedContentRequest = z.infer<typeof embedContentRequest>;

/** A generative `:batchEmbedContents` body: `{ requests }`, one `embedContent` request per vector. */
export const batchEmbedContentsRequest = z.looseObject({ requests: z.array(embedContentRequest) });
/**
 * A generative `:batchEmbedContents` body: `{ requests }`, one `embedContent` request per vector. The type
 * `batchEmbedContentsRequest` parses to.
 */
export type BatchEmbedContentsRequest = z.infer<typeof batchEmbedContentsRequest>;

/** One generative embedding: `{ values }`. */
export const contentEmbedding = z.looseObject({ values: z.array(z.number()) });
/** One generative embedding: `{ values }`. The type `contentEmbedding` parses to. */
export type ContentEmbedding = z.infer<typeof contentEmbedding>;

/** A generative `:embedContent` answer: `{ embedding: { values } }`. */
export const embedContentResponse = z.looseObject({ embedding: contentEmbedding });
/**
 * A generative `:embedContent` answer: `{ embedding: { values } }`. The type `embedContentResponse` parses
 * to.
 */
export type EmbedContentResponse = z.infer<typeof embedContentResponse>;

/** A generative `:batchEmbedContents` answer: `{ embeddings }`, in the order of the requests. */
export const batchEmbedContentsResponse = z.looseObject({ embeddings: z.array(contentEmbedding) });
/**
 * A generative `:batchEmbedContents` answer: `{ embeddings }`, in the order of the requests. The type
 * `batchEmbedContentsResponse` parses to.
 */
export type BatchEmbedContentsResponse = z.infer<typeof batchEmbedContentsResponse>;
