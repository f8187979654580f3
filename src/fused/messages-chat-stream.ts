/**
 * A fused messages → chat stream path for the most frequent event: a `text_delta` continuing the text
 * block whose previous delta the hub has just translated. It knows two wires, so it lives outside both
 * protocol folders; the hub (the messages decoder, the chat encoder) stays the specification and
 * translates every other event, mid-stream, with its state untouched by the events this path took.
 *
 * Why skipping the hub is exact: the hub's messages decoder turns a `text_delta` at an open text block
 * into one `text-delta` part and leaves its state as it was; the chat encoder, once started and not
 * closed, turns a `text-delta` into one chunk `{…envelope, choices: [{index: 0, delta: {content},
 * finish_reason: null}]}` and leaves its state as it was too; neither reports a loss. So when the hub
 * has translated a non-empty `text_delta` at index `i` into exactly that one chunk, the block at `i` is
 * an open text block and the encoder is started and open, and the next non-empty `text_delta` at the
 * same `i` becomes the same chunk with its own text, both states still unchanged. Anything else — another
 * event, index, delta type, an empty or non-string text, a hub result of another shape — clears the memo
 * and goes to the hub. test/fused/messages-chat-stream.test.ts checks it against the hub.
 */
import type { FusedStream } from "./index";

type Chunk = Record<string, unknown> & { choices?: unknown };

/** The text of a non-empty `text_delta` event and its block index, or `undefined`. */
function textDelta(input: unknown): { index: number; text: string } | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const event = input as { type?: unknown; index?: unknown; delta?: unknown };
  if (event.type !== "content_block_delta" || typeof event.index !== "number") return undefined;
  const delta = event.delta as { type?: unknown; text?: unknown } | null | undefined;
  if (typeof delta !== "object" || delta === null || delta.type !== "text_delta") return undefined;
  const text = delta.text;
  return typeof text === "string" && text !== "" ? { index: event.index, text } : undefined;
}

/** Whether `value` is the chat encoder's text chunk of choice 0 for `text`, in its key order. */
function textChunk(value: unknown, text: string): value is Chunk {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const choices = (value as Chunk).choices;
  if (!Array.isArray(choices) || choices.length !== 1) return false;
  const choice = choices[0] as Record<string, unknown> | null;
  if (typeof choice !== "object" || choice === null || !keysExactly(choice, CHOICE_KEYS)) return false;
  if (choice.index !== 0 || choice.finish_reason !== null) return false;
  const delta = choice.delta as Record<string, unknown> | null;
  return (
    typeof delta === "object" && delta !== null && keysExactly(delta, DELTA_KEYS) && delta.content === text
  );
}

const CHOICE_KEYS = ["index", "delta", "finish_reason"];
const DELTA_KEYS = ["content"];
const PLAIN_KEYS = ["id", "object", "created", "model", "choices"];

function keysExactly(value: object, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && own.every((key, at) => key === keys[at]);
}

/** The fused path of one stream (it remembers the hub's last text chunk). */
export function messagesToChatStream(): FusedStream {
  /** The hub's chunk for the last event when that was a text delta, and the block index it continued. */
  let template: Chunk | undefined;
  let block = 0;
  /** `template` is exactly the envelope `{id, object, created, model, choices}` (no kept chat fields). */
  let plain = false;
  return {
    next(input) {
      // Cleared until this event is taken here, or the hub has translated it (`saw`): an event the
      // hub failed on leaves no memo behind.
      const known = template;
      template = undefined;
      if (known === undefined) return undefined;
      const event = input as { type?: unknown; index?: unknown; delta?: unknown } | null;
      if (typeof event !== "object" || event === null) return undefined;
      if (event.type !== "content_block_delta" || event.index !== block) return undefined;
      const delta = event.delta as { type?: unknown; text?: unknown } | null | undefined;
      if (typeof delta !== "object" || delta === null || delta.type !== "text_delta") return undefined;
      const text = delta.text;
      if (typeof text !== "string" || text === "") return undefined;
      template = known;
      const choices = [{ index: 0, delta: { content: text }, finish_reason: null }];
      if (plain)
        return { id: known.id, object: known.object, created: known.created, model: known.model, choices };
      return { ...known, choices };
    },
    saw(input, result) {
      if (result.length !== 1) return;
      const event = textDelta(input);
      const chunk = result[0];
      if (event === undefined || !textChunk(chunk, event.text)) return;
      template = chunk;
      block = event.index;
      plain = keysExactly(chunk, PLAIN_KEYS);
    },
  };
}
