/**
 * The messages side of the fused stream paths from messages: the piece a `content_block_delta` carries.
 * The messages decoder turns a non-empty `text_delta` at an open text block into one `text-delta`
 * part, a non-empty `thinking_delta` at an open thinking block into one `reasoning-delta` part, and a
 * non-empty `input_json_delta` at an open tool block into one `tool-call-delta` part; it reads nothing
 * else of the event, and none of them changes its state (the first argument piece marks the block as
 * having arguments, once).
 */

export type Kind = "text_delta" | "thinking_delta" | "input_json_delta";

/** A non-empty text or argument delta: its kind, block index and text; `undefined` for any other event. */
export function pieceOf(input: unknown): { kind: Kind; index: number; text: string } | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const event = input as { type?: unknown; index?: unknown; delta?: unknown };
  if (event.type !== "content_block_delta" || typeof event.index !== "number") return undefined;
  const delta = event.delta as
    | { type?: unknown; text?: unknown; thinking?: unknown; partial_json?: unknown }
    | null
    | undefined;
  if (typeof delta !== "object" || delta === null) return undefined;
  const kind = delta.type;
  const text =
    kind === "text_delta"
      ? delta.text
      : kind === "thinking_delta"
        ? delta.thinking
        : kind === "input_json_delta"
          ? delta.partial_json
          : undefined;
  return typeof text === "string" && text !== ""
    ? { kind: kind as Kind, index: event.index, text }
    : undefined;
}
