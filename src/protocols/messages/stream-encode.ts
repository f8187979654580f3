/**
 * Common stream parts → messages stream events (a pure reducer) with the exact grammar:
 * `message_start`, then per block start / delta* / stop with one block open at a time, then `message_delta`
 * (stop reason and final usage, held until the usage arrives or the stream ends) and `message_stop`.
 * A mid-stream error becomes an `error` event and nothing follows it.
 */
import { keysAre } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { handlePart, type PartHandlers, type StreamReducer } from "../../common/reducer";
import { eventPointer } from "../../common/stream-end";
import { fitToolId } from "../../common/tool-id";
import { afterTextDropped, carrierBlock, signatureBlock } from "./carrier";
import { encodeMessagesError } from "./error";
import { chooseStopReason } from "./finish-reason";
import type { ContentBlock, DeltaUsage, StreamEvent } from "./schema";
import { TOOL_IDS } from "./tool-id";
import { encodeMessagesUsage } from "./usage";

type Kind = "text" | "thinking" | "redacted" | "tool";

export type MessagesEncodeState = {
  /** `new`: nothing sent; `open`: message_start sent; `done`: message_stop or error sent. */
  readonly phase: "new" | "open" | "done";
  readonly id: string | undefined;
  /** The digest an id is derived from when the input has none (`response-start`'s `seed`). */
  readonly seed: string | undefined;
  readonly model: string | undefined;
  readonly extra: common.Extra | undefined;
  readonly usage: common.Usage | undefined;
  /** The one open block: its common index, its output index and kind. */
  readonly current: { readonly index: number; readonly out: number; readonly kind: Kind } | undefined;
  readonly next: number;
  /** Origins of reasoning blocks started and not ended. */
  readonly reasoning: Readonly<Record<number, common.ReasoningOrigin>>;
  /** Reasoning blocks of another protocol whose state went out in a signature (the others get their origin). */
  readonly carried: readonly number[];
  /**
   * The carrier of another protocol's signature of the text just closed, waiting for the next block:
   * it goes between the two, never last (a message ending in a thinking block shows no answer).
   */
  readonly afterText: { readonly signature: string; readonly source: string } | undefined;
  readonly finish: Extract<common.StreamPart, { type: "finish" }> | undefined;
  readonly toolCalls: number;
  readonly refusal: boolean;
  /** The prompt was blocked (generative `promptFeedback.blockReason`). */
  readonly blocked: boolean;
};

/** The draft one step changes (reducer.ts). */
type Work = common.Draft<MessagesEncodeState>;

const DELTA_FIELDS = new Set(["stop_details", "container"]);

/** A draft of `state`, field by field: V8 runs a spread of an object this size several times slower. */
function copy(state: MessagesEncodeState): Work {
  return {
    phase: state.phase,
    id: state.id,
    seed: state.seed,
    model: state.model,
    extra: state.extra,
    usage: state.usage,
    current: state.current,
    next: state.next,
    reasoning: state.reasoning,
    carried: state.carried,
    afterText: state.afterText,
    finish: state.finish,
    toolCalls: state.toolCalls,
    refusal: state.refusal,
    blocked: state.blocked,
  };
}

function messageStart(work: Work, out: StreamEvent[], options: ResolvedOptions): void {
  if (work.phase !== "new") return;
  // Output details are final figures: they go in message_delta only, whose usage clients merge over this.
  const { output_tokens_details: _, ...usage } =
    work.usage === undefined ? { input_tokens: 0, output_tokens: 0 } : encodeMessagesUsage(work.usage);
  const message = {
    ...(work.extra?.origin === "messages" ? work.extra.raw : {}),
    id: work.id ?? syntheticId(options, messageSeed(work)),
    type: "message" as const,
    role: "assistant" as const,
    model: work.model ?? options.model ?? "",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  };
  out.push({ type: "message_start", message });
  work.phase = "open";
}

/** The seed of the ids of a message whose input had none: derived from what the input carried (`seed`). */
function messageSeed(state: MessagesEncodeState): string {
  return state.seed === undefined ? "msg" : `msg_${state.seed}`;
}

