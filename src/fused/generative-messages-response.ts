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
 * fields beside its content; usage details: generative-response-fields.ts reads and reports them, as
 * for the chat path), then what encoding loses (the other candidates; the first
 * one's thought signatures, thoughts first since messages puts thinking first, and dropped parts; an
 * approximated finish reason or a blocked prompt; missing usage). Pointers are built only for those
 * losses. test/fused/generative-messages-response.test.ts checks it against the hub, value and losses.
 */
import { inputSeed } from "../common/digest";
import { type Loss, loss } from "../common/loss";
import { type ResolvedOptions, syntheticId } from "../common/options";
import type { ResponseOf } from "../protocols";
import { append } from "./append";
import { derivedCallId } from "./generative-fields";
import {
  CALL,
  callHead,
  commonFinishReason,
  MEDIA,
  OTHER,
  type PartRead,
  partRead,
  partSource,
  type ResponseTop,
  readCandidate,
  readPart,
  readResponseTop,
  readUsage,
  reportCandidateFields,
  TEXT,
  type UsageFigures,
} from "./generative-response-fields";

type MessagesResponse = ResponseOf<"messages">;
type Block = MessagesResponse["content"][number];
type Usage = MessagesResponse["usage"];
type Node = Record<string, unknown>;

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

/** What the messages encoder reports for a part it has no block for: media, or one the hub keeps opaque. */
const partDropped = (source: string, into: PartRead): Loss =>
  loss(
    source,
    "dropped",
    into.kind === MEDIA
      ? "A media part cannot appear in a messages response and was dropped."
      : `A generative ${into.label} has no messages equivalent and was dropped.`,
  );

/**
 * What the hub makes of one candidate's parts: the blocks (thinking first, as the messages encoder
 * orders another provider's reasoning), the encoding losses (`late`, thoughts' first), and how many
 * calls there were. The decoding losses go straight to the response's.
 */
type Decoded = {
  readonly blocks: Block[];
  readonly late: Loss[] | undefined;
  readonly calls: number;
  /** The head of the ids of calls without one, once a call needed it (`callHead`). */
  readonly head: string | undefined;
};

/**
 * The parts of the candidate at `position` as the hub decodes (into `losses`) and then encodes them
 * (only the first candidate's blocks and late losses are kept), or `undefined` for the hub.
 */
function readParts(
  parts: readonly unknown[],
  position: number,
  top: ResponseTop,
  digest: string | undefined,
  head: string | undefined,
  options: ResolvedOptions,
  into: PartRead,
  losses: Loss[],
): Decoded | undefined {
  let thinking: Block[] | undefined;
  const rest: Block[] = [];
  let thoughtLate: Loss[] | undefined;
  let late: Loss[] | undefined;
  let calls = 0;
  for (let index = 0; index < parts.length; index++) {
    if (!readPart(parts[index], position, index, into, losses)) return undefined;
    const signed = into.signature !== undefined;
    switch (into.kind) {
      case TEXT:
        rest.push({ type: "text", text: into.text });
        if (signed) late = append(late, foreignSignature(partSource(position, index)));
        break;
      case CALL: {
        let id = into.id;
        if (id === undefined) {
          // The hub names a call without an id after the response (its id, else the body's digest).
          head ??= callHead(options, top.id, digest);
          id = derivedCallId(head, calls, `${partSource(position, index)}/functionCall/id`, losses);
        }
        calls++;
        if (signed) late = append(late, foreignSignature(partSource(position, index)));
        rest.push({ type: "tool_use", id, name: into.name, input: into.args ?? {} });
        break;
      }
      case MEDIA:
      case OTHER:
        late = append(late, partDropped(partSource(position, index), into));
        break;
      default:
        thinking = append(thinking, { type: "thinking", thinking: into.text, signature: "" });
        if (signed) thoughtLate = append(thoughtLate, foreignThoughtSignature(partSource(position, index)));
    }
  }
  const blocks = thinking === undefined ? rest : thinking.concat(rest);
  if (thoughtLate !== undefined) late = late === undefined ? thoughtLate : thoughtLate.concat(late);
  return { blocks, late, calls, head };
}

/**
 * `usageMetadata`'s figures as the hub sends them to messages: prompt and tool-use prompt tokens are
 * the input, cached ones read from cache; candidates and thoughts tokens the output.
 */
