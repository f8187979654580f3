/**
 * A fused responses → messages stream path for the most frequent event: a `response.output_text.delta`
 * continuing the text the hub has just translated into one `text_delta` event, both of its states
 * unchanged. It knows two wires, so it lives outside both protocol folders; the hub (the responses
 * decoder, the messages encoder) stays the specification and translates every other event,
 * mid-stream. Why it is exact: responses-stream-run.ts; the messages encoder's delta event for a block
 * it continues is `{type, index, delta: {type, text}}` with the block's output index
 * (chat-messages-stream.ts).
 */
import { onlyDeltaEvent } from "./chat-messages-stream";
import { keysExactly } from "./chat-stream-run";
import type { FusedStream } from "./index";
import { responsesRun } from "./responses-stream-run";

const TEXT_KEYS = ["type", "text"];

/** The fused path of one stream (it remembers the last text delta the hub translated into one event). */
export function responsesToMessagesStream(): FusedStream {
  const run = responsesRun();
  let index = 0;
  return {
    next(input) {
      const text = run.next(input);
      if (text === undefined) return undefined;
      return { type: "content_block_delta", index, delta: { type: "text_delta", text } };
    },
    saw(input, result, unchanged) {
      const event = onlyDeltaEvent(result, unchanged);
      if (event === undefined) return;
      const delta = event.delta;
      if (delta.type !== "text_delta" || !keysExactly(delta, TEXT_KEYS)) return;
      if (!run.remember(input, delta.text)) return;
      index = event.index;
    },
  };
}
