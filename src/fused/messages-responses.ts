/**
 * A fused messages → responses request path: straight from one wire to the other, without the common
 * model, for the shapes most gateway traffic has — a `system` string or text blocks, user and assistant
 * turns of text, base64 or URL images in user turns, `tool_use` blocks with object input and their
 * `tool_result`s of text, thinking blocks (which responses cannot replay), custom tools, `tool_choice`,
 * `thinking`, `metadata.user_id`, `cache_control` on text, images, results and tools, and the sampling
 * fields. The hub (decode to the common model, encode from it) stays the specification: anything else —
 * another field (unknown ones included, which the hub reports), a `null`, a request-level
 * `cache_control`, a `cache_control` on a `tool_use` block (which the hub's encoder passes over without
 * a word), citations, documents, a system turn, tool calls and results that do not pair up (the hub's
 * error) — returns `undefined`, and the caller takes the hub. What it handles it reports as the hub
 * does, in the hub's order: each `cache_control` dropped, an error result sent as ordinary output,
 * thinking blocks dropped, `max_output_tokens` raised to 16, a clamped `temperature` or `top_p`,
 * `top_k` and the stop sequences dropped, the thinking switch dropped or its budget made an effort.
 * Pointers are built only for those losses. test/fused/messages-responses.test.ts checks it against the
 * hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { dataUrl } from "../common/media";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import type { Fused } from "./index";
import {
  cachedText,
  cacheReadable,
  messagesFields,
  onlyKeys,
  readSettings,
  stringify,
  ToolPairing,
} from "./messages-fields";
import { clampResponses, responsesBudget } from "./responses-target";

type ResponsesRequest = RequestOf<"responses">;
type InputItem = Extract<NonNullable<ResponsesRequest["input"]>, readonly unknown[]>[number];
type Raw = Record<string, unknown>;
type TextPart = { type: "input_text"; text: string };

const CACHE_MESSAGE = "The responses protocol caches prompts by itself; `cache_control` was dropped.";

/** The hub's loss for the `cache_control` of the node at `base`. */
function cacheDropped(base: string, losses: Loss[]): void {
  losses.push(loss(`${base}/cache_control`, "dropped", CACHE_MESSAGE));
}

/** A thinking or redacted_thinking block of a plain shape. */
function isThinking(block: Raw): boolean {
  return block.type === "thinking"
    ? typeof block.thinking === "string" &&
        typeof block.signature === "string" &&
        onlyKeys(block, "type", "thinking", "signature")
    : block.type === "redacted_thinking" && typeof block.data === "string" && onlyKeys(block, "type", "data");
}

/** A user image block → an `input_image` part (its hint reported), or `undefined` for the hub. */
function imagePart(block: Raw, base: string, losses: Loss[]): Raw | undefined {
  const source = block.source;
  if (!onlyKeys(block, "type", "source", "cache_control") || !cacheReadable(block) || !isObject(source))
    return undefined;
  let url: string;
  if (source.type === "base64") {
    const { media_type: mediaType, data } = source;
    if (
      typeof mediaType !== "string" ||
      typeof data !== "string" ||
      !onlyKeys(source, "type", "media_type", "data")
    )
      return undefined;
    url = dataUrl(mediaType, data);
  } else if (source.type === "url" && typeof source.url === "string" && onlyKeys(source, "type", "url"))
    url = source.url;
  else return undefined;
  if (block.cache_control !== undefined) cacheDropped(base, losses);
  return { type: "input_image", image_url: url };
}

/** A tool result's `output`: one uncached text as a string, several as parts; else `undefined`. */
function resultOutput(content: unknown, base: string, losses: Loss[]): string | TextPart[] | undefined {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  if (content.length === 0) return "";
  const first: unknown = content[0];
  if (content.length === 1 && isObject(first) && first.cache_control === undefined) return cachedText(first);
  const parts: TextPart[] = [];
  for (let at = 0; at < content.length; at++) {
    const item: unknown = content[at];
    const text = cachedText(item);
    if (text === undefined || !cacheReadable(item as Raw)) return undefined;
    if ((item as Raw).cache_control !== undefined) cacheDropped(`${base}/content/${at}`, losses);
    parts.push({ type: "input_text", text });
  }
  return parts;
}

/** A user turn of blocks → its items pushed into `items`, or `false` for the hub. */
/**
 * The parts gathered so far of a turn as one message item: one text as a string (the hub's plain
 * message), else the parts; nothing when there are none.
 */
