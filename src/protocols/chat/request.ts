/**
 * Chat request ↔ common request. The decoder keeps everything the common model can hold and reports
 * the rest as `dropped`; the encoder reports everything chat cannot carry.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */

import { unknownKeys } from "../../common/json";
import { type Loss, loss, type Translated } from "../../common/loss";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import { at } from "../../common/pointer";
import { keepStopSequences } from "../../common/stop";
import { decodeMessages } from "./messages-decode";
import { encodeMessages } from "./messages-encode";
import type * as chat from "./schema";
import { decodeToolChoice, decodeTools, encodeTools } from "./tools";

/** Fields the decoder reads; any other field of the request is reported as dropped. */
const MAPPED = new Set([
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
  "reasoning_effort",
  "parallel_tool_calls",
  "tools",
  "tool_choice",
  "response_format",
  "functions",
  "function_call",
]);

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
      const specSource = at(source, "json_schema");
      return {
        type: "json-schema",
        schema: spec.schema ?? {},
        schemaSource: at(specSource, "schema"),
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
  const request: common.Request = {
    model: body.model,
    stream: body.stream === true,
    system,
    messages,
    tools: decodeTools(body),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...opt("parallelToolCalls", given(body.parallel_tool_calls, "/parallel_tool_calls")),
    ...opt("maxTokens", maxCompletion ?? maxTokens),
    ...opt("temperature", given(body.temperature, "/temperature")),
    ...opt("topP", given(body.top_p, "/top_p")),
    ...opt("topK", given(body.top_k, "/top_k")),
    ...opt("presencePenalty", given(body.presence_penalty, "/presence_penalty")),
    ...opt("frequencyPenalty", given(body.frequency_penalty, "/frequency_penalty")),
    ...opt("seed", given(body.seed, "/seed")),
    ...opt("candidateCount", given(body.n, "/n")),
    ...opt(
      "stop",
      stop === undefined || stop === null
        ? undefined
        : typeof stop === "string"
          ? { value: [stop], source: "/stop", scalar: true }
          : { value: stop, source: "/stop" },
    ),
    ...(responseFormat === undefined ? {} : { responseFormat }),
    ...(body.reasoning_effort === undefined || body.reasoning_effort === null
      ? {}
      : { reasoning: { effort: body.reasoning_effort, source: "/reasoning_effort" } }),
    ...opt("user", given(body.user, "/user")),
    ...opt("logprobs", given(body.logprobs, "/logprobs")),
    ...opt("topLogprobs", given(body.top_logprobs, "/top_logprobs")),
    ...opt("includeUsage", given(body.stream_options?.include_usage, "/stream_options/include_usage")),
  };
  return { value: request, losses };
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

const MAX_STOP = 4;

/** Reasoning budget → chat effort bucket (research K2: ≤1024 low, ≤8192 medium, above high). */
export function effortForBudget(budget: number): "low" | "medium" | "high" {
  if (budget <= 1024) return "low";
  if (budget <= 8192) return "medium";
  return "high";
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
      `Chat \`${name}\` must be within ${min}–${max}; ${value.value} was clamped to ${clamped}.`,
    ),
  );
  return clamped;
}

/** The budget field under a reasoning source, when the decoder did not say (`/thinking` → `/thinking/budget_tokens`). */
function budgetPath(source: string): string {
  if (source.endsWith("/thinking")) return at(source, "budget_tokens");
  if (source.endsWith("/thinkingConfig")) return at(source, "thinkingBudget");
  return source;
}

function encodeReasoning(reasoning: common.ReasoningConfig | undefined, losses: Loss[]): string | undefined {
  if (reasoning === undefined || reasoning.enabled === false) return undefined;
  if (reasoning.effort !== undefined) return reasoning.effort.toLowerCase();
  if (reasoning.budgetTokens !== undefined) {
    const effort = effortForBudget(reasoning.budgetTokens);
    losses.push(
      loss(
        reasoning.budgetSource ?? budgetPath(reasoning.source),
        "approximated",
        `Chat has no thinking budget; ${reasoning.budgetTokens} tokens became reasoning_effort "${effort}".`,
      ),
    );
    return effort;
  }
  return undefined;
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
          loss(at(format.source, "name"), "synthesized", 'Chat requires a schema name; "response" was used.'),
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
 * Common request → chat request. The output budget is sent as `max_completion_tokens`, the current
 * field: reasoning models reject `max_tokens` and every other model accepts both (research P5).
 */
export function encodeChatRequest(
  request: common.Request,
  options: ResolvedOptions,
): Translated<chat.Request> {
  const losses: Loss[] = [];
  const messages = encodeMessages(request, options, losses);
  const { tools, tool_choice } = encodeTools(request, losses);
  const stop = request.stop === undefined ? undefined : keepStopSequences(request.stop, MAX_STOP, "Chat");
  if (stop !== undefined) losses.push(...stop.losses);
  if (request.topK !== undefined) {
    losses.push(loss(request.topK.source, "dropped", "Chat has no standard `top_k`; it was dropped."));
  }
  const reasoningEffort = encodeReasoning(request.reasoning, losses);
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
  if (request.stream) value.stream = true;
  if (includeUsage !== undefined) value.stream_options = { include_usage: includeUsage };
  if (temperature !== undefined) value.temperature = temperature;
  if (topP !== undefined) value.top_p = topP;
  if (request.maxTokens !== undefined) value.max_completion_tokens = request.maxTokens.value;
  if (stop !== undefined) value.stop = [...stop.value];
  if (presence !== undefined) value.presence_penalty = presence;
  if (frequency !== undefined) value.frequency_penalty = frequency;
  if (request.seed !== undefined) value.seed = request.seed.value;
  if (request.candidateCount !== undefined) value.n = request.candidateCount.value;
  if (request.logprobs !== undefined) value.logprobs = request.logprobs.value;
  if (request.topLogprobs !== undefined) value.top_logprobs = request.topLogprobs.value;
  if (request.user !== undefined) value.user = request.user.value;
  if (reasoningEffort !== undefined) value.reasoning_effort = reasoningEffort;
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
