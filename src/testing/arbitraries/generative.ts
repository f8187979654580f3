/**
 * fast-check arbitraries written against the generative wire format (not produced by our encoders):
 * requests, responses, stream chunk sequences and error bodies, with the odd shapes real payloads
 * have (snake_case fields, upper-case Schema types, parts without args, candidates without index ...);
 * the hard cases a `bias` asks for; and what the laws must know of generative streams and usage.
 */
import fc from "fast-check";
import { generativeGrammar } from "../grammar";
import {
  givenFact,
  givenKeysArb,
  type Hard,
  isRecord,
  lazy,
  leaning,
  pieces,
  someNode,
  sometimes,
  textFacts,
  textFor,
  zeroOr,
} from "./common";
import type { ProtocolArbitraries, UsageTotals } from "./types";

const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("", " ", "ü✓", "\n"));
const base64 = fc.stringMatching(/^[A-Za-z0-9+/]{0,12}={0,2}$/);
const jsonObject = fc.dictionary(word, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const signature = base64.filter((value) => value.length > 0);

export const generativeSchemaArb: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{
  node: Record<string, unknown>;
}>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record(
      {
        type: fc.constantFrom("STRING", "string", "INTEGER", "NUMBER", "BOOLEAN"),
        format: fc.constantFrom("enum", "date-time", "int32", "float"),
        enum: fc.array(word, { minLength: 1, maxLength: 3 }),
        nullable: fc.boolean(),
        description: text,
      },
      { requiredKeys: ["type"] },
    ),
    fc.record(
      {
        type: fc.constantFrom("OBJECT", "object"),
        properties: fc.dictionary(word, tie("node"), { maxKeys: 3 }),
        required: fc.array(word, { maxLength: 2 }),
        propertyOrdering: fc.array(word, { maxLength: 2 }),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record(
      { type: fc.constantFrom("ARRAY", "array"), items: tie("node"), maxItems: fc.nat(5) },
      { requiredKeys: ["type"] },
    ),
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
  ),
})).node;

const parametersSchema = fc.record(
  {
    type: fc.constantFrom("OBJECT", "object"),
    properties: fc.dictionary(word, generativeSchemaArb, { maxKeys: 3 }),
    required: fc.array(word, { maxLength: 2 }),
  },
  { requiredKeys: ["type"] },
);

const textPart = fc.record(
  { text, thought: fc.boolean(), thoughtSignature: signature },
  { requiredKeys: ["text"] },
);
const inlinePart = fc.record({
  inlineData: fc.record({
    mimeType: fc.constantFrom("image/png", "image/gif", "audio/wav", "application/pdf", "x/unknown"),
    data: base64,
  }),
});
const filePart = fc.record({
  fileData: fc.record(
    {
      fileUri: fc.oneof(
        lazy(() => fc.webUrl()),
        fc.constant("gs://bucket/file.pdf"),
        fc.constant("https://youtu.be/x"),
      ),
      mimeType: fc.constantFrom("video/mp4", "image/jpeg"),
    },
    { requiredKeys: ["fileUri"] },
  ),
});
const callPart = fc.record(
  {
    functionCall: fc.record({ name: word, args: jsonObject, id: word }, { requiredKeys: ["name"] }),
    thoughtSignature: signature,
  },
  { requiredKeys: ["functionCall"] },
);
const responsePart = fc.record({
  functionResponse: fc.record(
    {
      name: word,
      response: fc.oneof(jsonObject, fc.record({ content: text }), fc.record({ error: text })),
      id: word,
    },
    { requiredKeys: ["name", "response"] },
  ),
});
const codePart = fc.oneof(
  fc.record({ executableCode: fc.record({ code: text, language: fc.constant("PYTHON") }) }),
  fc.record({ codeExecutionResult: fc.record({ outcome: fc.constant("OUTCOME_OK"), output: text }) }),
);
const oddPart = fc.record(
  { text, videoMetadata: fc.constant({}), futurePartField: fc.integer() },
  { requiredKeys: ["text"] },
);

