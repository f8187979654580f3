/**
 * generative stream chunks → common stream parts. Each chunk is a whole response;
 * text parts continue the open block, every other part is a block of its own; usage is cumulative;
 * the finish reason (which some upstreams repeat on every chunk) is emitted once, when the stream ends.
 */
import { inputSeed } from "../../common/digest";
import { rebaseError } from "../../common/error-kind";
import { isObject, type JsonObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import type { StreamReducer } from "../../common/reducer";
import { cutOff, eventPointer } from "../../common/stream-end";
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
  /** Where the finish reason first came (`/9/candidates/0/finishReason`): the finish goes out at the end. */
  readonly finishSource: string | undefined;
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
  /** The prompt was blocked (`promptFeedback.blockReason`, no candidate): the stream ends without a finish. */
  readonly blocked: boolean;
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
  finishSource: undefined,
  candidate: {},
  content: undefined,
  hasParts: false,
  hasIndex: false,
  reported: new Set(),
  usageRaw: undefined,
  usage: undefined,
  blocked: false,
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
    step(state, event, out, losses, position) {
      if (state.done) return state;
      if ("error" in event && isObject(event.error)) {
        const code = typeof event.error.code === "number" ? event.error.code : 500;
        const error = decodeGenerativeError({ status: code, body: event });
        out.push({ type: "error", error: rebaseError(error, eventPointer(position)) });
        const work = copy(state);
        work.done = true;
        return work;
      }
      const chunk = event as generative.Response;
      // The most frequent chunk continues the open text: the state stays as it is.
      if (continuedText(state, chunk, out)) return state;
      const work = copy(state);
      decodeChunk(work, chunk, options, out, losses, eventPointer(position));
      return work;
    },
    end(state, out, losses, position, failure) {
      if (state.done) return state;
      if (state.finish === undefined && !state.blocked) {
        // A finish reason (or a blocked prompt) ends a generative stream; without one it was cut off:
        // the open block stays open, and a call whose arguments were still arriving is not made whole.
        cutOff("generative", out, losses, position, failure);
        const work = copy(state);
        work.done = true;
        work.open = undefined;
        work.call = undefined;
        return work;
      }
      out.push(...close(state.open));
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
        if (reason !== undefined)
          out.push({ type: "finish", reason, rawReason: state.finish, extra, source: state.finishSource });
      }
      const work = copy(state);
      work.done = true;
      work.open = undefined;
      work.call = undefined;
      return work;
    },
  };
}

/** The draft one step changes (reducer.ts). */
type Work = common.Draft<GenerativeDecodeState>;

/** A draft of `state`, field by field: V8 runs that far faster than a spread of this size. */
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
    finishSource: state.finishSource,
    candidate: state.candidate,
    content: state.content,
    hasParts: state.hasParts,
    hasIndex: state.hasIndex,
    reported: state.reported,
    usageRaw: state.usageRaw,
    usage: state.usage,
    blocked: state.blocked,
  };
}

