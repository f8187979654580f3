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
import { plainMessagesRequest } from "./messages-shapes";
import { differential } from "./oracle";

const optionSets: readonly TranslateOptions[] = [
  {},
  { validate: false },
  { chatDialect: "compatible" },
  { chatDialect: "deepseek" },
  { strict: true },
];

const { agrees, taken } = differential("request", "messages", "chat", messagesToChatRequest, optionSets);

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
      fc.assert(fc.property(plainMessagesRequest, agrees), { numRuns });
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
