/**
 * Common tools, tool choice, reasoning and response format → messages `tools`, `tool_choice`, `thinking`.
 */

import { budgetForEffort } from "../../common/effort";
import { TranslationError } from "../../common/errors";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import { cacheControl } from "./encode-blocks";
import type { Turn } from "./request-turns";
import type { CustomTool, Request, ThinkingConfig, Tool, ToolChoice } from "./schema";

/**
 * The messages code execution tool another protocol's code execution becomes: the version with bash and
 * file operations, generally available.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/code-execution-tool
 */
const CODE_EXECUTION = { type: "code_execution_20250825", name: "code_execution" } as const;
/**
 * The messages web search tool another protocol's web search becomes.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
const WEB_SEARCH = { type: "web_search_20250305", name: "web_search" } as const;

/** The tool that emulates a JSON response format (LiteLLM's name). */
export const JSON_TOOL = "json_tool_call";

function inputSchema(tool: common.FunctionTool, losses: Loss[]): Record<string, unknown> {
  const schema = tool.parameters;
  if (schema === undefined) return { type: "object", properties: {} };
  if (schema.type === undefined) {
    // The messages API requires `type: "object"` at the top; arguments are an object anyway.
    losses.push(
      loss(
        `${tool.parametersSource ?? `${tool.source}/parameters`}/type`,
        "synthesized",
        `Tool \`${tool.name}\`: the messages API needs an input schema with \`type: "object"\`; the schema had no type, and it was added.`,
        "tool.schema.type.synthesized",
      ),
    );
    return { type: "object", ...schema };
  }
  if (schema.type !== "object") {
    throw new TranslationError(
      `Tool \`${tool.name}\`: the messages API needs an input schema of type "object", not ${JSON.stringify(schema.type)}.`,
    );
  }
  return schema;
}

/** Function tools → custom tools; provider tools of messages origin kept, others dropped. */
export function encodeTools(tools: readonly common.Tool[], losses: Loss[]): Tool[] {
  const result: Tool[] = [];
  for (const tool of tools) {
    if (tool.type === "provider") {
      if (tool.origin === "messages") result.push(tool.raw as Tool);
      else if (tool.kind === "code-execution") {
        result.push({ ...CODE_EXECUTION });
        losses.push(
          loss(
            tool.source,
            "approximated",
            `The ${tool.origin} ${tool.label} was sent as the messages code execution tool (${CODE_EXECUTION.type}), which runs code in its own sandbox.`,
          ),
        );
      } else if (tool.kind === "web-search") {
        result.push({ ...WEB_SEARCH });
        losses.push(
          loss(
            tool.source,
            "approximated",
            `The ${tool.origin} ${tool.label} was sent as the messages web search tool (${WEB_SEARCH.type}), with its default settings.`,
          ),
        );
      } else
        losses.push(
          loss(
            tool.source,
            "dropped",
            `The ${tool.origin} ${tool.label} has no messages equivalent and was dropped.`,
          ),
        );
      continue;
    }
    const input_schema = inputSchema(tool, losses) as { type: "object" };
    const encoded: CustomTool =
      tool.description === undefined
        ? { name: tool.name, input_schema }
        : { name: tool.name, description: tool.description, input_schema };
    // Strict tools (structured outputs) validate the input against the schema, as chat's and responses' do.
    if (tool.strict !== undefined) encoded.strict = tool.strict;
    if (tool.deferLoading !== undefined) encoded.defer_loading = tool.deferLoading.value;
    const control = cacheControl(tool.cache, losses);
    if (control !== undefined) encoded.cache_control = control;
    result.push(encoded);
  }
  return result;
}

const MIN_BUDGET = 1024;
/** The efforts `output_config.effort` takes. */
const EFFORTS = new Set(["low", "medium", "high", "xhigh", "max"]);

/**
 * Whether `model` thinks adaptively and takes an effort (`thinking: {type: "adaptive"}` with
 * `output_config.effort`): Claude 4.6 and later. Older models, and a model this library does not know,
 * take a budget (`budget_tokens`), which every thinking model accepts.
 */
export function adaptiveModel(model: string): boolean {
  const match = /claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?!\d)/.exec(model);
  if (match === null) return false;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 6);
}

type Thinking = { thinking?: ThinkingConfig; effort?: string; maxTokens: number };

/** `includeThoughts` → the thinking config's `display` (thoughts summarized, or left out). */
function withDisplay(thinking: ThinkingConfig, reasoning: common.ReasoningConfig): ThinkingConfig {
  const include = reasoning.includeThoughts;
  return include === undefined ? thinking : { ...thinking, display: include ? "summarized" : "omitted" };
}

