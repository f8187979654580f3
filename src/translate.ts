import { strictLosses } from "./common/errors";
import { nestedTooDeep } from "./common/json";
import type { Loss } from "./common/loss";
import type { ErrorKind, Protocol } from "./common/model";
import { type ResolvedOptions, resolveOptions, type TranslateOptions } from "./common/options";
import { checkProtocol } from "./common/protocol-id";
import {
  clientTools,
  lowerRequest,
  lowerResponse,
  restoreRequest,
  restoreResponse,
  toolForms,
} from "./common/tool-forms";
import { type ClientHeaderOptions, clientHeaders, retryAfterOf, retryHeaders } from "./gateway/header-rules";
import { type HeadersLike, headerReader } from "./gateway/headers";
import type { ErrorBodyOf, RequestOf, ResponseOf } from "./protocols";
import { adapters, protocols } from "./protocols";
import { guarded, validated } from "./validate";

/** Tells `onLoss` of each loss, then, in strict mode, fails with them. */
function finish<T>(value: T, losses: Loss[], options: ResolvedOptions): { value: T; losses: Loss[] } {
  const onLoss = options.onLoss;
  if (onLoss !== undefined) for (const entry of losses) onLoss(entry);
  if (options.strict && losses.length > 0) throw strictLosses(losses);
  return { value, losses };
}

/** Both ids are checked before anything else. */
function checkPair(from: unknown, to: unknown): void {
  checkProtocol(from, protocols, "from");
  checkProtocol(to, protocols, "to");
}

/** Translates a request body from one protocol to another; every loss is reported with a pointer into `body`. */
export function translateRequest<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  body: unknown,
  options?: TranslateOptions,
): { value: RequestOf<To>; losses: Loss[]; model: string; stream: boolean } {
  checkPair(from, to);
  const resolved = resolveOptions(options);
  const source = adapters[from];
  const input = validated(source, "request", from, body, resolved);
  return guarded(from, "request", () => {
    const targetModel = resolved.targetModel;
    if (from === (to as Protocol)) {
      const info = source.requestInfo(input, resolved);
      if (targetModel === undefined)
        return { value: input as RequestOf<To>, losses: [], model: info.model, stream: info.stream };
      const value = source.withModel(input, targetModel) as RequestOf<To>;
      return { value, losses: [], model: targetModel, stream: info.stream };
    }
    const decoded = source.decodeRequest(input, resolved);
    const target = adapters[to];
    const forms: Loss[] = [];
    // Tools in forms the target lacks are lowered on the one path (common/tool-forms.ts).
    const common = lowerRequest(restoreRequest(decoded.value, forms), toolForms(target, resolved), forms);
    const request = targetModel === undefined ? common : { ...common, model: targetModel };
    const encoded = target.encodeRequest(request, resolved);
    // The lists are the converters' own: the common case (no decode loss) copies nothing.
    const before = forms.length === 0 ? decoded.losses : decoded.losses.concat(forms);
    const all = before.length === 0 ? encoded.losses : before.concat(encoded.losses);
    const { value, losses } = finish(encoded.value as RequestOf<To>, all, resolved);
    return { value, losses, model: request.model, stream: request.stream };
  });
}

/** Translates a whole (non-streamed) response body from one protocol to another. */
export function translateResponse<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  body: unknown,
  options?: TranslateOptions,
): { value: ResponseOf<To>; losses: Loss[] } {
  checkPair(from, to);
  const resolved = resolveOptions(options);
  const source = adapters[from];
  const input = validated(source, "response", from, body, resolved);
  return guarded(from, "response", () => {
    if (from === (to as Protocol)) return { value: input as ResponseOf<To>, losses: [] };
    const decoded = source.decodeResponse(input, resolved);
    const target = adapters[to];
    const forms: Loss[] = [];
    // Calls of the client's tools come back in its form; forms the client lacks are lowered.
    const tools = clientTools(target, resolved);
    const restored = tools === undefined ? decoded.value : restoreResponse(decoded.value, tools, forms);
    const response = lowerResponse(restored, toolForms(target, resolved), forms);
    const encoded = target.encodeResponse(response, resolved);
    return finish(
      encoded.value as ResponseOf<To>,
      [...decoded.losses, ...forms, ...encoded.losses],
      resolved,
    );
  });
}

/**
 * Whose move an error is: `request` (the request itself is wrong: fix it, do not retry), `account` (the
 * credentials, permissions, quota or rate limit of the key used upstream: the gateway's own, or the
 * client's when passed through), `upstream` (the provider failed or is overloaded: retry, or another
 * upstream).
 */
