/**
 * messages stream events → common stream parts (a pure reducer). Blocks are renumbered 0, 1, 2… in order
 * of appearance; server-tool and unknown blocks are gathered whole and emitted as opaque parts.
 */
import { rebaseError } from "../../common/error-kind";
import { isObject, parseJsonObject } from "../../common/json";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import type { StreamReducer } from "../../common/reducer";
import { cutOff, eventPointer } from "../../common/stream-end";
import { decodeMessagesError } from "./error";
import { decodeMessagesStopReason } from "./finish-reason";
import type {
  ContentBlock,
  ContentBlockDeltaEvent,
  ContentBlockStartEvent,
  DeltaUsage,
  MessageDeltaEvent,
  MessageStartEvent,
  StreamEvent,
  Usage,
} from "./schema";
import { decodeMessagesUsage } from "./usage";

type Open =
  | { readonly kind: "text"; readonly index: number; readonly citations: readonly unknown[] }
  | { readonly kind: "reasoning"; readonly index: number }
  /** `args`: some argument text has been passed on (an empty input means `{}`). */
  | { readonly kind: "tool"; readonly index: number; readonly args: boolean }
  | {
      readonly kind: "opaque";
      readonly index: number;
      readonly block: Readonly<Record<string, unknown>>;
      readonly json: string;
      /** Where the block started in the input. */
      readonly source: string;
    };

/** An open block under its messages index, kept as an object key would be (`String(index)`). */
/** `at`: the `index` the key was made from, which a later event's `index` matches without a string. */
type OpenEntry = { readonly key: string; readonly at: unknown; readonly open: Open };

export type MessagesDecodeState = {
  readonly next: number;
  /** Open blocks by their messages index. */
  readonly open: readonly OpenEntry[];
  /** `message_start` usage, merged with each `message_delta` usage. */
  readonly usage: Readonly<Record<string, unknown>> | undefined;
  /**
   * The finish the stream announced (a `message_delta` stop reason, or one already in `message_start`),
   * emitted when `message_stop` confirms it: a stream cut off before that ends with an error instead.
   */
  readonly finish: Extract<common.StreamPart, { type: "finish" }> | undefined;
  /** `message_stop` arrived: the stream ended normally. */
  readonly stopped: boolean;
  /** An `error` event arrived: the stream ended with it. */
  readonly failed: boolean;
};

/** The draft one step changes (reducer.ts). */
type Work = common.Draft<MessagesDecodeState>;

function copy(state: MessagesDecodeState): Work {
  return {
    next: state.next,
    open: state.open,
    usage: state.usage,
    finish: state.finish,
    stopped: state.stopped,
    failed: state.failed,
  };
}

const MESSAGE_FIELDS = ["id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"];

/**
 * The own fields of `value` whose keys are not `known` (in their order), or `undefined` when there are
 * none. A loop, not entries/filter/fromEntries (three arrays per call); a `__proto__` key takes
 * `Object.fromEntries`, which makes it an own field instead of touching the prototype.
 */
function others(value: object, known: readonly string[]): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || known.includes(key)) continue;
    if (key === "__proto__") return kept(value, (field) => !known.includes(field));
    out ??= {};
    out[key] = (value as Record<string, unknown>)[key];
  }
  return out;
}

/** `value`'s own fields that pass `keep`, as `Object.fromEntries` makes them (the rare path of `others`). */
function kept(value: object, keep: (key: string, field: unknown) => boolean): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key, field]) => keep(key, field)));
}

/** The fields of a usage delta that are not `null` (in their order). */
function given(usage: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in usage) {
    const field = (usage as Record<string, unknown>)[key];
    if (!Object.hasOwn(usage, key) || field === null) continue;
    if (key === "__proto__") return kept(usage, (_, each) => each !== null);
    out[key] = field;
  }
  return out;
}

function openAt(state: MessagesDecodeState, at: number): Open | undefined {
  const entries = state.open;
  // The same number is the same key (keys are unique): found without making the key string.
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as OpenEntry;
    if (typeof at === "number" && entry.at === at) return entry.open;
  }
  const key = String(at);
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as OpenEntry;
    if (entry.key === key) return entry.open;
  }
  return undefined;
}

/** Sets the block at `at` to `open` (or removes it when undefined): a new list, the earlier one untouched. */
function setOpen(work: Work, at: number, open: Open | undefined): void {
  const key = String(at);
  const entries: OpenEntry[] = [];
  for (const entry of work.open) if (entry.key !== key) entries.push(entry);
  if (open !== undefined) entries.push({ key, at, open });
  work.open = entries;
}

function toUsage(usage: Readonly<Record<string, unknown>>): common.Usage {
  return decodeMessagesUsage(usage as Usage, "/usage", undefined);
}

