/**
 * generative error bodies ⇄ common errors (research E1–E4): status first, refined by the canonical
 * `status` name and `details[].reason`; any body (HTML, text, arrays) decodes without throwing.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting
 */
import { errorKindOfStatus, plainErrorText } from "../../common/error-kind";
import { isObject } from "../../common/json";
import type * as common from "../../common/model";
import type * as generative from "./schema";

const kindByStatusName: Readonly<Record<string, common.ErrorKind>> = {
  INVALID_ARGUMENT: "invalid_request",
  FAILED_PRECONDITION: "invalid_request",
  OUT_OF_RANGE: "invalid_request",
  UNAUTHENTICATED: "authentication",
  PERMISSION_DENIED: "permission",
  NOT_FOUND: "not_found",
  RESOURCE_EXHAUSTED: "rate_limit",
  INTERNAL: "server",
  UNKNOWN: "server",
  DATA_LOSS: "server",
  UNAVAILABLE: "overloaded",
  DEADLINE_EXCEEDED: "timeout",
};

const statusByKind: Readonly<Record<common.ErrorKind, { status: number; name: string }>> = {
  invalid_request: { status: 400, name: "INVALID_ARGUMENT" },
  authentication: { status: 401, name: "UNAUTHENTICATED" },
  permission: { status: 403, name: "PERMISSION_DENIED" },
  not_found: { status: 404, name: "NOT_FOUND" },
  request_too_large: { status: 400, name: "INVALID_ARGUMENT" },
  rate_limit: { status: 429, name: "RESOURCE_EXHAUSTED" },
  payment: { status: 402, name: "FAILED_PRECONDITION" },
  server: { status: 500, name: "INTERNAL" },
  overloaded: { status: 503, name: "UNAVAILABLE" },
  timeout: { status: 504, name: "DEADLINE_EXCEEDED" },
};

function parseBody(body: unknown): unknown {
  let value = body;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return value;
    }
  }
  return Array.isArray(value) && value.length === 1 ? value[0] : value;
}

function hasReason(details: unknown, reason: string): boolean {
  return Array.isArray(details) && details.some((detail) => isObject(detail) && detail.reason === reason);
}

/** Any status and body → common error. Never throws. */
export function decodeGenerativeError(error: { status: number; body: unknown }): common.ErrorInfo {
  const body = parseBody(error.body);
  const inner = isObject(body) && isObject(body.error) ? body.error : undefined;
  const statusName = typeof inner?.status === "string" ? inner.status : undefined;
  const code = typeof inner?.code === "number" ? inner.code : undefined;
  const httpStatus = error.status >= 400 ? error.status : (code ?? 500);
  let kind =
    errorKindOfStatus(httpStatus) ??
    (statusName === undefined ? undefined : kindByStatusName[statusName]) ??
    "server";
  let status = httpStatus >= 400 && httpStatus < 600 ? httpStatus : statusByKind[kind].status;
  if (statusName !== undefined && kindByStatusName[statusName] !== undefined && error.status < 400) {
    kind = kindByStatusName[statusName] ?? kind;
  }
  // AI Studio answers a bad key with 400 INVALID_ARGUMENT + API_KEY_INVALID: it is a 401 (research E3).
  if (hasReason(inner?.details, "API_KEY_INVALID")) {
    kind = "authentication";
    status = 401;
  }
  let message: string;
  if (typeof inner?.message === "string") message = inner.message;
  else if (typeof body === "string") message = plainErrorText(body);
  else if (isObject(body) && typeof body.message === "string") message = body.message;
  else message = "";
  if (message === "") message = `Upstream error (HTTP ${error.status}).`;
  return { status, kind, message, ...(statusName === undefined ? {} : { code: statusName }) };
}

/** common error → generative status and body; 529 becomes 503 (research E3). */
export function encodeGenerativeError(error: common.ErrorInfo): {
  status: number;
  body: generative.ErrorBody;
} {
  const byKind = statusByKind[error.kind] ?? statusByKind.server;
  const kept =
    error.code !== undefined && kindByStatusName[error.code] === error.kind ? error.code : undefined;
  // 529 is messages-only and 413 has no generative form: both take the kind's own status (research E3).
  const replaced = error.status === 529 || error.status === 413 || error.status < 400 || error.status > 599;
  const status = replaced ? byKind.status : error.status;
  return { status, body: { error: { code: status, message: error.message, status: kept ?? byKind.name } } };
}
