/**
 * A fused messages → chat request path: straight from one wire to the other, without the common
 * model, for the shapes most gateway traffic has — a `system` string or text blocks, user and
 * assistant turns of text (a string or text blocks), base64 or URL images in user turns, function
 * tools with a `tool_choice`, `tool_use` blocks with object input and `tool_result` blocks of text,
 * `cache_control` on those blocks and tools (as coding agents send it), and the sampling fields —
 * toward the `openai` and `compatible` chat dialects. The hub (decode to the common model, encode
 * from it) stays the specification: anything else — another field (unknown ones included, which the
 * hub reports), a `null`, a request-level `cache_control`, citations, thinking blocks, documents, a
 * system turn, another dialect — returns `undefined`, and the caller takes the hub. What it handles
 * it reports as the hub does, in the hub's order: each `cache_control` dropped, an error tool result
 * sent as ordinary content, stop sequences past chat's four, `top_k`, a clamped `temperature` or
 * `top_p`, `disable_parallel_tool_use` without tools. Pointers are built only for those losses.
 * test/fused/messages-chat.test.ts checks it against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { dataUrl } from "../common/media";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import { clampChat } from "./chat-target";
import type { Fused } from "./index";
import {
  cachedText,
  messagesFields,
  onlyKeys,
  plainText,
  readToolChoice,
  readTools,
  stringify,
} from "./messages-fields";

type ChatRequest = RequestOf<"chat">;
type ChatMessage = ChatRequest["messages"][number];
type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

/**
 * The hub's loss for the `cache_control` of the node at `base` when it has one (chat has no caching
 * hint); `false` when it is not an object (the hub's case).
 */
function reportCache(node: Record<string, unknown>, base: string, losses: Loss[]): boolean {
  const control = node.cache_control;
  if (control === undefined) return true;
  if (!isObject(control)) return false;
  losses.push(
    loss(`${base}/cache_control`, "dropped", "Chat has no prompt-caching hint; `cache_control` was dropped."),
  );
  return true;
}

/** A user content block (text or image) as a chat content part, or `undefined` for the hub. */
function userPart(
  block: Record<string, unknown>,
  turn: number,
  index: number,
  losses: Loss[],
): ContentPart | undefined {
  if (block.type === "text") {
    const text = cachedText(block);
    if (text === undefined) return undefined;
    if (
      block.cache_control !== undefined &&
      !reportCache(block, `/messages/${turn}/content/${index}`, losses)
    )
      return undefined;
    return { type: "text", text };
  }
  if (block.type !== "image" || !onlyKeys(block, "type", "source", "cache_control")) return undefined;
  if (block.cache_control !== undefined && !reportCache(block, `/messages/${turn}/content/${index}`, losses))
    return undefined;
  const source = block.source;
  if (!isObject(source)) return undefined;
  if (source.type === "base64") {
    if (
      typeof source.media_type !== "string" ||
      typeof source.data !== "string" ||
      !onlyKeys(source, "type", "media_type", "data")
    )
      return undefined;
    return { type: "image_url", image_url: { url: dataUrl(source.media_type, source.data) } };
  }
  if (source.type === "url" && typeof source.url === "string" && onlyKeys(source, "type", "url"))
    return { type: "image_url", image_url: { url: source.url } };
  return undefined;
}

/**
 * A user turn of blocks → its chat messages (tool messages first, then the rest as one user
 * message, as the hub orders them), or `false` for the hub.
 */
