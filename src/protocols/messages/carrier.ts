/**
 * Another protocol's reasoning state carried through a messages client (common/carrier.ts): in the
 * `signature` of a thinking block, which messages clients send back verbatim (the API requires it).
 * A reasoning part becomes a thinking block showing its text; a signature of a call or a text becomes
 * a thinking block of its own, before the call or after the text.
 */
import {
  type CarriedEntry,
  type CarriedParts,
  carriedParts,
  mayBeCarrier,
  reasoningEntry,
  TOO_LARGE_CODE,
  TOO_LARGE_TO_CARRY,
  unwrapCarried,
  wrapCarried,
} from "../../common/carrier";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import type { ThinkingBlock } from "./schema";

/** A thinking block showing `text` whose signature carries `entries`; `undefined` and a loss when too large. */
export function carrierBlock(
  origin: common.Protocol,
  entries: readonly CarriedEntry[],
  text: string,
  source: string,
  losses: Loss[],
): ThinkingBlock | undefined {
  const signature = wrapCarried({ origin, entries });
  if (signature === undefined) {
    losses.push(loss(source, "dropped", TOO_LARGE_TO_CARRY, TOO_LARGE_CODE));
    return undefined;
  }
  return { type: "thinking", thinking: text, signature };
}

/** Another protocol's reasoning part as a thinking block, its state (if any) carried in the signature. */
export function foreignThinking(part: common.ReasoningPart, losses: Loss[]): ThinkingBlock {
  const entry = reasoningEntry(part, false, true);
  const block =
    entry === undefined
      ? undefined
      : carrierBlock(part.origin, [entry], part.text, part.signatureSource ?? part.source, losses);
  return block ?? { type: "thinking", thinking: part.text, signature: "" };
}

/** The signature a thinking block carries as a block of its own (before a call, after a text). */
export function signatureBlock(
  signature: common.Signature,
  of: "next" | "previous",
  source: string,
  losses: Loss[],
): ThinkingBlock | undefined {
  return carrierBlock(
    signature.origin,
    [{ signature: signature.value, of }],
    "",
    signature.source ?? source,
    losses,
  );
}

/** What a thinking block of a request carries, or `undefined` when its signature is messages' own. */
export function readCarrier(
  block: { readonly thinking: string; readonly signature: string },
  source: string,
): CarriedParts | undefined {
  if (!mayBeCarrier(block.signature)) return undefined;
  const carried = unwrapCarried(block.signature);
  return carried === undefined
    ? undefined
    : carriedParts(carried, block.thinking, source, `${source}/signature`);
}

/**
 * A text's signature of another protocol when the text is the answer's last block: its carrier would
 * end the answer with a thinking block, which messages clients read as no answer (Claude Code prints
 * nothing). Gemini needs only its calls' signatures back: this one is dropped, and said.
 */
export function afterTextDropped(source: string): Loss {
  return loss(
    source,
    "dropped",
    "The signature of the answer's last text has no place after it: a messages answer ending in a thinking block shows its client no text. It was dropped (Gemini needs only its calls' signatures back).",
    "reasoning_state.uncarried",
  );
}