export const generativePartArb = fc.oneof(
  textPart,
  inlinePart,
  filePart,
  callPart,
  responsePart,
  codePart,
  oddPart,
);

const content = fc.record(
  { role: fc.constantFrom("user", "model"), parts: fc.array(generativePartArb, { maxLength: 4 }) },
  { requiredKeys: ["parts"] },
);

const plainPart = generativePartArb.filter(
  (part) => !("functionCall" in part) && !("functionResponse" in part),
);

/** A model turn with function calls and the user turn answering each, by id when the calls have ids. */
const callExchange = fc
  .record({
    before: fc.array(fc.oneof(textPart, codePart), { maxLength: 2 }),
    calls: fc.uniqueArray(
      fc.record({ name: word, args: jsonObject, id: word }, { requiredKeys: ["name", "args"] }),
      { minLength: 1, maxLength: 3, selector: (call) => call.id ?? call.name },
    ),
    withIds: fc.boolean(),
    signature: fc.option(signature, { nil: undefined }),
    responses: fc.array(fc.oneof(jsonObject, fc.record({ content: text }), fc.record({ error: text })), {
      minLength: 3,
      maxLength: 3,
    }),
    after: fc.array(plainPart, { maxLength: 1 }),
  })
  .map(({ before, calls, withIds, signature: thoughtSignature, responses, after }) => {
    const withId = calls.map((call, index) => {
      const { id, ...rest } = call;
      return withIds ? { ...rest, id: id ?? `C${index}` } : rest;
    });
    return [
      {
        role: "model",
        parts: [
          ...before,
          ...withId.map((call, index) => ({
            functionCall: call,
            ...(index === 0 && thoughtSignature !== undefined ? { thoughtSignature } : {}),
          })),
        ],
      },
      {
        role: "user",
        parts: [
          ...withId.map((call, index) => ({
            functionResponse: {
              ...("id" in call ? { id: call.id } : {}),
              name: call.name,
              response: responses[index] ?? {},
            },
          })),
          ...after,
        ],
      },
    ];
  });

/** Mostly well-paired histories; a small share of arbitrary contents (orphan calls and responses). */
const contentsArb = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .array(
        fc.oneof(
          {
            weight: 3,
            arbitrary: fc
              .record(
                { role: fc.constantFrom("user", "model"), parts: fc.array(plainPart, { maxLength: 4 }) },
                { requiredKeys: ["parts"] },
              )
              .map((turn) => [turn]),
          },
          { weight: 1, arbitrary: callExchange },
        ),
        { minLength: 1, maxLength: 4 },
      )
      .map((turns) => turns.flat()),
  },
  { weight: 1, arbitrary: fc.array(content, { minLength: 1, maxLength: 5 }) },
);

const thinkingConfig = fc.oneof(
  fc.record(
    { thinkingBudget: fc.integer({ min: -1, max: 40_000 }), includeThoughts: fc.boolean() },
    { requiredKeys: [] },
  ),
  fc.record(
    { thinking_budget: fc.integer({ min: -1, max: 40_000 }), include_thoughts: fc.boolean() },
    { requiredKeys: [] },
  ),
  fc.record({ thinkingLevel: fc.constantFrom("LOW", "high", "minimal") }),
);

const generationConfig = fc.record(
  {
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    topP: fc.double({ min: 0, max: 1, noNaN: true }),
    topK: fc.nat(100),
    maxOutputTokens: fc.nat(100_000),
    stopSequences: fc.array(text, { maxLength: 5 }),
    candidateCount: fc.integer({ min: 1, max: 8 }),
    seed: fc.integer(),
    presencePenalty: fc.double({ min: -2, max: 2, noNaN: true }),
    responseLogprobs: fc.boolean(),
    logprobs: fc.nat(20),
    responseMimeType: fc.constantFrom("application/json", "text/plain", "text/x.enum"),
    responseSchema: generativeSchemaArb,
    thinkingConfig,
    responseModalities: fc.constantFrom(["TEXT"], ["TEXT", "IMAGE"]),
  },
  { requiredKeys: [] },
);

