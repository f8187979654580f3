/**
 * `usageMetadata` ⇄ common usage (research F6, F7). generative `promptTokenCount` includes cached
 * tokens; `candidatesTokenCount` excludes thoughts; tool-use prompt tokens are counted apart.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
import type { Loss } from "../../common/loss";
import { loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import type * as generative from "./schema";

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
  for (const key of Object.keys(usage)) {
    if (!COUNTED.has(key)) {
      losses.push(
        loss(at(source, key), "dropped", `usageMetadata.${key} has no common equivalent and was dropped.`),
      );
    }
  }
  return {
    inputTokens: prompt + (toolUse ?? 0),
    outputTokens: (usage.candidatesTokenCount ?? 0) + (thoughts ?? 0),
    ...(usage.cachedContentTokenCount === undefined
      ? {}
      : { cacheReadTokens: usage.cachedContentTokenCount }),
    ...(thoughts === undefined ? {} : { reasoningTokens: thoughts }),
    ...(toolUse === undefined ? {} : { toolUseInputTokens: toolUse }),
    ...(usage.totalTokenCount === undefined ? {} : { totalTokens: usage.totalTokenCount }),
    extra: { origin: "generative", raw: { usageMetadata: usage } },
    source,
  };
}

/** common usage → `usageMetadata`; the original object when it came from generative unchanged. */
export function encodeGenerativeUsage(usage: common.Usage): generative.UsageMetadata {
  const original = usage.extra?.origin === "generative" ? usage.extra.raw.usageMetadata : undefined;
  if (original !== undefined && sameFigures(usage, original as generative.UsageMetadata)) {
    return original as generative.UsageMetadata;
  }
  const toolUse = usage.toolUseInputTokens ?? 0;
  const thoughts = usage.reasoningTokens ?? 0;
  return {
    promptTokenCount: Math.max(0, usage.inputTokens - toolUse),
    candidatesTokenCount: Math.max(0, usage.outputTokens - thoughts),
    thoughtsTokenCount: thoughts,
    ...(usage.cacheReadTokens === undefined ? {} : { cachedContentTokenCount: usage.cacheReadTokens }),
    ...(usage.toolUseInputTokens === undefined ? {} : { toolUsePromptTokenCount: usage.toolUseInputTokens }),
    totalTokenCount: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
  };
}

function sameFigures(usage: common.Usage, original: generative.UsageMetadata): boolean {
  const decoded = decodeGenerativeUsage(original, usage.source, []);
  return (
    decoded.inputTokens === usage.inputTokens &&
    decoded.outputTokens === usage.outputTokens &&
    decoded.cacheReadTokens === usage.cacheReadTokens &&
    decoded.reasoningTokens === usage.reasoningTokens &&
    decoded.toolUseInputTokens === usage.toolUseInputTokens &&
    decoded.totalTokens === usage.totalTokens
  );
}
