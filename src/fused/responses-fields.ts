/**
 * The top level of a responses request as the fused paths from responses take it (src/fused/
 * responses-*.ts): the fields the hub maps without a loss of their own — `model`, `instructions`,
 * `input`, the sampling fields, `stream` and function `tools` — each given (not `null`) with the type
 * the hub reads. Any other field (unknown ones included, which the hub reports, and `store`,
 * `previous_response_id`, `text`, `reasoning` …), and a request with `options.history`, is the hub's.
 */
import { isObject } from "../common/json";
import type { ResolvedOptions } from "../common/options";
import { isNumber } from "./number";

/** The fields of a plain responses request, typed; what each target does with them is its path's. */
export type ResponsesFields = {
  readonly model: string;
  readonly instructions: string | undefined;
  /** A string (one user turn) or the input items, not yet read. */
  readonly input: string | readonly unknown[];
  readonly temperature: number | undefined;
  readonly topP: number | undefined;
  readonly maxTokens: number | undefined;
  readonly stream: boolean;
  readonly tools: readonly unknown[] | undefined;
  readonly toolChoice: unknown;
  readonly parallelToolCalls: boolean | undefined;
};

/** The plain top level of `body`, or `undefined` for the hub. Never throws. */
export function responsesFields(body: unknown, options: ResolvedOptions): ResponsesFields | undefined {
  if (!isObject(body) || options.history !== undefined) return undefined;
  let model: unknown;
  let instructions: unknown;
  let input: unknown;
  let temperature: unknown;
  let topP: unknown;
  let maxTokens: unknown;
  let stream: unknown;
  let tools: unknown;
  let toolChoice: unknown;
  let parallel: unknown;
  for (const key in body) {
    const value = body[key];
    if (value === null || value === undefined) return undefined;
    switch (key) {
      case "model":
        model = value;
        break;
      case "instructions":
        instructions = value;
        break;
      case "input":
        input = value;
        break;
      case "temperature":
        temperature = value;
        break;
      case "top_p":
        topP = value;
        break;
      case "max_output_tokens":
        maxTokens = value;
        break;
      case "stream":
        stream = value;
        break;
      case "tools":
        tools = value;
        break;
      case "tool_choice":
        toolChoice = value;
        break;
      case "parallel_tool_calls":
        parallel = value;
        break;
      default:
        return undefined;
    }
  }
  if (typeof model !== "string") return undefined;
  if (instructions !== undefined && typeof instructions !== "string") return undefined;
  if (typeof input !== "string" && !Array.isArray(input)) return undefined;
  if (temperature !== undefined && !isNumber(temperature)) return undefined;
  if (topP !== undefined && !isNumber(topP)) return undefined;
  if (maxTokens !== undefined && !isNumber(maxTokens)) return undefined;
  if (stream !== undefined && typeof stream !== "boolean") return undefined;
  if (tools !== undefined && !Array.isArray(tools)) return undefined;
  if (parallel !== undefined && typeof parallel !== "boolean") return undefined;
  return {
    model,
    instructions,
    input,
    temperature,
    topP,
    maxTokens,
    stream: stream === true,
    tools,
    toolChoice,
    parallelToolCalls: parallel,
  };
}

/** Whether every own key of `node` is one of `known` (the caller checks the ones it needs). */
export function onlyKeys(node: Record<string, unknown>, known: readonly string[]): boolean {
  for (const key in node) {
    let found = false;
    for (let index = 0; index < known.length; index++)
      if (known[index] === key) {
        found = true;
        break;
      }
    if (!found) return false;
  }
  return true;
}