function close(work: Work, out: StreamEvent[]): void {
  if (work.current === undefined) return;
  out.push({ type: "content_block_stop", index: work.current.out });
  work.current = undefined;
}

/** Closes the open block and starts a new one (after message_start). */
function open(
  work: Work,
  index: number,
  kind: Kind,
  block: ContentBlock,
  out: StreamEvent[],
  options: ResolvedOptions,
): void {
  messageStart(work, out, options);
  close(work, out);
  flushAfterText(work, out);
  const at = work.next;
  work.current = { index, out: at, kind };
  work.next = at + 1;
  out.push({ type: "content_block_start", index: at, content_block: block });
}

function isCurrent(state: MessagesEncodeState, index: number, kind: Kind): boolean {
  return state.current?.index === index && state.current.kind === kind;
}

/**
 * The one event a text, reasoning or argument delta becomes when it continues the open block of its kind
 * (the state unchanged); `undefined` otherwise.
 */
function continuedEvent(state: MessagesEncodeState, part: common.StreamPart): StreamEvent | undefined {
  const current = state.current;
  if (current === undefined) return undefined;
  // A refusal's piece after its first (which marked the message as refused) is a text piece.
  if (part.type === "text-delta" || (part.type === "refusal-delta" && state.refusal)) {
    if (part.text === "" || current.index !== part.index || current.kind !== "text") return undefined;
    return {
      type: "content_block_delta",
      index: current.out,
      delta: { type: "text_delta", text: part.text },
    };
  }
  if (part.type === "reasoning-delta") {
    if (part.text === "" || current.index !== part.index || current.kind !== "thinking") return undefined;
    return {
      type: "content_block_delta",
      index: current.out,
      delta: { type: "thinking_delta", thinking: part.text },
    };
  }
  if (part.type === "tool-call-delta") {
    if (part.argumentsText === "" || current.index !== part.index || current.kind !== "tool")
      return undefined;
    return {
      type: "content_block_delta",
      index: current.out,
      delta: { type: "input_json_delta", partial_json: part.argumentsText },
    };
  }
  return undefined;
}

function text(work: Work, index: number, value: string, out: StreamEvent[], options: ResolvedOptions): void {
  if (value === "") return;
  if (!isCurrent(work, index, "text")) open(work, index, "text", { type: "text", text: "" }, out, options);
  out.push({
    type: "content_block_delta",
    index: work.current?.out ?? 0,
    delta: { type: "text_delta", text: value },
  });
}

function thinking(
  work: Work,
  index: number,
  delta: StreamEvent,
  out: StreamEvent[],
  options: ResolvedOptions,
): void {
  if (!isCurrent(work, index, "thinking"))
    open(work, index, "thinking", { type: "thinking", thinking: "", signature: "" }, out, options);
  out.push({ ...delta, index: work.current?.out ?? 0 } as StreamEvent);
}

/** A dropped loss about `part`: at its own source, else at the event it was decoded from. */
const dropped = (
  losses: Loss[],
  part: { readonly source?: string | undefined } | undefined,
  position: number | undefined,
  message: string,
  code: string,
): void => {
  losses.push(loss(part?.source || eventPointer(position), "dropped", message, code));
};

function usageDelta(usage: common.Usage | undefined): DeltaUsage {
  return usage === undefined ? { output_tokens: 0 } : encodeMessagesUsage(usage);
}

