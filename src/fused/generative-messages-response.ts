/**
 * A fused generative → messages response path: straight from a generateContent response to a messages
 * response, without the common model, for what real Gemini responses carry — candidates (the first
 * kept, the others dropped as the hub drops them) whose parts are text, thoughts (`thought: true`),
 * function calls (ids given or derived), and the media (generated images), code-execution and unknown
 * parts the hub drops, thought signatures on any of them; a finish reason; safety ratings, citations,
 * logprobs and the like beside them; usage with its per-modality details; `modelVersion`,
 * `responseId`, `createTime` and `promptFeedback`. The hub (decode to the common model, encode from
 * it: src/protocols/generative/response.ts, parts-decode.ts, usage.ts and
 * src/protocols/messages/response.ts, usage.ts, finish-reason.ts) stays the specification: a body
 * this path does not handle exactly as the hub would — a value of the wrong type (unvalidated input)
 * — returns `undefined`, and the caller takes the hub.
 *
 * The losses come in the hub's order: first what decoding drops (the body's unknown fields and
 * `promptFeedback`'s; candidate by candidate, its parts' unknown fields and derived call ids, then its
 * fields beside its content; usage details), then what encoding loses (the other candidates; the first
 * one's thought signatures, thoughts first since messages puts thinking first, and dropped parts; an
 * approximated finish reason or a blocked prompt; missing usage). Pointers are built only for those
 * losses. test/fused/generative-messages-response.test.ts checks it against the hub, value and losses.
 */
import { inputSeed } from "../common/digest";
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { type ResolvedOptions, syntheticId } from "../common/options";
import { at } from "../common/pointer";
import type { ResponseOf } from "../protocols";
import { decodeGenerativeFinishReason } from "../protocols/generative/adapter";
import { derivedCallId } from "./generative-fields";

type MessagesResponse = ResponseOf<"messages">;
type Block = MessagesResponse["content"][number];
type Usage = MessagesResponse["usage"];
type Node = Record<string, unknown>;

/** `list` with `entry` at its end; the list is made on the first entry (most parts lose nothing). */
function append<T>(list: T[] | undefined, entry: T): T[] {
  if (list === undefined) return [entry];
  list.push(entry);
  return list;
}

/** A count the hub reads with `?? 0` or `!== undefined`: a number, null or absent. */
const isCount = (value: unknown): value is number | null | undefined =>
  value === undefined || value === null || typeof value === "number";

/** What the hub's response decoder reports for a top-level field it has no slot for. */
function topLevelLosses(body: Node, losses: Loss[] | undefined): Loss[] | undefined {
  for (const key in body) {
    switch (key) {
      case "candidates":
      case "usageMetadata":
      case "modelVersion":
      case "responseId":
      case "createTime":
        continue;
    }
    if (!Object.hasOwn(body, key)) continue;
    if (key === "promptFeedback") {
      const feedback = body[key];
      if (!isObject(feedback)) continue;
      for (const field in feedback) {
        if (field !== "blockReason" && Object.hasOwn(feedback, field))
          losses = append(
            losses,
            loss(at("/promptFeedback", field), "dropped", `promptFeedback.${field} was dropped.`),
          );
      }
    } else
      losses = append(
        losses,
        loss(at("", key), "dropped", `\`${key}\` has no equivalent outside generative and was dropped.`),
      );
  }
  return losses;
}

/** The hub's decoding loss for a part field it has no slot for (parts-decode.ts `reportExtra`). */
const partFieldDropped = (source: string, key: string): Loss =>
  loss(at(source, key), "dropped", `The part field \`${key}\` has no common equivalent and was dropped.`);

/** The fields of a text or thought part other than its own, as the hub reports them. */
function textPartLosses(part: Node, source: string, losses: Loss[] | undefined): Loss[] | undefined {
  for (const key in part) {
    if (key === "text" || key === "thought" || key === "thoughtSignature" || !Object.hasOwn(part, key))
      continue;
    losses = append(losses, partFieldDropped(source, key));
  }
  return losses;
}

