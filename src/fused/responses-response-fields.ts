/**
 * What the fused response paths from responses share (responses-chat-response.ts,
 * responses-messages-response.ts): a responses response read and checked for the shape they take —
 * message items of `output_text` and `refusal` parts (other parts kept as opaque), reasoning items
 * (summary or raw reasoning text, `encrypted_content`), function and custom tool calls, and any other
 * item (the server-side tool calls) as opaque — with its status mapped to the common finish reason
 * and its usage, and what the responses decoder (src/protocols/responses/response.ts, reasoning.ts,
 * items-decode.ts, usage.ts) reports while reading it, word for word and in its order: the unknown
 * fields of the body (the request's echoed settings pass silently), of each message item, text part,
 * reasoning item and call item (their `id` and `status` silently), token logprobs, the raw reasoning
 * text beside a summary, reasoning parts it cannot read, joined reasoning parts, a failed response's
 * error, and the unknown fields of usage. Pointers are built only for those losses. A value of a type
 * the decoder reads otherwise (unvalidated input) returns `undefined`, for the hub.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { FinishReason } from "../common/model";
import { at } from "../common/pointer";
import { decodeResponsesStatus, isBlank, rawStatus } from "../protocols/responses/adapter";

type Node = Record<string, unknown>;

/** One part of the answer in output order, as the common model would hold it. */
export type ResponsesPart =
  | {
      readonly type: "text";
      readonly text: string;
      readonly item: number;
      readonly index: number;
      readonly cited: boolean;
    }
  | { readonly type: "refusal"; readonly text: string }
  | {
      readonly type: "reasoning";
      readonly text: string;
      readonly item: number;
      readonly signature: string | undefined;
    }
  | {
      readonly type: "call";
      readonly id: string;
      readonly name: string;
      /** `arguments`, or a custom call's `input`. */
      readonly text: string;
      readonly custom: boolean;
      readonly item: number;
    }
  /** An item (`index` -1) or a message's content part the common model keeps whole. */
  | { readonly type: "opaque"; readonly label: string; readonly item: number; readonly index: number };

/** A responses response as the fused paths read it. */
export type ResponsesRead = {
  readonly id: string;
  /** `undefined` for a `null` or absent model (the encoders then take `options.model`). */
  readonly model: string | undefined;
  readonly created: number | undefined;
  readonly parts: readonly ResponsesPart[];
  readonly calls: number;
  readonly refusals: number;
  readonly reasonings: number;
  /** The common finish reason, its raw value and where it came from; `undefined` while unfinished. */
  readonly finish: FinishReason | undefined;
  readonly rawFinish: string | undefined;
  readonly finishSource: string | undefined;
  readonly usage: ResponsesUsage | undefined;
  /** What decoding loses, in the decoder's order. */
  readonly losses: Loss[];
};

/** The common usage figures; `undefined` is a figure the response did not give. */
export type ResponsesUsage = {
  readonly input: number;
  readonly output: number;
  /** `total_tokens`, or `undefined` for a `null` or absent one (the encoders then add the two up). */
  readonly total: number | undefined;
  readonly cacheRead: number | undefined;
  readonly cacheWrite: number | undefined;
  readonly reasoning: number | undefined;
};

/** The nodes whose unknown fields the decoder reports, each with the keys it holds. */
const BODY = 0;
const MESSAGE = 1;
const TEXT = 2;
const REASONING = 3;
const CALL = 4;
const CUSTOM_CALL = 5;
const USAGE = 6;
const INPUT_DETAILS = 7;
const OUTPUT_DETAILS = 8;
const REFUSAL = 9;
const SUMMARY = 10;
const REASONING_TEXT = 11;
type Kind = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11;

/**
 * The top-level fields the responses decoder holds (`RESPONSE_HELD`) or passes over without a loss
 * (`ECHOED`, the request's settings and timestamps), as plain key checks; the differential test
 * checks the two lists against the decoder's.
 */
