/**
 * Embeddings responses between the chat-style list (`{object, data[], model, usage}`) and generative
 * `{embedding}` / `{embeddings[]}`.
 * @see https://platform.openai.com/docs/api-reference/embeddings/object
 * @see https://ai.google.dev/api/embeddings
 */
import { TranslationError } from "../common/errors";
import { type Loss, loss, type Translated } from "../common/loss";
import { at } from "../common/pointer";
import { decodeBase64, encodeBase64 } from "./base64";
import {
  type BatchEmbedContentsResponse,
  batchEmbedContentsResponse,
  type ContentEmbedding,
  response as chatResponse,
  type EmbedContentResponse,
  type Embedding,
  embedContentResponse,
  type Response,
} from "./schema";
import { checkProtocol, dropUnknown, type EmbeddingsProtocol, type GenerativeMethod, parse } from "./shared";

/**
 * The embeddings response of a protocol: a chat-style list for `chat`, an `embedContent` or
 * `batchEmbedContents` answer for `generative`.
 */
export type EmbeddingsResponseOf<P extends EmbeddingsProtocol> = P extends "chat"
  ? Response
  : EmbedContentResponse | BatchEmbedContentsResponse;

/** Options of `translateEmbeddingsResponse`; each applies to one direction, as said. */
export type EmbeddingsResponseOptions = {
  /** generative → chat: the `model` of the answer (generative responses do not name it). */
  model?: string;
  /** generative → chat: the client's `encoding_format`; `"base64"` encodes each vector. */
  encodingFormat?: string;
  /** generative → chat: prompt tokens to report (generative embeddings return no usage). */
  promptTokens?: number;
  /** chat → generative: the client's method; default `embedContent` for one vector, else `batchEmbedContents`. */
  method?: GenerativeMethod;
  /** Parse the input with its schema first. Default true. */
  validate?: boolean;
};

type GenerativeResponse = EmbedContentResponse | BatchEmbedContentsResponse;

function isBatch(body: unknown): body is BatchEmbedContentsResponse {
  return (
    body !== null && typeof body === "object" && Array.isArray((body as { embeddings?: unknown }).embeddings)
  );
}

// ─── generative → chat ──────────────────────────────────────────────────────────────────────

function promptTokenCount(body: object): number | undefined {
  const metadata = (body as { usageMetadata?: unknown }).usageMetadata;
  if (metadata === null || typeof metadata !== "object") return undefined;
  const count = (metadata as { promptTokenCount?: unknown }).promptTokenCount;
  return typeof count === "number" ? count : undefined;
}

function generativeToChat(
  body: GenerativeResponse,
  options: EmbeddingsResponseOptions,
): Translated<Response> {
  const losses: Loss[] = [];
  const batch = isBatch(body);
  dropUnknown(body, [batch ? "embeddings" : "embedding", "usageMetadata"], "", "chat", losses);
  const vectors: { vector: ContentEmbedding; base: string }[] = batch
    ? body.embeddings.map((vector, index) => ({ vector, base: at("/embeddings", index) }))
    : [{ vector: body.embedding, base: "/embedding" }];
  const base64 = options.encodingFormat === "base64";
  const data: Embedding[] = vectors.map(({ vector, base }, index) => {
    dropUnknown(vector, ["values"], base, "chat", losses);
    return {
      object: "embedding",
      index,
      embedding: base64 ? encodeBase64(vector.values) : [...vector.values],
    };
  });
  let model = options.model;
  if (model === undefined) {
    model = "";
    losses.push(
      loss(
        "/model",
        "synthesized",
        "The generative response names no model; pass `options.model` to fill `model`.",
      ),
    );
  }
  const tokens = options.promptTokens ?? promptTokenCount(body);
  if (tokens === undefined)
    losses.push(
      loss(
        "/usage",
        "approximated",
        "Generative embeddings report no token usage; `usage` is zero (pass `options.promptTokens`).",
      ),
    );
  const count = tokens ?? 0;
  return {
    value: { object: "list", data, model, usage: { prompt_tokens: count, total_tokens: count } },
    losses,
  };
}