function flushTurn(role: "user" | "assistant", content: Raw[], items: InputItem[]): void {
  if (content.length === 0) return;
  const only = content[0] as Raw;
  const plain = content.length === 1 && only.type === (role === "user" ? "input_text" : "output_text");
  items.push({ role, content: plain ? only.text : content } as InputItem);
}

function userTurn(
  blocks: readonly unknown[],
  turn: number,
  pairing: ToolPairing,
  items: InputItem[],
  losses: Loss[],
): boolean {
  let content: Raw[] = [];
  for (let index = 0; index < blocks.length; index++) {
    const block: unknown = blocks[index];
    if (!isObject(block)) return false;
    const base = `/messages/${turn}/content/${index}`;
    if (block.type === "text") {
      const text = cachedText(block);
      if (text === undefined || !cacheReadable(block)) return false;
      if (block.cache_control !== undefined) cacheDropped(base, losses);
      content.push({ type: "input_text", text });
    } else if (block.type === "image") {
      const part = imagePart(block, base, losses);
      if (part === undefined) return false;
      content.push(part);
    } else if (block.type === "tool_result") {
      const id = block.tool_use_id;
      const isError = block.is_error;
      if (
        typeof id !== "string" ||
        (isError !== undefined && typeof isError !== "boolean") ||
        !onlyKeys(block, "type", "tool_use_id", "content", "is_error", "cache_control") ||
        !cacheReadable(block) ||
        !pairing.result(id)
      )
        return false;
      if (content.length > 0) {
        flushTurn("user", content, items);
        content = [];
      }
      if (isError === true)
        losses.push(
          loss(
            base,
            "approximated",
            "responses function outputs have no error flag; the error result was sent as ordinary output.",
          ),
        );
      if (block.cache_control !== undefined) cacheDropped(base, losses);
      const output = resultOutput(block.content, base, losses);
      if (output === undefined) return false;
      items.push({ type: "function_call_output", call_id: id, output } as InputItem);
    } else if (isThinking(block))
      losses.push(
        loss(base, "dropped", "A reasoning part cannot appear in a responses user turn and was dropped."),
      );
    else return false;
  }
  flushTurn("user", content, items);
  return true;
}

/** An assistant turn of blocks → its items pushed into `items`, or `false` for the hub. */
function assistantTurn(
  blocks: readonly unknown[],
  turn: number,
  pairing: ToolPairing,
  items: InputItem[],
  losses: Loss[],
): boolean {
  let content: Raw[] = [];
  for (let index = 0; index < blocks.length; index++) {
    const block: unknown = blocks[index];
    if (!isObject(block)) return false;
    const base = `/messages/${turn}/content/${index}`;
    if (block.type === "text") {
      const text = cachedText(block);
      if (text === undefined || !cacheReadable(block)) return false;
      if (block.cache_control !== undefined) cacheDropped(base, losses);
      content.push({ type: "output_text", text });
    } else if (block.type === "tool_use") {
      const { id, name, input } = block;
      if (
        typeof id !== "string" ||
        typeof name !== "string" ||
        !isObject(input) ||
        !onlyKeys(block, "type", "id", "name", "input") ||
        !pairing.call(id)
      )
        return false;
      const args = stringify(input);
      if (args === undefined) return false;
      if (content.length > 0) {
        flushTurn("assistant", content, items);
        content = [];
      }
      items.push({ type: "function_call", call_id: id, name, arguments: args } as InputItem);
    } else if (isThinking(block)) {
      if (content.length > 0) {
        flushTurn("assistant", content, items);
        content = [];
      }
      losses.push(
        loss(
          base,
          "dropped",
          "Reasoning of the messages protocol cannot be replayed to a responses service (its reasoning items are valid only with the ids and encrypted content it issued) and was dropped.",
        ),
      );
    } else return false;
  }
  flushTurn("assistant", content, items);
  return true;
}

/** Reasoning budget → responses effort: up to 1,024 tokens low, up to 8,192 medium, above high (the hub's table). */
function effortForBudget(budget: number): "low" | "medium" | "high" {
  if (budget <= 1024) return "low";
  if (budget <= 8192) return "medium";
  return "high";
}

