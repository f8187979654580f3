/**
 * `usageMetadata` ⇄ common usage. generative `promptTokenCount` includes cached
 * tokens; `candidatesTokenCount` excludes thoughts; tool-use prompt tokens are counted apart.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
import type { Loss } from "../../common/loss";
import { loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import type * as generative from "./schema";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const COUNTED = new Set([
  "promptTokenCount",
  "candidatesTokenCount",
  "thoughtsTokenCount",
  "cachedContentTokenCount",
  "toolUsePromptTokenCount",
  "totalTokenCount",
]);

/** `usageMetadata` → common usage; fields without a common slot are reported and kept in `extra`. */
export function decodeGenerativeUsage(
  usage: generative.UsageMetadata,
  source: string,
  losses: Loss[],
): common.Usage {
  const prompt = usage.promptTokenCount ?? 0;
  const toolUse = usage.toolUsePromptTokenCount;
  const thoughts = usage.thoughtsTokenCount;
  for (const key in usage) {
    if (!COUNTED.has(key) && Object.hasOwn(usage, key)) {
      losses.push(
        loss(at(source, key), "dropped", `usageMetadata.${key} has no common equivalent and was dropped.`),
      );
    }
  }
  const decoded: Mutable<common.Usage> = {
    inputTokens: prompt + (toolUse ?? 0),
    outputTokens: (usage.candidatesTokenCount ?? 0) + (thoughts ?? 0),
    source,
  };
  if (usage.cachedContentTokenCount !== undefined) decoded.cacheReadTokens = usage.cachedContentTokenCount;
  if (thoughts !== undefined) decoded.reasoningTokens = thoughts;
  if (toolUse !== undefined) decoded.toolUseInputTokens = toolUse;
  if (usage.totalTokenCount !== undefined) decoded.totalTokens = usage.totalTokenCount;
  decoded.extra = { origin: "generative", raw: { usageMetadata: usage } };
  return decoded;
}

/** common usage → `usageMetadata`; the original object when it came from generative unchanged. */
export function encodeGenerativeUsage(usage: common.Usage): generative.UsageMetadata {
  const original = usage.extra?.origin === "generative" ? usage.extra.raw.usageMetadata : undefined;
  if (original !== undefined && sameFigures(usage, original as generative.UsageMetadata)) {
    return original as generative.UsageMetadata;
  }
  const toolUse = usage.toolUseInputTokens ?? 0;
  const thoughts = usage.reasoningTokens ?? 0;
  const encoded: Mutable<generative.UsageMetadata> = {
    promptTokenCount: Math.max(0, usage.inputTokens - toolUse),
    candidatesTokenCount: Math.max(0, usage.outputTokens - thoughts),
    thoughtsTokenCount: thoughts,
  };
  if (usage.cacheReadTokens !== undefined) encoded.cachedContentTokenCount = usage.cacheReadTokens;
  if (usage.toolUseInputTokens !== undefined) encoded.toolUsePromptTokenCount = usage.toolUseInputTokens;
  encoded.totalTokenCount = usage.totalTokens ?? usage.inputTokens + usage.outputTokens;
  return encoded;
}

/** Whether `original` decodes to the figures of `usage` (as `decodeGenerativeUsage` would read them). */
function sameFigures(usage: common.Usage, original: generative.UsageMetadata): boolean {
  const toolUse = original.toolUsePromptTokenCount;
  const thoughts = original.thoughtsTokenCount;
  return (
    (original.promptTokenCount ?? 0) + (toolUse ?? 0) === usage.inputTokens &&
    (original.candidatesTokenCount ?? 0) + (thoughts ?? 0) === usage.outputTokens &&
    original.cachedContentTokenCount === usage.cacheReadTokens &&
    thoughts === usage.reasoningTokens &&
    toolUse === usage.toolUseInputTokens &&
    original.totalTokenCount === usage.totalTokens
  );
}
