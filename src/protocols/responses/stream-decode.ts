/**
 * responses stream events → common stream parts (a pure reducer). Output items are followed by
 * `output_index` (item ids may change between `added` and `done`, recorded): each content part of a
 * message, each reasoning item, each call and each other item is one block, numbered in order of
 * appearance. Text that arrives only in a `.done` event (no deltas, recorded) is passed on there. The
 * final event's output gives the layout that lets responses restore its own answer.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */

import { rebaseError } from "../../common/error-kind";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import type { StreamReducer } from "../../common/reducer";
import { cutOff, eventPointer } from "../../common/stream-end";
import { decodeResponsesError, errorObjectOf, responseErrorOf } from "./error";
import { isBlank, type Raw, rest } from "./fields";
import { decodeResponsesStatus, rawStatus } from "./finish-reason";
import { layoutOfOutput } from "./output";
import { PART_BREAK } from "./reasoning";
import { decodeOutputItem, ECHOED, RESPONSE_HELD } from "./response";
import { DONE, type OutputItem, type StreamEvent, type Usage } from "./schema";
import { decodeResponsesUsage } from "./usage";

/** A content part of an open message: its block, and whether any of its text has been passed on. */
type PartState = {
  readonly at: number;
  readonly index: number;
  readonly kind: "text" | "refusal" | "opaque";
  readonly emitted: boolean;
  readonly annotations: readonly unknown[];
  readonly ended: boolean;
};

type ItemState =
  | { readonly kind: "message"; readonly parts: readonly PartState[] }
  | {
      readonly kind: "reasoning";
      readonly index: number;
      /** Which list the text comes from (the first to stream wins), the parts begun, whether the latest has text. */
      readonly use: "summary" | "content" | undefined;
      readonly begun: number;
      readonly emitted: boolean;
      readonly encrypted: string | undefined;
    }
  | { readonly kind: "call"; readonly index: number; readonly args: boolean }
  /** A client-executed tool search call: announced whole at its `done` (its call id may change until then). */
  | { readonly kind: "search" }
  | { readonly kind: "other"; readonly index: number };

type OpenItem = { readonly at: number; readonly state: ItemState };

export type ResponsesDecodeState = {
  /** `sequence_number` less the event's position, from the first event (a resumed stream starts late). */
  readonly offset: number | undefined;
  /** The id, model and creation time the stream announced: the closing events of a cut-off pass-through. */
  readonly envelope:
    | { readonly id: unknown; readonly model: unknown; readonly created_at: unknown }
    | undefined;
  readonly next: number;
  readonly items: readonly OpenItem[];
  readonly started: boolean;
  readonly calls: number;
  /** Output items the stream has announced: one past the largest `output_index` of its events. */
  readonly seen: number;
  /** Token logprobs were reported as dropped: once per stream, at the first event carrying them, as chat's are. */
  readonly logprobs: boolean;
  /** `finished`: a completed or incomplete response arrived; `failed`: an error or a failed response. */
  readonly ended: "no" | "finished" | "failed";
};

type Work = common.Draft<ResponsesDecodeState>;

function copy(state: ResponsesDecodeState): Work {
  return {
    offset: state.offset,
    envelope: state.envelope,
    next: state.next,
    items: state.items,
    started: state.started,
    calls: state.calls,
    seen: state.seen,
    logprobs: state.logprobs,
    ended: state.ended,
  };
}

type Ev = Raw & { type: string };

function itemAt(state: ResponsesDecodeState, at: unknown): ItemState | undefined {
  const items = state.items;
  for (let index = 0; index < items.length; index++) {
    const entry = items[index] as OpenItem;
    if (entry.at === at) return entry.state;
  }
  return undefined;
}

function setItem(work: Work, at: number, state: ItemState | undefined): void {
  const items: OpenItem[] = [];
  for (const entry of work.items) if (entry.at !== at) items.push(entry);
  if (state !== undefined) items.push({ at, state });
  work.items = items;
}

