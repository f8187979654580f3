/**
 * messages error bodies ↔ common errors (research E1–E4): status first, refined by `error.type`.
 * @see https://docs.anthropic.com/en/api/errors
 */
import { errorKindOfStatus, plainErrorText } from "../../common/error-kind";
import type * as common from "../../common/model";
import type { ErrorBody, ErrorType } from "./schema";

function kindOfType(type: string): common.ErrorKind | undefined {
  switch (type) {
    case "invalid_request_error":
      return "invalid_request";
    case "authentication_error":
      return "authentication";
    case "permission_error":
      return "permission";
    case "not_found_error":
      return "not_found";
    case "request_too_large":
      return "request_too_large";
    case "rate_limit_error":
      return "rate_limit";
    case "billing_error":
      return "payment";
    case "timeout_error":
      return "timeout";
    case "api_error":
      return "server";
    case "overloaded_error":
      return "overloaded";
    default:
      return undefined;
  }
}

/** The HTTP status a messages server answers with for an error kind. */
function statusOfKind(kind: common.ErrorKind): number {
  switch (kind) {
    case "invalid_request":
      return 400;
    case "authentication":
      return 401;
    case "payment":
      return 402;
    case "permission":
      return 403;
    case "not_found":
      return 404;
    case "request_too_large":
      return 413;
    case "rate_limit":
      return 429;
    case "timeout":
      return 504;
    case "overloaded":
      return 529;
    default:
      return 500;
  }
}

function typeOfKind(kind: common.ErrorKind): ErrorType {
  switch (kind) {
    case "authentication":
      return "authentication_error";
    case "permission":
      return "permission_error";
    case "not_found":
      return "not_found_error";
    case "request_too_large":
      return "request_too_large";
    case "rate_limit":
      return "rate_limit_error";
    case "server":
    case "timeout":
      return "api_error";
    case "overloaded":
      return "overloaded_error";
    default:
      return "invalid_request_error";
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Reads `{type, message}` out of any body: the messages shape, chat/generative shapes, JSON text, HTML. */
function readBody(body: unknown): { type?: string; message?: string } {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return { message: plainErrorText(body) };
    }
  }
  if (Array.isArray(value) && value.length === 1) value = value[0];
  const top = record(value);
  if (top === undefined) return typeof value === "string" ? { message: plainErrorText(value) } : {};
  const inner = record(top.error);
  const message =
    typeof inner?.message === "string"
      ? inner.message
      : typeof top.message === "string"
        ? top.message
        : undefined;
  const typeField = inner?.type ?? inner?.status ?? (typeof top.error === "string" ? top.error : top.type);
  const type = typeof typeField === "string" && typeField !== "error" ? typeField : undefined;
  return { ...(type === undefined ? {} : { type }), ...(message === undefined ? {} : { message }) };
}

/** Any status and body → common error; never throws. A 2xx status (mid-stream error) takes its status from the type. */
export function decodeMessagesError(error: { status: number; body: unknown }): common.ErrorInfo {
  const { type, message } = readBody(error.body);
  const byStatus = errorKindOfStatus(error.status);
  const byType = type === undefined ? undefined : kindOfType(type);
  const kind =
    byStatus === undefined || (byStatus === "invalid_request" && byType !== undefined)
      ? (byType ?? "server")
      : byStatus;
  const status = byStatus === undefined ? statusOfKind(kind) : error.status;
  return {
    status,
    kind,
    message: message === undefined || message === "" ? `Upstream error (HTTP ${error.status})` : message,
    ...(type === undefined ? {} : { code: type }),
  };
}

/** A common error in the messages shape; 529 only for `overloaded`, a status consistent with the type. */
export function encodeMessagesError(error: common.ErrorInfo): { status: number; body: ErrorBody } {
  const status = errorKindOfStatus(error.status) === error.kind ? error.status : statusOfKind(error.kind);
  return {
    status: error.kind === "overloaded" ? 529 : status,
    body: { type: "error", error: { type: typeOfKind(error.kind), message: error.message } },
  };
}
