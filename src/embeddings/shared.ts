/** Helpers shared by the embeddings request and response translations. */
import type { z } from "zod/v4";
import { invalidInput, TranslationError } from "../common/errors";
import { type Loss, loss } from "../common/loss";
import { at } from "../common/pointer";

/** The two protocols that have an embeddings endpoint (messages has none). */
export type EmbeddingsProtocol = "chat" | "generative";

/** The two generative embeddings methods: one vector (`embedContent`) or several (`batchEmbedContents`). */
export type GenerativeMethod = "embedContent" | "batchEmbedContents";

const LABEL: Record<EmbeddingsProtocol, string> = {
  chat: "chat-style embeddings",
  generative: "generative embeddings",
};

export function checkProtocol(protocol: unknown): EmbeddingsProtocol {
  if (protocol === "chat" || protocol === "generative") return protocol;
  throw new TypeError(`Unknown embeddings protocol ${JSON.stringify(protocol)}: use "chat" or "generative".`);
}

/** Parses with `schema` when `validate` is on; a failure is a `TranslationError` naming each field. */
export function parse<T>(schema: z.ZodType<T>, body: unknown, validate: boolean, what: string): T {
  if (!validate) return body as T;
  const result = schema.safeParse(body);
  if (!result.success) throw invalidInput(what, result.error.issues);
  return result.data;
}

/** One `dropped` loss per own key of `node` outside `known`. */
export function dropUnknown(
  node: object,
  known: readonly string[],
  base: string,
  to: EmbeddingsProtocol,
  losses: Loss[],
): void {
  for (const key of Object.keys(node)) {
    if (known.includes(key)) continue;
    losses.push(loss(at(base, key), "dropped", `\`${key}\` has no ${LABEL[to]} equivalent and was dropped.`));
  }
}

/** `models/x` → `x`; a bare id stays as it is. */
export function stripModelsPrefix(name: string): string {
  return name.startsWith("models/") ? name.slice("models/".length) : name;
}

/** `/v1beta/models/{model}:{method}`. */
export function generativePath(model: string, method: GenerativeMethod): string {
  return `/v1beta/models/${model}:${method}`;
}

export function modelNotSpecified(hint: string): TranslationError {
  return new TranslationError(`Model name not specified: ${hint}`);
}
