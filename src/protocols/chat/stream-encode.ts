/**
 * Common stream parts → chat chunks, as a pure reducer, in the grammar chat clients expect:
 * a role delta first; content/reasoning/refusal deltas; per tool call a first delta with
 * index/id/name and empty arguments, then argument pieces; one finish chunk; a usage chunk with
 * `choices: []` when usage is known; `[DONE]` from `end()`. A mid-stream error is the chat error
 * object and nothing follows it. Reasoning goes in the dialect's field (`options.chatDialect`);
 * toward OpenRouter also as `reasoning_details` entries, signatures and redacted reasoning included, the
 * way OpenRouter streams them (test/fixtures/chat/stream/openrouter-reasoning.sse).
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
import { keysAre } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import { handlePart, type PartHandlers, type StreamReducer } from "../../common/reducer";
import { matchedStopDropped } from "../../common/stop";
import { eventPointer } from "../../common/stream-end";
import { carrierFor, type Held, hold, unplaced, withCarrier } from "./carrier";
import { DIALECTS, type Dialect, reasoningFormat } from "./dialect";
import { encodeChatError } from "./error";
import { type ChoiceRaw, callId, choiceRaw } from "./extra";
import { type ChatFinishReason, encodeChatFinishReason } from "./finish-reason";
import { chatCreated } from "./response";
import {
  type Chunk,
  type Delta,
  type DeltaToolCall,
  DONE,
  type ExtraContent,
  type ReasoningDetail,
  type StreamEvent,
} from "./schema";
import { encodeChatUsage } from "./usage";

export type ChatEncodeState = {
  readonly started: boolean;
  readonly id: string;
  readonly model: string;
  readonly created: number;
  /** chat's own chunk fields (`system_fingerprint` ...), repeated on every chunk as chat does. */
  readonly extra: Readonly<Record<string, unknown>> | undefined;
  /** Block index → tool-call ordinal (the chat `tool_calls[].index`). */
  readonly toolOrdinals: readonly (readonly [number, number])[];
  /** Blocks of custom (free-form) calls: their deltas go as `custom.input`. */
  readonly custom: readonly number[];
  /** The `reasoning_details[].index` of the next reasoning block (openrouter dialect). */
  readonly nextEntry: number;
  /** Open reasoning blocks (openrouter dialect). */
  readonly reasoning: readonly ReasoningBlock[];
  /** Open reasoning blocks of another protocol whose state the dialect cannot hold: what rides in a call id. */
  readonly foreign: readonly ForeignBlock[];
  /** That state, once its block ended, waiting for the next tool call to carry it (carrier.ts). */
  readonly held: Held | undefined;
  readonly finished: boolean;
  readonly usage: common.Usage | undefined;
  /** After an error or `end()`, nothing more is emitted. */
  readonly closed: boolean;
};

/**
 * An open reasoning block: its entry index and the provider its signature belongs to (`format`), and
 * whether an entry of it went out (an empty block still sends one, as a whole response lists it).
 */
type ReasoningBlock = {
  readonly block: number;
  readonly entry: number;
  readonly format: string;
  readonly sent: boolean;
};

/** Another protocol's reasoning block: its text, signature and redacted data so far. */
type ForeignBlock = {
  readonly block: number;
  readonly origin: common.ReasoningOrigin;
  readonly text: string;
  readonly signature: string | undefined;
  readonly redacted: string | undefined;
  /** Where its signature (or redacted data) came from, for a loss when nothing carries it. */
  readonly stateSource?: string | undefined;
};

/** The draft one step changes (reducer.ts). */
type Work = common.Draft<ChatEncodeState>;

/** A working copy, field by field (V8 runs a spread of an object this size several times slower). */
function copy(state: ChatEncodeState): Work {
  return {
    started: state.started,
    id: state.id,
    model: state.model,
    created: state.created,
    extra: state.extra,
    toolOrdinals: state.toolOrdinals,
    custom: state.custom,
    nextEntry: state.nextEntry,
    reasoning: state.reasoning,
    foreign: state.foreign,
    held: state.held,
    finished: state.finished,
    usage: state.usage,
    closed: state.closed,
  };
}

