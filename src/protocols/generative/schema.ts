/**
 * Zod schemas of the generative-content wire format: request, response and stream chunk
 * (2.10), error body. Loose objects everywhere; vendor enums open. Proto-JSON also accepts the
 * snake_case field names, and real clients send some of them (`thinking_budget`,
 * `parameters_json_schema`), so those fields are declared under both names.
 * @see https://ai.google.dev/api/generate-content
 */
import { z } from "zod/v4";

type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;
type WithSnake<Shape extends Record<string, z.ZodType>> = Shape & {
  [Key in keyof Shape as Snake<Key & string>]: Shape[Key];
};

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The shape plus each field under its snake_case name, as proto-JSON parsers accept both. */
function withSnake<Shape extends Record<string, z.ZodType>>(shape: Shape): WithSnake<Shape> {
  const entries = Object.entries(shape);
  return Object.fromEntries([
    ...entries,
    ...entries.map(([name, schema]) => [snakeCase(name), schema] as const),
  ]) as WithSnake<Shape>;
}

const jsonObject = z.record(z.string(), z.unknown());

// ─── Parts and contents ───────────────────────────────────────────────────────────────────────────

/** Inline bytes: `{ mimeType, data }` with base64 `data` (the `inlineData` of a part). */
export const blob = z.looseObject({
  mimeType: z.string(),
  data: z.string(),
  displayName: z.string().optional(),
});
/**
 * Inline bytes: `{ mimeType, data }` with base64 `data` (the `inlineData` of a part). The type `blob` parses
 * to.
 */
export type Blob = z.infer<typeof blob>;

/** A file by URI: `{ mimeType?, fileUri }` (the `fileData` of a part). */
export const fileData = z.looseObject({
  fileUri: z.string(),
  mimeType: z.string().optional(),
  displayName: z.string().optional(),
});
/** A file by URI: `{ mimeType?, fileUri }` (the `fileData` of a part). The type `fileData` parses to. */
export type FileData = z.infer<typeof fileData>;

/** `name` and `args` are absent on the pieces of a Vertex `streamFunctionCallArguments` stream. */
export const functionCall = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  args: jsonObject.optional(),
  partialArgs: z
    .array(z.looseObject({ jsonPath: z.string().optional(), willContinue: z.boolean().optional() }))
    .optional(),
  willContinue: z.boolean().optional(),
});
/**
 * `name` and `args` are absent on the pieces of a Vertex `streamFunctionCallArguments` stream. The type
 * `functionCall` parses to.
 */
export type FunctionCall = z.infer<typeof functionCall>;

/**
 * The result of a function call, sent back in a `user` turn: `{ id?, name, response }` where `response` is a JSON object.
 */
export const functionResponse = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  /** Must be a JSON object. */
  response: jsonObject,
  parts: z.array(z.looseObject({ inlineData: blob.optional(), fileData: fileData.optional() })).optional(),
  willContinue: z.boolean().optional(),
  scheduling: z.string().optional(),
});
/**
 * The result of a function call, sent back in a `user` turn: `{ id?, name, response }` where `response` is a
 * JSON object. The type `functionResponse` parses to.
 */
export type FunctionResponse = z.infer<typeof functionResponse>;

/** Code the model wrote for the code-execution tool: `{ language, code }`. */
export const executableCode = z.looseObject({
  code: z.string(),
  language: z.string().optional(),
  id: z.string().optional(),
});
/** Code the model wrote to run: what the schema `executableCode` parses to. */
export type ExecutableCode = z.infer<typeof executableCode>;
/** The result of running `executableCode`: `{ outcome, output? }`. */
export const codeExecutionResult = z.looseObject({
  outcome: z.string().optional(),
  output: z.string().optional(),
  id: z.string().optional(),
});
/** The result of running code: what the schema `codeExecutionResult` parses to. */
export type CodeExecutionResult = z.infer<typeof codeExecutionResult>;

