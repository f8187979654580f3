/**
 * The fused chat → generative response path against the hub, its specification: on every body — every
 * chat response fixture, the bench's bodies, the toolkit's chat response arbitraries (plain and
 * biased), and a generator of the shape the fused path takes with the values at and past its edges
 * (several or no choices, content parts, blank and malformed arguments, ids empty or the very ids the
 * hub synthesizes, every finish reason and upper-case ones chat does not know, usage with nulls and
 * strings, OpenRouter reasoning entries of every format, Gemini signatures on calls and on the message,
 * unknown fields blank and not, keys that need escaping in a pointer, values of the wrong type) —
 * under several option sets (id prefixes, unvalidated, strict, dialects), `translateResponse` gives the
 * same value (same bytes) and losses as the hub, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { chatToGenerativeResponse } from "../../src/fused/chat-generative-response";
import { translateResponse } from "../../src/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { rare } from "./generative-shapes";
import { strip } from "./oracle";
import { chatFixturesButContentParts, responsePathTests } from "./response-suite";

const optionSets: readonly TranslateOptions[] = [
  {},
  { idPrefix: "gw", created: 1_700_000_000 },
  { validate: false },
  { strict: true, chatDialect: "openrouter" },
];

const options = resolveOptions({});

type Raw = Record<string, unknown>;

/** Now and then fields of no known meaning on a node, blank or not, their keys needing escaping or not. */
const stray = rare<Raw>(
  fc.constant({}),
  fc.dictionary(
    fc.constantFrom("logprobs", "x_vendor", "a/b", "~0", "m~1n", "provider"),
    fc.constantFrom<unknown>(null, "", [], "v", 0, false, { k: 1 }),
    { minKeys: 1, maxKeys: 2 },
  ),
);
const words = fc.oneof(
  { weight: 10, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "a/b", "~1") },
);
/** The response ids the generator uses, and call ids among them the hub takes for its own synthesized ones. */
const responseIds = ["chatcmpl-1", "x/y", ""] as const;
const callIds = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("call_1", "call_2", "toolu_1") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "",
      "gp_chatcmpl-1_0",
      "gp_chatcmpl-1_1",
      "gw_chatcmpl-1_0",
      "gp_xy_0",
      "gp__0",
      "gp_chatcmpl-1_2",
      "x_0",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, 7) },
);
const argumentsText = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .dictionary(words, fc.oneof(words, fc.integer(), fc.constant(null)), { maxKeys: 3 })
      .map((value) => JSON.stringify(value)),
  },
  { weight: 1, arbitrary: fc.constantFrom("", " \n", "[]", "null", "{", "text", "1", "{}") },
);
/** A call's own `extra_content`: Gemini's signature, and what is not quite that. */
const callExtra = rare<unknown>(
  fc.constant(undefined),
  fc.constantFrom<unknown>(
    { google: { thought_signature: "csig" } },
    { google: { thought_signature: "" } },
    { google: { thought_signature: null } },
    { google: { thought_signature: 1 } },
    { google: { other: 1 } },
    { google: "g" },
    { x: 1 },
    [],
    null,
  ),
);
const call = fc
  .record({
    id: callIds,
    type: rare<unknown>(fc.constant("function"), fc.constantFrom<unknown>("custom", undefined, "x")),
    name: rare<unknown>(fc.constantFrom("get_weather", "lookup"), fc.constantFrom<unknown>("", 3)),
    arguments: rare<unknown>(argumentsText, fc.constant({ a: 1 })),
    index: rare<unknown>(fc.constant(undefined), fc.constantFrom<unknown>(0, 2, "1")),
    extra_content: callExtra,
    stray,
  })
  .map(({ stray: odd, type, name, arguments: text, ...fields }) => ({
    ...odd,
    ...strip(fields),
    ...strip({ type }),
    ...(type === "custom" ? { custom: { name, input: text } } : { function: { name, arguments: text } }),
  }));