/** message_delta + message_stop, after closing the open block. */
function finish(
  work: Work,
  out: StreamEvent[],
  losses: Loss[],
  options: ResolvedOptions,
  position: number | undefined,
): void {
  messageStart(work, out, options);
  close(work, out);
  if (work.afterText !== undefined) {
    losses.push(afterTextDropped(work.afterText.source));
    work.afterText = undefined;
  }
  const given = work.finish;
  if (given === undefined) {
    // A decoder that saw its protocol's end without a finish reason.
    losses.push(
      loss(
        eventPointer(position),
        "synthesized",
        "The stream ended without a finish reason; the messages stream was closed with a synthesized stop reason.",
        "finish_reason.synthesized",
      ),
    );
  }
  const stop = chooseStopReason({
    reason: given?.reason,
    rawReason: given?.rawReason,
    hasToolCalls: work.toolCalls > 0,
    hasRefusal: work.refusal,
    own: given?.extra?.origin === "messages",
  });
  if (stop.approximated) {
    losses.push(
      loss(
        given?.source ?? eventPointer(position),
        "approximated",
        `Finish reason \`${given?.rawReason ?? given?.reason}\` has no messages equivalent; \`end_turn\` was sent.`,
        "finish_reason.approximated",
      ),
    );
  }
  const extra = given?.extra?.origin === "messages" ? given.extra.raw : {};
  const inDelta = Object.fromEntries(Object.entries(extra).filter(([key]) => DELTA_FIELDS.has(key)));
  const atTop = Object.fromEntries(Object.entries(extra).filter(([key]) => !DELTA_FIELDS.has(key)));
  out.push(
    {
      ...atTop,
      type: "message_delta",
      delta: { ...inDelta, stop_reason: stop.value, stop_sequence: given?.stopSequence ?? null },
      usage: usageDelta(work.usage),
    },
    { type: "message_stop" },
  );
  work.phase = "done";
}

const nothing = (): void => undefined;

/** A thinking block of its own whose signature carries another protocol's signature (carrier.ts). */
function carry(
  work: Work,
  signature: common.Signature,
  of: "next" | "previous",
  source: string,
  out: StreamEvent[],
  losses: Loss[],
  options: ResolvedOptions,
): void {
  const block = signatureBlock(signature, of, source, losses);
  if (block === undefined) return;
  if (of === "previous") {
    work.afterText = { signature: block.signature, source };
    return;
  }
  messageStart(work, out, options);
  close(work, out);
  flushAfterText(work, out);
  signatureBlockEvents(work, block.signature, out);
}

/** The carrier waiting after a text goes out now that another block follows it. */
function flushAfterText(work: Work, out: StreamEvent[]): void {
  const pending = work.afterText;
  if (pending === undefined) return;
  work.afterText = undefined;
  signatureBlockEvents(work, pending.signature, out);
}

/** A thinking block of its own, whole: start, its signature, stop (no block is open). */
function signatureBlockEvents(work: Work, signature: string, out: StreamEvent[]): void {
  const at = work.next;
  work.next = at + 1;
  out.push(
    {
      type: "content_block_start",
      index: at,
      content_block: { type: "thinking", thinking: "", signature: "" },
    },
    { type: "content_block_delta", index: at, delta: { type: "signature_delta", signature } },
    { type: "content_block_stop", index: at },
  );
}