/**
 * A call of a server-side tool (Gemini 3 with built-in tools beside functions): the client echoes it
 * back in the history, with its `toolResponse`.
 */
export const toolCall = z.looseObject({
  id: z.string().optional(),
  toolType: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
});
/** A call of a server-side tool. The type `toolCall` parses to. */
export type ToolCall = z.infer<typeof toolCall>;

/** The output of a server-side tool call (`toolCall`), matched by `id`. */
export const toolResponse = z.looseObject({
  id: z.string().optional(),
  toolType: z.string().optional(),
  response: z.record(z.string(), z.unknown()).optional(),
});
/** The output of a server-side tool call. The type `toolResponse` parses to. */
export type ToolResponse = z.infer<typeof toolResponse>;

/** One part: exactly one data field in practice; `thought`/`thoughtSignature` ride along. */
export const part = z.looseObject({
  text: z.string().optional(),
  inlineData: blob.optional(),
  fileData: fileData.optional(),
  functionCall: functionCall.optional(),
  functionResponse: functionResponse.optional(),
  executableCode: executableCode.optional(),
  codeExecutionResult: codeExecutionResult.optional(),
  toolCall: toolCall.optional(),
  toolResponse: toolResponse.optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  videoMetadata: z.looseObject({}).optional(),
  mediaResolution: z.union([z.string(), z.looseObject({})]).optional(),
  partMetadata: z.looseObject({}).optional(),
});
/**
 * One part: exactly one data field in practice; `thought`/`thoughtSignature` ride along. The type `part`
 * parses to.
 */
export type Part = z.infer<typeof part>;

/** Roles of a request turn: `user` or `model` (`assistant` is rejected, as the API does). */
export const role = z.union([z.literal("user"), z.literal("model")]);
/**
 * Roles of a request turn: `user` or `model` (`assistant` is rejected, as the API does). The type `role`
 * parses to.
 */
export type Role = z.infer<typeof role>;

/** A turn; `parts` may be absent (a model turn that said nothing: the API returns it and accepts it back). */
export const content = z.looseObject({ role: role.optional(), parts: z.array(part).optional() });
/**
 * A turn; `parts` may be absent (a model turn that said nothing: the API returns it and accepts it back). The
 * type `content` parses to.
 */
export type Content = z.infer<typeof content>;

/** `systemInstruction`: the API ignores its role; clients send `"user"` or nothing. */
export const systemInstruction = z.looseObject({ role: z.string().optional(), parts: z.array(part) });
/**
 * `systemInstruction`: the API ignores its role; clients send `"user"` or nothing. The type
 * `systemInstruction` parses to.
 */
export type SystemInstruction = z.infer<typeof systemInstruction>;

/** A candidate's content: `parts` may be missing (MAX_TOKENS with thinking), or the object empty (SAFETY). */
export const responseContent = z.looseObject({
  role: z.string().optional(),
  parts: z.array(part).optional(),
});
/**
 * A candidate's content: `parts` may be missing (MAX_TOKENS with thinking), or the object empty (SAFETY). The
 * type `responseContent` parses to.
 */
export type ResponseContent = z.infer<typeof responseContent>;

// ─── Schema (OpenAPI subset) ──────────────────────────────────────────────────────────────────────

/** A generative `Schema`: types are upper- or lower-case strings; kept loose. */
export const schema = z.looseObject({
  type: z.string().optional(),
  format: z.string().optional(),
  description: z.string().optional(),
  nullable: z.boolean().optional(),
  enum: z.array(z.string()).optional(),
  required: z.array(z.string()).optional(),
});
/** A generative `Schema`: types are upper- or lower-case strings; kept loose. The type `schema` parses to. */
export type Schema = z.infer<typeof schema>;

// ─── Tools ────────────────────────────────────────────────────────────────────────────────────────

/**
 * A function the model may call: `name`, `description`, and `parameters` (the generative `Schema`) or `parametersJsonSchema`.
 */
