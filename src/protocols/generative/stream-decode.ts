/**
 * generative stream chunks → common stream parts (research X7–X10). Each chunk is a whole response;
 * text parts continue the open block, every other part is a block of its own; usage is cumulative;
 * the finish reason (which some upstreams repeat on every chunk) is emitted once, when the stream ends.
 */
import { isObject, type JsonObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import type { Step, StreamReducer } from "../../common/reducer";
import { decodeGenerativeError } from "./error";
import { decodeGenerativeFinishReason } from "./finish-reason";
import { decodePart, NO_ARGS } from "./parts-decode";
import { callSeed, parseTimestamp, responseExtra } from "./response";
import type * as generative from "./schema";
import { decodeGenerativeUsage } from "./usage";

type Open = { readonly kind: "text" | "reasoning"; readonly index: number };
/** A Vertex `streamFunctionCallArguments` call whose arguments are still arriving. */
type OpenCall = { readonly index: number; readonly args: JsonObject };

export type GenerativeDecodeState = {
  readonly started: boolean;
  readonly done: boolean;
  readonly seed: string;
  readonly nextIndex: number;
  readonly ordinal: number;
  readonly open: Open | undefined;
  readonly call: OpenCall | undefined;
  readonly finish: string | undefined;
  /** Candidate fields with no common slot, merged over chunks (last wins), and the content's shape. */
  readonly candidate: JsonObject;
  readonly content: JsonObject | undefined;
  readonly hasParts: boolean;
  readonly hasIndex: boolean;
  /** Loss paths already reported: every chunk repeats the same fields. */
  readonly reported: ReadonlySet<string>;
  /** The last `usageMetadata` and its decoding: most chunks repeat it, and the same figures decode once. */
  readonly usageRaw: generative.UsageMetadata | undefined;
  readonly usage: common.Usage | undefined;
};

const initial: GenerativeDecodeState = {
  started: false,
  done: false,
  seed: callSeed(undefined),
  nextIndex: 0,
  ordinal: 0,
  open: undefined,
  call: undefined,
  finish: undefined,
  candidate: {},
  content: undefined,
  hasParts: false,
  hasIndex: false,
  reported: new Set(),
  usageRaw: undefined,
  usage: undefined,
};

function close(open: Open | undefined): common.StreamPart[] {
  if (open === undefined) return [];
  return [
    open.kind === "text"
      ? { type: "text-end", index: open.index }
      : { type: "reasoning-end", index: open.index },
  ];
}

const MAX_PATH_DEPTH = 64;

/** Sets `$.a.b` (a Vertex partialArgs `jsonPath`) in a copy of `args`; string pieces are appended. */
function setPath(args: JsonObject, path: string, value: unknown, append: boolean): JsonObject {
  const keys = path
    .replace(/^\$\.?/, "")
    .split(".")
    .filter((key) => key !== "");
  const [head, ...rest] = keys;
  if (head === undefined || keys.length > MAX_PATH_DEPTH) return args;
  const current = args[head];
  const next =
    rest.length === 0
      ? append && typeof current === "string" && typeof value === "string"
        ? current + value
        : value
      : setPath(isObject(current) ? current : {}, `$.${rest.join(".")}`, value, append);
  return { ...Object.fromEntries(Object.entries(args).filter(([key]) => key !== head)), [head]: next };
}

function partialValue(piece: JsonObject): unknown {
  if ("stringValue" in piece) return piece.stringValue;
  if ("numberValue" in piece) return piece.numberValue;
  if ("boolValue" in piece) return piece.boolValue;
  if ("nullValue" in piece) return null;
  return piece.structValue ?? piece.listValue;
}

export function generativeStreamDecoder(
  options: ResolvedOptions,
): StreamReducer<GenerativeDecodeState, generative.StreamEvent, common.StreamPart> {
  return {
    initial,
    step(state, event): Step<GenerativeDecodeState, common.StreamPart> {
      if (state.done) return { state, out: [] };
      if ("error" in event && isObject(event.error)) {
        const code = typeof event.error.code === "number" ? event.error.code : 500;
        return {
          state: { ...state, done: true },
          out: [{ type: "error", error: decodeGenerativeError({ status: code, body: event }) }],
        };
      }
      return decodeChunk(state, event as generative.Response, options);
    },
    single(state, event) {
      if (state.done || typeof event !== "object" || event === null) return undefined;
      if ("error" in event && isObject(event.error)) return undefined;
      const fast = continuedText(state, event as generative.Response);
      return fast?.out.length === 1 ? fast.out[0] : undefined;
    },
    end(state) {
      if (state.done) return { state, out: [] };
      const out: common.StreamPart[] = [...close(state.open)];
      if (state.call !== undefined) {
        out.push({
          type: "tool-call-delta",
          index: state.call.index,
          argumentsText: JSON.stringify(state.call.args),
        });
        out.push({ type: "tool-call-end", index: state.call.index });
      }
      if (state.finish !== undefined) {
        const reason = decodeGenerativeFinishReason(state.finish, state.ordinal > 0);
        const extra: common.Extra = {
          origin: "generative",
          raw: {
            candidate: state.candidate,
            ...(state.content === undefined ? {} : { content: state.content }),
            hasParts: state.hasParts,
            hasIndex: state.hasIndex,
          },
        };
        if (reason !== undefined) out.push({ type: "finish", reason, rawReason: state.finish, extra });
      }
      return { state: { ...state, done: true, open: undefined, call: undefined }, out };
    },
  };
}

function decodeChunk(
  state: GenerativeDecodeState,
  chunk: generative.Response,
  options: ResolvedOptions,
): Step<GenerativeDecodeState, common.StreamPart> {
  const out: common.StreamPart[] = [];
  const found: Loss[] = [];
  let next: GenerativeDecodeState = state;
  const fast = continuedText(state, chunk);
  if (fast !== undefined) return fast;
  const raw = chunk.usageMetadata;
  let usage: common.Usage | undefined;
  if (raw !== undefined) {
    const same = sameFigures(state.usageRaw, raw) ? state.usage : undefined;
    usage = same ?? decodeGenerativeUsage(raw, "/usageMetadata", found);
    if (same === undefined) next = update(next, { usageRaw: raw, usage });
  }
  if (!next.started) {
    const created = chunk.createTime === undefined ? undefined : parseTimestamp(chunk.createTime);
    out.push({
      type: "response-start",
      ...(chunk.responseId === undefined ? {} : { id: chunk.responseId }),
      ...(chunk.modelVersion === undefined ? {} : { model: chunk.modelVersion }),
      ...(created === undefined ? {} : { created }),
      ...(usage === undefined ? {} : { usage }),
      extra: responseExtra(chunk, found),
    });
    next = update(next, { started: true, seed: callSeed(chunk.responseId) });
  } else if (usage !== undefined) {
    out.push({ type: "usage", usage });
  }
  const candidates = chunk.candidates ?? [];
  candidates.forEach((candidate, position) => {
    const source = at("", "candidates", position);
    if ((candidate.index ?? position) !== 0) {
      found.push(
        loss(source, "dropped", "A stream carries one candidate; this further candidate was dropped."),
      );
      return;
    }
    next = decodeCandidate(next, candidate, source, options, out, found);
  });
  const blocked = chunk.promptFeedback?.blockReason;
  if (blocked !== undefined && candidates.length === 0) {
    out.push(...close(next.open));
    next = update(next, { open: undefined });
    out.push({ type: "prompt-blocked", reason: blocked });
  }
  const losses = found.filter((entry) => !next.reported.has(entry.path));
  if (losses.length > 0)
    next = update(next, { reported: new Set([...next.reported, ...losses.map((entry) => entry.path)]) });
  return { state: next, out, ...(losses.length === 0 ? {} : { losses }) };
}

type Work = { -readonly [K in keyof GenerativeDecodeState]: GenerativeDecodeState[K] };

/** A copy to change before returning it; field by field, which V8 runs far faster than a spread this size. */
function copy(state: GenerativeDecodeState): Work {
  return {
    started: state.started,
    done: state.done,
    seed: state.seed,
    nextIndex: state.nextIndex,
    ordinal: state.ordinal,
    open: state.open,
    call: state.call,
    finish: state.finish,
    candidate: state.candidate,
    content: state.content,
    hasParts: state.hasParts,
    hasIndex: state.hasIndex,
    reported: state.reported,
    usageRaw: state.usageRaw,
    usage: state.usage,
  };
}

/** `state` with `changes` (names of state fields, never input keys): a copy, as `copy`. */
function update(
  state: GenerativeDecodeState,
  changes: Partial<GenerativeDecodeState>,
): GenerativeDecodeState {
  return Object.assign(copy(state), changes);
}

/** The content's fields besides `parts` merged over those so far; `before` itself when nothing changes. */
function mergeShape(
  before: JsonObject | undefined,
  content: NonNullable<generative.Candidate["content"]>,
): JsonObject {
  const keys = Object.keys(content);
  let same = before !== undefined;
  for (let index = 0; same && index < keys.length; index++) {
    const key = keys[index] as string;
    if (key === "parts") continue;
    same =
      before !== undefined &&
      Object.hasOwn(before, key) &&
      before[key] === (content as Record<string, unknown>)[key];
  }
  if (same && before !== undefined) return before;
  return {
    ...before,
    ...Object.fromEntries(Object.entries(content).filter(([key]) => key !== "parts")),
  };
}

function decodeCandidate(
  state: GenerativeDecodeState,
  candidate: generative.Candidate,
  source: string,
  options: ResolvedOptions,
  out: common.StreamPart[],
  found: Loss[],
): GenerativeDecodeState {
  let metadata: JsonObject | undefined;
  for (const key of Object.keys(candidate)) {
    if (key === "content" || key === "finishReason" || key === "index") continue;
    found.push(
      loss(at(source, key), "dropped", `candidates[].${key} has no common equivalent and was dropped.`),
    );
    metadata ??= Object.fromEntries(
      Object.entries(candidate).filter(
        ([name]) => name !== "content" && name !== "finishReason" && name !== "index",
      ),
    );
  }
  const content = candidate.content;
  const hasIndex = state.hasIndex || candidate.index !== undefined;
  const hasParts = state.hasParts || content?.parts !== undefined;
  const shape = content === undefined ? state.content : mergeShape(state.content, content);
  const finish =
    candidate.finishReason === undefined || candidate.finishReason === ""
      ? state.finish
      : candidate.finishReason;
  let next: GenerativeDecodeState = state;
  if (
    metadata !== undefined ||
    hasIndex !== state.hasIndex ||
    hasParts !== state.hasParts ||
    shape !== state.content ||
    finish !== state.finish
  ) {
    const work = copy(state);
    if (metadata !== undefined) work.candidate = { ...state.candidate, ...metadata };
    work.hasIndex = hasIndex;
    work.hasParts = hasParts;
    work.content = shape;
    work.finish = finish;
    next = work;
  }
  const parts = content?.parts;
  if (parts !== undefined) {
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index] as generative.Part;
      next =
        next.call === undefined && isPlainText(part)
          ? decodeText(next, part, part.text as string, out)
          : decodeStreamPart(next, part, at(source, "content", "parts", index), options, out, found);
    }
  }
  return next;
}

