/**
 * The fused responses → generative request path against the hub, its specification: on every body — the
 * toolkit's responses request arbitraries (plain, biased and the hard list), the generator of the plain
 * responses shapes the fused paths take (./responses-shapes.ts: instructions, string input or messages of
 * text and images, function calls and outputs paired or not, tools, `tool_choice`, sampling, and the edge
 * values that send a path back to the hub) with system and developer messages mixed in anywhere and now
 * and then a Gemini 3 model, the bench's requests and every responses request fixture — under several
 * option sets, `translateRequest` gives the same value (same bytes), losses, model and stream as the hub
 * path, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { conversationRequest, largeRequest, shortRequest } from "../../bench/generate";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { responsesToGenerativeRequest } from "../../src/fused/responses-generative";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";
import { plainResponsesRequest } from "./responses-shapes";

const optionSets: readonly TranslateOptions[] = [
  {},
  { validate: false },
  { strict: true, model: "fallback" },
  { stream: true, idPrefix: "p" },
];

const { agrees, taken } = differential(
  "request",
  "responses",
  "generative",
  responsesToGenerativeRequest,
  optionSets,
);

type Raw = Record<string, unknown>;

/** A system or developer message of text (a string or parts, now and then empty or not text). */
const systemItem = fc
  .record({
    role: fc.constantFrom("system", "developer"),
    content: fc.oneof(
      fc.constantFrom("Be brief.", ""),
      fc.constant([
        { type: "input_text", text: "a" },
        { type: "input_text", text: "" },
      ]),
      fc.constant([{ type: "output_text", text: "a" }]),
    ),
  })
  .map((item): Raw => item);

/** The plain shapes with system messages spliced in anywhere and, rarely, a Gemini 3 model. */
const request = fc
  .record({
    body: plainResponsesRequest(true),
    system: fc.option(fc.tuple(fc.nat(), systemItem), { nil: undefined, freq: 4 }),
    gemini3: fc.integer({ min: 0, max: 9 }).map((value) => value === 0),
  })
  .map(({ body, system, gemini3 }) => {
    const out: Raw = { ...body };
    if (gemini3) out.model = "gemini-3-pro-preview";
    const input = out.input;
    if (system !== undefined && Array.isArray(input)) {
      const items = [...input];
      items.splice(system[0] % (items.length + 1), 0, system[1]);
      out.input = items;
    }
    return out;
  });

const numRuns = 10_000;
/** 10,000 runs under several option sets take most of a minute on a busy machine: not vitest's default 60 s. */
const heavy = 600_000;

describe("fused responses → generative requests match the hub", () => {
  test("on every responses request fixture and the bench's requests", () => {
    const bodies = fixtures("request", "responses").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) agrees(body);
    const bench = [shortRequest("responses"), conversationRequest("responses"), largeRequest("responses")];
    for (const body of bench) {
      agrees(body);
      // The bench's shapes are the ones this path is for: it takes each of them.
      expect(responsesToGenerativeRequest(body, resolveOptions({}))).toBeDefined();
    }
  });

  test(
    "on the toolkit's responses requests, plain, biased and the hard list",
    () => {
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
    },
    heavy,
  );

  test(
    "on the plain shapes, edges included, and the fused path takes a good share of them",
    () => {
      const before = taken();
      fc.assert(fc.property(request, agrees), { numRuns });
      // Without this, a fused path that always declined would pass the comparison trivially.
      // (Four option sets each. Counted as translateRequest hands bodies over: a schema-valid body, or
      // any under `validate: false`. About 17% of the evaluations are taken, URL images and the edges
      // the generator is made of sent back to the hub; asserted as more than one in eight.)
      expect(taken() - before).toBeGreaterThan(numRuns * 0.5);
    },
    heavy,
  );

  test(
    "on plain conversations without tools, and the fused path takes a good share of them",
    () => {
      const before = taken();
      fc.assert(fc.property(plainResponsesRequest(false), agrees), { numRuns });
      // Four option sets each, counted as above: about 28% of the evaluations are taken, asserted as
      // more than one in five.
      expect(taken() - before).toBeGreaterThan(numRuns * 0.8);
    },
    heavy,
  );

  test("calls, outputs, images, tools and a late system message take the fused path as the hub reports them", () => {
    const body = {
      model: "gpt-5-mini",
      instructions: "Be brief.",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Weather?" },
            { type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "auto" },
          ],
        },
        { type: "function_call", call_id: "c1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { role: "developer", content: "Use Celsius." },
        { type: "function_call_output", call_id: "c1", output: "sunny" },
        { role: "assistant", content: "Sunny." },
      ],
      tools: [
        {
          type: "function",
          name: "get_weather",
          parameters: {
            type: "object",
            properties: { city: { type: "string" } },
            additionalProperties: false,
          },
          strict: true,
        },
      ],
      tool_choice: "required",
      parallel_tool_calls: true,
      temperature: 0.5,
    };
    expect(responsesToGenerativeRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("responses", "generative", body);
    expect(result.value).toEqual({
      contents: [
        {
          role: "user",
          parts: [{ text: "Weather?" }, { inlineData: { mimeType: "image/png", data: "AAAA" } }],
        },
        {
          role: "model",
          parts: [{ functionCall: { id: "c1", name: "get_weather", args: { city: "Paris" } } }],
        },
        {
          role: "user",
          parts: [{ functionResponse: { id: "c1", name: "get_weather", response: { content: "sunny" } } }],
        },
        { role: "model", parts: [{ text: "Sunny." }] },
      ],
      systemInstruction: { parts: [{ text: "Be brief." }, { text: "Use Celsius." }] },
      generationConfig: { temperature: 0.5 },
      tools: [
        {
          functionDeclarations: [
            { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY" } },
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/input/2/content", "approximated"],
      ["/input/0/content/1", "dropped"],
      ["/parallel_tool_calls", "dropped"],
      ["/tools/0/strict", "dropped"],
      ["/tools/0/parameters/additionalProperties", "dropped"],
    ]);
    expect([result.model, result.stream]).toEqual(["gpt-5-mini", false]);
  });
});
