/**
 * Chat request ↔ common request. The decoder keeps everything the common model can hold and reports
 * the rest as `dropped`; the encoder reports everything chat cannot carry.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */

import { effortForBudget } from "../../common/effort";
import { type Keys, unknownKeys } from "../../common/json";
import { type Loss, loss, type Translated } from "../../common/loss";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import { at } from "../../common/pointer";
import { keepStopSequences } from "../../common/stop";
import { answerToolCalls } from "../../common/tool-pairing";
import { DIALECTS, type Dialect } from "./dialect";
import { decodeMessages } from "./messages-decode";
import { encodeMessages } from "./messages-encode";
import type * as chat from "./schema";
import { decodeToolChoice, decodeTools, encodeTools } from "./tools";

/** Fields the decoder reads; any other field of the request is reported as dropped. */
const MAPPED: Keys = [
  "model",
  "messages",
  "stream",
  "stream_options",
  "temperature",
  "top_p",
  "top_k",
  "max_tokens",
  "max_completion_tokens",
  "n",
  "seed",
  "stop",
  "presence_penalty",
  "frequency_penalty",
  "logprobs",
  "top_logprobs",
  "user",
  "service_tier",
  "prompt_cache_key",
  "prompt_cache_options",
  "moderation",
  "verbosity",
  "reasoning_effort",
  "parallel_tool_calls",
  "tools",
  "tool_choice",
  "response_format",
  "functions",
  "function_call",
  "reasoning",
  "thinking",
  "enable_thinking",
  "thinking_budget",
  "chat_template_kwargs",
];

function given<T>(value: T | null | undefined, source: string): common.Given<T> | undefined {
  return value === undefined || value === null ? undefined : { value, source };
}

function decodeResponseFormat(format: chat.ResponseFormat | undefined): common.ResponseFormat | undefined {
  const source = "/response_format";
  if (format === undefined) return undefined;
  switch (format.type) {
    case "text":
      return { type: "text", source };
    case "json_object":
      return { type: "json", source };
    case "json_schema": {
      const spec = format.json_schema;
      const specSource = `${source}/json_schema`;
      return {
        type: "json-schema",
        schema: spec.schema ?? {},
        schemaSource: `${specSource}/schema`,
        name: spec.name,
        ...(spec.description === undefined ? {} : { description: spec.description }),
        ...(spec.strict === undefined || spec.strict === null ? {} : { strict: spec.strict }),
        source: specSource,
      };
    }
  }
}

