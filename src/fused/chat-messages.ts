/**
 * A fused chat → messages request path: straight from one wire to the other, without the common
 * model, for the shapes most gateway traffic has — leading system messages, user messages of text or
 * content parts (text, and images by data: or https URL), assistant messages of text and function tool
 * calls, `tool` messages answering them, function tools with a `tool_choice` and `parallel_tool_calls`,
 * message `name`s, and the sampling fields. It knows two wires, so it lives outside both protocol
 * folders; the hub (decode to the common model, encode from it) stays the specification. Anything this
 * path does not handle exactly as the hub would — another field (unknown ones included, which the hub
 * reports), a `null`, `cache_control`, refusals and reasoning, another tool or call type, a late system
 * message, blank or whitespace-edged text the hub drops or trims, an empty message, an image type
 * messages does not take, calls and results that do not pair up (the hub's error), an assistant turn
 * first — returns `undefined`, and the caller takes the hub. Consecutive messages of one role are
 * merged into one turn and tool results put first in their turn, in the order of their calls, as the
 * hub does (messages-target.ts). What it handles it reports as the hub does, in the hub's order: a
 * system message's `name`, then each message's `name` and image `detail`, tool-call arguments that are
 * not a JSON object, the synthesized `max_tokens`, a strict tool's flag, a forcing `tool_choice` without
 * tools, a clamped `temperature` or `top_p`, `top_p` dropped beside `temperature`, whitespace-only stop
 * sequences. Pointers are built only for those losses. test/fused/chat-messages.test.ts checks it
 * against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import type { Fused } from "./index";
import { onlyKeys, ToolPairing } from "./messages-fields";
import {
  budgetSynthesized,
  type Choice,
  callInput,
  customTool,
  detailDropped,
  imageBlock,
  type MessagesTool,
  MessagesTurns,
  nameDropped,
  sampling,
  toolChoice,
} from "./messages-target";
import { isNumber } from "./number";

type MessagesRequest = RequestOf<"messages">;

/** Text the hub keeps as it is: not blank (it drops a blank text block). */
const kept = (text: unknown): text is string => typeof text === "string" && text.trim() !== "";

/** A user message's content parts (text, images) as blocks of the current turn, or `false` for the hub. */
function userParts(parts: readonly unknown[], at: string, turns: MessagesTurns, losses: Loss[]): boolean {
  for (let index = 0; index < parts.length; index++) {
    const part: unknown = parts[index];
    if (!isObject(part)) return false;
    if (part.type === "text") {
      if (!kept(part.text) || !onlyKeys(part, "type", "text")) return false;
      turns.block({ type: "text", text: part.text });
      continue;
    }
    const image = part.image_url;
    if (part.type !== "image_url" || !isObject(image) || !onlyKeys(part, "type", "image_url")) return false;
    const { url, detail } = image;
    if (typeof url !== "string" || !onlyKeys(image, "url", "detail")) return false;
    if (detail !== undefined) {
      if (typeof detail !== "string") return false;
      detailDropped(`${at}/content/${index}`, losses);
    }
    const block = imageBlock(url);
    if (block === undefined) return false;
    turns.block(block);
  }
  return true;
}

/** An assistant message's tool calls as `tool_use` blocks of the current turn, or `false` for the hub. */
function toolCalls(
  calls: readonly unknown[],
  at: string,
  pairing: ToolPairing,
  turns: MessagesTurns,
  losses: Loss[],
): boolean {
  for (let index = 0; index < calls.length; index++) {
    const call: unknown = calls[index];
    if (!isObject(call) || call.type !== "function" || !onlyKeys(call, "id", "type", "function"))
      return false;
    const { id, function: fn } = call;
    if (typeof id !== "string" || id === "" || !isObject(fn) || !onlyKeys(fn, "name", "arguments"))
      return false;
    const { name, arguments: text } = fn;
    if (typeof name !== "string" || typeof text !== "string" || !pairing.call(id)) return false;
    const input = callInput(text, `${at}/tool_calls/${index}/function/arguments`, losses);
    turns.block({ type: "tool_use", id, name, input });
  }
  return true;
}