/** A block starts; `source` is its pointer in the input (`/3/content_block`). */
function startBlock(
  work: Work,
  at: number,
  block: ContentBlock,
  source: string,
  out: common.StreamPart[],
): void {
  const index = work.next;
  let open: Open;
  switch (block.type) {
    case "text": {
      const text = (block as { text: string }).text;
      out.push({ type: "text-start", index });
      if (text !== "") out.push({ type: "text-delta", index, text });
      open = { kind: "text", index, citations: [] };
      break;
    }
    case "thinking": {
      const { thinking, signature } = block as { thinking: string; signature: string };
      out.push({ type: "reasoning-start", index, origin: "messages" });
      if (thinking !== "") out.push({ type: "reasoning-delta", index, text: thinking });
      if (signature !== "")
        out.push({ type: "reasoning-signature", index, signature, source: `${source}/signature` });
      open = { kind: "reasoning", index };
      break;
    }
    case "redacted_thinking": {
      out.push({ type: "reasoning-start", index, origin: "messages" });
      const data = (block as { data: string }).data;
      out.push({ type: "reasoning-redacted", index, data, source: `${source}/data` });
      open = { kind: "reasoning", index };
      break;
    }
    case "tool_use": {
      const call = block as { id: string; name: string; input: unknown };
      const extra = others(block, ["type", "id", "name", "input"]);
      out.push({
        type: "tool-call-start",
        index,
        id: call.id,
        name: call.name,
        ...(extra === undefined ? {} : { extra: { origin: "messages" as const, raw: extra } }),
        source,
      });
      const args = isObject(call.input) && Object.keys(call.input).length > 0;
      if (args) out.push({ type: "tool-call-delta", index, argumentsText: JSON.stringify(call.input) });
      open = { kind: "tool", index, args };
      break;
    }
    default:
      open = { kind: "opaque", index, block, json: "", source };
  }
  setOpen(work, at, open);
  work.next = index + 1;
}

function stopBlock(work: Work, at: number, out: common.StreamPart[]): void {
  const open = openAt(work, at);
  if (open === undefined) return;
  // A tool call whose input never grew past "" takes no arguments: `{}`, so targets get valid JSON.
  if (open.kind === "tool" && !open.args)
    out.push({ type: "tool-call-delta", index: open.index, argumentsText: "{}" });
  out.push(endPart(open));
  setOpen(work, at, undefined);
}

function endPart(open: Open): common.StreamPart {
  switch (open.kind) {
    case "text":
      return open.citations.length === 0
        ? { type: "text-end", index: open.index }
        : { type: "text-end", index: open.index, citations: { origin: "messages", items: open.citations } };
    case "reasoning":
      return { type: "reasoning-end", index: open.index };
    case "tool":
      return { type: "tool-call-end", index: open.index };
    case "opaque": {
      const input = open.json === "" ? undefined : parseJsonObject(open.json);
      const raw = input === undefined ? open.block : { ...open.block, input };
      const type = String(open.block.type);
      return {
        type: "opaque",
        index: open.index,
        part: { type: "opaque", origin: "messages", raw, label: `${type} block`, source: open.source },
      };
    }
  }
}

/** `state` with the block at `at` set to `open`: one draft. */
function withOpen(state: MessagesDecodeState, at: number, open: Open): MessagesDecodeState {
  const work = copy(state);
  setOpen(work, at, open);
  return work;
}

/** A delta the inline fast path did not take: the state changes only where a block gathers input. */
function delta(
  state: MessagesDecodeState,
  event: ContentBlockDeltaEvent,
  out: common.StreamPart[],
  position: number | undefined,
): MessagesDecodeState {
  const open = openAt(state, event.index);
  if (open === undefined) return state;
  const change = event.delta;
  const index = open.index;
  switch (change.type) {
    case "text_delta": {
      const text = (change as { text: string }).text;
      if (open.kind === "text" && text !== "") out.push({ type: "text-delta", index, text });
      return state;
    }
    case "citations_delta":
      if (open.kind !== "text") return state;
      return withOpen(state, event.index, {
        ...open,
        citations: [...open.citations, (change as { citation: unknown }).citation],
      });
    case "thinking_delta": {
      const text = (change as { thinking: string }).thinking;
      if (open.kind === "reasoning" && text !== "") out.push({ type: "reasoning-delta", index, text });
      return state;
    }
    case "signature_delta": {
      const signature = (change as { signature: string }).signature;
      if (open.kind === "reasoning")
        out.push({
          type: "reasoning-signature",
          index,
          signature,
          source: `${eventPointer(position)}/delta/signature`,
        });
      return state;
    }
    case "input_json_delta": {
      const text = (change as { partial_json: string }).partial_json;
      if (open.kind === "tool") {
        if (text === "") return state;
        out.push({ type: "tool-call-delta", index, argumentsText: text });
        return open.args ? state : withOpen(state, event.index, { ...open, args: true });
      }
      if (open.kind === "opaque") {
        const grown: Open = {
          kind: "opaque",
          index: open.index,
          block: open.block,
          json: open.json + text,
          source: open.source,
        };
        return withOpen(state, event.index, grown);
      }
      return state;
    }
    default: {
      if (open.kind !== "opaque") return state;
      // An unknown delta (compaction_delta …): append its string fields to the block's fields of the same name.
      const merged: Record<string, unknown> = { ...open.block };
      for (const [key, value] of Object.entries(change)) {
        if (key === "type" || typeof value !== "string") continue;
        const before = merged[key];
        merged[key] = (typeof before === "string" ? before : "") + value;
      }
      return withOpen(state, event.index, { ...open, block: merged });
    }
  }
}