/** The piece of a call's arguments (a custom call's text input) as a `tool_calls` entry. */
function callDelta(state: ChatEncodeState, block: number, ordinal: number, text: string): DeltaToolCall {
  return state.custom.length > 0 && state.custom.includes(block)
    ? { index: ordinal, custom: { input: text } }
    : { index: ordinal, function: { arguments: text } };
}

/** The tool_calls index of the call in block `index`. */
function ordinalOf(state: ChatEncodeState, index: number): number | undefined {
  const ordinals = state.toolOrdinals;
  for (let at = 0; at < ordinals.length; at++) {
    const entry = ordinals[at] as readonly [number, number];
    if (entry[0] === index) return entry[1];
  }
  return undefined;
}

/** A chunk with the stream's envelope (chat's own kept fields first, as the source had them). */
function withEnvelope<T extends object>(
  state: ChatEncodeState,
  rest: T,
): Pick<Chunk, "id" | "object" | "created" | "model"> & T {
  if (state.extra === undefined) {
    return {
      id: state.id,
      object: "chat.completion.chunk",
      created: state.created,
      model: state.model,
      ...rest,
    };
  }
  return {
    ...state.extra,
    id: state.id,
    object: "chat.completion.chunk",
    created: state.created,
    model: state.model,
    ...rest,
  };
}

/** One chunk of choice 0; `delta` is the caller's fresh object. */
function deltaChunk(
  state: ChatEncodeState,
  delta: Delta,
  finishReason: ChatFinishReason | (string & {}) | null = null,
  kept?: ChoiceRaw,
): Chunk {
  const choice =
    kept === undefined
      ? { index: 0, delta, finish_reason: finishReason }
      : { ...kept.choice, index: 0, delta: { ...kept.message, ...delta }, finish_reason: finishReason };
  if (state.extra !== undefined) return withEnvelope(state, { choices: [choice] });
  return {
    id: state.id,
    object: "chat.completion.chunk",
    created: state.created,
    model: state.model,
    choices: [choice],
  };
}

/**
 * The role chunk, and the envelope every chunk repeats. An id the input lacks is derived from the event
 * that started it (`seed`), so it is known at the first chunk; a missing `created` is `options.created`,
 * else 0 with a loss.
 */
function start(
  work: Work,
  part: Extract<common.StreamPart, { type: "response-start" }> | undefined,
  options: ResolvedOptions,
  out: StreamEvent[],
  losses: Loss[],
  position: number | undefined,
): void {
  if (work.started) return;
  work.started = true;
  work.id = part?.id ?? syntheticId(options, part?.seed === undefined ? "chatcmpl" : `chatcmpl_${part.seed}`);
  work.model = part?.model ?? options.model ?? "";
  const created = part?.created ?? options.created;
  if (created === undefined)
    losses.push(
      loss(
        at(eventPointer(position), "created"),
        "synthesized",
        "The stream carries no creation time and `options.created` gives none; chat's `created` was sent as 0.",
      ),
    );
  work.created = chatCreated(created, losses, part?.createdSource ?? eventPointer(position));
  if (part?.usage !== undefined) work.usage = part.usage;
  if (part?.extra?.origin === "chat") work.extra = part.extra.raw;
  // Another protocol's answer says it has no refusal in the first delta, as the service does, so that
  // the accumulated completion carries the `refusal: null` the description requires.
  const own = part?.extra?.origin === "chat" || part?.choiceExtra?.origin === "chat";
  out.push(
    deltaChunk(
      work,
      own ? { role: "assistant", content: "" } : { role: "assistant", content: "", refusal: null },
    ),
  );
}