export function isHeldTop(key: string): boolean {
  switch (key) {
    case "id":
    case "object":
    case "created_at":
    case "model":
    case "output":
    case "status":
    case "error":
    case "incomplete_details":
    case "usage":
    case "instructions":
    case "tools":
    case "tool_choice":
    case "parallel_tool_calls":
    case "max_output_tokens":
    case "max_tool_calls":
    case "presence_penalty":
    case "frequency_penalty":
    case "context_management":
    case "previous_response_id":
    case "reasoning":
    case "text":
    case "temperature":
    case "top_p":
    case "top_logprobs":
    case "truncation":
    case "store":
    case "background":
    case "metadata":
    case "user":
    case "safety_identifier":
    case "prompt_cache_key":
    case "prompt_cache_retention":
    case "prompt":
    case "conversation":
    case "include":
    case "output_text":
    case "completed_at":
      return true;
    default:
      return false;
  }
}

/** Whether the decoder holds (or, for an item's `id` and `status`, passes over) `key` of a `kind` node. */
function isHeld(kind: Kind, key: string): boolean {
  switch (kind) {
    case BODY:
      return isHeldTop(key);
    case MESSAGE:
      return key === "id" || key === "type" || key === "role" || key === "status" || key === "content";
    case TEXT:
      return key === "type" || key === "text" || key === "annotations" || key === "logprobs";
    case REASONING:
      return (
        key === "type" ||
        key === "summary" ||
        key === "content" ||
        key === "encrypted_content" ||
        key === "id" ||
        key === "status"
      );
    case CALL:
      return (
        key === "type" ||
        key === "call_id" ||
        key === "name" ||
        key === "arguments" ||
        key === "id" ||
        key === "status"
      );
    case CUSTOM_CALL:
      return (
        key === "type" ||
        key === "call_id" ||
        key === "name" ||
        key === "input" ||
        key === "id" ||
        key === "status"
      );
    case USAGE:
      return (
        key === "input_tokens" ||
        key === "output_tokens" ||
        key === "total_tokens" ||
        key === "input_tokens_details" ||
        key === "output_tokens_details"
      );
    case INPUT_DETAILS:
      return key === "cached_tokens" || key === "cache_write_tokens";
    case REFUSAL:
      return key === "type" || key === "refusal";
    case SUMMARY:
    case REASONING_TEXT:
      return key === "type" || key === "text";
    default:
      return key === "reasoning_tokens";
  }
}

/** How the decoder names each node in its loss message. */
function what(kind: Kind, node: Node): string {
  switch (kind) {
    case BODY:
      return "the response";
    case MESSAGE:
      return "a message item";
    case TEXT:
      return "an output_text part";
    case REASONING:
      return "a reasoning item";
    case CALL:
    case CUSTOM_CALL:
      return `the ${node.type as string} item`;
    case REFUSAL:
      return "a refusal part";
    case SUMMARY:
      return "a summary_text part";
    case REASONING_TEXT:
      return "a reasoning_text part";
    default:
      return "`usage`";
  }
}

/** The pointer of a node: the body, an item, a message's content part, usage or one of its details. */
function base(kind: Kind, item: number, index: number): string {
  switch (kind) {
    case BODY:
      return "";
    case TEXT:
    case REFUSAL:
    case REASONING_TEXT:
      return `/output/${item}/content/${index}`;
    case SUMMARY:
      return `/output/${item}/summary/${index}`;
    case USAGE:
      return "/usage";
    case INPUT_DETAILS:
      return "/usage/input_tokens_details";
    case OUTPUT_DETAILS:
      return "/usage/output_tokens_details";
    default:
      return `/output/${item}`;
  }
}

/** Reports each own, non-blank field of `node` the decoder does not hold, as it does (`keepRest`). */
function dropRest(node: Node, kind: Kind, item: number, index: number, losses: Loss[]): void {
  for (const key in node) {
    if (isHeld(kind, key) || !Object.hasOwn(node, key) || isBlank(node[key])) continue;
    losses.push(
      loss(
        at(base(kind, item, index), key),
        "dropped",
        `\`${key}\` of ${what(kind, node)} has no equivalent in the target and was dropped.`,
      ),
    );
  }
}

/** A value a template literal turns into text without calling into it (no object's `toString`). */
const isPrimitive = (value: unknown): boolean =>
  value === null || (typeof value !== "object" && typeof value !== "function");

const isNullish = (value: unknown): value is null | undefined => value === undefined || value === null;

/** Joins the parts of one reasoning item into one text, as the decoder does (`PART_BREAK`). */
const PART_BREAK = "\n\n";