const tools = fc.array(
  fc.oneof(
    fc.record({
      functionDeclarations: fc.array(
        fc.record(
          // Function parameters are an object schema (their properties are arbitrary schemas).
          { name: word, description: text, parameters: parametersSchema },
          { requiredKeys: ["name"] },
        ),
        { maxLength: 3 },
      ),
    }),
    fc.constant({ googleSearch: {} }),
    fc.constant({ codeExecution: {} }),
  ),
  { maxLength: 3 },
);

const toolConfig = fc.record({
  functionCallingConfig: fc.record(
    {
      mode: fc.constantFrom("AUTO", "ANY", "NONE", "VALIDATED", "MODE_UNSPECIFIED"),
      allowedFunctionNames: fc.array(word, { maxLength: 3 }),
    },
    { requiredKeys: [] },
  ),
});

/**
 * The everyday request: alternating turns of text and function calls (with ids) answered by their
 * responses, a few settings every protocol has. Most real traffic looks like this, and it is what round
 * trips can keep.
 */
const say = fc
  .string({ minLength: 1, maxLength: 12 })
  .filter((value) => value.trim() === value && value !== "");
const sayParts = fc.array(
  say.map((value) => ({ text: value })),
  { minLength: 1, maxLength: 2 },
);
const everydayExchange = fc.oneof(
  fc.tuple(sayParts, sayParts).map(([question, answer]) => [
    { role: "user", parts: question },
    { role: "model", parts: answer },
  ]),
  fc
    .record({
      question: sayParts,
      calls: fc.uniqueArray(fc.record({ id: word, name: word, args: jsonObject }), {
        minLength: 1,
        maxLength: 3,
        selector: (call) => call.id,
      }),
      results: fc.array(say, { minLength: 3, maxLength: 3 }),
    })
    .map(({ question, calls, results }) => [
      { role: "user", parts: question },
      { role: "model", parts: calls.map((call) => ({ functionCall: call })) },
      {
        role: "user",
        parts: calls.map((call, index) => ({
          functionResponse: { id: call.id, name: call.name, response: { content: results[index] ?? "" } },
        })),
      },
    ]),
);

const everydayRequestArb = fc
  .record(
    {
      exchanges: fc.array(everydayExchange, { minLength: 1, maxLength: 3 }),
      systemInstruction: fc.record({ parts: sayParts }),
      generationConfig: fc
        .record(
          {
            temperature: fc.double({ min: 0, max: 1, noNaN: true }),
            maxOutputTokens: fc.integer({ min: 1, max: 100_000 }),
            stopSequences: fc.array(say, { minLength: 1, maxLength: 4 }),
            seed: fc.integer(),
          },
          { requiredKeys: [] },
        )
        // An empty config asks for nothing: left out rather than sent as {}.
        .filter((config) => Object.keys(config).length > 0),
      tools: fc
        .uniqueArray(
          fc.record(
            {
              name: word,
              description: say,
              parameters: fc.constant({ type: "object", properties: { a: { type: "string" } } }),
            },
            { requiredKeys: ["name"] },
          ),
          { minLength: 1, maxLength: 3, selector: (declaration) => declaration.name },
        )
        .map((declarations) => [{ functionDeclarations: declarations }]),
      toolConfig: fc.record({
        functionCallingConfig: fc.record({ mode: fc.constantFrom("AUTO", "ANY", "NONE") }),
      }),
    },
    { requiredKeys: ["exchanges"] },
  )
  // `toolConfig` goes with tools.
  .map(({ exchanges, toolConfig, ...rest }) => ({
    ...rest,
    ...(rest.tools === undefined ? {} : { toolConfig }),
    contents: exchanges.flat(),
  }));

