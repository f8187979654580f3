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
export type Input = z.infer<typeof input>;

export const request = z.looseObject({
  model: z.string(),
  input,
  /** `float` (default) or `base64`. */
  encoding_format: z.string().optional(),
  /** Only the 3-series models accept it (see `checkDimensions`). */
  dimensions: z.number().optional(),
  user: z.string().optional(),
});
export type Request = z.infer<typeof request>;

/** One vector: numbers, or a base64 string of float32 little-endian with `encoding_format: "base64"`. */
export const embedding = z.looseObject({
  object: z.string(),
  index: z.number(),
  embedding: z.union([z.array(z.number()), z.string()]),
});
export type Embedding = z.infer<typeof embedding>;

export const usage = z.looseObject({ prompt_tokens: z.number(), total_tokens: z.number() });
export type Usage = z.infer<typeof usage>;

export const response = z.looseObject({
  object: z.string(),
  data: z.array(embedding),
  model: z.string(),
  usage,
});
export type Response = z.infer<typeof response>;

// ─── generative ──────────────────────────────────────────────────────────────────────────────────

/** A content part; embeddings read `text`, other kinds (inlineData ...) are kept as given. */
export const part = z.looseObject({ text: z.string().optional() });
export type Part = z.infer<typeof part>;

export const content = z.looseObject({ role: z.string().optional(), parts: z.array(part) });
export type Content = z.infer<typeof content>;

/** `POST /v1beta/models/{model}:embedContent`; inside a batch each request names `models/{id}`. */
export const embedContentRequest = z.looseObject({
  model: z.string().optional(),
  content,
  taskType: z.string().optional(),
  title: z.string().optional(),
  outputDimensionality: z.number().optional(),
});
export type EmbedContentRequest = z.infer<typeof embedContentRequest>;

export const batchEmbedContentsRequest = z.looseObject({ requests: z.array(embedContentRequest) });
export type BatchEmbedContentsRequest = z.infer<typeof batchEmbedContentsRequest>;

export const contentEmbedding = z.looseObject({ values: z.array(z.number()) });
export type ContentEmbedding = z.infer<typeof contentEmbedding>;

export const embedContentResponse = z.looseObject({ embedding: contentEmbedding });
export type EmbedContentResponse = z.infer<typeof embedContentResponse>;

export const batchEmbedContentsResponse = z.looseObject({ embeddings: z.array(contentEmbedding) });
export type BatchEmbedContentsResponse = z.infer<typeof batchEmbedContentsResponse>;
