/**
 * A generative response as the hub's decoder reads it (src/protocols/generative/response.ts,
 * parts-decode.ts, usage.ts), for every fused response path from generative: the top level, each
 * candidate, each part of a candidate and `usageMetadata`, each checked for the types the hub reads
 * without failing, and each reporting the fields the hub's decoder drops, word for word and in its
 * order. A reader returns `undefined` (or `false`) for what a fused path should leave to the hub: a
 * value of the wrong type (unvalidated input). Pointers are built only for the losses reported.
 *
 * The hub reports, in this order: the body's unknown fields and `promptFeedback`'s (key order), then
 * candidate by candidate its parts' dropped fields and synthesized call ids, then the candidate's own
 * unknown fields; then `usageMetadata`'s. A path calls the readers in that order.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { type ResolvedOptions, syntheticId } from "../common/options";
import { at } from "../common/pointer";
import { callSeed } from "../protocols/generative/adapter";

/** The common finish reason of a candidate's `finishReason` (the hub's map): STOP with calls is `tool-calls`. */
export { decodeGenerativeFinishReason as commonFinishReason } from "../protocols/generative/adapter";

type Node = Record<string, unknown>;

/** The top level of a generative response: its fields as given, not yet read further. */
export type ResponseTop = {
  readonly candidates: readonly unknown[] | undefined;
  readonly usage: Node | undefined;
  readonly model: string | undefined;
  readonly id: string | undefined;
  readonly createTime: string | undefined;
  /** `promptFeedback.blockReason`: the prompt was blocked. */
  readonly blockReason: string | undefined;
};

/**
 * `body`'s top level, its unknown fields and `promptFeedback`'s fields other than `blockReason`
 * reported as the hub's `responseExtra` does; `undefined` for a value of the wrong type.
 */
export function readResponseTop(body: unknown, losses: Loss[]): ResponseTop | undefined {
  if (!isObject(body)) return undefined;
  const candidates = body.candidates;
  const usage = body.usageMetadata;
  const model = body.modelVersion;
  const id = body.responseId;
  const createTime = body.createTime;
  const feedback = body.promptFeedback;
  if (candidates !== undefined && !Array.isArray(candidates)) return undefined;
  if (usage !== undefined && !isObject(usage)) return undefined;
  if (model !== undefined && typeof model !== "string") return undefined;
  if (id !== undefined && typeof id !== "string") return undefined;
  if (createTime !== undefined && typeof createTime !== "string") return undefined;
  if (feedback !== undefined && !isObject(feedback)) return undefined;
  const blockReason = feedback?.blockReason;
  if (blockReason !== undefined && typeof blockReason !== "string") return undefined;
  for (const key in body) {
    switch (key) {
      case "candidates":
      case "usageMetadata":
      case "modelVersion":
      case "responseId":
      case "createTime":
        break;
      case "promptFeedback":
        if (feedback !== undefined && Object.hasOwn(body, key))
          for (const field in feedback)
            if (field !== "blockReason" && Object.hasOwn(feedback, field))
              losses.push(
                loss(at("/promptFeedback", field), "dropped", `promptFeedback.${field} was dropped.`),
              );
        break;
      default:
        if (Object.hasOwn(body, key))
          losses.push(
            loss(at("", key), "dropped", `\`${key}\` has no equivalent outside generative and was dropped.`),
          );
    }
  }
  return { candidates, usage, model, id, createTime, blockReason };
}

/** A candidate's fields the hub reads: its parts, finish reason and index, as given. */
export type CandidateHead = {
  readonly parts: readonly unknown[] | undefined;
  readonly finishReason: string | undefined;
  readonly index: number | undefined;
};

/** A candidate's fields the hub reads, or `undefined` for a value of the wrong type. Reports nothing. */
export function readCandidate(candidate: unknown): CandidateHead | undefined {
  if (!isObject(candidate)) return undefined;
  const content = candidate.content;
  const finishReason = candidate.finishReason;
  const index = candidate.index;
  if (content !== undefined && !isObject(content)) return undefined;
  const parts = content?.parts;
  if (parts !== undefined && !Array.isArray(parts)) return undefined;
  if (finishReason !== undefined && typeof finishReason !== "string") return undefined;
  if (index !== undefined && typeof index !== "number") return undefined;
  return { parts, finishReason, index };
}

/**
 * Reports the candidate's fields other than `content`, `finishReason` and `index` (`safetyRatings`,
 * `citationMetadata`, `groundingMetadata`, `avgLogprobs`, `finishMessage` …), as the hub's
 * `candidateExtra` does, after the candidate's parts.
 */