function partAt(item: ItemState | undefined, at: unknown): PartState | undefined {
  if (item?.kind !== "message") return undefined;
  const parts = item.parts;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as PartState;
    if (part.at === at) return part;
  }
  return undefined;
}

function setPart(work: Work, at: number, part: PartState): void {
  const item = itemAt(work, at);
  if (item?.kind !== "message") return;
  const parts = item.parts.filter((entry) => entry.at !== part.at);
  parts.push(part);
  setItem(work, at, { kind: "message", parts });
}

const num = (value: unknown): number => (typeof value === "number" ? value : 0);

/** No token logprobs: anything but a non-empty list (the API sends `[]` unless asked for them). */
const noLogprobs = (value: unknown): boolean => !Array.isArray(value) || value.length === 0;

/** Token logprobs (`value`, at `path` in the event) are dropped: reported for the stream's first only. */
function dropLogprobs(work: Work, value: unknown, path: string, losses: Loss[]): void {
  if (work.logprobs || noLogprobs(value)) return;
  work.logprobs = true;
  losses.push(loss(path, "dropped", "Token logprobs have no common equivalent and were dropped."));
}

function start(
  work: Work,
  response: Raw,
  out: common.StreamPart[],
  losses: Loss[],
  position: number | undefined,
): void {
  if (work.started) return;
  work.started = true;
  work.envelope = { id: response.id, model: response.model, created_at: response.created_at };
  const top = rest(response, RESPONSE_HELD);
  if (top !== undefined)
    for (const key in top)
      if (!ECHOED.has(key) && !isBlank(top[key]))
        losses.push(
          loss(
            `/response/${key}`,
            "dropped",
            `\`${key}\` of the response has no equivalent in the target and was dropped.`,
          ),
        );
  const part: common.Draft<Extract<common.StreamPart, { type: "response-start" }>> = {
    type: "response-start",
    id: String(response.id),
    model: String(response.model),
    created: num(response.created_at),
    createdSource: `${eventPointer(position)}/response/created_at`,
  };
  // Always marked as responses' own, so that responses restores its own answer as it came (echo.ts).
  part.extra = { origin: "responses", raw: top ?? {} };
  out.push(part);
}

/** A new block's index. */
function block(work: Work): number {
  const index = work.next;
  work.next = index + 1;
  return index;
}

function textOf(part: Raw): string {
  const text = part.type === "refusal" ? part.refusal : part.text;
  return typeof text === "string" ? text : "";
}

/** Opens a content part of the message at `at`. */
function openPart(
  work: Work,
  at: number,
  contentIndex: number,
  part: Raw,
  out: common.StreamPart[],
): PartState {
  const index = block(work);
  const kind = part.type === "output_text" ? "text" : part.type === "refusal" ? "refusal" : "opaque";
  if (kind === "text") out.push({ type: "text-start", index });
  let emitted = false;
  const text = textOf(part);
  if (text !== "" && kind !== "opaque") {
    out.push(kind === "text" ? { type: "text-delta", index, text } : { type: "refusal-delta", index, text });
    emitted = true;
  }
  const state: PartState = { at: contentIndex, index, kind, emitted, annotations: [], ended: false };
  if (itemAt(work, at) === undefined) setItem(work, at, { kind: "message", parts: [] });
  setPart(work, at, state);
  return state;
}

/** Ends a content part; `done` is its final form, whose text passes on when no delta carried any. */
function endPart(
  work: Work,
  at: number,
  part: PartState,
  done: Raw | undefined,
  out: common.StreamPart[],
): void {
  if (part.ended) return;
  const text = done === undefined ? "" : textOf(done);
  if (!part.emitted && text !== "") {
    if (part.kind === "text") out.push({ type: "text-delta", index: part.index, text });
    else if (part.kind === "refusal") out.push({ type: "refusal-delta", index: part.index, text });
  }
  if (part.kind === "text") {
    const annotations =
      part.annotations.length > 0
        ? part.annotations
        : Array.isArray(done?.annotations)
          ? done.annotations
          : [];
    out.push(
      annotations.length === 0
        ? { type: "text-end", index: part.index }
        : { type: "text-end", index: part.index, citations: { origin: "responses", items: annotations } },
    );
  } else if (part.kind === "opaque" && done !== undefined) {
    out.push({
      type: "opaque",
      index: part.index,
      part: {
        type: "opaque",
        origin: "responses",
        raw: done,
        label: `${String(done.type)} part`,
        source: "",
      },
    });
  }
  setPart(work, at, { ...part, ended: true });
}

