/**
 * What the fused paths from messages (src/fused/messages-*.ts) read alike: the top level of a plain
 * messages request — `model`, `messages`, `max_tokens`, `system`, the sampling fields, `stream`,
 * `tools`, `tool_choice`, `thinking`, `metadata` — each given (not `null`) with the type the hub
 * reads, and readers of the nodes inside it (text blocks, custom tools, the tool choice, the thinking
 * switch, `metadata`) and of the hub's tool-pairing rule. Anything else is `undefined`, and the path
 * hands the body to the hub. What each target does with them is its path's.
 */
import { isObject } from "../common/json";
import { isNumber } from "./number";

/** The fields of a plain messages request, typed; `system`, `tools` and the rest not yet read further. */
export type MessagesFields = {
  readonly model: string;
  readonly messages: readonly unknown[];
  readonly maxTokens: number;
  readonly system: unknown;
  readonly temperature: number | undefined;
  readonly topP: number | undefined;
  readonly topK: number | undefined;
  readonly stop: readonly string[] | undefined;
  /** `undefined` when not given (the hub tells the two apart). */
  readonly stream: boolean | undefined;
  readonly tools: unknown;
  readonly toolChoice: unknown;
  readonly thinking: unknown;
  readonly metadata: unknown;
};

/** The plain top level of `body`, or `undefined` for the hub. Never throws. */
export function messagesFields(body: unknown): MessagesFields | undefined {
  if (!isObject(body)) return undefined;
  let model: unknown;
  let messages: unknown;
  let maxTokens: unknown;
  let system: unknown;
  let temperature: unknown;
  let topP: unknown;
  let topK: unknown;
  let stop: unknown;
  let stream: unknown;
  let tools: unknown;
  let toolChoice: unknown;
  let thinking: unknown;
  let metadata: unknown;
  // Every field is one the paths handle, given (not null): anything else is the hub's.
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
      case "max_tokens":
        maxTokens = value;
        break;
      case "system":
        system = value;
        break;
      case "temperature":
        temperature = value;
        break;
      case "top_p":
        topP = value;
        break;
      case "top_k":
        topK = value;
        break;
      case "stop_sequences":
        stop = value;
        break;
      case "stream":
        stream = value;
        break;
      case "tools":
        tools = value;
        break;
      case "tool_choice":
        toolChoice = value;
        break;
      case "thinking":
        thinking = value;
        break;
      case "metadata":
        metadata = value;
        break;
      default:
        return undefined;
    }
  }
  if (typeof model !== "string" || !Array.isArray(messages) || !isNumber(maxTokens)) return undefined;
  if (stream !== undefined && typeof stream !== "boolean") return undefined;
  if (temperature !== undefined && !isNumber(temperature)) return undefined;
  if (topP !== undefined && !isNumber(topP)) return undefined;
  if (topK !== undefined && !isNumber(topK)) return undefined;
  if (stop !== undefined) {
    if (!Array.isArray(stop)) return undefined;
    for (const sequence of stop) if (typeof sequence !== "string") return undefined;
  }
  return {
    model,
    messages,
    maxTokens,
    system,
    temperature,
    topP,
    topK,
    stop: stop as string[] | undefined,
    stream,
    tools,
    toolChoice,
    thinking,
    metadata,
  };
}

/** `JSON.stringify`, or `undefined` where it would throw (a BigInt or a cycle in an unvalidated body). */
export function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Whether every key of `value` is one of those named and given (not undefined). */
export function onlyKeys(
  value: Record<string, unknown>,
  a: string,
  b?: string,
  c?: string,
  d?: string,
  e?: string,
): boolean {
  for (const key in value) {
    if (key !== a && key !== b && key !== c && key !== d && key !== e) return false;
    if (value[key] === undefined) return false;
  }
  return true;
}

/** A `{type: "text", text}` block exactly, its text; else `undefined`. */
export function plainText(block: unknown): string | undefined {
  if (!isObject(block) || block.type !== "text" || typeof block.text !== "string") return undefined;
  return onlyKeys(block, "type", "text") ? block.text : undefined;
}

/** A `{type: "text", text}` block, `cache_control` allowed (the caller reports it), its text; else `undefined`. */
export function cachedText(block: unknown): string | undefined {
  if (!isObject(block) || block.type !== "text" || typeof block.text !== "string") return undefined;
  return onlyKeys(block, "type", "text", "cache_control") ? block.text : undefined;
}

/**
 * Whether a node's `cache_control` is absent or an object (the hint the hub decodes, and the caller
 * reports as its target's loss); anything else is the hub's.
 */
export const cacheReadable = (node: Record<string, unknown>): boolean =>
  node.cache_control === undefined || isObject(node.cache_control);

/** A plain `tool_choice`: its type, the named tool, and the parallel switch it carries. */
export type MessagesToolChoice = {
  readonly type: "auto" | "any" | "tool" | "none";
  readonly name: string | undefined;
  readonly disableParallel: boolean | undefined;
};

/** A `tool_choice` of a plain shape, or `undefined` for the hub. */
export function readToolChoice(choice: unknown): MessagesToolChoice | undefined {
  if (!isObject(choice)) return undefined;
  const type = choice.type;
  if (type === "none")
    return onlyKeys(choice, "type") ? { type, name: undefined, disableParallel: undefined } : undefined;
  let name: string | undefined;
  if (type === "tool") {
    if (typeof choice.name !== "string" || !onlyKeys(choice, "type", "name", "disable_parallel_tool_use"))
      return undefined;
    name = choice.name;
  } else if (type !== "auto" && type !== "any") return undefined;
  else if (!onlyKeys(choice, "type", "disable_parallel_tool_use")) return undefined;
  const disable = choice.disable_parallel_tool_use;
  if (disable !== undefined && typeof disable !== "boolean") return undefined;
  return { type, name, disableParallel: disable };
}