/** One message after the leading system messages into `turns`, or `false` for the hub. */
function message(
  value: unknown,
  at: string,
  pairing: ToolPairing,
  turns: MessagesTurns,
  losses: Loss[],
): boolean {
  if (!isObject(value)) return false;
  const { role, content, name } = value;
  if (role === "tool") {
    const id = value.tool_call_id;
    if (
      typeof id !== "string" ||
      typeof content !== "string" ||
      !onlyKeys(value, "role", "content", "tool_call_id")
    )
      return false;
    if (!pairing.turn("user") || !pairing.result(id)) return false;
    turns.message("user");
    turns.block({ type: "tool_result", tool_use_id: id, content });
    return true;
  }
  if (name !== undefined && typeof name !== "string") return false;
  if (role === "user") {
    if (!onlyKeys(value, "role", "content", "name") || !pairing.turn("user")) return false;
    if (name !== undefined) nameDropped(at, losses);
    if (typeof content === "string") {
      if (!kept(content)) return false;
      turns.text("user", content);
      return true;
    }
    if (!Array.isArray(content)) return false;
    turns.message("user");
    return userParts(content, at, turns, losses);
  }
  if (role !== "assistant") return false;
  const calls = value.tool_calls;
  if (!onlyKeys(value, "role", "content", "tool_calls", "name") || !pairing.turn("assistant")) return false;
  if (calls !== undefined && !Array.isArray(calls)) return false;
  const called = calls !== undefined && calls.length > 0;
  if (name !== undefined) nameDropped(at, losses);
  if (typeof content === "string") {
    // An empty text beside calls is dropped without a word; a blank one is the hub's loss.
    if (kept(content)) {
      if (!called) {
        turns.text("assistant", content);
        return true;
      }
      turns.message("assistant");
      turns.block({ type: "text", text: content });
    } else if (content !== "" || !called) return false;
    else turns.message("assistant");
  } else if (Array.isArray(content)) {
    turns.message("assistant");
    for (const part of content) {
      if (!isObject(part) || part.type !== "text" || !kept(part.text) || !onlyKeys(part, "type", "text"))
        return false;
      turns.block({ type: "text", text: part.text });
    }
  } else if (content === null) turns.message("assistant");
  else return false;
  return calls === undefined || toolCalls(calls, at, pairing, turns, losses);
}

/** Function tools as custom tools (a strict flag reported), or `undefined` for the hub. */
function encodeTools(tools: readonly unknown[], losses: Loss[]): MessagesTool[] | undefined {
  const out: MessagesTool[] = [];
  for (let index = 0; index < tools.length; index++) {
    const tool: unknown = tools[index];
    if (!isObject(tool) || tool.type !== "function" || !onlyKeys(tool, "type", "function")) return undefined;
    const fn = tool.function;
    if (!isObject(fn) || !onlyKeys(fn, "name", "description", "parameters", "strict")) return undefined;
    const { name, description, parameters, strict } = fn;
    if (typeof name !== "string") return undefined;
    if (description !== undefined && typeof description !== "string") return undefined;
    if (parameters !== undefined && !isObject(parameters)) return undefined;
    if (strict !== undefined && typeof strict !== "boolean") return undefined;
    const encoded = customTool(
      name,
      description,
      parameters,
      strict,
      `/tools/${index}/function/strict`,
      losses,
    );
    if (encoded === undefined) return undefined;
    out.push(encoded);
  }
  return out;
}

/** A chat `tool_choice` as the common model holds it, or `undefined` for the hub. */
function readChoice(choice: unknown): Choice | undefined {
  if (choice === "auto" || choice === "none" || choice === "required") return { type: choice };
  if (!isObject(choice) || choice.type !== "function" || !onlyKeys(choice, "type", "function"))
    return undefined;
  const fn = choice.function;
  if (!isObject(fn) || typeof fn.name !== "string" || !onlyKeys(fn, "name")) return undefined;
  return { type: "tool", name: fn.name };
}

