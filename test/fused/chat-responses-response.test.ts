/**
 * The fused chat → responses response path against the hub, its specification: on every body — every
 * chat response fixture, the bench's bodies, the toolkit's chat response arbitraries (plain and
 * biased), and a generator of the shape the fused path takes with the values at and past its edges
 * (calls with empty, missing and wrong-typed ids, text, refusals and calls in every mix, OpenRouter
 * reasoning entries of every type and format, Gemini signatures on calls and on the message, every
 * finish reason, `created` and `total_tokens` present, null, absent or of the wrong type, usage details
 * with cache writes and nulls, unknown fields blank and not, keys that need escaping in a pointer) —
 * under several option sets (id prefixes, `created` given and not, unvalidated, strict, dialects),
 * `translateResponse` gives the same value (same bytes) and losses as the hub, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { chatToResponsesResponse } from "../../src/fused/chat-responses-response";
import { translateResponse } from "../../src/index";
import { rare } from "./generative-shapes";
import { oddFieldsOf, say, strip } from "./oracle";
import { chatFixturesButContentParts, responsePathTests } from "./response-suite";

const optionSets: readonly TranslateOptions[] = [
  {},
  { idPrefix: "g/w~", created: 1_700_000_000 },
  { validate: false },
  { strict: true, chatDialect: "openrouter" },
];

const options = resolveOptions({});

type Raw = Record<string, unknown>;

/** Fields of no known meaning on a node, now and then: blank or not, their keys needing escaping or not. */
const odd = oddFieldsOf("service_tier", "x_vendor", "a/b", "~0", "c~1d");
const toolCall = fc
  .record({
    id: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom("call_1", "call_2") },
      { weight: 2, arbitrary: fc.constant("") },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, 4) },
    ),
    type: rare<unknown>(fc.constant("function"), fc.constantFrom<unknown>("custom", undefined)),
    name: rare<unknown>(fc.constantFrom("get_weather", "search"), fc.constantFrom<unknown>("", 2)),
    args: rare<unknown>(
      fc.dictionary(say, say, { maxKeys: 2 }).map((value) => JSON.stringify(value)),
      fc.constantFrom<unknown>("", "[1]", "{bad", null),
    ),
    index: fc.constantFrom<unknown>(undefined, 0, 1),
    extra_content: rare<unknown>(
      fc.constant(undefined),
      fc.constantFrom<unknown>(
        { google: { thought_signature: "csig" } },
        { google: { thought_signature: "" } },
        { google: { thought_signature: null } },
        { google: { thought_signature: "csig", "a/b": 1 } },
        { google: null },
        { other: 1 },
        "x",
      ),
    ),
    odd,
  })
  .map(({ odd: more, type, name, args, ...fields }) => ({
    ...more,
    ...strip(fields),
    ...strip({ type }),
    ...(type === "custom" ? { custom: { name, input: args } } : { function: { name, arguments: args } }),
  }));
const entry = fc
  .record({
    type: rare<unknown>(
      fc.constantFrom("reasoning.text", "reasoning.summary", "reasoning.encrypted"),
      fc.constantFrom<unknown>("reasoning.other", 1),
    ),
    format: fc.constantFrom<unknown>("anthropic-claude-v1", "google-gemini-v1", "openai-responses-v1", null),
    text: fc.constantFrom<unknown>("step", "", undefined, null),
    summary: fc.constantFrom<unknown>("sum", "", undefined),
    data: fc.constantFrom<unknown>("enc", undefined),
    signature: rare<unknown>(fc.constantFrom<unknown>("rsig", "", null, undefined), fc.constant(3)),
    odd,
  })
  .map(({ odd: more, ...fields }) => ({ ...more, ...strip(fields) }));
const message = fc
  .record({
    content: fc.oneof(
      { weight: 8, arbitrary: say },
      { weight: 3, arbitrary: fc.constantFrom<unknown>(null, undefined) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>([{ type: "text", text: "t" }], 2) },
    ),
    refusal: rare<unknown>(
      fc.constantFrom<unknown>(null, undefined),
      fc.constantFrom<unknown>("", "I can't."),
    ),
    reasoning_content: rare<unknown>(fc.constant(undefined), fc.constantFrom<unknown>("think", "", null, 7)),
    reasoning: rare<unknown>(fc.constant(undefined), fc.constantFrom<unknown>("ponder", "")),
    reasoning_details: rare<unknown>(
      fc.constant(undefined),
      fc.array(entry, { minLength: 1, maxLength: 3 }),
      fc.array(entry, { minLength: 1, maxLength: 3 }),
      fc.constantFrom<unknown>([], null, [7]),
    ),
    tool_calls: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom<unknown>(undefined, null, []) },
      { weight: 5, arbitrary: fc.array(toolCall, { minLength: 1, maxLength: 3 }) },
    ),
    annotations: rare<unknown>(
      fc.constant(undefined),
      fc.constantFrom<unknown>(null, [], [{ type: "url_citation", url_citation: { url: "u" } }]),
    ),
    audio: rare<unknown>(
      fc.constant(undefined),
      fc.constantFrom<unknown>(
        null,
        { id: "", data: "", expires_at: 0, transcript: "" },
        { transcript: "hi" },
      ),
    ),
    function_call: rare<unknown>(
      fc.constant(undefined),
      fc.constantFrom<unknown>(null, { name: "", arguments: "" }, { name: "f", arguments: "{}" }),
    ),
    signature: rare<Raw>(
      fc.constant({}),
      fc.constantFrom<Raw>(
        { extra_content: { google: { thought_signature: "msig" } }, thought_signature: "msig" },
        { thought_signature: "msig" },
        { extra_content: { google: { thought_signature: "", "~0": "v" } }, thought_signature: "m2" },
        { extra_content: { google: null, "a/b": 1 } },
        { extra_content: null, thought_signature: "" },
        { extra_content: { google: "g" } },
      ),
    ),
    odd,
  })
  .map(({ odd: more, signature, ...fields }) => ({
    role: "assistant",
    ...more,
    ...signature,
    ...strip(fields),
  }));
