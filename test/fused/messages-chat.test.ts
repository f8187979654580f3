/**
 * The fused messages → chat request path against the hub, its specification: on every body — the
 * toolkit's messages request arbitraries (plain and biased), a generator of the shapes the fused path
 * takes (text, images, tools, tool calls and results, sampling fields) with the edge values that must
 * send it back to the hub or make it report a loss (nulls, extra fields, `cache_control`, error
 * results, values out of chat's ranges, more than four stop sequences), the bench's conversation and
 * every messages request fixture — under several option sets, `translateRequest` gives the same value
 * (same bytes), losses, model and stream as the hub path, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { conversationRequest, largeRequest, shortRequest } from "../../bench/generate";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { messagesToChatRequest } from "../../src/fused/messages-chat";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";

const optionSets: readonly TranslateOptions[] = [
  {},
  { validate: false },
  { chatDialect: "compatible" },
  { chatDialect: "deepseek" },
  { strict: true },
];

const { agrees, taken } = differential("request", "messages", "chat", messagesToChatRequest, optionSets);

const text = fc.oneof(
  { weight: 12, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "hi ", " hi", "\t\n", "a/b~c") },
);
/**
 * Now and then one odd field on a node: a `cache_control` (which the fused path reports as the hub
 * does, or declines when it is not an object), one the hub reports otherwise, or a null.
 */
const oddity = fc.oneof(
  { weight: 24, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { cache_control: { type: "ephemeral" } },
      { cache_control: { type: "ephemeral", ttl: "1h" } },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { cache_control: null },
      { cache_control: "x" },
      { citations: null },
      { extra: 1 },
      { type: null },
    ),
  },
);
const withOddity = <T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.tuple(arbitrary, oddity).map(([value, odd]) => (odd === undefined ? value : { ...value, ...odd }));

const textBlock = withOddity(text.map((value) => ({ type: "text", text: value })));
const imageBlock = withOddity(
  fc.oneof(
    fc.record({
      type: fc.constant("image"),
      source: fc.record({
        type: fc.constant("base64"),
        media_type: fc.constantFrom("image/png", "image/jpeg"),
        data: fc.constantFrom("iVBORw0KGgo=", "AAAA"),
      }),
    }),
    fc.record({
      type: fc.constant("image"),
      source: fc.record({ type: fc.constant("url"), url: fc.constantFrom("https://x.test/a.png", "") }),
    }),
  ),
);
const json = fc.dictionary(
  fc.constantFrom("city", "q", "n", "a/b"),
  fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean()),
  { maxKeys: 3 },
);
const toolUse = withOddity(
  fc.record({
    type: fc.constant("tool_use"),
    id: fc.constantFrom("toolu_1", "toolu_2", ""),
    name: fc.constantFrom("get_weather", "run_sql"),
    input: fc.oneof({ weight: 9, arbitrary: json }, { weight: 1, arbitrary: fc.constantFrom("s", 1, null) }),
  }),
);
const toolResult = withOddity(
  fc.record(
    {
      type: fc.constant("tool_result"),
      tool_use_id: fc.constantFrom("toolu_1", "toolu_2"),
      content: fc.oneof(text, fc.array(textBlock, { maxLength: 3 }), fc.array(imageBlock, { maxLength: 1 })),
      is_error: fc.boolean(),
    },
    { requiredKeys: ["type", "tool_use_id"] },
  ),
);
const userMessage = fc.record({
  role: fc.constant("user"),
  content: fc.oneof(
    { weight: 3, arbitrary: text },
    {
      weight: 2,
      arbitrary: fc.array(fc.oneof({ weight: 3, arbitrary: textBlock }, imageBlock, toolResult), {
        maxLength: 4,
      }),
    },
  ),
});
const assistantMessage = fc.record({
  role: fc.constant("assistant"),
  content: fc.oneof(
    { weight: 3, arbitrary: text },
    { weight: 2, arbitrary: fc.array(fc.oneof(textBlock, toolUse), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.constant([{ type: "thinking", thinking: "hm", signature: "s" }]),
    },
  ),
});
const otherMessage = fc.constantFrom<Record<string, unknown>>(
  { role: "system", content: "late" },
  { role: "user", content: "x", name: "n" },
  {
    role: "user",
    content: [{ type: "document", source: { type: "text", media_type: "text/plain", data: "d" } }],
  },
);
const message = fc.oneof(
  { weight: 10, arbitrary: userMessage },
  { weight: 10, arbitrary: assistantMessage },
  { weight: 1, arbitrary: otherMessage },
);
const tool = withOddity(
  fc.record(
    {
      type: fc.constant("custom"),
      name: fc.constantFrom("get_weather", "run_sql"),
      description: text,
      input_schema: fc.constantFrom(
        { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        { type: "object" },
      ),
      strict: fc.boolean(),
    },
    { requiredKeys: ["name", "input_schema"] },
  ),
);
const toolChoice = fc.oneof(
  fc.constantFrom({ type: "auto" }, { type: "any" }, { type: "none" }, { type: "tool", name: "run_sql" }),
  fc.record({ type: fc.constantFrom("auto", "any"), disable_parallel_tool_use: fc.boolean() }),
  fc.constantFrom({ type: "none", disable_parallel_tool_use: true }, { type: "auto", extra: 1 }),
);
/** A sampling value: mostly within range, now and then past chat's (a clamp) or the messages schema's. */
const number = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0, 0.25, 0.5, 0.7, 1) },
  { weight: 1, arbitrary: fc.constantFrom(1.5, 2, 2.5, -1, 16) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -4, max: 4 }) },
);
/** The shapes the fused path takes, with values at and past its edges. */
const plainRequest = fc
  .record(
    {
      model: fc.constantFrom("claude-sonnet-4-5", "m"),
      max_tokens: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(1, 256, 4096) },
        { weight: 1, arbitrary: fc.constantFrom(0, 1.5, -3) },
      ),
      system: fc.oneof(text, fc.array(textBlock, { maxLength: 3 })),
      messages: fc.array(message, { maxLength: 6 }),
      temperature: number,
      top_p: number,
      top_k: fc.constantFrom(0, 40),
      stop_sequences: fc.array(text, { maxLength: 6 }),
      stream: fc.boolean(),
      tools: fc.array(tool, { maxLength: 3 }),
      tool_choice: toolChoice,
      extra: fc.constantFrom<Record<string, unknown>>(
        { metadata: { user_id: "u" } },
        { thinking: { type: "enabled", budget_tokens: 2048 } },
        { top_k: null },
        { unknown_field: true },
        { service_tier: "auto" },
        { cache_control: { type: "ephemeral" } },
      ),
    },
    { requiredKeys: ["model", "max_tokens", "messages"] },
  )
  .chain((drawn) =>
    fc
      .record({
        first: userMessage,
        rare: fc.oneof(
          { weight: 12, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.constantFrom(1, 2) },
        ),
      })
      .map(({ first, rare }) => {
        const { extra, ...body } = drawn as typeof drawn & { extra?: Record<string, unknown> };
        const out: Record<string, unknown> = { ...body, messages: [first, ...drawn.messages] };
        if (rare === 1 && extra !== undefined) Object.assign(out, extra);
        if (rare === 2) out.temperature = null;
        return out;
      }),
  );

