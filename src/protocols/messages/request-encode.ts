/** common request → messages request: every field messages cannot carry becomes a loss. */
import type { Loss, Translated } from "../../common/loss";
import { loss } from "../../common/loss";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import { fitRequestToolIds } from "../../common/tool-id";
import { answerToolCalls } from "../../common/tool-pairing";
import { jsonModeFor } from "./models";
import {
  encodeResponseFormat,
  encodeSampling,
  encodeThinking,
  encodeToolChoice,
  encodeTools,
  historyAllowsThinking,
} from "./request-settings";
import { encodeSystem, encodeTurns, ensureUserFirst, toMessage } from "./request-turns";
import type { Request } from "./schema";
import { TOOL_IDS } from "./tool-id";

/**
 * Whether `text` holds what `/\S+@\S+\.\S+/` finds (an e-mail-like run), in one pass: the pattern
 * backtracks quadratically over a long run without spaces (a 176 KB `user` took 6 s, and a client sends
 * it). A run of non-space characters holds one when an `@` past its first character has a `.` after it
 * with at least one character between them and one after it. test/protocols/messages/email.test.ts
 * holds it equal to the pattern.
 */
export function looksLikeEmail(text: string): boolean {
  if (!text.includes("@")) return false;
  for (const run of text.split(/\s+/)) {
    const at = run.indexOf("@", 1);
    if (at >= 0 && run.lastIndexOf(".", run.length - 2) >= at + 2) return true;
  }
  return false;
}

function dropUnsupported(request: common.Request, losses: Loss[]): void {
  const drop = (given: common.Given<unknown> | undefined, name: string) => {
    if (given !== undefined)
      losses.push(
        loss(given.source, "dropped", `\`${name}\` has no messages-protocol equivalent and was dropped.`),
      );
  };
  drop(request.presencePenalty, "presence_penalty");
  drop(request.frequencyPenalty, "frequency_penalty");
  drop(request.seed, "seed");
  drop(request.logprobs, "logprobs");
  drop(request.topLogprobs, "top_logprobs");
  // The messages API caches by `cache_control` breakpoints, not by a key; it has no verbosity.
  drop(request.promptCacheKey, "prompt_cache_key");
  drop(request.promptCacheOptions, "prompt_cache_options");
  drop(request.moderation, "moderation");
  drop(request.verbosity, "verbosity");
  if (request.candidateCount !== undefined && request.candidateCount.value !== 1) {
    drop(request.candidateCount, "n (several candidates)");
  }
}

/** The user → `metadata.user_id`, written into `into`. */
function encodeMetadata(request: common.Request, losses: Loss[], into: Pick<Request, "metadata">): void {
  const user = request.user;
  if (user === undefined) return;
  if (looksLikeEmail(user.value)) {
    losses.push(
      loss(
        user.source,
        "dropped",
        "The messages API rejects personal identifiers such as e-mail addresses in `metadata.user_id`; the user was dropped.",
      ),
    );
    return;
  }
  into.metadata = { user_id: user.value };
}

/**
 * The service tier: `auto` as itself, `default` (chat's and responses' word) as `standard_only`; the
 * other tiers (`flex`, `scale`, `priority` …) have no messages form.
 */
function encodeServiceTier(
  request: common.Request,
  losses: Loss[],
  into: Pick<Request, "service_tier">,
): void {
  const tier = request.serviceTier;
  if (tier === undefined) return;
  const value = tier.value;
  if (value === "auto" || value === "default" || value === "standard_only") {
    into.service_tier = value === "auto" ? "auto" : "standard_only";
    return;
  }
  losses.push(
    loss(
      tier.source,
      "dropped",
      `Service tier \`${value}\` has no messages equivalent (it has \`auto\` and \`standard_only\`) and was dropped.`,
    ),
  );
}

/**
 * common request → messages request. A tool call without its result gets one saying it was not
 * answered; a result of no call is a 400 `TranslationError` naming the id; tool ids messages refuses are
 * rewritten (common/tool-id.ts).
 */
