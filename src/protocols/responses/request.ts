/**
 * responses request ↔ common request. The decoder keeps everything the common model can hold and
 * reports the rest; the encoder reports everything the responses protocol cannot carry. The library
 * is stateless: a request that continues a stored response (`previous_response_id`, `conversation`)
 * decodes only with the earlier items in `options.history`.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */

import { effortForBudget } from "../../common/effort";
import { invalidInput, TranslationError } from "../../common/errors";
import { isKnown, type Keys } from "../../common/json";
import { type Loss, loss, type Translated } from "../../common/loss";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import { at } from "../../common/pointer";
import { fitRequestToolIds } from "../../common/tool-id";
import { answerToolCalls } from "../../common/tool-pairing";
import { isBlank } from "./fields";
import { decodeItems, type Entry } from "./items-decode";
import { encodeItems } from "./items-encode";
import { inputItem, type Request, type TextFormat } from "./schema";
import { TOOL_IDS } from "./tool-id";
import { decodeToolChoice, decodeTools, encodeTools } from "./tools";

/** Fields the decoder reads (or reports itself); any other non-blank field is reported as dropped. */
const MAPPED: Keys = [
  "model",
  "input",
  "instructions",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "max_output_tokens",
  "reasoning",
  "text",
  "temperature",
  "top_p",
  "top_logprobs",
  "include",
  "stream",
  "user",
  "safety_identifier",
  "service_tier",
  "prompt_cache_key",
  "prompt_cache_options",
  "moderation",
  "previous_response_id",
  "conversation",
  "store",
  "truncation",
  "background",
];

/** The smallest `max_output_tokens` the API accepts. */
export const MIN_OUTPUT_TOKENS = 16;

const LOGPROBS = "message.output_text.logprobs";
/** What a response must include for its reasoning to be replayed without a stored response. */
const ENCRYPTED_REASONING = "reasoning.encrypted_content";

export function responsesRequestInfo(
  body: Request,
  options: ResolvedOptions,
): { model: string; stream: boolean } {
  return { model: body.model ?? options.model ?? "", stream: body.stream === true };
}

function given<T>(value: T | null | undefined, source: string): common.Given<T> | undefined {
  return value === undefined || value === null ? undefined : { value, source };
}

/** The entries of `options.history`, checked as input items (a 400 names the bad one). */
function historyEntries(history: readonly unknown[], options: ResolvedOptions): Entry[] {
  return history.map((item, index) => {
    if (options.validate) {
      const result = inputItem.safeParse(item);
      if (!result.success)
        throw invalidInput(
          "options.history",
          result.error.issues.map((issue) => ({ ...issue, path: ["history", index, ...issue.path] })),
        );
    }
    return { item: item as Entry["item"], source: `/history/${index}` };
  });
}

/**
 * `options.history` as entries, and whether they go before `input`: they do when the request continues
 * a stored response; without a history such a request is refused. `item_reference`s are looked up in
 * the history either way.
 */
function earlierItems(body: Request, options: ResolvedOptions): { history: Entry[]; before: boolean } {
  const previous = body.previous_response_id;
  const conversation = body.conversation;
  const field =
    typeof previous === "string" ? "previous_response_id" : conversation != null ? "conversation" : undefined;
  const history = options.history === undefined ? [] : historyEntries(options.history, options);
  if (field === undefined) return { history, before: false };
  if (options.history !== undefined) return { history, before: true };
  const named =
    field === "previous_response_id" ? `previous_response_id ${JSON.stringify(previous)}` : "a conversation";
  throw new TranslationError(
    `The responses request continues ${named}, whose items only the responses service holds: pass them as options.history (responses.historyOf gives what to store), or send the request to a responses upstream.`,
    {
      status: 400,
      issues: [{ code: "history_required", path: [field], message: `${field} needs options.history` }],
    },
  );
}

function decodeFormat(format: TextFormat | undefined): common.ResponseFormat | undefined {
  if (format === undefined) return undefined;
  const source = "/text/format";
  const raw = format as Record<string, unknown>;
  switch (format.type) {
    case "text":
      return { type: "text", source };
    case "json_object":
      return { type: "json", source };
    case "json_schema": {
      const decoded: common.Draft<Extract<common.ResponseFormat, { type: "json-schema" }>> = {
        type: "json-schema",
        schema: raw.schema as common.JsonSchema,
        schemaSource: at(source, "schema"),
        name: raw.name as string,
        source,
      };
      if (typeof raw.description === "string") decoded.description = raw.description;
      if (typeof raw.strict === "boolean") decoded.strict = raw.strict;
      return decoded;
    }
    default:
      return undefined;
  }
}