function messagesUsage(figures: UsageFigures): Usage {
  const read = figures.cacheRead ?? 0;
  const encoded: Usage = {
    input_tokens: Math.max(0, figures.input - read),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: read,
    output_tokens: figures.output,
  };
  if (figures.reasoning !== undefined) encoded.output_tokens_details = { thinking_tokens: figures.reasoning };
  return encoded;
}

/**
 * The stop reason the hub sends for a generative `finishReason` (none, or "", while streaming), as
 * its messages encoder chooses it for another protocol's reason: tool calls win over a natural stop
 * and over a call error; a reason messages has no name for is an approximated `end_turn` (its loss
 * reported); `undefined` for a reason this path does not know (the hub's). The encoder's restoring of
 * a raw reason never applies: a generative value that decodes to a known reason is upper-case,
 * messages' names are not.
 */
function stopReason(reason: string | undefined, calls: number, losses: Loss[]): string | undefined {
  switch (commonFinishReason(reason, calls > 0)) {
    case undefined:
    case "stop":
      return calls > 0 ? "tool_use" : "end_turn";
    case "tool-calls":
      return "tool_use";
    case "length":
      return "max_tokens";
    case "content-filter":
      return "refusal";
    case "error":
    case "other":
      if (calls > 0) return "tool_use";
      losses.push(
        loss(
          "/candidates/0/finishReason",
          "approximated",
          `Finish reason \`${reason}\` has no messages equivalent; \`end_turn\` was sent.`,
        ),
      );
      return "end_turn";
    default:
      return undefined;
  }
}

/** generative → messages for what the readers take, or `undefined` for the hub. Never throws. */
export function generativeToMessagesResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: MessagesResponse; losses: Loss[] } | undefined {
  const losses: Loss[] = [];
  const top = readResponseTop(body, losses);
  if (top === undefined) return undefined;
  // A response without an id: the hub derives the message id and the calls' ids from its digest.
  const digest = top.id === undefined ? inputSeed(body) : undefined;
  let head: string | undefined;

  // What decoding drops, in the hub's order: each candidate's parts' and its own (the hub decodes
  // every candidate before its encoder keeps the first), then usage's.
  const given = top.candidates;
  const count = given === undefined ? 0 : given.length;
  let into: PartRead | undefined;
  let first: Decoded | undefined;
  let firstParts = 0;
  let reason: string | undefined;
  for (let position = 0; position < count; position++) {
    const raw = (given as readonly unknown[])[position];
    const candidate = readCandidate(raw);
    if (candidate === undefined) return undefined;
    const parts = candidate.parts;
    if (parts !== undefined) {
      into ??= partRead();
      const decoded = readParts(parts, position, top, digest, head, options, into, losses);
      if (decoded === undefined) return undefined;
      head = decoded.head;
      if (position === 0) {
        first = decoded;
        firstParts = parts.length;
      }
    }
    if (position === 0) reason = candidate.finishReason;
    reportCandidateFields(raw as Node, position, losses);
  }
  let usage: Usage | undefined;
  if (top.usage !== undefined) {
    const figures = readUsage(top.usage, losses);
    if (figures === undefined) return undefined;
    usage = messagesUsage(figures);
  }

  // What encoding loses: the other candidates, the first's signatures and dropped parts, then the
  // stop reason, then missing usage.
  for (let position = 1; position < count; position++)
    losses.push(
      loss(
        `/candidates/${position}`,
        "dropped",
        "The messages protocol returns one candidate; this one was dropped.",
      ),
    );
  const late = first?.late;
  if (late !== undefined) for (const entry of late) losses.push(entry);
  // A blocked prompt without parts is a refusal, whatever the candidate's reason.
  const blocked = top.blockReason;
  let stopValue: string | undefined;
  if (blocked !== undefined && firstParts === 0) {
    losses.push(
      loss(
        "/promptFeedback/blockReason",
        "approximated",
        `The prompt was blocked (${blocked}); it is reported as a refusal.`,
      ),
    );
    stopValue = "refusal";
  } else {
    stopValue = stopReason(reason, first?.calls ?? 0, losses);
    if (stopValue === undefined) return undefined;
  }
  if (usage === undefined)
    losses.push(loss("/usage", "synthesized", "The source reported no usage; zero usage was sent."));
  const value = {
    id: top.id ?? syntheticId(options, `msg_${digest}`),
    type: "message",
    role: "assistant",
    model: top.model ?? options.model ?? "",
    content: first?.blocks ?? [],
    stop_reason: stopValue,
    stop_sequence: null,
    usage: usage ?? { input_tokens: 0, output_tokens: 0 },
  } as MessagesResponse;
  return { value, losses };
}