export const functionDeclaration = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  ...withSnake({
    parameters: schema.optional(),
    parametersJsonSchema: z.unknown().optional(),
    response: schema.optional(),
    responseJsonSchema: z.unknown().optional(),
  }),
  behavior: z.string().optional(),
});
/**
 * A function the model may call: `name`, `description`, and `parameters` (the generative `Schema`) or
 * `parametersJsonSchema`. The type `functionDeclaration` parses to.
 */
export type FunctionDeclaration = z.infer<typeof functionDeclaration>;

/**
 * One entry of a request's `tools`: `functionDeclarations`, or a built-in tool (`googleSearch`, `codeExecution`, `urlContext` …).
 */
export const tool = z.looseObject({
  ...withSnake({
    functionDeclarations: z.array(functionDeclaration).optional(),
    googleSearch: z.looseObject({}).optional(),
    googleSearchRetrieval: z.looseObject({}).optional(),
    codeExecution: z.looseObject({}).optional(),
    urlContext: z.looseObject({}).optional(),
    googleMaps: z.looseObject({}).optional(),
    fileSearch: z.looseObject({}).optional(),
    computerUse: z.looseObject({}).optional(),
    enterpriseWebSearch: z.looseObject({}).optional(),
    retrieval: z.looseObject({}).optional(),
  }),
  mcpServers: z.array(z.looseObject({})).optional(),
});
/**
 * One entry of a request's `tools`: `functionDeclarations`, or a built-in tool (`googleSearch`,
 * `codeExecution`, `urlContext` …). The type `tool` parses to.
 */
export type Tool = z.infer<typeof tool>;

/**
 * How the model may call functions: `mode` (`AUTO`, `ANY`, `NONE`, `VALIDATED`) and `allowedFunctionNames`.
 */
export const functionCallingConfig = z.looseObject({
  mode: z.string().optional(),
  ...withSnake({ allowedFunctionNames: z.array(z.string()).optional() }),
});
/**
 * How the model may call functions: `mode` (`AUTO`, `ANY`, `NONE`, `VALIDATED`) and `allowedFunctionNames`.
 * The type `functionCallingConfig` parses to.
 */
export type FunctionCallingConfig = z.infer<typeof functionCallingConfig>;

/** A request's `toolConfig`: its `functionCallingConfig`. */
export const toolConfig = z.looseObject({
  ...withSnake({
    functionCallingConfig: functionCallingConfig.optional(),
    retrievalConfig: z.looseObject({}).optional(),
  }),
});
/** A request's `toolConfig`: its `functionCallingConfig`. The type `toolConfig` parses to. */
export type ToolConfig = z.infer<typeof toolConfig>;

/** One safety setting: a harm `category` and its blocking `threshold`. */
export const safetySetting = z.looseObject({
  category: z.string(),
  threshold: z.string(),
  method: z.string().optional(),
});
/** One safety setting: a harm `category` and its blocking `threshold`. The type `safetySetting` parses to. */
export type SafetySetting = z.infer<typeof safetySetting>;

// ─── Generation config ────────────────────────────────────────────────────────────────────────────

/** Thinking settings: `thinkingBudget` (tokens; 0 off, -1 dynamic), `thinkingLevel` and `includeThoughts`. */
export const thinkingConfig = z.looseObject({
  ...withSnake({
    thinkingBudget: z.number().int().optional(),
    includeThoughts: z.boolean().optional(),
    thinkingLevel: z.string().optional(),
  }),
});
/**
 * Thinking settings: `thinkingBudget` (tokens; 0 off, -1 dynamic), `thinkingLevel` and `includeThoughts`. The
 * type `thinkingConfig` parses to.
 */
export type ThinkingConfig = z.infer<typeof thinkingConfig>;