/** `reasoning {effort, summary}` → common; a summary level beyond "auto" is approximated. */
function decodeReasoning(body: Request, losses: Loss[]): common.ReasoningConfig | undefined {
  const reasoning = body.reasoning;
  if (reasoning == null) return undefined;
  const source = "/reasoning";
  const config: common.Draft<common.ReasoningConfig> = { source };
  if (typeof reasoning.effort === "string") {
    config.effort = reasoning.effort;
    config.source = at(source, "effort");
  }
  const summaryKey =
    reasoning.summary != null
      ? "summary"
      : reasoning.generate_summary != null
        ? "generate_summary"
        : undefined;
  const summary = summaryKey === undefined ? undefined : reasoning[summaryKey];
  if (typeof summary === "string") {
    config.includeThoughts = true;
    config.includeSource = at(source, summaryKey as string);
    if (summary !== "auto")
      losses.push(
        loss(
          at(source, summaryKey as string),
          "approximated",
          `The "${summary}" summary level has no common equivalent; the target is only asked to include its thinking.`,
        ),
      );
  }
  for (const key of Object.keys(reasoning)) {
    if (key === "effort" || key === "summary" || key === "generate_summary") continue;
    if (isBlank((reasoning as Record<string, unknown>)[key])) continue;
    losses.push(
      loss(at(source, key), "dropped", `\`reasoning.${key}\` has no common equivalent and was dropped.`),
    );
  }
  return config.effort === undefined && config.includeThoughts === undefined ? undefined : config;
}

/** Reports each present field the decoder does not map, with its own reason. */
function reportUnmapped(body: Request, losses: Loss[]): void {
  for (const key in body) {
    if (isKnown(MAPPED, key) || !Object.hasOwn(body, key)) continue;
    const value = (body as Record<string, unknown>)[key];
    if (isBlank(value)) continue;
    losses.push(loss(at("", key), "dropped", `\`${key}\` has no common equivalent and was dropped.`));
  }
  if (body.store === true)
    losses.push(
      loss(
        "/store",
        "dropped",
        "Another protocol's upstream does not store the response for later requests.",
      ),
    );
  if (body.background === true)
    losses.push(
      loss(
        "/background",
        "dropped",
        "Background mode has no equivalent in the target; the request runs in the foreground.",
      ),
    );
  if (body.truncation != null && body.truncation !== "disabled")
    losses.push(
      loss(
        "/truncation",
        "dropped",
        `Truncation "${body.truncation}" has no equivalent in the target and was dropped.`,
      ),
    );
  const text = body.text;
  if (text !== undefined)
    for (const key of Object.keys(text))
      if (key !== "format" && key !== "verbosity" && !isBlank((text as Record<string, unknown>)[key]))
        losses.push(
          loss(at("/text", key), "dropped", `\`text.${key}\` has no common equivalent and was dropped.`),
        );
  if (typeof body.user === "string" && typeof body.safety_identifier === "string")
    losses.push(
      loss(
        "/safety_identifier",
        "dropped",
        "`safety_identifier` was dropped: `user` already names the end user.",
      ),
    );
  body.include?.forEach((entry, index) => {
    // Encrypted reasoning always comes to a responses client (its carrier: carrier.ts).
    if (entry !== LOGPROBS && entry !== ENCRYPTED_REASONING)
      losses.push(
        loss(
          at("/include", index),
          "dropped",
          `Including \`${entry}\` has no equivalent in the target and was dropped.`,
        ),
      );
  });
}

/** The request's tools and, after them, those its input adds that have other names. */
function added(tools: common.Tool[], more: readonly common.Tool[]): common.Tool[] {
  if (more.length === 0) return tools;
  const names = new Set(
    tools.map((tool) => (tool.type === "function" ? `${tool.namespace?.name}/${tool.name}` : "")),
  );
  for (const tool of more)
    if (tool.type !== "function" || !names.has(`${tool.namespace?.name}/${tool.name}`)) tools.push(tool);
  return tools;
}