function userTurn(blocks: readonly unknown[], turn: number, out: ChatMessage[], losses: Loss[]): boolean {
  if (blocks.length === 0) return false;
  const rest: ContentPart[] = [];
  let tools = 0;
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index];
    if (!isObject(block)) return false;
    if (block.type !== "tool_result") {
      const part = userPart(block, turn, index, losses);
      if (part === undefined) return false;
      rest.push(part);
      continue;
    }
    if (
      typeof block.tool_use_id !== "string" ||
      !onlyKeys(block, "type", "tool_use_id", "content", "is_error", "cache_control")
    )
      return false;
    const isError = block.is_error;
    if (isError !== undefined && typeof isError !== "boolean") return false;
    const content = block.content;
    let text: string;
    if (content === undefined) text = "";
    else if (typeof content === "string") text = content;
    else if (Array.isArray(content)) {
      text = "";
      for (let at = 0; at < content.length; at++) {
        const item = plainText(content[at]);
        if (item === undefined) return false;
        text = at === 0 ? item : `${text}\n${item}`;
      }
    } else return false;
    if (isError === true)
      losses.push(
        loss(
          `/messages/${turn}/content/${index}`,
          "approximated",
          "Chat tool messages have no error flag; the error result was sent as ordinary content.",
        ),
      );
    if (
      block.cache_control !== undefined &&
      !reportCache(block, `/messages/${turn}/content/${index}`, losses)
    )
      return false;
    // Tool messages go before the rest of the turn (pushed at the end), in their order.
    out.push({ role: "tool", tool_call_id: block.tool_use_id, content: text });
    tools++;
  }
  if (rest.length === 0) return tools > 0;
  const only = rest[0] as ContentPart;
  out.push({ role: "user", content: rest.length === 1 && only.type === "text" ? only.text : rest });
  return true;
}

/** An assistant turn of blocks (text and `tool_use`) → one chat assistant message, or `undefined`. */
function assistantTurn(blocks: readonly unknown[], turn: number, losses: Loss[]): ChatMessage | undefined {
  if (blocks.length === 0) return undefined;
  let text: string | undefined;
  let calls: ToolCall[] | undefined;
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index];
    if (!isObject(block)) return undefined;
    if (block.type === "text") {
      const piece = cachedText(block);
      if (piece === undefined) return undefined;
      if (
        block.cache_control !== undefined &&
        !reportCache(block, `/messages/${turn}/content/${index}`, losses)
      )
        return undefined;
      text = text === undefined ? piece : text + piece;
      continue;
    }
    if (
      block.type !== "tool_use" ||
      typeof block.id !== "string" ||
      typeof block.name !== "string" ||
      !isObject(block.input) ||
      !onlyKeys(block, "type", "id", "name", "input", "cache_control")
    )
      return undefined;
    if (
      block.cache_control !== undefined &&
      !reportCache(block, `/messages/${turn}/content/${index}`, losses)
    )
      return undefined;
    const args = stringify(block.input);
    if (args === undefined) return undefined;
    if (calls === undefined) calls = [];
    calls.push({ id: block.id, type: "function", function: { name: block.name, arguments: args } });
  }
  if (calls === undefined) return { role: "assistant", content: text ?? "" };
  return { role: "assistant", content: text ?? null, tool_calls: calls };
}

type ChatTool = {
  type: "function";
  function: { name: string; description?: string; parameters: unknown; strict?: boolean };
};

/** Custom tools → chat function tools (a `cache_control` reported in `losses`), or `undefined` for the hub. */
function encodeTools(given: unknown, losses: Loss[]): ChatTool[] | undefined {
  const tools = readTools(given);
  if (tools === undefined) return undefined;
  const out: ChatTool[] = [];
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index] as (typeof tools)[number];
    if (tool.cached)
      losses.push(
        loss(
          `/tools/${index}/cache_control`,
          "dropped",
          "Chat tools take no `cache_control`; it was dropped.",
        ),
      );
    const fn: ChatTool["function"] =
      tool.description === undefined
        ? { name: tool.name, parameters: tool.schema }
        : { name: tool.name, description: tool.description, parameters: tool.schema };
    if (tool.strict !== undefined) fn.strict = tool.strict;
    out.push({ type: "function", function: fn });
  }
  return out;
}

