/**
 * generative response ⇄ common response. Fields without a common slot
 * are reported as dropped and kept in `extra`, so that generative → common → generative is exact.
 * @see https://ai.google.dev/api/generate-content#generatecontentresponse
 */
import { inputSeed } from "../../common/digest";
import { isObject, type JsonObject } from "../../common/json";
import { type Loss, loss, type Translated } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import { matchedStopDropped } from "../../common/stop";
import { carryInParts } from "./carrier";
import { encodeOpaque } from "./contents-encode";
import { decodeGenerativeFinishReason, encodeGenerativeFinishReason } from "./finish-reason";
import { fallbackMediaType } from "./media";
import { type CallNaming, decodePart } from "./parts-decode";
import type * as generative from "./schema";
import { decodeGenerativeUsage, encodeGenerativeUsage } from "./usage";

const RESPONSE_KEYS = new Set([
  "candidates",
  "usageMetadata",
  "modelVersion",
  "responseId",
  "createTime",
  "promptFeedback",
]);
const CANDIDATE_KEYS = new Set(["content", "finishReason", "index"]);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The seed of ids synthesized for the calls of a response without ids: its id, else the
 * digest of the body (`Response.seed`), so that calls of different responses get different ids.
 */
export function callSeed(responseId: string | undefined, seed?: string): string {
  return responseId ?? (seed === undefined ? "resp" : `resp_${seed}`);
}

/** RFC 3339 → Unix seconds, without a clock or `Date` (days-from-civil). */
export function parseTimestamp(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zone = match[7] ?? "Z";
  const offset =
    zone === "Z"
      ? 0
      : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146097 + dayOfEra - 719468;
  return days * 86400 + hour * 3600 + minute * 60 + second - offset * 60;
}

/** The top-level fields with no common slot, for `Response.extra`; each reported as dropped (under `base`). */
export function responseExtra(body: generative.Response, losses: Loss[], base = ""): common.Extra {
  const raw: JsonObject = {};
  for (const key in body) {
    if (key === "candidates" || key === "usageMetadata" || !Object.hasOwn(body, key)) continue;
    const value = (body as JsonObject)[key];
    raw[key] = value;
    if (key === "promptFeedback" && isObject(value)) {
      for (const field in value) {
        if (field !== "blockReason" && Object.hasOwn(value, field))
          losses.push(
            loss(at(`${base}/promptFeedback`, field), "dropped", `promptFeedback.${field} was dropped.`),
          );
      }
    } else if (!RESPONSE_KEYS.has(key)) {
      losses.push(
        loss(at(base, key), "dropped", `\`${key}\` has no equivalent outside generative and was dropped.`),
      );
    }
  }
  return { origin: "generative", raw: { fields: raw, hasCandidates: body.candidates !== undefined } };
}

/** The top-level fields kept in a generative `Response.extra`, to spread into an encoded response. */
export function extraFields(extra: common.Extra | undefined): JsonObject {
  return extra?.origin === "generative" && isObject(extra.raw.fields) ? extra.raw.fields : {};
}

/** The candidate fields with no common slot, for `Choice.extra`; each reported as dropped. */
export function candidateExtra(
  candidate: generative.Candidate,
  source: string,
  losses: Loss[],
): common.Extra {
  const rest: JsonObject = {};
  for (const key in candidate) {
    if (CANDIDATE_KEYS.has(key) || !Object.hasOwn(candidate, key)) continue;
    rest[key] = (candidate as JsonObject)[key];
    losses.push(
      loss(at(source, key), "dropped", `candidates[].${key} has no common equivalent and was dropped.`),
    );
  }
  const content = candidate.content;
  const raw: JsonObject = { candidate: rest };
  if (content !== undefined) {
    const shape: JsonObject = {};
    for (const key in content) {
      if (key !== "parts" && Object.hasOwn(content, key)) shape[key] = (content as JsonObject)[key];
    }
    raw.content = shape;
  }
  raw.hasParts = content?.parts !== undefined;
  raw.hasIndex = candidate.index !== undefined;
  return { origin: "generative", raw };
}