/** The request's `max_tokens`: its value, whether the client gave it, and where. */
type MaxTokens = { value: number; given: boolean; source: string };

/**
 * Reasoning → `thinking` (and `output_config.effort`) and the `max_tokens` it needs. An effort goes as
 * it is to a model that takes one (adaptive thinking); to another it becomes a budget by the one
 * table (common/effort.ts), said. A budget is ≥ 1024 and < max_tokens, raising max_tokens by the
 * budget when it is too small. Asking for the thoughts or not is `display`.
 */
export function encodeThinking(
  reasoning: common.ReasoningConfig | undefined,
  maxTokens: MaxTokens,
  model: string,
  losses: Loss[],
): Thinking {
  if (reasoning === undefined) return { maxTokens: maxTokens.value };
  const { effort, budgetTokens, enabled } = reasoning;
  if (enabled === false || effort === "none" || budgetTokens === 0) {
    return { thinking: { type: "disabled" }, maxTokens: maxTokens.value };
  }
  const adaptive = adaptiveModel(model);
  if (budgetTokens !== undefined && budgetTokens > 0)
    return budgetThinking(givenBudget(reasoning, budgetTokens, losses), reasoning, maxTokens, losses);
  if (effort !== undefined && adaptive) return adaptiveEffort(reasoning, effort, maxTokens, losses);
  if (effort !== undefined)
    return budgetThinking(effortBudget(reasoning, effort, losses), reasoning, maxTokens, losses);
  if (enabled === true && adaptive)
    return { thinking: withDisplay({ type: "adaptive" }, reasoning), maxTokens: maxTokens.value };
  if (budgetTokens !== undefined || enabled === true)
    return budgetThinking(minimumBudget(reasoning, losses), reasoning, maxTokens, losses);
  return thinkingOff(reasoning, maxTokens, losses);
}

/** A given budget: as it is, raised to the messages minimum when below it. */
function givenBudget(reasoning: common.ReasoningConfig, budgetTokens: number, losses: Loss[]): number {
  if (budgetTokens >= MIN_BUDGET) return budgetTokens;
  losses.push(
    loss(
      reasoning.budgetSource ?? reasoning.source,
      "clamped",
      `A thinking budget of ${budgetTokens} is below the messages minimum and was raised to ${MIN_BUDGET}.`,
    ),
  );
  return MIN_BUDGET;
}

/** An effort to a model that takes one: adaptive thinking at that effort; an effort it lacks is "low". */
function adaptiveEffort(
  reasoning: common.ReasoningConfig,
  effort: string,
  maxTokens: MaxTokens,
  losses: Loss[],
): Thinking {
  const level = effort.toLowerCase();
  if (EFFORTS.has(level))
    return {
      thinking: withDisplay({ type: "adaptive" }, reasoning),
      effort: level,
      maxTokens: maxTokens.value,
    };
  losses.push(
    loss(
      reasoning.source,
      "approximated",
      `Reasoning effort \`${effort}\` has no messages form; the nearest, "low", was sent.`,
    ),
  );
  return {
    thinking: withDisplay({ type: "adaptive" }, reasoning),
    effort: "low",
    maxTokens: maxTokens.value,
  };
}

/** An effort to a model that takes a budget: the budget of the one table (an unknown effort: medium's). */
function effortBudget(reasoning: common.ReasoningConfig, effort: string, losses: Loss[]): number {
  const known = budgetForEffort(effort);
  if (known === undefined) {
    losses.push(
      loss(
        reasoning.source,
        "approximated",
        `Reasoning effort \`${effort}\` is unknown; a medium thinking budget was used.`,
      ),
    );
  }
  const budget = Math.max(MIN_BUDGET, known ?? budgetForEffort("medium") ?? MIN_BUDGET);
  // A level is not a token count: the budget it becomes is the one table's (common/effort.ts).
  if (known !== undefined)
    losses.push(
      loss(
        reasoning.source,
        "approximated",
        `Reasoning effort \`${effort}\` has no form for this model; it became a thinking budget of ${budget} tokens.`,
      ),
    );
  return budget;
}

/** Thinking asked for with no budget (or a negative one): the messages minimum. */
function minimumBudget(reasoning: common.ReasoningConfig, losses: Loss[]): number {
  losses.push(
    loss(
      reasoning.source,
      "approximated",
      "Thinking was requested without a budget; the minimum messages budget was used.",
    ),
  );
  return MIN_BUDGET;
}