function decodeStreamPart(
  state: GenerativeDecodeState,
  part: generative.Part,
  source: string,
  options: ResolvedOptions,
  out: common.StreamPart[],
  found: Loss[],
): GenerativeDecodeState {
  const call = part.functionCall;
  if (call === undefined && state.call !== undefined) {
    // Another part ends a streamed call (its arguments so far are all it gets): a target cannot reopen it.
    out.push({
      type: "tool-call-delta",
      index: state.call.index,
      argumentsText: JSON.stringify(state.call.args),
    });
    out.push({ type: "tool-call-end", index: state.call.index });
    return decodeStreamPart({ ...state, call: undefined }, part, source, options, out, found);
  }
  if (call !== undefined && state.call !== undefined) {
    // Vertex streamed arguments: pieces until a piece that does not continue.
    let args = state.call.args;
    for (const piece of call.partialArgs ?? []) {
      if (typeof piece.jsonPath === "string")
        args = setPath(
          args,
          piece.jsonPath,
          partialValue(piece),
          piece.willContinue === true || "stringValue" in piece,
        );
    }
    if (call.willContinue === true) return { ...state, call: { ...state.call, args } };
    out.push({ type: "tool-call-delta", index: state.call.index, argumentsText: JSON.stringify(args) });
    out.push({ type: "tool-call-end", index: state.call.index });
    return { ...state, call: undefined };
  }
  if (
    part.text !== undefined &&
    call === undefined &&
    part.inlineData === undefined &&
    part.fileData === undefined &&
    part.executableCode === undefined &&
    part.codeExecutionResult === undefined &&
    part.functionResponse === undefined
  ) {
    return decodeText(state, part, part.text, out);
  }
  const closed = close(state.open);
  out.push(...closed);
  let next: GenerativeDecodeState = update(state, { open: undefined });
  const index = next.nextIndex;
  next = update(next, { nextIndex: index + 1 });
  if (call !== undefined) {
    const ordinal = next.ordinal;
    const id = call.id ?? syntheticId(options, next.seed, ordinal);
    if (call.id === undefined)
      found.push(
        loss(
          at(source, "functionCall", "id"),
          "synthesized",
          `The function call has no id; "${id}" was derived from the input.`,
        ),
      );
    next = update(next, { ordinal: ordinal + 1 });
    out.push({
      type: "tool-call-start",
      index,
      id,
      name: call.name ?? "",
      ...(call.args === undefined && call.willContinue !== true ? { extra: NO_ARGS } : {}),
      ...(part.thoughtSignature === undefined
        ? {}
        : { signature: { origin: "generative", value: part.thoughtSignature } }),
    });
    if (call.willContinue === true && call.args === undefined) return { ...next, call: { index, args: {} } };
    out.push({ type: "tool-call-delta", index, argumentsText: JSON.stringify(call.args ?? {}) });
    out.push({ type: "tool-call-end", index });
    return next;
  }
  const decoded = decodePart(part, source, "assistant", { seed: next.seed, ordinal: 0 }, options, found);
  if (decoded.type === "media") out.push({ type: "media", index, part: decoded });
  else if (decoded.type === "opaque") out.push({ type: "opaque", index, part: decoded });
  return next;
}

