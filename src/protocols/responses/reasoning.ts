/**
 * responses `reasoning` items ↔ common reasoning parts. One item is one part: its text is the summary
 * parts (or, from servers that send raw reasoning instead, its `reasoning_text` parts) joined by a
 * blank line; `encrypted_content` is the part's signature, valid only at a responses service; the rest
 * of the item (its id, how the text was split, `summary: []`) is kept so that responses itself
 * restores the item exactly. Another protocol's reasoning becomes a summary.
 * @see https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items
 */

import { type CarriedEntry, reasoningEntry } from "../../common/carrier";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import { carrierItem } from "./carrier";
import { keepRest, type Raw } from "./fields";
import type { Reasoning } from "./schema";

/** Joins the parts of one reasoning item into one text (and a stream inserts it between parts). */
export const PART_BREAK = "\n\n";

/**
 * What a reasoning item holds beside its text and signature: its other fields (`id`, `status` …),
 * which list the text came from and each part's length, the other list as given, and whether
 * `encrypted_content` was an explicit `null`.
 */
export type ReasoningShell = {
  readonly fields: Raw;
  readonly use: "summary" | "content";
  readonly lengths: readonly number[];
  /** `content` when the text came from `summary` (absent: not in the item), `summary` otherwise. */
  readonly other: unknown;
  readonly encryptedNull: boolean;
};

const HELD = new Set(["type", "summary", "content", "encrypted_content"]);
/** The fields of a summary or reasoning text part the common part holds. */
const PART_HELD = new Set(["type", "text"]);

/** The text of a reasoning item's parts and how it was split. */
function textOf(texts: readonly string[]): { text: string; lengths: number[] } {
  return { text: texts.join(PART_BREAK), lengths: texts.map((text) => text.length) };
}

/**
 * A reasoning item → a common reasoning part and its shell. `silent` lists fields not worth a loss
 * (a response's item `id` and `status`, which a translation back synthesizes). The text is the summary,
 * or the raw reasoning text when there is no summary; `streamed`: the list a stream already sent (the
 * first to stream wins there), whose text it is then, the other list reported dropped.
 */
export function decodeReasoningItem(
  item: Reasoning,
  source: string,
  losses: Loss[],
  silent?: ReadonlySet<string>,
  streamed?: "summary" | "content",
): { part: common.ReasoningPart; shell: ReasoningShell } {
  const fields = keepRest(item, HELD, source, "a reasoning item", losses, silent) ?? {};
  const summary = item.summary;
  const content = Array.isArray(item.content) ? item.content : [];
  const use =
    streamed === "content" || (streamed === undefined && summary.length === 0 && content.length > 0)
      ? "content"
      : "summary";
  let texts: string[];
  if (use === "summary") {
    texts = summary.map((part, index) => {
      keepRest(part, PART_HELD, at(source, "summary", index), "a summary_text part", losses);
      return part.text;
    });
    if (content.length > 0)
      losses.push(
        loss(
          at(source, "content"),
          "dropped",
          "The raw reasoning text beside the reasoning summary has no place in the target and was dropped.",
        ),
      );
  } else {
    texts = [];
    if (summary.length > 0)
      losses.push(
        loss(
          at(source, "summary"),
          "dropped",
          "The reasoning summary came after the raw reasoning text the stream had already sent, and was dropped.",
        ),
      );
    content.forEach((part, index) => {
      const raw = part as { type: string; text?: unknown };
      if (raw.type === "reasoning_text" && typeof raw.text === "string") {
        keepRest(raw, PART_HELD, at(source, "content", index), "a reasoning_text part", losses);
        texts.push(raw.text);
      } else
        losses.push(
          loss(
            at(source, "content", index),
            "dropped",
            `A ${raw.type} reasoning part has no common equivalent and was dropped.`,
          ),
        );
    });
  }
  if (texts.length > 1)
    losses.push(
      loss(
        at(source, use),
        "approximated",
        `The ${texts.length} ${use} parts of the reasoning item were joined into one text, parted by blank lines.`,
      ),
    );
  const { text, lengths } = textOf(texts);
  const part: common.Draft<common.ReasoningPart> = { type: "reasoning", text, origin: "responses", source };
  const encrypted = item.encrypted_content;
  if (typeof encrypted === "string") {
    part.signature = encrypted;
    part.signatureSource = at(source, "encrypted_content");
  }
  const shell: ReasoningShell = {
    fields,
    use,
    lengths,
    other: use === "summary" ? item.content : item.summary,
    encryptedNull: encrypted === null,
  };
  part.extra = { origin: "responses", raw: { shell } };
  return { part, shell };
}

