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
import { chatToMessagesRequest } from "./chat-messages";
import { responsesToChatRequest } from "./responses-chat";
import { responsesToMessagesRequest } from "./responses-messages";

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
  "responses>chat": responsesToChatRequest,
  "responses>messages": responsesToMessagesRequest,
};

/** Fused response paths by pair; a pair not listed always takes the hub. */
export const fusedResponses: Partial<Record<Pair, FusedResponse>> = {};
