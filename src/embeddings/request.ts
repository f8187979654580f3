/**
 * Embeddings requests between the chat-style `/v1/embeddings` body and generative
 * `:embedContent` / `:batchEmbedContents` calls.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 * @see https://ai.google.dev/api/embeddings
 */
import { TranslationError } from "../common/errors";
import { type Loss, loss, type Translated } from "../common/loss";
import { at } from "../common/pointer";
import {
  type BatchEmbedContentsRequest,
  batchEmbedContentsRequest,
  type Content,
  request as chatRequest,
  type EmbedContentRequest,
  embedContentRequest,
  type Request,
} from "./schema";
import {
  checkProtocol,
  dropUnknown,
  type EmbeddingsProtocol,
  type GenerativeMethod,
  generativePath,
  modelNotSpecified,
  parse,
  stripModelsPrefix,
} from "./shared";

/** A generative embeddings call: the path (model and method in it) and the body. */
export type GenerativeEmbeddingsCall = {
  path: string;
  body: EmbedContentRequest | BatchEmbedContentsRequest;
};

/**
 * The embeddings request of a protocol: a chat-style `/v1/embeddings` body for `chat`, a path and
 * body (`embedContent` or `batchEmbedContents`) for `generative`.
 */
export type EmbeddingsRequestOf<P extends EmbeddingsProtocol> = P extends "chat"
  ? Request
  : GenerativeEmbeddingsCall;

/** Options of `translateEmbeddingsRequest`. */
export type EmbeddingsRequestOptions = {
  /** The model of a generative input (it travels in the path). */
  model?: string;
  /** Parse the input with its schema first. Default true. */
  validate?: boolean;
};

/** What `translateEmbeddingsRequest` returns: the translated request, its losses and the model id. */
export type TranslatedEmbeddingsRequest<T> = Translated<T> & { model: string };

const CHAT_KEYS = ["model", "input", "encoding_format", "dimensions", "user"] as const;
const EMBED_KEYS = ["model", "content", "taskType", "title", "outputDimensionality"] as const;

// ─── chat → generative ──────────────────────────────────────────────────────────────────────

function textsOf(input: Request["input"]): string | string[] {
  if (typeof input === "string") return input;
  if (input.length === 0)
    throw new TranslationError("Invalid embeddings request: `input` must not be empty.");
  const texts: string[] = [];
  for (const item of input) {
    if (typeof item !== "string")
      throw new TranslationError(
        "Token-id `input` cannot be sent to a generative embeddings model: send the text instead.",
      );
    texts.push(item);
  }
  return texts;
}

function chatToGenerative(body: Request): TranslatedEmbeddingsRequest<GenerativeEmbeddingsCall> {
  const losses: Loss[] = [];
  if (body.model === "") throw modelNotSpecified("set `model` in the request.");
  dropUnknown(body, CHAT_KEYS, "", "generative", losses);
  if (body.user !== undefined)
    losses.push(loss("/user", "dropped", "`user` has no generative embeddings equivalent and was dropped."));
  const texts = textsOf(body.input);
  const dimensions = body.dimensions !== undefined ? { outputDimensionality: body.dimensions } : {};
  if (typeof texts === "string") {
    const value = {
      path: generativePath(body.model, "embedContent"),
      body: { content: { parts: [{ text: texts }] }, ...dimensions },
    };
    return { value, losses, model: body.model };
  }
  const requests = texts.map((text) => ({
    model: `models/${body.model}`,
    content: { parts: [{ text }] },
    ...dimensions,
  }));
  return {
    value: { path: generativePath(body.model, "batchEmbedContents"), body: { requests } },
    losses,
    model: body.model,
  };
}

// ─── generative → chat ──────────────────────────────────────────────────────────────────────

function contentText(content: Content, base: string, losses: Loss[]): string {
  dropUnknown(content, ["role", "parts"], base, "chat", losses);
  if (content.role !== undefined)
    losses.push(
      loss(at(base, "role"), "dropped", "`role` has no chat-style embeddings equivalent and was dropped."),
    );
  const texts: string[] = [];
  content.parts.forEach((part, index) => {
    if (part.text === undefined)
      throw new TranslationError(
        `Only text can be embedded by a chat-style embeddings model: ${at(base, "parts", index)} is not a text part.`,
      );
    dropUnknown(part, ["text"], at(base, "parts", index), "chat", losses);
    texts.push(part.text);
  });
  if (texts.length === 0)
    throw new TranslationError(`Invalid embeddings request: ${at(base, "parts")} holds no text to embed.`);
  if (texts.length > 1)
    losses.push(
      loss(
        at(base, "parts"),
        "approximated",
        "Several text parts were joined with newlines into one `input` string.",
      ),
    );
  return texts.join("\n");
}

