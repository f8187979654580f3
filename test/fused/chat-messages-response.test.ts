/**
 * The fused chat → messages response path against the hub, its specification: on every body — every
 * chat response fixture, the toolkit's chat response arbitraries (plain and biased), and a generator
 * of the shape the fused path takes with the values at and past its edges (several choices, content
 * parts, blank and malformed arguments, calls without ids, every finish reason, usage with nulls,
 * unknown fields blank and not, keys that need escaping in a pointer, values of the wrong type) — under
 * several option sets (ids and `created` given and not, unvalidated, strict, dialects),
 * `translateResponse` gives the same value (same bytes) and losses as the hub, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { chatToMessagesResponse } from "../../src/fused/chat-messages-response";
import { translateResponse } from "../../src/index";
import { unknownFieldsOf, word } from "./oracle";
import { responsePathTests } from "./response-suite";

const optionSets: readonly TranslateOptions[] = [
  {},
  { idPrefix: "gw", created: 1_700_000_000 },
  { validate: false },
  { strict: true, chatDialect: "deepseek" },
];

/** Now and then a field of no known meaning, blank or not, its key needing escaping or not. */
const unknownFields = unknownFieldsOf("logprobs", "x_vendor", "a/b", "t~1", "service_tier");
const args = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .dictionary(word, fc.oneof(word, fc.integer()), { maxKeys: 3 })
      .map((value) => JSON.stringify(value)),
  },
  { weight: 1, arbitrary: fc.constantFrom("", "  ", "[1]", "null", "{bad", "not json", '"s"', "{}") },
);
const call = fc
  .record({
    id: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom("call_1", "call_2", "c") },
      { weight: 1, arbitrary: fc.constantFrom("", undefined, 7) },
    ),
    type: fc.oneof(
      { weight: 8, arbitrary: fc.constant("function") },
      { weight: 1, arbitrary: fc.constantFrom("custom", undefined) },
    ),
    name: fc.constantFrom("get_weather", "search", ""),
    arguments: args,
    index: fc.option(fc.nat(3), { nil: undefined }),
    extra: unknownFields,
    signed: fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      {
        weight: 2,
        arbitrary: fc.constantFrom<unknown>(
          { google: { thought_signature: "sig" } },
          { google: { thought_signature: null } },
          { google: null },
          { google: {} },
          { other: 1 },
          "x",
          null,
        ),
      },
    ),
  })
  .map(({ id, type, name, arguments: text, index, extra, signed }) => {
    const value: Record<string, unknown> = { ...extra };
    if (id !== undefined) value.id = id;
    if (type !== undefined) value.type = type;
    if (type === "custom") value.custom = { name, input: text };
    else value.function = { name, arguments: text };
    if (index !== undefined) value.index = index;
    if (signed !== undefined) value.extra_content = signed;
    return value;
  });
const text = fc.oneof(
  { weight: 4, arbitrary: word },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
  { weight: 1, arbitrary: fc.constant([{ type: "text", text: "part" }]) },
);
/** Gemini's message-level thought signatures, as its compatible endpoint sends them and past that. */
const geminiSignatures: readonly Record<string, unknown>[] = [
  { extra_content: { google: { thought: true, thought_signature: "sig" } }, thought_signature: "sig" },
  { extra_content: { google: { thought_signature: "" } }, thought_signature: "m" },
  { extra_content: { google: { thought_signature: "sig" }, "a/b": 1 } },
  { extra_content: { google: null, other: "" } },
  { extra_content: { google: { thought_signature: 5 } } },
  { extra_content: "x" },
  { extra_content: null, thought_signature: "" },
  { thought_signature: 3 },
];
/** OpenRouter reasoning entries of each type and format, signed or not, with and without unknown fields. */
const reasoningDetails: readonly Record<string, unknown>[] = [
  { type: "reasoning.text", text: "r", signature: "sig", format: "anthropic-claude-v1", index: 0 },
  { type: "reasoning.text", text: "r", signature: "", format: "anthropic-claude-v1", id: "x" },
  { type: "reasoning.text", signature: "sig", format: "google-gemini-v1" },
  { type: "reasoning.text", text: "r", signature: null, format: null, id: "" },
  { type: "reasoning.summary", summary: "s", format: "openai-responses-v1" },
  { type: "reasoning.summary", format: "anthropic-claude-v1", "a/b": 1 },
  { type: "reasoning.encrypted", data: "enc", format: "anthropic-claude-v1" },
  { type: "reasoning.encrypted", data: "enc", format: "google-gemini-v1" },
  { type: "reasoning.encrypted", format: "unknown" },
  { type: "reasoning.other", text: "r", id: "x" },
];
const message = fc
  .record({
    content: text,
    refusal: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(null, undefined) },
      { weight: 1, arbitrary: word },
    ),
    reasoning_content: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(null, "", "thought") },
    ),
    reasoning: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(null, "", "other thought") },
    ),
    tool_calls: fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(null, []) },
      { weight: 3, arbitrary: fc.array(call, { minLength: 1, maxLength: 3 }) },
    ),
    annotations: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          null,
          [],
          [{ type: "url_citation", url_citation: { url: "u", title: "t", start_index: 0, end_index: 1 } }],
        ),
      },
    ),
    rare: fc.oneof(
      { weight: 12, arbitrary: fc.constant({}) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          { audio: null },
          { function_call: null },
          { function_call: { name: "f", arguments: "{}" } },
          { reasoning_details: [] },
          { reasoning_details: [{ type: "reasoning.text", text: "r", format: "unknown" }] },
          ...reasoningDetails.map((entry) => ({ reasoning_details: [entry], reasoning: "r" })),
          { reasoning_details: reasoningDetails },
          { reasoning_details: [{ type: "reasoning.text", text: 3 }] },
          { reasoning_details: ["entry"] },
          {
            audio: { id: "", data: "", expires_at: 0, transcript: "" },
            function_call: { name: "", arguments: "" },
          },
          { function_call: "call" },
          { thought_signature: "sig" },
          ...geminiSignatures,
          ...geminiSignatures,
          { audio: { id: "a", data: "", expires_at: 0, transcript: "said" } },
        ),
      },
    ),
    extra: unknownFields,
  })
  .map(({ rare, extra, ...fields }) => {
    const value: Record<string, unknown> = { role: "assistant", ...extra, ...rare };
    for (const [key, field] of Object.entries(fields)) if (field !== undefined) value[key] = field;
    return value;
  });
