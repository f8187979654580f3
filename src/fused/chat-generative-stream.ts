/**
 * A fused chat → generative stream path for the most frequent chunks: text, a refusal's text or
 * reasoning continuing the block of the chunk before it, which the hub translated into one chunk of
 * one candidate whose content has one part — `{text}`, or `{text, thought: true}` — leaving both of
 * its states as they were. It knows two wires, so it lives outside both protocol folders; the hub (the
 * chat decoder, the generative encoder) stays the specification and translates every other chunk,
 * mid-stream. Why it is exact: chat-stream-run.ts; the generative encoder's chunk for text continuing
 * its block is the same chunk with the other text (its other fields come from the state: id, model,
 * usage). Argument pieces never qualify: generative sends a call whole when its block ends.
 */
import { chatRun, isRecord, keysExactly } from "./chat-stream-run";
import type { FusedStream } from "./index";

const CANDIDATE_KEYS = ["content"];
const TEXT_KEYS = ["text"];
const THOUGHT_KEYS = ["text", "thought"];

type Record_ = Record<string, unknown>;

/** The only element of `value` when it is an array of one record, else `undefined`. */
function only(value: unknown): Record_ | undefined {
  if (!Array.isArray(value) || value.length !== 1) return undefined;
  const first: unknown = value[0];
  return isRecord(first) ? first : undefined;
}

/** The fused path of one stream (it remembers the last chunk the hub translated into one text chunk). */
export function chatToGenerativeStream(): FusedStream {
  const run = chatRun();
  /** The hub's chunk for the remembered one, its candidate's content, and whether its part was a thought. */
  let template: Record_ = {};
  let content: Record_ = {};
  let thought = false;
  return {
    next(input) {
      const text = run.next(input);
      if (text === undefined) return undefined;
      const made = { ...content };
      made.parts = [thought ? { text, thought: true } : { text }];
      const event = { ...template };
      event.candidates = [{ content: made }];
      return event;
    },
    saw(input, result, unchanged) {
      if (!unchanged || result.length !== 1) return;
      const event = result[0];
      if (!isRecord(event)) return;
      const candidate = only(event.candidates);
      if (candidate === undefined || !keysExactly(candidate, CANDIDATE_KEYS)) return;
      const made = candidate.content;
      if (!isRecord(made)) return;
      const part = only(made.parts);
      if (part === undefined) return;
      const isThought = keysExactly(part, THOUGHT_KEYS) && part.thought === true;
      if (!isThought && !keysExactly(part, TEXT_KEYS)) return;
      if (!run.remember(input, isThought ? "reasoning" : "text", part.text)) return;
      template = event;
      content = made;
      thought = isThought;
    },
  };
}