const anyRequestArb = fc.record(
  {
    contents: contentsArb,
    systemInstruction: fc.record(
      { role: fc.constant("user"), parts: fc.array(textPart, { maxLength: 2 }) },
      { requiredKeys: ["parts"] },
    ),
    generationConfig,
    tools,
    toolConfig,
    safetySettings: fc.array(
      fc.record({ category: fc.constant("HARM_CATEGORY_HARASSMENT"), threshold: fc.constant("BLOCK_NONE") }),
      { maxLength: 1 },
    ),
    cachedContent: word,
  },
  { requiredKeys: ["contents"] },
);

export const generativeRequestArb = fc.oneof(anyRequestArb, everydayRequestArb);

const usageMetadata = fc.record(
  {
    promptTokenCount: fc.nat(10_000),
    candidatesTokenCount: fc.nat(10_000),
    thoughtsTokenCount: fc.nat(10_000),
    cachedContentTokenCount: fc.nat(10_000),
    toolUsePromptTokenCount: fc.nat(1_000),
    totalTokenCount: fc.nat(40_000),
    promptTokensDetails: fc.constant([{ modality: "TEXT", tokenCount: 1 }]),
    trafficType: fc.constant("ON_DEMAND"),
  },
  { requiredKeys: [] },
);

const modelPart = fc.oneof(textPart, inlinePart, callPart, codePart);
const finishReason = fc.constantFrom(
  "STOP",
  "MAX_TOKENS",
  "SAFETY",
  "RECITATION",
  "MALFORMED_FUNCTION_CALL",
  "OTHER",
  "MODEL_ARMOR",
  "NEW_REASON",
);

const candidate = fc.record(
  {
    content: fc.record(
      { role: fc.constant("model"), parts: fc.array(modelPart, { maxLength: 4 }) },
      { requiredKeys: [] },
    ),
    finishReason,
    index: fc.nat(2),
    safetyRatings: fc.constant([{ category: "HARM_CATEGORY_HATE_SPEECH", probability: "NEGLIGIBLE" }]),
    groundingMetadata: fc.record({ webSearchQueries: fc.array(word, { maxLength: 2 }) }),
    finishMessage: text,
    avgLogprobs: fc.double({ min: -5, max: -0.001, noNaN: true }),
  },
  { requiredKeys: [] },
);

export const generativeResponseArb = fc.record(
  {
    candidates: fc.array(candidate, { maxLength: 2 }),
    promptFeedback: fc.record({ blockReason: fc.constantFrom("SAFETY", "OTHER") }, { requiredKeys: [] }),
    usageMetadata,
    modelVersion: word,
    responseId: word,
    createTime: fc.constant("2026-02-15T07:50:37.854117Z"),
  },
  { requiredKeys: [] },
);

export const generativeErrorBodyArb = fc.record({
  error: fc.record(
    {
      code: fc.oneof(fc.constantFrom(400, 401, 403, 404, 429, 500, 503, 504), fc.constant(null)),
      message: text,
      status: fc.constantFrom(
        "INVALID_ARGUMENT",
        "NOT_FOUND",
        "RESOURCE_EXHAUSTED",
        "UNAVAILABLE",
        "SOMETHING_ELSE",
      ),
      details: fc.constant([
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" },
      ]),
    },
    { requiredKeys: ["code", "message", "status"] },
  ),
});

/** A hand-written stream: text and thoughts split at odd places, whole calls, partial-args pieces, usage, maybe an error. */
const chunk = fc.record(
  {
    candidates: fc.tuple(
      fc.record(
        {
          content: fc.record(
            {
              role: fc.constant("model"),
              parts: fc.array(fc.oneof(textPart, callPart, codePart, inlinePart), { maxLength: 3 }),
            },
            { requiredKeys: [] },
          ),
          finishReason: fc.constantFrom("", "STOP", "MAX_TOKENS", "SAFETY"),
          index: fc.constant(0),
        },
        { requiredKeys: [] },
      ),
    ),
    usageMetadata,
    responseId: fc.constant("r"),
    modelVersion: fc.constant("gemini-x"),
  },
  { requiredKeys: [] },
);
const partialArgs = fc.record({
  candidates: fc.constant([
    {
      content: {
        role: "model",
        parts: [
          {
            functionCall: {
              partialArgs: [{ jsonPath: "$.a.b", stringValue: "x", willContinue: true }],
              willContinue: true,
            },
          },
        ],
      },
    },
  ]),
});
const streamedCall = fc.constant([
  {
    candidates: [
      { content: { role: "model", parts: [{ functionCall: { name: "g", willContinue: true } }] } },
    ],
  },
]);

