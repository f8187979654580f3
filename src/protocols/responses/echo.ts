/**
 * The configuration a response echoes from the request it answers (`instructions`, `tools`,
 * `temperature`, `store` …): the service writes every one of them, the request's value or its own
 * default, and strict clients (the OpenAPI description, Open Responses) require them. A translated
 * answer takes them from `options.request`, the client's own request, else from the defaults.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
import type { Raw } from "./fields";

const isObject = (value: unknown): value is Raw =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A field of the request when it has the expected type, else `fallback`. */
function field<T>(
  request: Raw,
  key: string,
  is: (value: unknown) => value is T,
  fallback: T | null,
): T | null {
  const value = request[key];
  return is(value) ? value : fallback;
}

const isString = (value: unknown): value is string => typeof value === "string";
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";
const isInstructions = (value: unknown): value is string | unknown[] =>
  typeof value === "string" || Array.isArray(value);

/**
 * A tool as the service echoes it: a function tool gets the fields it always writes (`description`
 * and `parameters` null when not given, `strict` true — the responses default); other kinds as given.
 */
function echoedTool(tool: unknown): unknown {
  if (!isObject(tool) || tool.type !== "function") return tool;
  const echoed: Raw = { ...tool };
  if (echoed.description === undefined) echoed.description = null;
  if (echoed.parameters === undefined) echoed.parameters = null;
  if (echoed.strict === undefined || echoed.strict === null) echoed.strict = true;
  return echoed;
}

/** The reasoning configuration as echoed: `effort` and `summary` always written (null: not set). */
function echoedReasoning(reasoning: unknown): Raw {
  const given = isObject(reasoning) ? reasoning : {};
  return { ...given, effort: given.effort ?? null, summary: given.summary ?? null };
}

/** The text configuration as echoed: a `format` (plain text by default) and a `verbosity` (medium). */
function echoedText(text: unknown): Raw {
  const given = isObject(text) ? text : {};
  return {
    ...given,
    format: isObject(given.format) ? given.format : { type: "text" },
    verbosity: given.verbosity ?? "medium",
  };
}

/**
 * The tier a response reports: the one the request asked for, or `default` (what the service runs a
 * request on that asks for none, or for `auto`).
 */
function echoedTier(tier: unknown): string {
  return typeof tier === "string" && tier !== "auto" ? tier : "default";
}

/**
 * The echoed configuration of a response to `request` (the client's responses request; anything else
 * counts as one that sets nothing), in the service's order, split around `model` and `output`.
 *
 * @example
 * echoOf({ model: "m", input: "Hi", temperature: 0.2 }).after.temperature; // => 0.2
 * echoOf(undefined).after.tool_choice;                                     // => "auto"
 */
export function echoOf(request: unknown): { before: Raw; after: Raw } {
  const given = isObject(request) ? request : {};
  const tools = Array.isArray(given.tools) ? given.tools.map(echoedTool) : [];
  const before: Raw = {
    background: field(given, "background", isBoolean, false),
    instructions: field(given, "instructions", isInstructions, null),
    max_output_tokens: field(given, "max_output_tokens", isNumber, null),
    max_tool_calls: field(given, "max_tool_calls", isNumber, null),
  };
  const after: Raw = {
    parallel_tool_calls: field(given, "parallel_tool_calls", isBoolean, true),
    previous_response_id: field(given, "previous_response_id", isString, null),
    prompt_cache_key: field(given, "prompt_cache_key", isString, null),
    prompt_cache_retention: field(given, "prompt_cache_retention", isString, null),
    reasoning: echoedReasoning(given.reasoning),
    safety_identifier: field(given, "safety_identifier", isString, null),
    service_tier: echoedTier(given.service_tier),
    store: field(given, "store", isBoolean, true),
    temperature: field(given, "temperature", isNumber, 1),
    top_p: field(given, "top_p", isNumber, 1),
    presence_penalty: field(given, "presence_penalty", isNumber, 0),
    frequency_penalty: field(given, "frequency_penalty", isNumber, 0),
    text: echoedText(given.text),
    tool_choice: given.tool_choice === undefined || given.tool_choice === null ? "auto" : given.tool_choice,
    tools,
    top_logprobs: field(given, "top_logprobs", isNumber, 0),
    truncation: field(given, "truncation", isString, "disabled"),
    metadata: isObject(given.metadata) ? given.metadata : {},
  };
  // The deprecated `user`: the description's is a string, so it is written only when the request set it.
  if (typeof given.user === "string") after.user = given.user;
  if (isObject(given.prompt)) after.prompt = given.prompt;
  // The service names the conversation a response was added to: the request's, by id or as given.
  if (typeof given.conversation === "string") after.conversation = { id: given.conversation };
  else if (isObject(given.conversation)) after.conversation = given.conversation;
  return { before, after };
}
