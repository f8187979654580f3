/**
 * The fused messages → responses request path against the hub, its specification: on every body — the
 * toolkit's messages request arbitraries (plain, biased and the hard list), a generator of the shapes
 * the fused paths from messages take with the edge values that must send a body back to the hub or make
 * it report a loss (./messages-shapes.ts), the bench's requests and every messages request fixture —
 * under several option sets, `translateRequest` gives the same value (same bytes), losses, model and
 * stream as the hub path, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { conversationRequest, largeRequest, shortRequest } from "../../bench/generate";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { messagesToResponsesRequest } from "../../src/fused/messages-responses";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { plainMessagesRequest } from "./messages-shapes";
import { differential } from "./oracle";

const optionSets: readonly TranslateOptions[] = [{}, { validate: false }, { strict: true }];

const { agrees, taken } = differential(
  "request",
  "messages",
  "responses",
  messagesToResponsesRequest,
  optionSets,
);

const numRuns = 10_000;
/** 10,000 runs under several option sets take most of a minute on a busy machine: not vitest's default 60 s. */
const heavy = 600_000;

describe("fused messages → responses requests match the hub", () => {
  test("on every messages request fixture and the bench's requests", () => {
    const bodies = fixtures("request", "messages").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    const before = taken();
    for (const body of bodies) agrees(body);
    const bench = [shortRequest("messages"), conversationRequest("messages"), largeRequest("messages")];
    for (const body of bench) {
      agrees(body);
      expect(messagesToResponsesRequest(body, resolveOptions({}))).toBeDefined();
    }
    expect(taken() - before).toBeGreaterThan(0);
  });

  test(
    "on the toolkit's messages requests, plain, biased and the hard list",
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

  test("a conversation with tools, results, thinking and hints takes the fused path and reports as the hub does", () => {
    const body = {
      model: "m",
      max_tokens: 8,
      system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hm", signature: "s" },
            { type: "text", text: "Looking." },
            { type: "tool_use", id: "t1", name: "get_weather", input: { city: "Oslo" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "down", is_error: true },
            { type: "text", text: "And?" },
          ],
        },
      ],
      tools: [
        { name: "get_weather", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } },
      ],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
      thinking: { type: "enabled", budget_tokens: 2048 },
      metadata: { user_id: "u" },
      stop_sequences: ["\n"],
      temperature: 0.5,
      top_k: 5,
    };
    expect(messagesToResponsesRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("messages", "responses", body);
    expect(result.value).toEqual({
      model: "m",
      instructions: "Be brief.",
      input: [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: "Looking." },
        { type: "function_call", call_id: "t1", name: "get_weather", arguments: '{"city":"Oslo"}' },
        { type: "function_call_output", call_id: "t1", output: "down" },
        { role: "user", content: "And?" },
      ],
      max_output_tokens: 16,
      temperature: 0.5,
      tools: [{ type: "function", name: "get_weather", parameters: { type: "object" }, strict: false }],
      tool_choice: "required",
      parallel_tool_calls: false,
      reasoning: { effort: "medium" },
      user: "u",
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/system/0/cache_control", "dropped"],
      ["/messages/1/content/0", "dropped"],
      ["/messages/2/content/0", "approximated"],
      ["/tools/0/cache_control", "dropped"],
      ["/max_tokens", "clamped"],
      ["/top_k", "dropped"],
      ["/stop_sequences", "dropped"],
      ["/thinking/budget_tokens", "approximated"],
    ]);
  });
});
