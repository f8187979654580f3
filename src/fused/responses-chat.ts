/**
 * A fused responses → chat request path: straight from one wire to the other, without the common
 * model, for the shapes most gateway traffic has — `instructions`, a string `input` or user and
 * assistant messages of text (and images by URL), function calls and their outputs, function tools,
 * `tool_choice` and the sampling fields. It knows two wires, so it lives outside both protocol folders;
 * the hub (decode to the common model, encode from it) stays the specification. Anything this path does
 * not handle exactly as the hub would — another field (see responses-fields.ts), another item or part
 * type, an item field beyond the ones read (`id`, `status` … the hub reports), system or developer
 * messages, non-text tool output, a chat dialect other than openai or compatible — returns
 * `undefined`, and the caller takes the hub. What it handles it reports as the hub does, in the hub's
 * order: a clamped `temperature` or `top_p`, then `parallel_tool_calls` dropped without tools.
 * Pointers are built only for those losses. test/fused/responses-chat.test.ts checks it against the
 * hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import { clampChat } from "./chat-target";
import type { Fused } from "./index";
import { onlyKeys, responsesFields } from "./responses-fields";

type ChatRequest = RequestOf<"chat">;
type ChatMessage = ChatRequest["messages"][number];
type ChatPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: string } };
type ChatCall = { id: string; type: "function"; function: { name: string; arguments: string } };
type Raw = Record<string, unknown>;

const MESSAGE_KEYS = ["role", "content", "type"];
const CALL_KEYS = ["type", "call_id", "name", "arguments"];
const OUTPUT_KEYS = ["type", "call_id", "output"];
const TEXT_KEYS = ["type", "text"];
const OUTPUT_TEXT_KEYS = ["type", "text", "annotations"];
const IMAGE_KEYS = ["type", "image_url", "detail"];
const TOOL_KEYS = ["type", "name", "description", "parameters", "strict"];
const CHOICE_KEYS = ["type", "name"];

/** A user message's content as chat content (one text as a string), or `undefined` for the hub. */
function userContent(content: unknown): string | ChatPart[] | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const parts: ChatPart[] = [];
  for (const part of content) {
    if (!isObject(part)) return undefined;
    if (part.type === "input_text") {
      if (typeof part.text !== "string" || !onlyKeys(part, TEXT_KEYS)) return undefined;
      parts.push({ type: "text", text: part.text });
    } else if (part.type === "input_image") {
      // The hub splits a data: URL into type and data and joins them back: the URL comes out as it went in.
      const url = part.image_url;
      const detail = part.detail;
      if (typeof url !== "string" || !onlyKeys(part, IMAGE_KEYS)) return undefined;
      if (detail !== undefined && typeof detail !== "string") return undefined;
      parts.push({ type: "image_url", image_url: detail === undefined ? { url } : { url, detail } });
    } else return undefined;
  }
  const only = parts[0] as ChatPart;
  return parts.length === 1 && only.type === "text" ? only.text : parts;
}

/** An assistant message's text, its parts joined with nothing between (as the hub joins them), or `undefined`. */
function assistantText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content) || content.length === 0) return undefined;
  let text = "";
  for (const part of content) {
    if (!isObject(part) || typeof part.text !== "string") return undefined;
    if (part.type === "input_text") {
      if (!onlyKeys(part, TEXT_KEYS)) return undefined;
    } else if (part.type === "output_text") {
      // Annotations are citations the hub reports as dropped: only an empty list is the plain shape.
      const annotations = part.annotations;
      if (!onlyKeys(part, OUTPUT_TEXT_KEYS)) return undefined;
      if (annotations !== undefined && !(Array.isArray(annotations) && annotations.length === 0))
        return undefined;
    } else return undefined;
    text += part.text;
  }
  return text;
}

/** Function tools as chat tools, or `undefined` for the hub. */
function chatTools(tools: readonly unknown[]): ChatRequest["tools"] | undefined {
  const out: NonNullable<ChatRequest["tools"]> = [];
  for (const tool of tools) {
    if (!isObject(tool) || tool.type !== "function" || typeof tool.name !== "string") return undefined;
    if (!onlyKeys(tool, TOOL_KEYS)) return undefined;
    const { description, parameters, strict } = tool;
    if (description !== undefined && typeof description !== "string") return undefined;
    if (parameters !== undefined && !isObject(parameters)) return undefined;
    if (strict !== undefined && typeof strict !== "boolean") return undefined;
    const schema = parameters ?? { type: "object", properties: {} };
    const fn: Raw =
      description === undefined
        ? { name: tool.name, parameters: schema }
        : { name: tool.name, description, parameters: schema };
    if (strict !== undefined) fn.strict = strict;
    out.push({ type: "function", function: fn } as NonNullable<ChatRequest["tools"]>[number]);
  }
  return out;
}

