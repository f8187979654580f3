import type { z } from "zod/v4";
import type { Loss, Translated } from "../common/loss";
import type * as common from "../common/model";
import type { ResolvedOptions } from "../common/options";
import type { StreamReducer } from "../common/reducer";
import type { RequestRefusal } from "../common/refusals";
import type { ToolForms } from "../common/tool-forms";

/** A rate-limit figure a provider reports in its response headers. */
export type RateLimitMetric = "requests" | "tokens" | "input-tokens" | "output-tokens";
export type RateLimitField = "limit" | "remaining" | "reset";

/**
 * A protocol's HTTP header names (lower case), for the gateway's header rules (src/gateway/header-rules.ts):
 * which request headers its API reads, which carry credentials, and how its responses say when to
 * retry, which request it was and what is left of the rate limits.
 */
export type HeaderConvention = {
  /** Request headers that carry a credential or pick an account: never forwarded (the gateway sends its own). */
  readonly credentials: readonly string[];
  /**
   * Request headers the API reads, forwarded as given to an upstream of the same protocol; one listed by
   * both protocols of a pair (`idempotency-key`) crosses to the other too.
   */
  readonly request: readonly string[];
  /** Prefixes of the protocol's own request headers, forwarded as given to an upstream of the same protocol. */
  readonly requestPrefixes: readonly string[];
  /**
   * The version header the API requires: its name, the other names clients send it under, and the
   * value sent when the client speaks another protocol.
   */
  readonly version?: { readonly name: string; readonly aliases: readonly string[]; readonly value: string };
  /** The response header that names the request. */
  readonly requestId?: string;
  /** The protocol's clients read `retry-after-ms` (milliseconds) beside `retry-after`. */
  readonly retryAfterMs: boolean;
  /** The response header that tells a client whether to retry (`x-should-retry: true|false`). */
  readonly shouldRetry?: string;
  /** The rate-limit response headers: a name per metric and field, and how `reset` is written. */
  readonly rateLimits?: {
    readonly headers: Readonly<Partial<Record<RateLimitMetric, Readonly<Record<RateLimitField, string>>>>>;
    /** `duration`: time left, `6m0s`; `timestamp`: the moment, RFC 3339. */
    readonly reset: "duration" | "timestamp";
  };
  /** Other response headers passed back as given to a client of the same protocol: names and prefixes. */
  readonly response: readonly string[];
  readonly responsePrefixes: readonly string[];
  /** Response headers that describe the upstream account (its organization): never passed back. */
  readonly private: readonly string[];
};

/** A path into a parsed event: object keys and array indexes. */
export type DeltaPath = readonly (string | number)[];

/**
 * What each protocol folder provides, like a hono adapter: its schemas and the two directions for
 * requests, responses, errors and streams. `translate.ts` and `stream/` see only this.
 */