/** What each common part becomes. */
const handlers: PartHandlers<Work, StreamEvent, ResolvedOptions> = {
  "response-start": (work, part) => {
    work.id = part.id ?? work.id;
    work.seed = part.seed ?? work.seed;
    work.model = part.model ?? work.model;
    work.extra = part.extra ?? work.extra;
    work.usage = part.usage ?? work.usage;
  },
  "text-start": nothing,
  "text-delta": (work, part, out, _losses, options) => text(work, part.index, part.text, out, options),
  "refusal-delta": (work, part, out, _losses, options) => {
    work.refusal = true;
    text(work, part.index, part.text, out, options);
  },
  "text-end": (work, part, out, losses, _options, position) => {
    const current = isCurrent(work, part.index, "text");
    if (part.citations !== undefined && part.citations.origin !== "messages") {
      dropped(
        losses,
        part.citations,
        position,
        `Citations from the ${part.citations.origin} protocol have no messages equivalent and were dropped.`,
        "citations.dropped",
      );
    } else if (part.citations !== undefined && current) {
      for (const citation of part.citations.items) {
        out.push({
          type: "content_block_delta",
          index: work.current?.out ?? 0,
          delta: { type: "citations_delta", citation },
        } as StreamEvent);
      }
    }
    if (current) close(work, out);
  },
  "reasoning-start": (work, part) => {
    work.reasoning = { ...work.reasoning, [part.index]: part.origin };
  },
  "reasoning-delta": (work, part, out, _losses, options) => {
    if (part.text === "") return;
    const delta = { type: "thinking_delta", thinking: part.text } as const;
    thinking(work, part.index, { type: "content_block_delta", index: 0, delta }, out, options);
  },
  "reasoning-signature": (work, part, out, losses, options, position) => {
    const origin = work.reasoning[part.index] ?? "messages";
    let signature = part.signature;
    if (origin !== "messages") {
      // Another protocol's state rides in the signature (carrier.ts).
      const source = part.source ?? eventPointer(position);
      work.carried = [...work.carried, part.index];
      const block = carrierBlock(origin, [{ reasoning: { signature } }], "", source, losses);
      if (block === undefined) return;
      signature = block.signature;
    }
    const delta = { type: "signature_delta", signature } as const;
    thinking(work, part.index, { type: "content_block_delta", index: 0, delta }, out, options);
  },
  "reasoning-redacted": (work, part, out, losses, options, position) => {
    const origin = work.reasoning[part.index] ?? "messages";
    if (origin !== "messages") {
      const source = part.source ?? eventPointer(position);
      work.carried = [...work.carried, part.index];
      const block = carrierBlock(origin, [{ reasoning: { redacted: part.data } }], "", source, losses);
      if (block === undefined) return;
      const delta = { type: "signature_delta", signature: block.signature } as const;
      thinking(work, part.index, { type: "content_block_delta", index: 0, delta }, out, options);
      return;
    }
    open(work, part.index, "redacted", { type: "redacted_thinking", data: part.data }, out, options);
  },
  "reasoning-end": (work, part, out, losses, options, position) => {
    const origin = work.reasoning[part.index] ?? "messages";
    if (origin !== "messages" && !work.carried.includes(part.index)) {
      // Reasoning without state still goes home as its protocol's: its origin rides in the signature.
      const block = carrierBlock(origin, [{ reasoning: {} }], "", eventPointer(position), losses);
      const delta = { type: "signature_delta", signature: block?.signature ?? "" } as const;
      thinking(work, part.index, { type: "content_block_delta", index: 0, delta }, out, options);
    }
    const rest = Object.fromEntries(
      Object.entries(work.reasoning).filter(([key]) => Number(key) !== part.index),
    );
    if (work.current?.index === part.index) close(work, out);
    work.reasoning = rest;
    if (work.carried.length > 0) work.carried = work.carried.filter((index) => index !== part.index);
  },
  "tool-call-start": (work, part, out, losses, options, position) => {
    const source = part.source ?? eventPointer(position);
    // An id messages refuses is rewritten, and read back as the original (common/tool-id.ts).
    const id =
      part.id === undefined
        ? syntheticId(options, work.id ?? messageSeed(work), work.toolCalls)
        : fitToolId(part.id, TOOL_IDS, source, losses);
    const extra = part.extra?.origin === "messages" ? part.extra.raw : {};
    const signature = part.signature;
    if (signature !== undefined && signature.origin !== "messages")
      carry(work, signature, "next", part.source ?? eventPointer(position), out, losses, options);
    const block = { ...extra, type: "tool_use", id, name: part.name, input: {} } as ContentBlock;
    open(work, part.index, "tool", block, out, options);
    work.toolCalls += 1;
  },
  "tool-call-delta": (work, part, out, losses, _options, position) => {
    if (part.argumentsText === "") return;
    if (!isCurrent(work, part.index, "tool")) {
      dropped(
        losses,
        undefined,
        position,
        "Arguments of a tool call arrived after another block started; the messages stream cannot reopen it.",
        "tool_call.arguments.late",
      );
      return;
    }
    out.push({
      type: "content_block_delta",
      index: work.current?.out ?? 0,
      delta: { type: "input_json_delta", partial_json: part.argumentsText },
    });
  },
  "tool-call-end": (work, part, out) => {
    if (isCurrent(work, part.index, "tool")) close(work, out);
  },
  "block-signature": (work, part, out, losses, options, position) => {
    if (part.signature.origin === "messages") return;
    // The text it signs ends here, its carrier after it; an empty text (never opened) is a block too,
    // as in a whole response.
    if (!isCurrent(work, part.index, "text"))
      open(work, part.index, "text", { type: "text", text: "" }, out, options);
    close(work, out);
    carry(work, part.signature, "previous", part.source ?? eventPointer(position), out, losses, options);
  },
  media: (_work, part, _out, losses, _options, position) =>
    dropped(
      losses,
      part.part,
      position,
      "A messages response cannot carry media output; it was dropped.",
      "media.dropped",
    ),
  opaque: (work, part, out, losses, options, position) => {
    if (part.part.origin !== "messages") {
      dropped(
        losses,
        part.part,
        position,
        `A ${part.part.origin} ${part.part.label} has no messages equivalent and was dropped.`,
        "block.dropped",
      );
      return;
    }
    open(work, part.index, "tool", part.part.raw as ContentBlock, out, options);
    close(work, out);
  },
  usage: (work, part, out, losses, options, position) => {
    work.usage = part.usage;
    // Usage after the finish is the final figure: the message can end now.
    if (work.finish !== undefined) finish(work, out, losses, options, position);
  },
  finish: (work, part, out, _losses, options) => {
    // A blocked prompt stays a refusal when an empty candidate's finish follows it (as in responses).
    const blocked = work.blocked && work.next === 0;
    messageStart(work, out, options);
    close(work, out);
    if (!blocked) work.finish = part;
  },
  "prompt-blocked": (work, _part, out, _losses, options) => {
    messageStart(work, out, options);
    work.blocked = true;
    work.finish = { type: "finish", reason: "refusal" };
  },
  error: (work, part, out, losses) => {
    work.phase = "done";
    work.current = undefined;
    // The same table as translateError: an error reads the same as a body and mid-stream.
    out.push(encodeMessagesError(part.error, losses).body);
  },
};

