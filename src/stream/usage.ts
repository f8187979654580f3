import type * as common from "../common/model";
import { resolveOptions } from "../common/options";
import { checkProtocol } from "../common/protocol-id";
import { normalizeUsage, type Usage } from "../common/usage";
import { adapters, protocols } from "../protocols";
import { guarded, validated } from "../validate";
import { decodeEvents } from "./translator";

/** The usage a stream part carries (cumulative: a later one replaces an earlier one). */
export function usageOfPart(part: common.StreamPart): common.Usage | undefined {
  return part.type === "usage" || part.type === "response-start" ? part.usage : undefined;
}

/**
 * The usage a response or a stream reported, in one shape whichever the protocol (`Usage`: cached
 * tokens are part of `input`, reasoning part of `output`, `total` is `input + output`). An array is a
 * stream's events (its last figures: they are cumulative; a stream cut off gives what arrived), anything
 * else a whole response. `undefined` when it carried no usage. Input that is not the protocol's shape
 * is a TranslationError (400).
 * @example
 * usageOf("chat", { …, usage: { prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 80 } } })
 * // => { input: 100, cachedRead: 80, cacheWrite: 0, output: 20, reasoning: 0, total: 120 }
 */
export function usageOf(protocol: common.Protocol, responseOrEvents: unknown): Usage | undefined {
  checkProtocol(protocol, protocols, "protocol");
  const options = resolveOptions(undefined);
  if (Array.isArray(responseOrEvents)) {
    return guarded(protocol, "stream", () => {
      let last: common.Usage | undefined;
      decodeEvents(protocol, responseOrEvents, options, (part) => {
        last = usageOfPart(part) ?? last;
      });
      return last === undefined ? undefined : normalizeUsage(last);
    });
  }
  const adapter = adapters[protocol];
  const input = validated(adapter, "response", protocol, responseOrEvents, options);
  return guarded(protocol, "response", () => {
    const usage = adapter.decodeResponse(input, options).value.usage;
    return usage === undefined ? undefined : normalizeUsage(usage);
  });
}
