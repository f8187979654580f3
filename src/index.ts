/**
 * gateway-protocols: zod schemas and translation between the chat-completions, messages,
 * generative-content and responses protocols, streaming transducers, a music request validator and
 * gateway rules.
 * This file is the public surface and nothing else.
 * @module
 */

export { TranslationError } from "./common/errors";
export type { Loss, LossKind } from "./common/loss";
export type { Protocol } from "./common/model";
export type { TranslateOptions } from "./common/options";
export type { Usage } from "./common/usage";
export * as embeddings from "./embeddings";
export * as errors from "./errors";
export * as gateway from "./gateway";
export { identifyRequest } from "./gateway/identify";
export * as models from "./models";
export * as music from "./music";
export type { ErrorBodyOf, EventOf, RequestOf, ResponseOf } from "./protocols";
export { protocols } from "./protocols";
export * as chat from "./protocols/chat";
export * as generative from "./protocols/generative";
export * as messages from "./protocols/messages";
export * as responses from "./protocols/responses";
export { accumulate, replay } from "./stream/accumulate";
export * as sse from "./stream/sse";
export { createStreamTranslator, type StreamTranslator } from "./stream/translator";
export { usageOf } from "./stream/usage";
export { createTranslateStream, translateEventStream } from "./stream/web";
export { type ErrorFault, translateError, translateRequest, translateResponse } from "./translate";