/**
 * A request's `generationConfig`: sampling (`temperature`, `topP`, `topK` …), `maxOutputTokens`,
 * `stopSequences`, `candidateCount`, the response format (`responseMimeType`, `responseSchema`,
 * `responseJsonSchema`) and `thinkingConfig`.
 */
export const generationConfig = z.looseObject({
  ...withSnake({
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().min(0).max(1).optional(),
    topK: z.number().int().min(0).optional(),
    maxOutputTokens: z.number().int().optional(),
    stopSequences: z.array(z.string()).max(5).optional(),
    candidateCount: z.number().int().optional(),
    responseMimeType: z.string().optional(),
    responseSchema: schema.optional(),
    responseJsonSchema: z.unknown().optional(),
    thinkingConfig: thinkingConfig.optional(),
    presencePenalty: z.number().optional(),
    frequencyPenalty: z.number().optional(),
    seed: z.number().int().optional(),
    responseLogprobs: z.boolean().optional(),
    logprobs: z.number().int().min(0).optional(),
    mediaResolution: z.string().optional(),
    responseModalities: z.array(z.string()).optional(),
    speechConfig: z.looseObject({}).optional(),
    imageConfig: z.looseObject({}).optional(),
    enableEnhancedCivicAnswers: z.boolean().optional(),
  }),
});
/**
 * A request's `generationConfig`: sampling (`temperature`, `topP`, `topK` …), `maxOutputTokens`,
 * `stopSequences`, `candidateCount`, the response format (`responseMimeType`, `responseSchema`,
 * `responseJsonSchema`) and `thinkingConfig`. The type `generationConfig` parses to.
 */
export type GenerationConfig = z.infer<typeof generationConfig>;

// ─── Request ──────────────────────────────────────────────────────────────────────────────────────

/** The body of `:generateContent` / `:streamGenerateContent`; the model id is in the URL, not here. */
export const request = z.looseObject({
  contents: z.array(content).min(1),
  ...withSnake({
    systemInstruction: systemInstruction.optional(),
    generationConfig: generationConfig.optional(),
    toolConfig: toolConfig.optional(),
    safetySettings: z.array(safetySetting).optional(),
    cachedContent: z.string().optional(),
    /** `standard`, `flex` or `priority`. */
    serviceTier: z.string().optional(),
  }),
  tools: z.array(tool).optional(),
  labels: z.record(z.string(), z.string()).optional(),
});
/**
 * The body of `:generateContent` / `:streamGenerateContent`; the model id is in the URL, not here. The type
 * `request` parses to.
 */
export type Request = z.infer<typeof request>;

// ─── Response ─────────────────────────────────────────────────────────────────────────────────────

/** A candidate's or prompt's rating for one harm category: `category`, `probability`, `blocked`. */
export const safetyRating = z.looseObject({
  category: z.string().optional(),
  probability: z.string().optional(),
  blocked: z.boolean().optional(),
});
/**
 * A candidate's or prompt's rating for one harm category: `category`, `probability`, `blocked`. The type
 * `safetyRating` parses to.
 */
export type SafetyRating = z.infer<typeof safetyRating>;

/** One answer of a response: its `content`, `finishReason`, `safetyRatings`, citations and `index`. */
export const candidate = z.looseObject({
  content: responseContent.optional(),
  /** Open: STOP, MAX_TOKENS, SAFETY, RECITATION, MALFORMED_FUNCTION_CALL, MODEL_ARMOR ...; "" while streaming. */
  finishReason: z.string().optional(),
  finishMessage: z.string().optional(),
  index: z.number().int().optional(),
  safetyRatings: z.array(safetyRating).optional(),
  citationMetadata: z.looseObject({}).optional(),
  groundingMetadata: z.looseObject({}).optional(),
  urlContextMetadata: z.looseObject({}).optional(),
  logprobsResult: z.looseObject({}).optional(),
  avgLogprobs: z.number().optional(),
  tokenCount: z.number().optional(),
});
/**
 * One answer of a response: its `content`, `finishReason`, `safetyRatings`, citations and `index`. The type
 * `candidate` parses to.
 */