export function encodeMessagesRequest(
  original: common.Request,
  options: ResolvedOptions,
): Translated<Request> {
  const losses: Loss[] = [];
  const request = fitRequestToolIds(answerToolCalls(original, "messages", losses), TOOL_IDS, losses);
  const encoded = encodeSystem(request, encodeTurns(request, options, losses), losses);
  // With no conversation left, the placeholder points at the first source message (or the messages field).
  const turns = ensureUserFirst(encoded.turns, request.messages[0]?.source ?? "/messages", losses);
  const given = request.maxTokens;
  // A budget from `options.maxTokens` is the caller's choice: only the library's default is made up.
  if (given === undefined && !options.maxTokensGiven) {
    losses.push(
      loss(
        "/max_tokens",
        "synthesized",
        `The messages API requires \`max_tokens\`; ${options.maxTokens} was used.`,
      ),
    );
  }
  let maxTokens = given?.value ?? options.maxTokens;
  if (given !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 1)) {
    maxTokens = Math.max(1, Math.round(maxTokens));
    losses.push(
      loss(
        given.source,
        "clamped",
        `The messages API needs a whole \`max_tokens\` of at least 1; ${given.value} became ${maxTokens}.`,
      ),
    );
  }
  const budget = {
    value: maxTokens,
    given: given !== undefined,
    source: given?.source ?? "/max_tokens",
  };
  const thinkingLosses: Loss[] = [];
  let reasoning = encodeThinking(request.reasoning, budget, request.model, thinkingLosses);
  if (
    (reasoning.thinking?.type === "enabled" || reasoning.thinking?.type === "adaptive") &&
    !historyAllowsThinking(turns) &&
    request.reasoning !== undefined
  ) {
    // Thinking goes altogether: how its budget would have been made is no longer a loss of its own.
    losses.push(
      loss(
        request.reasoning.source,
        "dropped",
        "The conversation's last tool-use turn has no thinking block the messages API can accept, so thinking was turned off.",
      ),
    );
    reasoning = { maxTokens: budget.value };
  } else for (const entry of thinkingLosses) losses.push(entry);
  const thinkingOn = reasoning.thinking?.type === "enabled" || reasoning.thinking?.type === "adaptive";
  const tools = encodeTools(request.tools, losses);
  const format = encodeResponseFormat(
    request,
    reasoning.thinking?.type === "enabled",
    options.jsonMode ?? jsonModeFor(options.targetModel ?? request.model),
    losses,
  );
  const allTools = format.tool === undefined ? tools : [...tools, format.tool];
  const choice =
    format.choice ??
    encodeToolChoice(request, allTools.length > 0, reasoning.thinking?.type === "enabled", losses);
  dropUnsupported(request, losses);
  // Assigned field by field in wire order: conditional spreads cost a runtime copy each.
  const model = request.model;
  const system = encoded.system;
  const value: Request =
    system === undefined
      ? { model, max_tokens: reasoning.maxTokens, messages: turns.map(toMessage) }
      : { model, max_tokens: reasoning.maxTokens, system, messages: turns.map(toMessage) };
  if (allTools.length > 0) value.tools = allTools;
  if (choice !== undefined) value.tool_choice = choice;
  if (reasoning.thinking !== undefined) value.thinking = reasoning.thinking;
  if (reasoning.effort !== undefined || format.outputFormat !== undefined) {
    const config: NonNullable<Request["output_config"]> = {};
    if (reasoning.effort !== undefined) config.effort = reasoning.effort;
    if (format.outputFormat !== undefined) config.format = format.outputFormat;
    value.output_config = config;
  }
  encodeSampling(request, thinkingOn, losses, value);
  encodeMetadata(request, losses, value);
  encodeServiceTier(request, losses, value);
  value.stream = request.stream;
  return { value, losses };
}