/** The pointer of a part, built only for a loss. */
const partPath = (position: number, index: number): string =>
  `/candidates/${position}/content/parts/${index}`;

/**
 * The fields of a function-call part (at `position`, `index`), and of its call, other than their own,
 * as the hub reports them.
 */
function callPartLosses(
  part: Node,
  call: Node,
  position: number,
  index: number,
  losses: Loss[] | undefined,
): Loss[] | undefined {
  for (const key in part) {
    if (key === "functionCall" || key === "thoughtSignature" || !Object.hasOwn(part, key)) continue;
    losses = append(losses, partFieldDropped(partPath(position, index), key));
  }
  for (const key in call) {
    if (key === "id" || key === "name" || key === "args" || !Object.hasOwn(call, key)) continue;
    losses = append(losses, partFieldDropped(`${partPath(position, index)}/functionCall`, key));
  }
  return losses;
}

/** What the messages encoder reports for another provider's signature on a text or a call. */
const foreignSignature = (source: string): Loss =>
  loss(
    `${source}/thoughtSignature`,
    "dropped",
    "A thought signature is valid only at the provider that issued it and was dropped.",
  );

/** … and on a thought. */
const foreignThoughtSignature = (source: string): Loss =>
  loss(
    `${source}/thoughtSignature`,
    "dropped",
    "A reasoning signature is valid only at the provider that issued it and was dropped.",
  );

/** The label the hub's decoder gives a part it keeps opaque (and the messages encoder then drops). */
function opaqueLabel(part: Node): string | undefined {
  if (part.executableCode !== undefined) return "executableCode part";
  if (part.codeExecutionResult !== undefined) return "codeExecutionResult part";
  if (part.functionResponse !== undefined) return "functionResponse part";
  return undefined;
}

/**
 * What the hub makes of one candidate's parts: the blocks (thinking first, as the messages encoder
 * orders another provider's reasoning), the decoding losses (appended to `losses`) and the encoding
 * ones (`late`, thoughts' first), and how many calls there were.
 */
type Decoded = {
  blocks: Block[];
  losses: Loss[] | undefined;
  late: Loss[] | undefined;
  calls: number;
};

/** The seeds of synthesized ids, made once (a digest of the whole body when it has no id). */
type Seeds = { readonly responseId: string | undefined; digest: string | undefined; readonly body: Node };

function digestOf(seeds: Seeds): string {
  if (seeds.digest === undefined) seeds.digest = inputSeed(seeds.body);
  return seeds.digest;
}

/**
 * The parts of the candidate at `position` as the hub decodes and then encodes them (only the first
 * candidate's blocks and late losses are kept), or `undefined` for the hub.
 */
