/**
 * A fused messages → generative request path: straight from one wire to the other, without the common
 * model, for the shapes most gateway traffic has — a `system` string or text blocks, user and assistant
 * turns of text, base64 images of the types generative takes, `tool_use` blocks with object input and
 * their `tool_result`s of text, thinking blocks (which generative cannot replay), custom tools whose
 * schemas convert without a loss (generative-schema.ts), `tool_choice`, `thinking`, `metadata.user_id`,
 * `cache_control` on any of them, and the sampling fields. The model id goes in the URL: the result's
 * `model` is the request's. The hub (decode to the common model, encode from it) stays the
 * specification: anything else — another field (unknown ones included, which the hub reports), a
 * `null`, a request-level `cache_control`, citations, documents, URL images, a system turn, tool calls
 * and results that do not pair up (the hub's error), results out of their calls' order, a Gemini 3 model
 * (the hub signs its calls), a request with no part to send — returns `undefined`, and the caller takes
 * the hub. What it handles it reports as the hub does, in the hub's order: each `cache_control`
 * dropped, an empty system text or turn dropped, thinking blocks dropped, the user turn inserted
 * before a leading model turn, `metadata.user_id` and `disable_parallel_tool_use` dropped, a strict
 * tool, stop sequences past generative's five, a clamped thinking budget, a clamped `temperature` or
 * `top_p`. Consecutive turns of one role merge, as the hub merges them. Pointers are built only for
 * those losses. test/fused/messages-generative.test.ts checks it against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import { clampGenerative, declareParameters, IMAGE_TYPES, resultsInOrder } from "./generative-target";
import type { Fused } from "./index";
import {
  cachedText,
  cacheReadable,
  messagesFields,
  onlyKeys,
  readSettings,
  ToolPairing,
} from "./messages-fields";

type GenerativeRequest = RequestOf<"generative">;
type Part = Record<string, unknown>;
type Turn = { role: "user" | "model"; parts: Part[]; first: number };
type GenerationConfig = NonNullable<GenerativeRequest["generationConfig"]>;
type Declaration = NonNullable<
  NonNullable<GenerativeRequest["tools"]>[number]["functionDeclarations"]
>[number];

const CACHE_MESSAGE = "Cache hints have no generative equivalent and were dropped.";

/** The hub's loss for the `cache_control` of the node at `base`. */
function cacheDropped(base: string, losses: Loss[]): void {
  losses.push(loss(`${base}/cache_control`, "dropped", CACHE_MESSAGE));
}

/** A tool result's content (a string, or text blocks joined by newlines), its item hints reported; else `undefined`. */
function resultText(content: unknown, base: string, losses: Loss[]): string | undefined {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  let text = "";
  for (let at = 0; at < content.length; at++) {
    const item: unknown = content[at];
    const piece = cachedText(item);
    if (piece === undefined || !cacheReadable(item as Part)) return undefined;
    if ((item as Part).cache_control !== undefined) cacheDropped(`${base}/content/${at}`, losses);
    text = at === 0 ? piece : `${text}\n${piece}`;
  }
  return text;
}

/**
 * One block of message `turn` → its generative parts pushed into `parts` (none for an empty text or a
 * thinking block, with the hub's losses), or `false` for the hub.
 */