// ─── chat → generative ───────────────────────────────────────────────────────────────────────────

function valuesOf(item: Embedding, base: string): number[] {
  if (typeof item.embedding !== "string") return [...item.embedding];
  try {
    return Array.from(decodeBase64(item.embedding));
  } catch (error) {
    if (error instanceof TranslationError)
      throw new TranslationError(`${at(base, "embedding")}: ${error.message}`);
    throw error;
  }
}

function chatToGenerative(
  body: Response,
  options: EmbeddingsResponseOptions,
): Translated<GenerativeResponse> {
  const losses: Loss[] = [];
  dropUnknown(body, ["object", "data", "model", "usage"], "", "generative", losses);
  losses.push(loss("/model", "dropped", "Generative embeddings responses carry no `model`; it was dropped."));
  losses.push(
    loss("/usage", "dropped", "Generative embeddings responses carry no token usage; `usage` was dropped."),
  );
  // Upstreams may answer out of order: `index` is the position of the input.
  const ordered = body.data
    .map((item, position) => ({ item, position }))
    .sort((a, b) => a.item.index - b.item.index);
  const embeddings = ordered.map(({ item, position }) => {
    const base = at("/data", position);
    dropUnknown(item, ["object", "index", "embedding"], base, "generative", losses);
    return { values: valuesOf(item, base) };
  });
  const method = options.method ?? (embeddings.length === 1 ? "embedContent" : "batchEmbedContents");
  if (method === "batchEmbedContents") return { value: { embeddings }, losses };
  const [only] = embeddings;
  if (only === undefined || embeddings.length !== 1)
    throw new TranslationError(
      `An embedContent answer holds exactly one embedding; the chat-style response has ${embeddings.length}.`,
    );
  return { value: { embedding: only }, losses };
}

// ─── entry point ─────────────────────────────────────────────────────────────────────────────────

function parseGenerative(body: unknown, validate: boolean): GenerativeResponse {
  return isBatch(body)
    ? parse(batchEmbedContentsResponse, body, validate, "generative batchEmbedContents response")
    : parse(embedContentResponse, body, validate, "generative embedContent response");
}

/**
 * An embeddings response from one protocol to the other, vectors in input order (`index` = position).
 * generative → chat: `usage` from `options.promptTokens` (or `usageMetadata`), otherwise zeros with an
 * `approximated` loss; `options.encodingFormat: "base64"` encodes each vector as float32 little-endian.
 * chat → generative: base64 vectors are decoded; `model` and `usage` are dropped. Same protocol: the
 * input as given.
 * @example
 * translateEmbeddingsResponse("generative", "chat", { embedding: { values: [1, -2] } },
 *   { model: "m", encodingFormat: "base64", promptTokens: 2 }).value;
 * // => { object: "list", data: [{ object: "embedding", index: 0, embedding: "AACAPwAAAMA=" }], model: "m",
 * //      usage: { prompt_tokens: 2, total_tokens: 2 } }
 */
export function translateEmbeddingsResponse<F extends EmbeddingsProtocol, T extends EmbeddingsProtocol>(
  from: F,
  to: T,
  body: unknown,
  options: EmbeddingsResponseOptions = {},
): Translated<EmbeddingsResponseOf<T>> {
  const source = checkProtocol(from);
  const target = checkProtocol(to);
  const validate = options.validate !== false;
  let result: Translated<Response | GenerativeResponse>;
  if (source === "chat") {
    const parsed = parse(chatResponse, body, validate, "chat-style embeddings response");
    result = target === "chat" ? { value: parsed, losses: [] } : chatToGenerative(parsed, options);
  } else {
    const parsed = parseGenerative(body, validate);
    result = target === "generative" ? { value: parsed, losses: [] } : generativeToChat(parsed, options);
  }
  return result as Translated<EmbeddingsResponseOf<T>>;
}