function readParts(
  parts: readonly unknown[],
  position: number,
  seeds: Seeds,
  options: ResolvedOptions,
  losses: Loss[] | undefined,
): Decoded | undefined {
  let thinking: Block[] | undefined;
  const rest: Block[] = [];
  let thoughtLate: Loss[] | undefined;
  let late: Loss[] | undefined;
  let calls = 0;
  let head: string | undefined;
  for (let index = 0; index < parts.length; index++) {
    const part: unknown = parts[index];
    if (!isObject(part)) return undefined;
    const label = opaqueLabel(part);
    if (label !== undefined) {
      late = append(late, opaqueDropped(partPath(position, index), label));
      continue;
    }
    const call = part.functionCall;
    if (call !== undefined) {
      if (!isObject(call)) return undefined;
      const given = call.id;
      const name = call.name ?? "";
      const args = call.args ?? {};
      if ((given !== undefined && typeof given !== "string") || typeof name !== "string" || !isObject(args))
        return undefined;
      losses = callPartLosses(part, call, position, index, losses);
      let id = given;
      if (id === undefined) {
        // The hub names a call without an id after the response (its id, else the body's digest).
        head ??= syntheticId(options, seeds.responseId ?? `resp_${digestOf(seeds)}`);
        losses ??= [];
        id = derivedCallId(head, calls, `${partPath(position, index)}/functionCall/id`, losses);
      }
      calls++;
      if (part.thoughtSignature !== undefined)
        late = append(late, foreignSignature(partPath(position, index)));
      rest.push({ type: "tool_use", id, name, input: args });
      continue;
    }
    if (part.inlineData !== undefined || part.fileData !== undefined) {
      const source = partPath(position, index);
      const read = mediaPartLosses(part, source, losses);
      if (read === false) return undefined;
      losses = read;
      late = append(
        late,
        loss(source, "dropped", "A media part cannot appear in a messages response and was dropped."),
      );
      continue;
    }
    const text = part.text;
    if (text === undefined) {
      late = append(late, opaqueDropped(partPath(position, index), "part of an unknown kind"));
      continue;
    }
    if (typeof text !== "string") return undefined;
    // Only a text part with a field beside its own needs its pointer before a loss of its signature.
    for (const key in part) {
      if (key === "text" || key === "thought" || key === "thoughtSignature") continue;
      losses = textPartLosses(part, partPath(position, index), losses);
      break;
    }
    const signed = part.thoughtSignature !== undefined;
    if (part.thought === true) {
      thinking = append(thinking, { type: "thinking", thinking: text, signature: "" });
      if (signed) thoughtLate = append(thoughtLate, foreignThoughtSignature(partPath(position, index)));
    } else {
      rest.push({ type: "text", text });
      if (signed) late = append(late, foreignSignature(partPath(position, index)));
    }
  }
  const blocks = thinking === undefined ? rest : thinking.concat(rest);
  if (thoughtLate !== undefined) late = late === undefined ? thoughtLate : thoughtLate.concat(late);
  return { blocks, losses, late, calls };
}

/** A media type the hub's decoder can read (it reads an absent one as a file): a string or none. */
const isMediaType = (value: unknown): boolean => value === undefined || typeof value === "string";

/**
 * What the hub's decoder reports for an inline or file media part (parts-decode.ts `decodeMedia`) —
 * the part's, its `inlineData`'s or `fileData`'s other fields, a `mediaResolution` object — before the
 * messages encoder drops the part; `false` for a shape it would crash on (unvalidated input).
 */
function mediaPartLosses(part: Node, source: string, losses: Loss[] | undefined): Loss[] | undefined | false {
  const inline = part.inlineData;
  const media = inline !== undefined ? inline : part.fileData;
  if (!isObject(media) || !isMediaType(media.mimeType)) return false;
  for (const key in part) {
    switch (key) {
      case "inlineData":
      case "fileData":
      case "mediaResolution":
        continue;
    }
    if (Object.hasOwn(part, key)) losses = append(losses, partFieldDropped(source, key));
  }
  if (isObject(part.mediaResolution))
    losses = append(
      losses,
      loss(
        `${source}/mediaResolution`,
        "dropped",
        "A per-part mediaResolution object has no common equivalent and was dropped.",
      ),
    );
  const field = inline !== undefined ? "inlineData" : "fileData";
  const own = inline !== undefined ? "data" : "fileUri";
  for (const key in media) {
    if (key === "mimeType" || key === own || !Object.hasOwn(media, key)) continue;
    losses = append(losses, partFieldDropped(`${source}/${field}`, key));
  }
  return losses;
}

/** What the messages encoder reports for an opaque generative part. */
const opaqueDropped = (source: string, label: string): Loss =>
  loss(source, "dropped", `A generative ${label} has no messages equivalent and was dropped.`);

/** The candidate's fields beside `content`, `finishReason` and `index`, as the hub reports them. */
function candidateLosses(candidate: Node, position: number, losses: Loss[] | undefined): Loss[] | undefined {
  for (const key in candidate) {
    switch (key) {
      case "content":
      case "finishReason":
      case "index":
        continue;
    }
    if (Object.hasOwn(candidate, key))
      losses = append(
        losses,
        loss(
          at(`/candidates/${position}`, key),
          "dropped",
          `candidates[].${key} has no common equivalent and was dropped.`,
        ),
      );
  }
  return losses;
}