/** generative response → common response. */
export function decodeGenerativeResponse(
  body: generative.Response,
  options: ResolvedOptions,
): Translated<common.Response> {
  const losses: Loss[] = [];
  const extra = responseExtra(body, losses);
  const digest = body.responseId === undefined ? inputSeed(body) : undefined;
  const seed = callSeed(body.responseId, digest);
  const candidates = body.candidates ?? [];
  const choices: common.Choice[] = [];
  for (let position = 0; position < candidates.length; position++) {
    const candidate = candidates[position] as generative.Candidate;
    const source = `/candidates/${position}`;
    const naming: CallNaming = { seed, ordinal: 0 };
    const given = candidate.content?.parts;
    const parts: common.Part[] = [];
    if (given !== undefined) {
      const base = `${source}/content/parts/`;
      for (let index = 0; index < given.length; index++) {
        parts.push(
          decodePart(given[index] as generative.Part, base + index, "assistant", naming, options, losses),
        );
      }
    }
    const finishReason = decodeGenerativeFinishReason(candidate.finishReason, naming.ordinal > 0);
    const choice: Mutable<common.Choice> = { index: candidate.index ?? position, parts, source };
    if (finishReason !== undefined) {
      choice.finishReason = finishReason;
      choice.rawFinishReason = candidate.finishReason;
      choice.finishReasonSource = `${source}/finishReason`;
    }
    choice.extra = candidateExtra(candidate, source, losses);
    choices.push(choice);
  }
  const created = body.createTime === undefined ? undefined : parseTimestamp(body.createTime);
  const blocked = body.promptFeedback?.blockReason;
  const value: Mutable<common.Response> = { choices };
  if (body.responseId !== undefined) value.id = body.responseId;
  else value.seed = digest;
  if (body.modelVersion !== undefined) value.model = body.modelVersion;
  if (created !== undefined) value.created = created;
  if (body.usageMetadata !== undefined)
    value.usage = decodeGenerativeUsage(body.usageMetadata, "/usageMetadata", losses);
  if (blocked !== undefined) value.promptBlocked = { reason: blocked, source: "/promptFeedback/blockReason" };
  value.extra = extra;
  return { value, losses };
}

/** One common part of a response as generative parts (responses carry no tool results). */
export function encodeResponsePart(
  part: common.Part,
  naming: CallNaming,
  options: ResolvedOptions,
  losses: Loss[],
): generative.Part[] {
  const encoded = encodeOnePart(part, naming, options, losses);
  return encoded === undefined ? [] : [encoded];
}

/** One common part as at most one generative part, by its type's handler. */
function encodeOnePart(
  part: common.Part,
  naming: CallNaming,
  options: ResolvedOptions,
  losses: Loss[],
): generative.Part | undefined {
  switch (part.type) {
    case "text":
      return encodeText(part, losses);
    case "reasoning":
      return encodeReasoning(part, losses);
    case "tool-call":
      return encodeToolCall(part, naming, options, losses);
    case "refusal":
      return encodeRefusal(part, losses);
    case "media":
      return encodeMedia(part, losses);
    case "opaque":
      return encodeOpaque(part, losses);
    case "tool-result":
      losses.push(
        loss(part.source, "dropped", "A tool result has no place in a generative response and was dropped."),
      );
      return undefined;
  }
}

/** A signature of another protocol on a text or call: dropped, said. */
function foreignSignatureDropped(
  part: common.TextPart | common.ToolCallPart,
  signature: common.Signature,
): Loss {
  return loss(
    signature.source ?? part.source,
    "dropped",
    `A ${signature.origin} signature has no meaning at generative and was dropped.`,
  );
}

