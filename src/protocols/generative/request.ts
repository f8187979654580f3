/**
 * generative request ⇄ common request. The model id and stream flag live in the URL, so they come
 * from `options.model` / `options.stream`.
 * @see https://ai.google.dev/api/generate-content#request-body
 */

import { createPartList } from "../../common/carrier";
import { TranslationError } from "../../common/errors";
import { isKnown, type Keys } from "../../common/json";
import { type Loss, loss, type Translated } from "../../common/loss";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import { at } from "../../common/pointer";
import { checkToolPairing } from "../../common/tool-pairing";
import { readCarrier, withoutSignature } from "./carrier";
import { decodeGenerationConfig, encodeGenerationConfig } from "./config";
import { encodeContents } from "./contents-encode";
import { type CallNaming, decodePart } from "./parts-decode";
import type * as generative from "./schema";
import {
  decodeGenerativeToolConfig,
  decodeGenerativeTools,
  encodeGenerativeToolChoice,
  encodeGenerativeTools,
} from "./tools";

const KNOWN: Keys = [
  "contents",
  "systemInstruction",
  "generationConfig",
  "toolConfig",
  "tools",
  "serviceTier",
];
const SNAKE: Readonly<Record<string, string>> = {
  system_instruction: "systemInstruction",
  generation_config: "generationConfig",
  tool_config: "toolConfig",
  service_tier: "serviceTier",
};

/** Gemini's service tiers in chat's words (the common model's), and back. */
const TIER_IN: Readonly<Record<string, string>> = { standard: "default", flex: "flex", priority: "priority" };
const TIER_OUT: Readonly<Record<string, string>> = {
  default: "standard",
  flex: "flex",
  priority: "priority",
};

/** The model and stream flag of a generative request: both from the URL, so from `options`. */
export function generativeRequestInfo(
  _body: generative.Request,
  options: ResolvedOptions,
): { model: string; stream: boolean } {
  return { model: options.model ?? "", stream: options.stream ?? false };
}

/** generative request → common request; fields without a common slot are reported as dropped. */
export function decodeGenerativeRequest(
  body: generative.Request,
  options: ResolvedOptions,
): Translated<common.Request> {
  const losses: Loss[] = [];
  for (const key of Object.keys(body)) {
    if (!isKnown(KNOWN, SNAKE[key] ?? key)) {
      losses.push(
        loss(at("", key), "dropped", `\`${key}\` has no equivalent outside generative and was dropped.`),
      );
    }
  }
  const systemKey =
    body.systemInstruction === undefined && body.system_instruction !== undefined
      ? "system_instruction"
      : "systemInstruction";
  const configKey =
    body.generationConfig === undefined && body.generation_config !== undefined
      ? "generation_config"
      : "generationConfig";
  const toolConfigKey =
    body.toolConfig === undefined && body.tool_config !== undefined ? "tool_config" : "toolConfig";
  const config = body.generationConfig ?? body.generation_config;
  const info = generativeRequestInfo(body, options);
  const model = info.model;
  const stream = info.stream;
  const system = decodeSystem(body.systemInstruction ?? body.system_instruction, `/${systemKey}`, losses);
  const messages = decodeContents(body.contents, options, losses);
  const tools = decodeGenerativeTools(body.tools, losses);
  const toolChoice = decodeGenerativeToolConfig(
    body.toolConfig ?? body.tool_config,
    `/${toolConfigKey}`,
    losses,
  );
  // Built by assignment, the generation config's fields written straight into the request.
  // The URL says `stream` either way (`:generateContent` or `:streamGenerateContent`) when the caller passes it.
  const value: common.Draft<common.Request> =
    options.stream === undefined
      ? { model, stream, system, messages, tools, toolChoice }
      : { model, stream, streamGiven: true, system, messages, tools, toolChoice };
  if (config !== undefined) decodeGenerationConfig(config, `/${configKey}`, losses, value);
  const tierKey = body.serviceTier !== undefined ? "serviceTier" : "service_tier";
  const tier = (body as Record<string, unknown>)[tierKey];
  if (typeof tier === "string") value.serviceTier = { value: TIER_IN[tier] ?? tier, source: `/${tierKey}` };
  if (options.model === undefined) {
    // The model of a generative request is in its URL; every other protocol carries it in the body.
    throw new TranslationError(
      "Model name not specified: a generative request carries its model in the URL (/models/{model}:generateContent); pass it as options.model.",
      { issues: [{ code: "model_not_specified", path: ["model"], message: "options.model is required" }] },
    );
  }
  return { value, losses };
}

function decodeSystem(
  system: generative.SystemInstruction | undefined,
  source: string,
  losses: Loss[],
): common.SystemBlock[] {
  const blocks: common.SystemBlock[] = [];
  system?.parts.forEach((part, index) => {
    const partSource = `${source}/parts/${index}`;
    if (part.text !== undefined && part.thought !== true)
      blocks.push({ text: part.text, source: partSource });
    else
      losses.push(
        loss(
          partSource,
          "dropped",
          "Only text parts of systemInstruction have an equivalent elsewhere; this part was dropped.",
        ),
      );
  });
  return blocks;
}