function step(
  state: MessagesEncodeState,
  part: common.StreamPart,
  out: StreamEvent[],
  losses: Loss[],
  options: ResolvedOptions,
  position: number | undefined,
): MessagesEncodeState {
  if (state.phase === "done") return state;
  // The open block continues: the same state, one event.
  const continues = continuedEvent(state, part);
  if (continues !== undefined) {
    out.push(continues);
    return state;
  }
  // The same figures again (generative repeats them on every chunk): nothing changes.
  if (part.type === "usage" && part.usage === state.usage && state.finish === undefined) return state;
  const work = copy(state);
  handlePart(handlers, work, part, out, losses, options, position);
  return work;
}

/** The messages stream encoder: common stream parts → events, always a well-formed messages stream. */
export function messagesStreamEncoder(
  options: ResolvedOptions,
): StreamReducer<MessagesEncodeState, common.StreamPart, StreamEvent> {
  return {
    initial: {
      phase: "new",
      id: undefined,
      seed: undefined,
      model: undefined,
      extra: undefined,
      usage: undefined,
      current: undefined,
      next: 0,
      reasoning: {},
      carried: [],
      afterText: undefined,
      finish: undefined,
      toolCalls: 0,
      refusal: false,
      blocked: false,
    },
    step: (state, part, out, losses, position) => step(state, part, out, losses, options, position),
    end(state, out, losses, position) {
      if (state.phase === "done") return state;
      const work = copy(state);
      finish(work, out, losses, options, position);
      return work;
    },
  };
}

const DELTA_TEXT_FIELD: Readonly<Record<string, string>> = {
  text_delta: "text",
  thinking_delta: "thinking",
  input_json_delta: "partial_json",
  signature_delta: "signature",
};
const EVENT_KEYS = ["type", "index", "delta"];
/** A delta's keys, in order, by the field that holds its text. */
const DELTA_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ["type", "text"],
  thinking: ["type", "thinking"],
  partial_json: ["type", "partial_json"],
  signature: ["type", "signature"],
};

const STOP_KEYS = ["type", "index"];
const START_KEYS = ["type", "index", "content_block"];
const MESSAGE_DELTA_KEYS = ["type", "delta", "usage"];
const STOP_REASON_KEYS = ["stop_reason", "stop_sequence"];
/** The keys of an empty text or thinking block as `content_block_start` opens it. */
const TEXT_BLOCK_KEYS = ["type", "text"];
const THINKING_BLOCK_KEYS = ["type", "thinking", "signature"];