/** messages → chat for the plain shapes, or `undefined` for the hub. Never throws. */
export function messagesToChatRequest(
  body: unknown,
  options: ResolvedOptions,
): Fused<ChatRequest> | undefined {
  const dialect = options.chatDialect;
  if (dialect !== "openai" && dialect !== "compatible") return undefined;
  const fields = messagesFields(body);
  if (fields === undefined || fields.thinking !== undefined || fields.metadata !== undefined)
    return undefined;
  const { model, messages, maxTokens, system, temperature, topP, topK, stop, stream, tools } = fields;

  // The tool choice: its chat form and the parallel switch it carries.
  let toolChoice: ChatRequest["tool_choice"];
  let disableParallel: boolean | undefined;
  if (fields.toolChoice !== undefined) {
    const choice = readToolChoice(fields.toolChoice);
    if (choice === undefined) return undefined;
    if (choice.type === "none") toolChoice = "none";
    else if (choice.type === "auto") toolChoice = "auto";
    else if (choice.type === "any") toolChoice = "required";
    else toolChoice = { type: "function", function: { name: choice.name as string } };
    disableParallel = choice.disableParallel;
  }
  // The tools' losses come after the turns' (the hub encodes the messages first).
  let chatTools: ChatTool[] | undefined;
  let toolLosses: Loss[] | undefined;
  if (tools !== undefined) {
    toolLosses = [];
    chatTools = encodeTools(tools, toolLosses);
    if (chatTools === undefined) return undefined;
    if (chatTools.length === 0) chatTools = undefined;
  }

  const out: ChatMessage[] = [];
  const losses: Loss[] = [];
  if (system !== undefined) {
    if (typeof system === "string") out.push({ role: "system", content: system });
    else if (Array.isArray(system) && system.length > 0) {
      const parts: { type: "text"; text: string }[] = [];
      for (let index = 0; index < system.length; index++) {
        const block: unknown = system[index];
        const text = cachedText(block);
        if (text === undefined) return undefined;
        const node = block as Record<string, unknown>;
        if (node.cache_control !== undefined && !reportCache(node, `/system/${index}`, losses))
          return undefined;
        parts.push({ type: "text", text });
      }
      out.push({ role: "system", content: parts.length === 1 ? (parts[0] as { text: string }).text : parts });
    } else if (!Array.isArray(system)) return undefined;
  }
  for (let turn = 0; turn < messages.length; turn++) {
    const message: unknown = messages[turn];
    if (!isObject(message)) return undefined;
    const role = message.role;
    const content = message.content;
    let count = 0;
    for (const _ in message) count++;
    if (count !== 2 || (role !== "user" && role !== "assistant")) return undefined;
    if (typeof content === "string") out.push({ role, content });
    else if (!Array.isArray(content)) return undefined;
    else if (role === "user") {
      if (!userTurn(content, turn, out, losses)) return undefined;
    } else {
      const assistant = assistantTurn(content, turn, losses);
      if (assistant === undefined) return undefined;
      out.push(assistant);
    }
  }
  if (out.length === 0) return undefined;
  if (toolLosses !== undefined) for (const entry of toolLosses) losses.push(entry);

  // The losses in the hub's order after the turns': stop sequences, top_k, then the sampling clamps.
  let stopSequences: string[] | undefined;
  if (stop !== undefined) {
    const list = stop as string[];
    stopSequences = list.slice(0, 4);
    for (let index = 4; index < list.length; index++)
      losses.push(
        loss(
          `/stop_sequences/${index}`,
          "dropped",
          `Chat accepts at most 4 stop sequences; ${JSON.stringify(list[index])} was dropped.`,
        ),
      );
  }
  if (topK !== undefined)
    losses.push(loss("/top_k", "dropped", "Chat has no standard `top_k`; it was dropped."));
  const sentTemperature =
    temperature === undefined
      ? undefined
      : clampChat(temperature as number, 0, 2, "/temperature", "temperature", losses);
  const sentTopP =
    topP === undefined ? undefined : clampChat(topP as number, 0, 1, "/top_p", "top_p", losses);

  const value: ChatRequest = { model, messages: out };
  if (stream !== undefined) value.stream = stream as boolean;
  if (stream === true) value.stream_options = { include_usage: true };
  if (sentTemperature !== undefined) value.temperature = sentTemperature;
  if (sentTopP !== undefined) value.top_p = sentTopP;
  if (dialect === "openai") value.max_completion_tokens = maxTokens;
  else value.max_tokens = maxTokens;
  if (stopSequences !== undefined) value.stop = stopSequences;
  if (chatTools !== undefined) value.tools = chatTools as ChatRequest["tools"];
  if (toolChoice !== undefined) value.tool_choice = toolChoice;
  if (disableParallel !== undefined) {
    if (chatTools !== undefined) value.parallel_tool_calls = !disableParallel;
    else
      losses.push(
        loss(
          "/tool_choice/disable_parallel_tool_use",
          "dropped",
          "`parallel_tool_calls` needs tools; with none it was dropped.",
        ),
      );
  }
  return { value, losses, model, stream: stream === true };
}