/** Chat request → common request. */
export function decodeChatRequest(body: chat.Request, _options: ResolvedOptions): Translated<common.Request> {
  const losses: Loss[] = [];
  for (const key of unknownKeys(body, MAPPED)) {
    const value = (body as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    losses.push(loss(at("", key), "dropped", `\`${key}\` has no common equivalent and was dropped.`));
  }
  const { system, messages } = decodeMessages(body.messages, losses);
  const maxCompletion = given(body.max_completion_tokens, "/max_completion_tokens");
  const maxTokens = given(body.max_tokens, "/max_tokens");
  if (maxCompletion !== undefined && maxTokens !== undefined) {
    losses.push(
      loss("/max_tokens", "dropped", "`max_tokens` was ignored because `max_completion_tokens` is also set."),
    );
  }
  if (body.stream_options?.include_obfuscation !== undefined) {
    losses.push(
      loss(
        "/stream_options/include_obfuscation",
        "dropped",
        "`include_obfuscation` has no common equivalent and was dropped.",
      ),
    );
  }
  const stop = body.stop;
  const toolChoice = decodeToolChoice(body, losses);
  const responseFormat = decodeResponseFormat(body.response_format);
  // Assigned field by field (in the order the fields always had): a conditional spread of a
  // computed-key object costs a runtime copy and a fresh hidden class each.
  const model = body.model;
  const stream = body.stream === true;
  const tools = decodeTools(body);
  const request: common.Draft<common.Request> =
    body.stream === undefined || body.stream === null
      ? { model, stream, system, messages, tools }
      : { model, stream, streamGiven: true, system, messages, tools };
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  const parallel = given(body.parallel_tool_calls, "/parallel_tool_calls");
  if (parallel !== undefined) request.parallelToolCalls = parallel;
  const max = maxCompletion ?? maxTokens;
  if (max !== undefined) request.maxTokens = max;
  const temperature = given(body.temperature, "/temperature");
  if (temperature !== undefined) request.temperature = temperature;
  const topP = given(body.top_p, "/top_p");
  if (topP !== undefined) request.topP = topP;
  const topK = given(body.top_k, "/top_k");
  if (topK !== undefined) request.topK = topK;
  const presence = given(body.presence_penalty, "/presence_penalty");
  if (presence !== undefined) request.presencePenalty = presence;
  const frequency = given(body.frequency_penalty, "/frequency_penalty");
  if (frequency !== undefined) request.frequencyPenalty = frequency;
  const seed = given(body.seed, "/seed");
  if (seed !== undefined) request.seed = seed;
  const candidates = given(body.n, "/n");
  if (candidates !== undefined) request.candidateCount = candidates;
  if (stop !== undefined && stop !== null)
    request.stop =
      typeof stop === "string"
        ? { value: [stop], source: "/stop", scalar: true }
        : { value: stop, source: "/stop" };
  if (responseFormat !== undefined) request.responseFormat = responseFormat;
  const reasoning = decodeReasoning(body, losses);
  if (reasoning !== undefined) request.reasoning = reasoning;
  const user = given(body.user, "/user");
  if (user !== undefined) request.user = user;
  const tier = given(body.service_tier, "/service_tier");
  if (tier !== undefined) request.serviceTier = tier;
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
  const verbosity = given(body.verbosity, "/verbosity");
  if (verbosity !== undefined) request.verbosity = verbosity;
  const logprobs = given(body.logprobs, "/logprobs");
  if (logprobs !== undefined) request.logprobs = logprobs;
  const topLogprobs = given(body.top_logprobs, "/top_logprobs");
  if (topLogprobs !== undefined) request.topLogprobs = topLogprobs;
  const includeUsage = given(body.stream_options?.include_usage, "/stream_options/include_usage");
  if (includeUsage !== undefined) request.includeUsage = includeUsage;
  return { value: request, losses };
}

/** The fields of OpenRouter's `reasoning` the common model holds. */
const ROUTER_KEYS: Keys = ["effort", "max_tokens", "exclude", "enabled"];

/** The template switches of vLLM's `chat_template_kwargs` that turn thinking on or off. */
const TEMPLATE_SWITCHES = ["enable_thinking", "thinking"] as const;

/**
 * Every dialect's reasoning switches → one reasoning config: `reasoning_effort` (OpenAI, DeepSeek,
 * vLLM), OpenRouter `reasoning {effort, max_tokens, exclude, enabled}`, DeepSeek `thinking {type}`, Qwen
 * `enable_thinking`/`thinking_budget`, vLLM `chat_template_kwargs.enable_thinking`. The first given wins.
 */
function decodeReasoning(body: chat.Request, losses: Loss[]): common.ReasoningConfig | undefined {
  const router = body.reasoning ?? undefined;
  if (router !== undefined) {
    for (const key of unknownKeys(router, ROUTER_KEYS)) {
      losses.push(
        loss(
          at("/reasoning", key),
          "dropped",
          `\`reasoning.${key}\` has no common equivalent and was dropped.`,
        ),
      );
    }
  }
  const kwargs = body.chat_template_kwargs ?? undefined;
  if (kwargs !== undefined) {
    for (const key of Object.keys(kwargs)) {
      if (!(TEMPLATE_SWITCHES as readonly string[]).includes(key) || typeof kwargs[key] !== "boolean")
        losses.push(
          loss(
            at("/chat_template_kwargs", key),
            "dropped",
            `Chat template argument \`${key}\` has no common equivalent and was dropped.`,
          ),
        );
    }
  }
  const effort = firstGiven(
    [body.reasoning_effort, "/reasoning_effort"],
    [router?.effort, "/reasoning/effort"],
  );
  const budget = firstGiven(
    [router?.max_tokens, "/reasoning/max_tokens"],
    [body.thinking_budget, "/thinking_budget"],
    [body.thinking?.budget_tokens, "/thinking/budget_tokens"],
  );
  const thinkingType = body.thinking?.type;
  const template =
    kwargs === undefined ? undefined : TEMPLATE_SWITCHES.find((key) => typeof kwargs[key] === "boolean");
  const enabled = firstGiven(
    [router?.enabled, "/reasoning/enabled"],
    [thinkingType === "enabled" ? true : thinkingType === "disabled" ? false : undefined, "/thinking/type"],
    [body.enable_thinking, "/enable_thinking"],
    [
      template === undefined ? undefined : (kwargs?.[template] as boolean),
      `/chat_template_kwargs/${template}`,
    ],
  );
  if (thinkingType !== undefined && thinkingType !== "enabled" && thinkingType !== "disabled") {
    losses.push(
      loss(
        "/thinking/type",
        "dropped",
        `Thinking mode "${thinkingType}" has no common equivalent and was dropped.`,
      ),
    );
  }
  const exclude = router?.exclude;
  if (effort === undefined && budget === undefined && enabled === undefined && exclude !== true)
    return undefined;
  const source = effort?.source ?? budget?.source ?? enabled?.source ?? "/reasoning/exclude";
  const config: common.Draft<common.ReasoningConfig> = { source };
  if (effort !== undefined) config.effort = effort.value;
  if (budget !== undefined) {
    config.budgetTokens = budget.value;
    config.budgetSource = budget.source;
  }
  if (enabled !== undefined) config.enabled = enabled.value;
  if (exclude === true) {
    config.includeThoughts = false;
    config.includeSource = "/reasoning/exclude";
  }
  return config;
}

/** The first of the candidates whose value is given (not null or undefined), with its pointer. */
function firstGiven<T>(
  ...candidates: readonly (readonly [T | null | undefined, string])[]
): common.Given<T> | undefined {
  for (const [value, source] of candidates)
    if (value !== undefined && value !== null) return { value, source };
  return undefined;
}

const MAX_STOP = 4;

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
      `Chat \`${name}\` must be within ${min}–${max}; ${value.value} was clamped to ${clamped}.`,
    ),
  );
  return clamped;
}

