/**
 * The fused messages → responses response path against the hub, its specification: on every body —
 * every messages response fixture, the bench's bodies, the toolkit's messages response arbitraries
 * (plain and biased), and a generator of the shape the fused path takes with the values at and past
 * its edges (text with and without citations around server-side blocks, thinking signed, unsigned and
 * with an empty signature, redacted thinking, calls with empty or missing ids and any input, the
 * JSON-format tool, request-only blocks, every stop reason, usage with nulls and thinking tokens,
 * unknown fields blank and not, keys that need escaping in a pointer, values of the wrong type) —
 * under several option sets (id prefixes, `created` given and not, unvalidated, strict),
 * `translateResponse` gives the same value (same bytes) and losses as the hub, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { messagesToResponsesResponse } from "../../src/fused/messages-responses-response";
import { translateResponse } from "../../src/index";
import { rare } from "./generative-shapes";
import { oddFieldsOf, say, strip } from "./oracle";
import { responsePathTests } from "./response-suite";

const optionSets: readonly TranslateOptions[] = [
  {},
  { idPrefix: "g/w~", created: 1_700_000_000 },
  { validate: false },
  { strict: true, created: 0 },
];

const options = resolveOptions({});

/** Fields of no known meaning on a node, now and then: blank or not, their keys needing escaping or not. */
const odd = oddFieldsOf("caller", "x_vendor", "a/b", "~0", "c~1d");
const citation = { type: "web_search_result_location", url: "u", title: "t", cited_text: "c" };
const block = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        text: rare<unknown>(say, fc.constant(3)),
        citations: fc.constantFrom<unknown>(undefined, undefined, null, [], [citation], "c"),
        cache_control: fc.constantFrom<unknown>(undefined, undefined, { type: "ephemeral" }),
        odd,
      })
      .map(({ odd: more, ...fields }) => ({ type: "text", ...strip(fields), ...more })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        thinking: rare<unknown>(say, fc.constant(undefined)),
        signature: rare<unknown>(fc.constantFrom("sig", ""), fc.constantFrom<unknown>(undefined, 1)),
        odd,
      })
      .map(({ odd: more, ...fields }) => ({ type: "thinking", ...strip(fields), ...more })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ data: rare<unknown>(fc.constant("opaque"), fc.constant(undefined)), odd })
      .map(({ odd: more, ...fields }) => ({ type: "redacted_thinking", ...strip(fields), ...more })),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        id: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom("toolu_1", "toolu_2", "") },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, 5) },
        ),
        name: rare<unknown>(
          fc.constantFrom("get_weather", "search"),
          fc.constantFrom<unknown>("json_tool_call", 1),
        ),
        input: rare<unknown>(
          fc.dictionary(say, fc.oneof(say, fc.integer()), { maxKeys: 3 }),
          fc.constantFrom<unknown>(null, undefined, [1], "s", 0, {}),
        ),
        cache_control: fc.constantFrom<unknown>(undefined, undefined, { type: "ephemeral" }),
        odd,
      })
      .map(({ odd: more, ...fields }) => ({ type: "tool_use", ...strip(fields), ...more })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
      { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
      { type: "mcp_tool_use", id: "mcptoolu_1", name: "n", server_name: "s", input: {} },
      { type: "compaction", content: "summary" },
      { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
      { type: "tool_result", tool_use_id: "toolu_1", content: "r" },
      { type: 4 },
      { text: "no type" },
      "a string",
    ),
  },
);
const count = rare<unknown>(fc.nat(5000), fc.constantFrom<unknown>(null, undefined, 0, "12"));
const usage = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, undefined, "u") },
  {
    weight: 12,
    arbitrary: fc
      .record(
        {
          input_tokens: count,
          output_tokens: rare<unknown>(fc.nat(5000), fc.constantFrom<unknown>(null, undefined)),
          cache_creation_input_tokens: count,
          cache_read_input_tokens: count,
          output_tokens_details: fc.constantFrom<unknown>(
            undefined,
            null,
            {},
            { thinking_tokens: 12 },
            { thinking_tokens: null },
            "d",
          ),
          odd,
        },
        { requiredKeys: ["input_tokens", "output_tokens", "odd"] },
      )
      .map(({ odd: more, ...fields }) => ({ ...strip(fields), ...more })),
  },
);
/** The shape the fused path takes, with values at and past its edges. */
const edgeResponse = fc
  .record({
    id: rare<unknown>(fc.constantFrom("msg_1", "a/b~c", ""), fc.constantFrom<unknown>(undefined, 5)),
    model: rare<unknown>(fc.constantFrom("claude-sonnet-4-5", ""), fc.constant(undefined)),
    content: rare<unknown>(fc.array(block, { maxLength: 5 }), fc.constantFrom<unknown>("c", null)),
    stop_reason: fc.constantFrom<unknown>(
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
      2,
    ),
    stop_sequence: fc.constantFrom<unknown>(null, "END", undefined),
    usage,
    odd,
  })
  .map(({ odd: more, ...fields }) => ({ type: "message", role: "assistant", ...strip(fields), ...more }));

describe("fused messages → responses responses match the hub", () => {
  responsePathTests({
    from: "messages",
    to: "responses",
    path: messagesToResponsesResponse,
    optionSets,
    fixtures: {
      title: "on every messages response fixture, and the fused path takes all of them",
      count: 24,
      takes: () => true,
      taken: 24,
    },
    // All of them but the rare JSON-format tool call.
    toolkit: 0.9,
    edge: {
      arbitrary: edgeResponse,
      least: 1 / 5,
    },
  });

  test("text around a server-side block stays one message; thinking and a call close it, with the hub's losses", () => {
    const body = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [
        { type: "thinking", thinking: "Weather first.", signature: "sig" },
        { type: "text", text: "Looking", citations: [citation] },
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
        { type: "text", text: " up." },
        { type: "tool_use", id: "", name: "get_weather", input: { city: "Oslo" } },
      ],
      stop_reason: "pause_turn",
      stop_sequence: null,
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 90,
        service_tier: "standard",
      },
    };
    expect(messagesToResponsesResponse(body, options)).toBeDefined();
    const result = translateResponse("messages", "responses", body, { created: 1, idPrefix: "gw" });
    expect(result.value).toEqual({
      id: "msg_1",
      object: "response",
      created_at: 1,
      status: "completed",
      error: null,
      incomplete_details: null,
      model: "claude-sonnet-4-5",
      output: [
        {
          id: "rs_gw_msg_1_0",
          type: "reasoning",
          summary: [{ type: "summary_text", text: "Weather first." }],
        },
        {
          id: "msg_gw_msg_1_1",
          type: "message",
          status: "completed",
          content: [
            { type: "output_text", annotations: [], logprobs: [], text: "Looking" },
            { type: "output_text", annotations: [], logprobs: [], text: " up." },
          ],
          role: "assistant",
        },
        {
          id: "fc_gw_msg_1_2",
          type: "function_call",
          status: "completed",
          call_id: "",
          name: "get_weather",
          arguments: '{"city":"Oslo"}',
        },
      ],
      usage: {
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 90, cache_write_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 105,
      },
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/usage/service_tier", "dropped"],
      ["/content/0/signature", "dropped"],
      ["/content/1/citations", "dropped"],
      ["/content/2", "dropped"],
      ["/stop_reason", "approximated"],
    ]);
  });
});