/**
 * The choice fields of another protocol's finish chunk: `logprobs: null`, which the service writes on
 * every choice and the completion the stream accumulates to requires.
 */
const FOREIGN: ChoiceRaw = { choice: { logprobs: null }, message: {} };

/** The finish chunk; chat's own choice fields (`logprobs`, `refusal: null` ...) ride on it. */
function finish(
  work: Work,
  reason: ChatFinishReason | (string & {}),
  out: StreamEvent[],
  kept?: ChoiceRaw,
): void {
  if (work.finished) return;
  work.finished = true;
  out.push(deltaChunk(work, {}, reason, kept));
}

/** The open reasoning block `index`, if any. */
function reasoningOf(state: ChatEncodeState, index: number): ReasoningBlock | undefined {
  const open = state.reasoning;
  for (let at = 0; at < open.length; at++) if (open[at]?.block === index) return open[at];
  return undefined;
}

/** A reasoning piece's delta in the dialect; `undefined` when it must go through the general path. */
function reasoningDelta(
  state: ChatEncodeState,
  index: number,
  text: string,
  dialect: Dialect,
): Delta | undefined {
  if (!dialect.reasoningDetails) {
    if (state.foreign.length > 0 && foreignOf(state, index) !== undefined) return undefined;
    return dialect.reasoningField === "reasoning" ? { reasoning: text } : { reasoning_content: text };
  }
  const block = reasoningOf(state, index);
  if (block === undefined || !block.sent) return undefined;
  return { reasoning: text, reasoning_details: [entryOf(block, "reasoning.text", "text", text)] };
}

/** The open reasoning block `index` of another protocol, if any. */
function foreignOf(state: ChatEncodeState, index: number): ForeignBlock | undefined {
  for (const block of state.foreign) if (block.block === index) return block;
  return undefined;
}

/** Changes the open foreign block `index` (when there is one). */
function updateForeign(work: Work, index: number, change: (block: ForeignBlock) => ForeignBlock): boolean {
  const block = foreignOf(work, index);
  if (block === undefined) return false;
  work.foreign = work.foreign.map((open) => (open === block ? change(open) : open));
  return true;
}

/** An OpenRouter entry of `block` with one field, in the order OpenRouter writes its fields. */
function entryOf(
  block: ReasoningBlock,
  type: "reasoning.text" | "reasoning.encrypted",
  field: "text" | "signature" | "data",
  value: string,
): ReasoningDetail {
  const entry: ReasoningDetail = { type };
  entry[field] = value;
  entry.format = block.format;
  entry.index = block.entry;
  return entry;
}

/** The one chunk a delta becomes once the stream has started, the state unchanged; else `undefined`. */
function continuedChunk(
  state: ChatEncodeState,
  part: common.StreamPart,
  dialect: Dialect,
): StreamEvent | undefined {
  switch (part.type) {
    case "text-delta":
      return deltaChunk(state, { content: part.text });
    case "reasoning-delta": {
      const delta = reasoningDelta(state, part.index, part.text, dialect);
      return delta === undefined ? undefined : deltaChunk(state, delta);
    }
    case "refusal-delta":
      return deltaChunk(state, { refusal: part.text });
    case "tool-call-delta": {
      const ordinal = ordinalOf(state, part.index);
      if (ordinal === undefined) return undefined;
      return deltaChunk(state, { tool_calls: [callDelta(state, part.index, ordinal, part.argumentsText)] });
    }
    default:
      return undefined;
  }
}

const nothing = (): void => undefined;

/**
 * A Gemini thought signature on a call as the dialects that carry it write it (Gemini's compatible
 * endpoint streams it on the call's delta, as in a whole response); `undefined` where it cannot go.
 */
function extraContent(
  signature: { readonly origin: common.Protocol; readonly value: string },
  options: ResolvedOptions,
): ExtraContent | undefined {
  if (signature.origin !== "generative" || !DIALECTS[options.chatDialect].extraContent) return undefined;
  return { google: { thought_signature: signature.value } };
}

