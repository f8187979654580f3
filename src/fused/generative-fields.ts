/**
 * The top level of a plain generative request, read once for every fused path from generative: the
 * `contents`, the `systemInstruction` and the sampling fields of `generationConfig`, given as finite
 * numbers (stop sequences as strings; `responseModalities: ["TEXT"]`, which says nothing), and — for a path that takes them — the `tools` and `toolConfig`
 * as given. Anything else — another field, a `null`, another config field or type — is `undefined`,
 * and the path hands the body to the hub.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { fromGenerativeSchema } from "../protocols/generative/adapter";
import { isNumber } from "./number";
import { onlyKeys } from "./responses-fields";

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

const TOOL_KEYS = ["functionDeclarations"];
const DECLARATION_KEYS = ["name", "description", "parameters", "parametersJsonSchema"];
const TOOL_CONFIG_KEYS = ["functionCallingConfig"];
const CALLING_KEYS = ["mode", "allowedFunctionNames"];

/** A function declaration as the hub's decoder reads it: its JSON Schema, and where it was. */
export type DeclaredFunction = {
  readonly name: string;
  readonly description: string | undefined;
  /** `parametersJsonSchema` as given, or `parameters` converted back to JSON Schema; none without either. */
  readonly schema: Record<string, unknown> | undefined;
  /** Its entry of `tools` and its index in that entry's `functionDeclarations`. */
  readonly tool: number;
  readonly at: number;
};

/**
 * `tools` of function declarations only, as the hub's decoder reads them (src/protocols/generative/tools.ts),
 * or `undefined` for the hub: another tool (a provider tool), another declaration field, both schemas.
 */
export function readDeclarations(tools: unknown): DeclaredFunction[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const out: DeclaredFunction[] = [];
  for (let index = 0; index < tools.length; index++) {
    const tool: unknown = tools[index];
    if (!isObject(tool) || !onlyKeys(tool, TOOL_KEYS)) return undefined;
    const declarations = tool.functionDeclarations;
    if (declarations === undefined) continue;
    if (!Array.isArray(declarations)) return undefined;
    for (let at = 0; at < declarations.length; at++) {
      const declaration: unknown = declarations[at];
      if (!isObject(declaration) || !onlyKeys(declaration, DECLARATION_KEYS)) return undefined;
      const { name, description, parameters, parametersJsonSchema } = declaration;
      if (typeof name !== "string") return undefined;
      if (description !== undefined && typeof description !== "string") return undefined;
      let schema: Record<string, unknown> | undefined;
      if (parametersJsonSchema !== undefined) {
        if (!isObject(parametersJsonSchema) || parameters !== undefined) return undefined;
        schema = parametersJsonSchema;
      } else if (parameters !== undefined) {
        if (!isObject(parameters)) return undefined;
        schema = fromGenerativeSchema(parameters);
      }
      out.push({ name, description, schema, tool: index, at });
    }
  }
  return out;
}

/** A calling mode as the hub's decoder reads it: the common tool choice it makes. */
export type CallingChoice =
  | { readonly type: "auto" | "none" | "required" }
  | { readonly type: "tool"; readonly name: string }
  | { readonly type: "allowed"; readonly names: readonly string[]; readonly mode: "auto" | "required" };

/**
 * `toolConfig` as the hub's decoder reads it (src/protocols/generative/tools.ts): the choice, `null` for
 * none (no `functionCallingConfig`), or `undefined` for the hub (another field or mode).
 */
export function readToolConfig(config: unknown): CallingChoice | null | undefined {
  if (!isObject(config) || !onlyKeys(config, TOOL_CONFIG_KEYS)) return undefined;
  const calling = config.functionCallingConfig;
  if (calling === undefined) return null;
  if (!isObject(calling) || !onlyKeys(calling, CALLING_KEYS)) return undefined;
  const { mode, allowedFunctionNames: names } = calling;
  if (mode !== undefined && typeof mode !== "string") return undefined;
  if (names !== undefined) {
    if (!Array.isArray(names)) return undefined;
    for (const name of names) if (typeof name !== "string") return undefined;
  }
  const list = names as string[] | undefined;
  switch ((mode ?? "AUTO").toUpperCase()) {
    case "NONE":
      return { type: "none" };
    case "ANY":
      if (list === undefined || list.length === 0) return { type: "required" };
      if (list.length === 1) return { type: "tool", name: list[0] as string };
      return { type: "allowed", names: list, mode: "required" };
    case "AUTO":
    case "MODE_UNSPECIFIED":
      return list === undefined || list.length === 0
        ? { type: "auto" }
        : { type: "allowed", names: list, mode: "auto" };
    default:
      return undefined;
  }
}

/** A call of a model turn, as the hub's decoder names it: a response without an id answers it by name. */
export type NamedCall = { readonly id: string; readonly name: string; answered: boolean };

const RESPONSE_PART_KEYS = ["functionResponse"];
const RESPONSE_KEYS = ["id", "name", "response"];

/**
 * A plain `functionResponse` part: its call's id — given, or that of the first call in `named` of its
 * name not answered yet (marked answered), as the hub's decoder pairs them — and its response object;
 * `undefined` for the hub.
 */
export function readFunctionResponse(
  part: Record<string, unknown>,
  named: readonly NamedCall[],
): { readonly id: string; readonly response: Record<string, unknown> } | undefined {
  const response = part.functionResponse;
  if (!isObject(response) || !onlyKeys(part, RESPONSE_PART_KEYS) || !onlyKeys(response, RESPONSE_KEYS))
    return undefined;
  const name = response.name;
  const given = response.id;
  const value = response.response;
  if (typeof name !== "string" || !isObject(value)) return undefined;
  if (given !== undefined && typeof given !== "string") return undefined;
  if (given !== undefined) return { id: given, response: value };
  // A response without an id answers the first unanswered call of its name (the hub's decoder).
  for (const call of named)
    if (!call.answered && call.name === name) {
      call.answered = true;
      return { id: call.id, response: value };
    }
  return undefined;
}

const CALL_PART_KEYS = ["functionCall"];
const CALL_KEYS = ["id", "name", "args"];

/** A plain `functionCall` part: its name, arguments and the id it was given; `undefined` for the hub. */
export function readFunctionCall(part: Record<string, unknown>):
  | {
      readonly name: string;
      readonly args: Record<string, unknown> | undefined;
      readonly id: string | undefined;
    }
  | undefined {
  if (!onlyKeys(part, CALL_PART_KEYS)) return undefined;
  const call = part.functionCall;
  if (!isObject(call) || !onlyKeys(call, CALL_KEYS)) return undefined;
  const { name, args, id } = call;
  if (typeof name !== "string" || (args !== undefined && !isObject(args))) return undefined;
  if (id !== undefined && typeof id !== "string") return undefined;
  return { name, args, id };
}

/**
 * The id the hub's decoder derives for the call at `position` of a turn whose calls have no id
 * (`head`: the turn's synthetic id), with its loss at `source` in `derived`.
 */
export function derivedCallId(head: string, position: number, source: string, derived: Loss[]): string {
  const id = `${head}_${position}`;
  derived.push(
    loss(source, "synthesized", `The function call has no id; "${id}" was derived from the input.`),
  );
  return id;
}
