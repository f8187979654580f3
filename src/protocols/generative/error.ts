/**
 * generative error bodies ⇄ common errors: status first, refined by the canonical
 * `status` name and `details[].reason`; any body (HTML, text, arrays) decodes without throwing.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting
 */
import { errorKindOfStatus, plainErrorText, reportUnread, unreadFields } from "../../common/error-kind";
import { isObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
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

/** The body as JSON, unwrapped from a one-element array (`prefix` `/0` then). */
function parseBody(body: unknown): { value: unknown; prefix: string } {
  let value = body;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return { value, prefix: "" };
    }
  }
  return Array.isArray(value) && value.length === 1
    ? { value: value[0], prefix: "/0" }
    : { value, prefix: "" };
}

/** The fields of a generative error the common error holds: `code` is the status, `status` the code. */
const READ = ["code", "message", "status"];

/** The `@type` of the detail that says when to retry (`retryDelay`, a protobuf Duration: `"17s"`, `"0.5s"`). */
const RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";

/** The index and delay (ms) of a `RetryInfo` detail with a readable `retryDelay`, if there is one. */
function retryInfo(details: unknown): { index: number; ms: number } | undefined {
  if (!Array.isArray(details)) return undefined;
  for (let index = 0; index < details.length; index++) {
    const detail: unknown = details[index];
    if (!isObject(detail) || detail["@type"] !== RETRY_INFO || typeof detail.retryDelay !== "string")
      continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay);
    if (match !== null) return { index, ms: Math.round(Number(match[1]) * 1000) };
  }
  return undefined;
}

/** A delay as a protobuf Duration in JSON: whole seconds, or seconds with up to 3 decimals. */
function durationText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms)) / 1000;
  return `${seconds}s`;
}

function hasReason(details: unknown, reason: string): boolean {
  return Array.isArray(details) && details.some((detail) => isObject(detail) && detail.reason === reason);
}

/** Any status and body → common error. Never throws. */
export function decodeGenerativeError(error: { status: number; body: unknown }): common.ErrorInfo {
  const { value: body, prefix } = parseBody(error.body);
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
  // AI Studio answers a bad key with 400 INVALID_ARGUMENT + API_KEY_INVALID: it is a 401.
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
  const info: common.Draft<common.ErrorInfo> = { status, kind, message };
  if (statusName !== undefined) {
    info.code = statusName;
    // A status name of the kind says no more than the kind, which every target carries.
    if (kindByStatusName[statusName] !== kind) info.codeSource = `${prefix}/error/status`;
  }
  // `details` (help links, quota facts, the reason read above) has no common slot.
  const top = isObject(body) ? body : undefined;
  const readTop = inner === undefined && typeof top?.message === "string" ? ["error", "message"] : ["error"];
  const retry = retryInfo(inner?.details);
  let unread = unreadFields(top, readTop, inner, READ, prefix);
  if (retry !== undefined && Array.isArray(inner?.details)) {
    // The delay is read; each other detail is a field of its own that no target holds.
    const details = `${prefix}/error/details`;
    unread = unread.flatMap((path) =>
      path === details ? (inner.details as unknown[]).map((_, index) => `${details}/${index}`) : [path],
    );
    info.retryAfter = { ms: retry.ms, source: `${details}/${retry.index}` };
  }
  if (unread.length > 0) info.unread = unread;
  return info;
}

/**
 * common error → generative status and body; 529 becomes 503. The one table for an error
 * as a body and as a stream event; `losses` gets what the body cannot hold: the source's own code when
 * it is not the status name sent, its `param`, its unread fields.
 */
export function encodeGenerativeError(
  error: common.ErrorInfo,
  losses?: Loss[],
): {
  status: number;
  body: generative.ErrorBody;
} {
  const byKind = statusByKind[error.kind] ?? statusByKind.server;
  const kept =
    error.code !== undefined && kindByStatusName[error.code] === error.kind ? error.code : undefined;
  const retrySource = error.retryAfter?.source;
  if (losses !== undefined) {
    // A `RetryInfo` detail carries the retry delay here as it came.
    reportUnread(
      retrySource === undefined || error.unread === undefined
        ? error
        : { ...error, unread: error.unread.filter((path) => path !== retrySource) },
      "generative",
      losses,
    );
    if (error.code !== undefined && kept === undefined && error.codeSource !== undefined)
      losses.push(
        loss(
          error.codeSource,
          "approximated",
          `The upstream error type \`${error.code}\` has no generative equivalent; \`${byKind.name}\` was sent.`,
        ),
      );
    if (error.param !== undefined && error.paramSource !== undefined)
      losses.push(
        loss(
          error.paramSource,
          "dropped",
          `A generative error names no parameter; \`${error.param}\` was dropped.`,
        ),
      );
  }
  // 529 is messages-only and 413 has no generative form: both take the kind's own status.
  const replaced = error.status === 529 || error.status === 413 || error.status < 400 || error.status > 599;
  const status = replaced ? byKind.status : error.status;
  const body: generative.ErrorBody = {
    error: { code: status, message: error.message, status: kept ?? byKind.name },
  };
  if (error.retryAfter !== undefined)
    body.error.details = [{ "@type": RETRY_INFO, retryDelay: durationText(error.retryAfter.ms) }];
  return { status, body };
}