/** A plain custom tool: the fields the hub keeps, and whether it has a `cache_control` to report. */
export type MessagesTool = {
  readonly name: string;
  readonly description: string | undefined;
  readonly schema: Record<string, unknown>;
  readonly strict: boolean | undefined;
  readonly cached: boolean;
};

/** `tools` of custom tools only, each of a plain shape, or `undefined` for the hub. */
export function readTools(tools: unknown): MessagesTool[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const out: MessagesTool[] = [];
  for (let index = 0; index < tools.length; index++) {
    const tool: unknown = tools[index];
    if (!isObject(tool) || typeof tool.name !== "string" || !isObject(tool.input_schema)) return undefined;
    let description: string | undefined;
    let strict: boolean | undefined;
    let cached = false;
    for (const key in tool) {
      const value = tool[key];
      switch (key) {
        case "name":
        case "input_schema":
          break;
        case "type":
          if (value !== "custom") return undefined;
          break;
        case "description":
          if (typeof value !== "string") return undefined;
          description = value;
          break;
        case "strict":
          if (typeof value !== "boolean") return undefined;
          strict = value;
          break;
        case "cache_control":
          if (!isObject(value)) return undefined;
          cached = true;
          break;
        default:
          return undefined;
      }
    }
    out.push({ name: tool.name, description, schema: tool.input_schema, strict, cached });
  }
  return out;
}

/**
 * A plain `thinking`: `enabled` or `adaptive` with an optional finite `budget_tokens`, or `disabled`
 * alone; else `undefined` for the hub (an unknown mode is a loss of the hub's).
 */
export function readThinking(
  thinking: unknown,
): { readonly enabled: boolean; readonly budget: number | undefined } | undefined {
  if (!isObject(thinking)) return undefined;
  const type = thinking.type;
  if (type === "disabled")
    return onlyKeys(thinking, "type") ? { enabled: false, budget: undefined } : undefined;
  if ((type !== "enabled" && type !== "adaptive") || !onlyKeys(thinking, "type", "budget_tokens"))
    return undefined;
  const budget = thinking.budget_tokens;
  if (budget !== undefined && !isNumber(budget)) return undefined;
  return { enabled: true, budget };
}

/** The `user_id` of a plain `metadata` (an empty one has none), `false` for the hub. */
export function readUser(metadata: unknown): string | undefined | false {
  if (!isObject(metadata) || !onlyKeys(metadata, "user_id")) return false;
  const id = metadata.user_id;
  if (id === undefined) return undefined;
  return typeof id === "string" ? id : false;
}

/** The settings of a messages request the paths toward generative and responses read alike. */
export type MessagesSettings = {
  readonly choice: MessagesToolChoice | undefined;
  readonly thinking: ReturnType<typeof readThinking>;
  readonly user: string | undefined;
  readonly tools: MessagesTool[];
};

/** `tool_choice`, `thinking`, `metadata` and `tools` of `fields`, each plain, or `undefined` for the hub. */
export function readSettings(fields: MessagesFields): MessagesSettings | undefined {
  let choice: MessagesToolChoice | undefined;
  if (fields.toolChoice !== undefined) {
    choice = readToolChoice(fields.toolChoice);
    if (choice === undefined) return undefined;
  }
  let thinking: ReturnType<typeof readThinking>;
  if (fields.thinking !== undefined) {
    thinking = readThinking(fields.thinking);
    if (thinking === undefined) return undefined;
  }
  let user: string | undefined;
  if (fields.metadata !== undefined) {
    const read = readUser(fields.metadata);
    if (read === false) return undefined;
    user = read;
  }
  const tools = fields.tools === undefined ? [] : readTools(fields.tools);
  if (tools === undefined) return undefined;
  return { choice, thinking, user, tools };
}

/**
 * The hub's tool-pairing rule (common/tool-pairing.ts), followed block by block: every call of an
 * assistant run answered once in the turns after it, before the next assistant run, and every result
 * answering such a call. Each method returns `false` where the hub would throw (the path then hands
 * the body to the hub, which throws its error).
 */
export class ToolPairing {
  private pending: string[] | undefined;
  private answered: string[] | undefined;
  private previous: string | undefined;

  /** A message of `role` begins. */
  turn(role: string): boolean {
    if (role === "assistant" && this.previous !== "assistant") {
      if (this.pending !== undefined && this.pending.length > 0) return false;
      if (this.answered !== undefined) this.answered.length = 0;
    }
    this.previous = role;
    return true;
  }

  /** A tool call of the current assistant message. */
  call(id: string): boolean {
    this.pending ??= [];
    // A repeated id is the hub's to judge.
    if (this.pending.includes(id) || (this.answered?.includes(id) ?? false)) return false;
    this.pending.push(id);
    return true;
  }

  /** A tool result. */
  result(id: string): boolean {
    const pending = this.pending;
    const at = pending === undefined ? -1 : pending.indexOf(id);
    if (at < 0 || pending === undefined) return false;
    pending.splice(at, 1);
    this.answered ??= [];
    this.answered.push(id);
    return true;
  }

  /** The end of the messages: every call answered. */
  done(): boolean {
    return this.pending === undefined || this.pending.length === 0;
  }
}