/** Starts the reasoning parts up to `target` of list `use` (a blank line between parts). */
function reasoningPart(
  work: Work,
  at: number,
  use: "summary" | "content",
  target: number,
  out: common.StreamPart[],
): (ItemState & { kind: "reasoning" }) | undefined {
  const item = itemAt(work, at);
  if (item?.kind !== "reasoning") return undefined;
  if (item.use !== undefined && item.use !== use) return undefined;
  if (target < item.begun) return item;
  for (let next = item.begun; next <= target; next++)
    if (next > 0) out.push({ type: "reasoning-delta", index: item.index, text: PART_BREAK });
  const grown = { ...item, use, begun: target + 1, emitted: false };
  setItem(work, at, grown);
  return grown;
}

function reasoningText(
  work: Work,
  at: number,
  use: "summary" | "content",
  part: number,
  text: string,
  done: boolean,
  out: common.StreamPart[],
): void {
  const item = reasoningPart(work, at, use, part, out);
  if (item === undefined || text === "" || (done && item.emitted)) return;
  out.push({ type: "reasoning-delta", index: item.index, text });
  if (!item.emitted) setItem(work, at, { ...item, emitted: true });
}

function itemAdded(work: Work, at: number, item: Raw, out: common.StreamPart[]): void {
  switch (item.type) {
    case "message":
      setItem(work, at, { kind: "message", parts: [] });
      return;
    case "reasoning": {
      const index = block(work);
      out.push({ type: "reasoning-start", index, origin: "responses" });
      const encrypted = typeof item.encrypted_content === "string" ? item.encrypted_content : undefined;
      setItem(work, at, { kind: "reasoning", index, use: undefined, begun: 0, emitted: false, encrypted });
      return;
    }
    case "function_call":
    case "custom_tool_call": {
      const index = block(work);
      const custom = item.type === "custom_tool_call";
      const start: common.Draft<Extract<common.StreamPart, { type: "tool-call-start" }>> = {
        type: "tool-call-start",
        index,
        id: String(item.call_id),
        name: String(item.name),
      };
      // A free-form call's deltas are its text (another protocol gets `{"input": …}`: common/tool-forms.ts).
      if (custom) start.freeform = true;
      if (typeof item.namespace === "string") start.namespace = item.namespace;
      out.push(start);
      const text = custom ? item.input : item.arguments;
      const args = typeof text === "string" && text !== "";
      if (args) out.push({ type: "tool-call-delta", index, argumentsText: text });
      work.calls += 1;
      setItem(work, at, { kind: "call", index, args });
      return;
    }
    case "tool_search_call":
      if (item.execution === "client") {
        setItem(work, at, { kind: "search" });
        return;
      }
      setItem(work, at, { kind: "other", index: block(work) });
      return;
    default:
      setItem(work, at, { kind: "other", index: block(work) });
  }
}

/** The text a reasoning item holds, as `decodeReasoningItem` reads it. */
function reasoningItemText(item: Raw): string {
  const summary = Array.isArray(item.summary) ? (item.summary as Raw[]) : [];
  const content = Array.isArray(item.content) ? (item.content as Raw[]) : [];
  const parts =
    summary.length > 0 || content.length === 0
      ? summary
      : content.filter((part) => part.type === "reasoning_text");
  return parts.map((part) => String(part.text ?? "")).join(PART_BREAK);
}

