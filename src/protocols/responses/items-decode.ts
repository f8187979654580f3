/**
 * responses `instructions` and `input` items → common system blocks and turns. `instructions` and
 * system/developer messages become system blocks (late ones marked); each user message is a turn;
 * assistant messages, reasoning and calls gather into assistant turns (a new turn at each further
 * message); function outputs gather into user turns of tool results, matched to calls by `call_id`.
 * An `item_reference` is looked up in `options.history`, and an unknown or built-in item is kept whole.
 */
import { createPartList, type PartList } from "../../common/carrier";
import { TranslationError } from "../../common/errors";
import { parseJsonObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import { restoreToolId } from "../../common/tool-id";
import { readCarrier } from "./carrier";
import { breakpointHint, decodeContentPart } from "./content";
import { keepRest } from "./fields";
import { decodeReasoningItem } from "./reasoning";
import type { FunctionCall, FunctionCallOutput, InputItem, InputMessage, Reasoning } from "./schema";
import { decodeTools } from "./tools";

/** An input item and the pointer it came from (`/input/3`, or `/history/3` for an item of `options.history`). */
export type Entry = { readonly item: InputItem; readonly source: string };

const MESSAGE_HELD = new Set(["type", "role", "content"]);
const SYSTEM_PART_HELD = new Set(["type", "text", "annotations", "prompt_cache_breakpoint"]);
const CALL_HELD = new Set(["type", "call_id", "name", "arguments", "namespace"]);
const CUSTOM_CALL_HELD = new Set(["type", "call_id", "name", "input", "namespace"]);
const SEARCH_CALL_HELD = new Set(["type", "call_id", "arguments", "execution"]);
const SEARCH_OUTPUT_HELD = new Set(["type", "call_id", "tools", "execution"]);
const ADDITIONAL_HELD = new Set(["type", "role", "tools"]);
const OUTPUT_HELD = new Set(["type", "call_id", "output"]);

/** Items a client sends back (their results), as opposed to items the model made. */
function isUserSide(type: string): boolean {
  return type.endsWith("_output") || type === "mcp_approval_response";
}

type Turn = {
  readonly role: common.Message["role"];
  readonly source: string;
  /** The turn's parts, with what reasoning carriers stand for put in place (common/carrier.ts). */
  readonly parts: PartList;
  texts: boolean;
  results: boolean;
};

/** The parts of a function or custom tool output: its text, or its input parts. */
function resultContent(
  output: FunctionCallOutput["output"],
  source: string,
  losses: Loss[],
): (common.TextPart | common.MediaPart)[] {
  const at0 = at(source, "output");
  if (typeof output === "string") return [{ type: "text", text: output, source: at0 }];
  const content: (common.TextPart | common.MediaPart)[] = [];
  output.forEach((item, index) => {
    const part = decodeContentPart(item, at(at0, index), losses);
    if (part.type === "text" || part.type === "media") content.push(part);
    else
      losses.push(
        loss(
          part.source,
          "dropped",
          `A ${part.type === "opaque" ? part.label : `${part.type} part`} in a tool output has no common equivalent and was dropped.`,
        ),
      );
  });
  return content;
}

/** A function or custom tool call → a tool-call part; its other fields (item `id`, `status` …) are kept. */
export function decodeCall(
  item:
    | FunctionCall
    | (Record<string, unknown> & { type: "custom_tool_call"; call_id: string; name: string; input: string }),
  source: string,
  losses: Loss[],
  silent?: ReadonlySet<string>,
): common.ToolCallPart {
  const custom = item.type === "custom_tool_call";
  const kept = keepRest(
    item,
    custom ? CUSTOM_CALL_HELD : CALL_HELD,
    source,
    `the ${item.type} item`,
    losses,
    silent,
  );
  const text = custom ? (item as { input: string }).input : (item as FunctionCall).arguments;
  const part: common.Draft<common.ToolCallPart> = {
    type: "tool-call",
    // An id rewritten to fit responses goes home as the original (common/tool-id.ts).
    id: restoreToolId(item.call_id),
    name: item.name,
    source,
  };
  if (typeof item.namespace === "string") part.namespace = item.namespace;
  if (custom) part.freeform = true;
  else {
    const parsed = text.trim() === "" ? {} : parseJsonObject(text);
    if (parsed !== undefined) part.arguments = parsed;
  }
  part.argumentsText = text;
  part.argumentsSource = at(source, custom ? "input" : "arguments");
  if (kept !== undefined) part.extra = { origin: "responses", raw: kept };
  return part;
}

function systemBlocks(
  message: InputMessage,
  source: string,
  late: number | undefined,
  losses: Loss[],
): common.SystemBlock[] {
  keepRest(message, MESSAGE_HELD, source, `the ${message.role} message`, losses);
  const role = message.role as "system" | "developer";
  const block = (text: string, at0: string, cache?: common.CacheHint): common.SystemBlock => {
    const value: common.Draft<common.SystemBlock> =
      late === undefined ? { text, role, source: at0 } : { text, role, late: true, at: late, source: at0 };
    if (cache !== undefined) value.cache = cache;
    return value;
  };
  if (typeof message.content === "string") return [block(message.content, at(source, "content"))];
  const blocks: common.SystemBlock[] = [];
  message.content.forEach((part, index) => {
    const partSource = at(source, "content", index);
    const raw = part as { type: string; text?: unknown };
    if ((raw.type === "input_text" || raw.type === "output_text") && typeof raw.text === "string") {
      keepRest(part, SYSTEM_PART_HELD, partSource, "a system text part", losses);
      blocks.push(block(raw.text, partSource, breakpointHint(raw, partSource)));
    } else
      losses.push(
        loss(
          partSource,
          "dropped",
          `A ${raw.type} part in a ${role} message has no common equivalent and was dropped.`,
        ),
      );
  });
  return blocks;
}

function messageParts(message: InputMessage, source: string, losses: Loss[]): common.Part[] {
  if (typeof message.content === "string")
    return [{ type: "text", text: message.content, source: at(source, "content") }];
  return message.content.map((part, index) => decodeContentPart(part, at(source, "content", index), losses));
}

/** A referenced item from `history` by its id; a 400 when the gateway did not pass it. */
function resolveReference(id: string, source: string, history: readonly Entry[]): Entry {
  for (const entry of history) if ((entry.item as { id?: unknown }).id === id) return entry;
  throw new TranslationError(
    `${source} is an item_reference to ${JSON.stringify(id)}: the item lives in the responses service's store, which another protocol cannot read. Pass the item itself, or the stored items in options.history.`,
    {
      status: 400,
      issues: [{ code: "unresolved_reference", path: source.slice(1).split("/"), message: "item_reference" }],
    },
  );
}

/** A client-executed `tool_search_call` → a call of the tool search, its arguments as they are. */
export function decodeSearchCall(
  item: Record<string, unknown>,
  source: string,
  losses: Loss[],
  silent?: ReadonlySet<string>,
): common.ToolCallPart {
  const kept = keepRest(item, SEARCH_CALL_HELD, source, "the tool_search_call item", losses, silent);
  const part: common.Draft<common.ToolCallPart> = {
    type: "tool-call",
    name: "tool_search",
    search: true,
    source,
  };
  if (typeof item.call_id === "string") part.id = restoreToolId(item.call_id);
  const args = item.arguments;
  if (typeof args === "object" && args !== null && !Array.isArray(args))
    part.arguments = args as Record<string, unknown>;
  else part.argumentsText = JSON.stringify(args ?? {});
  part.argumentsSource = at(source, "arguments");
  if (kept !== undefined) part.extra = { origin: "responses", raw: kept };
  return part;
}

/** Whether a tool search item ran at the client (the search a target without one gets as a function). */
const atClient = (item: Record<string, unknown>): boolean => item.execution === "client";

/** What decoding the input has built so far: system blocks, closed turns, the open turn, added tools. */
type Decoding = {
  readonly system: common.SystemBlock[];
  readonly messages: common.Message[];
  readonly tools: common.Tool[];
  readonly losses: Loss[];
  turn: Turn | undefined;
  /** Whether a turn came before (a system message after one is late). */
  seenTurn: boolean;
  /** Call names by call id, for the outputs; made at the first call (most requests have none). */
  names: Map<string, string> | undefined;
};

/**
 * `instructions` and the input entries → common system blocks and turns, and the tools the input
 * adds (`additional_tools` items: offered from the start, an approximation reported).
 */
export function decodeItems(
  instructions: string | null | undefined,
  entries: readonly Entry[],
  history: readonly Entry[],
  losses: Loss[],
): { system: common.SystemBlock[]; messages: common.Message[]; tools: common.Tool[] } {
  const state: Decoding = {
    system: [],
    messages: [],
    tools: [],
    losses,
    turn: undefined,
    seenTurn: false,
    names: undefined,
  };
  if (typeof instructions === "string") state.system.push({ text: instructions, source: "/instructions" });
  for (const given of entries) {
    const entry =
      given.item.type === "item_reference" || (given.item.type == null && !("role" in given.item))
        ? resolveReference((given.item as { id: string }).id, given.source, history)
        : given;
    decodeItem(state, entry.item, entry.source);
  }
  flush(state);
  return { system: state.system, messages: state.messages, tools: state.tools };
}

/** One input item, by its type's handler; an item of no handler is kept whole. */
function decodeItem(state: Decoding, item: InputItem, source: string): void {
  const type = item.type ?? "message";
  if (type === "message") {
    decodeMessageItem(state, item as InputMessage, source);
    return;
  }
  state.seenTurn = true;
  switch (type) {
    case "function_call":
    case "custom_tool_call":
      decodeCallItem(state, item as FunctionCall, source);
      break;
    case "tool_search_call":
      decodeSearchCallItem(state, item, source);
      break;
    case "tool_search_output":
      decodeSearchOutputItem(state, item, source);
      break;
    case "additional_tools":
      decodeAdditionalToolsItem(state, item, source);
      break;
    case "reasoning":
      decodeReasoningEntry(state, item as Reasoning, source);
      break;
    case "function_call_output":
    case "custom_tool_call_output":
      decodeOutputItem(state, item as FunctionCallOutput, type, source);
      break;
    default:
      keepOpaque(state, item, type, source);
  }
}

/** Closes the open turn, if any, into the messages. */
function flush(state: Decoding): void {
  const turn = state.turn;
  if (turn === undefined) return;
  // Built field by field (an object rest is a runtime copy), in the shape every decoder gives a message.
  state.messages.push({ role: turn.role, parts: turn.parts.parts(), source: turn.source });
  state.turn = undefined;
}

/** Closes the open turn and opens one of `role`. */
function open(state: Decoding, role: "user" | "assistant", source: string): Turn {
  flush(state);
  const turn: Turn = { role, parts: createPartList(state.losses), source, texts: false, results: false };
  state.turn = turn;
  return turn;
}

/** The open assistant turn, or a new one. */
function assistantTurn(state: Decoding, source: string): Turn {
  return state.turn?.role === "assistant" ? state.turn : open(state, "assistant", source);
}

/** The open user turn of tool results, or a new one. */
function resultsTurn(state: Decoding, source: string): Turn {
  const current =
    state.turn?.role === "user" && state.turn.results ? state.turn : open(state, "user", source);
  current.results = true;
  return current;
}

/**
 * A message: a system or developer message becomes system blocks (late after a turn), a user message
 * a turn of its own, an assistant message joins the open assistant turn unless that has text already.
 */
function decodeMessageItem(state: Decoding, message: InputMessage, source: string): void {
  const { losses } = state;
  if (message.role === "system" || message.role === "developer") {
    // Its place: after the turns so far (an open turn included: what follows may still join it).
    const place = state.seenTurn ? state.messages.length + (state.turn === undefined ? 0 : 1) : undefined;
    state.system.push(...systemBlocks(message, source, place, losses));
    return;
  }
  state.seenTurn = true;
  keepRest(message, MESSAGE_HELD, source, `the ${message.role} message`, losses);
  if (message.role === "user") {
    const user = open(state, "user", source);
    for (const part of messageParts(message, source, losses)) user.parts.push(part);
    flush(state);
    return;
  }
  const current =
    state.turn?.role === "assistant" && !state.turn.texts ? state.turn : open(state, "assistant", source);
  for (const part of messageParts(message, source, losses)) current.parts.push(part);
  current.texts = true;
}

/** A function or custom tool call: a tool-call part of the assistant turn; its name noted for its output. */
function decodeCallItem(state: Decoding, item: FunctionCall, source: string): void {
  const call = decodeCall(item, source, state.losses);
  state.names ??= new Map();
  state.names.set(call.id as string, call.name);
  assistantTurn(state, source).parts.push(call);
}

/** A tool search call: run at the client, a call of the tool search; run by the server, kept whole. */
function decodeSearchCallItem(state: Decoding, item: InputItem, source: string): void {
  const raw = item as Record<string, unknown>;
  if (!atClient(raw)) {
    keepOpaque(state, item, "tool_search_call", source);
    return;
  }
  const call = decodeSearchCall(raw, source, state.losses);
  if (call.id !== undefined) {
    state.names ??= new Map();
    state.names.set(call.id, call.name);
  }
  assistantTurn(state, source).parts.push(call);
}

/** A client's tool search output: a tool result carrying the tools found; otherwise kept whole. */
function decodeSearchOutputItem(state: Decoding, item: InputItem, source: string): void {
  const raw = item as Record<string, unknown>;
  if (!atClient(raw) || !Array.isArray(raw.tools)) {
    keepOpaque(state, item, "tool_search_output", source);
    return;
  }
  const { losses } = state;
  keepRest(raw, SEARCH_OUTPUT_HELD, source, "the tool_search_output item", losses);
  const current = resultsTurn(state, source);
  const result: common.Draft<common.ToolResultPart> = {
    type: "tool-result",
    name: "tool_search",
    content: [],
    tools: decodeTools(raw.tools as never, losses, at(source, "tools")),
    source,
  };
  if (typeof raw.call_id === "string") result.callId = restoreToolId(raw.call_id);
  current.parts.push(result);
}

/** An `additional_tools` item: its tools offered from the start, approximated; with no tools, kept whole. */
function decodeAdditionalToolsItem(state: Decoding, item: InputItem, source: string): void {
  const raw = item as Record<string, unknown>;
  if (!Array.isArray(raw.tools)) {
    keepOpaque(state, item, "additional_tools", source);
    return;
  }
  const { losses } = state;
  keepRest(raw, ADDITIONAL_HELD, source, "the additional_tools item", losses);
  state.tools.push(...decodeTools(raw.tools as never, losses, at(source, "tools")));
  losses.push(
    loss(
      source,
      "approximated",
      "The tools an additional_tools item adds mid-conversation are offered from the start of the conversation.",
      "additional_tools.approximated",
    ),
  );
}

/** A reasoning item: another protocol's state carried home in it, or a reasoning part of the assistant turn. */
function decodeReasoningEntry(state: Decoding, item: Reasoning, source: string): void {
  const carried = readCarrier(item, source, state.losses);
  if (carried !== undefined) assistantTurn(state, source).parts.carry(carried, source);
  else assistantTurn(state, source).parts.push(decodeReasoningItem(item, source, state.losses).part);
}

/** A function or custom tool output: a tool result in the user turn of results, named after its call. */
function decodeOutputItem(state: Decoding, output: FunctionCallOutput, type: string, source: string): void {
  const { losses } = state;
  keepRest(output, OUTPUT_HELD, source, `the ${type} item`, losses);
  const current = resultsTurn(state, source);
  const result: common.Draft<common.ToolResultPart> = {
    type: "tool-result",
    callId: restoreToolId(output.call_id),
    content: resultContent(output.output, source, losses),
    source,
  };
  const name = state.names?.get(restoreToolId(output.call_id));
  if (name !== undefined) result.name = name;
  current.parts.push(result);
}

/** Any other item (and a tool search the server ran): kept whole, for responses itself, on its side. */
function keepOpaque(state: Decoding, item: InputItem, type: string, source: string): void {
  const opaque: common.OpaquePart = {
    type: "opaque",
    origin: "responses",
    raw: item,
    label: `${type} item`,
    source,
  };
  if (isUserSide(type)) resultsTurn(state, source).parts.push(opaque);
  else assistantTurn(state, source).parts.push(opaque);
}