/** `tool_choice` as chat's, or `undefined` for the hub. */
function chatToolChoice(choice: unknown): ChatRequest["tool_choice"] | undefined {
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  if (isObject(choice) && choice.type === "function" && typeof choice.name === "string")
    return onlyKeys(choice, CHOICE_KEYS) ? { type: "function", function: { name: choice.name } } : undefined;
  return undefined;
}

/** The input items as chat messages after `into`'s system message, or `false` for the hub. */
function chatMessages(items: readonly unknown[], into: ChatMessage[]): boolean {
  // The assistant turn being gathered (the hub's common turn): its text once a message gave one, its calls.
  let open = false;
  let text: string | undefined;
  let texts = false;
  let calls: ChatCall[] = [];
  const flush = (): void => {
    if (!open) return;
    const message: Raw = { role: "assistant", content: text ?? (calls.length > 0 ? null : "") };
    if (calls.length > 0) message.tool_calls = calls;
    into.push(message as ChatMessage);
    open = false;
    text = undefined;
    texts = false;
    calls = [];
  };
  for (const item of items) {
    if (!isObject(item)) return false;
    const type = item.type;
    if (type === undefined || type === "message") {
      if (!onlyKeys(item, MESSAGE_KEYS)) return false;
      if (item.role === "user") {
        const content = userContent(item.content);
        if (content === undefined) return false;
        flush();
        into.push({ role: "user", content } as ChatMessage);
      } else if (item.role === "assistant") {
        const given = assistantText(item.content);
        if (given === undefined) return false;
        // A further assistant message opens a turn of its own; calls before it share its turn.
        if (open && texts) flush();
        open = true;
        texts = true;
        text = given;
      } else return false;
    } else if (type === "function_call") {
      const { call_id: id, name, arguments: args } = item;
      if (typeof id !== "string" || typeof name !== "string" || typeof args !== "string") return false;
      if (!onlyKeys(item, CALL_KEYS)) return false;
      open = true;
      calls.push({ id, type: "function", function: { name, arguments: args } });
    } else if (type === "function_call_output") {
      const { call_id: id, output } = item;
      if (typeof id !== "string" || typeof output !== "string" || !onlyKeys(item, OUTPUT_KEYS)) return false;
      flush();
      into.push({ role: "tool", tool_call_id: id, content: output } as ChatMessage);
    } else return false;
  }
  flush();
  return true;
}

/** responses → chat for the plain shapes, or `undefined` for the hub. Never throws. */
export function responsesToChatRequest(
  body: unknown,
  options: ResolvedOptions,
): Fused<ChatRequest> | undefined {
  const dialect = options.chatDialect;
  if (dialect !== "openai" && dialect !== "compatible") return undefined;
  const fields = responsesFields(body, options);
  if (fields === undefined) return undefined;
  const messages: ChatMessage[] = [];
  if (fields.instructions !== undefined)
    messages.push({ role: "system", content: fields.instructions } as ChatMessage);
  if (typeof fields.input === "string") messages.push({ role: "user", content: fields.input } as ChatMessage);
  else if (!chatMessages(fields.input, messages)) return undefined;
  if (messages.length === 0) return undefined;
  const tools = fields.tools === undefined ? undefined : chatTools(fields.tools);
  if (tools === undefined && fields.tools !== undefined) return undefined;
  let choice: ChatRequest["tool_choice"] | undefined;
  if (fields.toolChoice !== undefined) {
    choice = chatToolChoice(fields.toolChoice);
    if (choice === undefined) return undefined;
  }

  // The losses in the hub's order (chat's encoder): the sampling ranges, then the switch without tools.
  const losses: Loss[] = [];
  const value: ChatRequest = { model: fields.model, messages };
  if (fields.stream) {
    value.stream = true;
    value.stream_options = { include_usage: true };
  }
  if (fields.temperature !== undefined)
    value.temperature = clampChat(fields.temperature, 0, 2, "/temperature", "temperature", losses);
  if (fields.topP !== undefined) value.top_p = clampChat(fields.topP, 0, 1, "/top_p", "top_p", losses);
  if (fields.maxTokens !== undefined) {
    if (dialect === "openai") value.max_completion_tokens = fields.maxTokens;
    else value.max_tokens = fields.maxTokens;
  }
  const withTools = tools !== undefined && tools.length > 0;
  if (withTools) value.tools = tools;
  if (choice !== undefined) value.tool_choice = choice;
  if (fields.parallelToolCalls !== undefined) {
    if (withTools) value.parallel_tool_calls = fields.parallelToolCalls;
    else
      losses.push(
        loss(
          "/parallel_tool_calls",
          "dropped",
          "`parallel_tool_calls` needs tools; with none it was dropped.",
        ),
      );
  }
  return { value, losses, model: fields.model, stream: fields.stream };
}
