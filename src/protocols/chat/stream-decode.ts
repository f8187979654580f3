/**
 * Chat chunks → common stream parts, as a pure reducer. Blocks are numbered in order of first
 * appearance; tool calls are keyed by index, then id, then "the latest"; a mid-stream
 * `error` becomes an `error` part. Only choice 0 is decoded: stream parts carry no choice index.
 * Every dialect's delta fields are read: `reasoning_content` or
 * `reasoning`, OpenRouter `reasoning_details` (preferred: they carry signatures), Mistral content chunks,
 * and an audio answer's transcript.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
import { inputSeed } from "../../common/digest";
import { rebaseError } from "../../common/error-kind";
import { isKnown, isObject, type Keys, keysAre } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import type { StreamReducer } from "../../common/reducer";
import { cutOff, eventPointer } from "../../common/stream-end";
import { reasoningOrigin } from "./dialect";
import { decodeChatError } from "./error";
import {
  type ChoiceRaw,
  chatExtra,
  choiceExtra,
  EMPTY_ID,
  EMPTY_TEXT,
  EMPTY_TOO,
  isEmptyAudio,
  mergeRaw,
  messageRest,
} from "./extra";
import { decodeChatFinishReason } from "./finish-reason";
import type * as chat from "./schema";
import { decodeChatUsage } from "./usage";

/** Chunk fields with a common slot; the others (`system_fingerprint` ...) go to `response-start`'s extra. */
const CHUNK_KEYS: Keys = ["id", "object", "created", "model", "choices", "usage", "error"];

const CHOICE_KEYS: Keys = ["index", "delta", "finish_reason"];
const DELTA_KEYS: Keys = [
  "role",
  "content",
  "refusal",
  "reasoning_content",
  "reasoning",
  "tool_calls",
  "function_call",
  "annotations",
  "reasoning_details",
  "audio",
];

/**
 * `origin` and `entry` are a reasoning block's: the protocol whose provider signed it and the OpenRouter
 * `reasoning_details[].index` it was opened by, which a later entry must match to continue it.
 */
type Open = {
  readonly kind: "text" | "reasoning" | "refusal" | "tool";
  readonly index: number;
  readonly origin?: common.ReasoningOrigin;
  readonly entry?: number | undefined;
};
/** `at`: the `tool_calls[].index` the key was made from, if it was (lets `continued` match without a string). */
type ToolEntry = {
  readonly key: string;
  readonly id: string | undefined;
  readonly block: number;
  readonly at?: number | undefined;
};

export type ChatDecodeState = {
  readonly started: boolean;
  readonly nextBlock: number;
  /** The block that receives deltas now; starting another block ends it. */
  readonly open: Open | undefined;
  /** Tool calls seen, by key (tool_calls index, else id), for routing argument pieces. */
  readonly tools: readonly ToolEntry[];
  readonly lastToolKey: string | undefined;
  /** url_citation annotations waiting for the end of the current text block. */
  readonly annotations: readonly unknown[];
  /** Where the first of them came from, for a loss about them. */
  readonly annotationsSource: string | undefined;
  /** Choice 0's fields with no common slot so far (`logprobs`, `refusal: null` ...), for its `finish`. */
  readonly kept: ChoiceRaw;
  readonly finished: boolean;
  readonly done: boolean;
  /** An error chunk arrived: the stream ended with it. */
  readonly failed: boolean;
  readonly reported: readonly string[];
};

const initial: ChatDecodeState = {
  started: false,
  nextBlock: 0,
  open: undefined,
  tools: [],
  lastToolKey: undefined,
  annotations: [],
  annotationsSource: undefined,
  kept: { choice: {}, message: {} },
  finished: false,
  done: false,
  failed: false,
  reported: [],
};

/** The draft one step changes (reducer.ts); the reducer returns it as the next state. */
type Work = common.Draft<ChatDecodeState>;

/** A draft of `state`, field by field (V8 runs a spread of an object this size several times slower). */
function copy(state: ChatDecodeState): Work {
  return {
    started: state.started,
    nextBlock: state.nextBlock,
    open: state.open,
    tools: state.tools,
    lastToolKey: state.lastToolKey,
    annotations: state.annotations,
    annotationsSource: state.annotationsSource,
    kept: state.kept,
    finished: state.finished,
    done: state.done,
    failed: state.failed,
    reported: state.reported,
  };
}