/** A text part: its generative thought signature kept; another protocol's signature or citations dropped. */
function encodeText(part: common.TextPart, losses: Loss[]): generative.Part {
  const signature = part.signature?.origin === "generative" ? part.signature.value : undefined;
  if (part.signature !== undefined && signature === undefined)
    losses.push(foreignSignatureDropped(part, part.signature));
  if (part.citations !== undefined && part.citations.origin !== "generative") {
    losses.push(
      loss(
        part.citations.source ?? part.source,
        "dropped",
        "Citations of another protocol have no generative form and were dropped.",
        "citations.dropped",
      ),
    );
  }
  return signature === undefined ? { text: part.text } : { text: part.text, thoughtSignature: signature };
}

/**
 * A reasoning part: a thought, with its signature when generative's own; redacted thinking is dropped
 * (and the part with it when it has no text), another protocol's signature too.
 */
function encodeReasoning(part: common.ReasoningPart, losses: Loss[]): generative.Part | undefined {
  if (part.redacted !== undefined) {
    losses.push(
      loss(
        part.source,
        "dropped",
        "Redacted thinking has no generative equivalent and was dropped.",
        "thinking.redacted.foreign",
      ),
    );
    if (part.text === "") return undefined;
  }
  const own = part.origin === "generative" ? part.signature : undefined;
  if (part.signature !== undefined && own === undefined) {
    losses.push(
      loss(
        part.signatureSource ?? part.source,
        "dropped",
        `A ${part.origin} thinking signature has no meaning at generative and was dropped.`,
        "thinking.signature.foreign",
      ),
    );
  }
  return own === undefined
    ? { text: part.text, thought: true }
    : { text: part.text, thought: true, thoughtSignature: own };
}

/**
 * A tool call: a `functionCall` with its id (unless this library made it up), its arguments (left
 * out where generative sent none) and its generative thought signature.
 */
function encodeToolCall(
  part: common.ToolCallPart,
  naming: CallNaming,
  options: ResolvedOptions,
  losses: Loss[],
): generative.Part {
  const ordinal = naming.ordinal++;
  // An id this library synthesized for a call that had none is not sent back (exact round trip).
  // Every synthesized id ends in `_<ordinal>`: a cheap test first, the exact one only then.
  const id =
    part.id === undefined ||
    (part.id.endsWith(`_${ordinal}`) && part.id === syntheticId(options, naming.seed, ordinal))
      ? undefined
      : part.id;
  const signature = part.signature?.origin === "generative" ? part.signature.value : undefined;
  if (part.signature !== undefined && signature === undefined)
    losses.push(foreignSignatureDropped(part, part.signature));
  let args = part.arguments;
  if (args === undefined) {
    args = {};
    losses.push(loss(part.source, "dropped", "The call's arguments are not a JSON object; {} was sent."));
  }
  const omitArgs =
    part.extra?.origin === "generative" && part.extra.raw.hasArgs === false && Object.keys(args).length === 0;
  const functionCall: generative.FunctionCall =
    id === undefined
      ? omitArgs
        ? { name: part.name }
        : { name: part.name, args }
      : omitArgs
        ? { id, name: part.name }
        : { id, name: part.name, args };
  return signature === undefined ? { functionCall } : { functionCall, thoughtSignature: signature };
}

/** A refusal: sent as text (the stop goes as SAFETY), approximated. */
function encodeRefusal(part: common.RefusalPart, losses: Loss[]): generative.Part {
  losses.push(
    loss(
      part.source,
      "approximated",
      "A refusal was sent as text with finishReason SAFETY.",
      "refusal.approximated",
    ),
  );
  return { text: part.text };
}

/** A media part: its data inline, or its URL as `fileData`; a provider file id (neither) is dropped. */
function encodeMedia(part: common.MediaPart, losses: Loss[]): generative.Part | undefined {
  if (part.data === undefined) {
    if (part.url === undefined) {
      losses.push(loss(part.source, "dropped", "A provider file id has no generative form and was dropped."));
      return undefined;
    }
    return {
      fileData: {
        fileUri: part.url,
        ...(part.mediaType === undefined ? {} : { mimeType: part.mediaType }),
      },
    };
  }
  return {
    inlineData: { mimeType: part.mediaType ?? fallbackMediaType(part.kind), data: part.data },
    ...(part.detail === undefined ? {} : { mediaResolution: part.detail }),
  };
}

