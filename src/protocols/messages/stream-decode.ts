/**
 * messages stream events → common stream parts (a pure reducer). Blocks are renumbered 0, 1, 2… in order
 * of appearance; server-tool and unknown blocks are gathered whole and emitted as opaque parts.
 */
import { isObject, parseJsonObject } from "../../common/json";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import type { StreamReducer } from "../../common/reducer";
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
  /** `args`: some argument text has been passed on (an empty input means `{}`, research X6). */
  | { readonly kind: "tool"; readonly index: number; readonly args: boolean }
  | {
      readonly kind: "opaque";
      readonly index: number;
      readonly block: Readonly<Record<string, unknown>>;
      readonly json: string;
    };

/** An open block under its messages index, kept as an object key would be (`String(index)`). */
type OpenEntry = { readonly key: string; readonly open: Open };

export type MessagesDecodeState = {
  readonly next: number;
  /** Open blocks by their messages index. */
  readonly open: readonly OpenEntry[];
  /** `message_start` usage, merged with each `message_delta` usage. */
  readonly usage: Readonly<Record<string, unknown>> | undefined;
  /** A stop reason given in `message_start` (a prefilled, finished message). */
  readonly pending: string | undefined;
  readonly finished: boolean;
};

type Step = { state: MessagesDecodeState; out: common.StreamPart[] };

const MESSAGE_FIELDS = ["id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"];

function others(value: object, known: readonly string[]): Record<string, unknown> | undefined {
  const entries = Object.entries(value).filter(([key]) => !known.includes(key));
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

function openAt(state: MessagesDecodeState, at: number): Open | undefined {
  const key = String(at);
  const entries = state.open;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as OpenEntry;
    if (entry.key === key) return entry.open;
  }
  return undefined;
}

/** `state` with the block at `at` set to `open` (or removed when undefined) and `next` as given. */
function withOpen(
  state: MessagesDecodeState,
  at: number,
  open: Open | undefined,
  next: number = state.next,
): MessagesDecodeState {
  const key = String(at);
  const entries: OpenEntry[] = [];
  for (const entry of state.open) if (entry.key !== key) entries.push(entry);
  if (open !== undefined) entries.push({ key, open });
  return { next, open: entries, usage: state.usage, pending: state.pending, finished: state.finished };
}

function toUsage(usage: Readonly<Record<string, unknown>>): common.Usage {
  return decodeMessagesUsage(usage as Usage, "/usage", []);
}

function startBlock(state: MessagesDecodeState, at: number, block: ContentBlock): Step {
  const index = state.next;
  const out: common.StreamPart[] = [];
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
      if (signature !== "") out.push({ type: "reasoning-signature", index, signature });
      open = { kind: "reasoning", index };
      break;
    }
    case "redacted_thinking":
      out.push({ type: "reasoning-start", index, origin: "messages" });
      out.push({ type: "reasoning-redacted", index, data: (block as { data: string }).data });
      open = { kind: "reasoning", index };
      break;
    case "tool_use": {
      const call = block as { id: string; name: string; input: unknown };
      const extra = others(block, ["type", "id", "name", "input"]);
      out.push({
        type: "tool-call-start",
        index,
        id: call.id,
        name: call.name,
        ...(extra === undefined ? {} : { extra: { origin: "messages" as const, raw: extra } }),
      });
      const args = isObject(call.input) && Object.keys(call.input).length > 0;
      if (args) out.push({ type: "tool-call-delta", index, argumentsText: JSON.stringify(call.input) });
      open = { kind: "tool", index, args };
      break;
    }
    default:
      open = { kind: "opaque", index, block, json: "" };
  }
  return { state: withOpen(state, at, open, index + 1), out };
}

function stopBlock(state: MessagesDecodeState, at: number): Step {
  const open = openAt(state, at);
  if (open === undefined) return { state, out: [] };
  // A tool call whose input never grew past "" takes no arguments: `{}`, so targets get valid JSON.
  const out: common.StreamPart[] =
    open.kind === "tool" && !open.args
      ? [{ type: "tool-call-delta", index: open.index, argumentsText: "{}" }, endPart(open)]
      : [endPart(open)];
  return { state: withOpen(state, at, undefined), out };
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
        part: { type: "opaque", origin: "messages", raw, label: `${type} block`, source: "" },
      };
    }
  }
}

function delta(state: MessagesDecodeState, event: ContentBlockDeltaEvent): Step {
  const open = openAt(state, event.index);
  if (open === undefined) return { state, out: [] };
  const change = event.delta;
  const index = open.index;
  switch (change.type) {
    case "text_delta": {
      const text = (change as { text: string }).text;
      return { state, out: open.kind === "text" && text !== "" ? [{ type: "text-delta", index, text }] : [] };
    }
    case "citations_delta":
      if (open.kind !== "text") return { state, out: [] };
      return {
        state: withOpen(state, event.index, {
          ...open,
          citations: [...open.citations, (change as { citation: unknown }).citation],
        }),
        out: [],
      };
    case "thinking_delta": {
      const text = (change as { thinking: string }).thinking;
      return {
        state,
        out: open.kind === "reasoning" && text !== "" ? [{ type: "reasoning-delta", index, text }] : [],
      };
    }
    case "signature_delta": {
      const signature = (change as { signature: string }).signature;
      return {
        state,
        out: open.kind === "reasoning" ? [{ type: "reasoning-signature", index, signature }] : [],
      };
    }
    case "input_json_delta": {
      const text = (change as { partial_json: string }).partial_json;
      if (open.kind === "tool") {
        if (text === "") return { state, out: [] };
        const out: common.StreamPart[] = [{ type: "tool-call-delta", index, argumentsText: text }];
        return { state: open.args ? state : withOpen(state, event.index, { ...open, args: true }), out };
      }
      if (open.kind === "opaque") {
        const grown: Open = { kind: "opaque", index: open.index, block: open.block, json: open.json + text };
        return { state: withOpen(state, event.index, grown), out: [] };
      }
      return { state, out: [] };
    }
    default: {
      if (open.kind !== "opaque") return { state, out: [] };
      // An unknown delta (compaction_delta …): append its string fields to the block's fields of the same name.
      const merged: Record<string, unknown> = { ...open.block };
      for (const [key, value] of Object.entries(change)) {
        if (key === "type" || typeof value !== "string") continue;
        const before = merged[key];
        merged[key] = (typeof before === "string" ? before : "") + value;
      }
      return {
        state: withOpen(state, event.index, { ...open, block: merged }),
        out: [],
      };
    }
  }
}