const numRuns = 10_000;
/** 10,000 runs under several option sets take most of a minute on a busy machine: not vitest's default 60 s. */
const heavy = 600_000;

describe("fused messages → chat requests match the hub", () => {
  test("on every messages request fixture and the bench's requests", () => {
    const bodies = fixtures("request", "messages").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    const before = taken();
    for (const body of bodies) agrees(body);
    const bench = [shortRequest("messages"), conversationRequest("messages"), largeRequest("messages")];
    for (const body of bench) {
      agrees(body);
      expect(messagesToChatRequest(body, resolveOptions({}))).toBeDefined();
    }
    expect(taken() - before).toBeGreaterThan(0);
  });

  test(
    "on the toolkit's messages requests, plain and biased",
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            arbitraries.request("messages"),
            arbitraries.request("messages", true),
            arbitraries.request("messages", ["unicode", "empty", "zeros"]),
          ),
          agrees,
        ),
        { numRuns },
      );
    },
    heavy,
  );

  test(
    "on the shapes the fused path takes, edges included, and it takes a good share of them",
    () => {
      const before = taken();
      fc.assert(fc.property(plainRequest, agrees), { numRuns });
      // Without this, a fused path that always declined would pass the comparison trivially.
      expect(taken() - before).toBeGreaterThan(numRuns / 5);
    },
    heavy,
  );

  test("a request with tool calls, results and cache hints takes the fused path and reports as the hub does", () => {
    const body = {
      model: "m",
      max_tokens: 100,
      system: "Be brief.",
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Looking." },
            { type: "tool_use", id: "t1", name: "get_weather", input: { city: "Oslo" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "down", is_error: true },
            { type: "text", text: "And?", cache_control: { type: "ephemeral" } },
          ],
        },
      ],
      tools: [
        { name: "get_weather", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } },
      ],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
      temperature: 0.5,
      top_k: 5,
    };
    expect(messagesToChatRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("messages", "chat", body);
    expect(result.value).toEqual({
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: "Looking.",
          tool_calls: [
            { id: "t1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: "tool", tool_call_id: "t1", content: "down" },
        { role: "user", content: "And?" },
      ],
      temperature: 0.5,
      max_completion_tokens: 100,
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
      tool_choice: "required",
      parallel_tool_calls: false,
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/messages/2/content/0", "approximated"],
      ["/messages/2/content/1/cache_control", "dropped"],
      ["/tools/0/cache_control", "dropped"],
      ["/top_k", "dropped"],
    ]);
  });
});