/**
 * The open reasoning block `index`, marked as having sent an entry (a block the decoder never started
 * is started here, as chat's own).
 */
function sending(work: Work, index: number): ReasoningBlock {
  const block = reasoningOf(work, index);
  if (block?.sent === true) return block;
  const entry = block?.entry ?? work.nextEntry;
  if (block === undefined) work.nextEntry = entry + 1;
  const sent = { block: index, entry, format: block?.format ?? reasoningFormat("chat"), sent: true };
  work.reasoning = [...work.reasoning.filter((open) => open !== block), sent];
  return sent;
}

/** Where a loss about `part` points: its own source, else the event it was decoded from. */
const pointer = (part: { readonly source?: string | undefined }, position: number | undefined): string =>
  part.source ?? eventPointer(position);

/**
 * What each common part becomes; text-start, reasoning-start and tool-call-end have no chat event, nor
 * has reasoning-end but toward OpenRouter.
 */
const handlers: PartHandlers<Work, StreamEvent, ResolvedOptions> = {
  "response-start": (work, part, out, losses, options, position) =>
    start(work, part, options, out, losses, position),
  "text-start": nothing,
  "text-delta": (work, part, out) => {
    out.push(deltaChunk(work, { content: part.text }));
  },
  "reasoning-delta": (work, part, out, _losses, options) => {
    const dialect = DIALECTS[options.chatDialect];
    if (dialect.reasoningDetails) sending(work, part.index);
    else updateForeign(work, part.index, (block) => ({ ...block, text: block.text + part.text }));
    const delta = dialect.reasoningDetails
      ? (reasoningDelta(work, part.index, part.text, dialect) as Delta)
      : dialect.reasoningField === "reasoning"
        ? { reasoning: part.text }
        : { reasoning_content: part.text };
    out.push(deltaChunk(work, delta));
  },
  "refusal-delta": (work, part, out) => {
    out.push(deltaChunk(work, { refusal: part.text }));
  },
  "text-end": (work, part, out, losses, _options, position) => {
    if (part.citations?.origin === "chat") {
      out.push(deltaChunk(work, { annotations: part.citations.items as Delta["annotations"] }));
    } else if (part.citations !== undefined) {
      losses.push(
        loss(
          pointer(part.citations, position),
          "dropped",
          `Citations from the ${part.citations.origin} protocol have no chat form and were dropped.`,
          "citations.dropped",
        ),
      );
    }
  },
  "reasoning-start": (work, part, _out, _losses, options) => {
    if (!DIALECTS[options.chatDialect].reasoningDetails) {
      // Another protocol's state is held for the next tool call's id (carrier.ts).
      if (part.origin !== "chat")
        work.foreign = [
          ...work.foreign,
          { block: part.index, origin: part.origin, text: "", signature: undefined, redacted: undefined },
        ];
      return;
    }
    const entry = work.nextEntry;
    work.nextEntry = entry + 1;
    const block = { block: part.index, entry, format: reasoningFormat(part.origin), sent: false };
    work.reasoning = [...work.reasoning, block];
  },
  "reasoning-signature": (work, part, out, losses, options, position) => {
    if (!DIALECTS[options.chatDialect].reasoningDetails) {
      if (
        updateForeign(work, part.index, (block) => ({
          ...block,
          signature: (block.signature ?? "") + part.signature,
          stateSource: block.stateSource ?? pointer(part, position),
        }))
      )
        return;
      losses.push(
        loss(
          pointer(part, position),
          "dropped",
          "Chat cannot carry a thinking signature; it was dropped.",
          "thinking.signature.foreign",
        ),
      );
      return;
    }
    // OpenRouter sends the signature as an entry of its own, after the text (openrouter-reasoning.sse);
    // an empty one signs nothing.
    if (part.signature === "") return;
    const entry = entryOf(sending(work, part.index), "reasoning.text", "signature", part.signature);
    out.push(deltaChunk(work, { reasoning_details: [entry] }));
  },
  "reasoning-redacted": (work, part, out, losses, options, position) => {
    if (!DIALECTS[options.chatDialect].reasoningDetails) {
      if (
        updateForeign(work, part.index, (block) => ({
          ...block,
          redacted: part.data,
          stateSource: block.stateSource ?? pointer(part, position),
        }))
      )
        return;
      losses.push(
        loss(
          pointer(part, position),
          "dropped",
          "Redacted thinking is opaque to chat and was dropped.",
          "thinking.redacted.foreign",
        ),
      );
      return;
    }
    const entry = entryOf(sending(work, part.index), "reasoning.encrypted", "data", part.data);
    out.push(deltaChunk(work, { reasoning_details: [entry] }));
  },
  "reasoning-end": (work, part, out, losses, _options, position) => {
    const foreign = foreignOf(work, part.index);
    if (foreign !== undefined) {
      work.foreign = work.foreign.filter((open) => open !== foreign);
      const held: common.Draft<common.ReasoningPart> = {
        type: "reasoning",
        text: foreign.text,
        origin: foreign.origin,
        source: eventPointer(position),
      };
      if (foreign.signature !== undefined) held.signature = foreign.signature;
      if (foreign.redacted !== undefined) held.redacted = foreign.redacted;
      if (foreign.stateSource !== undefined) held.signatureSource = foreign.stateSource;
      work.held = hold(work.held, held, losses);
      return;
    }
    const block = reasoningOf(work, part.index);
    if (block === undefined) return;
    work.reasoning = work.reasoning.filter((open) => open !== block);
    // An empty block is still an entry, as in a whole response: it keeps the later entries' indices.
    if (!block.sent)
      out.push(deltaChunk(work, { reasoning_details: [entryOf(block, "reasoning.text", "text", "")] }));
  },
  "tool-call-start": (work, part, out, losses, options, position) => {
    const ordinal = work.toolOrdinals.length;
    work.toolOrdinals = [...work.toolOrdinals, [part.index, ordinal]];
    const own = callId(part);
    let id = own ?? syntheticId(options, work.id, ordinal);
    if (own === undefined)
      losses.push(
        loss(
          pointer(part, position),
          "synthesized",
          "A tool call had no id; a deterministic one was made up.",
        ),
      );
    // A free-form call reaches chat only for a dialect with custom tools (common/tool-forms.ts).
    const call: DeltaToolCall =
      part.freeform === true
        ? { index: ordinal, id, type: "custom", custom: { name: part.name, input: "" } }
        : { index: ordinal, id, type: "function", function: { name: part.name, arguments: "" } };
    if (part.freeform === true) work.custom = [...work.custom, part.index];
    // Held state, and a signature the dialect has no field for, ride in the id (carrier.ts).
    const native = part.signature === undefined ? undefined : extraContent(part.signature, options);
    const signature = work.held !== undefined || native === undefined ? part.signature : undefined;
    const carrier =
      work.held === undefined && signature === undefined
        ? undefined
        : carrierFor(work.held, signature, pointer(part, position), losses);
    work.held = undefined;
    if (carrier?.origin === "chat") {
      id = withCarrier(id, carrier.value);
      call.id = id;
    }
    const extra = carrier === undefined && part.signature !== undefined ? native : undefined;
    if (extra !== undefined) call.extra_content = extra;
    out.push(deltaChunk(work, { tool_calls: [call] }));
  },
  "block-signature": (work, part, out, losses, options, position) => {
    const ordinal = ordinalOf(work, part.index);
    const extra = ordinal === undefined ? undefined : extraContent(part.signature, options);
    if (ordinal === undefined || extra === undefined)
      losses.push(
        loss(
          pointer(part, position),
          "dropped",
          "Chat cannot carry a thinking signature; it was dropped.",
          "thinking.signature.foreign",
        ),
      );
    else out.push(deltaChunk(work, { tool_calls: [{ index: ordinal, extra_content: extra }] }));
  },
  "tool-call-delta": (work, part, out, losses, _options, position) => {
    const ordinal = ordinalOf(work, part.index);
    if (ordinal === undefined)
      losses.push(
        loss(
          eventPointer(position),
          "dropped",
          "Arguments for an unknown tool call were dropped.",
          "tool_call.arguments.orphan",
        ),
      );
    else
      out.push(deltaChunk(work, { tool_calls: [callDelta(work, part.index, ordinal, part.argumentsText)] }));
  },
  "tool-call-end": nothing,
  media: (_work, part, _out, losses, _options, position) => {
    losses.push(
      loss(
        part.part.source || eventPointer(position),
        "dropped",
        `Streamed ${part.part.kind} output has no chat form and was dropped.`,
        "media.dropped",
      ),
    );
  },
  opaque: (_work, part, _out, losses, _options, position) => {
    losses.push(
      loss(
        part.part.source || eventPointer(position),
        "dropped",
        `The ${part.part.label} has no chat form and was dropped.`,
        "block.dropped",
      ),
    );
  },
  usage: (work, part) => {
    work.usage = part.usage;
  },
  finish: (work, part, out, losses, _options, position) => {
    if (part.extra?.origin === "chat" && part.rawReason !== undefined) {
      // chat's own reason, restored as given (accumulate/replay).
      finish(work, part.rawReason, out, choiceRaw(part.extra));
      return;
    }
    const mapped = encodeChatFinishReason(part.reason, work.toolOrdinals.length > 0);
    if (mapped.approximate) {
      losses.push(
        loss(
          pointer(part, position),
          "approximated",
          `Finish reason "${part.rawReason ?? part.reason}" has no chat equivalent; "stop" was used.`,
          "finish_reason.approximated",
        ),
      );
    }
    if (part.stopSequence !== undefined)
      losses.push(matchedStopDropped(part.stopSequenceSource ?? pointer(part, position), "chat"));
    finish(work, mapped.reason, out, part.extra?.origin === "chat" ? choiceRaw(part.extra) : FOREIGN);
  },
  "prompt-blocked": (work, part, out) => {
    out.push(deltaChunk(work, { refusal: `Prompt blocked: ${part.reason}` }));
    finish(work, "content_filter", out, FOREIGN);
  },
  error: (work, part, out, losses) => {
    // The same table as translateError: an error reads the same as a body and mid-stream; the
    // source's own type or code is `code`, as there.
    out.push(encodeChatError(part.error, losses).body);
    work.closed = true;
  },
};