function messageStart(work: Work, event: MessageStartEvent, base: string, out: common.StreamPart[]): void {
  const message = event.message;
  const extra = others(message, MESSAGE_FIELDS);
  const usage = toUsage(message.usage);
  work.usage = message.usage;
  const reason = message.stop_reason;
  if (reason !== null && reason !== undefined)
    work.finish = {
      type: "finish",
      reason: decodeMessagesStopReason(reason),
      rawReason: reason,
      extra: { origin: "messages", raw: {} },
      source: `${base}/message/stop_reason`,
    };
  out.push(
    {
      type: "response-start",
      id: message.id,
      model: message.model,
      usage,
      ...(extra === undefined ? {} : { extra: { origin: "messages" as const, raw: extra } }),
    },
    { type: "usage", usage },
  );
  // A message_start may already hold content (programmatic tool calling): emit each block whole.
  message.content.forEach((block, position) => {
    const key = -1 - position;
    startBlock(work, key, block, `${base}/message/content/${position}`, out);
    stopBlock(work, key, out);
  });
}

function messageDelta(work: Work, event: MessageDeltaEvent, base: string, out: common.StreamPart[]): void {
  if (event.usage !== undefined) {
    const fresh = given(event.usage as DeltaUsage);
    work.usage = { ...(work.usage ?? { input_tokens: 0 }), ...fresh };
    out.push({ type: "usage", usage: toUsage(work.usage) });
  }
  const reason = event.delta.stop_reason;
  if (reason === null || reason === undefined) return;
  const extra = {
    ...others(event, ["type", "delta", "usage"]),
    ...others(event.delta, ["stop_reason", "stop_sequence"]),
  };
  const sequence = event.delta.stop_sequence;
  work.finish = {
    type: "finish",
    reason: decodeMessagesStopReason(reason),
    rawReason: reason,
    ...(typeof sequence === "string"
      ? { stopSequence: sequence, stopSequenceSource: `${base}/delta/stop_sequence` }
      : {}),
    extra: { origin: "messages", raw: extra },
    source: `${base}/delta/stop_reason`,
  };
}

/** `message_stop` ends the stream; the finish announced before it goes out now. */
function messageStop(state: MessagesDecodeState, out: common.StreamPart[]): MessagesDecodeState {
  if (state.stopped) return state;
  if (state.finish !== undefined) out.push(state.finish);
  const work = copy(state);
  work.stopped = true;
  return work;
}

function step(
  state: MessagesDecodeState,
  event: StreamEvent,
  out: common.StreamPart[],
  _losses: unknown,
  position?: number,
): MessagesDecodeState {
  switch (event.type) {
    case "content_block_delta":
      // The most frequent event: a text delta continues its block and the state stays as it is.
      return delta(state, event as ContentBlockDeltaEvent, out, position);
    case "message_stop":
      return messageStop(state, out);
    case "error": {
      const error = decodeMessagesError({ status: 200, body: event });
      out.push({ type: "error", error: rebaseError(error, eventPointer(position)) });
      const work = copy(state);
      work.failed = true;
      return work;
    }
    case "message_start":
    case "content_block_start":
    case "content_block_stop":
    case "message_delta": {
      const work = copy(state);
      const base = eventPointer(position);
      if (event.type === "message_start") messageStart(work, event as MessageStartEvent, base, out);
      else if (event.type === "message_delta") messageDelta(work, event as MessageDeltaEvent, base, out);
      else if (event.type === "content_block_stop") stopBlock(work, (event as { index: number }).index, out);
      else {
        const start = event as ContentBlockStartEvent;
        startBlock(work, start.index, start.content_block, `${base}/content_block`, out);
      }
      return work;
    }
    default:
      return state;
  }
}

/** The messages stream decoder: events → common stream parts. */
export function messagesStreamDecoder(
  _options: ResolvedOptions,
): StreamReducer<MessagesDecodeState, StreamEvent, common.StreamPart> {
  return {
    initial: { next: 0, open: [], usage: undefined, finish: undefined, stopped: false, failed: false },
    step,
    end(state, out, losses, position, failure) {
      // `message_stop` ends a messages stream (its finish went out with it); an error event has ended
      // it already; anything else was cut off, after the finish was announced or before, and a block
      // the input never closed stays open (a call's arguments so far are not made a whole call).
      if (!state.stopped && !state.failed) cutOff("messages", out, losses, position, failure);
      else {
        const open = state.open.map((entry) => entry.open).sort((left, right) => left.index - right.index);
        for (const entry of open) out.push(endPart(entry));
      }
      const work = copy(state);
      work.open = [];
      work.stopped = true;
      return work;
    },
  };
}
