/**
 * The stream laws toward and from chat in each chat-compatible dialect (issue 13): the toolkit's laws
 * run in the default dialect; these run the same laws where a dialect changes what the stream carries.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ChatDialect } from "../../src/common/options";
import {
  accumulate,
  chat,
  createStreamTranslator,
  type Protocol,
  type TranslateOptions,
  translateResponse,
} from "../../src/index";
import { openRouterStreamArb } from "../../src/testing/arbitraries/chat";
import { resolveBias } from "../../src/testing/arbitraries/common";
import { protocolArbitraries } from "../../src/testing/arbitraries/index";
import { chatGrammar } from "../../src/testing/grammar";
import { normalize } from "../../src/testing/normalize";
import { runs } from "../helpers/tier";

const options = { model: "m", idPrefix: "gp", created: 1 };
const numRuns = runs(2000);
const plain = resolveBias(false);
const hard = resolveBias(["thinking", "tools", "unicode"]);
const streams = (protocol: Protocol) =>
  fc.oneof(protocolArbitraries[protocol].stream(plain), protocolArbitraries[protocol].stream(hard));

function translateAll(
  from: Protocol,
  to: Protocol,
  events: readonly unknown[],
  given: TranslateOptions,
): unknown[] {
  const translator = createStreamTranslator(from, to, given);
  return [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
}

const dialects: ChatDialect[] = ["openai", "compatible", "deepseek", "openrouter", "qwen", "vllm"];

describe.each(dialects)("streams toward chat in the %s dialect", (chatDialect) => {
  const given = { ...options, chatDialect };

  test.each(["messages", "generative"] as const)(
    "%s → chat: accumulating the translated stream equals translating the accumulated response",
    (from) => {
      const source = protocolArbitraries[from];
      fc.assert(
        fc.property(streams(from), (events) => {
          fc.pre(source.finished(events));
          const viaStream = accumulate("chat", translateAll(from, "chat", events, given) as never, given);
          const viaResponse = translateResponse(
            from,
            "chat",
            accumulate(from, events as never, given),
            given,
          );
          expect(normalize(viaStream)).toEqual(normalize(viaResponse.value));
        }),
        { numRuns },
      );
    },
  );

  test.each(["messages", "generative"] as const)(
    "%s → chat: every event parses with the chat event schema and the sequence follows its grammar",
    (from) => {
      fc.assert(
        fc.property(protocolArbitraries[from].rawStream(), (events) => {
          const out = translateAll(from, "chat", events, given);
          for (const event of out) expect(chat.streamEvent.safeParse(event).error?.issues ?? []).toEqual([]);
          expect(chatGrammar(out)).toEqual([]);
        }),
        { numRuns },
      );
    },
  );
});

describe("OpenRouter streams from chat, in the openrouter dialect (whose responses keep every reasoning entry)", () => {
  const given = { ...options, chatDialect: "openrouter" as const };

  test("every generated event parses with the chat event schema", () => {
    fc.assert(
      fc.property(openRouterStreamArb, (events) => {
        for (const event of events) expect(chat.streamEvent.safeParse(event).error?.issues ?? []).toEqual([]);
      }),
      { numRuns },
    );
  });

  test.each(["messages", "generative"] as const)(
    "chat → %s: accumulating the translated stream equals translating the accumulated response",
    (to) => {
      fc.assert(
        fc.property(fc.oneof(openRouterStreamArb, streams("chat")), (events) => {
          fc.pre(protocolArbitraries.chat.finished(events));
          const viaStream = accumulate(to, translateAll("chat", to, events, given) as never, given);
          const viaResponse = translateResponse(
            "chat",
            to,
            accumulate("chat", events as never, given),
            given,
          );
          expect(normalize(viaStream)).toEqual(normalize(viaResponse.value));
        }),
        { numRuns },
      );
    },
  );
});