/** OpenRouter reasoning entries: every type, Gemini's, Anthropic's and other formats, signed or not. */
const reasoningEntry = fc
  .record({
    type: rare<unknown>(
      fc.constantFrom("reasoning.text", "reasoning.summary", "reasoning.encrypted"),
      fc.constantFrom<unknown>("reasoning.other", 5),
    ),
    format: fc.constantFrom<unknown>(
      "google-gemini-v1",
      "anthropic-claude-v1",
      "openai-responses-v1",
      "unknown",
      null,
      undefined,
    ),
    text: rare<unknown>(fc.constantFrom<unknown>("step", "", undefined), fc.constantFrom<unknown>(null, 1)),
    summary: fc.constantFrom<unknown>("sum", undefined, null),
    data: fc.constantFrom<unknown>("enc", undefined, ""),
    signature: rare<unknown>(fc.constantFrom<unknown>("rsig", "", undefined, null), fc.constant(2)),
    index: fc.constantFrom<unknown>(0, undefined),
    stray,
  })
  .map(({ stray: odd, ...fields }) => ({ ...odd, ...strip(fields) }));
/** Gemini's message-level signature, both spellings, and what is not quite that. */
const messageSignature = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Raw>({}) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Raw>(
      { extra_content: { google: { thought: true, thought_signature: "msig" } }, thought_signature: "msig" },
      { extra_content: { google: { thought_signature: "msig" } } },
      { thought_signature: "msig" },
      { extra_content: { google: { thought_signature: "" } }, thought_signature: "m2" },
      { extra_content: { google: { thought_signature: 4 } }, thought_signature: "m3" },
      { extra_content: { google: {}, "a/b": "v", empty: "" } },
      { extra_content: { google: null } },
      { extra_content: null, thought_signature: "" },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<Raw>({ extra_content: "x" }, { extra_content: { google: [] } }) },
);
const message = fc
  .record({
    role: rare<unknown>(fc.constant("assistant"), fc.constant(undefined)),
    content: fc.oneof(
      { weight: 8, arbitrary: words },
      { weight: 3, arbitrary: fc.constantFrom<unknown>(null, undefined) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>([{ type: "text", text: "t" }], 1) },
    ),
    refusal: rare<unknown>(fc.constantFrom<unknown>(null, undefined), fc.constantFrom<unknown>("", "no", 1)),
    reasoning_content: rare<unknown>(fc.constant(undefined), fc.constantFrom<unknown>("think", "", null, 2)),
    reasoning: rare<unknown>(fc.constant(undefined), fc.constantFrom<unknown>("ponder", "", null)),
    reasoning_details: rare<unknown>(
      fc.constant(undefined),
      fc.array(reasoningEntry, { minLength: 1, maxLength: 3 }),
      fc.array(reasoningEntry, { minLength: 1, maxLength: 3 }),
      fc.constantFrom<unknown>([], null, ["entry"], "x"),
    ),
    tool_calls: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom<unknown>(undefined, null, []) },
      { weight: 5, arbitrary: fc.array(call, { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constant("calls") },
    ),
    annotations: rare<unknown>(
      fc.constantFrom<unknown>(undefined, []),
      fc.constantFrom<unknown>(null, [{ type: "url_citation", url_citation: { url: "u" } }], "a"),
    ),
    audio: rare<unknown>(
      fc.constant(undefined),
      fc.constantFrom<unknown>(
        null,
        { id: "", data: "", expires_at: 0, transcript: "" },
        { transcript: "said" },
      ),
    ),
    function_call: rare<unknown>(
      fc.constant(undefined),
      fc.constantFrom<unknown>(null, { name: "", arguments: "" }, { name: "f", arguments: "{}" }, "f"),
    ),
    signed: messageSignature,
    stray,
  })
  .map(({ stray: odd, signed, ...fields }) => ({ ...odd, ...signed, ...strip(fields) }));
