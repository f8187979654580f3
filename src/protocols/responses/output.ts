/**
 * Output items of a response, shared by the response encoder and the stream encoder: the layout a
 * decoded responses answer keeps (each item's envelope — ids, statuses, how its text was split —
 * without the content the common parts carry), and the items built from common parts with it, or with
 * ids derived from the response id where another protocol gave none.
 */
import { parseJsonObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import { type Raw, without } from "./fields";
import type { ReasoningShell } from "./reasoning";

/** A content part of a message item without what the common part carries (its text, its annotations). */
export type PartShell = { readonly fields: Raw; readonly annotations: boolean; readonly opaque?: boolean };

/** A message item without its content, and the shells of its content parts in order. */
export type MessageShell = { readonly fields: Raw; readonly content: readonly PartShell[] };

/**
 * Everything about a responses answer the common parts do not hold, kept in `Choice.extra` so that
 * responses itself restores the answer exactly: the final status fields as given, the envelopes of its
 * items by kind (in output order), and (from a stream) the final event's other top-level fields.
 */
export type Layout = {
  readonly status?: unknown;
  readonly incomplete_details?: unknown;
  readonly error?: unknown;
  readonly top?: Raw | undefined;
  /** The answer had no `usage` field at all (OpenAI always sends one, `null` until known). */
  readonly noUsage?: boolean | undefined;
  readonly messages: readonly MessageShell[];
  readonly reasoning: readonly ReasoningShell[];
  readonly calls: readonly Raw[];
};

export const EMPTY_LAYOUT: Layout = { messages: [], reasoning: [], calls: [] };

/** The layout kept on a choice (or a finish part) of responses origin, if any. */
export function layoutOf(extra: common.Extra | undefined): Layout | undefined {
  return extra?.origin === "responses" ? (extra.raw.layout as Layout | undefined) : undefined;
}

/** Fields of a function or custom call item that the common tool-call part holds. */
const CALL_CONTENT = ["call_id", "name", "arguments", "input", "namespace"];

/** The layout of an output list: each item's envelope, by kind. */
export function layoutOfOutput(output: readonly unknown[], terminal: Raw): Layout {
  const messages: MessageShell[] = [];
  const reasoning: ReasoningShell[] = [];
  const calls: Raw[] = [];
  for (const value of output) {
    const item = value as Raw;
    if (item.type === "message") {
      const content = Array.isArray(item.content) ? (item.content as Raw[]) : [];
      messages.push({ fields: without(item, ["content"]), content: content.map(partShell) });
    } else if (item.type === "reasoning") reasoning.push(reasoningShell(item));
    else if (
      item.type === "function_call" ||
      item.type === "custom_tool_call" ||
      (item.type === "tool_search_call" && item.execution === "client")
    )
      calls.push(without(item, CALL_CONTENT));
  }
  const layout: common.Draft<Layout> = { messages, reasoning, calls };
  if (terminal.status !== undefined) layout.status = terminal.status;
  if (terminal.incomplete_details !== undefined) layout.incomplete_details = terminal.incomplete_details;
  if (terminal.error !== undefined) layout.error = terminal.error;
  if (!("usage" in terminal)) layout.noUsage = true;
  return layout;
}

/** The shell of one content part of a message item. */
export function partShell(part: Raw): PartShell {
  if (part.type !== "output_text" && part.type !== "refusal")
    return { fields: part, annotations: false, opaque: true };
  return { fields: without(part, ["text", "refusal", "annotations"]), annotations: "annotations" in part };
}

/** The shell of a reasoning item as `decodeReasoningItem` makes it, from the item alone. */
function reasoningShell(item: Raw): ReasoningShell {
  const summary = Array.isArray(item.summary) ? (item.summary as Raw[]) : [];
  const content = Array.isArray(item.content) ? (item.content as Raw[]) : [];
  const use = summary.length > 0 || content.length === 0 ? "summary" : "content";
  const texts = (use === "summary" ? summary : content.filter((part) => part.type === "reasoning_text")).map(
    (part) => String(part.text ?? ""),
  );
  return {
    fields: without(item, ["type", "summary", "content", "encrypted_content"]),
    use,
    lengths: texts.map((text) => text.length),
    other: use === "summary" ? item.content : item.summary,
    encryptedNull: item.encrypted_content === null,
  };
}

/** A derived item id: `msg_`, `rs_`, `fc_` … then the response id and the item's place in the output. */
export function itemId(
  options: ResolvedOptions,
  kind: string,
  responseId: string,
  outputIndex: number,
): string {
  return `${kind}_${syntheticId(options, responseId, outputIndex)}`;
}

/** A message item as `response.output_item.added` announces it: its envelope with no content yet. */
export function openMessage(shell: MessageShell | undefined, id: string): Raw {
  if (shell === undefined)
    return { id, type: "message", status: "in_progress", content: [], role: "assistant" };
  const fields = shell.fields;
  const item: Raw = { ...fields, content: [] };
  if (item.id === undefined) item.id = id;
  if (fields.status !== undefined) item.status = "in_progress";
  return item;
}

/** The finished message item: its envelope (status as the layout had it, else `completed`) and its content. */
export function closeMessage(shell: MessageShell | undefined, id: string, content: readonly unknown[]): Raw {
  if (shell === undefined) return { id, type: "message", status: "completed", content, role: "assistant" };
  const item: Raw = { ...shell.fields, content };
  if (item.id === undefined) item.id = id;
  return item;
}

/** An `output_text` part with no text yet (`content_part.added`), or with `text`. */
export function textContent(
  shell: PartShell | undefined,
  text: string,
  annotations: readonly unknown[],
): Raw {
  if (shell === undefined) return { type: "output_text", annotations, logprobs: [], text };
  const part: Raw = { ...shell.fields };
  if (shell.annotations || annotations.length > 0) part.annotations = annotations;
  part.text = text;
  return part;
}

export function refusalContent(shell: PartShell | undefined, text: string): Raw {
  return shell === undefined ? { type: "refusal", refusal: text } : { ...shell.fields, refusal: text };
}

/** The annotations a text part's citations give a responses answer; another protocol's are dropped. */
export function annotationsOf(
  citations: common.TextPart["citations"],
  source: string,
  losses: Loss[],
): readonly unknown[] {
  if (citations === undefined) return [];
  if (citations.origin === "responses") return citations.items;
  losses.push(
    loss(
      citations.source ?? source,
      "dropped",
      `Citations from the ${citations.origin} protocol have no responses form and were dropped.`,
      "citations.dropped",
    ),
  );
  return [];
}

/**
 * A function (or custom, free-form) call item: the layout's or the part's own envelope, else a derived
 * item id; a call without an id gets a derived `call_id` (a synthesized value).
 */
export function callItem(
  part: {
    id?: string | undefined;
    name: string;
    freeform?: boolean | undefined;
    namespace?: string | undefined;
    search?: boolean | undefined;
    extra?: common.Extra | undefined;
    source: string;
  },
  shell: Raw | undefined,
  argumentsText: string,
  ids: { item: string; call: string },
  losses: Loss[],
): Raw {
  const own = shell ?? (part.extra?.origin === "responses" ? part.extra.raw : undefined);
  if (part.search === true || own?.type === "tool_search_call")
    return searchItem(part, own, argumentsText, ids, losses);
  const custom = part.freeform === true || own?.type === "custom_tool_call";
  if (part.id === undefined)
    losses.push(
      loss(at(part.source, "id"), "synthesized", "The tool call had no id; a deterministic one was made up."),
    );
  const item: Raw = own === undefined ? { id: ids.item } : { ...own };
  if (item.id === undefined) item.id = ids.item;
  item.type = custom ? "custom_tool_call" : "function_call";
  if (own === undefined) item.status = "completed";
  item.call_id = part.id ?? ids.call;
  item.name = part.name;
  if (custom) item.input = argumentsText;
  else item.arguments = argumentsText;
  if (part.namespace !== undefined) item.namespace = part.namespace;
  return item;
}

/** A call of the client's tool search: a client-executed `tool_search_call` item, its arguments an object. */
function searchItem(
  part: { id?: string | undefined; source: string },
  own: Raw | undefined,
  argumentsText: string,
  ids: { item: string; call: string },
  losses: Loss[],
): Raw {
  if (part.id === undefined)
    losses.push(
      loss(at(part.source, "id"), "synthesized", "The tool call had no id; a deterministic one was made up."),
    );
  const item: Raw = own === undefined ? { id: ids.item } : { ...own };
  if (item.id === undefined) item.id = ids.item;
  item.type = "tool_search_call";
  if (own === undefined) item.status = "completed";
  item.call_id = part.id ?? ids.call;
  item.execution = "client";
  item.arguments = argumentsText.trim() === "" ? {} : (parseJsonObject(argumentsText) ?? {});
  return item;
}