/** responses request → common request. */
export function decodeResponsesRequest(body: Request, options: ResolvedOptions): Translated<common.Request> {
  const losses: Loss[] = [];
  reportUnmapped(body, losses);
  const { history, before } = earlierItems(body, options);
  const input = body.input;
  const entries: Entry[] = before ? [...history] : [];
  if (Array.isArray(input))
    input.forEach((item, index) => {
      entries.push({ item, source: `/input/${index}` });
    });
  const { system, messages, tools } = decodeItems(body.instructions, entries, history, losses);
  if (typeof input === "string")
    messages.push({
      role: "user",
      parts: [{ type: "text", text: input, source: "/input" }],
      source: "/input",
    });
  const request: common.Draft<common.Request> = {
    model: body.model ?? options.model ?? "",
    stream: body.stream === true,
    system,
    messages,
    tools: added(decodeTools(body.tools, losses), tools),
  };
  const toolChoice = decodeToolChoice(body.tool_choice, losses);
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  const parallel = given(body.parallel_tool_calls, "/parallel_tool_calls");
  if (parallel !== undefined) request.parallelToolCalls = parallel;
  const maxTokens = given(body.max_output_tokens, "/max_output_tokens");
  if (maxTokens !== undefined) request.maxTokens = maxTokens;
  const temperature = given(body.temperature, "/temperature");
  if (temperature !== undefined) request.temperature = temperature;
  const topP = given(body.top_p, "/top_p");
  if (topP !== undefined) request.topP = topP;
  const format = decodeFormat(body.text?.format);
  if (format !== undefined) request.responseFormat = format;
  const reasoning = decodeReasoning(body, losses);
  if (reasoning !== undefined) request.reasoning = reasoning;
  const user = given(body.user, "/user") ?? given(body.safety_identifier, "/safety_identifier");
  if (user !== undefined) request.user = user;
  const cacheKey = given(body.prompt_cache_key, "/prompt_cache_key");
  if (cacheKey !== undefined) request.promptCacheKey = cacheKey;
  const cacheOptions = body.prompt_cache_options;
  if (cacheOptions !== undefined && cacheOptions !== null)
    request.promptCacheOptions = {
      value: {
        ...(typeof cacheOptions.mode === "string" ? { mode: cacheOptions.mode } : {}),
        ...(typeof cacheOptions.ttl === "string" ? { ttl: cacheOptions.ttl } : {}),
      },
      source: "/prompt_cache_options",
    };
  const moderation = given(body.moderation, "/moderation");
  if (moderation !== undefined) request.moderation = moderation;
  const verbosity = given(body.text?.verbosity, "/text/verbosity");
  if (verbosity !== undefined) request.verbosity = verbosity;
  const tier = given(body.service_tier, "/service_tier");
  if (tier !== undefined) request.serviceTier = tier;
  const logprobs = body.include?.indexOf(LOGPROBS) ?? -1;
  if (logprobs !== -1) request.logprobs = { value: true, source: at("/include", logprobs) };
  const topLogprobs = given(body.top_logprobs, "/top_logprobs");
  if (topLogprobs !== undefined) request.topLogprobs = topLogprobs;
  return { value: request, losses };
}

function clampRange(
  value: common.Given<number> | undefined,
  min: number,
  max: number,
  name: string,
  losses: Loss[],
): number | undefined {
  if (value === undefined) return undefined;
  if (value.value >= min && value.value <= max) return value.value;
  const clamped = Math.min(max, Math.max(min, value.value));
  losses.push(
    loss(
      value.source,
      "clamped",
      `responses \`${name}\` must be within ${min}–${max}; ${value.value} was clamped to ${clamped}.`,
    ),
  );
  return clamped;
}

function encodeReasoning(
  reasoning: common.ReasoningConfig | undefined,
  losses: Loss[],
): Request["reasoning"] {
  if (reasoning === undefined) return undefined;
  if (reasoning.enabled === false) {
    losses.push(
      loss(
        reasoning.source,
        "dropped",
        "responses models choose how much to reason; the switch that turned thinking off was dropped (the lowest effort a model takes is model-specific).",
      ),
    );
    return undefined;
  }
  const out: NonNullable<Request["reasoning"]> = {};
  if (reasoning.effort !== undefined) {
    out.effort = reasoning.effort.toLowerCase();
    if (reasoning.budgetTokens !== undefined)
      losses.push(
        loss(
          reasoning.budgetSource ?? reasoning.source,
          "dropped",
          "responses takes a reasoning effort, not a token budget; the budget was dropped.",
        ),
      );
  } else if (reasoning.budgetTokens !== undefined) {
    out.effort = effortForBudget(reasoning.budgetTokens);
    losses.push(
      loss(
        reasoning.budgetSource ?? reasoning.source,
        "approximated",
        `responses has no thinking budget; ${reasoning.budgetTokens} tokens became the effort "${out.effort}".`,
      ),
    );
  }
  if (reasoning.includeThoughts === true) out.summary = "auto";
  return isBlank(out) ? undefined : out;
}

function encodeFormat(format: common.ResponseFormat | undefined, losses: Loss[]): TextFormat | undefined {
  if (format === undefined) return undefined;
  switch (format.type) {
    case "text":
      return { type: "text" };
    case "json":
      return { type: "json_object" };
    case "json-schema": {
      if (format.name === undefined)
        losses.push(
          loss(
            at(format.source, "name"),
            "synthesized",
            'responses requires a schema name; "response" was used.',
          ),
        );
      const out: Record<string, unknown> = { type: "json_schema", name: format.name ?? "response" };
      if (format.description !== undefined) out.description = format.description;
      out.schema = { ...format.schema };
      if (format.strict !== undefined) out.strict = format.strict;
      return out as TextFormat;
    }
  }
}

