/**
 * The fused responses → messages response path against the hub, its specification: on every body — every
 * responses response fixture, the bench's response bodies, the toolkit's responses response arbitraries
 * (plain and biased), and a generator of the shape the fused path takes with the values at and past its
 * edges (responses-response-shapes.ts, run by responses-response-suite.ts) — under several option
 * sets (the id prefix and a fallback model given and not, unvalidated, strict),
 * `translateResponse` gives the same value (same bytes) and losses as the hub, or throws the same error.
 */
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { responsesToMessagesResponse } from "../../src/fused/responses-messages-response";
import { translateResponse } from "../../src/index";
import { exampleDecodeLosses, exampleResponse } from "./responses-response-shapes";
import { responsesPathTests } from "./responses-response-suite";

const optionSets: readonly TranslateOptions[] = [
  {},
  { idPrefix: "gw", model: "fallback" },
  { validate: false },
  { strict: true },
];

describe("fused responses → messages responses match the hub", () => {
  responsesPathTests("messages", responsesToMessagesResponse, optionSets);

  test("a reasoning answer with cited text, a call and a web search takes the fused path, thinking first", () => {
    expect(responsesToMessagesResponse(exampleResponse, resolveOptions({}))).toBeDefined();
    const result = translateResponse("responses", "messages", exampleResponse);
    expect(JSON.stringify(result.value)).toBe(
      JSON.stringify({
        id: "resp_1",
        type: "message",
        role: "assistant",
        model: "gpt-5-mini",
        content: [
          { type: "thinking", thinking: "Plan.\n\nCall.", signature: "" },
          { type: "text", text: "Looking." },
          { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Oslo" } },
        ],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: {
          input_tokens: 10,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 90,
          output_tokens: 20,
          output_tokens_details: { thinking_tokens: 12 },
        },
      }),
    );
    expect(result.losses.map((entry) => [entry.path, entry.kind, entry.message])).toEqual([
      ...exampleDecodeLosses,
      [
        "/output/0/encrypted_content",
        "dropped",
        "A reasoning signature is valid only at the provider that issued it and was dropped.",
      ],
      [
        "/output/1/content/0/annotations",
        "dropped",
        "Citations from the responses protocol have no messages equivalent and were dropped.",
      ],
      [
        "/output/3",
        "dropped",
        "A responses web_search_call item has no messages equivalent and was dropped.",
      ],
    ]);
  });
});
