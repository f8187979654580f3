/**
 * The fused generative → chat response path against the hub, its specification: on every body — every
 * generative response fixture, the bench's response bodies, the toolkit's generative response
 * arbitraries (plain and biased), and a generator of the shapes the fused path takes with the values at
 * and past its edges (text, thoughts and calls with and without signatures, calls with and without
 * ids, media and code parts, every finish reason, candidate fields such as safety ratings, usage with
 * absent, null and mistyped counts and its details lists, a blocked prompt, unknown fields, keys that
 * need escaping in a pointer, values of the wrong type) — under several option sets (`created`, the
 * model and the id prefix given and not, unvalidated, strict, several chat dialects),
 * `translateResponse` gives the same value (same bytes) and losses as the hub, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { generativeToChatResponse } from "../../src/fused/generative-chat-response";
import { translateResponse } from "../../src/index";
import { rare } from "./generative-shapes";
import { strip, unknownFieldsOf } from "./oracle";
import { responsePathTests } from "./response-suite";

const optionSets: readonly TranslateOptions[] = [
  {},
  { idPrefix: "gw", created: 1_700_000_000, model: "gemini-x" },
  { validate: false, chatDialect: "vllm" },
  { strict: true, chatDialect: "deepseek" },
  { created: 0, chatDialect: "openrouter" },
];

/**
 * `usual`, seldom a value of the wrong type (`bad`): the schema rejects such a body, and only the
 * unvalidated option set reaches the fused path with it, which must leave it to the hub.
 */
const wrong = <T>(usual: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 100, arbitrary: usual }, { weight: 1, arbitrary: bad });

const word = rare(fc.string({ maxLength: 10 }), fc.constantFrom("", " ", "a/b", "~0"));
/** Now and then a field of no known meaning, its key needing escaping or not, its value blank or not. */
const unknownFields = unknownFieldsOf("futureField", "x_vendor", "a/b", "t~1", "~0");
const signature = wrong(fc.constantFrom(undefined, undefined, "sig", ""), fc.constant(7));

const textPart = fc
  .record({
    text: wrong(word, fc.constant(3)),
    thought: wrong(fc.constantFrom(undefined, undefined, true, false), fc.constant("true")),
    thoughtSignature: signature,
    extra: unknownFields,
  })
  .map(({ extra, ...fields }) => ({ ...strip(fields), ...extra }));
const callPart = fc
  .record({
    functionCall: wrong(
      fc
        .record({
          id: fc.constantFrom(undefined, undefined, "call_1", "call_2", ""),
          name: wrong(rare(fc.constantFrom("get_weather", "search"), fc.constant(undefined)), fc.constant(5)),
          args: wrong(
            fc.constantFrom(undefined, {}, { city: "Oslo" }, { n: [1, 2], o: { p: null } }),
            fc.constantFrom(null, [1], "s"),
          ),
          willContinue: fc.constantFrom(undefined, undefined, undefined, false),
          extra: unknownFields,
        })
        .map(({ extra, ...fields }) => ({ ...strip(fields), ...extra })),
      fc.constantFrom(null, "call", { id: 1, name: "f" }),
    ),
    thoughtSignature: signature,
    text: fc.constantFrom(undefined, undefined, undefined, "said too"),
    extra: unknownFields,
  })
  .map(({ extra, ...fields }) => ({ ...strip(fields), ...extra }));
