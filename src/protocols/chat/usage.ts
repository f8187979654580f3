/**
 * Chat `usage` ↔ common usage. Chat `prompt_tokens` includes `cached_tokens` and `completion_tokens`
 * includes `reasoning_tokens`, as the common form does, so the figures pass through (research F4–F6).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
import type * as common from "../../common/model";
import type * as chat from "./schema";

export function decodeChatUsage(usage: chat.Usage, source: string): common.Usage {
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    ...(cacheRead === undefined || cacheRead === null ? {} : { cacheReadTokens: cacheRead }),
    ...(cacheWrite === undefined || cacheWrite === null ? {} : { cacheWriteTokens: cacheWrite }),
    ...(reasoning === undefined || reasoning === null ? {} : { reasoningTokens: reasoning }),
    ...(usage.total_tokens === undefined ? {} : { totalTokens: usage.total_tokens }),
    source,
  };
}

export function encodeChatUsage(usage: common.Usage): chat.Usage {
  const details: { cached_tokens?: number; cache_write_tokens?: number } = {};
  if (usage.cacheReadTokens !== undefined) details.cached_tokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) details.cache_write_tokens = usage.cacheWriteTokens;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
    ...(Object.keys(details).length === 0 ? {} : { prompt_tokens_details: details }),
    ...(usage.reasoningTokens === undefined
      ? {}
      : { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } }),
  };
}
