/**
 * The gateway's own error catalogue as constructors of a protocol-free error, and
 * `render` to put one in a client protocol's error shape. The texts are fixed: clients may match on them.
 */
import type { ErrorInfo, Protocol } from "../common/model";
import { checkProtocol } from "../common/protocol-id";
import { encodeChatError } from "../protocols/chat/error";
import { encodeGenerativeError } from "../protocols/generative/error";
import { encodeMessagesError } from "../protocols/messages/error";
import { encodeResponsesError } from "../protocols/responses/error";

export type { ErrorInfo, ErrorKind } from "../common/model";

/** 400: the request names no model. */
export function modelNotSpecified(): ErrorInfo {
  return {
    status: 400,
    kind: "invalid_request",
    message: "Model name not specified: set `model` in the request.",
    param: "model",
  };
}

/** 403: the model is outside the token's allowlist. */
export function noAccessToModel(model: string): ErrorInfo {
  return { status: 403, kind: "permission", message: `This token has no access to model ${model}` };
}

/** 403: the token's allowlist is enabled but empty. */
export function noAccessToAnyModels(): ErrorInfo {
  return { status: 403, kind: "permission", message: "This token has no access to any models" };
}

/** 503: the model has no usable channel (unconfigured, disabled or circuit-broken). */
export function noValidUpstream(): ErrorInfo {
  return { status: 503, kind: "overloaded", message: "No valid upstream service" };
}

/** 401: the token is missing or invalid. */
export function invalidToken(
  message = "Invalid or missing token: check the `Authorization` header.",
): ErrorInfo {
  return { status: 401, kind: "authentication", message, code: "invalid_api_key" };
}

/** 402: the balance or the token's quota is exhausted. */
export function insufficientQuota(
  message = "Insufficient balance or quota: top up or raise the token quota.",
): ErrorInfo {
  return { status: 402, kind: "payment", message, code: "insufficient_quota" };
}

/** 404: a wrong base address or path. */
export function pathNotFound(path: string): ErrorInfo {
  return { status: 404, kind: "not_found", message: `Invalid URL (${path}): use the documented paths.` };
}

/** 429: the rate limit was reached. */
export function rateLimited(message = "Rate limit reached: lower the request rate."): ErrorInfo {
  return { status: 429, kind: "rate_limit", message, code: "rate_limit_exceeded" };
}

/** 500: the upstream model service failed. */
export function upstreamFailed(
  message = "Upstream model service problem: retry or switch model.",
): ErrorInfo {
  return { status: 500, kind: "server", message };
}

/**
 * The one error table: each protocol's own error encoder (the one its adapter and its stream encoder
 * use too, so an error reads the same as a body or as a stream event). `render`,
 * `TranslationError.toErrorBody` and `identifyRequest` answer through it. It is a table of its own,
 * apart from the adapters, because `TranslationError` renders itself: a module that can throw one
 * (`sse`, `embeddings`) must not pull every protocol's translators into a bundle.
 */
const encoders = {
  chat: encodeChatError,
  messages: encodeMessagesError,
  generative: encodeGenerativeError,
  responses: encodeResponsesError,
} satisfies Record<Protocol, (error: ErrorInfo) => { status: number; body: unknown }>;

/**
 * An error of the gateway's own in a client protocol's body shape, with the status the catalogue gives it
 * (section 7): unlike a translated upstream error, a 503 stays a 503 for messages clients too.
 */
export function render(protocol: Protocol, error: ErrorInfo): { status: number; body: unknown } {
  if (!Object.hasOwn(encoders, protocol)) checkProtocol(protocol, Object.keys(encoders), "protocol");
  return { status: error.status, body: encoders[protocol](error).body };
}