const count = rare<unknown>(fc.nat(9000), fc.constantFrom<unknown>(null, undefined, 0, -1, "12"));
const usage = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, undefined, "none", []) },
  {
    weight: 8,
    arbitrary: fc
      .record({
        prompt_tokens: count,
        completion_tokens: count,
        total_tokens: count,
        prompt_tokens_details: rare<unknown>(
          fc.constant(undefined),
          fc.record({ cached_tokens: count, audio_tokens: count }, { requiredKeys: [] }),
          fc.constantFrom<unknown>(null, {}, "d"),
        ),
        completion_tokens_details: rare<unknown>(
          fc.constant(undefined),
          fc.record({ reasoning_tokens: count, audio_tokens: count }, { requiredKeys: [] }),
          fc.constantFrom<unknown>(null, {}, 3),
        ),
        prompt_cache_hit_tokens: rare<unknown>(fc.constant(undefined), count),
        prompt_cache_miss_tokens: rare<unknown>(fc.constant(undefined), count),
        stray,
      })
      .map(({ stray: odd, ...fields }) => ({ ...odd, ...strip(fields) })),
  },
);
const finishReasons = [
  "stop",
  "length",
  "tool_calls",
  "function_call",
  "content_filter",
  null,
  "",
  "eos",
  undefined,
] as const;
const choice = fc
  .record({
    index: rare<unknown>(fc.constant(0), fc.constantFrom<unknown>(3, undefined, "0")),
    message: rare<unknown>(message, fc.constantFrom<unknown>(null, "m")),
    finish_reason: rare<unknown>(
      fc.constantFrom<unknown>(...finishReasons),
      fc.constantFrom<unknown>("STOP", "OTHER", "SAFETY", "FOO_BAR", "MAX_TOKENS", 1),
    ),
    stray,
  })
  .map(({ stray: odd, ...fields }) => ({ ...odd, ...strip(fields) }));
/** The shape the fused path takes, with values at and past its edges. */
const edgeCompletion = fc
  .record({
    id: rare<unknown>(fc.constantFrom(...responseIds), fc.constantFrom<unknown>(undefined, 9)),
    object: fc.constant("chat.completion"),
    created: rare<unknown>(fc.constant(1_700_000_001), fc.constant(undefined)),
    model: rare<unknown>(fc.constantFrom("gpt-4o-mini", "gemini-2.5-flash", ""), fc.constant(undefined)),
    choices: rare<unknown>(
      fc.array(choice, { minLength: 1, maxLength: 1 }),
      fc.array(choice, { maxLength: 2 }),
      fc.constant("c"),
    ),
    usage,
    stray,
  })
  .map(({ stray: odd, ...fields }) => ({ ...odd, ...strip(fields) }));

/** A completion of one choice around `message` (an assistant's), with `more` fields on the body. */
const completion = (message: Raw, finishReason: string, more: Raw = {}): Raw => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "m",
  ...more,
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finishReason }],
});

