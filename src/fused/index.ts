/**
 * The fused paths by pair: straight from one wire to the other for the shapes each handles, the
 * hub (decode to the common model, encode from it) for everything else and the specification of
 * them all. A path returns `undefined` for what it does not handle exactly as the hub would, and
 * `translateRequest` / `translateResponse` then take the hub. Each has a differential test in
 * test/fused/ (value, losses, model and errors equal to the hub's on every fixture and 10,000 runs
 * of the toolkit's arbitraries).
 */
import type { Loss } from "../common/loss";
import type { Protocol } from "../common/model";
import type { ResolvedOptions } from "../common/options";
import { chatToGenerativeRequest } from "./chat-generative";
import { chatToGenerativeResponse } from "./chat-generative-response";
import { chatToGenerativeStream } from "./chat-generative-stream";
import { chatToMessagesRequest } from "./chat-messages";
import { chatToMessagesResponse } from "./chat-messages-response";
import { chatToMessagesStream } from "./chat-messages-stream";
import { chatToResponsesRequest } from "./chat-responses";
import { chatToResponsesResponse } from "./chat-responses-response";
import { generativeToChatRequest } from "./generative-chat";
import { generativeToChatResponse } from "./generative-chat-response";
import { generativeToMessagesRequest } from "./generative-messages";
import { generativeToMessagesResponse } from "./generative-messages-response";
import { generativeToResponsesRequest } from "./generative-responses";
import { messagesToChatRequest } from "./messages-chat";
import { messagesToChatResponse } from "./messages-chat-response";
import { messagesToChatStream } from "./messages-chat-stream";
import { messagesToGenerativeRequest } from "./messages-generative";
import { messagesToGenerativeStream } from "./messages-generative-stream";
import { messagesToResponsesRequest } from "./messages-responses";
import { messagesToResponsesResponse } from "./messages-responses-response";
import { responsesToChatRequest } from "./responses-chat";
import { responsesToChatResponse } from "./responses-chat-response";
import { responsesToChatStream } from "./responses-chat-stream";
import { responsesToGenerativeRequest } from "./responses-generative";
import { responsesToMessagesRequest } from "./responses-messages";
import { responsesToMessagesResponse } from "./responses-messages-response";
import { responsesToMessagesStream } from "./responses-messages-stream";

/** A fused translation: the hub's value and losses, and what `translateRequest` reports beside them. */
export type Fused<T> = { value: T; losses: Loss[]; model: string; stream: boolean };

/** A fused request path: a validated body in, the hub's result out, or `undefined` for the hub. Never throws. */
export type FusedRequest = (body: unknown, options: ResolvedOptions) => Fused<unknown> | undefined;

/** A fused response path: a validated body in, the hub's value and losses out, or `undefined` for the hub. */
export type FusedResponse = (
  body: unknown,
  options: ResolvedOptions,
) => { value: unknown; losses: Loss[] } | undefined;

/** The pair key of the tables below. */
export type Pair = `${Protocol}>${Protocol}`;

/** Fused request paths by pair; a pair not listed always takes the hub. */
export const fusedRequests: Partial<Record<Pair, FusedRequest>> = {
  "chat>messages": chatToMessagesRequest,
  "chat>generative": chatToGenerativeRequest,
  "chat>responses": chatToResponsesRequest,
  "generative>chat": generativeToChatRequest,
  "generative>messages": generativeToMessagesRequest,
  "generative>responses": generativeToResponsesRequest,
  "messages>chat": messagesToChatRequest,
  "messages>generative": messagesToGenerativeRequest,
  "messages>responses": messagesToResponsesRequest,
  "responses>chat": responsesToChatRequest,
  "responses>generative": responsesToGenerativeRequest,
  "responses>messages": responsesToMessagesRequest,
};

/** Fused response paths by pair; a pair not listed always takes the hub. */
export const fusedResponses: Partial<Record<Pair, FusedResponse>> = {
  "chat>messages": chatToMessagesResponse,
  "chat>generative": chatToGenerativeResponse,
  "chat>responses": chatToResponsesResponse,
  "generative>chat": generativeToChatResponse,
  "generative>messages": generativeToMessagesResponse,
  "messages>chat": messagesToChatResponse,
  "messages>responses": messagesToResponsesResponse,
  "responses>chat": responsesToChatResponse,
  "responses>messages": responsesToMessagesResponse,
};

/**
 * A table by source, then target: what `translateRequest` and `translateResponse` look a pair up in.
 * Two lookups of the protocol ids (internalized strings) instead of a `from>to` key built and hashed
 * on every call, which cost about as much as a short fused translation itself.
 */
function bySource<T>(
  table: Partial<Record<Pair, T>>,
): Partial<Record<Protocol, Partial<Record<Protocol, T>>>> {
  const out: Partial<Record<Protocol, Partial<Record<Protocol, T>>>> = {};
  for (const pair in table) {
    const [from, to] = pair.split(">") as [Protocol, Protocol];
    const row = out[from] ?? {};
    row[to] = table[pair as Pair];
    out[from] = row;
  }
  return out;
}

/** `fusedRequests` by source, then target. */
export const fusedRequestsBySource = bySource(fusedRequests);

/** `fusedResponses` by source, then target. */
export const fusedResponsesBySource = bySource(fusedResponses);

/**
 * A fused stream path of one stream, consulted by the event-level translator before the hub: `next`
 * gets each (validated) input event and returns the one output event the hub would make for it — the
 * hub's states unchanged by it and no loss reported — or `undefined` for the hub; `saw` gets each event
 * the hub translated, what it made, and whether both hub reducers returned their state itself (nothing
 * changed: reducer.ts), so that the path can decide, mid-stream, when it may take over again. It never
 * throws.
 */
export type FusedStream = {
  next(input: unknown): unknown;
  saw(input: unknown, result: readonly unknown[], unchanged: boolean): void;
};

/** Fused stream paths by pair (a maker per stream); a pair not listed always takes the hub. */
export const fusedStreams: Partial<Record<Pair, () => FusedStream>> = {
  "chat>messages": chatToMessagesStream,
  "chat>generative": chatToGenerativeStream,
  "messages>chat": messagesToChatStream,
  "messages>generative": messagesToGenerativeStream,
  "responses>chat": responsesToChatStream,
  "responses>messages": responsesToMessagesStream,
};
