/**
 * Chat error bodies ↔ common error info: status first, refined by `type`/`code`.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
import { errorKindOfStatus, plainErrorText, reportUnread, unreadFields } from "../../common/error-kind";
import { isObject } from "../../common/json";
import type { Loss } from "../../common/loss";
import type * as common from "../../common/model";
import type * as chat from "./schema";

function kindForType(type: string | undefined): common.ErrorKind | undefined {
  switch (type) {
    case "invalid_request_error":
      return "invalid_request";
    case "authentication_error":
    case "invalid_api_key":
      return "authentication";
    case "permission_error":
      return "permission";
    case "not_found_error":
    case "model_not_found":
      return "not_found";
    case "rate_limit_error":
    case "rate_limit_exceeded":
      return "rate_limit";
    case "insufficient_quota":
      return "payment";
    case "overloaded_error":
      return "overloaded";
    case "server_error":
    case "api_error":
      return "server";
    default:
      return undefined;
  }
}

/** Any status and body → common error; never throws. A JSON body of one element (`[{error}]`) is unwrapped. */
export function decodeChatError(error: { status: number; body: unknown }): common.ErrorInfo {
  let body = error.body;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      // not JSON: handled below
    }
  }
  const wrapped = Array.isArray(body) && body.length === 1;
  if (wrapped) body = (body as unknown[])[0];
  const prefix = wrapped ? "/0" : "";
  const inner = isObject(body) && isObject(body.error) ? body.error : undefined;
  const type = typeof inner?.type === "string" ? inner.type : undefined;
  const rawCode = inner?.code;
  const code =
    typeof rawCode === "string" ? rawCode : typeof rawCode === "number" ? String(rawCode) : undefined;
  // A mid-stream error arrives on a 200: its numeric code (OpenRouter) is the real status.
  const status =
    error.status < 400 && typeof rawCode === "number" && rawCode >= 400 && rawCode < 600
      ? rawCode
      : error.status;
  const kind = errorKindOfStatus(status) ?? kindForType(code) ?? kindForType(type) ?? "server";
  let message: string;
  if (typeof inner?.message === "string") message = inner.message;
  else if (typeof body === "string" && body.trim() !== "") message = plainErrorText(body);
  else if (isObject(body) && typeof body.error === "string") message = body.error;
  else message = `Upstream error (HTTP ${error.status}).`;
  const param = typeof inner?.param === "string" ? inner.param : undefined;
  const own = code ?? type;
  // A type beside a code reaches a target only through the kind: one this table does not know is lost.
  const read =
    type !== undefined && code !== undefined && kindForType(type) === undefined ? READ_UNTYPED : READ;
  const unread = isObject(body) ? unreadFields(body, ["error"], inner, read, prefix) : [];
  // Mid-stream (a 200 without a numeric code), the status is the one chat answers the kind with.
  const info: common.Draft<common.ErrorInfo> = {
    status: status >= 400 ? status : TYPES[kind].status,
    kind,
    message,
  };
  if (own !== undefined) {
    info.code = own;
    // Chat's own name for the kind says no more than the kind, which every target carries.
    // A numeric code (OpenRouter) is the status, which every target carries too.
    const named = TYPES[kind];
    if (own !== named.type && own !== named.code && typeof rawCode !== "number")
      info.codeSource = `${prefix}/error/${code === undefined ? "type" : "code"}`;
  }
  if (param !== undefined) {
    info.param = param;
    info.paramSource = `${prefix}/error/param`;
  }
  if (unread.length > 0) info.unread = unread;
  return info;
}

/** The fields of a chat error object the common error holds (`param: null` and `code: null` say nothing). */
const READ = ["message", "type", "param", "code"];
const READ_UNTYPED = ["message", "param", "code"];

const TYPES: Record<common.ErrorKind, { type: string; code: string | null; status: number }> = {
  invalid_request: { type: "invalid_request_error", code: null, status: 400 },
  authentication: { type: "invalid_request_error", code: "invalid_api_key", status: 401 },
  permission: { type: "permission_error", code: null, status: 403 },
  not_found: { type: "invalid_request_error", code: "not_found", status: 404 },
  request_too_large: { type: "invalid_request_error", code: "request_too_large", status: 413 },
  rate_limit: { type: "rate_limit_error", code: "rate_limit_exceeded", status: 429 },
  payment: { type: "insufficient_quota", code: "insufficient_quota", status: 402 },
  server: { type: "server_error", code: null, status: 500 },
  overloaded: { type: "server_error", code: "overloaded", status: 503 },
  timeout: { type: "server_error", code: "timeout", status: 504 },
};

/** The chat error type for a kind (`invalid_request_error`, `server_error` ...). */
export function chatErrorType(kind: common.ErrorKind): string {
  return TYPES[kind].type;
}

/**
 * Common error → chat status and body; the source's own type goes in `code`. 529 becomes 503. The
 * one table for an error as a body and as a stream event; `losses` gets the fields the body cannot hold.
 */
export function encodeChatError(
  error: common.ErrorInfo,
  losses?: Loss[],
): { status: number; body: chat.ErrorBody } {
  reportUnread(error, "chat", losses);
  const defaults = TYPES[error.kind] ?? TYPES.server;
  const status =
    error.status === 529 ? 503 : error.status >= 400 && error.status < 600 ? error.status : defaults.status;
  return {
    status,
    body: {
      error: {
        message: error.message,
        type: defaults.type,
        param: error.param ?? null,
        code: error.code ?? defaults.code,
      },
    },
  };
}
