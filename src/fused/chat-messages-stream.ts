/**
 * A fused chat → messages stream path for the most frequent chunk: text continuing the block of the
 * chunk before it, which the hub translated into one `text_delta` event leaving both of its states as
 * they were. It knows two wires, so it lives outside both protocol folders; the hub (the chat decoder,
 * the messages encoder) stays the specification and translates every other chunk, mid-stream.
 *
 * Why skipping the hub is exact. A reducer returns its state itself when an input changed nothing
 * (reducer.ts), and is a pure function of its state and input. When the hub translated chunk `E` into
 * exactly one `content_block_delta` / `text_delta` carrying `E`'s `choices[0].delta.content`, both
 * states unchanged, the next chunk `E'` that differs from `E` only in that text (another non-empty
 * string) — the same keys in its choice and delta with the same values, the same `usage` and `error`;
 * the chunk's other fields the decoder reads only when it starts — meets the same states, so the chat
 * decoder makes the same decision with the other text (one `text-delta` part, its state unchanged) and
 * so does the messages encoder (one delta event at the same output index, its state unchanged); no loss
 * is reported. Anything else clears the memo and goes to the hub. test/fused/streams.test.ts checks it
 * against the hub.
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
const DELTA_KEYS = ["type", "text"];

/** The number of keys `for…in` reaches on `value`. */
function keyCount(value: object): number {
  let count = 0;
  for (const _ in value) count++;
  return count;
}

/** Whether `next` has the keys of `prior` (own there) with the same values, except `skip`. */
function sameBut(next: Record_, prior: Record_, priorCount: number, skip: string): boolean {
  let count = 0;
  for (const key in next) {
    count++;
    if (key === skip) continue;
    if (next[key] !== prior[key] || !Object.hasOwn(prior, key)) return false;
  }
  return count === priorCount;
}

/** The fused path of one stream (it remembers the last chunk the hub translated into a text delta). */
export function chatToMessagesStream(): FusedStream {
  let chunk: Record_ | undefined;
  let choice: Record_ = {};
  let choiceCount = 0;
  let delta: Record_ = {};
  let deltaCount = 0;
  /** The output index of the text block. */
  let index = 0;
  return {
    next(input) {
      // Cleared until this chunk is taken here or the hub has translated it (`saw`).
      const prior = chunk;
      chunk = undefined;
      if (prior === undefined || !isRecord(input)) return undefined;
      if (input.usage !== prior.usage || input.error !== prior.error) return undefined;
      const choices = input.choices;
      if (!Array.isArray(choices) || choices.length !== 1) return undefined;
      const nextChoice: unknown = choices[0];
      if (!isRecord(nextChoice) || !sameBut(nextChoice, choice, choiceCount, "delta")) return undefined;
      const nextDelta = nextChoice.delta;
      if (!isRecord(nextDelta) || !sameBut(nextDelta, delta, deltaCount, "content")) return undefined;
      const text = nextDelta.content;
      if (typeof text !== "string" || text === "") return undefined;
      chunk = prior;
      return { type: "content_block_delta", index, delta: { type: "text_delta", text } };
    },
    saw(input, result, unchanged) {
      if (!unchanged || result.length !== 1 || !isRecord(input)) return;
      const choices = input.choices;
      if (!Array.isArray(choices) || choices.length !== 1) return;
      const first: unknown = choices[0];
      if (!isRecord(first) || !Object.hasOwn(first, "delta") || !isRecord(first.delta)) return;
      const text = first.delta.content;
      if (typeof text !== "string" || text === "" || !Object.hasOwn(first.delta, "content")) return;
      const event = result[0];
      if (!isRecord(event) || !keysExactly(event, EVENT_KEYS) || event.type !== "content_block_delta") return;
      const made = event.delta;
      if (
        !isRecord(made) ||
        !keysExactly(made, DELTA_KEYS) ||
        made.type !== "text_delta" ||
        made.text !== text
      )
        return;
      if (typeof event.index !== "number") return;
      chunk = input;
      choice = first;
      choiceCount = keyCount(first);
      delta = first.delta;
      deltaCount = keyCount(first.delta);
      index = event.index;
    },
  };
}