function endOpen(work: Work, out: common.StreamPart[]): void {
  const open = work.open;
  if (open === undefined) return;
  if (open.kind === "text") {
    const citations =
      work.annotations.length === 0
        ? undefined
        : { origin: "chat" as const, items: work.annotations, source: work.annotationsSource };
    out.push({ type: "text-end", index: open.index, ...(citations === undefined ? {} : { citations }) });
    work.annotations = [];
    work.annotationsSource = undefined;
  } else if (open.kind === "reasoning") out.push({ type: "reasoning-end", index: open.index });
  else if (open.kind === "tool") out.push({ type: "tool-call-end", index: open.index });
  work.open = undefined;
}

function openBlock(work: Work, kind: "text" | "reasoning" | "refusal", out: common.StreamPart[]): number {
  if (work.open?.kind === kind) return work.open.index;
  endOpen(work, out);
  const index = work.nextBlock;
  work.nextBlock = index + 1;
  work.open = kind === "reasoning" ? { kind, index, origin: "chat", entry: undefined } : { kind, index };
  if (kind === "text") out.push({ type: "text-start", index });
  if (kind === "reasoning") out.push({ type: "reasoning-start", index, origin: "chat" });
  return index;
}

/** The reasoning block of an OpenRouter entry: the open one when the entry continues it, else a new one. */
function detailBlock(
  work: Work,
  origin: common.ReasoningOrigin,
  entry: number | undefined,
  out: common.StreamPart[],
): number {
  const open = work.open;
  if (open?.kind === "reasoning" && open.origin === origin && open.entry === entry) return open.index;
  endOpen(work, out);
  const index = work.nextBlock;
  work.nextBlock = index + 1;
  work.open = { kind: "reasoning", index, origin, entry };
  out.push({ type: "reasoning-start", index, origin });
  return index;
}

const DETAIL_KEYS: Keys = ["type", "text", "signature", "summary", "data", "format", "index"];

/**
 * OpenRouter `reasoning_details` pieces: text (or summary) and signature continue the block of their
 * entry, whose `format` names the provider that signed it (its origin); an encrypted entry is a redacted
 * block of its own. As the whole-response decoder reads them (`decodeReasoningDetails`).
 */
function reasoningDetails(
  work: Work,
  details: readonly chat.ReasoningDetail[],
  base: string,
  out: common.StreamPart[],
  losses: Loss[],
): void {
  for (let position = 0; position < details.length; position++) {
    const detail = details[position] as chat.ReasoningDetail;
    const at = `/choices/0/delta/reasoning_details/${position}`;
    const origin = reasoningOrigin(detail.format);
    const entry = detail.index ?? undefined;
    if (detail.type === "reasoning.text" || detail.type === "reasoning.summary") {
      const index = detailBlock(work, origin, entry, out);
      const text = detail.type === "reasoning.text" ? detail.text : detail.summary;
      if (text != null && text !== "") out.push({ type: "reasoning-delta", index, text });
      if (detail.type === "reasoning.text" && detail.signature != null && detail.signature !== "")
        out.push({ type: "reasoning-signature", index, signature: detail.signature });
    } else if (detail.type === "reasoning.encrypted") {
      endOpen(work, out);
      const index = detailBlock(work, origin, entry, out);
      out.push({ type: "reasoning-redacted", index, data: detail.data ?? "" });
      endOpen(work, out);
    } else {
      const message = `A reasoning entry of type "${detail.type}" has no common equivalent and was dropped.`;
      reportOnce(work, base, at, message, losses);
      continue;
    }
    for (const key in detail) {
      const value = (detail as Record<string, unknown>)[key];
      if (isKnown(DETAIL_KEYS, key) || !Object.hasOwn(detail, key) || value == null || value === "") continue;
      const message = `\`${key}\` on a reasoning entry has no common equivalent and was dropped.`;
      reportOnce(work, base, `${at}/${key}`, message, losses);
    }
  }
}