export const generativeStreamArb = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 5, arbitrary: chunk.map((value) => [value]) },
        streamedCall,
        partialArgs.map((value) => [value]),
        fc.constant([{ candidates: [{ content: { role: "model", parts: [{ functionCall: {} }] } }] }]),
      ),
      { maxLength: 8 },
    ),
    fc.option(generativeErrorBodyArb, { nil: undefined }),
  )
  .map(([groups, error]) => [...groups.flat(), ...(error === undefined ? [] : [error])]);

// ─── Hard cases ──────────────────────────────────────────────────────────────────────────────────

const imagePart = fc.record({
  inlineData: fc.record({
    mimeType: fc.constantFrom("image/png", "image/jpeg", "image/webp"),
    data: fc.constantFrom("iVBORw0KGgo=", "/9j/4AAQ", "UklGRg=="),
  }),
});

/** `generationConfig` settings given as `0` or `false`: each means something other than leaving it out. */
const zeroConfig = {
  temperature: 0,
  topP: 0,
  topK: 0,
  seed: 0,
  presencePenalty: 0,
  frequencyPenalty: 0,
  responseLogprobs: false,
  logprobs: 0,
} as const;

const zeroConfigArb = fc.record(
  Object.fromEntries(Object.entries(zeroConfig).map(([key, value]) => [key, fc.constant(value)])),
  { requiredKeys: [] },
);

function hardCallsArb(hard: Hard) {
  return fc.uniqueArray(fc.record({ id: word, name: word, args: jsonObject }), {
    minLength: hard.tools ? 2 : 0,
    maxLength: hard.tools ? 4 : 1,
    selector: (call) => call.id,
  });
}

