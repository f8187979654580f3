/**
 * A fused responses → chat stream path for the most frequent event: a `response.output_text.delta`
 * continuing the text the hub has just translated into one chunk, both of its states unchanged. It
 * knows two wires, so it lives outside both protocol folders; the hub (the responses decoder, the chat
 * encoder) stays the specification and translates every other event, mid-stream. Why it is exact:
 * responses-stream-run.ts; the chat encoder's chunk for text continuing its block is
 * `{…envelope, choices: [{index: 0, delta: {content}, finish_reason: null}]}` (messages-chat-stream.ts).
 */
import type { FusedStream } from "./index";
import { chunkOrdinal, isPlainChunk, withChoices } from "./messages-chat-stream";
import { responsesRun } from "./responses-stream-run";

/** The fused path of one stream (it remembers the hub's last text chunk). */
export function responsesToChatStream(): FusedStream {
  const run = responsesRun();
  let template: Record<string, unknown> = {};
  let plain = false;
  return {
    next(input) {
      const text = run.next(input);
      if (text === undefined) return undefined;
      return withChoices(template, plain, [{ index: 0, delta: { content: text }, finish_reason: null }]);
    },
    saw(input, result, unchanged) {
      if (!unchanged || result.length !== 1) return;
      const chunk = result[0];
      const text = (input as { delta?: unknown } | null)?.delta;
      if (typeof text !== "string" || chunkOrdinal(chunk, "text_delta", text) !== -1) return;
      if (!run.remember(input, text)) return;
      template = chunk as Record<string, unknown>;
      plain = isPlainChunk(template);
    },
  };
}