/** The budget field under a reasoning source, when the decoder did not say (`/thinking` → `/thinking/budget_tokens`). */
function budgetPath(source: string): string {
  if (source.endsWith("/thinking")) return `${source}/budget_tokens`;
  if (source.endsWith("/thinkingConfig")) return `${source}/thinkingBudget`;
  return source;
}

/** The effort a reasoning config asks for: as given, or bucketed from a budget (an approximation, K2). */
function effortOf(reasoning: common.ReasoningConfig, losses: Loss[]): string | undefined {
  if (reasoning.effort !== undefined) return reasoning.effort.toLowerCase();
  if (reasoning.budgetTokens === undefined) return undefined;
  const effort = effortForBudget(reasoning.budgetTokens);
  losses.push(
    loss(
      reasoning.budgetSource ?? budgetPath(reasoning.source),
      "approximated",
      `This chat dialect has no thinking budget; ${reasoning.budgetTokens} tokens became reasoning_effort "${effort}".`,
    ),
  );
  return effort;
}

/** Thinking is asked to be off: explicitly, by the effort "none", or by a budget of 0. */
const switchedOff = (reasoning: common.ReasoningConfig): boolean =>
  reasoning.enabled === false || reasoning.effort?.toLowerCase() === "none" || reasoning.budgetTokens === 0;

