/**
 * The fused responses → chat response path against the hub, its specification: on every body — every
 * responses response fixture, the bench's response bodies, the toolkit's responses response arbitraries
 * (plain and biased), and a generator of the shape the fused path takes with the values at and past its
 * edges (responses-response-shapes.ts, run by responses-response-suite.ts) — under several option
 * sets (`created` and the id prefix given and not, unvalidated, strict, each chat dialect that writes
 * reasoning or usage otherwise), `translateResponse` gives the same value (same bytes) and losses as the hub, or throws the same error.
 */
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { responsesToChatResponse } from "../../src/fused/responses-chat-response";
import { isHeldTop } from "../../src/fused/responses-response-fields";
import { translateResponse } from "../../src/index";
import { ECHOED, RESPONSE_HELD } from "../../src/protocols/responses/response";
import { exampleDecodeLosses, exampleResponse } from "./responses-response-shapes";
import { responsesPathTests } from "./responses-response-suite";

const optionSets: readonly TranslateOptions[] = [
  {},
  { idPrefix: "gw", created: 1_700_000_000, model: "fallback" },
  { validate: false, chatDialect: "vllm" },
  { strict: true, chatDialect: "deepseek" },
  { created: 0, chatDialect: "openrouter" },
];

describe("fused responses → chat responses match the hub", () => {
  test("the top-level key check is the decoder's held and echoed fields, no more and no less", () => {
    for (const key of [...RESPONSE_HELD, ...ECHOED]) expect(isHeldTop(key), key).toBe(true);
    for (const key of ["service_tier", "billing", "a/b", "~0", "__proto__", "toString", "ids"])
      expect(isHeldTop(key), key).toBe(false);
  });

  responsesPathTests("chat", responsesToChatResponse, optionSets);

  test("a reasoning answer with cited text, a call and a web search takes the fused path, with the hub's losses", () => {
    expect(responsesToChatResponse(exampleResponse, resolveOptions({}))).toBeDefined();
    const result = translateResponse("responses", "chat", exampleResponse);
    expect(JSON.stringify(result.value)).toBe(
      JSON.stringify({
        id: "resp_1",
        object: "chat.completion",
        created: 1,
        model: "gpt-5-mini",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: "Looking.",
              reasoning_content: "Plan.\n\nCall.",
              tool_calls: [
                {
                  id: "call_1",
                  type: "function",
                  function: { name: "get_weather", arguments: '{"city":"Oslo"}' },
                },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: {
          prompt_tokens: 100,
          completion_tokens: 20,
          total_tokens: 120,
          prompt_tokens_details: { cached_tokens: 90 },
          completion_tokens_details: { reasoning_tokens: 12 },
        },
      }),
    );
    expect(result.losses.map((entry) => [entry.path, entry.kind, entry.message])).toEqual([
      ...exampleDecodeLosses,
      ["/output/0/encrypted_content", "dropped", "Chat cannot carry a thinking signature; it was dropped."],
      [
        "/output/1/content/0/annotations",
        "dropped",
        "Citations from the responses protocol have no chat form and were dropped.",
      ],
      ["/output/3", "dropped", "A web_search_call item has no chat response form and was dropped."],
    ]);
  });
});