export type Candidate = z.infer<typeof candidate>;

/** Why a prompt was blocked (`blockReason`) and its safety ratings; a blocked prompt has no candidates. */
export const promptFeedback = z.looseObject({
  blockReason: z.string().optional(),
  blockReasonMessage: z.string().optional(),
  safetyRatings: z.array(safetyRating).optional(),
});
/**
 * Why a prompt was blocked (`blockReason`) and its safety ratings; a blocked prompt has no candidates. The
 * type `promptFeedback` parses to.
 */
export type PromptFeedback = z.infer<typeof promptFeedback>;

const modalityTokenCount = z.array(
  z.looseObject({ modality: z.string().optional(), tokenCount: z.number().optional() }),
);

/**
 * Token usage: `promptTokenCount` (cached tokens included), `candidatesTokenCount`,
 * `thoughtsTokenCount`, `cachedContentTokenCount`, `totalTokenCount` and per-modality details.
 */
export const usageMetadata = z.looseObject({
  promptTokenCount: z.number().int().optional(),
  candidatesTokenCount: z.number().int().optional(),
  thoughtsTokenCount: z.number().int().optional(),
  cachedContentTokenCount: z.number().int().optional(),
  toolUsePromptTokenCount: z.number().int().optional(),
  totalTokenCount: z.number().int().optional(),
  promptTokensDetails: modalityTokenCount.optional(),
  candidatesTokensDetails: modalityTokenCount.optional(),
  cacheTokensDetails: modalityTokenCount.optional(),
  toolUsePromptTokensDetails: modalityTokenCount.optional(),
  trafficType: z.string().optional(),
  serviceTier: z.string().optional(),
});
/**
 * Token usage: `promptTokenCount` (cached tokens included), `candidatesTokenCount`, `thoughtsTokenCount`,
 * `cachedContentTokenCount`, `totalTokenCount` and per-modality details. The type `usageMetadata` parses to.
 */
export type UsageMetadata = z.infer<typeof usageMetadata>;

/** A whole response, and also one chunk of a stream (each chunk is a full response object). */
export const response = z.looseObject({
  candidates: z.array(candidate).optional(),
  promptFeedback: promptFeedback.optional(),
  usageMetadata: usageMetadata.optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
  /** Vertex: RFC 3339 time. */
  createTime: z.string().optional(),
});
/**
 * A whole response, and also one chunk of a stream (each chunk is a full response object). The type
 * `response` parses to.
 */
export type Response = z.infer<typeof response>;

// ─── Errors ───────────────────────────────────────────────────────────────────────────────────────

/**
 * A generative error body: `{ error: { code, message, status, details? } }` (`status` is the canonical name, e.g. `RESOURCE_EXHAUSTED`).
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting
 */
export const errorBody = z.looseObject({
  error: z.looseObject({
    code: z.number().int().nullable(),
    message: z.string(),
    /** Canonical code name: INVALID_ARGUMENT, NOT_FOUND, RESOURCE_EXHAUSTED ... (open). */
    status: z.string(),
    details: z.array(z.unknown()).optional(),
  }),
});
/**
 * A generative error body: `{ error: { code, message, status, details? } }` (`status` is the canonical name,
 * e.g. `RESOURCE_EXHAUSTED`). The type `errorBody` parses to.
 */
export type ErrorBody = z.infer<typeof errorBody>;

/** One SSE `data:` payload of `:streamGenerateContent?alt=sse`: a response chunk, or a mid-stream error. */
export const streamEvent = z.union([errorBody, response]);
/**
 * One SSE `data:` payload of `:streamGenerateContent?alt=sse`: a response chunk, or a mid-stream error. The
 * type `streamEvent` parses to.
 */
export type StreamEvent = z.infer<typeof streamEvent>;