/** Text and thoughts continue the open block of their kind; a signature ends its block (research X7). */
function decodeText(
  state: GenerativeDecodeState,
  part: generative.Part,
  text: string,
  out: common.StreamPart[],
): GenerativeDecodeState {
  const kind = part.thought === true ? "reasoning" : "text";
  const signature = part.thoughtSignature;
  let open = state.open;
  let nextIndex = state.nextIndex;
  if (text === "" && signature === undefined) return state;
  const attachOnly = text === "" && open?.kind === kind;
  if (open?.kind !== kind) {
    out.push(...close(open));
    open = { kind, index: nextIndex };
    nextIndex += 1;
    out.push(
      kind === "text"
        ? { type: "text-start", index: open.index }
        : { type: "reasoning-start", index: open.index, origin: "generative" },
    );
  }
  if (!attachOnly && text !== "") {
    out.push(
      kind === "text"
        ? { type: "text-delta", index: open.index, text }
        : { type: "reasoning-delta", index: open.index, text },
    );
  }
  if (signature === undefined)
    return open === state.open && nextIndex === state.nextIndex ? state : update(state, { open, nextIndex });
  out.push(
    kind === "text"
      ? { type: "block-signature", index: open.index, signature: { origin: "generative", value: signature } }
      : { type: "reasoning-signature", index: open.index, signature },
  );
  out.push(...close(open));
  return update(state, { open: undefined, nextIndex });
}

