/**
 * A fused chat → messages stream path for the most frequent chunks: text, reasoning, a refusal's text
 * or a tool call's argument piece, continuing the block of the chunk before it, which the hub
 * translated into one `text_delta` (`thinking_delta`, `input_json_delta`) event leaving both of its
 * states as they were. It knows two wires, so it lives outside both protocol folders; the hub (the
 * chat decoder, the messages encoder) stays the specification and translates every other chunk,
 * mid-stream. Why it is exact: chat-stream-run.ts; the messages encoder's delta event for a block it
 * continues is `{type, index, delta: {type, text}}` with the block's output index.
 */
import { chatRun, isRecord, keysExactly } from "./chat-stream-run";
import type { FusedStream } from "./index";

const EVENT_KEYS = ["type", "index", "delta"];
const TEXT_KEYS = ["type", "text"];
const ARGUMENTS_KEYS = ["type", "partial_json"];
const THINKING_KEYS = ["type", "thinking"];

/**
 * The block index and delta of the hub's result when it is one `content_block_delta` event, in the
 * messages encoder's key order, both states unchanged; `undefined` for any other result.
 */
export function onlyDeltaEvent(
  result: readonly unknown[],
  unchanged: boolean,
): { index: number; delta: Record<string, unknown> } | undefined {
  if (!unchanged || result.length !== 1) return undefined;
  const event = result[0];
  if (!isRecord(event) || !keysExactly(event, EVENT_KEYS) || event.type !== "content_block_delta")
    return undefined;
  const delta = event.delta;
  if (!isRecord(delta) || typeof event.index !== "number") return undefined;
  return { index: event.index, delta };
}

/** The fused path of one stream (it remembers the last chunk the hub translated into one delta event). */
export function chatToMessagesStream(): FusedStream {
  const run = chatRun();
  /** The delta type of the remembered event, and the output index of its block. */
  let made = "text_delta";
  let index = 0;
  return {
    next(input) {
      const text = run.next(input);
      if (text === undefined) return undefined;
      if (made === "input_json_delta")
        return { type: "content_block_delta", index, delta: { type: made, partial_json: text } };
      if (made === "thinking_delta")
        return { type: "content_block_delta", index, delta: { type: made, thinking: text } };
      return { type: "content_block_delta", index, delta: { type: "text_delta", text } };
    },
    saw(input, result, unchanged) {
      const event = onlyDeltaEvent(result, unchanged);
      if (event === undefined) return;
      const delta = event.delta;
      const remembered =
        delta.type === "input_json_delta"
          ? keysExactly(delta, ARGUMENTS_KEYS) && run.remember(input, "arguments", delta.partial_json)
          : delta.type === "thinking_delta"
            ? keysExactly(delta, THINKING_KEYS) && run.remember(input, "reasoning", delta.thinking)
            : delta.type === "text_delta" &&
              keysExactly(delta, TEXT_KEYS) &&
              run.remember(input, "text", delta.text);
      if (!remembered) return;
      made = delta.type as string;
      index = event.index;
    },
  };
}