/**
 * The adapter's `eventFormatter`: each event's `data:` payload. The event a stream sends most, a
 * `content_block_delta` with text, thinking, argument text or a signature, is built by concatenation (measured:
 * 1.1-1.7x faster byte streams; the same bytes), and so are the small events around a block
 * (`content_block_start` of an empty text or thinking block, `content_block_stop`, `message_delta`,
 * `message_stop`); JSON.stringify writes every other event.
 */
export function messagesEventFormatter(): (event: StreamEvent) => string {
  return (event) => formatDelta(event) ?? formatFrame(event) ?? JSON.stringify(event);
}

const isIndex = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** `JSON.stringify(event)` for the small events around a block and at the end; `undefined` for any other. */
function formatFrame(event: StreamEvent): string | undefined {
  switch (event.type) {
    case "content_block_stop": {
      const { index } = event as { index: unknown };
      return isIndex(index) && keysAre(event, STOP_KEYS)
        ? `{"type":"content_block_stop","index":${index}}`
        : undefined;
    }
    case "message_stop":
      return keysAre(event, ["type"]) ? '{"type":"message_stop"}' : undefined;
    case "content_block_start": {
      const { index, content_block: block } = event as { index: unknown; content_block: unknown };
      if (!isIndex(index) || typeof block !== "object" || block === null || !keysAre(event, START_KEYS))
        return undefined;
      const { type, text, thinking, signature } = block as Record<string, unknown>;
      if (type === "text" && text === "" && keysAre(block, TEXT_BLOCK_KEYS))
        return `{"type":"content_block_start","index":${index},"content_block":{"type":"text","text":""}}`;
      if (type === "thinking" && thinking === "" && signature === "" && keysAre(block, THINKING_BLOCK_KEYS))
        return `{"type":"content_block_start","index":${index},"content_block":{"type":"thinking","thinking":"","signature":""}}`;
      return undefined;
    }
    case "message_delta": {
      const { delta, usage } = event as { delta: unknown; usage: unknown };
      if (typeof delta !== "object" || delta === null || typeof usage !== "object" || usage === null)
        return undefined;
      if (!keysAre(event, MESSAGE_DELTA_KEYS) || !keysAre(delta, STOP_REASON_KEYS)) return undefined;
      const { stop_reason: reason, stop_sequence: sequence } = delta as Record<string, unknown>;
      if (typeof reason !== "string" || !(sequence === null || typeof sequence === "string"))
        return undefined;
      return `{"type":"message_delta","delta":{"stop_reason":${JSON.stringify(reason)},"stop_sequence":${sequence === null ? "null" : JSON.stringify(sequence)}},"usage":${JSON.stringify(usage)}}`;
    }
    default:
      return undefined;
  }
}

/**
 * `JSON.stringify(event)` for a text, thinking or argument `content_block_delta`; `undefined` for any
 * other event. The shape is checked key by key, so a look-alike with other keys is never misprinted.
 */
function formatDelta(event: StreamEvent): string | undefined {
  if (event.type !== "content_block_delta") return undefined;
  if (!keysAre(event, EVENT_KEYS)) return undefined;
  const { index, delta } = event as { index: unknown; delta: unknown };
  if (typeof index !== "number" || !Number.isFinite(index)) return undefined;
  if (typeof delta !== "object" || delta === null) return undefined;
  const type = (delta as { type?: unknown }).type;
  const field =
    typeof type === "string" && Object.hasOwn(DELTA_TEXT_FIELD, type) ? DELTA_TEXT_FIELD[type] : undefined;
  if (field === undefined) return undefined;
  if (!keysAre(delta, DELTA_KEYS[field] ?? [])) return undefined;
  const value = (delta as Record<string, unknown>)[field];
  if (typeof value !== "string") return undefined;
  return `{"type":"content_block_delta","index":${index},"delta":{"type":"${type}","${field}":${JSON.stringify(value)}}}`;
}
