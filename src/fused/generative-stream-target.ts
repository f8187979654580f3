/**
 * The generative side of the fused stream paths toward generative: the chunk the hub made for a piece
 * of text (or a thought) continuing its block — one candidate whose content has one part, `{text}` or
 * `{text, thought: true}` — kept as the template of the next piece's chunk. The generative encoder's
 * chunk for such a piece is a function of its state and the text alone (its other fields come from the
 * state: id, model, usage), so with the state unchanged the next piece's chunk is the template with
 * the other text, key for key.
 */
import { isRecord, keysExactly } from "./chat-stream-run";

type Record_ = Record<string, unknown>;

const CANDIDATE_KEYS = ["content"];
const TEXT_KEYS = ["text"];
const THOUGHT_KEYS = ["text", "thought"];

/** The hub's chunk for a piece, its candidate's content, whether the piece was a thought, and its text. */
export type GenerativePiece = {
  readonly chunk: Record_;
  readonly content: Record_;
  readonly thought: boolean;
  readonly text: unknown;
};

/** The only element of `value` when it is an array of one record, else `undefined`. */
function only(value: unknown): Record_ | undefined {
  if (!Array.isArray(value) || value.length !== 1) return undefined;
  const first: unknown = value[0];
  return isRecord(first) ? first : undefined;
}

/** The hub's one chunk in `result` when it is a piece of text or a thought, else `undefined`. */
export function generativePiece(result: readonly unknown[]): GenerativePiece | undefined {
  if (result.length !== 1) return undefined;
  const chunk = result[0];
  if (!isRecord(chunk)) return undefined;
  const candidate = only(chunk.candidates);
  if (candidate === undefined || !keysExactly(candidate, CANDIDATE_KEYS)) return undefined;
  const content = candidate.content;
  if (!isRecord(content)) return undefined;
  const part = only(content.parts);
  if (part === undefined) return undefined;
  const thought = keysExactly(part, THOUGHT_KEYS) && part.thought === true;
  if (!thought && !keysExactly(part, TEXT_KEYS)) return undefined;
  return { chunk, content, thought, text: part.text };
}

/** The chunk the hub would make for the next piece of `piece`'s block, with `text`. */
export function nextGenerativeChunk(piece: GenerativePiece, text: string): Record_ {
  const content = { ...piece.content };
  content.parts = [piece.thought ? { text, thought: true } : { text }];
  const chunk = { ...piece.chunk };
  chunk.candidates = [{ content }];
  return chunk;
}