function step(
  state: ChatEncodeState,
  part: common.StreamPart,
  out: StreamEvent[],
  losses: Loss[],
  options: ResolvedOptions,
  dialect: Dialect,
  position: number | undefined,
): ChatEncodeState {
  if (state.closed) return state;
  if (state.started) {
    // Text goes straight out: the same state, one chunk.
    const chunk = continuedChunk(state, part, dialect);
    if (chunk !== undefined) {
      out.push(chunk);
      return state;
    }
    // The same figures again (generative repeats them on every chunk): nothing changes.
    if (part.type === "usage" && part.usage === state.usage) return state;
  }
  const work = copy(state);
  if (part.type !== "response-start") start(work, undefined, options, out, losses, position);
  handlePart(handlers, work, part, out, losses, options, position);
  return work;
}

function end(
  state: ChatEncodeState,
  out: StreamEvent[],
  losses: Loss[],
  options: ResolvedOptions,
  position: number | undefined,
): ChatEncodeState {
  if (state.closed) return state;
  const work = copy(state);
  work.closed = true;
  start(work, undefined, options, out, losses, position);
  unplaced(work.held, losses);
  work.held = undefined;
  if (!work.finished) {
    // A decoder that saw its protocol's end without a finish reason (a messages stream without a stop reason).
    losses.push(
      loss(
        eventPointer(position),
        "synthesized",
        'The stream ended without a finish reason; "stop" was sent.',
        "finish_reason.synthesized",
      ),
    );
    finish(work, work.toolOrdinals.length > 0 ? "tool_calls" : "stop", out, FOREIGN);
  }
  if (work.usage !== undefined)
    out.push(withEnvelope(work, { choices: [], usage: encodeChatUsage(work.usage) }));
  out.push(DONE);
  return work;
}

