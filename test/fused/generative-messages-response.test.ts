/**
 * The fused generative → messages response path against the hub, its specification: on every body —
 * every generative response fixture, the bench's response bodies, the toolkit's generative response
 * arbitraries (plain and biased), and a generator of the shapes the fused path takes with the values
 * at and past its edges (text, thoughts and calls with and without thought signatures and ids, code
 * execution, media and unknown parts, every finish reason, safety ratings and
 * the other candidate fields, usage with nulls and details, a blocked prompt, several candidates or none,
 * unknown fields, keys that need escaping in a pointer, values of the wrong type) — under several
 * option sets (the id prefix and model given and not, unvalidated, strict), `translateResponse` gives
 * the same value (same bytes) and losses as the hub, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { generativeToMessagesResponse } from "../../src/fused/generative-messages-response";
import { translateResponse } from "../../src/index";
import { unknownFieldsOf, word } from "./oracle";
import { responsePathTests } from "./response-suite";

const optionSets: readonly TranslateOptions[] = [
  {},
  { idPrefix: "gw", model: "gemini-2.5-flash" },
  { validate: false },
  { strict: true, model: "" },
];

type Raw = Record<string, unknown>;

/** `usual` mostly, each of `others` now and then. */
const rare = <T>(usual: fc.Arbitrary<T>, ...others: T[]): fc.Arbitrary<T> =>
  fc.oneof({ weight: 20, arbitrary: usual }, { weight: 1, arbitrary: fc.constantFrom(...others) });

/** Now and then a field of no known meaning, blank or not, its key needing escaping or not. */
const unknownFields = (...keys: string[]): fc.Arbitrary<Raw> =>
  unknownFieldsOf("a/b", "t~1", "~0", "x_vendor", ...keys);
/** Gemini's thought signatures: mostly none, a real-looking one, and past that. */
const signature = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom("EqoeCqceAdHt", "") },
  { weight: 1, arbitrary: fc.constant(null) },
);
const withSignature = (part: Raw, signed: unknown): Raw =>
  signed === undefined ? part : { ...part, thoughtSignature: signed };

const textPart = fc
  .record({
    text: rare<unknown>(word, 5, null),
    thought: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constantFrom(false, "yes") },
    ),
    signed: signature,
    extra: unknownFields("partMetadata", "videoMetadata"),
  })
  .map(({ text, thought, signed, extra }) => {
    const part: Raw = { ...extra, text };
    if (thought !== undefined) part.thought = thought;
    return withSignature(part, signed);
  });
const callPart = fc
  .record({
    id: rare<unknown>(fc.constantFrom(undefined, "call_1", "c2"), "", 7, null),
    name: rare<unknown>(fc.constantFrom("get_weather", "search"), undefined, null, "", 3),
    args: rare(
      fc.constantFrom<unknown>(undefined, {}, { city: "Paris" }, { n: [1, 2], o: { p: null } }),
      null,
      [1],
      "{}",
    ),
    signed: signature,
    callExtra: unknownFields("willContinue", "partialArgs"),
    partExtra: unknownFields("text", "thought"),
  })
  .map(({ id, name, args, signed, callExtra, partExtra }) => {
    const call: Raw = { ...callExtra };
    if (id !== undefined) call.id = id;
    if (name !== undefined) call.name = name;
    if (args !== undefined) call.args = args;
    return withSignature({ ...partExtra, functionCall: call }, signed);
  });
