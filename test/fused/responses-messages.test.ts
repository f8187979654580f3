/**
 * The fused responses → messages request path against the hub, its specification: on every body — the
 * toolkit's responses request arbitraries (plain, biased and the hard list), generators of the shapes
 * the fused path takes — a conversation of text, and one with function calls, their outputs, images
 * and tools — with the edge values that must send it back to the hub (./responses-shapes.ts), the
 * bench's requests and every responses request fixture — under several option sets, `translateRequest` gives the same value (same
 * bytes), losses, model and stream as the hub path, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { conversationRequest, largeRequest, shortRequest } from "../../bench/generate";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { responsesToMessagesRequest } from "../../src/fused/responses-messages";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";
import { plainResponsesRequest } from "./responses-shapes";

const optionSets: readonly TranslateOptions[] = [{}, { validate: false }, { maxTokens: 512 }];

const { agrees, taken } = differential(
  "request",
  "responses",
  "messages",
  responsesToMessagesRequest,
  optionSets,
);

const numRuns = 10_000;

describe("fused responses → messages requests match the hub", () => {
  test("on every responses request fixture and the bench's requests, which the fused path takes", () => {
    const bodies = fixtures("request", "responses").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    const before = taken();
    for (const body of bodies) agrees(body);
    expect(taken() - before).toBeGreaterThan(0);
    // The bench's bodies: a short request, a 20-turn conversation with tools, parallel function calls
    // and an image, and a 200 KB one of the same shape.
    for (const body of [
      shortRequest("responses"),
      conversationRequest("responses"),
      largeRequest("responses"),
    ]) {
      agrees(body);
      expect(responsesToMessagesRequest(body, resolveOptions({}))).toBeDefined();
    }
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
    fc.assert(fc.property(plainResponsesRequest(false), agrees), { numRuns });
    // Without this, a fused path that always declined would pass the comparison trivially.
    expect(taken() - before).toBeGreaterThan(numRuns / 2);
  }, 600_000);

  test("on the shape with function calls, outputs, images and tools, edges included, and the fused path takes a good share of it", () => {
    const before = taken();
    fc.assert(fc.property(plainResponsesRequest(true), agrees), { numRuns });
    // Measured at 12% of the evaluations (numRuns under each option set): the generator is shared with
    // the paths toward chat and generative, and many of its bodies are ones the hub changes for messages
    // (an assistant turn first, no conversation, unpaired calls).
    expect(taken() - before).toBeGreaterThan(numRuns * optionSets.length * 0.1);
  }, 600_000);

  test("a plain request takes the fused path and reports the synthesized max_tokens as the hub does", () => {
    const body = {
      model: "gpt-5-mini",
      instructions: "Be brief.",
      input: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: [{ type: "output_text", text: "Hello.", annotations: [] }] },
        { type: "message", role: "user", content: "Weather in Paris?" },
      ],
      temperature: 0.5,
      top_p: 0.9,
    };
    expect(responsesToMessagesRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("responses", "messages", body);
    expect(result.value).toEqual({
      model: "gpt-5-mini",
      max_tokens: 4096,
      system: "Be brief.",
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: [{ type: "text", text: "Hello." }] },
        { role: "user", content: "Weather in Paris?" },
      ],
      temperature: 0.5,
      stream: false,
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/max_tokens", "synthesized"],
      ["/top_p", "dropped"],
    ]);
  });

  test("function calls and outputs merge into turns, outputs in call order, reported as the hub does", () => {
    const body = {
      model: "gpt-5-mini",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Weather?" },
            { type: "input_image", image_url: "https://ex.com/a.png", detail: "auto" },
          ],
        },
        { type: "function_call", call_id: "c1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "function_call", call_id: "c2", name: "get_weather", arguments: "" },
        { type: "function_call_output", call_id: "c2", output: "rain" },
        { type: "function_call_output", call_id: "c1", output: "sun" },
        { role: "assistant", content: "Sun and rain." },
      ],
      tools: [
        {
          type: "function",
          name: "get_weather",
          parameters: { type: "object", properties: {} },
          strict: true,
        },
      ],
      tool_choice: { type: "function", name: "get_weather" },
      parallel_tool_calls: true,
      max_output_tokens: 256,
    };
    expect(responsesToMessagesRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("responses", "messages", body);
    expect(result.value).toEqual({
      model: "gpt-5-mini",
      max_tokens: 256,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Weather?" },
            { type: "image", source: { type: "url", url: "https://ex.com/a.png" } },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "c1", name: "get_weather", input: { city: "Paris" } },
            { type: "tool_use", id: "c2", name: "get_weather", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c1", content: "sun" },
            { type: "tool_result", tool_use_id: "c2", content: "rain" },
          ],
        },
        { role: "assistant", content: "Sun and rain." },
      ],
      tools: [{ name: "get_weather", input_schema: { type: "object", properties: {} } }],
      tool_choice: { type: "tool", name: "get_weather", disable_parallel_tool_use: false },
      stream: false,
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/input/0/content/1", "dropped"],
      ["/tools/0/strict", "dropped"],
    ]);
  });

  test("an output that answers no call goes to the hub, which refuses it (a shrunk counterexample, pinned)", () => {
    // Found by the shape generator with the pairing check of outputs planted out of the path.
    const body = {
      model: "gpt-5-mini",
      input: [
        { role: "user", content: "!" },
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "call_1", output: "" },
        { type: "function_call_output", call_id: "stray", output: "x" },
      ],
    };
    expect(responsesToMessagesRequest(body, resolveOptions({}))).toBeUndefined();
    expect(() => translateRequest("responses", "messages", body)).toThrow(/stray/);
    agrees(body);
  });
});
