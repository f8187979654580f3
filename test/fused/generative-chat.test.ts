/**
 * The fused generative → chat request path against the hub, its specification: on every body — the
 * toolkit's generative request arbitraries (plain and biased), a generator of the shape the fused path
 * takes (a system instruction and user/model turns of text parts, the sampling fields) with the edge
 * values that send it back to the hub or make it report a loss (thoughts, signatures, extra fields,
 * snake_case names, nulls, values out of chat's ranges, more than four stop sequences), the bench's
 * requests and every generative request fixture — under several option sets (the model and stream
 * flag from the URL, dialects, strict), `translateRequest` gives the same value (same bytes), losses,
 * model and stream as the hub path, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { conversationRequest, largeRequest, shortRequest } from "../../bench/generate";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { generativeToChatRequest } from "../../src/fused/generative-chat";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";

const model = "gemini-2.5-flash";
const optionSets: readonly TranslateOptions[] = [
  { model },
  { model, validate: false },
  { model, chatDialect: "compatible", stream: true },
  { model, chatDialect: "qwen" },
  { model, stream: false, strict: true },
  {},
];

const { agrees, taken } = differential("request", "generative", "chat", generativeToChatRequest, optionSets);

const text = fc.oneof(
  { weight: 10, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "a/b~c") },
);
const part = fc.oneof(
  { weight: 20, arbitrary: text.map((value) => ({ text: value })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { text: "t", thought: true },
      { text: "t", thoughtSignature: "sig" },
      { text: "t", extra: 1 },
      { inlineData: { mimeType: "image/png", data: "AAAA" } },
      { functionCall: { name: "f", args: {} } },
    ),
  },
);
const turn = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({ role: fc.constantFrom("user", "model"), parts: fc.array(part, { maxLength: 3 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { parts: [{ text: "no role" }] },
      { role: "user" },
      { role: "user", parts: [{ text: "x" }], extra: 1 },
      { parts: [{ text: "x" }], role: "model" },
    ),
  },
);
/** A sampling value: mostly within range, now and then past chat's (a clamp). */
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
    maxOutputTokens: fc.constantFrom(1, 256),
    stopSequences: fc.array(text, { maxLength: 6 }),
    candidateCount: fc.constantFrom(1, 2),
    presencePenalty: number,
    frequencyPenalty: number,
    seed: fc.constantFrom(0, 7),
  },
  { requiredKeys: [] },
);
const oddConfig = fc.constantFrom<Record<string, unknown>>(
  { max_output_tokens: 10 },
  { responseMimeType: "application/json" },
  { responseModalities: ["TEXT"] },
  { temperature: null },
);
const plainRequest = fc
  .record(
    {
      contents: fc.array(turn, { minLength: 1, maxLength: 6 }),
      systemInstruction: fc.record({ parts: fc.array(part, { maxLength: 3 }) }),
      generationConfig,
    },
    { requiredKeys: ["contents"] },
  )
  .chain((drawn) =>
    fc
      .record({
        rare: fc.oneof(
          { weight: 12, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.constantFrom(1, 2, 3) },
        ),
        odd: oddConfig,
      })
      .map(({ rare, odd }) => {
        const out: Record<string, unknown> = { ...drawn };
        if (rare === 1) out.generationConfig = { ...drawn.generationConfig, ...odd };
        if (rare === 2) out.safetySettings = [];
        if (rare === 3) out.system_instruction = { parts: [{ text: "s" }] };
        return out;
      }),
  );

const numRuns = 10_000;
/** 10,000 runs under several option sets take most of a minute on a busy machine: not vitest's default 60 s. */
const heavy = 600_000;

describe("fused generative → chat requests match the hub", () => {
  test("on every generative request fixture and the bench's requests", () => {
    const bodies = fixtures("request", "generative").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) agrees(body);
    for (const body of [
      shortRequest("generative"),
      conversationRequest("generative"),
      largeRequest("generative"),
    ])
      agrees(body);
    expect(generativeToChatRequest(shortRequest("generative"), resolveOptions({ model }))).toBeDefined();
  });

  test(
    "on the toolkit's generative requests, plain and biased",
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
    "on the plain shape, edges included, and the fused path takes a good share of it",
    () => {
      const before = taken();
      fc.assert(fc.property(plainRequest, agrees), { numRuns });
      // Without this, a fused path that always declined would pass the comparison trivially.
      expect(taken() - before).toBeGreaterThan(numRuns / 5);
    },
    heavy,
  );

  test("a plain request takes the fused path and reports as the hub does", () => {
    const body = {
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ text: "Hi" }, { text: "there" }] },
        { role: "model", parts: [{ text: "Hel" }, { text: "lo." }] },
        { role: "user", parts: [{ text: "Bye" }] },
      ],
      generationConfig: { temperature: 0.5, topK: 40, maxOutputTokens: 100, presencePenalty: 3 },
    };
    const options = { model: "m", stream: true, validate: false };
    expect(generativeToChatRequest(body, resolveOptions(options))).toBeDefined();
    const result = translateRequest("generative", "chat", body, options);
    expect(result.value).toEqual({
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        {
          role: "user",
          content: [
            { type: "text", text: "Hi" },
            { type: "text", text: "there" },
          ],
        },
        { role: "assistant", content: "Hello." },
        { role: "user", content: "Bye" },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.5,
      max_completion_tokens: 100,
      presence_penalty: 2,
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/generationConfig/topK", "dropped"],
      ["/generationConfig/presencePenalty", "clamped"],
    ]);
    expect([result.model, result.stream]).toEqual(["m", true]);
  });
});