const count = rare<unknown>(fc.nat(5000), fc.constantFrom<unknown>(null, undefined, 0, "9"));
const usage = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, undefined, 3) },
  {
    weight: 8,
    arbitrary: fc
      .record({
        prompt_tokens: count,
        completion_tokens: count,
        total_tokens: count,
        prompt_tokens_details: rare<unknown>(
          fc.constant(undefined),
          fc.record(
            { cached_tokens: count, cache_write_tokens: count, audio_tokens: count },
            { requiredKeys: [] },
          ),
          fc.constantFrom<unknown>(null, {}),
        ),
        completion_tokens_details: rare<unknown>(
          fc.constant(undefined),
          fc.record({ reasoning_tokens: count }, { requiredKeys: [] }),
          fc.constant(null),
        ),
        prompt_cache_hit_tokens: rare<unknown>(fc.constant(undefined), count),
        odd,
      })
      .map(({ odd: more, ...fields }) => ({ ...more, ...strip(fields) })),
  },
);
/** The shape the fused path takes, with values at and past its edges. */
const edgeCompletion = fc
  .record({
    id: rare<unknown>(fc.constantFrom("chatcmpl-1", "a/b~c", ""), fc.constantFrom<unknown>(undefined, 5)),
    created: rare<unknown>(fc.constant(1_700_000_001), fc.constantFrom<unknown>(undefined, null, "now", 0)),
    model: rare<unknown>(fc.constantFrom("gpt-4o-mini", ""), fc.constant(undefined)),
    choices: rare<unknown>(
      fc
        .record({
          message,
          finish_reason: fc.constantFrom<unknown>(
            "stop",
            "length",
            "tool_calls",
            "function_call",
            "content_filter",
            "eos",
            "",
            null,
            undefined,
            1,
          ),
          odd,
        })
        .map(({ odd: more, ...fields }) => [{ index: 0, ...more, ...strip(fields) }]),
      fc.constantFrom<unknown>([], "c"),
    ),
    usage,
    odd,
  })
  .map(({ odd: more, ...fields }) => ({ object: "chat.completion", ...more, ...strip(fields) }));

describe("fused chat → responses responses match the hub", () => {
  responsePathTests({
    from: "chat",
    to: "responses",
    path: chatToResponsesResponse,
    optionSets,
    fixtures: chatFixturesButContentParts,
    // About two thirds of them; the biased ones lean toward what it declines.
    toolkit: 1 / 2,
    edge: {
      arbitrary: edgeCompletion,
      least: 1 / 3,
    },
  });

  test("text, a refusal and calls without and with an id: one message, then the calls, with the hub's losses", () => {
    const body = {
      id: "chatcmpl-1",
      object: "chat.completion",
      model: "m",
      system_fingerprint: "fp",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Looking.",
            refusal: "Not that.",
            reasoning_content: "Think.",
            tool_calls: [
              { id: "", type: "function", function: { name: "f", arguments: "[1]" } },
              { id: "call_2", type: "function", function: { name: "g", arguments: "{}" } },
            ],
          },
          finish_reason: "eos",
        },
      ],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 4,
        prompt_tokens_details: { cached_tokens: 6, cache_write_tokens: 2 },
      },
    };
    expect(chatToResponsesResponse(body, options)).toBeDefined();
    // No `created` (a gateway's completion without one): unvalidated, as the schema asks for it.
    const result = translateResponse("chat", "responses", body, { validate: false });
    expect(result.value).toEqual({
      id: "chatcmpl-1",
      object: "response",
      created_at: 0,
      status: "completed",
      error: null,
      incomplete_details: null,
      model: "m",
      output: [
        { id: "rs_gp_chatcmpl-1_0", type: "reasoning", summary: [{ type: "summary_text", text: "Think." }] },
        {
          id: "msg_gp_chatcmpl-1_1",
          type: "message",
          status: "completed",
          content: [
            { type: "output_text", annotations: [], logprobs: [], text: "Looking." },
            { type: "refusal", refusal: "Not that." },
          ],
          role: "assistant",
        },
        {
          id: "fc_gp_chatcmpl-1_2",
          type: "function_call",
          status: "completed",
          call_id: "call_gp_chatcmpl-1_2",
          name: "f",
          arguments: "[1]",
        },
        {
          id: "fc_gp_chatcmpl-1_3",
          type: "function_call",
          status: "completed",
          call_id: "call_2",
          name: "g",
          arguments: "{}",
        },
      ],
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 6, cache_write_tokens: 2 },
        output_tokens: 4,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 14,
      },
    });
    expect(result.losses).toEqual([
      {
        path: "/system_fingerprint",
        kind: "dropped",
        message: "`system_fingerprint` has no common equivalent and was dropped.",
      },
      {
        path: "/choices/0/message/tool_calls/0/id",
        kind: "synthesized",
        message: "The tool call had no id; a deterministic one was made up.",
      },
      {
        path: "/choices/0/finish_reason",
        kind: "approximated",
        message: 'Finish reason `eos` has no responses equivalent; status "completed" was sent.',
      },
      {
        path: "/created",
        kind: "synthesized",
        message:
          "The response carries no creation time and `options.created` gives none; `created_at` was sent as 0.",
      },
    ]);
  });
});