/**
 * Mistral's content chunks: text and refusal as their deltas, a thinking chunk's text chunks as
 * reasoning; any other chunk is dropped with a loss (as `decodeAssistantParts` reads a whole message).
 */
function contentParts(
  work: Work,
  parts: readonly chat.AssistantPart[],
  base: string,
  out: common.StreamPart[],
  losses: Loss[],
): void {
  for (let position = 0; position < parts.length; position++) {
    const part = parts[position] as chat.AssistantPart;
    const at = `/choices/0/delta/content/${position}`;
    if (part.type === "text") {
      const text = (part as chat.TextPart).text;
      if (text !== "") out.push({ type: "text-delta", index: openBlock(work, "text", out), text });
    } else if (part.type === "refusal") {
      const text = (part as chat.RefusalPart).refusal;
      if (text !== "") out.push({ type: "refusal-delta", index: openBlock(work, "refusal", out), text });
    } else if (part.type === "thinking") {
      const chunks = (part as chat.ThinkingPart).thinking;
      for (let inner = 0; inner < chunks.length; inner++) {
        const chunk = chunks[inner] as chat.ThinkingPart["thinking"][number];
        if (chunk.type !== "text" || chunk.text === undefined) {
          const message = `A ${chunk.type} chunk inside thinking has no common equivalent and was dropped.`;
          reportOnce(work, base, `${at}/thinking/${inner}`, message, losses);
        } else if (chunk.text !== "")
          out.push({ type: "reasoning-delta", index: openBlock(work, "reasoning", out), text: chunk.text });
      }
    } else {
      const message = `A ${part.type} content part has no common equivalent and was dropped.`;
      reportOnce(work, base, at, message, losses);
    }
  }
}

/**
 * An audio answer's piece: its transcript is the answer's text (as the AI SDK's chat provider reads
 * it); the audio itself (id, data, expiry) has no common slot, one loss for the stream. The
 * whole-response decoder does the same with `message.audio` (response.ts).
 */
function audioPiece(
  work: Work,
  audio: chat.DeltaAudio,
  base: string,
  out: common.StreamPart[],
  losses: Loss[],
): void {
  const transcript = audio.transcript;
  if (transcript != null && transcript !== "")
    out.push({ type: "text-delta", index: openBlock(work, "text", out), text: transcript });
  if (!isEmptyAudio(audio, "transcript")) {
    const message = "Audio output has no common equivalent and was dropped; its transcript was kept as text.";
    reportOnce(work, base, "/choices/0/delta/audio", message, losses);
  }
}

/**
 * A loss at `path` in the event at `base`, reported for the first event that has it only (`key` tells
 * which losses are the same; default `path`).
 */
function reportOnce(
  work: Work,
  base: string,
  path: string,
  message: string,
  losses: Loss[],
  key: string = path,
): void {
  if (work.reported.includes(key)) return;
  work.reported = [...work.reported, key];
  losses.push(loss(base + path, "dropped", message));
}

