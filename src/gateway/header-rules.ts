/**
 * Headers across protocols: which of a client's request headers go upstream, and which of the
 * upstream's response headers go back to the client, translated between the providers' conventions.
 * Each protocol's own header names are in its folder (`headers` of its adapter); the rules are here.
 */
import type { Protocol } from "../common/model";
import { checkProtocol } from "../common/protocol-id";
import { adapters, protocols } from "../protocols";
import type { HeaderConvention, RateLimitMetric } from "../protocols/adapter";
import { type HeadersLike, headerEntries, headerReader } from "./headers";

/** Credentials of HTTP itself, whatever the protocol. */
const HTTP_CREDENTIALS = ["authorization", "proxy-authorization", "cookie"];

let credentialNames: ReadonlySet<string> | undefined;

/** Every protocol's credential headers: none is ever forwarded, whichever pair (made on first use). */
function credentials(): ReadonlySet<string> {
  if (credentialNames === undefined) {
    const names = new Set(HTTP_CREDENTIALS);
    for (const id of protocols) for (const name of adapters[id].headers.credentials) names.add(name);
    credentialNames = names;
  }
  return credentialNames;
}

const convention = (protocol: Protocol): HeaderConvention => adapters[protocol].headers;

const startsWithAny = (name: string, prefixes: readonly string[]): boolean =>
  prefixes.some((prefix) => name.startsWith(prefix));

/**
 * The client's request headers to send to an upstream of protocol `to`, for a client of protocol
 * `from`: the same protocol gets the protocol's own headers as given (`anthropic-beta`,
 * `anthropic-version`, `openai-beta`, `x-goog-api-client`, idempotency keys, `x-stainless-*`); another
 * protocol only the headers both protocols define (`idempotency-key`). The version header the target
 * requires is always there: the client's own (or the spec's `x-proto-version`) for the same protocol,
 * else the version the translation writes for. Credentials never pass (the gateway sends its own), nor
 * anything HTTP manages (host, length, encodings, connection). Names are lower case.
 * @example
 * upstreamHeaders("messages", "messages", { "anthropic-beta": "context-management-2025-06-27", "x-api-key": "sk-client" })
 * // => { "anthropic-beta": "context-management-2025-06-27", "anthropic-version": "2023-06-01" }
 */