/** Reads one embedContent request into a text; reports what chat cannot carry. */
function embedText(request: EmbedContentRequest, base: string, model: string, losses: Loss[]): string {
  dropUnknown(request, EMBED_KEYS, base, "chat", losses);
  if (request.model !== undefined && stripModelsPrefix(request.model) !== model)
    throw new TranslationError(
      `Invalid embeddings request: ${at(base, "model")} names ${request.model}, but the call is for models/${model}.`,
    );
  for (const key of ["taskType", "title"] as const) {
    if (request[key] !== undefined)
      losses.push(
        loss(at(base, key), "dropped", `\`${key}\` has no chat-style embeddings equivalent and was dropped.`),
      );
  }
  return contentText(request.content, at(base, "content"), losses);
}

function isBatch(body: unknown): body is BatchEmbedContentsRequest {
  return (
    body !== null && typeof body === "object" && Array.isArray((body as { requests?: unknown }).requests)
  );
}

function generativeModelOf(
  body: EmbedContentRequest | BatchEmbedContentsRequest,
  options: EmbeddingsRequestOptions,
): string {
  const named = isBatch(body) ? body.requests[0]?.model : body.model;
  const model = options.model ?? (named === undefined ? undefined : stripModelsPrefix(named));
  if (model === undefined || model === "")
    throw modelNotSpecified("pass `options.model` (generative carries it in the path).");
  return model;
}

function generativeToChat(
  body: EmbedContentRequest | BatchEmbedContentsRequest,
  options: EmbeddingsRequestOptions,
): TranslatedEmbeddingsRequest<Request> {
  const losses: Loss[] = [];
  const model = generativeModelOf(body, options);
  if (!isBatch(body)) {
    const input = embedText(body, "", model, losses);
    const dimensions =
      body.outputDimensionality !== undefined ? { dimensions: body.outputDimensionality } : {};
    return { value: { model, input, ...dimensions }, losses, model };
  }
  dropUnknown(body, ["requests"], "", "chat", losses);
  if (body.requests.length === 0)
    throw new TranslationError("Invalid embeddings request: `requests` must not be empty.");
  const input = body.requests.map((request, index) =>
    embedText(request, at("/requests", index), model, losses),
  );
  const chosen = body.requests.find(
    (request) => request.outputDimensionality !== undefined,
  )?.outputDimensionality;
  if (chosen !== undefined) {
    body.requests.forEach((request, index) => {
      if (request.outputDimensionality === chosen) return;
      const path =
        request.outputDimensionality === undefined
          ? at("/requests", index)
          : at("/requests", index, "outputDimensionality");
      losses.push(
        loss(
          path,
          "approximated",
          `One chat request carries one \`dimensions\`; request ${index} is embedded with ${chosen} dimensions.`,
        ),
      );
    });
  }
  return { value: { model, input, ...(chosen !== undefined ? { dimensions: chosen } : {}) }, losses, model };
}

// ─── entry point ─────────────────────────────────────────────────────────────────────────────────

function parseGenerative(body: unknown, validate: boolean): EmbedContentRequest | BatchEmbedContentsRequest {
  return isBatch(body)
    ? parse(batchEmbedContentsRequest, body, validate, "generative batchEmbedContents request")
    : parse(embedContentRequest, body, validate, "generative embedContent request");
}

/**
 * An embeddings request from one protocol to the other. chat → generative gives the call
 * (`{path, body}`): one text → `:embedContent`, several → `:batchEmbedContents` with `models/{id}` in
 * every request; `dimensions` → `outputDimensionality`. generative → chat gives the body;
 * `outputDimensionality` → `dimensions`, `taskType`/`title` dropped. Same protocol: the input as given
 * (generative: wrapped in its call). `encoding_format` is applied on the way back
 * (`translateEmbeddingsResponse`). Input that cannot be sent (token ids, images, no text) throws a
 * `TranslationError` (400). Batches above 100 texts are not split.
 * @example
 * translateEmbeddingsRequest("chat", "generative", { model: "m", input: "hi", dimensions: 8 }).value;
 * // => { path: "/v1beta/models/m:embedContent", body: { content: { parts: [{ text: "hi" }] }, outputDimensionality: 8 } }
 */
export function translateEmbeddingsRequest<F extends EmbeddingsProtocol, T extends EmbeddingsProtocol>(
  from: F,
  to: T,
  body: unknown,
  options: EmbeddingsRequestOptions = {},
): TranslatedEmbeddingsRequest<EmbeddingsRequestOf<T>> {
  const source = checkProtocol(from);
  const target = checkProtocol(to);
  const validate = options.validate !== false;
  let result: TranslatedEmbeddingsRequest<Request | GenerativeEmbeddingsCall>;
  if (source === "chat") {
    const parsed = parse(chatRequest, body, validate, "chat-style embeddings request");
    result =
      target === "chat" ? { value: parsed, losses: [], model: parsed.model } : chatToGenerative(parsed);
  } else {
    const parsed = parseGenerative(body, validate);
    if (target === "chat") result = generativeToChat(parsed, options);
    else {
      const model = generativeModelOf(parsed, options);
      const method: GenerativeMethod = isBatch(parsed) ? "batchEmbedContents" : "embedContent";
      result = { value: { path: generativePath(model, method), body: parsed }, losses: [], model };
    }
  }
  return result as TranslatedEmbeddingsRequest<EmbeddingsRequestOf<T>>;
}
