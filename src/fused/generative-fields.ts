/**
 * The top level of a plain generative request, read once for every fused path from generative: the
 * `contents`, the `systemInstruction` and the sampling fields of `generationConfig`, given as finite
 * numbers (stop sequences as strings; `responseModalities: ["TEXT"]`, which says nothing), and — for a path that takes them — the `tools` and `toolConfig`
 * as given. Anything else — another field, a `null`, another config field or type — is `undefined`,
 * and the path hands the body to the hub.
 */
import { isObject } from "../common/json";
import { isNumber } from "./number";

/** The sampling fields of a plain `generationConfig`, as given. */
export type GenerativeSampling = {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxTokens?: number;
  stop?: string[];
  candidates?: number;
  presence?: number;
  frequency?: number;
  seed?: number;
};

/** A plain generative request's parts, not yet read further. */
export type GenerativeFields = {
  contents: unknown[];
  system: unknown;
  sampling: GenerativeSampling;
  /** `tools` and `toolConfig` as given (not yet read), only when the caller asked for them. */
  tools?: unknown;
  toolConfig?: unknown;
};

/** A `{text}` part exactly, its text; else `undefined`. */
export function plainText(part: unknown): string | undefined {
  if (!isObject(part) || typeof part.text !== "string") return undefined;
  for (const key in part) if (key !== "text") return undefined;
  return part.text;
}

/**
 * `body` as a plain generative request, or `undefined` for the hub. Never throws. `withTools` lets
 * `tools` and `toolConfig` through, for a path that reads them.
 */
export function generativeFields(body: unknown, withTools = false): GenerativeFields | undefined {
  if (!isObject(body)) return undefined;
  let contents: unknown;
  let system: unknown;
  let config: unknown;
  let tools: unknown;
  let toolConfig: unknown;
  for (const key in body) {
    const value = body[key];
    if (value === null || value === undefined) return undefined;
    if (key === "contents") contents = value;
    else if (key === "systemInstruction") system = value;
    else if (key === "generationConfig") config = value;
    else if (withTools && key === "tools") tools = value;
    else if (withTools && key === "toolConfig") toolConfig = value;
    else return undefined;
  }
  if (!Array.isArray(contents)) return undefined;
  const sampling: GenerativeSampling = {};
  if (config !== undefined) {
    if (!isObject(config)) return undefined;
    for (const key in config) {
      const value = config[key];
      if (key === "stopSequences") {
        if (!Array.isArray(value)) return undefined;
        for (const sequence of value) if (typeof sequence !== "string") return undefined;
        sampling.stop = value as string[];
        continue;
      }
      // Text-only output is what every target gives: the hub reads it as nothing, and reports nothing.
      if (key === "responseModalities") {
        if (!Array.isArray(value) || value.length !== 1 || value[0] !== "TEXT") return undefined;
        continue;
      }
      if (!isNumber(value)) return undefined;
      switch (key) {
        case "temperature":
          sampling.temperature = value;
          break;
        case "topP":
          sampling.topP = value;
          break;
        case "topK":
          sampling.topK = value;
          break;
        case "maxOutputTokens":
          sampling.maxTokens = value;
          break;
        case "candidateCount":
          sampling.candidates = value;
          break;
        case "presencePenalty":
          sampling.presence = value;
          break;
        case "frequencyPenalty":
          sampling.frequency = value;
          break;
        case "seed":
          sampling.seed = value;
          break;
        default:
          return undefined;
      }
    }
  }
  return { contents, system, sampling, tools, toolConfig };
}