const dropped = (losses: Loss[], given: { source: string } | undefined, message: string): void => {
  if (given !== undefined) losses.push(loss(given.source, "dropped", message));
};

/** Thinking asked to be off: the effort "none", or disabled. */
const thinkingOff = (reasoning: common.ReasoningConfig | undefined): boolean =>
  reasoning !== undefined &&
  (reasoning.enabled === false || reasoning.effort === "none" || reasoning.budgetTokens === 0);

/**
 * Common request → responses request. Function tools say `strict` explicitly, `max_output_tokens` is
 * at least 16, every tool call must have its output (the service answers 400 otherwise), and the
 * encrypted reasoning is asked for unless thinking is off.
 */
export function encodeResponsesRequest(
  original: common.Request,
  options: ResolvedOptions,
): Translated<Request> {
  const losses: Loss[] = [];
  const request = fitRequestToolIds(answerToolCalls(original, "responses", losses), TOOL_IDS, losses);
  const { instructions, input } = encodeItems(request, options, losses);
  const { tools, tool_choice } = encodeTools(request, losses);
  const value: Request = { model: request.model };
  if (instructions !== undefined) value.instructions = instructions;
  value.input = input;
  if (request.stream) value.stream = true;
  if (request.maxTokens !== undefined) {
    const max = request.maxTokens.value;
    if (max < MIN_OUTPUT_TOKENS)
      losses.push(
        loss(
          request.maxTokens.source,
          "clamped",
          `responses needs max_output_tokens of at least ${MIN_OUTPUT_TOKENS}; ${max} was raised to ${MIN_OUTPUT_TOKENS}.`,
        ),
      );
    value.max_output_tokens = Math.max(MIN_OUTPUT_TOKENS, max);
  }
  const temperature = clampRange(request.temperature, 0, 2, "temperature", losses);
  if (temperature !== undefined) value.temperature = temperature;
  const topP = clampRange(request.topP, 0, 1, "top_p", losses);
  if (topP !== undefined) value.top_p = topP;
  dropped(losses, request.topK, "responses has no `top_k`; it was dropped.");
  dropped(losses, request.presencePenalty, "responses has no presence penalty; it was dropped.");
  dropped(losses, request.frequencyPenalty, "responses has no frequency penalty; it was dropped.");
  dropped(losses, request.seed, "responses has no `seed`; it was dropped.");
  dropped(
    losses,
    request.candidateCount,
    "responses returns one answer per request; the candidate count was dropped.",
  );
  // An empty list stops on nothing: nothing is dropped.
  if (request.stop !== undefined && request.stop.value.length > 0)
    dropped(losses, request.stop, "responses has no stop sequences; they were dropped.");
  if (tools !== undefined) value.tools = tools;
  if (tool_choice !== undefined) value.tool_choice = tool_choice;
  if (request.parallelToolCalls !== undefined) value.parallel_tool_calls = request.parallelToolCalls.value;
  const reasoning = encodeReasoning(request.reasoning, losses);
  if (reasoning !== undefined) value.reasoning = reasoning;
  const format = encodeFormat(request.responseFormat, losses);
  if (format !== undefined || request.verbosity !== undefined) {
    const text: NonNullable<Request["text"]> = {};
    if (format !== undefined) text.format = format;
    if (request.verbosity !== undefined) text.verbosity = request.verbosity.value;
    value.text = text;
  }
  const include: string[] = [];
  if (request.logprobs !== undefined) {
    if (request.logprobs.value) include.push(LOGPROBS);
    else
      dropped(
        losses,
        request.logprobs,
        "responses has no logprobs switch: leaving logprobs out of `include` is the same.",
      );
  }
  // The reasoning state, so that it can ride through the client and come home next turn (carrier.ts):
  // a client of another protocol cannot name a stored response, so the state must travel with it.
  if (!thinkingOff(request.reasoning)) include.push(ENCRYPTED_REASONING);
  if (include.length > 0) value.include = include;
  const topLogprobs = clampRange(request.topLogprobs, 0, 20, "top_logprobs", losses);
  if (topLogprobs !== undefined) value.top_logprobs = topLogprobs;
  if (request.user !== undefined) value.user = request.user.value;
  if (request.serviceTier !== undefined) value.service_tier = request.serviceTier.value;
  if (request.promptCacheKey !== undefined) value.prompt_cache_key = request.promptCacheKey.value;
  if (request.promptCacheOptions !== undefined)
    value.prompt_cache_options = { ...request.promptCacheOptions.value };
  if (request.moderation !== undefined)
    value.moderation = request.moderation.value as NonNullable<Request["moderation"]>;
  const usage = request.includeUsage;
  if (usage !== undefined && !(usage.value && request.stream))
    dropped(losses, usage, "responses streams always report usage; the switch was dropped.");
  return { value, losses };
}