function messageStart(state: MessagesDecodeState, event: MessageStartEvent): Step {
  const message = event.message;
  const extra = others(message, MESSAGE_FIELDS);
  const usage = toUsage(message.usage);
  let current: MessagesDecodeState = {
    ...state,
    usage: message.usage,
    pending: message.stop_reason ?? undefined,
  };
  const out: common.StreamPart[] = [
    {
      type: "response-start",
      id: message.id,
      model: message.model,
      usage,
      ...(extra === undefined ? {} : { extra: { origin: "messages" as const, raw: extra } }),
    },
    { type: "usage", usage },
  ];
  // A message_start may already hold content (programmatic tool calling): emit each block whole.
  message.content.forEach((block, position) => {
    const key = -1 - position;
    const started = startBlock(current, key, block);
    const stopped = stopBlock(started.state, key);
    current = stopped.state;
    out.push(...started.out, ...stopped.out);
  });
  return { state: current, out };
}

function messageDelta(state: MessagesDecodeState, event: MessageDeltaEvent): Step {
  const out: common.StreamPart[] = [];
  let usage = state.usage;
  if (event.usage !== undefined) {
    const fresh = Object.fromEntries(
      Object.entries(event.usage as DeltaUsage).filter(([, value]) => value !== null),
    );
    usage = { ...(state.usage ?? { input_tokens: 0 }), ...fresh };
    out.push({ type: "usage", usage: toUsage(usage) });
  }
  const reason = event.delta.stop_reason;
  if (reason === null || reason === undefined) return { state: { ...state, usage }, out };
  const extra = {
    ...others(event, ["type", "delta", "usage"]),
    ...others(event.delta, ["stop_reason", "stop_sequence"]),
  };
  const sequence = event.delta.stop_sequence;
  out.push({
    type: "finish",
    reason: decodeMessagesStopReason(reason),
    rawReason: reason,
    ...(typeof sequence === "string" ? { stopSequence: sequence } : {}),
    extra: { origin: "messages", raw: extra },
  });
  return { state: { ...state, usage, finished: true }, out };
}

function step(state: MessagesDecodeState, event: StreamEvent): Step {
  switch (event.type) {
    case "message_start":
      return messageStart(state, event as MessageStartEvent);
    case "content_block_start": {
      const start = event as ContentBlockStartEvent;
      return startBlock(state, start.index, start.content_block);
    }
    case "content_block_delta":
      return delta(state, event as ContentBlockDeltaEvent);
    case "content_block_stop":
      return stopBlock(state, (event as { index: number }).index);
    case "message_delta":
      return messageDelta(state, event as MessageDeltaEvent);
    case "message_stop":
      if (state.finished || state.pending === undefined) return { state, out: [] };
      return {
        state: { ...state, finished: true },
        out: [
          {
            type: "finish",
            reason: decodeMessagesStopReason(state.pending),
            rawReason: state.pending,
            extra: { origin: "messages", raw: {} },
          },
        ],
      };
    case "error":
      return { state, out: [{ type: "error", error: decodeMessagesError({ status: 200, body: event }) }] };
    default:
      return { state, out: [] };
  }
}

/**
 * `step`'s one part for a text, thinking or argument delta that continues its open block without
 * changing the state; `undefined` for anything else (`step` decides).
 */
function single(state: MessagesDecodeState, event: StreamEvent): common.StreamPart | undefined {
  if (event.type !== "content_block_delta") return undefined;
  const { index: at, delta: change } = event as ContentBlockDeltaEvent;
  if (typeof change !== "object" || change === null) return undefined;
  const open = openAt(state, at);
  if (open === undefined) return undefined;
  switch (change.type) {
    case "text_delta": {
      const text = (change as { text: unknown }).text;
      return open.kind === "text" && typeof text === "string" && text !== ""
        ? { type: "text-delta", index: open.index, text }
        : undefined;
    }
    case "thinking_delta": {
      const text = (change as { thinking: unknown }).thinking;
      return open.kind === "reasoning" && typeof text === "string" && text !== ""
        ? { type: "reasoning-delta", index: open.index, text }
        : undefined;
    }
    case "input_json_delta": {
      const text = (change as { partial_json: unknown }).partial_json;
      return open.kind === "tool" && open.args && typeof text === "string" && text !== ""
        ? { type: "tool-call-delta", index: open.index, argumentsText: text }
        : undefined;
    }
    default:
      return undefined;
  }
}

/** The messages stream decoder: events → common stream parts. */
export function messagesStreamDecoder(
  _options: ResolvedOptions,
): StreamReducer<MessagesDecodeState, StreamEvent, common.StreamPart> {
  return {
    initial: { next: 0, open: [], usage: undefined, pending: undefined, finished: false },
    step,
    single,
    end(state) {
      const open = state.open.map((entry) => entry.open).sort((left, right) => left.index - right.index);
      return { state: { ...state, open: [] }, out: open.map(endPart) };
    },
  };
}