/** A conversation built around the hard cases asked for: images, parallel calls, signed thoughts, zeros. */
function hardRequestArb(hard: Hard) {
  const say = textFor(hard, { nonEmpty: true });
  const words = textFor(hard);
  const question = hard.images
    ? fc
        .tuple(say, fc.array(imagePart, { minLength: 1, maxLength: 2 }))
        .map(([value, images]) => [{ text: value }, ...images])
    : say.map((value) => [{ text: value }]);
  const answer = fc
    .record({
      thought: sometimes(fc.record({ text: words, thoughtSignature: signature }), hard.thinking),
      text: fc.option(say, { nil: undefined }),
      calls: hardCallsArb(hard),
      results: fc.array(words, { minLength: 4, maxLength: 4 }),
    })
    .map(({ thought, text: value, calls, results }) => {
      const parts = [
        ...(thought === undefined ? [] : [{ ...thought, thought: true }]),
        ...(value === undefined ? [] : [{ text: value }]),
        ...calls.map((call) => ({ functionCall: call })),
      ];
      return {
        model: parts.length === 0 ? [{ text: "ok" }] : parts,
        results: calls.map((call, index) => ({
          functionResponse: { id: call.id, name: call.name, response: { content: results[index] ?? "" } },
        })),
      };
    });
  return fc
    .record({
      system: fc.option(say, { nil: undefined }),
      turns: fc.array(fc.tuple(question, answer), { maxLength: 3 }),
      last: question,
      config: hard.zeros
        ? zeroConfigArb
        : fc.record(
            { temperature: fc.double({ min: 0, max: 2, noNaN: true }), maxOutputTokens: fc.nat() },
            {
              requiredKeys: [],
            },
          ),
      // 0 (off) and -1 (dynamic) included: a target without them must report them.
      thinking: sometimes(fc.integer({ min: -1, max: 8000 }), hard.thinking),
    })
    .map(({ system, turns, last, config, thinking }) => {
      const contents: { role: string; parts: unknown[] }[] = [];
      for (const [ask, { model, results }] of turns) {
        const previous = contents.at(-1);
        if (previous?.role === "user") previous.parts.push(...ask);
        else contents.push({ role: "user", parts: [...ask] });
        contents.push({ role: "model", parts: model });
        if (results.length > 0) contents.push({ role: "user", parts: results });
      }
      const previous = contents.at(-1);
      if (previous?.role === "user") previous.parts.push(...last);
      else contents.push({ role: "user", parts: last });
      const names = [
        ...new Set(
          contents.flatMap((content) =>
            content.parts.flatMap((part) =>
              isRecord(part) && isRecord(part.functionCall) ? [String(part.functionCall.name)] : [],
            ),
          ),
        ),
      ];
      const generationConfig = {
        ...config,
        ...(thinking === undefined
          ? {}
          : { thinkingConfig: { thinkingBudget: thinking, includeThoughts: true } }),
      };
      return {
        contents,
        ...(system === undefined ? {} : { systemInstruction: { parts: [{ text: system }] } }),
        ...(Object.keys(generationConfig).length === 0 ? {} : { generationConfig }),
        ...(names.length === 0
          ? {}
          : {
              tools: [
                {
                  // Gemini rejects an OBJECT without properties: a parameter-less tool has none.
                  functionDeclarations: names.map((name) => ({
                    name,
                    parameters: { type: "object", properties: { a: { type: "string" } } },
                  })),
                },
              ],
            }),
      };
    });
}

const hardUsageArb = (hard: Hard) =>
  fc
    .record({
      prompt: zeroOr(hard, 0, fc.nat(10_000)),
      cached: zeroOr(hard, 0, fc.nat(10_000)),
      candidates: zeroOr(hard, 0, fc.nat(10_000)),
      thoughts: zeroOr(hard, 0, fc.nat(10_000)),
    })
    .map(({ prompt, cached, candidates, thoughts }) => ({
      promptTokenCount: prompt + cached,
      cachedContentTokenCount: cached,
      candidatesTokenCount: candidates,
      thoughtsTokenCount: thoughts,
      totalTokenCount: prompt + cached + candidates + thoughts,
    }));

/** The parts of one answer built around the hard cases: a signed thought, parallel calls, hard text. */
const hardAnswerArb = (hard: Hard) =>
  fc.record({
    thought: sometimes(fc.record({ text: textFor(hard), thoughtSignature: signature }), hard.thinking),
    text: fc.option(textFor(hard), { nil: undefined }),
    calls: hardCallsArb(hard),
    finishReason: fc.constantFrom("STOP", "MAX_TOKENS", "SAFETY"),
    usage: hardUsageArb(hard),
  });

function hardResponseArb(hard: Hard) {
  return hardAnswerArb(hard).map(({ thought, text: value, calls, finishReason, usage }) => ({
    candidates: [
      {
        content: {
          role: "model",
          parts: [
            ...(thought === undefined ? [] : [{ ...thought, thought: true }]),
            ...(value === undefined ? [] : [{ text: value }]),
            ...calls.map((call) => ({ functionCall: call })),
          ],
        },
        finishReason: calls.length > 0 ? "STOP" : finishReason,
        index: 0,
      },
    ],
    usageMetadata: usage,
    modelVersion: "gemini-2.5-flash",
    responseId: "r1",
  }));
}

/**
 * A stream as a real upstream sends it: the thought and the text split across chunks
 * (the signature on the thought's last piece), whole function calls, the finish reason and usage last.
 */
