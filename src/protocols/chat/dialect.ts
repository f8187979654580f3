/**
 * What each chat-compatible upstream expects of a body encoded toward chat (`options.chatDialect`): one
 * row per dialect. Decoding needs no table: every dialect's fields are read.
 * @see https://api-docs.deepseek.com/guides/thinking_mode
 * @see https://openrouter.ai/docs/use-cases/reasoning-tokens
 * @see https://help.aliyun.com/en/model-studio/deep-thinking
 * @see https://docs.vllm.ai/en/latest/features/reasoning_outputs.html
 */
import type * as common from "../../common/model";
import type { ChatDialect } from "../../common/options";

export type Dialect = {
  /** The field of the output budget: OpenAI's reasoning models reject `max_tokens`; most others know only it. */
  readonly maxTokens: "max_completion_tokens" | "max_tokens";
  /** The field an assistant message's reasoning text is sent in. */
  readonly reasoningField: "reasoning_content" | "reasoning";
  /** Reasoning also goes as OpenRouter `reasoning_details`, signatures and encrypted reasoning included. */
  readonly reasoningDetails: boolean;
  /** Every assistant turn with tool calls must carry the reasoning field, `""` when there was none (DeepSeek). */
  readonly reasoningOnToolTurns: boolean;
  /** A Gemini thought signature rides on a request's tool call as `extra_content.google.thought_signature`. */
  readonly extraContent: boolean;
  /** The upstream takes `top_k`. */
  readonly topK: boolean;
  /** Usage also counts cache hits and misses as `prompt_cache_hit_tokens` / `prompt_cache_miss_tokens` (DeepSeek). */
  readonly cacheCounters: boolean;
  /** How thinking is switched on and off and given an effort or a budget. */
  readonly switches: "effort" | "deepseek" | "openrouter" | "qwen" | "vllm";
  /** The upstream takes custom (free-form) tools and their calls (OpenAI); elsewhere they are functions. */
  readonly customTools: boolean;
  /** The upstream takes `tool_choice: {type: "allowed_tools"}` (OpenAI); elsewhere the tools are narrowed to the allowed ones. */
  readonly allowedTools: boolean;
};

export const DIALECTS: Readonly<Record<ChatDialect, Dialect>> = {
  openai: {
    maxTokens: "max_completion_tokens",
    reasoningField: "reasoning_content",
    reasoningDetails: false,
    reasoningOnToolTurns: false,
    // OpenAI rejects unknown fields inside messages ("Additional properties are not allowed").
    extraContent: false,
    topK: false,
    cacheCounters: false,
    switches: "effort",
    customTools: true,
    allowedTools: true,
  },
  compatible: {
    maxTokens: "max_tokens",
    reasoningField: "reasoning_content",
    reasoningDetails: false,
    reasoningOnToolTurns: false,
    extraContent: true,
    topK: false,
    cacheCounters: false,
    switches: "effort",
    customTools: false,
    allowedTools: false,
  },
  deepseek: {
    maxTokens: "max_tokens",
    reasoningField: "reasoning_content",
    reasoningDetails: false,
    reasoningOnToolTurns: true,
    extraContent: true,
    topK: false,
    cacheCounters: true,
    switches: "deepseek",
    customTools: false,
    allowedTools: false,
  },
  openrouter: {
    maxTokens: "max_tokens",
    reasoningField: "reasoning",
    reasoningDetails: true,
    reasoningOnToolTurns: false,
    extraContent: true,
    topK: true,
    cacheCounters: false,
    switches: "openrouter",
    customTools: false,
    allowedTools: false,
  },
  qwen: {
    maxTokens: "max_tokens",
    reasoningField: "reasoning_content",
    reasoningDetails: false,
    reasoningOnToolTurns: false,
    extraContent: true,
    topK: true,
    cacheCounters: false,
    switches: "qwen",
    customTools: false,
    allowedTools: false,
  },
  vllm: {
    maxTokens: "max_tokens",
    // vLLM renamed `reasoning_content` to `reasoning` (vllm-project/vllm#27752) and dropped the old name (#33402).
    reasoningField: "reasoning",
    reasoningDetails: false,
    reasoningOnToolTurns: false,
    extraContent: true,
    topK: true,
    cacheCounters: false,
    switches: "vllm",
    customTools: false,
    allowedTools: false,
  },
};

/** OpenRouter's `format` of a reasoning entry ↔ the protocol whose provider issued its signature. */
export function reasoningFormat(origin: common.Protocol): string {
  switch (origin) {
    case "messages":
      return "anthropic-claude-v1";
    case "generative":
      return "google-gemini-v1";
    default:
      return "unknown";
  }
}

/** The protocol whose provider validates a reasoning entry of this OpenRouter `format`. */
export function reasoningOrigin(format: string | null | undefined): common.Protocol {
  switch (format) {
    case "anthropic-claude-v1":
      return "messages";
    case "google-gemini-v1":
      return "generative";
    default:
      return "chat";
  }
}