describe("fused chat → generative responses match the hub", () => {
  const { agrees } = responsePathTests({
    from: "chat",
    to: "generative",
    path: chatToGenerativeResponse,
    optionSets,
    fixtures: chatFixturesButContentParts,
    // About two thirds of them; the biased ones lean toward what it declines.
    toolkit: 1 / 2,
    edge: {
      arbitrary: edgeCompletion,
      // About a third of them (the rest is edges it declines).
      least: 1 / 4,
    },
  });

  test("a Gemini-compatible completion: an empty call id stays none, the message's signature signs the call", () => {
    const body = readJsonFixture(
      fixtures("response", "chat").find((entry) =>
        entry.path.endsWith("gemini-openai-compat-tool-call-empty-id.json"),
      ) as never,
    ) as { choices: [{ message: { thought_signature: string } }] };
    const signature = body.choices[0].message.thought_signature;
    expect(chatToGenerativeResponse(body, options)).toBeDefined();
    const result = translateResponse("chat", "generative", body);
    expect(result.value).toEqual({
      candidates: [
        {
          content: {
            role: "model",
            parts: [{ functionCall: { name: "get_current_time", args: {} }, thoughtSignature: signature }],
          },
          finishReason: "STOP",
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 35,
        candidatesTokenCount: 12,
        thoughtsTokenCount: 0,
        totalTokenCount: 109,
      },
      modelVersion: "gemini-2.5-pro-preview-05-06",
      responseId: "3SE-aKjdCcCEz7IPxpqjCA",
    });
    expect(result.losses.map((entry) => entry.path)).toEqual([
      "/choices/0/message/extra_content/google/thought",
    ]);
  });

  test("the message's signature signs the first call, not the text beside it (shrunk from a planted bug)", () => {
    const body = completion(
      {
        extra_content: { google: { thought: true, thought_signature: "msig" } },
        thought_signature: "msig",
        content: "",
        refusal: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } }],
      },
      "stop",
      { usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } },
    );
    agrees(body);
    expect(chatToGenerativeResponse(body, options)?.value.candidates?.[0]?.content?.parts).toEqual([
      { text: "" },
      { functionCall: { id: "call_1", name: "get_weather", args: {} }, thoughtSignature: "msig" },
    ]);
  });

  test("an id the hub would take for one it synthesized is not sent, past ten calls too; near misses are", () => {
    const ids = [
      "gp_chatcmpl-1_0",
      "gp_chatcmpl-1_0",
      "gp_chatcmpl-1_2",
      "gp_chatcmpl-1_23",
      "_4",
      "gpx_chatcmpl-1_5",
      "6",
      "gp_chatcmpl-1_07",
      "gp_chatcmpl-1__8",
      "gp_chatcmpl-1_9",
      "gp_chatcmpl-1_1",
      "gp_chatcmpl-1_11",
      "gp_chatcmpl-1_112",
    ];
    const body = completion(
      {
        content: null,
        tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "f", arguments: "{}" } })),
      },
      "tool_calls",
    );
    agrees(body);
    const parts = chatToGenerativeResponse(body, options)?.value.candidates?.[0]?.content?.parts ?? [];
    expect(parts.map((part) => part.functionCall?.id)).toEqual([
      undefined,
      "gp_chatcmpl-1_0",
      undefined,
      "gp_chatcmpl-1_23",
      "_4",
      "gpx_chatcmpl-1_5",
      "6",
      "gp_chatcmpl-1_07",
      "gp_chatcmpl-1__8",
      undefined,
      "gp_chatcmpl-1_1",
      undefined,
      "gp_chatcmpl-1_112",
    ]);
  });

  test("reasoning, text, a refusal and calls: the hub's parts, ids and losses in its order", () => {
    const body = completion(
      {
        content: "Looking.",
        refusal: "Not that.",
        annotations: [{ type: "url_citation" }],
        reasoning_details: [
          { type: "reasoning.text", text: "r", signature: "s", format: "anthropic-claude-v1" },
          { type: "reasoning.encrypted", data: "e", format: "google-gemini-v1" },
          { type: "reasoning.text", text: "g", signature: "gs", format: "google-gemini-v1", id: "x" },
        ],
        tool_calls: [
          { id: "gp_chatcmpl-1_0", type: "function", function: { name: "f", arguments: "[1]" } },
          { id: "call_2", type: "function", function: { name: "g", arguments: "" }, "~0": 1 },
        ],
      },
      "tool_calls",
      {
        "a/b": 1,
        usage: {
          prompt_tokens: 10,
          completion_tokens: 7,
          completion_tokens_details: { reasoning_tokens: 3 },
          prompt_cache_hit_tokens: 4,
        },
      },
    );
    agrees(body);
    expect(chatToGenerativeResponse(body, options)).toBeDefined();
    const result = translateResponse("chat", "generative", body);
    expect(result.value).toEqual({
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { text: "r", thought: true },
              { text: "g", thought: true, thoughtSignature: "gs" },
              { text: "Looking." },
              { text: "Not that." },
              { functionCall: { name: "f", args: {} } },
              { functionCall: { id: "call_2", name: "g", args: {} } },
            ],
          },
          finishReason: "SAFETY",
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 10,
        candidatesTokenCount: 4,
        thoughtsTokenCount: 3,
        cachedContentTokenCount: 4,
        totalTokenCount: 17,
      },
      modelVersion: "m",
      responseId: "chatcmpl-1",
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/a~1b", "dropped"],
      ["/choices/0/message/reasoning_details/2/id", "dropped"],
      ["/choices/0/message/tool_calls/1/~0", "dropped"],
      ["/choices/0/message/reasoning_details/0/signature", "dropped"],
      ["/choices/0/message/reasoning_details/1", "dropped"],
      ["/choices/0/message/annotations", "dropped"],
      ["/choices/0/message/refusal", "approximated"],
      ["/choices/0/message/tool_calls/0", "dropped"],
    ]);
  });
});