function itemDone(work: Work, at: number, item: Raw, out: common.StreamPart[]): void {
  let state = itemAt(work, at);
  if (state === undefined) {
    itemAdded(work, at, { ...item, arguments: "", input: "" }, out);
    state = itemAt(work, at);
  }
  switch (state?.kind) {
    case "message": {
      const content = Array.isArray(item.content) ? (item.content as Raw[]) : [];
      content.forEach((part, contentIndex) => {
        const open = partAt(itemAt(work, at), contentIndex) ?? openPart(work, at, contentIndex, part, out);
        endPart(work, at, open, part, out);
      });
      for (const left of (itemAt(work, at) as { parts: readonly PartState[] } | undefined)?.parts ?? [])
        endPart(work, at, left, undefined, out);
      break;
    }
    case "reasoning": {
      if (state.begun === 0) {
        const text = reasoningItemText(item);
        if (text !== "") out.push({ type: "reasoning-delta", index: state.index, text });
      }
      const signature = typeof item.encrypted_content === "string" ? item.encrypted_content : state.encrypted;
      if (signature !== undefined) out.push({ type: "reasoning-signature", index: state.index, signature });
      out.push({ type: "reasoning-end", index: state.index });
      break;
    }
    case "search": {
      const index = block(work);
      const start: common.Draft<Extract<common.StreamPart, { type: "tool-call-start" }>> = {
        type: "tool-call-start",
        index,
        name: "tool_search",
        search: true,
      };
      if (typeof item.call_id === "string") start.id = item.call_id;
      out.push(start);
      out.push({ type: "tool-call-delta", index, argumentsText: JSON.stringify(item.arguments ?? {}) });
      out.push({ type: "tool-call-end", index });
      work.calls += 1;
      break;
    }
    case "call": {
      const text = item.type === "custom_tool_call" ? item.input : item.arguments;
      if (!state.args && typeof text === "string" && text !== "")
        out.push({ type: "tool-call-delta", index: state.index, argumentsText: text });
      out.push({ type: "tool-call-end", index: state.index });
      break;
    }
    case "other":
      out.push({
        type: "opaque",
        index: state.index,
        part: {
          type: "opaque",
          origin: "responses",
          raw: item,
          label: `${String(item.type)} item`,
          source: "",
        },
      });
      break;
  }
  setItem(work, at, undefined);
}

/**
 * The losses the whole response reports for an item's fields (unknown fields, reasoning parts joined or
 * dropped …), from its final form in `output_item.done`, pointing into that event; of a reasoning
 * item's lists, the one the stream did not send; token logprobs only when the stream has reported
 * none yet. Only for an item of the shape its schema gives (an
 * unvalidated stream may send anything).
 */
function itemLosses(work: Work, at: number, item: Raw, source: string, losses: Loss[]): void {
  const content = item.content;
  const shaped =
    item.type === "message"
      ? Array.isArray(content)
      : item.type === "reasoning"
        ? Array.isArray(item.summary)
        : item.type === "function_call"
          ? typeof item.arguments === "string"
          : item.type === "custom_tool_call" && typeof item.input === "string";
  if (!shaped) return;
  const logprobs = !work.logprobs;
  const state = itemAt(work, at);
  const streamed = state?.kind === "reasoning" ? state.use : undefined;
  decodeOutputItem(item as OutputItem, source, [], losses, logprobs, streamed);
  if (logprobs && Array.isArray(content))
    for (const part of content as Raw[])
      if (part.type === "output_text" && !noLogprobs(part.logprobs)) work.logprobs = true;
}

/** The opaque parts made from `out[from]` on that point nowhere yet point at `source`. */
function pointOpaque(out: common.StreamPart[], from: number, source: string): void {
  for (let index = from; index < out.length; index++) {
    const part = out[index] as common.StreamPart;
    if (part.type === "opaque" && part.part.source === "")
      out[index] = { ...part, part: { ...part.part, source } };
  }
}

/** Ends every open item (a final event or the input's end came before their `done`). */
function closeAll(work: Work, out: common.StreamPart[]): void {
  const items = [...work.items].sort((left, right) => left.at - right.at);
  for (const entry of items) {
    const state = entry.state;
    if (state.kind === "message")
      for (const part of state.parts) endPart(work, entry.at, part, undefined, out);
    else if (state.kind === "reasoning") out.push({ type: "reasoning-end", index: state.index });
    else if (state.kind === "call") out.push({ type: "tool-call-end", index: state.index });
  }
  work.items = [];
}

