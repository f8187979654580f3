/**
 * The fused generative → messages request path against the hub, its specification: on every body — the
 * toolkit's generative request arbitraries (plain, biased and the hard list), a generator of the shape
 * the fused path takes (a system instruction, user turns of text, images and function responses, model
 * turns of text and function calls with and without ids, function declarations, `toolConfig`, the
 * sampling fields — the exchanges, tools and configs of generative-shapes.ts) with the edge values that
 * send it back to the hub or make it report a loss (JSON and error responses, calls and responses that
 * do not pair up or come out of order, provider tools, calling modes, thoughts, signatures,
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
import { exchange, toolConfig, tools } from "./generative-shapes";
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
    weight: 3,
    arbitrary: fc
      .constantFrom("image/png", "image/jpeg", "image/webp", "image/gif", "image/heic")
      .map((mimeType) => ({ inlineData: { mimeType, data: "iVBORw0K" } })),
  },
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
    fc.array(
      fc.oneof({ weight: 3, arbitrary: turn.map((entry) => [entry]) }, { weight: 2, arbitrary: exchange }),
      { maxLength: 5 },
    ),
  )
  .map(([first, rest]) => [first, ...rest.flat()]);
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
      tools,
      toolConfig,
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
    const bench = [shortRequest("generative"), conversationRequest("generative"), largeRequest("generative")];
    for (const body of bench) {
      agrees(body);
      // The bench's bodies (tools, parallel calls and their responses, an image) all take the fused path.
      expect(generativeToMessagesRequest(body, resolveOptions({ model }))).toBeDefined();
    }
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
      // What the fused path itself took, by kind: calls, their results and images must be among it.
      let calls = 0;
      let results = 0;
      let images = 0;
      const options = resolveOptions({ model, validate: false });
      fc.assert(
        fc.property(plainRequest, (body) => {
          agrees(body);
          const fused = generativeToMessagesRequest(body, options);
          if (fused === undefined) return;
          const types = fused.value.messages.flatMap((message) =>
            typeof message.content === "string" ? [] : message.content.map((block) => block.type),
          );
          if (types.includes("tool_use")) calls++;
          if (types.includes("tool_result")) results++;
          if (types.includes("image")) images++;
        }),
        { numRuns },
      );
      // Without this, a fused path that always declined would pass the comparison trivially.
      expect(taken() - before).toBeGreaterThan(numRuns / 5);
      expect(calls).toBeGreaterThan(numRuns / 40);
      expect(results).toBeGreaterThan(numRuns / 40);
      expect(images).toBeGreaterThan(numRuns / 100);
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

  test("responses out of their calls' order are the hub's, which sorts them", () => {
    // Found by the shape generator when the order check was left out (a planted bug).
    const body = {
      contents: [
        { role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0K" } }] },
        {
          role: "model",
          parts: [
            { functionCall: { id: "c0", name: "get_weather" } },
            { functionCall: { id: "c1", name: "get_weather" } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { id: "c1", name: "get_weather", response: { content: "sunny" } } },
            { functionResponse: { id: "c0", name: "get_weather", response: { content: "sunny" } } },
          ],
        },
      ],
    };
    expect(generativeToMessagesRequest(body, resolveOptions({ model }))).toBeUndefined();
    agrees(body);
  });

  test("calls without ids, their responses by name, an image and tools take the fused path as the hub builds them", () => {
    const body = {
      contents: [
        {
          role: "user",
          parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0K" } }, { text: "Weather?" }],
        },
        {
          role: "model",
          parts: [
            { functionCall: { name: "get_weather", args: { city: "Oslo" } } },
            { functionCall: { name: "run_sql" } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "get_weather", response: { ok: true } } },
            { functionResponse: { name: "run_sql", response: { error: "denied" } } },
          ],
        },
        { role: "model", parts: [{ text: "Cold." }] },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: "get_weather",
              description: "Weather.",
              parameters: { type: "OBJECT", properties: { city: { type: "STRING" } } },
            },
            { name: "run_sql" },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "AUTO", allowedFunctionNames: ["run_sql"] } },
      generationConfig: { maxOutputTokens: 64 },
    };
    const options = { model: "m", idPrefix: "g" };
    expect(generativeToMessagesRequest(body, resolveOptions(options))).toBeDefined();
    const result = translateRequest("generative", "messages", body, options);
    expect(result.value).toEqual({
      model: "m",
      max_tokens: 64,
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0K" } },
            { type: "text", text: "Weather?" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "g_req1_0", name: "get_weather", input: { city: "Oslo" } },
            { type: "tool_use", id: "g_req1_1", name: "run_sql", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "g_req1_0", content: '{"ok":true}' },
            { type: "tool_result", tool_use_id: "g_req1_1", content: "denied", is_error: true },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "Cold." }] },
      ],
      tools: [
        {
          name: "get_weather",
          description: "Weather.",
          input_schema: { type: "object", properties: { city: { type: "string" } } },
        },
        { name: "run_sql", input_schema: { type: "object", properties: {} } },
      ],
      tool_choice: { type: "auto" },
      stream: false,
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/contents/1/parts/0/functionCall/id", "synthesized"],
      ["/contents/1/parts/1/functionCall/id", "synthesized"],
      ["/contents/2/parts/0", "approximated"],
      ["/toolConfig/functionCallingConfig", "approximated"],
    ]);
  });
});