/** messages → responses for the plain shapes, or `undefined` for the hub. Never throws. */
export function messagesToResponsesRequest(
  body: unknown,
  _options: ResolvedOptions,
): Fused<ResponsesRequest> | undefined {
  const fields = messagesFields(body);
  if (fields === undefined) return undefined;
  const { model, messages, system } = fields;
  const settings = readSettings(fields);
  if (settings === undefined) return undefined;
  const { choice, thinking, user, tools } = settings;

  // The system: one text is `instructions`, several one system item of input_text parts.
  const losses: Loss[] = [];
  const items: InputItem[] = [];
  let instructions: string | undefined;
  if (typeof system === "string") instructions = system;
  else if (Array.isArray(system)) {
    const parts: TextPart[] = [];
    for (let index = 0; index < system.length; index++) {
      const block: unknown = system[index];
      const text = cachedText(block);
      if (text === undefined || !cacheReadable(block as Raw)) return undefined;
      if ((block as Raw).cache_control !== undefined) cacheDropped(`/system/${index}`, losses);
      parts.push({ type: "input_text", text });
    }
    if (parts.length === 1) instructions = (parts[0] as TextPart).text;
    else if (parts.length > 1) items.push({ role: "system", content: parts } as InputItem);
  } else if (system !== undefined) return undefined;

  const pairing = new ToolPairing();
  for (let turn = 0; turn < messages.length; turn++) {
    const message: unknown = messages[turn];
    if (!isObject(message)) return undefined;
    const role = message.role;
    const content = message.content;
    let count = 0;
    for (const _ in message) count++;
    if (count !== 2 || (role !== "user" && role !== "assistant") || !pairing.turn(role)) return undefined;
    if (typeof content === "string") items.push({ role, content } as InputItem);
    else if (!Array.isArray(content)) return undefined;
    else if (!(role === "user" ? userTurn : assistantTurn)(content, turn, pairing, items, losses))
      return undefined;
  }
  if (!pairing.done()) return undefined;

  // The tools, then the budget, the sampling fields and the settings, in the hub's order.
  let sentTools: Raw[] | undefined;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index] as (typeof tools)[number];
    if (tool.cached)
      losses.push(
        loss(
          `/tools/${index}/cache_control`,
          "dropped",
          "responses tools take no `cache_control`; it was dropped.",
        ),
      );
    const encoded: Raw =
      tool.description === undefined
        ? { type: "function", name: tool.name }
        : { type: "function", name: tool.name, description: tool.description };
    encoded.parameters = tool.schema;
    encoded.strict = tool.strict ?? false;
    sentTools ??= [];
    sentTools.push(encoded);
  }
  const value: ResponsesRequest = { model };
  if (instructions !== undefined) value.instructions = instructions;
  value.input = items;
  if (fields.stream === true) value.stream = true;
  value.max_output_tokens = responsesBudget(fields.maxTokens, "/max_tokens", losses);
  if (fields.temperature !== undefined)
    value.temperature = clampResponses(fields.temperature, 2, "/temperature", "temperature", losses);
  if (fields.topP !== undefined) value.top_p = clampResponses(fields.topP, 1, "/top_p", "top_p", losses);
  if (fields.topK !== undefined)
    losses.push(loss("/top_k", "dropped", "responses has no `top_k`; it was dropped."));
  // An empty list stops on nothing: nothing is dropped.
  if (fields.stop !== undefined && fields.stop.length > 0)
    losses.push(loss("/stop_sequences", "dropped", "responses has no stop sequences; they were dropped."));
  if (sentTools !== undefined) value.tools = sentTools as ResponsesRequest["tools"];
  if (choice !== undefined) {
    value.tool_choice =
      choice.type === "tool"
        ? { type: "function", name: choice.name as string }
        : choice.type === "any"
          ? "required"
          : choice.type;
    if (choice.disableParallel !== undefined) value.parallel_tool_calls = !choice.disableParallel;
  }
  if (thinking !== undefined) {
    if (!thinking.enabled)
      losses.push(
        loss(
          "/thinking",
          "dropped",
          "responses models choose how much to reason; the switch that turned thinking off was dropped (the lowest effort a model takes is model-specific).",
        ),
      );
    else if (thinking.budget !== undefined) {
      const effort = effortForBudget(thinking.budget);
      losses.push(
        loss(
          "/thinking/budget_tokens",
          "approximated",
          `responses has no thinking budget; ${thinking.budget} tokens became the effort "${effort}".`,
        ),
      );
      value.reasoning = { effort };
    }
  }
  if (user !== undefined) value.user = user;
  return { value, losses, model, stream: fields.stream === true };
}
