/**
 * responses error bodies ↔ common errors. The HTTP body is the chat-completions envelope
 * `{error: {message, type, param, code}}`; a failed response carries `error: {code, message}` and a
 * stream `error` event carries the envelope's inner object (as OpenAI sends them).
 * @see https://platform.openai.com/docs/guides/error-codes
 */
import { errorKindOfStatus, plainErrorText } from "../../common/error-kind";
import { isObject } from "../../common/json";
import type * as common from "../../common/model";
import type { ErrorBody, ErrorObject } from "./schema";

/** The kind an error `type` or `code` names (the API puts either in either field). */
function kindOfName(name: string | undefined): common.ErrorKind | undefined {
  switch (name) {
    case "invalid_request_error":
    case "invalid_prompt":
    case "invalid_image":
    case "invalid_image_format":
    case "invalid_base64_image":
    case "invalid_image_url":
    case "unsupported_parameter":
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
    case "vector_store_timeout":
      return "server";
    default:
      return undefined;
  }
}

/** The status a responses server answers with for a kind, when the source gave none that fits. */
const STATUS: Record<common.ErrorKind, number> = {
  invalid_request: 400,
  authentication: 401,
  payment: 429,
  permission: 403,
  not_found: 404,
  request_too_large: 413,
  rate_limit: 429,
  server: 500,
  overloaded: 503,
  timeout: 504,
};

/** The `type` and default `code` the API writes for a kind (an over-quota answer is a 429 `insufficient_quota`). */
const NAMES: Record<common.ErrorKind, { type: string; code: string | null }> = {
  invalid_request: { type: "invalid_request_error", code: null },
  authentication: { type: "invalid_request_error", code: "invalid_api_key" },
  permission: { type: "permission_error", code: null },
  not_found: { type: "invalid_request_error", code: "not_found" },
  request_too_large: { type: "invalid_request_error", code: "request_too_large" },
  rate_limit: { type: "rate_limit_error", code: "rate_limit_exceeded" },
  payment: { type: "insufficient_quota", code: "insufficient_quota" },
  server: { type: "server_error", code: "server_error" },
  overloaded: { type: "server_error", code: "overloaded" },
  timeout: { type: "server_error", code: "timeout" },
};

/** The inner error object of any body: the envelope's, a failed response's, a stream event's (flat or nested). */
function innerOf(body: unknown): Record<string, unknown> | undefined {
  if (!isObject(body)) return undefined;
  if (isObject(body.error)) return body.error;
  if (isObject(body.response) && isObject(body.response.error)) return body.response.error;
  return typeof body.message === "string" ? body : undefined;
}

/** Any status and body → common error; never throws. A 2xx status (a stream event) takes its status from the code. */
export function decodeResponsesError(error: { status: number; body: unknown }): common.ErrorInfo {
  let body = error.body;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      // not JSON: its text is the message
    }
  }
  if (Array.isArray(body) && body.length === 1) body = body[0];
  const inner = innerOf(body);
  const type = typeof inner?.type === "string" && inner.type !== "error" ? inner.type : undefined;
  const rawCode = inner?.code;
  const code =
    typeof rawCode === "string" ? rawCode : typeof rawCode === "number" ? String(rawCode) : undefined;
  const named = kindOfName(code) ?? kindOfName(type);
  const byStatus = errorKindOfStatus(error.status);
  const kind = byStatus ?? named ?? "server";
  const status = byStatus === undefined ? STATUS[kind] : error.status;
  let message: string;
  if (typeof inner?.message === "string" && inner.message !== "") message = inner.message;
  else if (typeof body === "string" && body.trim() !== "") message = plainErrorText(body);
  else if (isObject(body) && typeof body.error === "string") message = body.error;
  else message = `Upstream error (HTTP ${error.status}).`;
  const param = typeof inner?.param === "string" ? inner.param : undefined;
  const own = code ?? type;
  const info: common.Draft<common.ErrorInfo> = { status, kind, message };
  if (own !== undefined) info.code = own;
  if (param !== undefined) info.param = param;
  return info;
}

/** The inner error object for a common error: the source's own code when it gave one, else the kind's. */
export function errorObjectOf(error: common.ErrorInfo): ErrorObject {
  const names = NAMES[error.kind] ?? NAMES.server;
  return {
    message: error.message,
    type: names.type,
    param: error.param ?? null,
    code: error.code ?? names.code,
  };
}

/** Common error → responses status and body (the chat-style envelope); 529 becomes 503. */
export function encodeResponsesError(error: common.ErrorInfo): { status: number; body: ErrorBody } {
  const status =
    error.status === 529
      ? 503
      : error.status >= 400 && error.status < 600
        ? error.status
        : (STATUS[error.kind] ?? 500);
  return { status, body: { error: errorObjectOf(error) } };
}

/**
 * The codes a failed response's `error.code` takes (the description's ResponseErrorCode), and
 * `insufficient_quota`, which the service sends too (recorded: responses/stream/openai-error-insufficient-quota.sse).
 */
const RESPONSE_ERROR_CODES = new Set([
  "server_error",
  "rate_limit_exceeded",
  "invalid_prompt",
  "data_residency_mismatch",
  "bio_policy",
  "vector_store_timeout",
  "invalid_image",
  "invalid_image_format",
  "invalid_base64_image",
  "invalid_image_url",
  "image_too_large",
  "image_too_small",
  "image_parse_error",
  "image_content_policy_violation",
  "invalid_image_mode",
  "image_file_too_large",
  "unsupported_image_media_type",
  "empty_image_file",
  "failed_to_download_image",
  "image_file_not_found",
  "insufficient_quota",
]);

/**
 * A failed response's `error: {code, message}` for a common error: the source's code when it is one a
 * failed response takes, else the kind's (the source's own code goes out in the `error` event before it).
 */
export function responseErrorOf(error: common.ErrorInfo): { code: string; message: string } {
  if (error.code !== undefined && RESPONSE_ERROR_CODES.has(error.code))
    return { code: error.code, message: error.message };
  const code =
    error.kind === "rate_limit"
      ? "rate_limit_exceeded"
      : error.kind === "payment"
        ? "insufficient_quota"
        : error.kind === "invalid_request" || error.kind === "request_too_large"
          ? "invalid_prompt"
          : "server_error";
  return { code, message: error.message };
}