export function upstreamHeaders(
  from: Protocol,
  to: Protocol,
  clientHeaders: HeadersLike,
): Record<string, string> {
  checkProtocol(from, protocols, "from");
  checkProtocol(to, protocols, "to");
  const source = convention(from);
  const target = convention(to);
  const same = from === to;
  const secret = credentials();
  const version = target.version;
  const out: Record<string, string> = {};
  for (const [name, value] of headerEntries(clientHeaders)) {
    if (secret.has(name) || target.credentials.includes(name)) continue;
    if (version !== undefined && (name === version.name || version.aliases.includes(name))) continue;
    const forwarded = same
      ? target.request.includes(name) || startsWithAny(name, target.requestPrefixes)
      : target.request.includes(name) && source.request.includes(name);
    if (!forwarded) continue;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  if (version !== undefined) {
    const read = headerReader(clientHeaders);
    let given: string | undefined;
    if (same) for (const name of [version.name, ...version.aliases]) given ??= read(name);
    out[version.name] = given ?? version.value;
  }
  return out;
}

/** When to retry, as an upstream said it: a delay, or (`retry-after` as an HTTP date) a moment. */
export type RetryAfter = { readonly ms: number } | { readonly date: string };

/**
 * The retry delay of a response's headers: `retry-after-ms` (milliseconds), else `retry-after` in
 * seconds, else `retry-after` as an HTTP date (kept as written: turning it into a delay needs a clock).
 */
export function retryAfterOf(headers: HeadersLike | undefined): RetryAfter | undefined {
  if (headers === undefined) return undefined;
  const read = headerReader(headers);
  const ms = read("retry-after-ms");
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return { ms: Number(ms) };
  const after = read("retry-after");
  if (after === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return { ms: Number(after) * 1000 };
  return Number.isNaN(Date.parse(after)) ? undefined : { date: after };
}

/**
 * A retry delay in the headers a client of `to` reads: `retry-after` in whole seconds (rounded up:
 * a client that waits less is refused again) or as the date given, and `retry-after-ms` where the
 * protocol's clients read it.
 */
export function retryHeaders(retry: RetryAfter, to: Protocol): Record<string, string> {
  if ("date" in retry) return { "retry-after": retry.date };
  const out: Record<string, string> = { "retry-after": String(Math.ceil(retry.ms / 1000)) };
  if (convention(to).retryAfterMs) out["retry-after-ms"] = String(Math.ceil(retry.ms));
  return out;
}

/** Options of `clientHeaders`. */
export type ClientHeaderOptions = {
  /**
   * The current time in milliseconds since the epoch: with it, a rate-limit reset crosses between a
   * provider that writes it as a duration (`6m0s`) and one that writes the moment (RFC 3339); without
   * it, such a reset is left out (the library has no clock).
   */
  now?: number;
};

/**
 * The upstream's response headers to send to the client, for an upstream of protocol `from` and a
 * client of protocol `to`, in the client's conventions: the retry delay (`retry-after`, and
 * `retry-after-ms` where its clients read it), `x-should-retry`, the request id under the client's
 * name (`x-request-id`, messages `request-id`), and the rate limits in the client's family
 * (`x-ratelimit-*` ⇄ `anthropic-ratelimit-*`: requests and tokens). The same protocol gets its own
 * headers as given. Headers that name the upstream's account (organization, workspace) never pass,
 * nor anything HTTP manages. Names are lower case.
 * @example
 * clientHeaders("messages", "chat", { "retry-after": "2", "request-id": "req_1", "anthropic-ratelimit-requests-remaining": "0" })
 * // => { "retry-after": "2", "retry-after-ms": "2000", "x-request-id": "req_1", "x-ratelimit-remaining-requests": "0" }
 */
export function clientHeaders(
  from: Protocol,
  to: Protocol,
  upstreamHeaders: HeadersLike,
  options?: ClientHeaderOptions,
): Record<string, string> {
  checkProtocol(from, protocols, "from");
  checkProtocol(to, protocols, "to");
  const source = convention(from);
  const target = convention(to);
  const read = headerReader(upstreamHeaders);
  const out: Record<string, string> = {};
  if (from === to) {
    const passed = [
      "retry-after",
      "retry-after-ms",
      ...(source.requestId === undefined ? ["x-request-id"] : [source.requestId]),
      ...(source.shouldRetry === undefined ? [] : [source.shouldRetry]),
      ...source.response,
    ];
    for (const [name, value] of headerEntries(upstreamHeaders)) {
      if (source.private.includes(name)) continue;
      if (passed.includes(name) || startsWithAny(name, source.responsePrefixes))
        out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
    }
    return out;
  }
  const retry = retryAfterOf(upstreamHeaders);
  if (retry !== undefined) Object.assign(out, retryHeaders(retry, to));
  if (source.shouldRetry !== undefined && target.shouldRetry !== undefined) {
    const should = read(source.shouldRetry);
    if (should !== undefined) out[target.shouldRetry] = should;
  }
  const id = read(source.requestId ?? "x-request-id");
  if (id !== undefined) out[target.requestId ?? "x-request-id"] = id;
  translateRateLimits(source, target, read, options?.now, out);
  return out;
}

function translateRateLimits(
  source: HeaderConvention,
  target: HeaderConvention,
  read: (name: string) => string | undefined,
  now: number | undefined,
  out: Record<string, string>,
): void {
  const from = source.rateLimits;
  const to = target.rateLimits;
  if (from === undefined || to === undefined) return;
  for (const metric of Object.keys(to.headers) as RateLimitMetric[]) {
    const names = from.headers[metric];
    const into = to.headers[metric];
    if (names === undefined || into === undefined) continue;
    const limit = read(names.limit);
    const remaining = read(names.remaining);
    if (limit !== undefined) out[into.limit] = limit;
    if (remaining !== undefined) out[into.remaining] = remaining;
    const reset = read(names.reset);
    const converted = reset === undefined ? undefined : convertReset(reset, from.reset, to.reset, now);
    if (converted !== undefined) out[into.reset] = converted;
  }
}

/** A reset written one way (`duration` or `timestamp`) in the other; `undefined` when that takes a clock it lacks. */
function convertReset(
  value: string,
  from: "duration" | "timestamp",
  to: "duration" | "timestamp",
  now: number | undefined,
): string | undefined {
  if (from === to) return value;
  if (now === undefined) return undefined;
  if (from === "duration") {
    const ms = parseDuration(value);
    return ms === undefined ? undefined : new Date(now + ms).toISOString();
  }
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : formatDuration(Math.max(0, at - now));
}

const DURATION =
  /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/;

/** A duration as OpenAI writes it (`20ms`, `1s`, `6m0s`, `1h2m3.5s`) in milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (match === null || text === "") return undefined;
  const [, hours, minutes, seconds, millis] = match;
  return (
    Number(hours ?? 0) * 3_600_000 +
    Number(minutes ?? 0) * 60_000 +
    Number(seconds ?? 0) * 1000 +
    Number(millis ?? 0)
  );
}

/** Milliseconds as OpenAI writes a duration (Go's `Duration.String`): `20ms`, `1s`, `6m0s`, `1h2m3.5s`. */
export function formatDuration(ms: number): string {
  const whole = Math.round(ms);
  if (whole < 1000) return `${whole}ms`;
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const seconds = (whole % 60_000) / 1000;
  const tail = `${seconds}s`;
  if (hours > 0) return `${hours}h${minutes}m${tail}`;
  if (minutes > 0) return `${minutes}m${tail}`;
  return tail;
}
