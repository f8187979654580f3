/**
 * Event streams for the stream laws, per protocol, from two sources: each protocol's hand-written stream
 * arbitrary (deltas split at odd places, cut off, ending in an error) and `replay` of a generated
 * response, so a bug in `replay` cannot hide.
 */
import fc from "fast-check";
import { type Protocol, replay } from "../../src/index";
import { chatStreamArb } from "./chat";
import { generativeStreamArb } from "./generative";
import { messagesStreamArb } from "./messages";
import {
  chatReplayableResponseArb,
  generativeReplayableResponseArb,
  messagesReplayableResponseArb,
  responsesReplayableResponseArb,
} from "./replayable";
import { responsesStreamArb } from "./responses";

/** Text cut at the given points (the pieces a stream might carry). */
function pieces(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let start = 0;
  for (const point of points) {
    out.push(text.slice(start, point));
    start = point;
  }
  out.push(text.slice(start));
  return out.filter((piece) => piece !== "");
}

const textArb = fc.string({ unit: fc.constantFrom("a", " ", "é", "😀", "\n", '"', "\\"), maxLength: 12 });
const cutsArb = fc.array(fc.nat(), { maxLength: 3 });

/**
 * A chat stream as a real upstream sends it (X1): role chunk, reasoning then text pieces, tool calls whose
 * arguments are split at odd places, a finish chunk, maybe a trailing usage chunk, `[DONE]`.
 */
export const chatGrammaticalStreamArb = fc
  .record({
    reasoning: fc.tuple(textArb, cutsArb),
    text: fc.tuple(textArb, cutsArb),
    calls: fc.array(
      fc.record({
        name: fc.stringMatching(/^[a-z]{1,4}$/),
        args: fc.dictionary(fc.stringMatching(/^[a-z]{1,3}$/), fc.oneof(fc.integer(), textArb), {
          maxKeys: 2,
        }),
        cuts: cutsArb,
      }),
      { maxLength: 2 },
    ),
    finish: fc.constantFrom("stop", "length", "tool_calls", "content_filter"),
    usage: fc.option(fc.record({ prompt_tokens: fc.nat(99), completion_tokens: fc.nat(99) }), {
      nil: undefined,
    }),
  })
  .map(({ reasoning, text, calls, finish, usage }) => {
    const head = { id: "c1", object: "chat.completion.chunk", created: 7, model: "g" };
    const chunk = (delta: object, finish_reason: string | null = null) => ({
      ...head,
      choices: [{ index: 0, delta, finish_reason }],
    });
    const events: unknown[] = [chunk({ role: "assistant", content: "" })];
    for (const piece of pieces(...reasoning)) events.push(chunk({ reasoning_content: piece }));
    for (const piece of pieces(...text)) events.push(chunk({ content: piece }));
    calls.forEach((call, index) => {
      events.push(
        chunk({
          tool_calls: [
            { index, id: `call_${index}`, type: "function", function: { name: call.name, arguments: "" } },
          ],
        }),
      );
      for (const piece of pieces(JSON.stringify(call.args), call.cuts))
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    events.push(chunk({}, calls.length > 0 ? "tool_calls" : finish));
    if (usage !== undefined)
      events.push({
        ...head,
        choices: [],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
    events.push("[DONE]");
    return events;
  });

const replayed = (protocol: Protocol, arb: fc.Arbitrary<unknown>) =>
  arb.map((body) => replay(protocol, body as never) as unknown[]);

/** Streams that follow their protocol's grammar and end normally or cut off (no error event). */
export const streamArbs: Record<Protocol, fc.Arbitrary<unknown[]>> = {
  chat: fc.oneof(chatGrammaticalStreamArb, replayed("chat", chatReplayableResponseArb)),
  messages: fc.oneof(
    messagesStreamArb.filter(
      (events) => !events.some((event) => (event as { type?: string }).type === "error"),
    ),
    replayed("messages", messagesReplayableResponseArb),
  ),
  generative: fc.oneof(
    generativeStreamArb.filter((events) => !events.some((event) => "error" in (event as object))),
    replayed("generative", generativeReplayableResponseArb),
  ),
  responses: fc.oneof(
    responsesStreamArb.filter(
      (events) => !events.some((event) => (event as { type?: string }).type === "error"),
    ),
    replayed("responses", responsesReplayableResponseArb),
  ),
};

/** Any stream the hand-written arbitraries make, errors and odd chunks included (for grammar and bytes). */
export const anyStreamArbs: Record<Protocol, fc.Arbitrary<unknown[]>> = {
  chat: fc.oneof(chatStreamArb as fc.Arbitrary<unknown[]>, streamArbs.chat),
  messages: fc.oneof(messagesStreamArb, streamArbs.messages),
  generative: fc.oneof(generativeStreamArb as fc.Arbitrary<unknown[]>, streamArbs.generative),
  responses: fc.oneof(responsesStreamArb, streamArbs.responses),
};

/**
 * The stream reached its protocol's finish (chat `finish_reason`, messages `message_delta.stop_reason`,
 * generative `finishReason` or a blocked prompt, responses `response.completed` / `incomplete`): a cut-off stream has no whole response to agree with,
 * since the target stream must still end well-formed (tested by example in test/stream/).
 */
export function complete(protocol: Protocol, events: readonly unknown[]): boolean {
  const json = JSON.stringify(events);
  if (protocol === "chat") return /"finish_reason":"[^"]+"/.test(json);
  if (protocol === "messages") return /"type":"message_delta","delta":\{"stop_reason":"[^"]+"/.test(json);
  if (protocol === "responses") return /"type":"response\.(completed|incomplete)"/.test(json);
  return /"finishReason":"[^"]+"/.test(json) || /"blockReason":"[^"]+"/.test(json);
}