/** Whether two `usageMetadata` objects hold the same flat figures (nested details are never compared). */
function sameFigures(before: generative.UsageMetadata | undefined, after: generative.UsageMetadata): boolean {
  if (before === undefined) return false;
  if (before === after) return true;
  // `for…in` rather than Object.keys: this runs on every chunk of a stream that repeats its usage.
  let count = 0;
  for (const key in after) {
    const value = (after as Record<string, unknown>)[key];
    if (typeof value === "object" && value !== null) return false;
    if (!Object.hasOwn(before, key) || (before as Record<string, unknown>)[key] !== value) return false;
    count++;
  }
  for (const _ in before) count--;
  return count === 0;
}

/** A plain text part (no call, media, code or response beside its text), as `decodeStreamPart` tells it. */
function isPlainText(part: generative.Part): boolean {
  return (
    part.text !== undefined &&
    part.functionCall === undefined &&
    part.inlineData === undefined &&
    part.fileData === undefined &&
    part.executableCode === undefined &&
    part.codeExecutionResult === undefined &&
    part.functionResponse === undefined
  );
}

/**
 * The common chunk: one candidate whose only part continues the open text or thought block, with the
 * same candidate fields, content shape, finish reason and usage figures as before. The state stays the
 * same object; a `usage` part (the same object as before) and the text go out. `undefined` for any other
 * chunk (the general path in `decodeChunk` handles it).
 */
