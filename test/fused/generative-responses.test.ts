/**
 * The fused generative → responses request path against the hub, its specification: on every body —
 * the toolkit's generative request arbitraries (plain, biased and the hard list), a generator of the
 * shapes the fused path takes (a system instruction, user turns of text, images and function responses,
 * model turns of text and function calls with and without ids, function declarations, `toolConfig`, the
 * sampling fields) with the edge values that send it back to the hub or make it report a loss (thoughts,
 * signatures, extra fields, snake_case names, nulls, other media, responses without an id that answer
 * nothing, calls without a response and stray responses, error and JSON responses, provider tools,
 * unknown calling modes, out-of-range sampling values, stop sequences), the bench's requests and every
 * generative request fixture — under several option sets (the model and stream flag from the URL, an id
 * prefix, strict, no model), `translateRequest` gives the same value (same bytes), losses, model and
 * stream as the hub path, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { conversationRequest, largeRequest, shortRequest } from "../../bench/generate";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { generativeToResponsesRequest } from "../../src/fused/generative-responses";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { exchange, rare, toolConfig, tools } from "./generative-shapes";
import { differential } from "./oracle";

const model = "gemini-2.5-flash";
const optionSets: readonly TranslateOptions[] = [
  { model },
  { model, validate: false },
  { model, stream: true, idPrefix: "a/b" },
  { model, stream: false, strict: true },
  {},
];

const { agrees, taken } = differential(
  "request",
  "generative",
  "responses",
  generativeToResponsesRequest,
  optionSets,
);

type Raw = Record<string, unknown>;
const text = fc.oneof(
  { weight: 10, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "a/b~c") },
);
const textPart = text.map((value) => ({ text: value }));
const oddPart = fc.constantFrom<Raw>(
  { text: "t", thought: true },
  { text: "t", thoughtSignature: "sig" },
  { text: "t", extra: 1 },
  { inlineData: { mimeType: "audio/wav", data: "AAAA" } },
  { inlineData: { mimeType: "image/png", data: "AAAA" }, mediaResolution: "low" },
  { fileData: { fileUri: "gs://b/a" } },
  { executableCode: { language: "PYTHON", code: "1" } },
);
const imagePart = fc.oneof(
  fc
    .constantFrom("image/png", "image/jpeg", "image/gif")
    .map((mimeType) => ({ inlineData: { mimeType, data: "iVBORw0K" } })),
  fc
    .constantFrom("https://ex.com/a.png", "gs://bucket/a.jpg")
    .map((fileUri) => ({ fileData: { mimeType: "image/png", fileUri } })),
);
const userPart = rare<Raw>(
  fc.oneof({ weight: 4, arbitrary: textPart }, { weight: 1, arbitrary: imagePart }),
  oddPart,
);
const modelPart = rare<Raw>(textPart, oddPart);

const turn = fc.oneof(
  { weight: 6, arbitrary: fc.array(userPart, { maxLength: 3 }).map((parts) => [{ role: "user", parts }]) },
  { weight: 5, arbitrary: fc.array(modelPart, { maxLength: 3 }).map((parts) => [{ role: "model", parts }]) },
  { weight: 3, arbitrary: exchange },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Raw[]>(
      [{ parts: [{ text: "no role" }] }],
      [{ role: "user" }],
      [{ role: "user", parts: [{ text: "x" }], extra: 1 }],
      [{ role: "model", parts: [{ functionCall: { name: "f", args: {} } }] }],
      [{ role: "user", parts: [{ functionResponse: { name: "f", response: { content: "x" } } }] }],
      [{ role: "model", parts: [{ functionResponse: { name: "f", response: {} } }] }],
    ),
  },
);

/** A sampling value: mostly within range, now and then past the responses one (a clamp). */
const number = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0, 0.25, 0.5, 0.7, 1) },
  { weight: 1, arbitrary: fc.constantFrom(1.5, 2, 2.5, -1, -3, 16) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -4, max: 4 }) },
);
const generationConfig = fc.record(
  {
    temperature: number,
    topP: number,
    topK: fc.constantFrom(1, 40),
    maxOutputTokens: fc.constantFrom(1, 15, 16, 256),
    stopSequences: fc.array(text, { maxLength: 3 }),
    candidateCount: fc.constantFrom(1, 2),
    presencePenalty: number,
    frequencyPenalty: number,
    seed: fc.constantFrom(0, 7),
  },
  { requiredKeys: [] },
);
/** Sampling fields are rare (each one a loss or a clamp), so that many bodies are without a loss. */
const sampling = rare<Raw>(
  fc.constantFrom<Raw>({}, { temperature: 0.7 }, { temperature: 0.7, maxOutputTokens: 1024 }),
  generationConfig,
  fc.constantFrom<Raw>(
    { max_output_tokens: 10 },
    { responseMimeType: "application/json" },
    { temperature: null },
    { responseModalities: ["TEXT"], temperature: 0.5 },
    { responseModalities: ["TEXT", "IMAGE"] },
    { response_modalities: ["TEXT"] },
  ),
);