function terminal(
  work: Work,
  event: Ev,
  out: common.StreamPart[],
  losses: Loss[],
  position: number | undefined,
): void {
  const response = (event.response ?? {}) as Raw;
  start(work, response, out, losses, position);
  closeAll(work, out);
  // Items the stream never announced (a stream of its final event alone): their final form is here.
  const items = Array.isArray(response.output) ? (response.output as unknown[]) : [];
  for (let at = work.seen; at < items.length; at++) {
    const item = items[at];
    if (typeof item !== "object" || item === null) continue;
    const source = `/response/output/${at}`;
    itemLosses(work, at, item as Raw, source, losses);
    const made = out.length;
    itemDone(work, at, item as Raw, out);
    pointOpaque(out, made, `${eventPointer(position)}${source}`);
  }
  work.seen = Math.max(work.seen, items.length);
  if (event.type === "response.failed") {
    if (work.ended !== "failed")
      out.push({
        type: "error",
        error: decodeResponsesError({
          status: 200,
          body: { error: response.error ?? { message: "The response failed." } },
        }),
      });
    work.ended = "failed";
    return;
  }
  if (response.usage != null)
    out.push({
      type: "usage",
      usage: decodeResponsesUsage(response.usage as Usage, "/response/usage", losses),
    });
  const status = typeof response.status === "string" ? response.status : undefined;
  const reason = (response.incomplete_details as { reason?: unknown } | null | undefined)?.reason;
  const incomplete = typeof reason === "string" ? reason : undefined;
  const decoded =
    decodeResponsesStatus(status, incomplete, work.calls > 0) ?? (work.calls > 0 ? "tool-calls" : "stop");
  const output = Array.isArray(response.output) ? response.output : [];
  const layout = layoutOfOutput(output, response);
  const top = rest(response, RESPONSE_HELD);
  out.push({
    type: "finish",
    reason: decoded,
    rawReason: rawStatus(status, incomplete),
    extra: { origin: "responses", raw: { layout: top === undefined ? layout : { ...layout, top } } },
  });
  work.ended = "finished";
}

function step(
  state: ResponsesDecodeState,
  input: StreamEvent,
  out: common.StreamPart[],
  losses: Loss[],
  position?: number,
): ResponsesDecodeState {
  if (input === DONE || state.ended !== "no") return state;
  const event = input as Ev;
  const type = event.type;
  if (state.offset === undefined) {
    const work = copy(state);
    work.offset = typeof event.sequence_number === "number" ? event.sequence_number - (position ?? 0) : 0;
    return step(work, input, out, losses, position);
  }
  // The most frequent event: text continuing its part. The state changes only for its first text, and
  // for the stream's first token logprobs (a loss).
  if (type === "response.output_text.delta" && (state.logprobs || noLogprobs(event.logprobs))) {
    const part = partAt(itemAt(state, event.output_index), event.content_index);
    const text = event.delta as string;
    if (part?.kind === "text" && part.emitted && !part.ended) {
      if (text !== "") out.push({ type: "text-delta", index: part.index, text });
      return state;
    }
  }
  const work = copy(state);
  const at = num(event.output_index);
  if (typeof event.output_index === "number" && event.output_index >= work.seen)
    work.seen = event.output_index + 1;
  const before = losses.length;
  const made = out.length;
  decodeEvent(work, event, type, at, out, losses, position);
  // An item or content part kept whole points into the event that carried it.
  if (out.length > made)
    pointOpaque(
      out,
      made,
      `${eventPointer(position)}/${type === "response.output_item.done" ? "item" : "part"}`,
    );
  // The losses of an event point into it.
  if (losses.length > before) {
    const base = eventPointer(position);
    for (let index = before; index < losses.length; index++) {
      const entry = losses[index] as Loss;
      losses[index] = { ...entry, path: base + entry.path };
    }
  }
  return work;
}