function continuedText(
  state: GenerativeDecodeState,
  chunk: generative.Response,
): Step<GenerativeDecodeState, common.StreamPart> | undefined {
  const open = state.open;
  if (!state.started || open === undefined || state.call !== undefined) return undefined;
  if (typeof chunk !== "object" || chunk === null) return undefined;
  const candidates = chunk.candidates;
  if (!Array.isArray(candidates) || candidates.length !== 1) return undefined;
  const candidate = candidates[0] as generative.Candidate;
  if (typeof candidate !== "object" || candidate === null) return undefined;
  for (const key in candidate) {
    if (key !== "content" && key !== "finishReason" && key !== "index") return undefined;
  }
  if (candidate.index !== undefined && (candidate.index !== 0 || !state.hasIndex)) return undefined;
  const reason = candidate.finishReason;
  if (reason !== undefined && reason !== "" && reason !== state.finish) return undefined;
  const content = candidate.content;
  if (typeof content !== "object" || content === null || !state.hasParts) return undefined;
  const shape = state.content;
  if (shape === undefined) return undefined;
  for (const key in content) {
    if (key === "parts") continue;
    if (!Object.hasOwn(shape, key) || shape[key] !== (content as Record<string, unknown>)[key])
      return undefined;
  }
  const parts = content.parts;
  if (!Array.isArray(parts) || parts.length !== 1) return undefined;
  const part = parts[0] as generative.Part;
  if (typeof part !== "object" || part === null || !isPlainText(part)) return undefined;
  const text = part.text;
  if (typeof text !== "string" || part.thoughtSignature !== undefined) return undefined;
  if ((part.thought === true ? "reasoning" : "text") !== open.kind) return undefined;
  const raw = chunk.usageMetadata;
  if (raw !== undefined && !sameFigures(state.usageRaw, raw)) return undefined;
  const out: common.StreamPart[] = [];
  if (raw !== undefined && state.usage !== undefined) out.push({ type: "usage", usage: state.usage });
  if (text !== "")
    out.push(
      open.kind === "text"
        ? { type: "text-delta", index: open.index, text }
        : { type: "reasoning-delta", index: open.index, text },
    );
  return { state, out };
}
