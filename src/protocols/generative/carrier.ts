/**
 * Another protocol's reasoning state carried through a generative client (common/carrier.ts): in the
 * `thoughtSignature` of a part, which generative clients send back verbatim. Gemini CLI keeps the
 * call and text parts of a turn but not its thought parts, so the state rides on the call or text
 * after the reasoning: the thought parts only show its text.
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

/** What a request part's signature carries, or `undefined` when it is generative's own (or absent). */
export function readCarrier(part: common.Part, source: string): CarriedParts | undefined {
  const signature =
    part.type === "text" || part.type === "tool-call"
      ? part.signature
      : part.type === "reasoning" && part.signature !== undefined
        ? { origin: part.origin, value: part.signature, source: part.signatureSource }
        : undefined;
  if (signature === undefined || !mayBeCarrier(signature.value)) return undefined;
  const carried = unwrapCarried(signature.value);
  return carried === undefined
    ? undefined
    : carriedParts(carried, "", source, signature.source ?? `${source}/thoughtSignature`);
}

/** `part` without the signature that carried state: what the carrier's own part was. */
export function withoutSignature(part: common.Part): common.Part {
  if (part.type === "reasoning") {
    const { signature: _, signatureSource: __, ...rest } = part;
    return rest;
  }
  if (part.type !== "text" && part.type !== "tool-call") return part;
  const { signature: _, ...rest } = part;
  return rest;
}

/** What a generative client's carrier rides on: a call or a text (Gemini CLI keeps those, not thoughts). */
const carries = (part: common.Part): part is common.TextPart | common.ToolCallPart =>
  part.type === "text" || part.type === "tool-call";

const WHAT = "call or text";

/** `held` with a foreign reasoning part's state added, for the next call or text. */
export const hold = (held: Held | undefined, part: common.ReasoningPart, losses: Loss[]): Held | undefined =>
  holdState(held, part, losses, "generative", WHAT);

/** The signature for the next call or text: what `held` carries and its own foreign signature. */
export const carrierFor = (
  held: Held | undefined,
  signature: common.Signature | undefined,
  source: string,
  losses: Loss[],
): common.Signature | undefined => carrierOf("generative", held, signature, source, losses, WHAT);

/** Reports state held for a call or text that never came. */
export const unplaced = (held: Held | undefined, losses: Loss[]): void =>
  unplacedState(held, losses, "generative", WHAT);

/** A response's parts as a generative client gets them (common/carrier.ts `carryInParts`). */
export const carryInParts = (parts: readonly common.Part[], losses: Loss[]): readonly common.Part[] =>
  carryState("generative", parts, carries, losses, WHAT);

export type { Held };