export function reportCandidateFields(candidate: Node, position: number, losses: Loss[]): void {
  for (const key in candidate) {
    if (key === "content" || key === "finishReason" || key === "index" || !Object.hasOwn(candidate, key))
      continue;
    losses.push(
      loss(
        at(`/candidates/${position}`, key),
        "dropped",
        `candidates[].${key} has no common equivalent and was dropped.`,
      ),
    );
  }
}

/** The pointer of part `index` of candidate `position`. */
export const partSource = (position: number, index: number): string =>
  `/candidates/${position}/content/parts/${index}`;

/**
 * What a part is, as the hub's decoder makes it: text, a thought, a function call, media (inline or
 * a file: generated images), or one the hub keeps opaque (code execution, a function response, an
 * unknown kind). A response target has no form for the last two, and drops them.
 */
export const TEXT = 0;
export const THOUGHT = 1;
export const CALL = 2;
export const MEDIA = 3;
export const OTHER = 4;
export type PartKind = typeof TEXT | typeof THOUGHT | typeof CALL | typeof MEDIA | typeof OTHER;

/**
 * What `readPart` found, written into one object per response (not one per part): the fields of
 * its kind are set, the others left as they were.
 */
export type PartRead = {
  kind: PartKind;
  /** TEXT, THOUGHT: the text. */
  text: string;
  /** TEXT, THOUGHT, CALL: the part's `thoughtSignature`. */
  signature: string | undefined;
  /** CALL: the function's name (`""` when absent, as the hub reads it), arguments and given id. */
  name: string;
  args: Node | undefined;
  id: string | undefined;
  /** MEDIA, OTHER: what the hub calls the part in its loss (`media part`, `executableCode part` …). */
  label: string;
};

/** A `PartRead` to fill. */
export const partRead = (): PartRead => ({
  kind: TEXT,
  text: "",
  signature: undefined,
  name: "",
  args: undefined,
  id: undefined,
  label: "",
});

/** The fields of a media part the hub's decoder knows. */
const isMediaKey = (key: string): boolean =>
  key === "inlineData" || key === "fileData" || key === "mediaResolution";

/** The hub's `reportExtra` loss for field `key` of the part at `position`/`index` (or of its `inner` object). */
function reportPartField(position: number, index: number, inner: string, key: string, losses: Loss[]): void {
  losses.push(
    loss(
      at(partSource(position, index) + inner, key),
      "dropped",
      `The part field \`${key}\` has no common equivalent and was dropped.`,
    ),
  );
}

/** Reports each own field of `node` (a media part, or its `inner` object) that `known` does not know. */
function reportPartFields(
  node: Node,
  known: (key: string) => boolean,
  position: number,
  index: number,
  inner: string,
  losses: Loss[],
): void {
  for (const key in node)
    if (!known(key) && Object.hasOwn(node, key)) reportPartField(position, index, inner, key, losses);
}

/**
 * Part `index` of candidate `position` (a model turn) as the hub's `decodePart` reads it, into `into`,
 * with the fields it drops reported; `false` for a value of the wrong type. A call's missing id is
 * the caller's to derive (`callHead`, `derivedCallId`), after these losses, as the hub does.
 */
export function readPart(
  part: unknown,
  position: number,
  index: number,
  into: PartRead,
  losses: Loss[],
): boolean {
  if (!isObject(part)) return false;
  // The hub's order of precedence: code and function responses, calls, media, text, anything else.
  if (part.executableCode !== undefined) return other(into, "executableCode part");
  if (part.codeExecutionResult !== undefined) return other(into, "codeExecutionResult part");
  if (part.functionResponse !== undefined) return other(into, "functionResponse part");
  const signature = part.thoughtSignature;
  if (signature !== undefined && typeof signature !== "string") return false;
  const call = part.functionCall;
  if (call !== undefined) {
    if (!isObject(call)) return false;
    const { name, args, id } = call;
    if (name !== undefined && typeof name !== "string") return false;
    if (args !== undefined && !isObject(args)) return false;
    if (id !== undefined && typeof id !== "string") return false;
    // The loops of the hot kinds are written out: a predicate passed in costs the paths a call per key.
    for (const key in part)
      if (key !== "functionCall" && key !== "thoughtSignature" && Object.hasOwn(part, key))
        reportPartField(position, index, "", key, losses);
    for (const key in call)
      if (key !== "id" && key !== "name" && key !== "args" && Object.hasOwn(call, key))
        reportPartField(position, index, "/functionCall", key, losses);
    into.kind = CALL;
    into.name = name ?? "";
    into.args = args;
    into.id = id;
    into.signature = signature;
    return true;
  }
  if (part.inlineData !== undefined || part.fileData !== undefined)
    return readMedia(part, position, index, into, losses);
  const text = part.text;
  if (text !== undefined) {
    if (typeof text !== "string") return false;
    for (const key in part)
      if (key !== "text" && key !== "thought" && key !== "thoughtSignature" && Object.hasOwn(part, key))
        reportPartField(position, index, "", key, losses);
    into.kind = part.thought === true ? THOUGHT : TEXT;
    into.text = text;
    into.signature = signature;
    return true;
  }
  return other(into, "part of an unknown kind");
}

