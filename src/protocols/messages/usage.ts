/**
 * messages usage ↔ common usage (research F4–F7). messages `input_tokens` excludes cache reads and
 * writes; common `inputTokens` includes them. `output_tokens` already includes thinking.
 */
import type { Loss } from "../../common/loss";
import type * as common from "../../common/model";
import { dropExtras } from "./decode-blocks";
import type { DeltaUsage, Usage } from "./schema";

const KNOWN = [
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
  "output_tokens_details",
];

function count(value: number | null | undefined): number | undefined {
  return value === null || value === undefined ? undefined : value;
}

/** messages usage (a response's, or `message_start` + `message_delta` merged) → common usage. */
export function decodeMessagesUsage(usage: Usage | DeltaUsage, source: string, losses: Loss[]): common.Usage {
  const cacheRead = count(usage.cache_read_input_tokens);
  const cacheWrite = count(usage.cache_creation_input_tokens);
  const reasoning = count(usage.output_tokens_details?.thinking_tokens);
  // Explicit nulls carry nothing, but the same protocol restores them as given.
  const nulls = Object.entries(usage).filter(([key, value]) => value === null && KNOWN.includes(key));
  const extra = { ...dropExtras(usage, KNOWN, source, "`usage`", losses), ...Object.fromEntries(nulls) };
  return {
    inputTokens: (count(usage.input_tokens) ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: usage.output_tokens,
    ...(cacheRead === undefined ? {} : { cacheReadTokens: cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWriteTokens: cacheWrite }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
    extra: { origin: "messages", raw: extra },
    source,
  };
}

/**
 * common usage → messages usage: `input_tokens = max(0, input − cacheRead − cacheWrite)`. For another
 * protocol's usage both cache fields are always sent, 0 when unknown (research F5, X2), as the API does;
 * usage of messages origin is restored as it came.
 */
export function encodeMessagesUsage(usage: common.Usage): Usage {
  const read = usage.cacheReadTokens;
  const write = usage.cacheWriteTokens;
  const own = usage.extra?.origin === "messages";
  const cache = own
    ? {
        ...(write === undefined ? {} : { cache_creation_input_tokens: write }),
        ...(read === undefined ? {} : { cache_read_input_tokens: read }),
      }
    : { cache_creation_input_tokens: write ?? 0, cache_read_input_tokens: read ?? 0 };
  return {
    ...(own ? usage.extra?.raw : {}),
    input_tokens: Math.max(0, usage.inputTokens - (read ?? 0) - (write ?? 0)),
    ...cache,
    output_tokens: usage.outputTokens,
    ...(usage.reasoningTokens === undefined
      ? {}
      : { output_tokens_details: { thinking_tokens: usage.reasoningTokens } }),
  };
}
