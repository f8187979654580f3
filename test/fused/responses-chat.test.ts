/**
 * The fused responses → chat request path against the hub, its specification: on every body — the
 * toolkit's responses request arbitraries (plain and biased), a generator of the plain shape the fused
 * path takes with the edge values that must send it back to the hub (./responses-shapes.ts), and every
 * responses request fixture — under several option sets, `translateRequest` gives the same value (same
 * bytes), losses, model and stream as the hub path, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { responsesToChatRequest } from "../../src/fused/responses-chat";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";
import { plainResponsesRequest } from "./responses-shapes";

const optionSets: readonly TranslateOptions[] = [
  {},
  { validate: false },
  { chatDialect: "compatible" },
  { chatDialect: "deepseek", model: "fallback" },
];

const { agrees, taken } = differential("request", "responses", "chat", responsesToChatRequest, optionSets);

const numRuns = 10_000;

describe("fused responses → chat requests match the hub", () => {
  test("on every responses request fixture", () => {
    const bodies = fixtures("request", "responses").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) agrees(body);
  });

  test("on the toolkit's responses requests, plain and biased", () => {
    const before = taken();
    fc.assert(
      fc.property(
        fc.oneof(
          arbitraries.request("responses"),
          arbitraries.request("responses", true),
          arbitraries.request("responses", ["unicode", "empty", "zeros"]),
        ),
        agrees,
      ),
      { numRuns },
    );
    // The toolkit's requests carry fields the hub reports; some are plain all the same.
    expect(taken() - before).toBeGreaterThan(0);
  }, 600_000);

  test("on the plain shape, edges included, and the fused path takes a good share of it", () => {
    const before = taken();
    fc.assert(fc.property(plainResponsesRequest(true), agrees), { numRuns });
    // Without this, a fused path that always declined would pass the comparison trivially.
    expect(taken() - before).toBeGreaterThan(numRuns / 2);
  }, 600_000);

  test("a plain request takes the fused path and reports parallel_tool_calls without tools as the hub does", () => {
    const body = {
      model: "gpt-5-mini",
      instructions: "Be brief.",
      input: [
        { role: "user", content: "Weather in Paris?" },
        { type: "function_call", call_id: "c1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "c1", output: "sunny" },
        { role: "assistant", content: "Sunny." },
      ],
      tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: {} } }],
      temperature: 0.5,
      max_output_tokens: 256,
    };
    expect(responsesToChatRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("responses", "chat", body);
    expect(result.value).toEqual({
      model: "gpt-5-mini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "sunny" },
        { role: "assistant", content: "Sunny." },
      ],
      temperature: 0.5,
      max_completion_tokens: 256,
      tools: [
        {
          type: "function",
          function: { name: "get_weather", parameters: { type: "object", properties: {} } },
        },
      ],
    });
    expect(result.losses).toEqual([]);
    const { tools: _tools, ...toolless } = body;
    const without = translateRequest("responses", "chat", { ...toolless, parallel_tool_calls: true });
    expect(without.value.parallel_tool_calls).toBeUndefined();
    expect(without.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/parallel_tool_calls", "dropped"],
    ]);
  });
});