/** A chunk the fast path did not take; `base` is its pointer, under which every loss and source is built. */
function decodeChunk(
  work: Work,
  chunk: generative.Response,
  options: ResolvedOptions,
  out: common.StreamPart[],
  losses: Loss[],
  base: string,
): void {
  const found: Loss[] = [];
  const raw = chunk.usageMetadata;
  let usage: common.Usage | undefined;
  if (raw !== undefined) {
    const same = sameFigures(work.usageRaw, raw) ? work.usage : undefined;
    usage = same ?? decodeGenerativeUsage(raw, `${base}/usageMetadata`, found);
    if (same === undefined) {
      work.usageRaw = raw;
      work.usage = usage;
    }
  }
  if (!work.started) {
    const created = chunk.createTime === undefined ? undefined : parseTimestamp(chunk.createTime);
    // Without a response id, ids are derived from what the first chunk carries: known at once.
    const seed = chunk.responseId === undefined ? inputSeed(chunk) : undefined;
    out.push({
      type: "response-start",
      ...(chunk.responseId === undefined ? { seed } : { id: chunk.responseId }),
      ...(chunk.modelVersion === undefined ? {} : { model: chunk.modelVersion }),
      ...(created === undefined ? {} : { created }),
      ...(usage === undefined ? {} : { usage }),
      extra: responseExtra(chunk, found, base),
    });
    work.started = true;
    work.seed = callSeed(chunk.responseId, seed);
  } else if (usage !== undefined) {
    out.push({ type: "usage", usage });
  }
  const candidates = chunk.candidates ?? [];
  candidates.forEach((candidate, position) => {
    const source = at(base, "candidates", position);
    if ((candidate.index ?? position) !== 0) {
      found.push(
        loss(source, "dropped", "A stream carries one candidate; this further candidate was dropped."),
      );
      return;
    }
    decodeCandidate(work, candidate, source, options, out, found);
  });
  const blocked = chunk.promptFeedback?.blockReason;
  if (blocked !== undefined && candidates.length === 0) {
    out.push(...close(work.open));
    work.open = undefined;
    out.push({ type: "prompt-blocked", reason: blocked });
    work.blocked = true;
  }
  // Every chunk repeats the same fields: each is reported once per stream, at the first chunk that has it.
  const fresh = found.filter((entry) => !work.reported.has(entry.path.slice(base.length)));
  if (fresh.length > 0) {
    work.reported = new Set([...work.reported, ...fresh.map((entry) => entry.path.slice(base.length))]);
    for (const entry of fresh) losses.push(entry);
  }
}

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
  work: Work,
  candidate: generative.Candidate,
  source: string,
  options: ResolvedOptions,
  out: common.StreamPart[],
  found: Loss[],
): void {
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
  if (metadata !== undefined) work.candidate = { ...work.candidate, ...metadata };
  work.hasIndex = work.hasIndex || candidate.index !== undefined;
  work.hasParts = work.hasParts || content?.parts !== undefined;
  if (content !== undefined) work.content = mergeShape(work.content, content);
  if (candidate.finishReason !== undefined && candidate.finishReason !== "") {
    if (work.finish !== candidate.finishReason) work.finishSource = `${source}/finishReason`;
    work.finish = candidate.finishReason;
  }
  const parts = content?.parts;
  if (parts === undefined) return;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as generative.Part;
    if (work.call === undefined && isPlainText(part))
      decodeText(work, part, part.text as string, out, source, index);
    else decodeStreamPart(work, part, at(source, "content", "parts", index), options, out, found);
  }
}

function decodeStreamPart(
  work: Work,
  part: generative.Part,
  source: string,
  options: ResolvedOptions,
  out: common.StreamPart[],
  found: Loss[],
): void {
  const call = part.functionCall;
  const streamed = work.call;
  if (call === undefined && streamed !== undefined) {
    // Another part ends a streamed call (its arguments so far are all it gets): a target cannot reopen it.
    out.push({
      type: "tool-call-delta",
      index: streamed.index,
      argumentsText: JSON.stringify(streamed.args),
    });
    out.push({ type: "tool-call-end", index: streamed.index });
    work.call = undefined;
    decodeStreamPart(work, part, source, options, out, found);
    return;
  }
  if (call !== undefined && streamed !== undefined) {
    // Vertex streamed arguments: pieces until a piece that does not continue.
    let args = streamed.args;
    for (const piece of call.partialArgs ?? []) {
      if (typeof piece.jsonPath === "string")
        args = setPath(
          args,
          piece.jsonPath,
          partialValue(piece),
          piece.willContinue === true || "stringValue" in piece,
        );
    }
    if (call.willContinue === true) {
      work.call = { ...streamed, args };
      return;
    }
    out.push({ type: "tool-call-delta", index: streamed.index, argumentsText: JSON.stringify(args) });
    out.push({ type: "tool-call-end", index: streamed.index });
    work.call = undefined;
    return;
  }
  if (call === undefined && isPlainText(part)) {
    decodeText(work, part, part.text as string, out, source);
    return;
  }
  out.push(...close(work.open));
  work.open = undefined;
  const index = work.nextIndex;
  work.nextIndex = index + 1;
  if (call !== undefined) {
    const ordinal = work.ordinal;
    const id = call.id ?? syntheticId(options, work.seed, ordinal);
    if (call.id === undefined)
      found.push(
        loss(
          at(source, "functionCall", "id"),
          "synthesized",
          `The function call has no id; "${id}" was derived from the input.`,
        ),
      );
    work.ordinal = ordinal + 1;
    const signatureSource = at(source, "thoughtSignature");
    out.push({
      type: "tool-call-start",
      index,
      id,
      name: call.name ?? "",
      ...(call.args === undefined && call.willContinue !== true ? { extra: NO_ARGS } : {}),
      ...(part.thoughtSignature === undefined
        ? {}
        : { signature: { origin: "generative", value: part.thoughtSignature, source: signatureSource } }),
      source: at(source, "functionCall"),
    });
    if (call.willContinue === true && call.args === undefined) {
      work.call = { index, args: {} };
      return;
    }
    out.push({ type: "tool-call-delta", index, argumentsText: JSON.stringify(call.args ?? {}) });
    out.push({ type: "tool-call-end", index });
    return;
  }
  const decoded = decodePart(part, source, "assistant", { seed: work.seed, ordinal: 0 }, options, found);
  if (decoded.type === "media") out.push({ type: "media", index, part: decoded });
  else if (decoded.type === "opaque") out.push({ type: "opaque", index, part: decoded });
}