type Switches = Pick<
  chat.Request,
  | "reasoning_effort"
  | "reasoning"
  | "thinking"
  | "enable_thinking"
  | "thinking_budget"
  | "chat_template_kwargs"
>;

/**
 * Asking for the model's thoughts, or to leave them out, where the dialect cannot: OpenAI's chat
 * returns no reasoning text at all, and only OpenRouter can hide it (`exclude`).
 */
function reportIncludeThoughts(reasoning: common.ReasoningConfig, dialect: Dialect, losses: Loss[]): void {
  const include = reasoning.includeThoughts;
  if (include === undefined) return;
  if (include ? dialect.switches !== "effort" : dialect.switches === "openrouter") return;
  // OpenAI's chat returns no reasoning text: leaving it out is what it does.
  if (!include && dialect === DIALECTS.openai) return;
  losses.push(
    loss(
      reasoning.includeSource ?? reasoning.source,
      "dropped",
      include
        ? "This chat dialect returns no reasoning text or summary; asking for the model's thoughts was dropped."
        : "This chat dialect cannot leave the reasoning text out; asking to hide the model's thoughts was dropped.",
      "reasoning.include.dropped",
    ),
  );
}

/** A reasoning config → the dialect's switches (dialect.ts `switches`). */
function encodeReasoning(
  reasoning: common.ReasoningConfig | undefined,
  dialect: Dialect,
  losses: Loss[],
): Switches {
  if (reasoning === undefined) return {};
  reportIncludeThoughts(reasoning, dialect, losses);
  const off = switchedOff(reasoning);
  switch (dialect.switches) {
    case "effort": {
      if (reasoning.enabled === false || (reasoning.effort === undefined && reasoning.budgetTokens === 0)) {
        losses.push(
          loss(
            reasoning.budgetSource ?? reasoning.source,
            "dropped",
            "This chat dialect has no switch that turns thinking off; the setting was dropped and the model's default applies.",
          ),
        );
        return {};
      }
      const effort = effortOf(reasoning, losses);
      if (effort !== undefined) return { reasoning_effort: effort };
      losses.push(
        loss(
          reasoning.source,
          "dropped",
          "A thinking setting with neither an effort nor a budget (adaptive or dynamic) has no form in this chat dialect; the model's default applies.",
        ),
      );
      return {};
    }
    case "deepseek": {
      if (off) return { thinking: { type: "disabled" } };
      const effort = effortOf(reasoning, losses);
      return effort === undefined
        ? { thinking: { type: "enabled" } }
        : { thinking: { type: "enabled" }, reasoning_effort: effort };
    }
    case "openrouter": {
      const out: NonNullable<chat.Request["reasoning"]> = {};
      if (reasoning.enabled === false) out.enabled = false;
      else if (reasoning.effort !== undefined) {
        out.effort = reasoning.effort.toLowerCase();
        if (reasoning.budgetTokens !== undefined)
          losses.push(
            loss(
              reasoning.budgetSource ?? budgetPath(reasoning.source),
              "dropped",
              "OpenRouter takes an effort or a token budget, not both; the budget was dropped.",
            ),
          );
      } else if (reasoning.budgetTokens !== undefined) out.max_tokens = reasoning.budgetTokens;
      else if (reasoning.enabled === true) out.enabled = true;
      if (reasoning.includeThoughts === false) out.exclude = true;
      return { reasoning: out };
    }
    case "qwen": {
      if (off) return { enable_thinking: false };
      if (reasoning.budgetTokens !== undefined)
        return { enable_thinking: true, thinking_budget: reasoning.budgetTokens };
      if (reasoning.effort !== undefined) {
        losses.push(
          loss(
            reasoning.source,
            "approximated",
            `Qwen has no reasoning effort; "${reasoning.effort}" was sent as enable_thinking with the model's default budget.`,
          ),
        );
      }
      return { enable_thinking: true };
    }
    case "vllm": {
      if (off) return { chat_template_kwargs: { enable_thinking: false } };
      const effort = effortOf(reasoning, losses);
      return effort === undefined
        ? { chat_template_kwargs: { enable_thinking: true } }
        : { reasoning_effort: effort, chat_template_kwargs: { enable_thinking: true } };
    }
  }
}