/** Media parts (generated images), which the messages encoder drops, as Gemini sends them and past that. */
const mediaPart = fc.constantFrom<unknown>(
  { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
  { inlineData: { mimeType: "image/png", data: "AAAA", displayName: "a.png" }, thoughtSignature: "sig" },
  { inlineData: { data: "AAAA", "a/b": 1 }, mediaResolution: "MEDIA_RESOLUTION_LOW" },
  { inlineData: { mimeType: "image/png", data: "AAAA" }, mediaResolution: { level: "HIGH" }, text: "t" },
  { inlineData: { mimeType: "image/jpeg", data: "AAAA" }, fileData: { fileUri: "gs://b/f", x: 1 } },
  { fileData: { fileUri: "gs://b/f" } },
  { fileData: { fileUri: "gs://b/f", mimeType: "application/pdf", displayName: "f" }, "~0": null },
  { fileData: { fileUri: "gs://b/f" }, mediaResolution: 3, thought: true },
  { inlineData: { mimeType: 5, data: "AAAA" } },
  { inlineData: null },
  { inlineData: "AAAA" },
  { fileData: null },
);
/** Parts the hub keeps opaque and the messages encoder drops, and breakage. */
const otherPart = fc.constantFrom<unknown>(
  { executableCode: { language: "PYTHON", code: "print(1)" }, thoughtSignature: "sig" },
  { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1\n" } },
  { functionResponse: { name: "f", response: {} } },
  { executableCode: null, text: "t" },
  { functionCall: { name: "f" }, codeExecutionResult: {} },
  {},
  { thought: true },
  { thoughtSignature: "sig" },
  { "a/b": 1 },
  { functionCall: null },
  { functionCall: "f" },
  null,
  "part",
);
const part = fc.oneof(
  { weight: 6, arbitrary: textPart },
  { weight: 4, arbitrary: callPart },
  { weight: 1, arbitrary: mediaPart },
  { weight: 1, arbitrary: otherPart },
);
const finishReason = fc.constantFrom<unknown>(
  "STOP",
  "STOP",
  "MAX_TOKENS",
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
  "MODEL_ARMOR",
  "MALFORMED_FUNCTION_CALL",
  "UNEXPECTED_TOOL_CALL",
  "TOO_MANY_TOOL_CALLS",
  "OTHER",
  "LANGUAGE",
  "FINISH_REASON_UNSPECIFIED",
  "",
  undefined,
  "end_turn",
  "tool_use",
  "stop",
  null,
  5,
);
const candidateFields = fc.constantFrom<Raw>(
  {},
  {},
  {
    safetyRatings: [
      { category: "HARM_CATEGORY_HATE_SPEECH", probability: "NEGLIGIBLE" },
      { blocked: true, category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "LOW" },
    ],
  },
  { citationMetadata: { citationSources: [{ startIndex: 0, endIndex: 5, uri: "https://a/b" }] } },
  { avgLogprobs: -0.5, logprobsResult: { chosenCandidates: [] } },
  { finishMessage: "Model generated function call(s)." },
  { groundingMetadata: { webSearchQueries: ["q"] }, urlContextMetadata: {} },
  { tokenCount: 3, "a/b": null, "~0": "" },
);
const content = fc
  .record({
    parts: fc.oneof(
      { weight: 8, arbitrary: fc.array(part, { maxLength: 4 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, [], null, "parts") },
    ),
    role: rare(fc.constant<unknown>("model"), undefined, "user", 1),
    extra: unknownFields(),
  })
  .map(({ parts, role, extra }) => {
    const value: Raw = { ...extra };
    if (parts !== undefined) value.parts = parts;
    if (role !== undefined) value.role = role;
    return value;
  });
const candidate = fc
  .record({
    content: rare<unknown>(content, undefined, {}, null, "content"),
    finishReason,
    index: rare<unknown>(fc.constantFrom(0, undefined), 1, "0"),
    fields: candidateFields,
    extra: unknownFields(),
  })
  .map(({ content: given, finishReason: reason, index, fields, extra }) => {
    const value: Raw = { ...extra };
    if (given !== undefined) value.content = given;
    if (reason !== undefined) value.finishReason = reason;
    if (index !== undefined) value.index = index;
    return { ...value, ...fields };
  });
const count = fc.oneof(
  { weight: 24, arbitrary: fc.nat(5000) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, undefined, 0, "12", -0, 1.5) },
);
const details = fc.constantFrom([{ modality: "TEXT", tokenCount: 9 }], []);
const usage = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, undefined, null, "none") },
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          promptTokenCount: count,
          candidatesTokenCount: count,
          thoughtsTokenCount: count,
          cachedContentTokenCount: count,
          toolUsePromptTokenCount: count,
          totalTokenCount: count,
          promptTokensDetails: details,
          candidatesTokensDetails: details,
          cacheTokensDetails: details,
          toolUsePromptTokensDetails: details,
          trafficType: fc.constant("ON_DEMAND"),
          serviceTier: fc.constant("standard"),
          extra: unknownFields(),
        },
        { requiredKeys: ["promptTokenCount", "extra"] },
      )
      .map(({ extra, ...fields }) => {
        const value: Raw = { ...extra };
        for (const [key, field] of Object.entries(fields)) if (field !== undefined) value[key] = field;
        return value;
      }),
  },
);
const promptFeedback = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      {
        blockReason: "SAFETY",
        safetyRatings: [{ category: "HARM_CATEGORY_HARASSMENT", probability: "HIGH" }],
      },
      { blockReason: "OTHER", blockReasonMessage: "no" },
      { blockReason: "" },
      { safetyRatings: [] },
      { "a/b": 1 },
      { blockReason: 3 },
      null,
      "blocked",
      [],
    ),
  },
);
/** The shapes the fused path takes, with values at and past its edges. */
const edgeResponse = fc
  .record({
    candidates: fc.oneof(
      { weight: 12, arbitrary: fc.array(candidate, { minLength: 1, maxLength: 1 }) },
      { weight: 3, arbitrary: fc.array(candidate, { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, [null], "c") },
    ),
    promptFeedback,
    usageMetadata: usage,
    modelVersion: rare<unknown>(fc.constantFrom("gemini-2.5-flash", undefined), "", null, 2),
    responseId: rare<unknown>(fc.constantFrom("wOd8abGuO5rg", "a/b", undefined), "", null, 3),
    createTime: rare<unknown>(fc.constant(undefined), "2026-02-15T01:02:03.456Z", "yesterday", 4),
    extra: unknownFields("sdkHttpResponse"),
  })
  .map(({ extra, ...fields }) => {
    const value: Raw = { ...extra };
    for (const [key, field] of Object.entries(fields)) if (field !== undefined) value[key] = field;
    return value;
  });

describe("fused generative → messages responses match the hub", () => {
  const { agrees } = responsePathTests({
    from: "generative",
    to: "messages",
    path: generativeToMessagesResponse,
    optionSets,
    fixtures: {
      title: "on every generative response fixture, and the fused path takes them all",
      // Text, thoughts, calls, code execution, grounding, logprobs, blocks: every fixture is a shape it takes.
      taken: "all",
    },
    bench: "on the bench's text + 3 tool calls, which takes the fused path",
    // All of them at the time of writing (every part kind, several candidates); the toolkit may grow.
    toolkit: 0.95,
    edge: {
      title: "on the shapes it takes, edges included, and the fused path takes a good share of them",
      arbitrary: edgeResponse,
      // About two fifths are taken: the edges it leaves to the hub, and the schema rejects, are frequent.
      least: 1 / 3,
    },
  });

  test("thoughts go first, a call without an id gets the hub's, and the losses are the hub's", () => {
    const body = {
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { text: "Looking.", thoughtSignature: "s1" },
              { text: "Plan", thought: true, thoughtSignature: "s2" },
              { functionCall: { name: "f", args: { a: 1 } }, thoughtSignature: "s3" },
              { executableCode: { code: "1" } },
            ],
          },
          finishReason: "STOP",
          safetyRatings: [],
        },
      ],
      usageMetadata: {
        promptTokenCount: 10,
        candidatesTokenCount: 5,
        thoughtsTokenCount: 7,
        cachedContentTokenCount: 4,
        toolUsePromptTokenCount: 2,
        totalTokenCount: 24,
        promptTokensDetails: [],
      },
      modelVersion: "gemini-3-pro",
      responseId: "r1",
      "a/b": 1,
    };
    expect(generativeToMessagesResponse(body, resolveOptions({}))).toBeDefined();
    agrees(body);
    const result = translateResponse("generative", "messages", body);
    expect(result.value).toEqual({
      id: "r1",
      type: "message",
      role: "assistant",
      model: "gemini-3-pro",
      content: [
        { type: "thinking", thinking: "Plan", signature: "" },
        { type: "text", text: "Looking." },
        { type: "tool_use", id: "gp_r1_0", name: "f", input: { a: 1 } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: 8,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 4,
        output_tokens: 12,
        output_tokens_details: { thinking_tokens: 7 },
      },
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/a~1b", "dropped"],
      ["/candidates/0/content/parts/2/functionCall/id", "synthesized"],
      ["/candidates/0/safetyRatings", "dropped"],
      ["/usageMetadata/promptTokensDetails", "dropped"],
      ["/candidates/0/content/parts/1/thoughtSignature", "dropped"],
      ["/candidates/0/content/parts/0/thoughtSignature", "dropped"],
      ["/candidates/0/content/parts/2/thoughtSignature", "dropped"],
      ["/candidates/0/content/parts/3", "dropped"],
    ]);
  });

  test("a generated image is dropped with the hub's losses, its own fields' first", () => {
    const body = {
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { text: "Here it is." },
              { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=", displayName: "a" }, "a/b": 1 },
            ],
          },
          finishReason: "STOP",
        },
      ],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1290 },
      modelVersion: "gemini-2.5-flash-image",
      responseId: "img",
    };
    expect(generativeToMessagesResponse(body, resolveOptions({}))).toBeDefined();
    agrees(body);
    const result = translateResponse("generative", "messages", body);
    expect(result.value.content).toEqual([{ type: "text", text: "Here it is." }]);
    expect(result.losses.map((entry) => entry.path)).toEqual([
      "/candidates/0/content/parts/1/a~1b",
      "/candidates/0/content/parts/1/inlineData/displayName",
      "/candidates/0/content/parts/1",
    ]);
  });

  test("the first of several candidates is kept; every one's decoding losses come first", () => {
    const candidate = (text: string, extra: Record<string, unknown>) => ({
      content: { role: "model", parts: [{ text, thoughtSignature: "s" }, { functionCall: { name: "f" } }] },
      finishReason: "STOP",
      ...extra,
    });
    const body = {
      candidates: [candidate("one", { index: 0 }), candidate("two", { index: 1, avgLogprobs: -1 })],
      responseId: "r",
    };
    expect(generativeToMessagesResponse(body, resolveOptions({}))).toBeDefined();
    agrees(body);
    const result = translateResponse("generative", "messages", body);
    expect(result.value.content).toEqual([
      { type: "text", text: "one" },
      { type: "tool_use", id: "gp_r_0", name: "f", input: {} },
    ]);
    expect(result.losses.map((entry) => entry.path)).toEqual([
      "/candidates/0/content/parts/1/functionCall/id",
      "/candidates/1/content/parts/1/functionCall/id",
      "/candidates/1/avgLogprobs",
      "/candidates/1",
      "/candidates/0/content/parts/0/thoughtSignature",
      "/usage",
    ]);
  });

  test("a blocked prompt without candidates is a refusal with a derived id", () => {
    const body = { promptFeedback: { blockReason: "SAFETY", safetyRatings: [] } };
    expect(generativeToMessagesResponse(body, resolveOptions({}))).toBeDefined();
    agrees(body);
    const result = translateResponse("generative", "messages", body);
    expect(result.value.stop_reason).toBe("refusal");
    expect(result.value.id).toMatch(/^gp_msg_[0-9a-z]{11}$/);
    expect(result.losses.map((entry) => entry.path)).toEqual([
      "/promptFeedback/safetyRatings",
      "/promptFeedback/blockReason",
      "/usage",
    ]);
  });
});