/**
 * A reasoning item's text, with what the decoder reports reading it; `undefined` for the hub. The item
 * reads `summary` when it has one or no `content`, else its `reasoning_text` parts.
 */
function reasoningText(item: Node, index: number, losses: Loss[]): string | undefined {
  const summary = item.summary;
  if (!Array.isArray(summary)) return undefined;
  const content = Array.isArray(item.content) ? (item.content as unknown[]) : undefined;
  let text = "";
  let count = 0;
  if (summary.length > 0 || content === undefined || content.length === 0) {
    for (let position = 0; position < summary.length; position++) {
      const part: unknown = summary[position];
      if (!isObject(part) || typeof part.text !== "string") return undefined;
      dropRest(part, SUMMARY, index, position, losses);
      text = count === 0 ? part.text : text + PART_BREAK + part.text;
      count++;
    }
    if (content !== undefined && content.length > 0)
      losses.push(
        loss(
          at(`/output/${index}`, "content"),
          "dropped",
          "The raw reasoning text beside the reasoning summary has no place in the target and was dropped.",
        ),
      );
    if (count > 1) losses.push(joined(index, "summary", count));
    return text;
  }
  for (let position = 0; position < content.length; position++) {
    const part = content[position];
    if (!isObject(part)) return undefined;
    const type = part.type;
    const value = part.text;
    if (type === "reasoning_text" && typeof value === "string") {
      dropRest(part, REASONING_TEXT, index, position, losses);
      text = count === 0 ? value : text + PART_BREAK + value;
      count++;
    } else if (isPrimitive(type))
      losses.push(
        loss(
          at(`/output/${index}`, "content", position),
          "dropped",
          `A ${type as string} reasoning part has no common equivalent and was dropped.`,
        ),
      );
    else return undefined;
  }
  if (count > 1) losses.push(joined(index, "content", count));
  return text;
}

const joined = (index: number, use: string, count: number): Loss =>
  loss(
    at(`/output/${index}`, use),
    "approximated",
    `The ${count} ${use} parts of the reasoning item were joined into one text, parted by blank lines.`,
  );

/** A message item's content parts onto `parts`, with what the decoder reports; `false` for the hub. */
function readMessage(item: Node, index: number, parts: ResponsesPart[], losses: Loss[]): number | false {
  dropRest(item, MESSAGE, index, 0, losses);
  const content = item.content;
  if (!Array.isArray(content)) return 0;
  let refusals = 0;
  for (let position = 0; position < content.length; position++) {
    const part: unknown = content[position];
    if (!isObject(part)) return false;
    const type = part.type;
    if (type === "output_text") {
      const text = part.text;
      if (typeof text !== "string") return false;
      dropRest(part, TEXT, index, position, losses);
      const logprobs = part.logprobs;
      if (Array.isArray(logprobs) && logprobs.length > 0)
        losses.push(
          loss(
            `/output/${index}/content/${position}/logprobs`,
            "dropped",
            "Token logprobs have no common equivalent and were dropped.",
          ),
        );
      const annotations = part.annotations;
      parts.push({
        type: "text",
        text,
        item: index,
        index: position,
        cited: Array.isArray(annotations) && annotations.length > 0,
      });
    } else if (type === "refusal") {
      const text = part.refusal;
      if (typeof text !== "string") return false;
      dropRest(part, REFUSAL, index, position, losses);
      parts.push({ type: "refusal", text });
      refusals++;
    } else if (typeof type === "string")
      parts.push({ type: "opaque", label: `${type} part`, item: index, index: position });
    else return false;
  }
  return refusals;
}

