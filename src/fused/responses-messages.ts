/**
 * A fused responses → messages request path: straight from one wire to the other, without the common
 * model, for the shapes most gateway traffic has — `instructions`, a string `input` or user and
 * assistant messages of text (and images by data: or https URL in user messages), function calls and
 * their outputs, function tools with a `tool_choice` and `parallel_tool_calls`, and the sampling fields.
 * It knows two wires, so it lives outside both protocol folders; the hub (decode to the common model,
 * encode from it) stays the specification. Anything this path does not handle exactly as the hub would
 * — another field (see responses-fields.ts), another item or part type, an item field beyond the ones
 * read (`id`, `status` … the hub reports), system or developer messages, non-text tool output, blank
 * text or instructions (the hub drops them), an empty message, an image type messages does not take,
 * calls and outputs that do not pair up (the hub's error), an assistant turn first (the hub inserts a
 * user turn), trailing whitespace at the end of a final assistant turn (the hub trims it), a budget
 * that is not a whole number of at least 1 — returns `undefined`, and the caller takes the hub.
 * Consecutive items of one role are merged into one turn and outputs put first in their turn, in the
 * order of their calls, as the hub does (messages-target.ts). What it handles it reports as the hub
 * does, in the hub's order: each image `detail`, call arguments that are not a JSON object, the
 * synthesized `max_tokens`, a strict tool's flag, a forcing `tool_choice` without tools, a clamped
 * `temperature` or `top_p`, `top_p` dropped beside `temperature`. Pointers are built only for those
 * losses. test/fused/responses-messages.test.ts checks it against the hub, value and losses.
 */