export interface ProtocolAdapter<Request, Response, Event, ErrorBody> {
  readonly schemas: {
    readonly request: z.ZodType<Request>;
    readonly response: z.ZodType<Response>;
    /** One stream event as the SSE `data:` JSON carries it (chat also accepts `DONE`). */
    readonly event: z.ZodType<Event>;
    readonly errorBody: z.ZodType<ErrorBody>;
  };
  /** The protocol's HTTP header names (src/gateway/header-rules.ts applies them). */
  readonly headers: HeaderConvention;
  /** The model and stream flag of a request (generative: from `options`), without decoding it. */
  requestInfo(body: Request, options: ResolvedOptions): { model: string; stream: boolean };
  /** The request asking for `model` instead (`options.targetModel` on a same-protocol pass); generative names it in the URL. */
  withModel(body: Request, model: string): Request;
  decodeRequest(body: Request, options: ResolvedOptions): Translated<common.Request>;
  /**
   * The tool forms this protocol's encoders write for `options`: free-form tools, tool groups, the
   * client's tool search (common/tool-forms.ts lowers the others first). Absent: none of them.
   */
  toolForms?(options: ResolvedOptions): ToolForms;
  /**
   * The tools of a request of this protocol (`options.request`: the client's own), as common tools, so
   * that a response's calls of them come back in the form the client gave them; `[]` for a body that is
   * not a request. Absent: the protocol has no tool forms another protocol lacks.
   */
  clientTools?(request: unknown): readonly common.Tool[];
  encodeRequest(request: common.Request, options: ResolvedOptions): Translated<Request>;
  /**
   * What the protocol's service refuses in a request its schema accepts — a tool call without its
   * result, a result answering no call, a conversation that does not start as the service needs — by
   * the rules `encodeRequest` enforces (common/refusals.ts), each with its pointer into `body`; [] when
   * the service takes it. The testing toolkit's valid-output law reads it.
   */
  requestRefusals(body: Request, options: ResolvedOptions): RequestRefusal[];
  decodeResponse(body: Response, options: ResolvedOptions): Translated<common.Response>;
  encodeResponse(response: common.Response, options: ResolvedOptions): Translated<Response>;
  /**
   * Any status and body (JSON or not, known shape or not) → common error; never throws. Pointers
   * (`codeSource`, `paramSource`, `unread`) are into the body, which is also a mid-stream error event's.
   */
  decodeError(error: { status: number; body: unknown }): common.ErrorInfo;
  /**
   * Common error → this protocol's status and body: the one table for an error as a body and as a stream
   * event (the stream encoder renders an `error` part with it). `losses` gets each field of the error
   * the body cannot hold (`reportUnread` first).
   */
  encodeError(error: common.ErrorInfo, losses?: Loss[]): { status: number; body: ErrorBody };
  streamDecoder(options: ResolvedOptions): StreamReducer<unknown, Event, common.StreamPart>;
  streamEncoder(options: ResolvedOptions): StreamReducer<unknown, common.StreamPart, Event>;
  /**
   * The same protocol on both sides (the input passes through as it came): the events that end the
   * stream with `error` after the `events` passed on, from the decoder's state that watched them. For a
   * protocol whose events are numbered or whose error takes more than one event; without it, the
   * stream encoder's last event for an error part. `undefined` when nothing passed through: the
   * encoder's whole rendering of the error is the stream.
   */
  passThroughError?(error: common.ErrorInfo, decoderState: unknown, events: number): Event[] | undefined;
  /** The SSE `event:` name to write for an output event (messages uses the event type), if any. */
  sseEventName(event: Event): string | undefined;
  /** Parses one SSE `data:` payload into an event (chat: `[DONE]` → DONE). Throws on bad JSON. */
  parseEventData(data: string): unknown;
  /**
   * Where the values that change from one delta to the next sit in an event, as paths: the string of
   * the deltas a stream sends most (text, thinking, tool-call arguments), and a per-event nonce
   * (`obfuscation`) or counter (`sequence_number`, a non-negative integer) when the protocol sends
   * one. translateEventStream reuses the previous event when only these values changed
   * (src/stream/repeat.ts).
   */
  readonly deltaStrings: readonly DeltaPath[];
  /**
   * A serialiser for one output stream: each event's SSE `data:` payload, JSON text (or chat's
   * `[DONE]`) with exactly `JSON.stringify`'s bytes, never a raw line break — translateEventStream
   * writes it into one `data:` line unscanned. A new one per stream: it may remember what repeats
   * (an envelope's JSON) to write the most frequent events (deltas) faster.
   */
  eventFormatter(): (event: Event) => string;
  /**
   * A byte framing the protocol's streams may use instead of SSE, told from the body's first bytes
   * (generative without `alt=sse`: one JSON array); each unit it yields is one event's JSON text.
   */
  readonly alternateFraming?: {
    detect(first: Uint8Array): boolean;
    create(): Framer;
  };
}

/** Splits a streamed body, cut anywhere, into the JSON text of each event. */
export type Framer = {
  feed(chunk: Uint8Array): readonly string[];
  end(): readonly string[];
};