/** chat → messages for the plain shapes, or `undefined` for the hub. Never throws. */
export function chatToMessagesRequest(
  body: unknown,
  options: ResolvedOptions,
): Fused<MessagesRequest> | undefined {
  if (!isObject(body)) return undefined;
  let model: unknown;
  let messages: unknown;
  let temperature: unknown;
  let topP: unknown;
  let maxTokens: unknown;
  let stop: unknown;
  let stream: unknown;
  let tools: unknown;
  let choiceGiven: unknown;
  let parallel: unknown;
  let maxFields = 0;
  // Every field is one this path handles, given (not null): anything else is the hub's.
  for (const key in body) {
    const value = body[key];
    if (value === null || value === undefined) return undefined;
    switch (key) {
      case "model":
        model = value;
        break;
      case "messages":
        messages = value;
        break;
      case "temperature":
        temperature = value;
        break;
      case "top_p":
        topP = value;
        break;
      case "max_tokens":
      case "max_completion_tokens":
        maxTokens = value;
        maxFields++;
        break;
      case "stop":
        stop = value;
        break;
      case "stream":
        stream = value;
        break;
      case "tools":
        tools = value;
        break;
      case "tool_choice":
        choiceGiven = value;
        break;
      case "parallel_tool_calls":
        parallel = value;
        break;
      default:
        return undefined;
    }
  }
  if (typeof model !== "string" || !Array.isArray(messages) || maxFields > 1) return undefined;
  if (stream !== undefined && typeof stream !== "boolean") return undefined;
  if (temperature !== undefined && !isNumber(temperature)) return undefined;
  if (topP !== undefined && !isNumber(topP)) return undefined;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && (maxTokens as number) >= 1))
    return undefined;
  if (stop !== undefined && typeof stop !== "string") {
    if (!Array.isArray(stop)) return undefined;
    for (const sequence of stop) if (typeof sequence !== "string") return undefined;
  }
  if (tools !== undefined && !Array.isArray(tools)) return undefined;
  if (parallel !== undefined && typeof parallel !== "boolean") return undefined;
  let choice: Choice | undefined;
  if (choiceGiven !== undefined) {
    choice = readChoice(choiceGiven);
    if (choice === undefined) return undefined;
  }

  // Leading system (or developer) messages of text that is not blank (the hub drops blank text); a
  // name on one is the decoder's loss, the first of all.
  const losses: Loss[] = [];
  let system: MessagesRequest["system"];
  let first = 0;
  for (; first < messages.length; first++) {
    const message: unknown = messages[first];
    if (!isObject(message) || (message.role !== "system" && message.role !== "developer")) break;
    const { content, name } = message;
    if (!kept(content) || !onlyKeys(message, "role", "content", "name")) return undefined;
    if (name !== undefined) {
      if (typeof name !== "string") return undefined;
      losses.push(
        loss(
          `/messages/${first}/name`,
          "dropped",
          "A name on a system message has no common equivalent and was dropped.",
        ),
      );
    }
    if (system === undefined) system = content;
    else if (typeof system === "string")
      system = [
        { type: "text", text: system },
        { type: "text", text: content },
      ];
    else system.push({ type: "text", text: content });
  }

  // The turns, then the losses in the hub's order after theirs (messages-encode).
  const turns = new MessagesTurns();
  const pairing = new ToolPairing();
  for (let index = first; index < messages.length; index++)
    if (!message(messages[index], `/messages/${index}`, pairing, turns, losses)) return undefined;
  const sent = turns.finish();
  if (sent === undefined || !pairing.done()) return undefined;
  budgetSynthesized(maxTokens as number | undefined, options, losses);
  let sentTools: MessagesTool[] | undefined;
  if (tools !== undefined && tools.length > 0) {
    sentTools = encodeTools(tools, losses);
    if (sentTools === undefined) return undefined;
  }
  const sentChoice = toolChoice(choice, parallel as boolean | undefined, sentTools !== undefined, losses);
  const budget = (maxTokens as number | undefined) ?? options.maxTokens;
  const value: MessagesRequest =
    system === undefined
      ? { model, max_tokens: budget, messages: sent }
      : { model, max_tokens: budget, system, messages: sent };
  if (sentTools !== undefined) value.tools = sentTools;
  if (sentChoice !== undefined) value.tool_choice = sentChoice;
  sampling(temperature as number | undefined, topP as number | undefined, value, losses);
  if (stop !== undefined) {
    const stopSequences: string[] = [];
    const list = typeof stop === "string" ? [stop] : (stop as string[]);
    for (let index = 0; index < list.length; index++) {
      const sequence = list[index] as string;
      if (sequence.trim() !== "") stopSequences.push(sequence);
      else
        losses.push(
          loss(
            typeof stop === "string" ? "/stop" : `/stop/${index}`,
            "dropped",
            "The messages API rejects whitespace-only stop sequences; it was dropped.",
          ),
        );
    }
    value.stop_sequences = stopSequences;
  }
  value.stream = stream === true;
  return { value, losses, model, stream: stream === true };
}