/** Reasoning that asks for no thinking: none sent, and `includeThoughts` dropped. */
function thinkingOff(reasoning: common.ReasoningConfig, maxTokens: MaxTokens, losses: Loss[]): Thinking {
  if (reasoning.includeThoughts !== undefined) {
    losses.push(
      loss(
        reasoning.includeSource ?? reasoning.source,
        "dropped",
        "`includeThoughts` has no messages equivalent without thinking on, and was dropped.",
      ),
    );
  }
  return { maxTokens: maxTokens.value };
}

/** Thinking with `budget`: `max_tokens` raised by the budget when it does not exceed it. */
function budgetThinking(
  budget: number,
  reasoning: common.ReasoningConfig,
  maxTokens: MaxTokens,
  losses: Loss[],
): Thinking {
  const thinking = withDisplay({ type: "enabled", budget_tokens: budget }, reasoning);
  if (budget < maxTokens.value) return { thinking, maxTokens: maxTokens.value };
  if (maxTokens.given) {
    losses.push(
      loss(
        maxTokens.source,
        "clamped",
        "`max_tokens` must exceed the thinking budget; the budget was added to it.",
      ),
    );
  }
  return { thinking, maxTokens: budget + maxTokens.value };
}

/**
 * With thinking on, the assistant turn before the last tool results must start with a thinking block;
 * when the history cannot satisfy that (foreign reasoning was dropped), thinking is turned off.
 */
export function historyAllowsThinking(turns: readonly Turn[]): boolean {
  let lastUser = -1;
  turns.forEach((turn, index) => {
    if (turn.role === "user") lastUser = index;
  });
  const user = turns[lastUser];
  if (user === undefined || !user.blocks.some((block) => block.value.type === "tool_result")) return true;
  const assistant = turns[lastUser - 1];
  const first = assistant?.blocks[0]?.value.type;
  return first === "thinking" || first === "redacted_thinking";
}

/** Tool choice and the parallel flag → `tool_choice`. */
export function encodeToolChoice(
  request: common.Request,
  hasTools: boolean,
  forcedThinking: boolean,
  losses: Loss[],
): ToolChoice | undefined {
  const choice = request.toolChoice;
  const parallel = request.parallelToolCalls;
  if (!hasTools) {
    if (choice !== undefined && choice.type !== "auto" && choice.type !== "none") {
      losses.push(
        loss(
          choice.source,
          "dropped",
          "A tool choice without tools has no messages equivalent and was dropped.",
        ),
      );
    }
    return undefined;
  }
  const flag = parallel === undefined ? {} : { disable_parallel_tool_use: !parallel.value };
  if (choice === undefined) {
    return parallel?.value === false ? { type: "auto", disable_parallel_tool_use: true } : undefined;
  }
  let result: ToolChoice;
  switch (choice.type) {
    case "none":
      return { type: "none" };
    case "auto":
      return { type: "auto", ...flag };
    case "required":
      result = { type: "any", ...flag };
      break;
    case "tool":
      result = { type: "tool", name: choice.name, ...flag };
      break;
    case "allowed":
      if (choice.mode === "required" && choice.names.length === 1 && choice.names[0] !== undefined) {
        result = { type: "tool", name: choice.names[0], ...flag };
      } else {
        losses.push(
          loss(
            choice.source,
            "approximated",
            "A restriction to a subset of tools has no messages equivalent; the choice was widened to all tools.",
          ),
        );
        result = { type: choice.mode === "required" ? "any" : "auto", ...flag };
      }
      break;
  }
  if (forcedThinking && (result.type === "any" || result.type === "tool")) {
    losses.push(
      loss(
        choice.source,
        "approximated",
        "The messages API rejects a forced tool choice with extended thinking; `auto` was sent.",
      ),
    );
    return { type: "auto", ...flag };
  }
  return result;
}

/**
 * A JSON response format → a forced `json_tool_call` tool whose input schema is the requested schema;
 * its tool_use comes back as text (see response decoding).
 */