function hardStreamArb(hard: Hard) {
  return fc
    .tuple(hardAnswerArb(hard), fc.array(fc.nat(), { maxLength: 3 }), fc.array(fc.nat(), { maxLength: 3 }))
    .map(([{ thought, text: value, calls, finishReason, usage }, thoughtCuts, textCuts]) => {
      const chunk = (parts: unknown[], last = false) => ({
        candidates: [
          {
            content: { role: "model", parts },
            index: 0,
            ...(last ? { finishReason: calls.length > 0 ? "STOP" : finishReason } : {}),
          },
        ],
        ...(last ? { usageMetadata: usage } : {}),
        responseId: "r1",
        modelVersion: "gemini-2.5-flash",
      });
      const events: unknown[] = [];
      if (thought !== undefined) {
        const split = pieces(thought.text, thoughtCuts).filter((piece) => piece !== "");
        split.forEach((piece, index) => {
          events.push(
            chunk([
              {
                text: piece,
                thought: true,
                ...(index === split.length - 1 ? { thoughtSignature: thought.thoughtSignature } : {}),
              },
            ]),
          );
        });
      }
      if (value !== undefined)
        for (const piece of pieces(value, textCuts)) if (piece !== "") events.push(chunk([{ text: piece }]));
      for (const call of calls) events.push(chunk([{ functionCall: call }]));
      events.push(chunk([], true));
      return events;
    });
}

// ─── Streams ─────────────────────────────────────────────────────────────────────────────────────

/** One finished candidate (index 0 when given), or none when the prompt was blocked (never both). */
const replayableResponseArb = generativeResponseArb
  .filter((body) =>
    body.candidates !== undefined && body.candidates.length > 0
      ? body.candidates[0]?.finishReason !== undefined && body.promptFeedback?.blockReason === undefined
      : body.promptFeedback?.blockReason !== undefined,
  )
  .map((body) => ({
    ...body,
    ...(body.candidates === undefined
      ? {}
      : {
          candidates: body.candidates
            .slice(0, 1)
            .map((candidate) => (candidate.index === undefined ? candidate : { ...candidate, index: 0 })),
        }),
  }));

// ─── What the laws read ──────────────────────────────────────────────────────────────────────────

const givenValuesArb = givenKeysArb(Object.keys(zeroConfig) as (keyof typeof zeroConfig)[]).map((keys) => ({
  body: {
    contents: [{ role: "user", parts: [{ text: "x" }] }],
    generationConfig: Object.fromEntries(keys.map((key) => [key, zeroConfig[key]])),
  },
  given: keys.map((key) => `/generationConfig/${key}`),
}));

const num = (value: unknown): number => (typeof value === "number" ? value : 0);
const obj = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

function usageOf(body: unknown): UsageTotals | undefined {
  const usage = obj(body).usageMetadata;
  if (usage == null) return undefined;
  const figures = obj(usage);
  // Cached tokens above the whole prompt make a source self-contradictory.
  const contradiction =
    num(figures.cachedContentTokenCount) > num(figures.promptTokenCount)
      ? `/usageMetadata/cachedContentTokenCount (${num(figures.cachedContentTokenCount)}) exceeds /usageMetadata/promptTokenCount (${num(figures.promptTokenCount)})`
      : undefined;
  const given = (keys: string[]) =>
    keys.filter((key, index) => index === 0 || key in figures).map((key) => `/usageMetadata/${key}`);
  return {
    ...(contradiction === undefined ? {} : { contradiction }),
    input: num(figures.promptTokenCount) + num(figures.toolUsePromptTokenCount),
    output: num(figures.candidatesTokenCount) + num(figures.thoughtsTokenCount),
    total: num(figures.totalTokenCount),
    fields: {
      input: given(["promptTokenCount", "toolUsePromptTokenCount"]),
      output: given(["candidatesTokenCount", "thoughtsTokenCount"]),
      total: "/usageMetadata/totalTokenCount",
    },
  };
}

const withoutError = (events: unknown[]) => !events.some((event) => isRecord(event) && "error" in event);