function encodeBlock(
  block: unknown,
  role: "user" | "assistant",
  base: string,
  parts: Part[],
  names: Map<string, string>,
  pairing: ToolPairing,
  losses: Loss[],
): boolean {
  if (!isObject(block)) return false;
  switch (block.type) {
    case "text": {
      const text = cachedText(block);
      if (text === undefined || !cacheReadable(block)) return false;
      if (block.cache_control !== undefined) cacheDropped(base, losses);
      if (text !== "") parts.push({ text });
      return true;
    }
    case "image": {
      const source = block.source;
      if (!onlyKeys(block, "type", "source", "cache_control") || !cacheReadable(block) || !isObject(source))
        return false;
      const mediaType = source.media_type;
      const data = source.data;
      if (
        source.type !== "base64" ||
        typeof mediaType !== "string" ||
        typeof data !== "string" ||
        !onlyKeys(source, "type", "media_type", "data") ||
        !IMAGE_TYPES.has(mediaType)
      )
        return false;
      if (block.cache_control !== undefined) cacheDropped(base, losses);
      parts.push({ inlineData: { mimeType: mediaType, data } });
      return true;
    }
    case "tool_use": {
      const { id, name, input } = block;
      if (
        role !== "assistant" ||
        typeof id !== "string" ||
        typeof name !== "string" ||
        !isObject(input) ||
        !onlyKeys(block, "type", "id", "name", "input", "cache_control") ||
        !cacheReadable(block) ||
        !pairing.call(id)
      )
        return false;
      if (block.cache_control !== undefined) cacheDropped(base, losses);
      parts.push({ functionCall: { id, name, args: input } });
      names.set(id, name);
      return true;
    }
    case "tool_result": {
      const id = block.tool_use_id;
      const isError = block.is_error;
      if (
        role !== "user" ||
        typeof id !== "string" ||
        (isError !== undefined && typeof isError !== "boolean") ||
        !onlyKeys(block, "type", "tool_use_id", "content", "is_error", "cache_control") ||
        !cacheReadable(block) ||
        !pairing.result(id)
      )
        return false;
      const name = names.get(id);
      if (name === undefined) return false;
      // The result's own hint first, then its items' (as the hub reports them).
      if (block.cache_control !== undefined) cacheDropped(base, losses);
      const text = resultText(block.content, base, losses);
      if (text === undefined) return false;
      const response = isError === true ? { error: text } : { content: text };
      parts.push({ functionResponse: { id, name, response } });
      return true;
    }
    case "thinking":
    case "redacted_thinking":
      if (
        block.type === "thinking"
          ? typeof block.thinking !== "string" ||
            typeof block.signature !== "string" ||
            !onlyKeys(block, "type", "thinking", "signature")
          : typeof block.data !== "string" || !onlyKeys(block, "type", "data")
      )
        return false;
      losses.push(
        loss(base, "dropped", "Reasoning from messages cannot be replayed to generative and was dropped."),
      );
      return true;
    default:
      return false;
  }
}

/** Thinking budgets per model family, as the hub's table has them: [min, max], and whether 0 (off) is allowed. */
function budgetRange(model: string): { min: number; max: number; canDisable: boolean } {
  if (/2\.5-pro/.test(model)) return { min: 128, max: 32768, canDisable: false };
  if (/flash-lite/.test(model)) return { min: 512, max: 24576, canDisable: true };
  return { min: 0, max: 24576, canDisable: true };
}

