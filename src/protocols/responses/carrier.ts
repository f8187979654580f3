/**
 * Another protocol's reasoning state carried through a responses client (common/carrier.ts): in the
 * `encrypted_content` of a reasoning item, which stateless clients (Codex) send back verbatim. A
 * reasoning part becomes a reasoning item whose summary shows its text; a signature of a call or a
 * text becomes a reasoning item of its own, before the call or after the text.
 */
import {
  type CarriedEntry,
  type CarriedParts,
  carriedParts,
  mayBeCarrier,
  TOO_LARGE_CODE,
  TOO_LARGE_TO_CARRY,
  unwrapCarried,
  wrapCarried,
} from "../../common/carrier";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import { keepRest, type Raw } from "./fields";
import { PART_BREAK } from "./reasoning";
import type { Reasoning } from "./schema";

/** What a carrier item holds besides what the carrier restores: nothing worth a loss. */
const HELD = new Set(["type", "summary", "content", "encrypted_content"]);
/** The id and status a carrier item was given in the response: the client's echo of them carries nothing. */
const SILENT = new Set(["id", "status"]);

/** A reasoning item showing `text` whose `encrypted_content` carries `entries`; `undefined` and a loss when too large. */
export function carrierItem(
  origin: common.Protocol,
  entries: readonly CarriedEntry[],
  text: string,
  id: string,
  source: string,
  losses: Loss[],
): Raw | undefined {
  const encrypted = wrapCarried({ origin, entries });
  if (encrypted === undefined) {
    losses.push(loss(source, "dropped", TOO_LARGE_TO_CARRY, TOO_LARGE_CODE));
    return undefined;
  }
  return {
    id,
    type: "reasoning",
    summary: text === "" ? [] : [{ type: "summary_text", text }],
    encrypted_content: encrypted,
  };
}

/** What a reasoning item of a request carries, or `undefined` when its `encrypted_content` is responses' own. */
export function readCarrier(item: Reasoning, source: string, losses: Loss[]): CarriedParts | undefined {
  const encrypted = item.encrypted_content;
  if (typeof encrypted !== "string" || !mayBeCarrier(encrypted)) return undefined;
  const carried = unwrapCarried(encrypted);
  if (carried === undefined) return undefined;
  keepRest(item, HELD, source, "a reasoning item", losses, SILENT);
  const summary = item.summary.map((part) => part.text).join(PART_BREAK);
  return carriedParts(carried, summary, source, at(source, "encrypted_content"));
}