/**
 * `usageMetadata` as the hub sends it to messages (prompt and tool-use prompt tokens are the input,
 * cached ones read from cache; candidates and thoughts tokens the output), or `undefined` for the hub.
 */
function messagesUsage(usage: Node): Usage | undefined {
  const prompt = usage.promptTokenCount;
  const candidates = usage.candidatesTokenCount;
  const thoughts = usage.thoughtsTokenCount;
  const cached = usage.cachedContentTokenCount;
  const toolUse = usage.toolUsePromptTokenCount;
  if (!isCount(prompt) || !isCount(candidates) || !isCount(thoughts) || !isCount(cached) || !isCount(toolUse))
    return undefined;
  const input = (prompt ?? 0) + (toolUse ?? 0);
  const read = cached ?? 0;
  const encoded: Usage = {
    input_tokens: Math.max(0, input - read - 0),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: read,
    output_tokens: (candidates ?? 0) + (thoughts ?? 0),
  };
  // An explicit null (unvalidated input) is carried as the hub carries it.
  if (thoughts !== undefined) encoded.output_tokens_details = { thinking_tokens: thoughts as number };
  return encoded;
}

/** The usage fields the hub has no slot for (per-modality details, traffic type, service tier). */
function usageLosses(usage: Node, losses: Loss[] | undefined): Loss[] | undefined {
  for (const key in usage) {
    switch (key) {
      case "promptTokenCount":
      case "candidatesTokenCount":
      case "thoughtsTokenCount":
      case "cachedContentTokenCount":
      case "toolUsePromptTokenCount":
      case "totalTokenCount":
        continue;
    }
    if (Object.hasOwn(usage, key))
      losses = append(
        losses,
        loss(
          at("/usageMetadata", key),
          "dropped",
          `usageMetadata.${key} has no common equivalent and was dropped.`,
        ),
      );
  }
  return losses;
}

/** A candidate as the hub reads it: its parts' blocks and losses, how many parts, its finish reason. */
type ReadCandidate = {
  decoded: Decoded | undefined;
  losses: Loss[] | undefined;
  parts: number;
  reason: string | undefined;
};

/**
 * The candidate at `position` as the hub decodes it — its parts' losses, then its own fields' — or
 * `undefined` for the hub (a value of the wrong type).
 */
function readCandidate(
  candidate: unknown,
  position: number,
  seeds: Seeds,
  options: ResolvedOptions,
  losses: Loss[] | undefined,
): ReadCandidate | undefined {
  if (!isObject(candidate)) return undefined;
  const content = candidate.content;
  const reason = candidate.finishReason;
  if (content !== undefined && !isObject(content)) return undefined;
  const parts = content?.parts;
  if ((parts !== undefined && !Array.isArray(parts)) || (reason !== undefined && typeof reason !== "string"))
    return undefined;
  let decoded: Decoded | undefined;
  if (parts !== undefined) {
    decoded = readParts(parts, position, seeds, options, losses);
    if (decoded === undefined) return undefined;
    losses = decoded.losses;
  }
  losses = candidateLosses(candidate, position, losses);
  return { decoded, losses, parts: parts === undefined ? 0 : parts.length, reason };
}

/**
 * The stop reason the hub sends for a generative `finishReason` (none, or "", while streaming), as
 * its messages encoder chooses it for another protocol's reason: tool calls win over a natural stop
 * and over a call error; a reason messages has no name for is an approximated `end_turn`; `undefined`
 * for a reason this path does not know (the hub's). The encoder's restoring of a raw reason never
 * applies: a generative value that decodes to a known reason is upper-case, messages' names are not.
 */
function stopReason(
  reason: string | undefined,
  calls: number,
): { value: string; approximated: boolean } | undefined {
  const decoded = decodeGenerativeFinishReason(reason, calls > 0);
  switch (decoded) {
    case undefined:
    case "stop":
      return { value: calls > 0 ? "tool_use" : "end_turn", approximated: false };
    case "tool-calls":
      return { value: "tool_use", approximated: false };
    case "length":
      return { value: "max_tokens", approximated: false };
    case "content-filter":
      return { value: "refusal", approximated: false };
    case "error":
    case "other":
      return calls > 0
        ? { value: "tool_use", approximated: false }
        : { value: "end_turn", approximated: true };
    default:
      return undefined;
  }
}