/** messages → generative for the plain shapes, or `undefined` for the hub. Never throws. */
export function messagesToGenerativeRequest(
  body: unknown,
  _options: ResolvedOptions,
): Fused<GenerativeRequest> | undefined {
  const fields = messagesFields(body);
  if (fields === undefined) return undefined;
  const { model, messages, system } = fields;
  // Gemini 3 models get a signature sentinel on replayed calls: the hub's.
  if (/gemini-3/.test(model)) return undefined;
  const settings = readSettings(fields);
  if (settings === undefined) return undefined;
  const { choice, thinking, user, tools } = settings;

  // systemInstruction: each text that is not empty, each hint and empty text reported first.
  const losses: Loss[] = [];
  const systemParts: { text: string }[] = [];
  if (typeof system === "string") {
    if (system !== "") systemParts.push({ text: system });
    else
      losses.push(loss("/system", "dropped", "An empty system text has no generative part and was dropped."));
  } else if (Array.isArray(system)) {
    for (let index = 0; index < system.length; index++) {
      const block: unknown = system[index];
      const text = cachedText(block);
      if (text === undefined || !cacheReadable(block as Part)) return undefined;
      if ((block as Part).cache_control !== undefined) cacheDropped(`/system/${index}`, losses);
      if (text !== "") systemParts.push({ text });
      else
        losses.push(
          loss(`/system/${index}`, "dropped", "An empty system text has no generative part and was dropped."),
        );
    }
  } else if (system !== undefined) return undefined;

  // The turns: each message's parts, an empty one dropped, consecutive turns of one role merged.
  const turns: Turn[] = [];
  const names = new Map<string, string>();
  const pairing = new ToolPairing();
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (!isObject(message)) return undefined;
    const role = message.role;
    const content = message.content;
    let count = 0;
    for (const _ in message) count++;
    if (count !== 2 || (role !== "user" && role !== "assistant") || !pairing.turn(role)) return undefined;
    const parts: Part[] = [];
    const reported = losses.length;
    if (typeof content === "string") {
      if (content !== "") parts.push({ text: content });
    } else if (Array.isArray(content)) {
      for (let at = 0; at < content.length; at++)
        if (
          !encodeBlock(content[at], role, `/messages/${index}/content/${at}`, parts, names, pairing, losses)
        )
          return undefined;
    } else return undefined;
    if (parts.length === 0) {
      if (losses.length === reported)
        losses.push(
          loss(
            `/messages/${index}`,
            "dropped",
            "An empty message has no generative equivalent and was dropped.",
          ),
        );
      continue;
    }
    const wire = role === "assistant" ? "model" : "user";
    const previous = turns[turns.length - 1];
    if (previous !== undefined && previous.role === wire) for (const part of parts) previous.parts.push(part);
    else turns.push({ role: wire, parts, first: index });
  }
  if (!pairing.done() || turns.length === 0) return undefined;
  if (!resultsInOrder(turns)) return undefined;
  const first = turns[0] as Turn;
  if (first.role !== "user") {
    turns.unshift({ role: "user", parts: [{ text: "." }], first: -1 });
    losses.push(
      loss(
        `/messages/${first.first}`,
        "synthesized",
        "generative conversations start with a user turn; a minimal one was inserted.",
      ),
    );
  }

  // The settings generative has no field for, then the tools, then the generation config.
  if (user !== undefined)
    losses.push(
      loss("/metadata/user_id", "dropped", "The user setting has no generative equivalent and was dropped."),
    );
  const disableParallel = choice?.disableParallel;
  if (disableParallel !== undefined)
    losses.push(
      loss(
        "/tool_choice/disable_parallel_tool_use",
        "dropped",
        "The parallel tool calls setting has no generative equivalent and was dropped.",
      ),
    );
  let declarations: Declaration[] | undefined;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index] as (typeof tools)[number];
    if (tool.strict === true)
      losses.push(
        loss(`/tools/${index}/strict`, "dropped", "`strict` has no generative equivalent and was dropped."),
      );
    if (tool.cached) cacheDropped(`/tools/${index}`, losses);
    const declaration: Declaration =
      tool.description === undefined
        ? { name: tool.name }
        : { name: tool.name, description: tool.description };
    declareParameters(declaration, tool.schema, `/tools/${index}/input_schema`, losses);
    declarations ??= [];
    declarations.push(declaration);
  }

  const stop = fields.stop;
  let stopSequences: string[] | undefined;
  if (stop !== undefined) {
    stopSequences = stop.slice(0, 5);
    for (let index = 5; index < stop.length; index++)
      losses.push(
        loss(
          `/stop_sequences/${index}`,
          "dropped",
          `generative accepts at most 5 stop sequences; ${JSON.stringify(stop[index])} was dropped.`,
        ),
      );
  }
  let thinkingConfig: GenerationConfig["thinkingConfig"];
  if (thinking !== undefined) {
    const range = budgetRange(model);
    const budget = thinking.budget;
    if (!thinking.enabled) {
      if (range.canDisable) thinkingConfig = { thinkingBudget: 0 };
      else {
        losses.push(
          loss(
            "/thinking",
            "clamped",
            `This model cannot turn thinking off; the smallest budget ${range.min} was sent.`,
          ),
        );
        thinkingConfig = { thinkingBudget: range.min };
      }
    } else if (budget === undefined) thinkingConfig = { thinkingBudget: -1, includeThoughts: true };
    else {
      const clamped = Math.min(range.max, Math.max(range.min, budget));
      if (clamped !== budget)
        losses.push(
          loss(
            "/thinking/budget_tokens",
            "clamped",
            `A thinking budget of ${budget} is outside this model's range ${range.min}–${range.max}; ${clamped} was sent.`,
          ),
        );
      thinkingConfig = { thinkingBudget: clamped, includeThoughts: true };
    }
  }
  const config: GenerationConfig = {};
  if (fields.temperature !== undefined)
    config.temperature = clampGenerative(fields.temperature, 2, "temperature", losses);
  if (fields.topP !== undefined) config.topP = clampGenerative(fields.topP, 1, "top_p", losses);
  if (fields.topK !== undefined) config.topK = fields.topK;
  config.maxOutputTokens = fields.maxTokens;
  if (stopSequences !== undefined) config.stopSequences = stopSequences;
  if (thinkingConfig !== undefined) config.thinkingConfig = thinkingConfig;

  const contents: GenerativeRequest["contents"] = [];
  for (const turn of turns) contents.push({ role: turn.role, parts: turn.parts });
  const value: GenerativeRequest = { contents };
  if (systemParts.length > 0) value.systemInstruction = { parts: systemParts };
  value.generationConfig = config;
  if (declarations !== undefined) value.tools = [{ functionDeclarations: declarations }];
  if (choice !== undefined) {
    const mode = choice.type === "auto" ? "AUTO" : choice.type === "none" ? "NONE" : "ANY";
    value.toolConfig =
      choice.type === "tool"
        ? { functionCallingConfig: { mode, allowedFunctionNames: [choice.name as string] } }
        : { functionCallingConfig: { mode } };
  }
  return { value, losses, model, stream: fields.stream === true };
}
