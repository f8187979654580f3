/**
 * The chat side of the fused stream paths from chat: a memo of the last chunk the hub translated into
 * one delta event carrying that chunk's text — `choices[0].delta.content` (or `.refusal`), reasoning
 * in `.reasoning_content` (or `.reasoning`), or a call's argument piece in
 * `.tool_calls[0].function.arguments` — and the test of whether the next chunk continues it.
 *
 * Why skipping the hub is exact. A reducer returns its state itself when an input changed nothing
 * (reducer.ts), and is a pure function of its state and input. When the hub translated chunk `E` into
 * exactly one event carrying `E`'s text, both states unchanged, a next chunk `E'` that differs from
 * `E` only in that text (another non-empty string) — the same keys in its choice and delta with the
 * same values, the same `usage` and `error`; for an argument piece, the same `index`, `id` and
 * `extra_content` of its call (the decoder reads nothing else of a call it continues but the arguments,
 * and reports no unknown field of a call or its `function`); the chunk's other fields the decoder
 * reads only when it starts — meets the same states, so the chat decoder makes the same decision with
 * the other text (one `text-delta`, `refusal-delta`, `reasoning-delta` or `tool-call-delta` part, its
 * state unchanged: a call with the same index and id continues the open tool block), and so does the
 * target's encoder, whose event for a delta continuing its block embeds the text and depends on
 * nothing else of it; no loss is reported. Anything else clears the memo and goes to the hub.
 * test/fused/streams.test.ts checks each path against the hub.
 */

type Record_ = Record<string, unknown>;

export const isRecord = (value: unknown): value is Record_ =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether `value`'s own keys are `keys`, in that order. */
export function keysExactly(value: object, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && own.every((key, at) => key === keys[at]);
}

/** What a run carries: text (`content`, or a refusal's), reasoning, or a call's argument pieces. */
export type RunKind = "text" | "reasoning" | "arguments";

/** The delta fields whose text a text, or a reasoning, event carries. */
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

/** The memo of one stream. */
export type ChatRun = {
  /**
   * The text of `input` when it continues the remembered chunk (the memo then stays), else
   * `undefined` (the memo is cleared until `remember`).
   */
  next(input: unknown): string | undefined;
  /**
   * Remembers `input`, which the hub translated into one event carrying `text` as a `kind` delta,
   * both states unchanged; `false` (nothing remembered) when `input` does not carry exactly that.
   */
  remember(input: unknown, kind: RunKind, text: unknown): boolean;
};

export function chatRun(): ChatRun {
  let chunk: Record_ | undefined;
  /** The memo is of an argument piece (else of text in `field`). */
  let pieces = false;
  /** The delta field whose text the memo's event carried. */
  let field = "content";
  let choice = EMPTY;
  let delta = EMPTY;
  /** What the decoder reads of an argument piece's call (`tool_calls[0]`) besides its arguments. */
  let callIndex: unknown;
  let callId: unknown;
  let callExtra: unknown;
  return {
    next(input) {
      // Cleared until this chunk is taken here or the hub has translated it (`remember`).
      const prior = chunk;
      chunk = undefined;
      if (prior === undefined || !isRecord(input)) return undefined;
      if (input.usage !== prior.usage || input.error !== prior.error) return undefined;
      const nextChoice = onlyRecord(input.choices);
      if (nextChoice === undefined || !sameBut(nextChoice, choice, "delta")) return undefined;
      const nextDelta = nextChoice.delta;
      if (!isRecord(nextDelta)) return undefined;
      let text: unknown;
      if (pieces) {
        if (!sameBut(nextDelta, delta, "tool_calls")) return undefined;
        const nextCall = onlyRecord(nextDelta.tool_calls);
        if (nextCall === undefined || nextCall.index !== callIndex || nextCall.id !== callId)
          return undefined;
        if (nextCall.extra_content !== callExtra) return undefined;
        const nextFn = nextCall.function;
        if (!isRecord(nextFn)) return undefined;
        text = nextFn.arguments;
      } else {
        if (!sameBut(nextDelta, delta, field)) return undefined;
        text = nextDelta[field];
      }
      if (typeof text !== "string" || text === "") return undefined;
      chunk = prior;
      return text;
    },
    remember(input, kind, text) {
      if (!isRecord(input) || typeof text !== "string") return false;
      const first = onlyRecord(input.choices);
      if (first === undefined) return false;
      const firstDelta = ownRecord(first, "delta");
      if (firstDelta === undefined) return false;
      if (kind === "arguments") {
        const firstCall = Object.hasOwn(firstDelta, "tool_calls")
          ? onlyRecord(firstDelta.tool_calls)
          : undefined;
        const firstFn = firstCall === undefined ? undefined : ownRecord(firstCall, "function");
        if (firstCall === undefined || firstFn === undefined || ownText(firstFn, "arguments") !== text)
          return false;
        pieces = true;
        callIndex = firstCall.index;
        callId = firstCall.id;
        callExtra = firstCall.extra_content;
      } else {
        const [one, other] = kind === "reasoning" ? REASONING_FIELDS : TEXT_FIELDS;
        const key =
          ownText(firstDelta, one) === text ? one : ownText(firstDelta, other) === text ? other : "";
        if (key === "") return false;
        pieces = false;
        field = key;
      }
      chunk = input;
      choice = shapeOf(first);
      delta = shapeOf(firstDelta);
      return true;
    },
  };
}