const mediaPart = fc
  .record({
    media: wrong(
      fc.constantFrom<Record<string, unknown>>(
        { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
        { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=", displayName: "a/b" } },
        { fileData: { fileUri: "gs://bucket/a.pdf", mimeType: "application/pdf" } },
        { fileData: { fileUri: "gs://bucket/a.pdf", displayName: "d" } },
      ),
      fc.constantFrom(
        { inlineData: { mimeType: 1, data: "x" } },
        { inlineData: null },
        { fileData: "gs://x" },
      ),
    ),
    mediaResolution: wrong(
      fc.constantFrom(undefined, undefined, "MEDIA_RESOLUTION_LOW", { level: "LOW" }),
      fc.constant(3),
    ),
    thoughtSignature: signature,
  })
  .map(({ media, ...fields }) => ({ ...(media as Record<string, unknown>), ...strip(fields) }));
const otherPart = wrong(
  fc.constantFrom<unknown>(
    { executableCode: { code: "print(1)", language: "PYTHON" }, thoughtSignature: "sig" },
    { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1\n" } },
    { functionResponse: { name: "f", response: { ok: true } } },
    { videoMetadata: {} },
    {},
    { text: "t", videoMetadata: {}, partMetadata: { k: 1 } },
  ),
  fc.constantFrom(null, "a string"),
);
const part = fc.oneof(
  { weight: 8, arbitrary: textPart },
  { weight: 5, arbitrary: callPart },
  { weight: 1, arbitrary: mediaPart },
  { weight: 1, arbitrary: otherPart },
);

const finishReason = wrong(
  fc.constantFrom(
    undefined,
    "",
    "STOP",
    "STOP",
    "MAX_TOKENS",
    "SAFETY",
    "RECITATION",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "IMAGE_SAFETY",
    "MODEL_ARMOR",
    "MALFORMED_FUNCTION_CALL",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
    "LANGUAGE",
    "OTHER",
    "FINISH_REASON_UNSPECIFIED",
    "NEW_REASON",
    "stop",
  ),
  fc.constant(4),
);
const candidate = fc
  .record({
    content: wrong(
      rare(
        fc
          .record({
            role: fc.constantFrom("model", undefined),
            parts: wrong(
              rare(fc.array(part, { maxLength: 5 }), fc.constantFrom<unknown[] | undefined>(undefined, [])),
              fc.constant("p"),
            ),
            extra: unknownFields,
          })
          .map(({ extra, ...fields }) => ({ ...strip(fields), ...extra })),
        fc.constantFrom(undefined, {}),
      ),
      fc.constant(null),
    ),
    finishReason,
    index: wrong(fc.constantFrom(undefined, undefined, 0, 1, 3), fc.constant("0")),
    safetyRatings: fc.constantFrom(
      undefined,
      undefined,
      [],
      [
        { category: "HARM_CATEGORY_HATE_SPEECH", probability: "NEGLIGIBLE" },
        { category: "HARM_CATEGORY_HARASSMENT", probability: "LOW", blocked: true },
      ],
    ),
    citationMetadata: fc.constantFrom(undefined, undefined, undefined, {
      citationSources: [{ startIndex: 0, endIndex: 4, uri: "https://example.com" }],
    }),
    avgLogprobs: fc.constantFrom(undefined, undefined, -0.25),
    finishMessage: fc.constantFrom(undefined, undefined, "Model generated function call(s)."),
    extra: unknownFields,
  })
  .map(({ extra, ...fields }) => ({ ...strip(fields), ...extra }));
/** A count: now and then 0, seldom (one body in ten over six counts) of the wrong type. */
const count = fc.oneof(
  { weight: 60, arbitrary: fc.oneof(fc.nat(5000), fc.constant(0)) },
  { weight: 1, arbitrary: fc.constantFrom(null, "12", 1.5) },
);
const modalities = fc.constantFrom(undefined, undefined, [], [{ modality: "TEXT", tokenCount: 9 }]);
const usageMetadata = wrong(
  rare(
    fc
      .record({
        promptTokenCount: fc.option(count, { nil: undefined }),
        candidatesTokenCount: fc.option(count, { nil: undefined }),
        thoughtsTokenCount: fc.option(count, { nil: undefined }),
        cachedContentTokenCount: fc.option(count, { nil: undefined }),
        toolUsePromptTokenCount: fc.option(count, { nil: undefined }),
        totalTokenCount: fc.option(count, { nil: undefined }),
        promptTokensDetails: modalities,
        candidatesTokensDetails: modalities,
        cacheTokensDetails: modalities,
        toolUsePromptTokensDetails: modalities,
        serviceTier: fc.constantFrom(undefined, undefined, "standard"),
        trafficType: fc.constantFrom(undefined, undefined, "ON_DEMAND"),
        extra: unknownFields,
      })
      .map(({ extra, ...fields }) => ({ ...strip(fields), ...extra })),
    fc.constant(undefined),
  ),
  fc.constantFrom(null, [], "u"),
);
/** The shapes the fused path takes, with values at and past its edges. */
const edgeResponse = fc
  .record({
    candidates: wrong(
      rare(
        fc.oneof(
          { weight: 6, arbitrary: fc.tuple(candidate) },
          { weight: 1, arbitrary: fc.array(candidate, { maxLength: 3 }) },
        ),
        fc.constant(undefined),
      ),
      fc.constantFrom(null, [null], {}),
    ),
    promptFeedback: wrong(
      rare(
        fc.constant(undefined),
        fc.constantFrom(
          { blockReason: "SAFETY" },
          { blockReason: "OTHER", safetyRatings: [], "a/b": 1 },
          { safetyRatings: [{ category: "HARM_CATEGORY_HATE_SPEECH", probability: "HIGH" }] },
        ),
      ),
      fc.constantFrom({ blockReason: 3 }, null),
    ),
    usageMetadata,
    modelVersion: wrong(
      rare(fc.constantFrom("gemini-2.5-flash", ""), fc.constant(undefined)),
      fc.constant(2),
    ),
    responseId: wrong(rare(fc.constantFrom("r1", "", "a/b"), fc.constant(undefined)), fc.constant(9)),
    createTime: wrong(
      rare(
        fc.constant(undefined),
        fc.constantFrom("2026-02-15T07:50:37.854117Z", "2025-06-27T08:48:21+02:00", "yesterday"),
      ),
      fc.constant(1),
    ),
    extra: unknownFields,
  })
  .map(({ extra, ...fields }) => ({ ...strip(fields), ...extra }));

describe("fused generative → chat responses match the hub", () => {
  const { agrees } = responsePathTests({
    from: "generative",
    to: "chat",
    path: generativeToChatResponse,
    optionSets,
    fixtures: {
      title: "on every generative response fixture, and the fused path takes each of them",
      // Every fixture is a validated Gemini response of a shape the path reads: none goes to the hub.
      taken: "all",
    },
    bench: "on the bench's response bodies, and the generated text + calls body takes the fused path",
    toolkit: 0.9,
    edge: {
      title: "on the plain shapes, edges included, and the fused path takes a good share of them",
      arbitrary: edgeResponse,
      least: 1 / 2,
    },
  });

  test("a response with a thought, text and calls without ids takes the fused path, with the hub's losses", () => {
    const body = {
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { text: "Weather first.", thought: true, thoughtSignature: "sig1" },
              { text: "Looking." },
              { functionCall: { name: "get_weather", args: { city: "Oslo" } }, thoughtSignature: "sig2" },
              { functionCall: { name: "get_time" } },
            ],
          },
          finishReason: "STOP",
          index: 0,
          safetyRatings: [],
        },
      ],
      usageMetadata: {
        promptTokenCount: 100,
        candidatesTokenCount: 5,
        thoughtsTokenCount: 7,
        cachedContentTokenCount: 90,
        totalTokenCount: 112,
        serviceTier: "standard",
      },
      modelVersion: "gemini-2.5-flash",
      responseId: "r1",
      createTime: "2026-02-15T07:50:37Z",
    };
    expect(generativeToChatResponse(body, resolveOptions({}))).toBeDefined();
    const result = translateResponse("generative", "chat", body);
    expect(result.value).toEqual({
      id: "r1",
      object: "chat.completion",
      created: 1_771_141_837,
      model: "gemini-2.5-flash",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Looking.",
            reasoning_content: "Weather first.",
            tool_calls: [
              {
                id: "gp_r1_0",
                type: "function",
                function: { name: "get_weather", arguments: '{"city":"Oslo"}' },
              },
              { id: "gp_r1_1", type: "function", function: { name: "get_time", arguments: "{}" } },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 12,
        total_tokens: 112,
        prompt_tokens_details: { cached_tokens: 90 },
        completion_tokens_details: { reasoning_tokens: 7 },
      },
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/candidates/0/content/parts/2/functionCall/id", "synthesized"],
      ["/candidates/0/content/parts/3/functionCall/id", "synthesized"],
      ["/candidates/0/safetyRatings", "dropped"],
      ["/usageMetadata/serviceTier", "dropped"],
      ["/candidates/0/content/parts/0/thoughtSignature", "dropped"],
      ["/candidates/0/content/parts/2/thoughtSignature", "dropped"],
    ]);
  });

  test("a blocked prompt becomes a refusal, and its candidate's finish reason is not reported", () => {
    const body = {
      candidates: [{ finishReason: "OTHER", safetyRatings: [] }],
      promptFeedback: { blockReason: "SAFETY", safetyRatings: [] },
    };
    expect(generativeToChatResponse(body, resolveOptions({ created: 1 }))).toBeDefined();
    const result = translateResponse("generative", "chat", body, { created: 1 });
    expect(result.value.choices).toEqual([
      {
        index: 0,
        message: { role: "assistant", content: null, refusal: "Prompt blocked: SAFETY" },
        finish_reason: "content_filter",
      },
    ]);
    expect(result.losses.map((entry) => entry.path)).toEqual([
      "/promptFeedback/safetyRatings",
      "/candidates/0/safetyRatings",
    ]);
  });

  test("`__proto__` keys, as JSON.parse makes them, are reported as the hub reports them", () => {
    const body = JSON.parse(
      `{"candidates":[{"content":{"parts":[{"text":"a","__proto__":{"x":1}}]},"__proto__":{"finishReason":"STOP"}}],
        "usageMetadata":{"promptTokenCount":1,"__proto__":{"candidatesTokenCount":5}},"__proto__":{"responseId":"r"}}`,
    );
    agrees(body);
    expect(generativeToChatResponse(body, resolveOptions({ validate: false }))).toBeDefined();
    const result = translateResponse("generative", "chat", body, { validate: false, created: 1 });
    expect(result.losses.map((entry) => entry.path)).toEqual([
      "/__proto__",
      "/candidates/0/content/parts/0/__proto__",
      "/candidates/0/__proto__",
      "/usageMetadata/__proto__",
    ]);
  });

  test("the counterexamples fast-check shrank planted bugs to agree with the hub", () => {
    const bodies = [
      // A text part's signature: "thought", not "thinking", in its loss.
      { candidates: [{ content: { parts: [{ text: "", thoughtSignature: "0" }] } }] },
      // A blocked prompt: its candidates' finish reasons are not encoded, so not reported.
      { candidates: [{ finishReason: "NEW_REASON" }], promptFeedback: { blockReason: "SAFETY" } },
    ];
    for (const body of bodies) {
      agrees(body);
      expect(generativeToChatResponse(body, resolveOptions({}))).toBeDefined();
    }
  });
});