/** The shell kept on a reasoning part of responses origin, if any. */
export function shellOf(part: common.ReasoningPart): ReasoningShell | undefined {
  if (part.extra?.origin !== "responses") return undefined;
  return part.extra.raw.shell as ReasoningShell | undefined;
}

/** `text` cut back into the parts `lengths` describes, when it still fits them; else one part. */
export function splitText(text: string, lengths: readonly number[] | undefined): string[] {
  if (lengths !== undefined && lengths.length > 0) {
    const parts: string[] = [];
    let start = 0;
    for (let index = 0; index < lengths.length; index++) {
      if (index > 0) {
        if (!text.startsWith(PART_BREAK, start)) return [text];
        start += PART_BREAK.length;
      }
      const end = start + (lengths[index] as number);
      parts.push(text.slice(start, end));
      start = end;
    }
    if (start === text.length) return parts;
  }
  return text === "" ? [] : [text];
}

/**
 * A reasoning part → a reasoning item. Its own shell (or the response's layout shell) restores the item
 * as it came. Another protocol's reasoning becomes one summary part under `id`: toward a client
 * (`carry`), its state rides in `encrypted_content` (carrier.ts); toward a responses service its
 * signature and redacted data are dropped (valid only where they were issued). An item of responses
 * origin without a shell (one that came home through a carrier) goes to a service without an id.
 */
export function encodeReasoningItem(
  part: common.ReasoningPart,
  shell: ReasoningShell | undefined,
  id: string,
  losses: Loss[],
  where: string,
  carry: boolean,
): Raw {
  if (part.origin !== "responses") {
    if (carry) {
      const entry = reasoningEntry(part, true, true) as CarriedEntry;
      const item = carrierItem(
        part.origin,
        [entry],
        part.text,
        id,
        part.signatureSource ?? part.source,
        losses,
      );
      if (item !== undefined) return item;
    } else {
      if (part.signature !== undefined)
        losses.push(
          loss(
            part.signatureSource ?? part.source,
            "dropped",
            "A reasoning signature is valid only at the provider that issued it and was dropped.",
          ),
        );
      if (part.redacted !== undefined)
        losses.push(
          loss(
            part.source,
            "dropped",
            `Redacted reasoning of another protocol has no place in ${where} and was dropped.`,
          ),
        );
    }
    return {
      id,
      type: "reasoning",
      summary: part.text === "" ? [] : [{ type: "summary_text", text: part.text }],
    };
  }
  if (shell === undefined) {
    // Toward a service, an id it never issued would be looked up; the encrypted content is the item.
    const item: Raw = carry ? { id, type: "reasoning" } : { type: "reasoning" };
    item.summary = part.text === "" ? [] : [{ type: "summary_text", text: part.text }];
    if (part.signature !== undefined) item.encrypted_content = part.signature;
    return item;
  }
  const texts = splitText(part.text, shell.lengths);
  const item: Raw = { ...shell.fields };
  if (item.id === undefined) item.id = id;
  item.type = "reasoning";
  if (shell.use === "summary") {
    item.summary = texts.map((text) => ({ type: "summary_text", text }));
    if (shell.other !== undefined) item.content = shell.other;
  } else {
    item.summary = shell.other ?? [];
    item.content = texts.map((text) => ({ type: "reasoning_text", text }));
  }
  if (part.signature !== undefined) item.encrypted_content = part.signature;
  else if (shell.encryptedNull) item.encrypted_content = null;
  return item;
}