/** The candidate a common choice becomes: its parts, finish reason and the fields kept in `extra`. */
export function encodeCandidate(
  choice: common.Choice,
  parts: generative.Part[],
  losses: Loss[],
): generative.Candidate {
  const extra = choice.extra?.origin === "generative" ? choice.extra.raw : undefined;
  const shape = extra !== undefined && isObject(extra.content) ? extra.content : undefined;
  const hasContent = extra === undefined || shape !== undefined || parts.length > 0;
  const withParts = extra === undefined || extra.hasParts === true || parts.length > 0;
  let finishReason: string | undefined;
  if (choice.finishReason !== undefined) {
    const mapped = encodeGenerativeFinishReason(choice.finishReason, choice.rawFinishReason);
    // A refusal has no generative part of its own: it goes as text, and the stop as SAFETY.
    const refused = mapped.value === "STOP" && choice.parts.some((part) => part.type === "refusal");
    finishReason = refused ? "SAFETY" : mapped.value;
    if (mapped.loss !== undefined) {
      losses.push(
        loss(
          choice.finishReasonSource ?? choice.source,
          mapped.loss,
          `The finish reason "${choice.rawFinishReason ?? choice.finishReason}" was sent as ${mapped.value}.`,
          "finish_reason.approximated",
        ),
      );
    }
  }
  if (choice.stopSequence !== undefined)
    losses.push(matchedStopDropped(choice.stopSequenceSource ?? choice.source, "generative"));
  const candidate: JsonObject = {};
  if (hasContent) {
    const content: JsonObject = shape === undefined ? { role: "model" } : { ...shape };
    if (withParts) content.parts = parts;
    candidate.content = content;
  }
  if (finishReason !== undefined) candidate.finishReason = finishReason;
  if (extra === undefined || extra.hasIndex !== false) candidate.index = choice.index;
  const kept = extra !== undefined && isObject(extra.candidate) ? extra.candidate : undefined;
  return (
    kept === undefined || isEmptyObject(kept) ? candidate : { ...candidate, ...kept }
  ) as generative.Candidate;
}

function isEmptyObject(value: JsonObject): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** common response → generative response. */
export function encodeGenerativeResponse(
  response: common.Response,
  options: ResolvedOptions,
): Translated<generative.Response> {
  const losses: Loss[] = [];
  const seed = callSeed(response.id, response.seed);
  const candidates: generative.Candidate[] = [];
  for (const choice of response.choices) {
    const current: CallNaming = { seed, ordinal: 0 };
    const parts: generative.Part[] = [];
    // Another protocol's reasoning state rides on the next call or text (carrier.ts).
    for (const part of carryInParts(choice.parts, losses)) {
      const encoded = encodeOnePart(part, current, options, losses);
      if (encoded !== undefined) parts.push(encoded);
    }
    candidates.push(encodeCandidate(choice, parts, losses));
  }
  const extra = extraFields(response.extra);
  const withoutCandidates =
    response.extra?.origin === "generative"
      ? response.extra.raw.hasCandidates === false
      : response.promptBlocked !== undefined;
  const blocked = response.promptBlocked;
  const value: JsonObject = {};
  if (!(candidates.length === 0 && withoutCandidates)) value.candidates = candidates;
  if (blocked !== undefined) value.promptFeedback = { blockReason: blocked.reason };
  if (response.usage !== undefined) value.usageMetadata = encodeGenerativeUsage(response.usage);
  if (response.model !== undefined) value.modelVersion = response.model;
  if (response.id !== undefined) value.responseId = response.id;
  return { value: (isEmptyObject(extra) ? value : { ...value, ...extra }) as generative.Response, losses };
}
