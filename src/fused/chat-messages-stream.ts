/**
 * A fused chat → messages stream path for the most frequent chunks: text, reasoning, a refusal's text
 * or a tool call's argument piece, continuing the block of the chunk before it, which the hub
 * translated into one `text_delta` (`thinking_delta`, `input_json_delta`) event leaving both of its
 * states as they were. It knows two wires, so it
 * lives outside both protocol folders; the hub (the chat decoder, the messages encoder) stays the
 * specification and translates every other chunk, mid-stream.
 *
 * Why skipping the hub is exact. A reducer returns its state itself when an input changed nothing
 * (reducer.ts), and is a pure function of its state and input. When the hub translated chunk `E` into
 * exactly one `content_block_delta` carrying `E`'s text — a `text_delta` of `choices[0].delta.content`
 * (or `.refusal`), a `thinking_delta` of `.reasoning_content` (or `.reasoning`), or an
 * `input_json_delta` of `choices[0].delta.tool_calls[0].function.arguments` — both states
 * unchanged, the next chunk `E'` that differs from `E` only in that text (another non-empty string) —
 * the same keys in its choice, delta (and call and function) with the same values, the same `usage`
 * and `error`; the chunk's other fields the decoder reads only when it starts — meets the same states,
 * so the chat decoder makes the same decision with the other text (one `text-delta`, `refusal-delta`,
 * `reasoning-delta` or `tool-call-delta` part, its state unchanged: the call has the same index and id, so it continues the
 * open tool block) and so does the messages encoder (one delta event at the same output index, its
 * state unchanged); no loss is reported. Anything else clears the memo and goes to the hub.
 * test/fused/streams.test.ts checks it against the hub.
 */
import type { FusedStream } from "./index";

type Record_ = Record<string, unknown>;

const isRecord = (value: unknown): value is Record_ =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function keysExactly(value: object, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && own.every((key, at) => key === keys[at]);
}

const EVENT_KEYS = ["type", "index", "delta"];
const TEXT_KEYS = ["type", "text"];
const ARGUMENTS_KEYS = ["type", "partial_json"];
const THINKING_KEYS = ["type", "thinking"];
/** The delta fields whose text a `text_delta`, or a `thinking_delta`, carries. */
const TEXT_FIELDS = ["content", "refusal"] as const;
const REASONING_FIELDS = ["reasoning_content", "reasoning"] as const;

/**
 * A record's own keys and their values, in order, taken when the hub translated it: what the next
 * chunk's record is compared with (by index: no keyed load of the remembered record per key).
 */
type Shape = { keys: string[]; values: unknown[] };

const EMPTY: Shape = { keys: [], values: [] };

function shapeOf(value: Record_): Shape {
  const keys = Object.keys(value);
  const values: unknown[] = [];
  for (const key of keys) values.push(value[key]);
  return { keys, values };
}

/**
 * Whether the keys `for…in` reaches on `next` are `prior`'s, in the same order, with the same values
 * except at `skip`. (An inherited key of `next` is one more key: no.)
 */
function sameBut(next: Record_, prior: Shape, skip: string): boolean {
  const keys = prior.keys;
  const values = prior.values;
  let at = 0;
  for (const key in next) {
    if (key !== keys[at]) return false;
    if (key !== skip && next[key] !== values[at]) return false;
    at++;
  }
  return at === keys.length;
}

/** `value[key]` when it is an own record, else `undefined`. */
function ownRecord(value: Record_, key: string): Record_ | undefined {
  const field = value[key];
  return Object.hasOwn(value, key) && isRecord(field) ? field : undefined;
}

/** The only element of `value` when it is an array of one record, else `undefined`. */
function onlyRecord(value: unknown): Record_ | undefined {
  if (!Array.isArray(value) || value.length !== 1) return undefined;
  const first: unknown = value[0];
  return isRecord(first) ? first : undefined;
}

/** A non-empty own string at `value[key]`, else `undefined`. */
function ownText(value: Record_, key: string): string | undefined {
  const text = value[key];
  return typeof text === "string" && text !== "" && Object.hasOwn(value, key) ? text : undefined;
}