/** One event into `work`, by its type's handler; progress events of built-in tools say nothing here. */
function decodeEvent(
  work: Work,
  event: Ev,
  type: string,
  at: number,
  out: common.StreamPart[],
  losses: Loss[],
  position: number | undefined,
): void {
  switch (type) {
    case "response.created":
    case "response.queued":
    case "response.in_progress":
      start(work, (event.response ?? {}) as Raw, out, losses, position);
      break;
    case "response.output_item.added":
      itemAdded(work, at, event.item as Raw, out);
      break;
    case "response.output_item.done": {
      const item = event.item as Raw;
      itemLosses(work, at, item, "/item", losses);
      itemDone(work, at, item, out);
      break;
    }
    case "response.content_part.added":
    case "response.content_part.done":
      contentPartEvent(work, at, event, type.endsWith(".done"), out, losses);
      break;
    case "response.output_text.delta":
    case "response.refusal.delta":
    case "response.output_text.done":
    case "response.refusal.done":
      textEvent(work, at, event, type, out, losses);
      break;
    case "response.output_text.annotation.added":
      annotationAdded(work, at, event);
      break;
    case "response.function_call_arguments.delta":
    case "response.custom_tool_call_input.delta":
    case "response.function_call_arguments.done":
    case "response.custom_tool_call_input.done":
      callInputEvent(work, at, event, type, out);
      break;
    case "response.reasoning_summary_part.added":
      reasoningPart(work, at, "summary", num(event.summary_index), out);
      break;
    case "response.reasoning_summary_text.delta":
    case "response.reasoning_summary_text.done":
      reasoningTextEvent(work, at, event, "summary", num(event.summary_index), type.endsWith(".done"), out);
      break;
    case "response.reasoning_text.delta":
    case "response.reasoning_text.done":
      reasoningTextEvent(work, at, event, "content", num(event.content_index), type.endsWith(".done"), out);
      break;
    case "response.completed":
    case "response.incomplete":
    case "response.failed":
      terminal(work, event, out, losses, position);
      break;
    case "error":
      errorEvent(work, event, out, position);
      break;
    default:
    // Progress of built-in tools, audio, shell commands …: their items' `done` carries the result.
  }
}

/**
 * `content_part.added` / `.done`: a reasoning text part is reasoning text of its item; another part is
 * opened (at its `added`, or at its `done` when none came) and ended at its `done`. Logprobs are dropped.
 */
function contentPartEvent(
  work: Work,
  at: number,
  event: Ev,
  done: boolean,
  out: common.StreamPart[],
  losses: Loss[],
): void {
  const part = event.part as Raw;
  const contentIndex = num(event.content_index);
  if (part.type === "output_text") dropLogprobs(work, part.logprobs, "/part/logprobs", losses);
  if (part.type === "reasoning_text") {
    reasoningText(work, at, "content", contentIndex, textOf(part), done, out);
    return;
  }
  if (!done) {
    if (partAt(itemAt(work, at), contentIndex) === undefined) openPart(work, at, contentIndex, part, out);
    return;
  }
  const open = partAt(itemAt(work, at), contentIndex) ?? openPart(work, at, contentIndex, part, out);
  endPart(work, at, open, part, out);
}

/**
 * `output_text` / `refusal` `.delta` and `.done`: a text or refusal delta of its part (opened when no
 * `content_part.added` came); a `done` adds only what no delta said. Logprobs are dropped.
 */
function textEvent(
  work: Work,
  at: number,
  event: Ev,
  type: string,
  out: common.StreamPart[],
  losses: Loss[],
): void {
  const contentIndex = num(event.content_index);
  const refusal = type.startsWith("response.refusal");
  const done = type.endsWith(".done");
  const text = String((done ? (refusal ? event.refusal : event.text) : event.delta) ?? "");
  if (!refusal) dropLogprobs(work, event.logprobs, "/logprobs", losses);
  const part =
    partAt(itemAt(work, at), contentIndex) ??
    openPart(work, at, contentIndex, { type: refusal ? "refusal" : "output_text", text: "" }, out);
  if (text === "" || (done && part.emitted) || part.kind === "opaque" || part.ended) return;
  out.push(
    part.kind === "text"
      ? { type: "text-delta", index: part.index, text }
      : { type: "refusal-delta", index: part.index, text },
  );
  if (!part.emitted) setPart(work, at, { ...part, emitted: true });
}