/** The most function-call parts one `parts` list of the payload holds. */
const mostCalls = (value: unknown): number => {
  let most = 0;
  someNode(value, (node, key) => {
    if (key === "parts" && Array.isArray(node))
      most = Math.max(most, node.filter((part) => isRecord(obj(part).functionCall)).length);
    return false;
  });
  return most;
};
const signedThought = (value: unknown) =>
  someNode(
    value,
    (node) => isRecord(node) && node.thought === true && typeof node.thoughtSignature === "string",
  );

const reach = {
  request: [
    { name: "parallel function calls", bias: "tools", holds: (body: unknown) => mostCalls(body) >= 2 },
    {
      name: "an inline image",
      bias: "images",
      holds: (body: unknown) =>
        someNode(
          body,
          (node, key) => key === "inlineData" && String(obj(node).mimeType).startsWith("image/"),
        ),
    },
    { name: "a thought with a signature", bias: "thinking", holds: signedThought },
    givenFact("an explicit temperature: 0", "temperature", 0),
    givenFact("an explicit topK: 0", "topK", 0),
    ...textFacts(true),
  ],
  response: [
    { name: "parallel function calls", bias: "tools", holds: (body: unknown) => mostCalls(body) >= 2 },
    { name: "a thought with a signature", bias: "thinking", holds: signedThought },
    givenFact("a usage figure of 0", "candidatesTokenCount", 0),
    ...textFacts(true),
  ],
  stream: [
    { name: "a function call", bias: "tools", holds: (events: unknown) => mostCalls(events) >= 1 },
    { name: "a thought with a signature", bias: "thinking", holds: signedThought },
    {
      name: "a stream cut off before its finish",
      holds: (events: unknown) => Array.isArray(events) && !generativeFinished(events),
    },
  ],
  errorBody: [
    { name: "a quota error", holds: (body: unknown) => obj(obj(body).error).status === "RESOURCE_EXHAUSTED" },
    { name: "a null code", holds: (body: unknown) => obj(obj(body).error).code === null },
  ],
} as const;

/** Candidate 0 gave its finish reason, or the prompt was blocked, before an error chunk ended the stream. */
function generativeFinished(events: readonly unknown[]): boolean {
  for (const event of events) {
    if (obj(event).error !== undefined) return false;
    const candidates = Array.isArray(obj(event).candidates) ? (obj(event).candidates as unknown[]) : [];
    const finished = candidates.some((candidate, position) => {
      const reason = obj(candidate).finishReason;
      return (obj(candidate).index ?? position) === 0 && typeof reason === "string" && reason !== "";
    });
    const blocked = candidates.length === 0 && typeof obj(obj(event).promptFeedback).blockReason === "string";
    if (finished || blocked) return true;
  }
  return false;
}

export const generativeArbitraries: ProtocolArbitraries = {
  reach,
  request: (hard) => leaning(hard, generativeRequestArb, hardRequestArb(hard)),
  response: (hard) => leaning(hard, generativeResponseArb, hardResponseArb(hard)),
  replayableResponse: (hard) => leaning(hard, replayableResponseArb, hardResponseArb(hard)),
  stream: (hard) => leaning(hard, generativeStreamArb.filter(withoutError), hardStreamArb(hard)),
  rawStream: () => generativeStreamArb,
  errorBody: () => generativeErrorBodyArb,
  givenValues: () => givenValuesArb,
  finished: generativeFinished,
  texts: (event) => {
    const candidates = obj(event).candidates;
    const first = Array.isArray(candidates)
      ? candidates.find((candidate) => (obj(candidate).index ?? 0) === 0)
      : undefined;
    const parts = obj(obj(first).content).parts;
    return (Array.isArray(parts) ? parts : [])
      .map(obj)
      .filter(
        (part) => part.thought !== true && part.functionCall === undefined && typeof part.text === "string",
      )
      .map((part) => String(part.text));
  },
  usage: usageOf,
  grammar: generativeGrammar,
};