const count = fc.oneof(
  { weight: 6, arbitrary: fc.nat(5000) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, 0, "12") },
);
const usage = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, "none") },
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          prompt_tokens: count,
          completion_tokens: count,
          total_tokens: count,
          prompt_tokens_details: fc.option(
            fc.record(
              { cached_tokens: count, cache_write_tokens: count, audio_tokens: count },
              { requiredKeys: [] },
            ),
          ),
          completion_tokens_details: fc.option(
            fc.record({ reasoning_tokens: count, audio_tokens: count }, { requiredKeys: [] }),
          ),
          prompt_cache_hit_tokens: count,
          extra: unknownFields,
        },
        { requiredKeys: ["prompt_tokens", "completion_tokens", "extra"] },
      )
      .map(({ extra, ...fields }) => {
        const value: Record<string, unknown> = { ...extra };
        for (const [key, field] of Object.entries(fields)) if (field !== undefined) value[key] = field;
        return value;
      }),
  },
);
const choice = fc
  .record({
    message,
    finish_reason: fc.constantFrom(
      "stop",
      "length",
      "tool_calls",
      "function_call",
      "content_filter",
      null,
      "",
      "weird",
      undefined,
    ),
    extra: unknownFields,
  })
  .map(({ message: body, finish_reason, extra }) => {
    const value: Record<string, unknown> = { index: 0, message: body, ...extra };
    if (finish_reason !== undefined) value.finish_reason = finish_reason;
    return value;
  });
/** The shape the fused path takes, with values at and past its edges. */
const edgeResponse = fc
  .record({
    id: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom("chatcmpl-1", "x") },
      { weight: 1, arbitrary: fc.constantFrom(undefined, 3) },
    ),
    model: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom("gpt-4o-mini", "") },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    choices: fc.oneof(
      { weight: 8, arbitrary: fc.array(choice, { minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.array(choice, { maxLength: 2 }) },
    ),
    usage,
    extra: unknownFields,
  })
  .map(({ id, model, choices, usage: counts, extra }) => {
    const value: Record<string, unknown> = { object: "chat.completion", created: 1_700_000_001, ...extra };
    if (id !== undefined) value.id = id;
    if (model !== undefined) value.model = model;
    value.choices = choices;
    if (counts !== undefined) value.usage = counts;
    return value;
  });

describe("fused chat → messages responses match the hub", () => {
  responsePathTests({
    from: "chat",
    to: "messages",
    path: chatToMessagesResponse,
    optionSets,
    fixtures: {
      title: "on every chat response fixture, and the fused path takes most of them",
      taken: { over: 0.6 },
    },
    // About two thirds of them in the plain mix; the biased ones lean toward what it declines.
    toolkit: 1 / 3,
    edge: {
      arbitrary: edgeResponse,
      least: 1 / 5,
    },
  });

  test("a completion with text and a call takes the fused path, and its losses are the hub's", () => {
    const body = {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "m",
      system_fingerprint: "fp",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Looking.",
            tool_calls: [{ id: "", type: "function", function: { name: "f", arguments: "[1]" } }],
          },
          finish_reason: "tool_calls",
        },
      ],
    };
    expect(chatToMessagesResponse(body, resolveOptions({}))).toBeDefined();
    const result = translateResponse("chat", "messages", body);
    expect(result.value).toEqual({
      id: "chatcmpl-1",
      type: "message",
      role: "assistant",
      model: "m",
      content: [
        { type: "text", text: "Looking." },
        { type: "tool_use", id: "gp_chatcmpl-1_0", name: "f", input: { _raw: "[1]" } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/system_fingerprint", "dropped"],
      ["/choices/0/message/tool_calls/0/function/arguments", "approximated"],
      ["/usage", "synthesized"],
    ]);
  });
});