import { isObject } from "../common/json";
import type { Loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import type { Fused } from "./index";
import { ToolPairing } from "./messages-fields";
import {
  budgetSynthesized,
  type Choice,
  callInput,
  customTool,
  detailDropped,
  imageBlock,
  type MessagesTool,
  MessagesTurns,
  sampling,
  toolChoice,
} from "./messages-target";
import { onlyKeys, responsesFields } from "./responses-fields";

type MessagesRequest = RequestOf<"messages">;

const MESSAGE_KEYS = ["role", "content", "type"];
const CALL_KEYS = ["type", "call_id", "name", "arguments"];
const OUTPUT_KEYS = ["type", "call_id", "output"];
const TEXT_KEYS = ["type", "text"];
const OUTPUT_TEXT_KEYS = ["type", "text", "annotations"];
const IMAGE_KEYS = ["type", "image_url", "detail"];
const TOOL_KEYS = ["type", "name", "description", "parameters", "strict"];
const CHOICE_KEYS = ["type", "name"];

/** Text the hub keeps as it is: not blank (a blank text block is dropped). */
const kept = (text: unknown): text is string => typeof text === "string" && text.trim() !== "";

/**
 * A message's content parts as blocks of the current turn, or `false` for the hub. `role` says which
 * parts a message of that role may hold here.
 */
function parts(
  content: readonly unknown[],
  role: "user" | "assistant",
  at: string,
  turns: MessagesTurns,
  losses: Loss[],
): boolean {
  for (let index = 0; index < content.length; index++) {
    const part: unknown = content[index];
    if (!isObject(part)) return false;
    const type = part.type;
    if (type === "input_image" && role === "user") {
      const { image_url: url, detail } = part;
      if (typeof url !== "string" || !onlyKeys(part, IMAGE_KEYS)) return false;
      if (detail !== undefined) {
        if (typeof detail !== "string") return false;
        detailDropped(`${at}/content/${index}`, losses);
      }
      const block = imageBlock(url);
      if (block === undefined) return false;
      turns.block(block);
      continue;
    }
    if (!kept(part.text)) return false;
    if (type === "input_text") {
      if (!onlyKeys(part, TEXT_KEYS)) return false;
    } else if (type === "output_text" && role === "assistant") {
      // Annotations are citations the hub reports: only an empty list is the plain shape.
      const annotations = part.annotations;
      if (!onlyKeys(part, OUTPUT_TEXT_KEYS)) return false;
      if (annotations !== undefined && !(Array.isArray(annotations) && annotations.length === 0))
        return false;
    } else return false;
    turns.block({ type: "text", text: part.text });
  }
  return true;
}

/** One input item into `turns`, or `false` for the hub. */
function item(
  value: unknown,
  at: string,
  pairing: ToolPairing,
  turns: MessagesTurns,
  losses: Loss[],
): boolean {
  if (!isObject(value)) return false;
  const type = value.type;
  if (type === "function_call") {
    const { call_id: id, name, arguments: text } = value;
    // An empty id is an id to the hub here (chat's decoder, not this one, takes it for none).
    if (typeof id !== "string" || typeof name !== "string" || typeof text !== "string") return false;
    if (!onlyKeys(value, CALL_KEYS) || !pairing.turn("assistant") || !pairing.call(id)) return false;
    turns.message("assistant");
    turns.block({ type: "tool_use", id, name, input: callInput(text, `${at}/arguments`, losses) });
    return true;
  }
  if (type === "function_call_output") {
    const { call_id: id, output } = value;
    if (typeof id !== "string" || typeof output !== "string" || !onlyKeys(value, OUTPUT_KEYS)) return false;
    if (!pairing.turn("user") || !pairing.result(id)) return false;
    turns.message("user");
    turns.block({ type: "tool_result", tool_use_id: id, content: output });
    return true;
  }
  const role = value.role;
  const content = value.content;
  if ((type !== undefined && type !== "message") || (role !== "user" && role !== "assistant")) return false;
  if (!onlyKeys(value, MESSAGE_KEYS) || !pairing.turn(role)) return false;
  if (typeof content === "string") {
    if (!kept(content)) return false;
    turns.text(role, content);
    return true;
  }
  if (!Array.isArray(content)) return false;
  turns.message(role);
  return parts(content, role, at, turns, losses);
}

/** Function tools as custom tools (a strict flag reported), or `undefined` for the hub. */
function encodeTools(tools: readonly unknown[], losses: Loss[]): MessagesTool[] | undefined {
  const out: MessagesTool[] = [];
  for (let index = 0; index < tools.length; index++) {
    const tool: unknown = tools[index];
    if (!isObject(tool) || tool.type !== "function" || !onlyKeys(tool, TOOL_KEYS)) return undefined;
    const { name, description, parameters, strict } = tool;
    if (typeof name !== "string") return undefined;
    if (description !== undefined && typeof description !== "string") return undefined;
    if (parameters !== undefined && !isObject(parameters)) return undefined;
    if (strict !== undefined && typeof strict !== "boolean") return undefined;
    const encoded = customTool(name, description, parameters, strict, `/tools/${index}/strict`, losses);
    if (encoded === undefined) return undefined;
    out.push(encoded);
  }
  return out;
}

/** A responses `tool_choice` as the common model holds it, or `undefined` for the hub. */
function readChoice(choice: unknown): Choice | undefined {
  if (choice === "auto" || choice === "none" || choice === "required") return { type: choice };
  if (!isObject(choice) || choice.type !== "function" || typeof choice.name !== "string") return undefined;
  return onlyKeys(choice, CHOICE_KEYS) ? { type: "tool", name: choice.name } : undefined;
}

/** responses → messages for the plain shapes, or `undefined` for the hub. Never throws. */
export function responsesToMessagesRequest(
  body: unknown,
  options: ResolvedOptions,
): Fused<MessagesRequest> | undefined {
  const fields = responsesFields(body, options);
  if (fields === undefined) return undefined;
  const { instructions, maxTokens, temperature, topP, tools } = fields;
  if (instructions !== undefined && !kept(instructions)) return undefined;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 1)) return undefined;
  let choice: Choice | undefined;
  if (fields.toolChoice !== undefined) {
    choice = readChoice(fields.toolChoice);
    if (choice === undefined) return undefined;
  }

  // The turns, then the losses in the hub's order after theirs (messages-encode).
  const losses: Loss[] = [];
  let sent: MessagesRequest["messages"] | undefined;
  if (typeof fields.input === "string") {
    if (!kept(fields.input)) return undefined;
    // The hub gives a string input as a text block (its text part does not come from a message's content).
    sent = [{ role: "user", content: [{ type: "text", text: fields.input }] }];
  } else {
    const input = fields.input;
    const turns = new MessagesTurns();
    const pairing = new ToolPairing();
    for (let index = 0; index < input.length; index++)
      if (!item(input[index], `/input/${index}`, pairing, turns, losses)) return undefined;
    if (!pairing.done()) return undefined;
    sent = turns.finish();
    if (sent === undefined) return undefined;
  }
  budgetSynthesized(maxTokens, options, losses);
  let sentTools: MessagesTool[] | undefined;
  if (tools !== undefined && tools.length > 0) {
    sentTools = encodeTools(tools, losses);
    if (sentTools === undefined) return undefined;
  }
  const sentChoice = toolChoice(choice, fields.parallelToolCalls, sentTools !== undefined, losses);
  const model = fields.model;
  const budget = maxTokens ?? options.maxTokens;
  const value: MessagesRequest =
    instructions === undefined
      ? { model, max_tokens: budget, messages: sent }
      : { model, max_tokens: budget, system: instructions, messages: sent };
  if (sentTools !== undefined) value.tools = sentTools;
  if (sentChoice !== undefined) value.tool_choice = sentChoice;
  sampling(temperature, topP, value, losses);
  value.stream = fields.stream;
  return { value, losses, model, stream: fields.stream };
}