/** The chat stream encoder: common stream parts in, chat chunks (and `DONE`) out. */
export function chatStreamEncoder(
  options: ResolvedOptions,
): StreamReducer<ChatEncodeState, common.StreamPart, StreamEvent> {
  const dialect = DIALECTS[options.chatDialect];
  return {
    initial: {
      started: false,
      id: "",
      model: "",
      created: 0,
      extra: undefined,
      toolOrdinals: [],
      custom: [],
      nextEntry: 0,
      reasoning: [],
      foreign: [],
      held: undefined,
      finished: false,
      usage: undefined,
      closed: false,
    },
    step: (state, part, out, losses, position) => step(state, part, out, losses, options, dialect, position),
    end: (state, out, losses, position) => end(state, out, losses, options, position),
  };
}

const ENVELOPE_KEYS = ["id", "object", "created", "model", "choices"];
const USAGE_ENVELOPE_KEYS = ["id", "object", "created", "model", "choices", "usage"];
const CHOICE_KEYS = ["index", "delta", "finish_reason"];
/** Another protocol's finish chunk (`FOREIGN`): `logprobs: null` first. */
const FOREIGN_CHOICE_KEYS = ["logprobs", "index", "delta", "finish_reason"];
const ROLE_KEYS = ["role", "content"];
/** Another protocol's opening delta: the service's `refusal: null` after the role. */
const FOREIGN_ROLE_KEYS = ["role", "content", "refusal"];
const CALL_KEYS = ["index", "function"];
const ARGUMENT_KEYS = ["arguments"];

