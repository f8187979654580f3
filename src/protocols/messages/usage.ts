/**
 * messages usage ↔ common usage. messages `input_tokens` excludes cache reads and
 * writes; common `inputTokens` includes them. `output_tokens` already includes thinking.
 */
import { isKnown } from "../../common/json";
import type { Loss } from "../../common/loss";
import type * as common from "../../common/model";
import { dropExtras } from "./decode-blocks";
import type { DeltaUsage, Usage } from "./schema";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

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

/**
 * The fields of `usage` kept for the same protocol: its unknown fields in their order, then its known
 * fields that are explicitly `null` (they carry nothing, but the same protocol restores them as given).
 */
function reportedFields(usage: object, source: string, losses: Loss[]): Record<string, unknown> {
  const extra = dropExtras(usage, KNOWN, source, "`usage`", losses) ?? {};
  for (const key in usage) {
    if ((usage as Record<string, unknown>)[key] === null && KNOWN.includes(key) && Object.hasOwn(usage, key))
      extra[key] = null;
  }
  return extra;
}

/**
 * `reportedFields` with nothing reported, in one pass over the keys (a stream decodes its usage at
 * `message_start` and again at `message_delta`, where it was most of the time of either event).
 */
function keptFields(usage: object): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  let nulls: string[] | undefined;
  for (const key in usage) {
    if (!Object.hasOwn(usage, key)) continue;
    const value = (usage as Record<string, unknown>)[key];
    if (!isKnown(KNOWN, key)) {
      // An own `__proto__` field is made an own field by `dropExtras`' `Object.fromEntries`, not assigned.
      if (key === "__proto__") return reportedFields(usage, "", []);
      extra[key] = value;
    } else if (value === null) {
      if (nulls === undefined) nulls = [];
      nulls.push(key);
    }
  }
  if (nulls !== undefined) for (const key of nulls) extra[key] = null;
  return extra;
}

/**
 * messages usage (a response's, or `message_start` + `message_delta` merged) → common usage; its
 * unknown fields are reported to `losses`, unless undefined (a stream's usage reports none).
 */
export function decodeMessagesUsage(
  usage: Usage | DeltaUsage,
  source: string,
  losses: Loss[] | undefined,
): common.Usage {
  const cacheRead = count(usage.cache_read_input_tokens);
  const cacheWrite = count(usage.cache_creation_input_tokens);
  const reasoning = count(usage.output_tokens_details?.thinking_tokens);
  const extra = losses === undefined ? keptFields(usage) : reportedFields(usage, source, losses);
  const decoded: Mutable<common.Usage> = {
    inputTokens: (count(usage.input_tokens) ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: usage.output_tokens,
    source,
  };
  if (cacheRead !== undefined) decoded.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) decoded.cacheWriteTokens = cacheWrite;
  if (reasoning !== undefined) decoded.reasoningTokens = reasoning;
  decoded.extra = { origin: "messages", raw: extra };
  return decoded;
}

/**
 * common usage → messages usage: `input_tokens = max(0, input − cacheRead − cacheWrite)`. For another
 * protocol's usage both cache fields are always sent, 0 when unknown, as the API does;
 * usage of messages origin is restored as it came.
 */
export function encodeMessagesUsage(usage: common.Usage): Usage {
  const read = usage.cacheReadTokens;
  const write = usage.cacheWriteTokens;
  const own = usage.extra?.origin === "messages";
  const encoded: Record<string, unknown> = own ? { ...usage.extra?.raw } : {};
  encoded.input_tokens = Math.max(0, usage.inputTokens - (read ?? 0) - (write ?? 0));
  if (!own) {
    encoded.cache_creation_input_tokens = write ?? 0;
    encoded.cache_read_input_tokens = read ?? 0;
  } else {
    if (write !== undefined) encoded.cache_creation_input_tokens = write;
    if (read !== undefined) encoded.cache_read_input_tokens = read;
  }
  encoded.output_tokens = usage.outputTokens;
  if (usage.reasoningTokens !== undefined)
    encoded.output_tokens_details = { thinking_tokens: usage.reasoningTokens };
  return encoded as Usage;
}