const plainRequest = fc
  .record(
    {
      contents: fc.array(turn, { minLength: 1, maxLength: 6 }).map((groups) => groups.flat()),
      systemInstruction: fc.record(
        {
          parts: fc.array(rare<Raw>(textPart, oddPart), { maxLength: 3 }),
          role: rare<unknown>(fc.constantFrom("user", "system"), fc.constant(1)),
        },
        { requiredKeys: ["parts"] },
      ),
      generationConfig: sampling,
      tools,
      toolConfig,
      odd: rare<Raw>(
        fc.constant({}),
        fc.constant({ safetySettings: [] }),
        fc.constant({ system_instruction: { parts: [{ text: "s" }] } }),
        fc.constant({ cachedContent: "c" }),
      ),
    },
    { requiredKeys: ["contents", "odd"] },
  )
  .map(({ odd, ...body }) => ({ ...body, ...odd }));

const numRuns = 10_000;
/** 10,000 runs under several option sets take most of a minute on a busy machine: not vitest's default 60 s. */
const heavy = 600_000;

describe("fused generative → responses requests match the hub", () => {
  test("on every generative request fixture and the bench's requests", () => {
    const bodies = fixtures("request", "generative").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) agrees(body);
    const bench = [shortRequest("generative"), conversationRequest("generative"), largeRequest("generative")];
    for (const body of bench) {
      agrees(body);
      // The bench's shapes are the ones this path is for: it takes each of them.
      expect(generativeToResponsesRequest(body, resolveOptions({ model }))).toBeDefined();
    }
  });

  test(
    "on the toolkit's generative requests, plain, biased and the hard list",
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            arbitraries.request("generative"),
            arbitraries.request("generative", true),
            arbitraries.request("generative", ["unicode", "empty", "zeros"]),
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
      fc.assert(fc.property(plainRequest, agrees), { numRuns });
      // Without this, a fused path that always declined would pass the comparison trivially.
      expect(taken() - before).toBeGreaterThan(numRuns);
    },
    heavy,
  );

  test("calls, responses matched by name, tools and tool config take the fused path as the hub reports them", () => {
    const body = {
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [
        {
          role: "user",
          parts: [{ text: "Weather?" }, { inlineData: { mimeType: "image/png", data: "AAAA" } }],
        },
        { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] },
        {
          role: "user",
          parts: [{ functionResponse: { name: "get_weather", response: { content: "sunny" } } }],
        },
        { role: "model", parts: [{ text: "Sun" }, { text: "ny." }] },
      ],
      tools: [
        {
          functionDeclarations: [
            { name: "get_weather", parameters: { type: "OBJECT", properties: { city: { type: "STRING" } } } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
      generationConfig: { maxOutputTokens: 8, topK: 40 },
    };
    const options = { model: "m", idPrefix: "x" };
    expect(generativeToResponsesRequest(body, resolveOptions(options))).toBeDefined();
    const result = translateRequest("generative", "responses", body, options);
    expect(result.value).toEqual({
      model: "m",
      instructions: "Be brief.",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Weather?" },
            { type: "input_image", image_url: "data:image/png;base64,AAAA" },
          ],
        },
        { type: "function_call", call_id: "x_req1_0", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "x_req1_0", output: "sunny" },
        {
          role: "assistant",
          content: [
            { type: "output_text", text: "Sun" },
            { type: "output_text", text: "ny." },
          ],
        },
      ],
      max_output_tokens: 16,
      tools: [
        {
          type: "function",
          name: "get_weather",
          parameters: { properties: { city: { type: "string" } }, type: "object" },
          strict: false,
        },
      ],
      tool_choice: { type: "function", name: "get_weather" },
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/contents/1/parts/0/functionCall/id", "synthesized"],
      ["/generationConfig/maxOutputTokens", "clamped"],
      ["/generationConfig/topK", "dropped"],
    ]);
    expect([result.model, result.stream]).toEqual(["m", false]);
  });
});