export type ErrorFault = "request" | "account" | "upstream";

const FAULT: Readonly<Record<ErrorKind, ErrorFault>> = {
  invalid_request: "request",
  not_found: "request",
  request_too_large: "request",
  authentication: "account",
  permission: "account",
  payment: "account",
  rate_limit: "account",
  server: "upstream",
  overloaded: "upstream",
  timeout: "upstream",
};

/** Kinds a client may retry as they are (after the delay the upstream asks for, if any). */
const RETRYABLE: ReadonlySet<ErrorKind> = new Set(["rate_limit", "server", "overloaded", "timeout"]);

/**
 * Translates an upstream error (any status, any body: JSON or not, known shape or not) into the
 * target protocol's error status and body, with a loss for each field of the body that does not arrive
 * (a `param` or `code` the target has no field for, a type it names otherwise, fields such as
 * generative `details`). The mapping is the one a stream encoder renders a mid-stream error with, so
 * an error reads the same either way. Never throws for a body (an unknown protocol id is a TypeError);
 * `options.onLoss` hears each loss, and `strict` does not apply (an error is always rendered).
 *
 * With the upstream's `headers`, it also gives the headers to answer the client with
 * (`gateway.clientHeaders`: the request id and rate limits in the client's conventions) and the retry
 * delay from whichever convention the upstream used — `retry-after-ms`, `retry-after`, or generative
 * `RetryInfo.retryDelay` in the body, which is then no loss — as `retry-after` (and `retry-after-ms`
 * where the client's SDK reads it; a generative client gets a `RetryInfo` detail too). `retryable`
 * says whether the client may send the same request again (the upstream's `x-should-retry` decides
 * when it sent one), `kind` what the error is and `fault` whose move it is.
 * @example
 * translateError("generative", "chat", { status: 429, body: geminiQuotaError }).headers
 * // => { "retry-after": "17", "retry-after-ms": "17000" }
 */
export function translateError<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  error: { status: number; body: unknown; headers?: HeadersLike | undefined },
  options?: Pick<TranslateOptions, "onLoss"> & ClientHeaderOptions,
): {
  status: number;
  body: ErrorBodyOf<To>;
  losses: Loss[];
  headers: Record<string, string>;
  retryable: boolean;
  kind: ErrorKind;
  fault: ErrorFault;
} {
  checkPair(from, to);
  const source = adapters[from];
  const decoded = source.decodeError(error);
  const headers =
    error.headers === undefined ? {} : clientHeaders(from, to, error.headers, { now: options?.now });
  const fromHeaders = retryAfterOf(error.headers);
  // The upstream's own verdict, where its protocol sends one.
  const should =
    source.headers.shouldRetry === undefined || error.headers === undefined
      ? undefined
      : headerReader(error.headers)(source.headers.shouldRetry);
  const classified = {
    retryable: should === "true" ? true : should === "false" ? false : RETRYABLE.has(decoded.kind),
    kind: decoded.kind,
    fault: FAULT[decoded.kind] ?? "upstream",
  };
  // A delay in the body (generative `RetryInfo`) reaches the client as headers when none said it.
  const retry = decoded.retryAfter;
  if (fromHeaders === undefined && retry !== undefined) Object.assign(headers, retryHeaders(retry, to));
  // A body nested deeper than the library takes is rendered anew rather than passed on as it came.
  if (
    from === (to as Protocol) &&
    nestedTooDeep(error.body) === undefined &&
    source.schemas.errorBody.safeParse(error.body).success
  ) {
    return { status: error.status, body: error.body as ErrorBodyOf<To>, losses: [], headers, ...classified };
  }
  let info = decoded;
  if (retry?.source !== undefined && info.unread !== undefined) {
    // The delay reached the client (headers), so its body field is not lost.
    const carried = retry.source;
    info = { ...info, unread: info.unread.filter((path) => path !== carried) };
  }
  if (retry === undefined && fromHeaders !== undefined && "ms" in fromHeaders) {
    // A target that says when to retry in its body (generative `RetryInfo`) says it there too.
    info = { ...info, retryAfter: { ms: fromHeaders.ms } };
  }
  const losses: Loss[] = [];
  const encoded = adapters[to].encodeError(info, losses);
  const onLoss = options?.onLoss;
  if (onLoss !== undefined) for (const entry of losses) onLoss(entry);
  return { status: encoded.status, body: encoded.body as ErrorBodyOf<To>, losses, headers, ...classified };
}