/** The fused path of one stream (it remembers the last chunk the hub translated into one delta event). */
export function chatToMessagesStream(): FusedStream {
  let chunk: Record_ | undefined;
  /** The memo is of an argument piece (else of text in `field`). */
  let pieces = false;
  /** The delta field whose text the memo's event carried, and that event's delta type. */
  let field = "content";
  let thinking = false;
  let choice = EMPTY;
  let delta = EMPTY;
  /** An argument piece's call (`tool_calls[0]`) and its `function`. */
  let call = EMPTY;
  let fn = EMPTY;
  /** The output index of the block. */
  let index = 0;
  return {
    next(input) {
      // Cleared until this chunk is taken here or the hub has translated it (`saw`).
      const prior = chunk;
      chunk = undefined;
      if (prior === undefined || !isRecord(input)) return undefined;
      if (input.usage !== prior.usage || input.error !== prior.error) return undefined;
      const nextChoice = onlyRecord(input.choices);
      if (nextChoice === undefined || !sameBut(nextChoice, choice, "delta")) return undefined;
      const nextDelta = nextChoice.delta;
      if (!isRecord(nextDelta)) return undefined;
      if (pieces) {
        if (!sameBut(nextDelta, delta, "tool_calls")) return undefined;
        const nextCall = onlyRecord(nextDelta.tool_calls);
        if (nextCall === undefined || !sameBut(nextCall, call, "function")) return undefined;
        const nextFn = nextCall.function;
        if (!isRecord(nextFn) || !sameBut(nextFn, fn, "arguments")) return undefined;
        const text = nextFn.arguments;
        if (typeof text !== "string" || text === "") return undefined;
        chunk = prior;
        return {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: text },
        };
      }
      if (!sameBut(nextDelta, delta, field)) return undefined;
      const text = nextDelta[field];
      if (typeof text !== "string" || text === "") return undefined;
      chunk = prior;
      if (thinking)
        return { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: text } };
      return { type: "content_block_delta", index, delta: { type: "text_delta", text } };
    },
    saw(input, result, unchanged) {
      if (!unchanged || result.length !== 1 || !isRecord(input)) return;
      const first = onlyRecord(input.choices);
      if (first === undefined) return;
      const firstDelta = ownRecord(first, "delta");
      if (firstDelta === undefined) return;
      const event = result[0];
      if (!isRecord(event) || !keysExactly(event, EVENT_KEYS) || event.type !== "content_block_delta") return;
      const made = event.delta;
      if (!isRecord(made) || typeof event.index !== "number") return;
      if (made.type === "input_json_delta") {
        const firstCall = Object.hasOwn(firstDelta, "tool_calls")
          ? onlyRecord(firstDelta.tool_calls)
          : undefined;
        const firstFn = firstCall === undefined ? undefined : ownRecord(firstCall, "function");
        const text = firstFn === undefined ? undefined : ownText(firstFn, "arguments");
        if (firstCall === undefined || firstFn === undefined || text === undefined) return;
        if (!keysExactly(made, ARGUMENTS_KEYS) || made.partial_json !== text) return;
        pieces = true;
        call = shapeOf(firstCall);
        fn = shapeOf(firstFn);
      } else {
        // Text (`content`, or a refusal's) or reasoning (`reasoning_content`, or `reasoning`).
        const reasoning = made.type === "thinking_delta";
        if (!reasoning && made.type !== "text_delta") return;
        if (!keysExactly(made, reasoning ? THINKING_KEYS : TEXT_KEYS)) return;
        const text = reasoning ? made.thinking : made.text;
        const [one, other] = reasoning ? REASONING_FIELDS : TEXT_FIELDS;
        const key =
          ownText(firstDelta, one) === text ? one : ownText(firstDelta, other) === text ? other : "";
        if (key === "" || typeof text !== "string") return;
        pieces = false;
        field = key;
        thinking = reasoning;
      }
      chunk = input;
      choice = shapeOf(first);
      delta = shapeOf(firstDelta);
      index = event.index;
    },
  };
}
