import type { Protocol } from "../common/model";
import type { ProtocolAdapter } from "./adapter";
import { chatAdapter } from "./chat/adapter";
import { generativeAdapter } from "./generative/adapter";
import { messagesAdapter } from "./messages/adapter";
import { responsesAdapter } from "./responses/adapter";

/**
 * The one lookup table of protocols, each plugged in by its adapter: a new protocol is its folder,
 * one line here and one id in the `Protocol` union (common/model.ts). The wire types are derived
 * from this table.
 */
const table = {
  chat: chatAdapter,
  messages: messagesAdapter,
  generative: generativeAdapter,
  responses: responsesAdapter,
} satisfies Record<Protocol, unknown>;

export type AnyAdapter = ProtocolAdapter<unknown, unknown, unknown, unknown>;

/** The table with its wire types erased, for the generic core (`translate.ts`, `stream/`). */
export const adapters = table as unknown as Readonly<Record<Protocol, AnyAdapter>>;

/**
 * The protocol ids, in the table's order. Written out rather than `Object.keys(table)`: a call at the
 * top of the module kept every protocol in bundles that import none (test/bundle.test.ts).
 */
export const protocols = [
  "chat",
  "messages",
  "generative",
  "responses",
] as const satisfies readonly Protocol[];

/**
 * The endpoint type of each protocol's entry point in a model's `supported_endpoint_types`,
 * for `models.route`. A literal beside the list, not an adapter field: `models` must not pull every
 * translator into a bundle that routes but never translates.
 */
export const endpointTypes = {
  chat: "std",
  messages: "msg",
  generative: "gen",
  responses: "std-response",
} as const satisfies Record<Protocol, string>;

/** `true` only when every id of the `Protocol` union is in `protocols` (else a compile error here). */
type AllListed = [Exclude<Protocol, (typeof protocols)[number]>] extends [never] ? true : false;
const allListed: AllListed = true;
void allListed;

type WireOf<A> =
  A extends ProtocolAdapter<infer Request, infer Response, infer Event, infer ErrorBody>
    ? { request: Request; response: Response; event: Event; errorBody: ErrorBody }
    : never;

/** Wire types by protocol id, for the generic signatures of the public functions. */
type Wire = { [P in Protocol]: WireOf<(typeof table)[P]> };

/** The request body type of a protocol: `RequestOf<"chat">` is `chat.Request`. */
export type RequestOf<P extends Protocol> = Wire[P]["request"];
/** The whole-response body type of a protocol: `ResponseOf<"messages">` is `messages.Response`. */
export type ResponseOf<P extends Protocol> = Wire[P]["response"];
/**
 * The stream event type of a protocol (one SSE `data` payload, parsed): `EventOf<"chat">` is a
 * `chat.Chunk` or `chat.DONE`.
 */
export type EventOf<P extends Protocol> = Wire[P]["event"];
/** The error body type of a protocol: `ErrorBodyOf<"generative">` is `generative.ErrorBody`. */
export type ErrorBodyOf<P extends Protocol> = Wire[P]["errorBody"];