function toolCall(
  work: Work,
  call: chat.DeltaToolCall,
  position: number,
  source: string,
  out: common.StreamPart[],
): void {
  const id = call.id === null || call.id === undefined || call.id === "" ? undefined : call.id;
  // An explicit "" names no call (other protocols get a made-up id); chat itself restores it (`EMPTY_ID`).
  const key =
    call.index !== undefined
      ? `i${call.index}`
      : id !== undefined
        ? `d${id}`
        : (work.lastToolKey ?? `p${position}`);
  const known = work.tools.find((entry) => entry.key === key);
  const signed = call.extra_content?.google?.thought_signature;
  // Gemini's compatible endpoint signs a call as in a whole response (`decodeChatToolCall`).
  const signature: common.Signature | undefined =
    signed === undefined || signed === "" ? undefined : { origin: "generative", value: signed };
  // A new id at an index already used is a new call (some providers reuse index 0).
  const isNew = known === undefined || (id !== undefined && known.id !== undefined && known.id !== id);
  let block: number;
  if (isNew) {
    endOpen(work, out);
    block = work.nextBlock;
    work.nextBlock = block + 1;
    const entry = { key, id, block, at: call.index === undefined ? undefined : call.index };
    work.tools = [...work.tools.filter((entry) => entry.key !== key), entry];
    work.open = { kind: "tool", index: block };
    out.push({
      type: "tool-call-start",
      index: block,
      ...(id === undefined ? {} : { id }),
      ...(call.id === "" ? { extra: EMPTY_ID } : {}),
      name: (call.custom == null ? call.function?.name : call.custom.name) ?? "",
      ...(signature === undefined ? {} : { signature }),
      // A custom tool's call streams its text input (`delta.tool_calls[].custom.input`).
      ...(call.custom == null && call.type !== "custom" ? {} : { freeform: true }),
      source,
    });
  } else {
    // Pieces for a call whose block another block has ended still belong to it (chat routes by index):
    // the fold (accumulate) takes them; a target that cannot reopen the block reports the loss.
    block = known.block;
    if (signature !== undefined) out.push({ type: "block-signature", index: block, signature });
  }
  work.lastToolKey = key;
  const args = call.custom == null ? call.function?.arguments : call.custom.input;
  if (args !== undefined && args !== null && args !== "")
    out.push({ type: "tool-call-delta", index: block, argumentsText: args });
}

function choiceZero(
  work: Work,
  choice: chat.ChunkChoice,
  base: string,
  out: common.StreamPart[],
  losses: Loss[],
): void {
  const delta = choice.delta;
  // OpenRouter repeats the text of its `reasoning_details` in `reasoning`: the details, which also
  // carry the signatures, are read, and `reasoning` only when there are none.
  const details = delta.reasoning_details;
  if (details != null && details.length > 0) reasoningDetails(work, details, base, out, losses);
  else {
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning !== undefined && reasoning !== null && reasoning !== "")
      out.push({ type: "reasoning-delta", index: openBlock(work, "reasoning", out), text: reasoning });
  }
  const content = delta.content;
  if (typeof content === "string") {
    if (content !== "") out.push({ type: "text-delta", index: openBlock(work, "text", out), text: content });
  } else if (content != null) contentParts(work, content, base, out, losses);
  if (delta.audio != null) audioPiece(work, delta.audio, base, out, losses);
  if (delta.refusal !== undefined && delta.refusal !== null && delta.refusal !== "") {
    out.push({ type: "refusal-delta", index: openBlock(work, "refusal", out), text: delta.refusal });
  }
  delta.tool_calls?.forEach((call, position) => {
    toolCall(work, call, position, `${base}/choices/0/delta/tool_calls/${position}`, out);
  });
  if (delta.function_call != null) {
    toolCall(
      work,
      { index: 0, function: delta.function_call },
      0,
      `${base}/choices/0/delta/function_call`,
      out,
    );
  }
  if (delta.annotations != null && delta.annotations.length > 0) {
    if (work.open?.kind === "text") {
      work.annotationsSource ??= `${base}/choices/0/delta/annotations`;
      work.annotations = [...work.annotations, ...delta.annotations];
    } else {
      // No text block to ride on: chat itself keeps them (on the finish), other protocols lose them.
      const before = work.kept.message.annotations;
      work.kept = {
        ...work.kept,
        message: {
          ...work.kept.message,
          annotations: [...(Array.isArray(before) ? before : []), ...delta.annotations],
        },
      };
      reportOnce(
        work,
        base,
        "/choices/0/delta/annotations",
        "Annotations outside a text block have no place and were dropped.",
        losses,
      );
    }
  }
  if (choice.logprobs !== undefined && choice.logprobs !== null) {
    reportOnce(
      work,
      base,
      "/choices/0/logprobs",
      "Log probabilities have no common equivalent and were dropped.",
      losses,
    );
  }
  if (!work.finished && keptChanges(work.kept, choice, delta)) {
    work.kept = {
      choice: mergeRaw(work.kept.choice, chatExtra(choice, CHOICE_KEYS)?.raw ?? {}),
      message: mergeRaw(work.kept.message, messageRest(delta, DELTA_KEYS)),
    };
  }
  const reason = choice.finish_reason;
  if (reason !== undefined && reason !== null && !work.finished) {
    endOpen(work, out);
    work.finished = true;
    const extra = choiceExtra(work.kept);
    const source = `${base}/choices/0/finish_reason`;
    out.push({ type: "finish", reason: decodeChatFinishReason(reason), rawReason: reason, extra, source });
  }
}