export function encodeResponseFormat(
  request: common.Request,
  thinking: boolean,
  mode: "tool" | "native",
  losses: Loss[],
): { tool?: Tool; choice?: ToolChoice; outputFormat?: OutputFormat } {
  const format = request.responseFormat;
  if (format === undefined || format.type === "text") return {};
  if (format.type === "json-schema" && format.name !== undefined) {
    losses.push(
      loss(
        `${format.source}/name`,
        "dropped",
        "The messages API has no name for a response schema; the name was dropped.",
      ),
    );
  }
  if (mode === "native" && format.type === "json-schema") {
    if (format.strict === false) {
      losses.push(
        loss(
          `${format.source}/strict`,
          "approximated",
          "`output_config.format` always follows the schema strictly; `strict: false` cannot be expressed.",
        ),
      );
    }
    return { outputFormat: { type: "json_schema", schema: format.schema } };
  }
  let schema: Record<string, unknown> =
    format.type === "json-schema"
      ? { ...format.schema }
      : { type: "object", additionalProperties: true, properties: {} };
  if (schema.type === undefined) schema = { type: "object", ...schema };
  else if (schema.type !== "object") {
    // A tool input must be an object: a scalar or array answer is wrapped in a `value` property.
    losses.push(
      loss(
        format.source,
        "approximated",
        "A non-object response schema was wrapped in an object with a `value` property.",
      ),
    );
    schema = { type: "object", properties: { value: schema }, required: ["value"] };
  }
  const tool: Tool = {
    name: JSON_TOOL,
    ...(format.type === "json-schema" && format.description !== undefined
      ? { description: format.description }
      : {}),
    input_schema: schema as { type: "object" },
  };
  if (format.type === "json-schema" && format.strict !== undefined) {
    losses.push(
      loss(
        `${format.source}/strict`,
        "dropped",
        "`strict` of the response format has no messages equivalent and was dropped.",
      ),
    );
  }
  if (request.toolChoice !== undefined || thinking) {
    losses.push(
      loss(
        format.source,
        "approximated",
        "The JSON response tool could not be forced (a tool choice or thinking is set); the model may answer in text.",
      ),
    );
    return { tool };
  }
  return { tool, choice: { type: "tool", name: JSON_TOOL } };
}

export type OutputFormat = { type: "json_schema"; schema: Readonly<Record<string, unknown>> };

export type Sampling = Pick<Request, "temperature" | "top_p" | "top_k" | "stop_sequences">;

function clampTo(
  given: common.Given<number>,
  low: number,
  high: number,
  name: string,
  losses: Loss[],
): number {
  if (given.value >= low && given.value <= high) return given.value;
  const value = Math.min(high, Math.max(low, given.value));
  losses.push(
    loss(
      given.source,
      "clamped",
      `\`${name}\` ${given.value} is outside the messages range ${low}–${high} and was clamped to ${value}.`,
    ),
  );
  return value;
}

/**
 * Sampling → messages: temperature clamped to 0–1, top_p dropped beside temperature or with
 * thinking. Written into `result` (the request being built), in wire order.
 */
export function encodeSampling(
  request: common.Request,
  thinking: boolean,
  losses: Loss[],
  result: { -readonly [K in keyof Sampling]: Sampling[K] },
): void {
  const dropForThinking = (given: common.Given<number> | undefined, name: string) => {
    if (given !== undefined)
      losses.push(
        loss(
          given.source,
          "dropped",
          `\`${name}\` is rejected by the messages API with extended thinking and was dropped.`,
        ),
      );
  };
  if (thinking) {
    dropForThinking(request.temperature, "temperature");
    dropForThinking(request.topP, "top_p");
    dropForThinking(request.topK, "top_k");
  } else {
    if (request.temperature !== undefined)
      result.temperature = clampTo(request.temperature, 0, 1, "temperature", losses);
    if (request.topP !== undefined) {
      if (request.temperature !== undefined) {
        losses.push(
          loss(
            request.topP.source,
            "dropped",
            "The messages API rejects `temperature` and `top_p` together; `top_p` was dropped.",
          ),
        );
      } else result.top_p = clampTo(request.topP, 0, 1, "top_p", losses);
    }
    if (request.topK !== undefined) {
      const value = Math.max(0, Math.round(request.topK.value));
      if (value !== request.topK.value)
        losses.push(
          loss(request.topK.source, "clamped", "`top_k` must be a non-negative integer and was rounded."),
        );
      result.top_k = value;
    }
  }
  if (request.stop !== undefined) {
    const kept: string[] = [];
    const stop = request.stop;
    stop.value.forEach((sequence, index) => {
      if (sequence.trim() === "") {
        losses.push(
          loss(
            stop.scalar === true ? stop.source : at(stop.source, index),
            "dropped",
            "The messages API rejects whitespace-only stop sequences; it was dropped.",
          ),
        );
      } else kept.push(sequence);
    });
    result.stop_sequences = kept;
  }
}
