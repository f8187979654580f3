/**
 * A fused responses → messages request path: straight from one wire to the other, without the common
 * model, for the shape of a plain conversation — `instructions`, a string `input` or user and assistant
 * messages of text that alternate from a user turn, and the sampling fields. It knows two wires, so it
 * lives outside both protocol folders; the hub (decode to the common model, encode from it) stays the
 * specification. Anything this path does not handle exactly as the hub would — another field (see
 * responses-fields.ts; tools, `tool_choice` and `parallel_tool_calls` included), another item or part
 * type, an item field beyond the ones read, blank text or instructions (the hub drops them), a turn of
 * the same role as the one before (the hub merges them), an assistant turn first (the hub inserts a
 * user turn), trailing whitespace at the end of a final assistant turn (the hub trims it), a budget
 * that is not a whole number of at least 1 — returns `undefined`, and the caller takes the hub. What it
 * handles it reports as the hub does, in the hub's order: the synthesized `max_tokens`, a clamped
 * `temperature` or `top_p`, `top_p` dropped beside `temperature`. Pointers are built only for those
 * losses. test/fused/responses-messages.test.ts checks it against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import type { Fused } from "./index";
import { onlyKeys, responsesFields } from "./responses-fields";

type MessagesRequest = RequestOf<"messages">;
type MessagesTurn = MessagesRequest["messages"][number];
type TextBlock = { type: "text"; text: string };

const MESSAGE_KEYS = ["role", "content", "type"];
const TEXT_KEYS = ["type", "text"];
const OUTPUT_TEXT_KEYS = ["type", "text", "annotations"];

/** Text the hub keeps as it is: not blank (a blank text block is dropped). */
const kept = (text: unknown): text is string => typeof text === "string" && text.trim() !== "";

/**
 * A message's content as messages content — a string as a string, parts as text blocks — or
 * `undefined` for the hub. `role` says which parts a message of that role may hold here.
 */
function content(value: unknown, role: "user" | "assistant"): string | TextBlock[] | undefined {
  if (typeof value === "string") return kept(value) ? value : undefined;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const blocks: TextBlock[] = [];
  for (const part of value) {
    if (!isObject(part) || !kept(part.text)) return undefined;
    if (part.type === "input_text") {
      if (!onlyKeys(part, TEXT_KEYS)) return undefined;
    } else if (part.type === "output_text" && role === "assistant") {
      // Annotations are citations the hub reports: only an empty list is the plain shape.
      const annotations = part.annotations;
      if (!onlyKeys(part, OUTPUT_TEXT_KEYS)) return undefined;
      if (annotations !== undefined && !(Array.isArray(annotations) && annotations.length === 0))
        return undefined;
    } else return undefined;
    blocks.push({ type: "text", text: part.text });
  }
  return blocks;
}

/** The input items as messages turns, or `undefined` for the hub. */
function turnsOf(items: readonly unknown[]): MessagesTurn[] | undefined {
  const turns: MessagesTurn[] = [];
  let expected = "user";
  for (const item of items) {
    if (!isObject(item) || (item.type !== undefined && item.type !== "message")) return undefined;
    if (item.role !== expected || !onlyKeys(item, MESSAGE_KEYS)) return undefined;
    const role = expected as "user" | "assistant";
    const given = content(item.content, role);
    if (given === undefined) return undefined;
    turns.push({ role, content: given } as MessagesTurn);
    expected = expected === "user" ? "assistant" : "user";
  }
  return turns;
}

/** Whether a final assistant turn ends in whitespace (the hub trims it: a loss). */
function endsInWhitespace(turn: MessagesTurn): boolean {
  const value = turn.content as string | TextBlock[];
  const text = typeof value === "string" ? value : (value[value.length - 1] as TextBlock).text;
  return text.trimEnd() !== text;
}

/** A sampling value clamped to the messages range 0–1, with the hub's loss when it moved. */
function clampUnit(value: number, path: string, name: string, losses: Loss[]): number {
  if (value >= 0 && value <= 1) return value;
  const clamped = Math.min(1, Math.max(0, value));
  losses.push(
    loss(
      path,
      "clamped",
      `\`${name}\` ${value} is outside the messages range 0–1 and was clamped to ${clamped}.`,
    ),
  );
  return clamped;
}

/** responses → messages for the plain shape, or `undefined` for the hub. Never throws. */
export function responsesToMessagesRequest(
  body: unknown,
  options: ResolvedOptions,
): Fused<MessagesRequest> | undefined {
  const fields = responsesFields(body, options);
  if (fields === undefined) return undefined;
  if (fields.tools !== undefined || fields.toolChoice !== undefined || fields.parallelToolCalls !== undefined)
    return undefined;
  const { instructions, maxTokens, temperature, topP } = fields;
  if (instructions !== undefined && !kept(instructions)) return undefined;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 1)) return undefined;
  let turns: MessagesTurn[] | undefined;
  if (typeof fields.input === "string") {
    if (!kept(fields.input)) return undefined;
    // The hub gives a string input as a text block (its text part does not come from a message's content).
    turns = [{ role: "user", content: [{ type: "text", text: fields.input }] }];
  } else turns = turnsOf(fields.input);
  if (turns === undefined || turns.length === 0) return undefined;
  const last = turns[turns.length - 1] as MessagesTurn;
  if (last.role === "assistant" && endsInWhitespace(last)) return undefined;

  // The losses in the hub's order (messages' encoder): the made-up budget, then the sampling fields.
  const losses: Loss[] = [];
  if (maxTokens === undefined && !options.maxTokensGiven)
    losses.push(
      loss(
        "/max_tokens",
        "synthesized",
        `The messages API requires \`max_tokens\`; ${options.maxTokens} was used.`,
      ),
    );
  const model = fields.model;
  const budget = maxTokens ?? options.maxTokens;
  const value: MessagesRequest =
    instructions === undefined
      ? { model, max_tokens: budget, messages: turns }
      : { model, max_tokens: budget, system: instructions, messages: turns };
  if (temperature !== undefined)
    value.temperature = clampUnit(temperature, "/temperature", "temperature", losses);
  if (topP !== undefined) {
    if (temperature !== undefined)
      losses.push(
        loss(
          "/top_p",
          "dropped",
          "The messages API rejects `temperature` and `top_p` together; `top_p` was dropped.",
        ),
      );
    else value.top_p = clampUnit(topP, "/top_p", "top_p", losses);
  }
  value.stream = fields.stream;
  return { value, losses, model, stream: fields.stream };
}