/** `"<json>"` for a number as JSON.stringify writes it. */
const number = (value: number): string => (Number.isFinite(value) ? `${value}` : "null");

/**
 * The delta's JSON for a text piece, a tool call's argument piece, the opening `{role: "assistant",
 * content}` or the closing `{}`; `undefined` for other deltas.
 */
function deltaJson(delta: object): string | undefined {
  let key: string | undefined;
  for (const field in delta) {
    if (key !== undefined) {
      const { role, content, refusal } = delta as { role?: unknown; content?: unknown; refusal?: unknown };
      if (role !== "assistant" || typeof content !== "string") return undefined;
      if (keysAre(delta, ROLE_KEYS)) return `{"role":"assistant","content":${JSON.stringify(content)}}`;
      return refusal === null && keysAre(delta, FOREIGN_ROLE_KEYS)
        ? `{"role":"assistant","content":${JSON.stringify(content)},"refusal":null}`
        : undefined;
    }
    key = field;
  }
  if (key === undefined) return "{}";
  const value = (delta as Record<string, unknown>)[key];
  if (key === "content" || key === "reasoning_content" || key === "reasoning" || key === "refusal")
    return typeof value === "string" ? `{"${key}":${JSON.stringify(value)}}` : undefined;
  if (key !== "tool_calls" || !Array.isArray(value) || value.length !== 1) return undefined;
  const call = value[0] as unknown;
  if (typeof call !== "object" || call === null || !keysAre(call, CALL_KEYS)) return undefined;
  const { index, function: fn } = call as { index: unknown; function: unknown };
  if (typeof index !== "number" || typeof fn !== "object" || fn === null || !keysAre(fn, ARGUMENT_KEYS))
    return undefined;
  const args = (fn as { arguments: unknown }).arguments;
  if (typeof args !== "string") return undefined;
  return `{"tool_calls":[{"index":${number(index)},"function":{"arguments":${JSON.stringify(args)}}}]}`;
}