function encodeResponseFormat(
  format: common.ResponseFormat | undefined,
  losses: Loss[],
): chat.ResponseFormat | undefined {
  if (format === undefined) return undefined;
  switch (format.type) {
    case "text":
      return { type: "text" };
    case "json":
      return { type: "json_object" };
    case "json-schema": {
      if (format.name === undefined) {
        losses.push(
          loss(`${format.source}/name`, "synthesized", 'Chat requires a schema name; "response" was used.'),
        );
      }
      return {
        type: "json_schema",
        json_schema: {
          name: format.name ?? "response",
          ...(format.description === undefined ? {} : { description: format.description }),
          schema: { ...format.schema },
          ...(format.strict === undefined ? {} : { strict: format.strict }),
        },
      };
    }
  }
}

/**
 * Common request → chat request in `options.chatDialect` (dialect.ts). The OpenAI dialect sends the output
 * budget as `max_completion_tokens`, the current field: its reasoning models reject `max_tokens`;
 * the compatible dialects send `max_tokens`, which many servers know alone.
 */
export function encodeChatRequest(
  original: common.Request,
  options: ResolvedOptions,
): Translated<chat.Request> {
  const losses: Loss[] = [];
  const request = answerToolCalls(original, "chat", losses, true);
  const messages = encodeMessages(request, options, losses);
  const { tools, tool_choice } = encodeTools(request, DIALECTS[options.chatDialect].allowedTools, losses);
  const stop = request.stop === undefined ? undefined : keepStopSequences(request.stop, MAX_STOP, "Chat");
  if (stop !== undefined) losses.push(...stop.losses);
  const dialect = DIALECTS[options.chatDialect];
  if (request.topK !== undefined && !dialect.topK) {
    losses.push(loss(request.topK.source, "dropped", "Chat has no standard `top_k`; it was dropped."));
  }
  const switches = encodeReasoning(request.reasoning, dialect, losses);
  const responseFormat = encodeResponseFormat(request.responseFormat, losses);
  const temperature = clampRange(request.temperature, 0, 2, "temperature", losses);
  const topP = clampRange(request.topP, 0, 1, "top_p", losses);
  const presence = clampRange(request.presencePenalty, -2, 2, "presence_penalty", losses);
  const frequency = clampRange(request.frequencyPenalty, -2, 2, "frequency_penalty", losses);
  // A streamed translation needs the final usage chunk to report usage in the client's protocol.
  const includeUsage = request.includeUsage?.value ?? (request.stream ? true : undefined);
  const value: chat.Request = {
    model: request.model,
    messages: messages.length > 0 ? messages : [{ role: "user", content: "" }],
  };
  // Assigned field by field in wire order: conditional spreads cost a runtime copy each.
  // An explicit `stream: false` is a given value (rule 5): forwarded, never treated as absent.
  if (request.stream || request.streamGiven === true) value.stream = request.stream;
  if (includeUsage !== undefined) value.stream_options = { include_usage: includeUsage };
  if (temperature !== undefined) value.temperature = temperature;
  if (topP !== undefined) value.top_p = topP;
  if (request.topK !== undefined && dialect.topK) value.top_k = request.topK.value;
  if (request.maxTokens !== undefined) value[dialect.maxTokens] = request.maxTokens.value;
  if (stop !== undefined) value.stop = [...stop.value];
  if (presence !== undefined) value.presence_penalty = presence;
  if (frequency !== undefined) value.frequency_penalty = frequency;
  if (request.seed !== undefined) value.seed = request.seed.value;
  if (request.candidateCount !== undefined) value.n = request.candidateCount.value;
  if (request.logprobs !== undefined) value.logprobs = request.logprobs.value;
  if (request.topLogprobs !== undefined) value.top_logprobs = request.topLogprobs.value;
  if (request.user !== undefined) value.user = request.user.value;
  if (request.serviceTier !== undefined) value.service_tier = chatTier(request.serviceTier, losses);
  // OpenAI's own: the compatible dialects' servers have neither.
  if (request.promptCacheKey !== undefined) {
    if (options.chatDialect === "openai") value.prompt_cache_key = request.promptCacheKey.value;
    else openaiOnly(request.promptCacheKey, "prompt_cache_key", losses);
  }
  const cacheOptions = request.promptCacheOptions;
  if (cacheOptions !== undefined) {
    if (options.chatDialect === "openai")
      value.prompt_cache_options = cacheOptions.value as NonNullable<chat.Request["prompt_cache_options"]>;
    else openaiOnly(cacheOptions, "prompt_cache_options", losses);
  }
  if (request.moderation !== undefined) {
    if (options.chatDialect === "openai")
      value.moderation = request.moderation.value as NonNullable<chat.Request["moderation"]>;
    else openaiOnly(request.moderation, "moderation", losses);
  }
  if (request.verbosity !== undefined) {
    if (options.chatDialect === "openai") value.verbosity = request.verbosity.value;
    else openaiOnly(request.verbosity, "verbosity", losses);
  }
  if (switches.reasoning_effort !== undefined) value.reasoning_effort = switches.reasoning_effort;
  if (switches.reasoning !== undefined) value.reasoning = switches.reasoning;
  if (switches.thinking !== undefined) value.thinking = switches.thinking;
  if (switches.enable_thinking !== undefined) value.enable_thinking = switches.enable_thinking;
  if (switches.thinking_budget !== undefined) value.thinking_budget = switches.thinking_budget;
  if (switches.chat_template_kwargs !== undefined) value.chat_template_kwargs = switches.chat_template_kwargs;
  if (tools !== undefined) value.tools = tools;
  if (tool_choice !== undefined) value.tool_choice = tool_choice;
  if (request.parallelToolCalls !== undefined && tools !== undefined) {
    value.parallel_tool_calls = request.parallelToolCalls.value;
  }
  if (responseFormat !== undefined) value.response_format = responseFormat;
  if (messages.length === 0) {
    losses.push(
      loss("/messages", "synthesized", "Chat needs at least one message; an empty user message was added."),
    );
  }
  if (request.parallelToolCalls !== undefined && tools === undefined) {
    losses.push(
      loss(
        request.parallelToolCalls.source,
        "dropped",
        "`parallel_tool_calls` needs tools; with none it was dropped.",
      ),
    );
  }
  return { value, losses };
}

/** A setting only OpenAI's chat takes, for a compatible dialect: dropped, said. */
function openaiOnly(given: common.Given<unknown>, name: string, losses: Loss[]): void {
  losses.push(
    loss(
      given.source,
      "dropped",
      `\`${name}\` is OpenAI's own; this chat dialect has none, and it was dropped.`,
    ),
  );
}

/**
 * A tier chat has no word for: responses' `ultrafast` is sent as chat's fastest, `fast` (the
 * description's chat tiers: auto, default, flex, scale, priority, fast), and said.
 */
function chatTier(tier: common.Given<string>, losses: Loss[]): string {
  if (tier.value !== "ultrafast") return tier.value;
  losses.push(
    loss(
      tier.source,
      "approximated",
      "chat has no `ultrafast` service tier; the request was sent with `fast`, its fastest.",
      "service_tier.approximated",
    ),
  );
  return "fast";
}