function other(into: PartRead, label: string): true {
  into.kind = OTHER;
  into.label = label;
  return true;
}

/** An `inlineData` or `fileData` part, as the hub's `decodeMedia` reads it: reported, no form in a response. */
function readMedia(part: Node, position: number, index: number, into: PartRead, losses: Loss[]): boolean {
  const inline = part.inlineData;
  const file = part.fileData;
  if (inline !== undefined) {
    if (!isObject(inline) || typeof inline.mimeType !== "string" || typeof inline.data !== "string")
      return false;
  } else if (
    !isObject(file) ||
    typeof file.fileUri !== "string" ||
    (file.mimeType !== undefined && typeof file.mimeType !== "string")
  )
    return false;
  reportPartFields(part, isMediaKey, position, index, "", losses);
  if (isObject(part.mediaResolution))
    losses.push(
      loss(
        `${partSource(position, index)}/mediaResolution`,
        "dropped",
        "A per-part mediaResolution object has no common equivalent and was dropped.",
      ),
    );
  if (inline !== undefined)
    reportPartFields(inline as Node, isInlineKey, position, index, "/inlineData", losses);
  else reportPartFields(file as Node, isFileKey, position, index, "/fileData", losses);
  into.kind = MEDIA;
  into.label = "media part";
  return true;
}

const isInlineKey = (key: string): boolean => key === "mimeType" || key === "data";
const isFileKey = (key: string): boolean => key === "mimeType" || key === "fileUri";

/**
 * The head of the ids the hub derives for calls without one (`derivedCallId` in generative-fields.ts
 * adds the call's ordinal among its candidate's calls): from the response's id, else from `digest`
 * (`inputSeed` of the body). Made once per response, when a call needs it.
 */
export const callHead = (
  options: ResolvedOptions,
  id: string | undefined,
  digest: string | undefined,
): string => syntheticId(options, callSeed(id, digest));

/** `usageMetadata`'s figures as the hub's decoder reads them into the common usage. */
export type UsageFigures = {
  /** `promptTokenCount` (cached tokens included) + `toolUsePromptTokenCount`. */
  readonly input: number;
  /** `candidatesTokenCount` + `thoughtsTokenCount`. */
  readonly output: number;
  readonly cacheRead: number | undefined;
  readonly reasoning: number | undefined;
  readonly toolUse: number | undefined;
  readonly total: number | undefined;
};

/**
 * `usageMetadata`'s figures, its other fields (`promptTokensDetails`, `serviceTier`, `trafficType` …)
 * reported as the hub's `decodeGenerativeUsage` does; `undefined` when a count is not a number.
 */
export function readUsage(usage: Node, losses: Loss[]): UsageFigures | undefined {
  const prompt = usage.promptTokenCount;
  const candidates = usage.candidatesTokenCount;
  const thoughts = usage.thoughtsTokenCount;
  const cached = usage.cachedContentTokenCount;
  const toolUse = usage.toolUsePromptTokenCount;
  const total = usage.totalTokenCount;
  if (
    !isCount(prompt) ||
    !isCount(candidates) ||
    !isCount(thoughts) ||
    !isCount(cached) ||
    !isCount(toolUse) ||
    !isCount(total)
  )
    return undefined;
  for (const key in usage) {
    switch (key) {
      case "promptTokenCount":
      case "candidatesTokenCount":
      case "thoughtsTokenCount":
      case "cachedContentTokenCount":
      case "toolUsePromptTokenCount":
      case "totalTokenCount":
        break;
      default:
        if (Object.hasOwn(usage, key))
          losses.push(
            loss(
              at("/usageMetadata", key),
              "dropped",
              `usageMetadata.${key} has no common equivalent and was dropped.`,
            ),
          );
    }
  }
  return {
    input: (prompt ?? 0) + (toolUse ?? 0),
    output: (candidates ?? 0) + (thoughts ?? 0),
    cacheRead: cached,
    reasoning: thoughts,
    toolUse,
    total,
  };
}

/** A count as the hub reads it without surprises: a number or absent. */
const isCount = (value: unknown): value is number | undefined =>
  value === undefined || typeof value === "number";
