/**
 * A fused chat → responses request path: straight from one wire to the other, without the common
 * model, for the shape most gateway traffic has — system and developer messages, user and assistant
 * turns of plain text, and the sampling fields. It knows two wires, so it lives outside both protocol
 * folders; the hub (decode to the common model, encode from it) stays the specification. Anything this
 * path does not handle exactly as the hub would — another field (unknown ones included, which the hub
 * reports), a `null`, content parts, names, tools, another role — returns `undefined`, and the caller
 * takes the hub. What it handles it reports as the hub does, in the hub's order: a system message from
 * mid-conversation moved to the top, `max_output_tokens` raised to 16, a clamped `temperature` or
 * `top_p`, the stop sequences dropped. Pointers are built only for those losses.
 * test/fused/chat-responses.test.ts checks it against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import type { Fused } from "./index";
import { isNumber } from "./number";
import { clampSampling, outputTokens } from "./responses-sampling";

type ResponsesRequest = RequestOf<"responses">;
type InputItem = Extract<NonNullable<ResponsesRequest["input"]>, readonly unknown[]>[number];
type Plain = { role: string; content: string };

/** Whether `message` is exactly `{role, content}` with string content, in either key order. */
function plainMessage(message: unknown): message is Plain {
  if (!isObject(message) || typeof message.content !== "string" || typeof message.role !== "string")
    return false;
  let count = 0;
  for (const key in message) {
    if (key !== "role" && key !== "content") return false;
    count++;
  }
  return count === 2;
}

/**
 * The system and developer messages as the hub's items (first, in order): a run of one role is one
 * item, its text a string when it is one message, else its input_text parts.
 */
function systemItems(system: readonly Plain[], into: InputItem[]): void {
  let start = 0;
  while (start < system.length) {
    const first = system[start] as Plain;
    const developer = first.role === "developer";
    let end = start + 1;
    while (end < system.length && ((system[end] as Plain).role === "developer") === developer) end++;
    const role = developer ? "developer" : "system";
    if (end - start === 1) into.push({ role, content: first.content } as InputItem);
    else {
      const parts: { type: "input_text"; text: string }[] = [];
      for (let index = start; index < end; index++)
        parts.push({ type: "input_text", text: (system[index] as Plain).content });
      into.push({ role, content: parts } as InputItem);
    }
    start = end;
  }
}

/** chat → responses for the plain shape, or `undefined` for the hub. Never throws. */
export function chatToResponsesRequest(
  body: unknown,
  _options: ResolvedOptions,
): Fused<ResponsesRequest> | undefined {
  if (!isObject(body)) return undefined;
  let model: unknown;
  let messages: unknown;
  let temperature: unknown;
  let topP: unknown;
  let maxTokens: unknown;
  let maxPath = "";
  let stop: unknown;
  let stream: unknown;
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
        // Both given is a loss of its own: the hub's.
        if (maxTokens !== undefined) return undefined;
        maxTokens = value;
        maxPath = key === "max_tokens" ? "/max_tokens" : "/max_completion_tokens";
        break;
      case "stop":
        stop = value;
        break;
      case "stream":
        stream = value;
        break;
      default:
        return undefined;
    }
  }
  if (typeof model !== "string" || !Array.isArray(messages) || messages.length === 0) return undefined;
  if (stream !== undefined && typeof stream !== "boolean") return undefined;
  if (temperature !== undefined && !isNumber(temperature)) return undefined;
  if (topP !== undefined && !isNumber(topP)) return undefined;
  if (maxTokens !== undefined && !isNumber(maxTokens)) return undefined;
  if (stop !== undefined && typeof stop !== "string") {
    if (!Array.isArray(stop)) return undefined;
    for (const sequence of stop) if (typeof sequence !== "string") return undefined;
  }

  // The system and developer messages go first (one from mid-conversation with the hub's loss), the
  // turns after them, one item each, in order.
  const losses: Loss[] = [];
  const system: Plain[] = [];
  const turns: InputItem[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (!plainMessage(message)) return undefined;
    const role = message.role;
    if (role === "system" || role === "developer") {
      if (turns.length > 0)
        losses.push(
          loss(
            `/messages/${index}`,
            "approximated",
            "A system message from mid-conversation was moved to the top.",
          ),
        );
      system.push(message);
    } else if (role === "user" || role === "assistant")
      turns.push({ role, content: message.content } as InputItem);
    else return undefined;
  }
  let input = turns;
  if (system.length > 0) {
    input = [];
    systemItems(system, input);
    for (const turn of turns) input.push(turn);
  }

  // The rest in the hub's order (responses' encoder): the budget, the sampling ranges, the stop sequences.
  const value: ResponsesRequest = { model, input };
  if (stream === true) value.stream = true;
  if (maxTokens !== undefined) value.max_output_tokens = outputTokens(maxTokens as number, maxPath, losses);
  if (temperature !== undefined)
    value.temperature = clampSampling(temperature as number, 2, "/temperature", "temperature", losses);
  if (topP !== undefined) value.top_p = clampSampling(topP as number, 1, "/top_p", "top_p", losses);
  // An empty list stops on nothing: nothing is dropped.
  if (stop !== undefined && (typeof stop === "string" || (stop as string[]).length > 0))
    losses.push(loss("/stop", "dropped", "responses has no stop sequences; they were dropped."));
  return { value, losses, model, stream: stream === true };
}
