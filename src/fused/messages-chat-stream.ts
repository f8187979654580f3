/**
 * A fused messages → chat stream path for the most frequent events: a `text_delta`, `thinking_delta` or
 * `input_json_delta` continuing the block whose previous delta of the same kind the hub has just translated. It knows two
 * wires, so it lives outside both protocol folders; the hub (the messages decoder, the chat encoder)
 * stays the specification and translates every other event, mid-stream, with its state untouched by
 * the events this path took.
 *
 * Why skipping the hub is exact. The messages decoder turns a non-empty `text_delta` at an open text
 * block into one `text-delta` part, and a non-empty `input_json_delta` at an open tool block into one
 * `tool-call-delta` part; neither changes its state (the first argument piece marks the block as having
 * arguments, once). Once started and not closed, the chat encoder turns a `text-delta` into one chunk
 * `{…envelope, choices: [{index: 0, delta: {content}, finish_reason: null}]}`, and a `tool-call-delta`
 * of a call it has numbered into one chunk whose delta is `{tool_calls: [{index, function: {arguments}}]}`
 * (`index`: that number); neither changes its state, and the envelope is fixed when it starts. A
 * `thinking_delta` at an open thinking block is one `reasoning-delta` part, the decoder's state kept;
 * the chat encoder's chunk for it depends on the dialect (and on its state, where the dialect numbers
 * reasoning entries), so this path takes one only after the hub kept both states for the piece before
 * it and made a chunk whose delta is the one field `reasoning_content` or `reasoning`. No loss
 * is reported on either side. Before it has started the encoder sends its role chunk too, and once
 * closed it sends nothing: so when the hub has just translated such a delta at index `i` into exactly
 * one chunk of that shape, the next delta of the same kind at the same `i` becomes the same chunk with
 * its own text, both states still unchanged. Anything else — another event, index or delta type, an
 * empty or non-string text, a hub result of another shape — clears the memo and goes to the hub.
 * test/fused/streams.test.ts checks it against the hub.
 */
import { isRecord, keysExactly } from "./chat-stream-run";
import type { FusedStream } from "./index";
import { type Kind, pieceOf } from "./messages-stream-run";

type Chunk = Record<string, unknown> & { choices?: unknown };

const CHOICE_KEYS = ["index", "delta", "finish_reason"];
const CONTENT_KEYS = ["content"];
/** The delta of a reasoning piece, by dialect (one field: a dialect that adds entries is not taken). */
const REASONING_CONTENT_KEYS = ["reasoning_content"];
const REASONING_KEYS = ["reasoning"];
const CALLS_KEYS = ["tool_calls"];
const CALL_KEYS = ["index", "function"];
const ARGUMENTS_KEYS = ["arguments"];
const PLAIN_KEYS = ["id", "object", "created", "model", "choices"];

/** `template` is exactly the envelope `{id, object, created, model, choices}` (no kept chat fields). */
export const isPlainChunk = (template: Chunk): boolean => keysExactly(template, PLAIN_KEYS);

/**
 * The hub's chunk `template` with other `choices`: by a literal when it is plain (`isPlainChunk`), the
 * envelope's fields in their order, else by a spread that keeps the chat fields it carries.
 */
export function withChoices(template: Chunk, plain: boolean, choices: unknown[]): Chunk {
  if (plain)
    return {
      id: template.id,
      object: template.object,
      created: template.created,
      model: template.model,
      choices,
    };
  return { ...template, choices };
}

/**
 * The delta of `value` when it is the chat encoder's chunk of choice 0 for a piece of `kind` with `text`,
 * in its key order: for arguments, the call's number; for text, -1; for reasoning, -1 in
 * `reasoning_content`, -2 in `reasoning`; `undefined` for any other value.
 */
export function chunkOrdinal(value: unknown, kind: Kind, text: string): number | undefined {
  if (!isRecord(value)) return undefined;
  const choices = value.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice: unknown = choices[0];
  if (!isRecord(choice) || !keysExactly(choice, CHOICE_KEYS)) return undefined;
  if (choice.index !== 0 || choice.finish_reason !== null) return undefined;
  const delta = choice.delta;
  if (!isRecord(delta)) return undefined;
  if (kind === "text_delta")
    return keysExactly(delta, CONTENT_KEYS) && delta.content === text ? -1 : undefined;
  if (kind === "thinking_delta") {
    if (keysExactly(delta, REASONING_CONTENT_KEYS) && delta.reasoning_content === text) return -1;
    return keysExactly(delta, REASONING_KEYS) && delta.reasoning === text ? -2 : undefined;
  }
  const calls = delta.tool_calls;
  if (!keysExactly(delta, CALLS_KEYS) || !Array.isArray(calls) || calls.length !== 1) return undefined;
  const call: unknown = calls[0];
  if (!isRecord(call) || !keysExactly(call, CALL_KEYS) || typeof call.index !== "number") return undefined;
  const fn = call.function;
  if (!isRecord(fn) || !keysExactly(fn, ARGUMENTS_KEYS) || fn.arguments !== text) return undefined;
  return call.index;
}

/** The fused path of one stream (it remembers the hub's last delta chunk). */
export function messagesToChatStream(): FusedStream {
  /** The hub's chunk for the last event, when that was a text or argument delta. */
  let template: Chunk | undefined;
  let kind: Kind = "text_delta";
  /** The messages block index that delta continued. */
  let block = 0;
  /** The call's number in chat (arguments). */
  let ordinal = 0;
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
      const delta = event.delta as {
        type?: unknown;
        text?: unknown;
        thinking?: unknown;
        partial_json?: unknown;
      } | null;
      if (typeof delta !== "object" || delta === null || delta.type !== kind) return undefined;
      const text =
        kind === "text_delta" ? delta.text : kind === "thinking_delta" ? delta.thinking : delta.partial_json;
      if (typeof text !== "string" || text === "") return undefined;
      template = known;
      const choices = [
        {
          index: 0,
          delta:
            kind === "text_delta"
              ? { content: text }
              : kind === "thinking_delta"
                ? ordinal === -1
                  ? { reasoning_content: text }
                  : { reasoning: text }
                : { tool_calls: [{ index: ordinal, function: { arguments: text } }] },
          finish_reason: null,
        },
      ];
      return withChoices(known, plain, choices);
    },
    saw(input, result, unchanged) {
      if (result.length !== 1) return;
      const piece = pieceOf(input);
      // A reasoning piece's chunk depends on the dialect and its state: taken once the hub kept both.
      if (piece === undefined || (piece.kind === "thinking_delta" && !unchanged)) return;
      const chunk = result[0];
      const number = chunkOrdinal(chunk, piece.kind, piece.text);
      if (number === undefined) return;
      template = chunk as Chunk;
      kind = piece.kind;
      block = piece.index;
      ordinal = number;
      plain = isPlainChunk(template);
    },
  };
}