const isEmptyValue = (value: unknown): boolean =>
  value === null || (Array.isArray(value) && value.length === 0);

/** Whether `mergeRaw(before, { [key]: value })` (extra.ts) would give something other than `before`. */
function mergeChanges(before: Readonly<Record<string, unknown>>, key: string, value: unknown): boolean {
  if (key === "__proto__" || !Object.hasOwn(before, key)) return true;
  const prior = before[key];
  if (prior === undefined) return true;
  if (isEmptyValue(value)) return false;
  return value !== prior || (key === "logprobs" && isObject(prior) && isObject(value));
}

/** The block a delta field's text goes to (`reasoning_content` and `reasoning` are one field). */
function textKind(key: string): "text" | "reasoning" | "refusal" | undefined {
  switch (key) {
    case "content":
      return "text";
    case "reasoning_content":
    case "reasoning":
      return "reasoning";
    case "refusal":
      return "refusal";
    default:
      return undefined;
  }
}

/**
 * Whether folding this choice's raw fields into `kept` (chatExtra + messageRest + mergeRaw in
 * `choiceZero`) changes it: for most chunks (`logprobs: null`, a text delta) it does not.
 */
function choiceKeptChanges(kept: ChoiceRaw, choice: object): boolean {
  // `for…in` instead of Object.keys: no key array per chunk. An inherited enumerable key (a polluted
  // prototype) counts as a change, which only sends the chunk down the general path.
  for (const key in choice) {
    if (key === "index" || key === "delta" || key === "finish_reason") continue;
    if (mergeChanges(kept.choice, key, (choice as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function deltaKeptChanges(kept: ChoiceRaw, key: string, value: unknown): boolean {
  const rest =
    !isKnown(DELTA_KEYS, key) ||
    (isKnown(EMPTY_TOO, key) && isEmptyValue(value)) ||
    (isKnown(EMPTY_TEXT, key) && value === "");
  return rest && mergeChanges(kept.message, key, value);
}

function keptChanges(kept: ChoiceRaw, choice: object, delta: object): boolean {
  if (choiceKeptChanges(kept, choice)) return true;
  for (const key in delta) {
    if (key !== "role" && deltaKeptChanges(kept, key, (delta as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * The text of a Mistral content chunk list that continues a block of `kind`: one text chunk, or one
 * thinking chunk holding one text chunk, with no other fields; `undefined` for any other list.
 */
function chunkText(parts: readonly unknown[], kind: Open["kind"]): string | undefined {
  if (parts.length !== 1) return undefined;
  let chunk = parts[0];
  if (kind === "reasoning") {
    if (typeof chunk !== "object" || chunk === null || !keysAre(chunk, THINKING_CHUNK)) return undefined;
    const { type, thinking } = chunk as { type?: unknown; thinking?: unknown };
    if (type !== "thinking" || !Array.isArray(thinking) || thinking.length !== 1) return undefined;
    chunk = thinking[0];
  } else if (kind !== "text") return undefined;
  if (typeof chunk !== "object" || chunk === null || !keysAre(chunk, TEXT_CHUNK)) return undefined;
  const { type, text } = chunk as { type?: unknown; text?: unknown };
  return type === "text" && typeof text === "string" ? text : undefined;
}

const TEXT_CHUNK = ["type", "text"];
const THINKING_CHUNK = ["type", "thinking"];

/**
 * The text of OpenRouter `reasoning_details` that continue the open reasoning block: one `reasoning.text`
 * entry of the block's entry index and origin, with no signature and no field the general path would
 * report; `undefined` for any other list.
 */
function continuedDetail(open: Open, details: readonly unknown[]): string | undefined {
  if (details.length !== 1 || open.kind !== "reasoning") return undefined;
  const detail = details[0];
  if (typeof detail !== "object" || detail === null) return undefined;
  const { type, text, signature, format, index } = detail as Record<string, unknown>;
  if (type !== "reasoning.text" || typeof text !== "string" || (signature != null && signature !== ""))
    return undefined;
  const entry = typeof index === "number" ? index : index == null ? undefined : Number.NaN;
  if (entry !== open.entry || (format != null && typeof format !== "string")) return undefined;
  if (reasoningOrigin(format as string | null | undefined) !== open.origin) return undefined;
  for (const key in detail) if (!isKnown(DETAIL_KEYS, key)) return undefined;
  return text;
}

/**
 * The latest tool call, when `call` continues it without changing the state (by `tool_calls` index, as
 * `toolCall` routes it); `undefined` when the general path must decide.
 */
function continuedCall(state: ChatDecodeState, call: unknown): ToolEntry | undefined {
  if (typeof call !== "object" || call === null) return undefined;
  const { index, id, extra_content, custom } = call as chat.DeltaToolCall;
  if (extra_content != null || custom != null) return undefined;
  const last = state.tools[state.tools.length - 1];
  if (last === undefined || typeof index !== "number" || last.at !== index) return undefined;
  if (state.lastToolKey !== last.key || state.open?.index !== last.block) return undefined;
  const sameCall = id === undefined || id === null || id === "" || last.id === undefined || id === last.id;
  return sameCall ? last : undefined;
}

/**
 * The common chunk, one choice 0 whose delta continues the open block (its text, or its tool call's
 * arguments) and nothing else: the state stays the same object and at most one part goes out.
 * `null` when it continues the block with nothing to emit (an empty argument piece); `undefined` for
 * any other chunk (the general path in `step` handles it).
 */
function continuedPart(
  state: ChatDecodeState,
  event: chat.StreamEvent,
): common.StreamPart | null | undefined {
  const open = state.open;
  if (!state.started || state.finished || open === undefined) return undefined;
  if (typeof event !== "object" || event === null) return undefined;
  const chunk = event as chat.Chunk;
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1 || chunk.usage != null) return undefined;
  if ((event as { error?: unknown }).error !== undefined) return undefined;
  const choice = choices[0] as chat.ChunkChoice;
  if (typeof choice !== "object" || choice === null || choice.index !== 0) return undefined;
  if (choice.finish_reason != null || choice.logprobs != null) return undefined;
  const delta = choice.delta;
  if (typeof delta !== "object" || delta === null) return undefined;
  let text: string | undefined;
  let call: chat.DeltaToolCall | undefined;
  /** The text of an OpenRouter entry continuing the block; it wins over the `reasoning` beside it. */
  let detail: string | undefined;
  for (const key in delta) {
    if (key === "role") continue;
    const value = (delta as Record<string, unknown>)[key];
    if (key === "reasoning" && "reasoning_content" in delta) return undefined;
    let kind = typeof value === "string" && value !== "" ? textKind(key) : undefined;
    let piece = value;
    if (key === "content" && Array.isArray(value) && value.length > 0) {
      // A Mistral chunk: one text, or one thinking chunk of one text, continuing the block.
      piece = chunkText(value, open.kind);
      if (piece === undefined) return undefined;
      kind = open.kind === "text" ? "text" : "reasoning";
      if (piece === "") continue;
    }
    if (kind !== undefined) {
      // One text field only; `reasoning_content` beside `reasoning` is the general path's to settle.
      if (text !== undefined || kind !== open.kind) return undefined;
      text = piece as string;
      continue;
    }
    if (key === "reasoning_details" && Array.isArray(value) && value.length > 0) {
      detail = continuedDetail(open, value);
      if (detail === undefined) return undefined;
      continue;
    }
    if (key === "tool_calls" && Array.isArray(value) && value.length > 0) {
      if (value.length !== 1 || open.kind !== "tool") return undefined;
      call = value[0] as chat.DeltaToolCall;
      continue;
    }
    if (key === "function_call" && value != null) return undefined;
    if (
      (key === "tool_calls" || key === "annotations" || key === "audio" || key === "content") &&
      value != null &&
      typeof value !== "string" &&
      !isEmptyValue(value)
    )
      return undefined;
    if (deltaKeptChanges(state.kept, key, value)) return undefined;
  }
  if (choiceKeptChanges(state.kept, choice)) return undefined;
  if (detail !== undefined) {
    if (detail === "") return null;
    text = detail;
  }
  const index = open.index;
  if (call !== undefined) {
    if (text !== undefined || continuedCall(state, call) === undefined) return undefined;
    const args = call.function?.arguments;
    if (args === undefined || args === null || args === "") return null;
    return typeof args === "string" ? { type: "tool-call-delta", index, argumentsText: args } : undefined;
  }
  if (text === undefined) return undefined;
  // Every text field above is of the open block's kind.
  return open.kind === "text"
    ? { type: "text-delta", index, text }
    : open.kind === "refusal"
      ? { type: "refusal-delta", index, text }
      : { type: "reasoning-delta", index, text };
}

function step(
  state: ChatDecodeState,
  event: chat.StreamEvent,
  out: common.StreamPart[],
  losses: Loss[],
  position?: number,
): ChatDecodeState {
  if (state.done) return state;
  // The most frequent chunk continues the open block: the state stays as it is.
  const continues = continuedPart(state, event);
  if (continues !== undefined) {
    if (continues !== null) out.push(continues);
    return state;
  }
  const work = copy(state);
  if (event === "[DONE]") {
    endOpen(work, out);
    work.done = true;
    return work;
  }
  const base = eventPointer(position);
  const chunk = "choices" in event ? (event as chat.Chunk) : undefined;
  const hasContent = chunk !== undefined && (chunk.choices.length > 0 || chunk.usage != null);
  if (!work.started && (hasContent || event.error !== undefined)) {
    work.started = true;
    const extra = chunk === undefined ? undefined : chatExtra(chunk, CHUNK_KEYS);
    out.push({
      type: "response-start",
      ...(chunk?.id === undefined ? { seed: inputSeed(event) } : { id: chunk.id }),
      ...(chunk?.model === undefined ? {} : { model: chunk.model }),
      ...(chunk?.created === undefined ? {} : { created: chunk.created, createdSource: `${base}/created` }),
      // Always marked as chat's own, so that chat restores its own answer as it came.
      extra: extra ?? { origin: "chat", raw: {} },
    });
  }
  const choices = chunk?.choices ?? [];
  for (let at = 0; at < choices.length; at++) {
    const choice = choices[at] as chat.ChunkChoice;
    if (choice.index === 0) choiceZero(work, choice, base, out, losses);
    else
      reportOnce(
        work,
        base,
        `/choices/${at}`,
        `Choice ${choice.index} of a streamed response was dropped: stream parts carry one choice.`,
        losses,
        `choice ${choice.index}`,
      );
  }
  if (chunk?.usage != null) {
    // Usage on an error chunk would let a target close the message normally before the error
    // arrives (a finish may be pending): the error wins, and the figures are reported instead.
    if (event.error === undefined) out.push({ type: "usage", usage: decodeChatUsage(chunk.usage, "/usage") });
    else
      losses.push(
        loss(
          `${base}/usage`,
          "dropped",
          "Usage sent with a mid-stream error was dropped: the stream failed.",
        ),
      );
  }
  if (event.error !== undefined) {
    endOpen(work, out);
    work.done = true;
    work.failed = true;
    // The chunk's own fields (`id`, `choices` ...) are the stream's, not the error's.
    const error = decodeChatError({ status: 200, body: { error: event.error } });
    out.push({ type: "error", error: rebaseError(error, base) });
  }
  return work;
}

/** The chat stream decoder: chat chunks (and `DONE`) in, common stream parts out. */
export function chatStreamDecoder(
  _options: ResolvedOptions,
): StreamReducer<ChatDecodeState, chat.StreamEvent, common.StreamPart> {
  return {
    initial,
    step,
    end(state, out, losses, position, failure) {
      const work = copy(state);
      // A chunk with a finish reason ends a chat stream (`[DONE]` may be missing); an error chunk has
      // already ended it; anything else was cut off, and a block the input never closed stays open.
      if (!state.finished && !state.failed) cutOff("chat", out, losses, position, failure);
      else endOpen(work, out);
      work.done = true;
      return work;
    },
  };
}