/**
 * Text and thoughts continue the open block of their kind; a signature ends its block.
 * `source` is the candidate's pointer and `index` the part's (or `source` the part's own).
 */
function decodeText(
  work: Work,
  part: generative.Part,
  text: string,
  out: common.StreamPart[],
  source: string,
  index?: number,
): void {
  const kind = part.thought === true ? "reasoning" : "text";
  const signature = part.thoughtSignature;
  if (text === "" && signature === undefined) return;
  let open = work.open;
  const attachOnly = text === "" && open?.kind === kind;
  if (open?.kind !== kind) {
    out.push(...close(open));
    open = { kind, index: work.nextIndex };
    work.nextIndex += 1;
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
  if (signature === undefined) {
    work.open = open;
    return;
  }
  const pointer = `${index === undefined ? source : at(source, "content", "parts", index)}/thoughtSignature`;
  out.push(
    kind === "text"
      ? {
          type: "block-signature",
          index: open.index,
          signature: { origin: "generative", value: signature },
          source: pointer,
        }
      : { type: "reasoning-signature", index: open.index, signature, source: pointer },
  );
  out.push(...close(open));
  work.open = undefined;
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
 * same object; a `usage` part (the same object as before) and the text go out, and `true` says so.
 * `false` for any other chunk (the general path in `decodeChunk` handles it), with nothing emitted.
 */
function continuedText(
  state: GenerativeDecodeState,
  chunk: generative.Response,
  out: common.StreamPart[],
): boolean {
  const open = state.open;
  if (!state.started || open === undefined || state.call !== undefined) return false;
  if (typeof chunk !== "object" || chunk === null) return false;
  const candidates = chunk.candidates;
  if (!Array.isArray(candidates) || candidates.length !== 1) return false;
  const candidate = candidates[0] as generative.Candidate;
  if (typeof candidate !== "object" || candidate === null) return false;
  for (const key in candidate) {
    if (key !== "content" && key !== "finishReason" && key !== "index") return false;
  }
  if (candidate.index !== undefined && (candidate.index !== 0 || !state.hasIndex)) return false;
  const reason = candidate.finishReason;
  if (reason !== undefined && reason !== "" && reason !== state.finish) return false;
  const content = candidate.content;
  if (typeof content !== "object" || content === null || !state.hasParts) return false;
  const shape = state.content;
  if (shape === undefined) return false;
  for (const key in content) {
    if (key === "parts") continue;
    if (!Object.hasOwn(shape, key) || shape[key] !== (content as Record<string, unknown>)[key]) return false;
  }
  const parts = content.parts;
  if (!Array.isArray(parts) || parts.length !== 1) return false;
  const part = parts[0] as generative.Part;
  if (typeof part !== "object" || part === null || !isPlainText(part)) return false;
  const text = part.text;
  if (typeof text !== "string" || part.thoughtSignature !== undefined) return false;
  if ((part.thought === true ? "reasoning" : "text") !== open.kind) return false;
  const raw = chunk.usageMetadata;
  if (raw !== undefined && !sameFigures(state.usageRaw, raw)) return false;
  if (raw !== undefined && state.usage !== undefined) out.push({ type: "usage", usage: state.usage });
  if (text !== "")
    out.push(
      open.kind === "text"
        ? { type: "text-delta", index: open.index, text }
        : { type: "reasoning-delta", index: open.index, text },
    );
  return true;
}
