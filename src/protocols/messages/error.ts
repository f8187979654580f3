/**
 * messages error bodies ↔ common errors: status first, refined by `error.type`.
 * @see https://docs.anthropic.com/en/api/errors
 */
import { errorKindOfStatus, plainErrorText, reportUnread, unreadFields } from "../../common/error-kind";
import { isObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
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
  return isObject(value) ? value : undefined;
}

type Read = { type?: string; typeSource?: string; message?: string; unread?: string[] };

/** Reads `{type, message}` out of any body: the messages shape, chat/generative shapes, JSON text, HTML. */
function readBody(body: unknown): Read {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return { message: plainErrorText(body) };
    }
  }
  const wrapped = Array.isArray(value) && value.length === 1;
  if (wrapped) value = (value as unknown[])[0];
  const prefix = wrapped ? "/0" : "";
  const top = record(value);
  if (top === undefined) return typeof value === "string" ? { message: plainErrorText(value) } : {};
  const inner = record(top.error);
  const fromInner = typeof inner?.message === "string";
  const message = fromInner
    ? (inner?.message as string)
    : typeof top.message === "string"
      ? top.message
      : undefined;
  const [typeField, typeSource] =
    inner?.type !== undefined
      ? [inner.type, "/error/type"]
      : inner?.status !== undefined
        ? [inner.status, "/error/status"]
        : typeof top.error === "string"
          ? [top.error, "/error"]
          : [top.type, "/type"];
  const type = typeof typeField === "string" && typeField !== "error" ? typeField : undefined;
  const readInner = ["type", "message", ...(inner?.type === undefined ? ["status"] : [])];
  const readTop = ["type", "error", ...(fromInner ? [] : ["message"])];
  const unread = unreadFields(top, readTop, inner, readInner, prefix);
  const read: Read = {};
  if (type !== undefined) {
    read.type = type;
    read.typeSource = prefix + typeSource;
  }
  if (message !== undefined) read.message = message;
  if (unread.length > 0) read.unread = unread;
  return read;
}

/** Any status and body → common error; never throws. A 2xx status (mid-stream error) takes its status from the type. */
export function decodeMessagesError(error: { status: number; body: unknown }): common.ErrorInfo {
  const { type, typeSource, message, unread } = readBody(error.body);
  const byStatus = errorKindOfStatus(error.status);
  const byType = type === undefined ? undefined : kindOfType(type);
  const kind =
    byStatus === undefined || (byStatus === "invalid_request" && byType !== undefined)
      ? (byType ?? "server")
      : byStatus;
  const status = byStatus === undefined ? statusOfKind(kind) : error.status;
  const info: common.Draft<common.ErrorInfo> = {
    status,
    kind,
    message: message === undefined || message === "" ? `Upstream error (HTTP ${error.status})` : message,
  };
  if (type !== undefined) {
    info.code = type;
    // The messages type of the kind says no more than the kind, which every target carries.
    if (type !== typeOfKind(kind)) info.codeSource = typeSource;
  }
  if (unread !== undefined) info.unread = unread;
  return info;
}

/**
 * A common error in the messages shape; 529 only for `overloaded`, a status consistent with the type.
 * The one table for an error as a body and as a stream event; `losses` gets what the body cannot hold:
 * the source's own type when it is not the messages type sent, its `param`, its unread fields.
 */
export function encodeMessagesError(
  error: common.ErrorInfo,
  losses?: Loss[],
): { status: number; body: ErrorBody } {
  const status = errorKindOfStatus(error.status) === error.kind ? error.status : statusOfKind(error.kind);
  const type = typeOfKind(error.kind);
  if (losses !== undefined) {
    reportUnread(error, "messages", losses);
    if (error.code !== undefined && error.code !== type && error.codeSource !== undefined)
      losses.push(
        loss(
          error.codeSource,
          "approximated",
          `The upstream error type \`${error.code}\` has no messages equivalent; \`${type}\` was sent.`,
        ),
      );
    if (error.param !== undefined && error.paramSource !== undefined)
      losses.push(
        loss(
          error.paramSource,
          "dropped",
          `A messages error names no parameter; \`${error.param}\` was dropped.`,
        ),
      );
  }
  return {
    status: error.kind === "overloaded" ? 529 : status,
    body: { type: "error", error: { type, message: error.message } },
  };
}