/** generative → messages for the common shapes, or `undefined` for the hub. Never throws. */
export function generativeToMessagesResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: MessagesResponse; losses: Loss[] } | undefined {
  if (!isObject(body)) return undefined;
  const candidates = body.candidates;
  const usage = body.usageMetadata;
  const modelVersion = body.modelVersion;
  const responseId = body.responseId;
  const createTime = body.createTime;
  const feedback = body.promptFeedback;
  let count = 0;
  if (candidates != null) {
    if (!Array.isArray(candidates)) return undefined;
    count = candidates.length;
  }
  if (usage !== undefined && !isObject(usage)) return undefined;
  if (modelVersion != null && typeof modelVersion !== "string") return undefined;
  if (responseId !== undefined && typeof responseId !== "string") return undefined;
  if (createTime !== undefined && typeof createTime !== "string") return undefined;
  const blocked = isObject(feedback) ? feedback.blockReason : undefined;
  if (blocked !== undefined && typeof blocked !== "string") return undefined;
  const seeds: Seeds = { responseId, digest: undefined, body };

  // What decoding drops, in the hub's order: the body's fields, each candidate's parts' and its own
  // (the hub decodes every candidate before its encoder keeps the first), usage's.
  let losses = topLevelLosses(body, undefined);
  let first: ReadCandidate | undefined;
  for (let position = 0; position < count; position++) {
    const read = readCandidate((candidates as unknown[])[position], position, seeds, options, losses);
    if (read === undefined) return undefined;
    losses = read.losses;
    if (position === 0) first = read;
  }
  let encodedUsage: Usage | undefined;
  if (usage !== undefined) {
    encodedUsage = messagesUsage(usage);
    if (encodedUsage === undefined) return undefined;
    losses = usageLosses(usage, losses);
  }

  // What encoding loses: the other candidates, the first's signatures and dropped parts, then the
  // stop reason, then missing usage.
  for (let position = 1; position < count; position++)
    losses = append(
      losses,
      loss(
        `/candidates/${position}`,
        "dropped",
        "The messages protocol returns one candidate; this one was dropped.",
      ),
    );
  const decoded = first?.decoded;
  const reason = first?.reason;
  const late = decoded?.late;
  if (late !== undefined) for (const entry of late) losses = append(losses, entry);
  const calls = decoded?.calls ?? 0;
  // A blocked prompt without parts is a refusal, whatever the candidate's reason.
  let stopValue: string;
  if (blocked !== undefined && (first === undefined || first.parts === 0)) {
    losses = append(
      losses,
      loss(
        "/promptFeedback/blockReason",
        "approximated",
        `The prompt was blocked (${blocked}); it is reported as a refusal.`,
      ),
    );
    stopValue = "refusal";
  } else {
    const chosen = stopReason(reason, calls);
    if (chosen === undefined) return undefined;
    stopValue = chosen.value;
    if (chosen.approximated)
      losses = append(
        losses,
        loss(
          "/candidates/0/finishReason",
          "approximated",
          `Finish reason \`${reason}\` has no messages equivalent; \`${stopValue}\` was sent.`,
        ),
      );
  }
  if (encodedUsage === undefined)
    losses = append(
      losses,
      loss("/usage", "synthesized", "The source reported no usage; zero usage was sent."),
    );
  const value = {
    id: responseId ?? syntheticId(options, `msg_${digestOf(seeds)}`),
    type: "message",
    role: "assistant",
    model: modelVersion ?? options.model ?? "",
    content: decoded?.blocks ?? [],
    stop_reason: stopValue,
    stop_sequence: null,
    usage: encodedUsage ?? { input_tokens: 0, output_tokens: 0 },
  } as MessagesResponse;
  return { value, losses: losses ?? [] };
}
