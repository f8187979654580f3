/**
 * The fused generative → messages request path against the hub, its specification: on every body — the
 * toolkit's generative request arbitraries (plain, biased and the hard list), a generator of the shape
 * the fused path takes (a system instruction and user/model turns of text parts, the sampling fields)
 * with the edge values that send it back to the hub or make it report a loss (thoughts, signatures,
 * extra fields, snake_case names, nulls, blank and whitespace-edged text, empty turns, a model turn
 * first, values out of the messages ranges, fractional `topK` and `maxOutputTokens`, whitespace-only
 * stop sequences, penalties, seeds and candidate counts) and the bench's requests and every generative
 * request fixture — under several option sets (the model and stream flag from the URL, a given budget,
 * strict), `translateRequest` gives the same value (same bytes), losses, model and stream as the hub
 * path, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { conversationRequest, largeRequest, shortRequest } from "../../bench/generate";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { generativeToMessagesRequest } from "../../src/fused/generative-messages";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";

const model = "gemini-2.5-flash";
const optionSets: readonly TranslateOptions[] = [
  { model },
  { model, validate: false },
  { model, stream: true, maxTokens: 100 },
  { model, maxTokens: 4096, validate: false },
  { model, stream: false, strict: true },
  {},
];

const { agrees, taken } = differential(
  "request",
  "generative",
  "messages",
  generativeToMessagesRequest,
  optionSets,
);

const text = fc.oneof(
  { weight: 10, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "a/b~c", "tail ", " lead", "x\n") },
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
/** A turn of one to three parts, now and then an odd one (an empty turn, no role, an extra field). */
const turn = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      role: fc.constantFrom("user", "model"),
      parts: fc.array(part, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { role: "user", parts: [] },
      { role: "model", parts: [] },
      { parts: [{ text: "no role" }] },
      { role: "user" },
      { role: "user", parts: [{ text: "x" }], extra: 1 },
      { parts: [{ text: "x" }], role: "model" },
    ),
  },
);
/** Turns that mostly start with a user turn (a model turn first is the hub's: it inserts a user turn). */
const contents = fc
  .tuple(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          role: fc.constant("user"),
          parts: fc.array(part, { minLength: 1, maxLength: 3 }),
        }),
      },
      { weight: 1, arbitrary: turn },
    ),
    fc.array(turn, { maxLength: 5 }),
  )
  .map(([first, rest]) => [first, ...rest]);
/** A sampling value: mostly within range, now and then past the messages 0–1 (a clamp). */
const number = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0, 0.25, 0.5, 0.7, 1) },
  { weight: 1, arbitrary: fc.constantFrom(1.5, 2, -0.5, -1, 16, -0) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -4, max: 4 }) },
);
const generationConfig = fc.record(
  {
    temperature: number,
    topP: number,
    topK: fc.constantFrom(0, 1, 40, 2.5, -1),
    maxOutputTokens: fc.constantFrom(1, 256, 256, 0, 1.5),
    stopSequences: fc.array(text, { maxLength: 6 }),
    candidateCount: fc.constantFrom(1, 1, 2),
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
  { thinkingConfig: { thinkingBudget: 2048 } },
  { logprobs: 2 },
  { stopSequences: "x" },
);
const plainRequest = fc
  .record(
    {
      contents,
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
          { weight: 1, arbitrary: fc.constantFrom(1, 2, 3, 4) },
        ),
        odd: oddConfig,
      })
      .map(({ rare, odd }) => {
        const out: Record<string, unknown> = { ...drawn };
        if (rare === 1) out.generationConfig = { ...drawn.generationConfig, ...odd };
        if (rare === 2) out.safetySettings = [];
        if (rare === 3) out.system_instruction = { parts: [{ text: "s" }] };
        if (rare === 4) out.tools = [];
        return out;
      }),
  );

const numRuns = 10_000;
/** 10,000 runs under several option sets take most of a minute on a busy machine: not vitest's default 60 s. */
const heavy = 600_000;

describe("fused generative → messages requests match the hub", () => {
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
    expect(generativeToMessagesRequest(shortRequest("generative"), resolveOptions({ model }))).toBeDefined();
  });

  test(
    "on the toolkit's generative requests, plain, biased and a hard list",
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
        { role: "user", parts: [{ text: "again" }] },
        { role: "model", parts: [{ text: "Hel" }, { text: "lo." }] },
      ],
      generationConfig: {
        temperature: 1.5,
        topP: 0.5,
        topK: 40,
        seed: 7,
        presencePenalty: 1,
        stopSequences: ["END", " "],
      },
    };
    const options = { model: "m", stream: true, validate: false };
    expect(generativeToMessagesRequest(body, resolveOptions(options))).toBeDefined();
    const result = translateRequest("generative", "messages", body, options);
    expect(result.value).toEqual({
      model: "m",
      max_tokens: 4096,
      system: "Be brief.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Hi" },
            { type: "text", text: "there" },
            { type: "text", text: "again" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Hel" },
            { type: "text", text: "lo." },
          ],
        },
      ],
      temperature: 1,
      top_k: 40,
      stop_sequences: ["END"],
      stream: true,
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/max_tokens", "synthesized"],
      ["/generationConfig/presencePenalty", "dropped"],
      ["/generationConfig/seed", "dropped"],
      ["/generationConfig/temperature", "clamped"],
      ["/generationConfig/topP", "dropped"],
      ["/generationConfig/stopSequences/1", "dropped"],
    ]);
    expect([result.model, result.stream]).toEqual(["m", true]);
  });

  test("what the hub drops, trims or inserts is left to it", () => {
    const options = resolveOptions({ model });
    const user = { role: "user", parts: [{ text: "Hi" }] };
    for (const body of [
      { contents: [{ role: "model", parts: [{ text: "first" }] }, user] },
      { contents: [user, { role: "model", parts: [{ text: "prefill " }] }] },
      { contents: [user, { role: "user", parts: [] }] },
      { contents: [{ role: "user", parts: [{ text: " " }] }] },
      { systemInstruction: { parts: [{ text: "" }] }, contents: [user] },
      { contents: [user], generationConfig: { maxOutputTokens: 0 } },
    ])
      expect(generativeToMessagesRequest(body, options)).toBeUndefined();
  });
});
