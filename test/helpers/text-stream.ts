/** A long plain-text answer as a protocol's own stream, for tests of the most frequent events. */
import { createStreamTranslator, type Protocol } from "../../src/index";

/** The messages events of a text answer in `pieces` deltas. */
export function messagesTextEvents(pieces: readonly string[]): unknown[] {
  return [
    {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "m",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ...pieces.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: 9 },
    },
    { type: "message_stop" },
  ];
}

/** A text answer of `count` pieces as `protocol`'s stream (translated from messages, or messages itself). */
export function textStream(protocol: Protocol, count: number): unknown[] {
  const pieces = Array.from({ length: count }, (_, index) => `piece ${index} "é"\n`);
  const events = messagesTextEvents(pieces);
  if (protocol === "messages") return events;
  const translator = createStreamTranslator("messages", protocol, { model: "m", idPrefix: "gp", created: 1 });
  return [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
}
