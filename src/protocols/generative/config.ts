/**
 * `generationConfig` ⇄ common sampling, budget, stop sequences, response format and reasoning.
 * Ranges are clamped, never scaled.
 * @see https://ai.google.dev/api/generate-content#generationconfig
 */

import { budgetForEffort } from "../../common/effort";
import { isObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import { keepStopSequences } from "../../common/stop";
import { exactSubset, fromGenerativeSchema, lowerTypeNames } from "./json-schema";
import type * as generative from "./schema";

const MAX_STOP_SEQUENCES = 5;
const CONFIG_KEYS = new Set([
  "temperature",
  "topP",
  "topK",
  "maxOutputTokens",
  "stopSequences",
  "candidateCount",
  "responseMimeType",
  "responseSchema",
  "responseJsonSchema",
  "thinkingConfig",
  "presencePenalty",
  "frequencyPenalty",
  "seed",
  "responseLogprobs",
  "logprobs",
]);

type Decoded = Pick<
  common.Request,
  | "temperature"
  | "topP"
  | "topK"
  | "maxTokens"
  | "stop"
  | "candidateCount"
  | "presencePenalty"
  | "frequencyPenalty"
  | "seed"
  | "logprobs"
  | "topLogprobs"
  | "responseFormat"
  | "reasoning"
>;

/** The decoded fields that are a given value, and the type of each one's value. */
type GivenKey = Exclude<keyof Decoded, "responseFormat" | "reasoning">;
type GivenValue<K extends GivenKey> = NonNullable<Decoded[K]>["value"];

/** snake_case → camelCase by hand: a regular expression per key cost more than the rest of the decode. */
function camelCase(name: string): string {
  if (name.indexOf("_") === -1) return name;
  let out = "";
  for (let index = 0; index < name.length; index++) {
    const char = name[index] as string;
    const next = name[index + 1];
    if (char === "_" && next !== undefined && next >= "a" && next <= "z") {
      out += next.toUpperCase();
      index++;
    } else {
      out += char;
    }
  }
  return out;
}

/** camelCase → snake_case (`maxOutputTokens` → `max_output_tokens`). */
function snakeCase(name: string): string {
  let out = "";
  for (let index = 0; index < name.length; index++) {
    const char = name[index] as string;
    out += char >= "A" && char <= "Z" ? `_${char.toLowerCase()}` : char;
  }
  return out;
}

/**
 * `generationConfig` (camelCase or snake_case fields) → common request fields, only those present,
 * written into `decoded` (the request being built) without an intermediate object to copy.
 */
export function decodeGenerationConfig(
  config: generative.GenerationConfig,
  base: string,
  losses: Loss[],
  decoded: common.Draft<Decoded>,
): void {
  const name = (field: string) => (Object.hasOwn(config, field) ? field : snakeCase(field));
  for (const key of Object.keys(config)) {
    const known = camelCase(key);
    if (CONFIG_KEYS.has(known)) continue;
    const value = (config as Record<string, unknown>)[key];
    const textOnly =
      known === "responseModalities" && Array.isArray(value) && value.length === 1 && value[0] === "TEXT";
    if (!textOnly)
      losses.push(
        loss(at(base, key), "dropped", `generationConfig.${key} has no common equivalent and was dropped.`),
      );
  }
  // Each field present becomes a given value; pointers are built only for the fields that are there.
  const put = <K extends GivenKey>(key: K, value: GivenValue<K> | undefined, field: string): void => {
    if (value !== undefined) decoded[key] = { value, source: `${base}/${name(field)}` } as Decoded[K];
  };
  put("temperature", config.temperature, "temperature");
  put("topP", config.topP ?? config.top_p, "topP");
  put("topK", config.topK ?? config.top_k, "topK");
  put("maxTokens", config.maxOutputTokens ?? config.max_output_tokens, "maxOutputTokens");
  put("stop", config.stopSequences ?? config.stop_sequences, "stopSequences");
  put("candidateCount", config.candidateCount ?? config.candidate_count, "candidateCount");
  put("presencePenalty", config.presencePenalty ?? config.presence_penalty, "presencePenalty");
  put("frequencyPenalty", config.frequencyPenalty ?? config.frequency_penalty, "frequencyPenalty");
  put("seed", config.seed, "seed");
  put("logprobs", config.responseLogprobs ?? config.response_logprobs, "responseLogprobs");
  put("topLogprobs", config.logprobs, "logprobs");
  const responseFormat = decodeResponseFormat(config, base, name, losses);
  if (responseFormat !== undefined) decoded.responseFormat = responseFormat;
  const thinking = config.thinkingConfig ?? config.thinking_config;
  if (thinking !== undefined) {
    const reasoning = decodeThinking(thinking, `${base}/${name("thinkingConfig")}`, losses);
    if (reasoning !== undefined) decoded.reasoning = reasoning;
  }
}

function decodeResponseFormat(
  config: generative.GenerationConfig,
  base: string,
  name: (field: string) => string,
  losses: Loss[],
): common.ResponseFormat | undefined {
  const mime = config.responseMimeType ?? config.response_mime_type;
  const jsonSchema = config.responseJsonSchema ?? config.response_json_schema;
  const schema = config.responseSchema ?? config.response_schema;
  if (mime === undefined && jsonSchema === undefined && schema === undefined) return undefined;
  const mimeSource = `${base}/${name("responseMimeType")}`;
  if (mime !== undefined && mime !== "application/json") {
    if (mime === "text/plain" && schema === undefined && jsonSchema === undefined)
      return { type: "text", source: mimeSource };
    losses.push(
      loss(mimeSource, "dropped", `The response type "${mime}" has no common equivalent and was dropped.`),
    );
    return undefined;
  }
  if (isObject(jsonSchema)) {
    const schemaSource = `${base}/${name("responseJsonSchema")}`;
    // Gemini takes OpenAPI type names here too (Gemini CLI sends them); JSON Schema's are lower case.
    return { type: "json-schema", schema: lowerTypeNames(jsonSchema), schemaSource, source: schemaSource };
  }
  if (schema !== undefined) {
    const schemaSource = `${base}/${name("responseSchema")}`;
    return { type: "json-schema", schema: fromGenerativeSchema(schema), schemaSource, source: schemaSource };
  }
  return { type: "json", source: mimeSource };
}

function decodeThinking(
  config: generative.ThinkingConfig | undefined,
  source: string,
  losses: Loss[],
): common.ReasoningConfig | undefined {
  if (config === undefined) return undefined;
  const budget = config.thinkingBudget ?? config.thinking_budget;
  const level = config.thinkingLevel ?? config.thinking_level;
  const include = config.includeThoughts ?? config.include_thoughts;
  for (const key of Object.keys(config)) {
    if (!["thinkingBudget", "thinkingLevel", "includeThoughts"].includes(camelCase(key))) {
      losses.push(
        loss(at(source, key), "dropped", `thinkingConfig.${key} has no common equivalent and was dropped.`),
      );
    }
  }
  const budgetField = Object.hasOwn(config, "thinkingBudget") ? "thinkingBudget" : "thinking_budget";
  const includeField = Object.hasOwn(config, "includeThoughts") ? "includeThoughts" : "include_thoughts";
  return {
    // -1 asks for a dynamic budget: thinking on, no fixed budget.
    ...(budget === undefined || budget === -1
      ? {}
      : { budgetTokens: budget, budgetSource: `${source}/${budgetField}` }),
    ...(budget === undefined ? {} : { enabled: budget !== 0 }),
    ...(level === undefined ? {} : { effort: level.toLowerCase() }),
    ...(include === undefined
      ? {}
      : { includeThoughts: include, includeSource: `${source}/${includeField}` }),
    source,
  };
}

// ─── Encode ───────────────────────────────────────────────────────────────────────────────────────

function clampGiven(
  value: common.Given<number> | undefined,
  low: number,
  high: number,
  label: string,
  losses: Loss[],
): number | undefined {
  if (value === undefined) return undefined;
  if (value.value >= low && value.value <= high) return value.value;
  const clamped = Math.min(high, Math.max(low, value.value));
  losses.push(
    loss(
      value.source,
      "clamped",
      `${label} ${value.value} is outside generative's range ${low}–${high} and was clamped to ${clamped}.`,
    ),
  );
  return clamped;
}

/** Thinking budgets per model family: [min, max], and whether 0 (off) is allowed. */
function budgetRange(model: string): { min: number; max: number; canDisable: boolean } {
  if (/2\.5-pro/.test(model)) return { min: 128, max: 32768, canDisable: false };
  if (/flash-lite/.test(model)) return { min: 512, max: 24576, canDisable: true };
  return { min: 0, max: 24576, canDisable: true };
}

const LEVELS = new Set(["minimal", "low", "medium", "high"]);

function encodeThinking(request: common.Request, losses: Loss[]): generative.ThinkingConfig | undefined {
  const reasoning = request.reasoning;
  if (reasoning === undefined) return undefined;
  const levelModel = /gemini-3/.test(request.model);
  const range = budgetRange(request.model);
  const include = reasoning.includeThoughts;
  const budgetSource = reasoning.budgetSource ?? reasoning.source;
  const off = reasoning.enabled === false || reasoning.effort === "none";
  if (off && reasoning.effort !== undefined && reasoning.effort !== "none")
    losses.push(
      loss(
        reasoning.source,
        "dropped",
        `Thinking is off, and Gemini has no effort apart from thinking: the effort "${reasoning.effort}" was dropped.`,
        "effort.dropped",
      ),
    );
  if (off) {
    if (levelModel) {
      losses.push(
        loss(
          reasoning.source,
          "approximated",
          "Gemini 3 models cannot turn thinking off; the lowest thinking level was sent.",
        ),
      );
      return {
        thinkingLevel: /pro/.test(request.model) ? "low" : "minimal",
        ...(include === undefined ? {} : { includeThoughts: include }),
      };
    }
    if (!range.canDisable) {
      losses.push(
        loss(
          budgetSource,
          "clamped",
          `This model cannot turn thinking off; the smallest budget ${range.min} was sent.`,
        ),
      );
      return { thinkingBudget: range.min, ...(include === undefined ? {} : { includeThoughts: include }) };
    }
    return { thinkingBudget: 0, ...(include === undefined ? {} : { includeThoughts: include }) };
  }
  const includeThoughts =
    include ??
    (reasoning.budgetTokens !== undefined || reasoning.effort !== undefined || reasoning.enabled === true);
  if (reasoning.budgetTokens !== undefined) {
    const budget = reasoning.budgetTokens;
    const clamped = Math.min(range.max, Math.max(range.min, budget));
    if (clamped !== budget) {
      losses.push(
        loss(
          budgetSource,
          "clamped",
          `A thinking budget of ${budget} is outside this model's range ${range.min}–${range.max}; ${clamped} was sent.`,
        ),
      );
    }
    return { thinkingBudget: clamped, includeThoughts };
  }
  if (reasoning.effort !== undefined) {
    const effort = reasoning.effort.toLowerCase();
    if (levelModel) {
      if (LEVELS.has(effort)) return { thinkingLevel: effort, includeThoughts };
      losses.push(
        loss(
          reasoning.source,
          "approximated",
          `The effort "${reasoning.effort}" has no Gemini thinking level; "high" was sent.`,
        ),
      );
      return { thinkingLevel: "high", includeThoughts };
    }
    const budget = budgetForEffort(effort);
    if (budget === undefined) {
      losses.push(
        loss(
          reasoning.source,
          "approximated",
          `The effort "${reasoning.effort}" is unknown; a dynamic thinking budget was sent.`,
        ),
      );
      return { thinkingBudget: -1, includeThoughts };
    }
    const sent = Math.min(range.max, Math.max(range.min, budget));
    // A level is not a token count: the budget it becomes is this table's guess.
    losses.push(
      loss(
        reasoning.source,
        "approximated",
        `The effort "${reasoning.effort}" has no form for this model; it became a thinking budget of ${sent} tokens.`,
      ),
    );
    return { thinkingBudget: sent, includeThoughts };
  }
  if (reasoning.enabled === true) return { thinkingBudget: -1, includeThoughts };
  return include === undefined ? undefined : { includeThoughts: include };
}

/** The response format → the generation config's response fields, written into `config`. */
function encodeResponseFormat(
  format: common.ResponseFormat | undefined,
  losses: Loss[],
  config: generative.GenerationConfig,
): void {
  if (format === undefined || format.type === "text") return;
  config.responseMimeType = "application/json";
  if (format.type === "json") return;
  if (format.strict === true) {
    losses.push(
      loss(`${format.source}/strict`, "dropped", "`strict` has no generative equivalent and was dropped."),
    );
  }
  // The subset (`responseSchema`) when it says all of the schema; else the schema unchanged as JSON
  // Schema (`responseJsonSchema`), which Gemini takes whole: nothing it accepts is rewritten away.
  const schemaSource = format.schemaSource ?? `${format.source}/schema`;
  const subset = exactSubset(format.schema, schemaSource);
  // The subset requires a type: one told by `properties` / `items` is written, and said.
  if (subset?.type !== undefined && format.schema.type === undefined)
    losses.push(
      loss(
        at(schemaSource, "type"),
        "synthesized",
        `generative's responseSchema needs a type; the schema had none, and "${String(subset.type)}" (what its properties tell) was written.`,
        "response_format.schema.type.synthesized",
      ),
    );
  let schema = subset ?? format.schema;
  if (format.description !== undefined) {
    if (schema.description === undefined) schema = { ...schema, description: format.description };
    else
      losses.push(
        loss(
          `${format.source}/description`,
          "dropped",
          "The response format's description was dropped: its schema has a description of its own.",
        ),
      );
  }
  if (subset === undefined) config.responseJsonSchema = schema;
  else config.responseSchema = schema;
}

/** common request → `generationConfig`, or `undefined` when nothing is set. */
export function encodeGenerationConfig(
  request: common.Request,
  losses: Loss[],
): generative.GenerationConfig | undefined {
  const stop =
    request.stop === undefined
      ? undefined
      : keepStopSequences(request.stop, MAX_STOP_SEQUENCES, "generative");
  if (stop !== undefined) losses.push(...stop.losses);
  const stopSequences = stop?.value;
  const thinkingConfig = encodeThinking(request, losses);
  // Assigned field by field in wire order: a conditional spread of a computed-key object per field
  // cost most of a short request's translation.
  const config: generative.GenerationConfig = {};
  const temperature = clampGiven(request.temperature, 0, 2, "temperature", losses);
  if (temperature !== undefined) config.temperature = temperature;
  const topP = clampGiven(request.topP, 0, 1, "top_p", losses);
  if (topP !== undefined) config.topP = topP;
  if (request.topK !== undefined) config.topK = request.topK.value;
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens.value;
  if (stopSequences !== undefined) config.stopSequences = [...stopSequences];
  if (request.candidateCount !== undefined) config.candidateCount = request.candidateCount.value;
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty.value;
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty.value;
  if (request.seed !== undefined) config.seed = request.seed.value;
  if (request.logprobs !== undefined) config.responseLogprobs = request.logprobs.value;
  if (request.topLogprobs !== undefined) config.logprobs = request.topLogprobs.value;
  encodeResponseFormat(request.responseFormat, losses, config);
  if (thinkingConfig !== undefined) config.thinkingConfig = thinkingConfig;
  for (const _ in config) return config;
  return undefined;
}