/** The usage figures, with what the decoder reports reading them; `false` for the hub. */
function readUsage(usage: Node, losses: Loss[]): ResponsesUsage | false {
  const input = usage.input_tokens;
  const output = usage.output_tokens;
  const total = usage.total_tokens;
  const inputDetails = usage.input_tokens_details;
  const outputDetails = usage.output_tokens_details;
  if (typeof input !== "number" || typeof output !== "number") return false;
  if (!isNullish(total) && typeof total !== "number") return false;
  if (!isNullish(inputDetails) && !isObject(inputDetails)) return false;
  if (!isNullish(outputDetails) && !isObject(outputDetails)) return false;
  dropRest(usage, USAGE, 0, 0, losses);
  if (!isNullish(inputDetails)) dropRest(inputDetails, INPUT_DETAILS, 0, 0, losses);
  if (!isNullish(outputDetails)) dropRest(outputDetails, OUTPUT_DETAILS, 0, 0, losses);
  const read = inputDetails?.cached_tokens;
  const write = inputDetails?.cache_write_tokens;
  const reasoning = outputDetails?.reasoning_tokens;
  return {
    input,
    output,
    total: total ?? undefined,
    cacheRead: typeof read === "number" ? read : undefined,
    cacheWrite: typeof write === "number" ? write : undefined,
    reasoning: typeof reasoning === "number" ? reasoning : undefined,
  };
}

/** A responses response read for the fused paths, or `undefined` for the hub. Never throws. */
export function readResponsesResponse(body: unknown): ResponsesRead | undefined {
  if (!isObject(body)) return undefined;
  const id = body.id;
  const model = body.model;
  const created = body.created_at;
  const output = body.output;
  const status = body.status;
  const error = body.error;
  const incomplete = body.incomplete_details;
  const usage = body.usage;
  if (typeof id !== "string" || !Array.isArray(output)) return undefined;
  if (!isNullish(model) && typeof model !== "string") return undefined;
  if (!isNullish(created) && typeof created !== "number") return undefined;
  if (status !== undefined && typeof status !== "string") return undefined;
  if (!isNullish(incomplete) && !isObject(incomplete)) return undefined;
  if (!isNullish(error) && !(isObject(error) && typeof error.message === "string")) return undefined;
  if (!isNullish(usage) && !isObject(usage)) return undefined;

  const losses: Loss[] = [];
  dropRest(body, BODY, 0, 0, losses);
  const parts: ResponsesPart[] = [];
  let calls = 0;
  let refusals = 0;
  let reasonings = 0;
  for (let index = 0; index < output.length; index++) {
    const item: unknown = output[index];
    if (!isObject(item)) return undefined;
    const type = item.type;
    switch (type) {
      case "message": {
        const count = readMessage(item, index, parts, losses);
        if (count === false) return undefined;
        refusals += count;
        break;
      }
      case "reasoning": {
        const encrypted = item.encrypted_content;
        dropRest(item, REASONING, index, 0, losses);
        const text = reasoningText(item, index, losses);
        if (text === undefined) return undefined;
        parts.push({
          type: "reasoning",
          text,
          item: index,
          signature: typeof encrypted === "string" ? encrypted : undefined,
        });
        reasonings++;
        break;
      }
      case "function_call":
      case "custom_tool_call": {
        const custom = type === "custom_tool_call";
        const callId = item.call_id;
        const name = item.name;
        const text = custom ? item.input : item.arguments;
        if (typeof callId !== "string" || typeof name !== "string" || typeof text !== "string")
          return undefined;
        dropRest(item, custom ? CUSTOM_CALL : CALL, index, 0, losses);
        parts.push({ type: "call", id: callId, name, text, custom, item: index });
        calls++;
        break;
      }
      default:
        if (typeof type !== "string") return undefined;
        parts.push({ type: "opaque", label: `${type} item`, item: index, index: -1 });
    }
  }
  const reason = incomplete?.reason;
  const finish = decodeResponsesStatus(status, reason as string | null | undefined, calls > 0);
  const rawFinish = finish === undefined ? undefined : rawStatus(status, reason as string | null | undefined);
  const finishSource =
    finish === undefined
      ? undefined
      : typeof reason === "string"
        ? "/incomplete_details/reason"
        : status === undefined
          ? ""
          : "/status";
  if (!isNullish(error))
    losses.push(
      loss(
        "/error",
        "dropped",
        `The response failed (${error.message as string}); the error has no place in a translated answer.`,
      ),
    );
  let figures: ResponsesUsage | undefined;
  if (!isNullish(usage)) {
    const read = readUsage(usage, losses);
    if (read === false) return undefined;
    figures = read;
  }
  return {
    id,
    model: model ?? undefined,
    created: created ?? undefined,
    parts,
    calls,
    refusals,
    reasonings,
    finish,
    rawFinish,
    finishSource,
    usage: figures,
    losses,
  };
}
