/**
 * Another protocol's reasoning state carried through a chat client (common/carrier.ts): in the id of
 * the next tool call, `<id>~<carrier>`, the one field every chat client sends back (on the call and on
 * the tool message that answers it). OpenRouter's `reasoning_details` and Gemini's `extra_content`
 * carry what they can natively in the dialects that have them; state with no call after it is lost.
 */
import {
  type CarriedParts,
  carriedParts,
  carrierOf,
  carryState,
  type Held,
  holdState,
  mayBeCarrier,
  unplacedState,
  unwrapCarried,
} from "../../common/carrier";
import type { Loss } from "../../common/loss";
import type * as common from "../../common/model";
import type { Dialect } from "./dialect";

const SEPARATOR = "~";
const WHAT = "tool call";

/** The id a client gets: the call's own and the carrier, `<id>~<carrier>`. */
export const withCarrier = (id: string, carrier: string): string => `${id}${SEPARATOR}${carrier}`;

/**
 * A tool call id as a client sent it back: the call's own id, and the parts its carrier stands for
 * (`source`: the call's pointer). An id without a well-formed carrier is the call's own as it is.
 */
export function splitId(id: string, source: string): { id: string; carried?: CarriedParts } {
  const at = id.lastIndexOf(SEPARATOR);
  if (at === -1) return { id };
  const carrier = id.slice(at + 1);
  if (!mayBeCarrier(carrier)) return { id };
  const carried = unwrapCarried(carrier);
  if (carried === undefined) return { id };
  return { id: id.slice(0, at), carried: carriedParts(carried, "", source, `${source}/id`) };
}

const isCall = (part: common.Part): part is common.ToolCallPart => part.type === "tool-call";

/** What a dialect carries in fields of its own (`reasoning_details`, `extra_content`). */
const nativeIn = (dialect: Dialect) => ({
  reasoning: () => dialect.reasoningDetails,
  signature: (signature: common.Signature) => signature.origin === "generative" && dialect.extraContent,
});

/** A choice's parts as a chat client gets them: state the dialect cannot hold rides in call ids. */
export const carryInParts = (
  parts: readonly common.Part[],
  dialect: Dialect,
  losses: Loss[],
): readonly common.Part[] => carryState("chat", parts, isCall, losses, WHAT, nativeIn(dialect));

/** `held` with a foreign reasoning part's state added, for the next tool call. */
export const hold = (held: Held | undefined, part: common.ReasoningPart, losses: Loss[]): Held | undefined =>
  holdState(held, part, losses, "chat", WHAT);

/** The carrier for the next tool call: what `held` carries and the call's own foreign signature. */
export const carrierFor = (
  held: Held | undefined,
  signature: common.Signature | undefined,
  source: string,
  losses: Loss[],
): common.Signature | undefined => carrierOf("chat", held, signature, source, losses, WHAT);

/** Reports state held for a tool call that never came. */
export const unplaced = (held: Held | undefined, losses: Loss[]): void =>
  unplacedState(held, losses, "chat", WHAT);

export type { Held };
