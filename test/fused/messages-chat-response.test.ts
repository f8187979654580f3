/**
 * The fused messages → chat response path against the hub, its specification: on every body — every
 * messages response fixture, the toolkit's messages response arbitraries (plain and biased), and a
 * generator of the shape the fused path takes with the values at and past its edges (text with and
 * without citations, thinking and redacted thinking, tool calls with any input, the JSON-format tool,
 * server-side and request-only blocks, every stop reason, usage with nulls, unknown fields, keys that
 * need escaping in a pointer, values of the wrong type) — under several option sets (`created` and
 * the id prefix given and not, unvalidated, strict, each chat dialect), `translateResponse` gives the
 * same value (same bytes) and losses as the hub, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { messagesToChatResponse } from "../../src/fused/messages-chat-response";
import { translateResponse } from "../../src/index";
import { strip, unknownFieldsOf, word } from "./oracle";
import { responsePathTests } from "./response-suite";

const optionSets: readonly TranslateOptions[] = [
  {},
  { idPrefix: "gw", created: 1_700_000_000 },
  { validate: false, chatDialect: "vllm" },
  { strict: true, chatDialect: "deepseek" },
  { created: 0, chatDialect: "openrouter" },
];

/** Now and then a field of no known meaning, its key needing escaping or not. */
const unknownFields = unknownFieldsOf("caller", "x_vendor", "a/b", "t~1", "service_tier");
const json = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(word, fc.oneof(word, fc.integer()), { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, [1], "s", 0, {}) },
);
const citation = {
  type: "web_search_result_location",
  url: "u",
  title: "t",
  cited_text: "c",
  encrypted_index: "e",
};
const block = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        text: fc.oneof({ weight: 12, arbitrary: word }, { weight: 1, arbitrary: fc.constant(7) }),
        citations: fc.constantFrom(undefined, undefined, undefined, null, [], [citation], "c"),
        cache_control: fc.constantFrom(undefined, undefined, { type: "ephemeral" }),
        extra: unknownFields,
      })
      .map(({ extra, ...fields }) => ({ type: "text", ...strip(fields), ...extra })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ thinking: word, signature: fc.constantFrom("sig", "", undefined), extra: unknownFields })
      .map(({ extra, ...fields }) => ({ type: "thinking", ...strip(fields), ...extra })),
  },
  {
    weight: 1,
    arbitrary: unknownFields.map((extra) => ({ type: "redacted_thinking", data: "opaque", ...extra })),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        id: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom("toolu_1", "toolu_2", "") },
          { weight: 1, arbitrary: fc.constant(undefined) },
        ),
        name: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom("get_weather", "search") },
          { weight: 1, arbitrary: fc.constant("json_tool_call") },
        ),
        input: json,
        cache_control: fc.constantFrom(undefined, undefined, { type: "ephemeral" }),
        extra: unknownFields,
      })
      .map(({ extra, ...fields }) => ({ type: "tool_use", ...strip(fields), ...extra })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
      { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
      { type: "compaction", content: "summary" },
      { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
      { type: "tool_result", tool_use_id: "toolu_1", content: "r" },
      { text: "no type" },
      "a string",
    ),
  },
);
const count = fc.oneof(
  { weight: 6, arbitrary: fc.nat(5000) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, 0, "12") },
);
const usage = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
  {
    weight: 12,
    arbitrary: fc
      .record(
        {
          input_tokens: count,
          output_tokens: count,
          cache_creation_input_tokens: count,
          cache_read_input_tokens: count,
          output_tokens_details: fc.constantFrom(
            undefined,
            null,
            {},
            { thinking_tokens: 12 },
            { thinking_tokens: null },
          ),
          extra: unknownFields,
        },
        { requiredKeys: ["input_tokens", "output_tokens", "extra"] },
      )
      .map(({ extra, ...fields }) => ({ ...strip(fields), ...extra })),
  },
);
/** The shape the fused path takes, with values at and past its edges. */
const edgeResponse = fc
  .record({
    id: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom("msg_1", "m") },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    model: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom("claude-sonnet-4-5", "") },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    content: fc.array(block, { maxLength: 5 }),
    stop_reason: fc.constantFrom(
      "end_turn",
      "stop_sequence",
      "max_tokens",
      "tool_use",
      "pause_turn",
      "refusal",
      "model_context_window_exceeded",
      "weird",
      null,
      undefined,
    ),
    stop_sequence: fc.constantFrom(null, "END", undefined),
    usage,
    extra: unknownFields,
  })
  .map(({ extra, ...fields }) => ({ type: "message", role: "assistant", ...strip(fields), ...extra }));

describe("fused messages → chat responses match the hub", () => {
  responsePathTests({
    from: "messages",
    to: "chat",
    path: messagesToChatResponse,
    optionSets,
    fixtures: {
      title: "on every messages response fixture, and the fused path takes most of them",
      taken: { over: 0.6 },
    },
    toolkit: 1 / 3,
    edge: {
      arbitrary: edgeResponse,
      least: 1 / 5,
    },
  });

  test("a response with thinking, text and a call takes the fused path, and its losses are the hub's", () => {
    const body = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [
        { type: "thinking", thinking: "Weather first.", signature: "sig" },
        { type: "text", text: "Looking." },
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 90, service_tier: "standard" },
    };
    expect(messagesToChatResponse(body, resolveOptions({}))).toBeDefined();
    const result = translateResponse("messages", "chat", body, { created: 1 });
    expect(result.value).toEqual({
      id: "msg_1",
      object: "chat.completion",
      created: 1,
      model: "claude-sonnet-4-5",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Looking.",
            reasoning_content: "Weather first.",
            tool_calls: [
              {
                id: "toolu_1",
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
        completion_tokens: 5,
        total_tokens: 105,
        prompt_tokens_details: { cached_tokens: 90 },
      },
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/usage/service_tier", "dropped"],
      ["/content/0/signature", "dropped"],
    ]);
  });
});