/** `output_text.annotation.added`: the annotation kept with its part, for the part's end. */
function annotationAdded(work: Work, at: number, event: Ev): void {
  const part = partAt(itemAt(work, at), num(event.content_index));
  if (part !== undefined)
    setPart(work, at, { ...part, annotations: [...part.annotations, event.annotation] });
}

/**
 * `function_call_arguments` / `custom_tool_call_input` `.delta` and `.done`: an arguments delta of
 * its call; a `done` adds only what no delta said.
 */
function callInputEvent(work: Work, at: number, event: Ev, type: string, out: common.StreamPart[]): void {
  const item = itemAt(work, at);
  if (item?.kind !== "call") return;
  const done = type.endsWith(".done");
  const text = done ? (type.startsWith("response.custom") ? event.input : event.arguments) : event.delta;
  if (typeof text !== "string" || text === "" || (done && item.args)) return;
  out.push({ type: "tool-call-delta", index: item.index, argumentsText: text });
  if (!item.args) setItem(work, at, { ...item, args: true });
}

/** `reasoning_summary_text` / `reasoning_text` `.delta` and `.done`: reasoning text of its item's summary or content. */
function reasoningTextEvent(
  work: Work,
  at: number,
  event: Ev,
  use: "summary" | "content",
  index: number,
  done: boolean,
  out: common.StreamPart[],
): void {
  reasoningText(work, at, use, index, String((done ? event.text : event.delta) ?? ""), done, out);
}

/** `error`: the stream's error, and its end. */
function errorEvent(work: Work, event: Ev, out: common.StreamPart[], position: number | undefined): void {
  // The event's own fields (`type`, `sequence_number`) are the stream's, not the error's.
  out.push({
    type: "error",
    error: rebaseError(decodeResponsesError({ status: 200, body: event }), eventPointer(position)),
  });
  work.ended = "failed";
}

/** The responses stream decoder: events → common stream parts. */
export function responsesStreamDecoder(
  _options: ResolvedOptions,
): StreamReducer<ResponsesDecodeState, StreamEvent, common.StreamPart> {
  return {
    initial: {
      offset: undefined,
      envelope: undefined,
      next: 0,
      items: [],
      started: false,
      calls: 0,
      seen: 0,
      logprobs: false,
      ended: "no",
    },
    step,
    end(state, out, losses, position, failure) {
      const work = copy(state);
      // A responses stream ends with response.completed / incomplete / failed or an error event;
      // anything else was cut off, and an item the input never closed stays open.
      if (state.ended === "no") cutOff("responses", out, losses, position, failure);
      else closeAll(work, out);
      work.ended = state.ended === "no" ? "failed" : state.ended;
      return work;
    },
  };
}

/**
 * The same protocol on both sides: the events that end a passed-through stream with `error`, after the
 * `events` it passed on — an `error` event and `response.failed`, numbered after the input's own, for
 * the response the input announced (its items were sent already; the failed response lists none).
 */
export function responsesPassThroughError(
  error: common.ErrorInfo,
  state: ResponsesDecodeState,
  events: number,
): StreamEvent[] | undefined {
  // Nothing passed through yet: the stream is the encoder's own, from its first event.
  if (state.offset === undefined) return undefined;
  const sequence = events + state.offset;
  const object = errorObjectOf(error);
  const envelope = state.envelope;
  return [
    {
      type: "error",
      sequence_number: sequence,
      code: object.code,
      message: object.message,
      param: object.param,
      error: object,
    },
    {
      type: "response.failed",
      sequence_number: sequence + 1,
      response: {
        id: envelope?.id ?? "",
        object: "response",
        created_at: envelope?.created_at ?? 0,
        status: "failed",
        error: responseErrorOf(error),
        incomplete_details: null,
        model: envelope?.model ?? "",
        output: [],
        usage: null,
      },
    },
  ] as StreamEvent[];
}