function decodeContents(
  contents: readonly generative.Content[],
  options: ResolvedOptions,
  losses: Loss[],
): common.Message[] {
  const messages: common.Message[] = [];
  // Calls of the latest model turn, for naming results that carry no id (by name and order).
  let pending: { id: string | undefined; name: string; answered: boolean }[] = [];
  for (let turn = 0; turn < contents.length; turn++) {
    const content = contents[turn] as generative.Content;
    const source = `/contents/${turn}`;
    const role = content.role === "model" ? "assistant" : "user";
    for (const key in content) {
      if (key !== "role" && key !== "parts" && Object.hasOwn(content, key))
        losses.push(loss(at(source, key), "dropped", `contents.${key} was dropped.`));
    }
    const naming: CallNaming = { seed: `req${turn}`, ordinal: 0 };
    const parts = createPartList(losses);
    const given = content.parts ?? [];
    for (let index = 0; index < given.length; index++) {
      const part = given[index] as generative.Part;
      // A user turn's function response without an id answers the first unanswered call of its name.
      const response = part.functionResponse;
      let matchedId: string | undefined;
      if (
        role === "user" &&
        response !== undefined &&
        response.id === undefined &&
        part.executableCode === undefined &&
        part.codeExecutionResult === undefined
      ) {
        const call = pending.find((candidate) => !candidate.answered && candidate.name === response.name);
        if (call !== undefined) {
          call.answered = true;
          matchedId = call.id;
        }
      }
      const partSource = `${source}/parts/${index}`;
      const decoded = decodePart(part, partSource, role, naming, options, losses, matchedId);
      // Another protocol's reasoning state, carried home in the part's thoughtSignature.
      const carried = readCarrier(decoded, partSource);
      if (carried === undefined) parts.push(decoded);
      else {
        parts.carry(carried, partSource);
        parts.push(withoutSignature(decoded));
      }
    }
    const decoded = parts.parts();
    if (role === "assistant") {
      const calls: { id: string | undefined; name: string; answered: boolean }[] = [];
      for (const part of decoded)
        if (part.type === "tool-call") calls.push({ id: part.id, name: part.name, answered: false });
      if (calls.length > 0) pending = calls;
    }
    messages.push({ role, parts: decoded, source });
  }
  return messages;
}

/** A setting generative has no field for, dropped. */
function settingDropped(source: string, label: string, losses: Loss[]): void {
  losses.push(loss(source, "dropped", `The ${label} setting has no generative equivalent and was dropped.`));
}

/**
 * common request → generative request body (the model id goes in the URL: `translateRequest().model`).
 * A call may go without its result (Gemini takes that); a result of no call is a 400 `TranslationError`.
 */
export function encodeGenerativeRequest(
  request: common.Request,
  options: ResolvedOptions,
): Translated<generative.Request> {
  // Gemini takes a call without its result (recorded histories have them); not a result of no call.
  checkToolPairing(request, true);
  const losses: Loss[] = [];
  const system: generative.Part[] = [];
  for (const block of request.system) {
    if (block.cache !== undefined) {
      losses.push(
        loss(block.cache.source, "dropped", "Cache hints have no generative equivalent and were dropped."),
      );
    }
    if (block.late === true) {
      losses.push(
        loss(
          block.source,
          "approximated",
          "A system message after the conversation began was moved into systemInstruction.",
        ),
      );
    }
    if (block.text !== "") system.push({ text: block.text });
    else
      losses.push(
        loss(block.source, "dropped", "An empty system text has no generative part and was dropped."),
      );
  }
  const contents = encodeContents(request, options, losses);
  // A request of system text only: the last system block becomes the user turn.
  if (contents.length === 0) {
    const last = [...request.system].reverse().find((block) => block.text !== "");
    if (last !== undefined) {
      system.pop();
      contents.push({ role: "user", parts: [{ text: last.text }] });
      losses.push(
        loss(
          last.source,
          "synthesized",
          "The request had no conversation; its last system text was sent as the user turn.",
        ),
      );
    } else {
      contents.push({ role: "user", parts: [{ text: "." }] });
      losses.push(
        loss(
          "/contents",
          "synthesized",
          "The request had no conversation; a minimal user turn was inserted.",
        ),
      );
    }
  }
  // Two settings generative has no field for (no per-call list: this runs on every request).
  if (request.user !== undefined) settingDropped(request.user.source, "user", losses);
  // A tier Gemini has (standard, flex, priority) is sent; `auto` is what none asks for.
  const tier = request.serviceTier;
  const tierOut = tier === undefined ? undefined : TIER_OUT[tier.value];
  if (tier !== undefined && tierOut === undefined && tier.value !== "auto")
    settingDropped(tier.source, `"${tier.value}" service tier`, losses);
  if (request.parallelToolCalls !== undefined)
    settingDropped(request.parallelToolCalls.source, "parallel tool calls", losses);
  if (request.promptCacheKey !== undefined)
    settingDropped(request.promptCacheKey.source, "prompt cache key", losses);
  if (request.promptCacheOptions !== undefined)
    settingDropped(request.promptCacheOptions.source, "prompt cache options", losses);
  if (request.verbosity !== undefined) settingDropped(request.verbosity.source, "verbosity", losses);
  if (request.moderation !== undefined) settingDropped(request.moderation.source, "moderation", losses);
  const tools = encodeGenerativeTools(request.tools, losses);
  const toolConfig = encodeGenerativeToolChoice(request.toolChoice);
  const generationConfig = encodeGenerationConfig(request, losses);
  const value: generative.Request = { contents };
  if (system.length > 0) value.systemInstruction = { parts: system };
  if (generationConfig !== undefined) value.generationConfig = generationConfig;
  if (tools !== undefined) value.tools = tools;
  if (toolConfig !== undefined) value.toolConfig = toolConfig;
  if (tierOut !== undefined) value.serviceTier = tierOut;
  return { value, losses };
}