/**
 * The adapter's `eventFormatter`: each event's `data:` payload. The chunks a stream is made of (one
 * choice with a text or argument piece, the opening role, the finish, the closing usage; no kept
 * fields) are written by concatenation, with the envelope's JSON made once per id/model/created
 * (measured: 1.2-1.5x faster byte streams); every key is checked, so the bytes are always
 * JSON.stringify's, which writes every other chunk.
 */
export function chatEventFormatter(): (event: StreamEvent) => string {
  const chunk = chunkFormatter();
  return (event) => (event === DONE ? DONE : (chunk(event) ?? JSON.stringify(event)));
}

/** `JSON.stringify(chunk)` for the chunks `chatEventFormatter` names, by concatenation; `undefined` for any other. */
function chunkFormatter(): (event: StreamEvent) => string | undefined {
  let id: unknown;
  let object: unknown;
  let created: unknown;
  let model: unknown;
  // `{"id":…,"model":…,` and the same followed by the opening of the one choice's delta.
  let envelope = "";
  let head = "";
  /** Whether the chunk's envelope is the last one's, its JSON made when it changes; false for the hub. */
  const sameEnvelope = (chunk: Chunk): boolean => {
    if (chunk.id === id && chunk.object === object && chunk.created === created && chunk.model === model)
      return true;
    if (typeof chunk.id !== "string" || typeof chunk.object !== "string") return false;
    if (typeof chunk.created !== "number" || typeof chunk.model !== "string") return false;
    id = chunk.id;
    object = chunk.object;
    created = chunk.created;
    model = chunk.model;
    envelope = `{"id":${JSON.stringify(id)},"object":${JSON.stringify(object)},"created":${number(chunk.created)},"model":${JSON.stringify(model)},`;
    head = `${envelope}"choices":[{"index":0,"delta":`;
    return true;
  };
  return (event) => {
    if (typeof event !== "object" || event === null) return undefined;
    const chunk = event as Chunk;
    const choices = chunk.choices;
    if (!Array.isArray(choices)) return undefined;
    if (choices.length === 0) {
      // The closing usage chunk: its usage written by JSON.stringify, the envelope kept.
      const usage = chunk.usage as unknown;
      if (typeof usage !== "object" || usage === null || !keysAre(event, USAGE_ENVELOPE_KEYS))
        return undefined;
      return sameEnvelope(chunk) ? `${envelope}"choices":[],"usage":${JSON.stringify(usage)}}` : undefined;
    }
    if (choices.length !== 1 || !keysAre(event, ENVELOPE_KEYS)) return undefined;
    const choice = choices[0] as unknown;
    if (typeof choice !== "object" || choice === null) return undefined;
    const { index, delta, finish_reason, logprobs } = choice as {
      index: unknown;
      delta: unknown;
      finish_reason: unknown;
      logprobs?: unknown;
    };
    const plain = keysAre(choice, CHOICE_KEYS);
    // Another protocol's finish chunk: `{"logprobs":null,"index":0,…}`.
    if (!plain && !(logprobs === null && keysAre(choice, FOREIGN_CHOICE_KEYS))) return undefined;
    if (index !== 0 || typeof delta !== "object" || delta === null) return undefined;
    const body = deltaJson(delta);
    if (body === undefined || !sameEnvelope(chunk)) return undefined;
    const start = plain ? head : `${envelope}"choices":[{"logprobs":null,"index":0,"delta":`;
    if (finish_reason === null) return `${start}${body},"finish_reason":null}]}`;
    return typeof finish_reason === "string"
      ? `${start}${body},"finish_reason":${JSON.stringify(finish_reason)}}]}`
      : undefined;
  };
}
