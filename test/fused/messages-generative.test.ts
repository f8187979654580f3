/**
 * The fused messages → generative request path against the hub, its specification: on every body — the
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
import { messagesToGenerativeRequest } from "../../src/fused/messages-generative";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { plainMessagesRequest } from "./messages-shapes";
import { differential } from "./oracle";

const optionSets: readonly TranslateOptions[] = [{}, { validate: false }, { strict: true }, { model: "x" }];

const { agrees, taken } = differential(
  "request",
  "messages",
  "generative",
  messagesToGenerativeRequest,
  optionSets,
);

const numRuns = 10_000;
/** 10,000 runs under several option sets take most of a minute on a busy machine: not vitest's default 60 s. */
const heavy = 600_000;

describe("fused messages → generative requests match the hub", () => {
  test("on every messages request fixture and the bench's requests", () => {
    const bodies = fixtures("request", "messages").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    const before = taken();
    for (const body of bodies) agrees(body);
    const bench = [shortRequest("messages"), conversationRequest("messages"), largeRequest("messages")];
    for (const body of bench) {
      agrees(body);
      expect(messagesToGenerativeRequest(body, resolveOptions({}))).toBeDefined();
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
      max_tokens: 100,
      system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
      messages: [
        { role: "assistant", content: "Hello." },
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hm", signature: "s" },
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
        {
          name: "get_weather",
          strict: true,
          input_schema: {
            type: "object",
            properties: { city: { type: "string" } },
            additionalProperties: false,
          },
        },
      ],
      tool_choice: { type: "tool", name: "get_weather", disable_parallel_tool_use: true },
      thinking: { type: "enabled", budget_tokens: 50_000 },
      metadata: { user_id: "u" },
      stop_sequences: ["1", "2", "3", "4", "5", "6"],
      temperature: 0.5,
    };
    expect(messagesToGenerativeRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("messages", "generative", body);
    expect(result.value).toEqual({
      contents: [
        { role: "user", parts: [{ text: "." }] },
        { role: "model", parts: [{ text: "Hello." }] },
        { role: "user", parts: [{ text: "Weather?" }] },
        {
          role: "model",
          parts: [{ functionCall: { id: "t1", name: "get_weather", args: { city: "Oslo" } } }],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { id: "t1", name: "get_weather", response: { error: "down" } } },
            { text: "And?" },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: "Be brief." }] },
      generationConfig: {
        temperature: 0.5,
        maxOutputTokens: 100,
        stopSequences: ["1", "2", "3", "4", "5"],
        thinkingConfig: { thinkingBudget: 24576, includeThoughts: true },
      },
      tools: [
        {
          functionDeclarations: [
            { name: "get_weather", parameters: { properties: { city: { type: "string" } }, type: "object" } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/system/0/cache_control", "dropped"],
      ["/messages/2/content/0", "dropped"],
      ["/messages/0", "synthesized"],
      ["/metadata/user_id", "dropped"],
      ["/tool_choice/disable_parallel_tool_use", "dropped"],
      ["/tools/0/strict", "dropped"],
      ["/tools/0/input_schema/additionalProperties", "dropped"],
      ["/stop_sequences/5", "dropped"],
      ["/thinking/budget_tokens", "clamped"],
    ]);
  });
});
