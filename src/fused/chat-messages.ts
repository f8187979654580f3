/**
 * A fused chat → messages request path: straight from one wire to the other, without the common
 * model, for the shape most gateway traffic has — leading system messages, then user and assistant
 * turns of plain text, and the sampling fields. It knows two wires, so it lives outside both protocol
 * folders; the hub (decode to the common model, encode from it) stays the specification. Anything
 * this path does not handle exactly as the hub would — another field (unknown ones included, which the
 * hub reports), a `null`, content parts, names, tools, blank or whitespace-edged text the hub drops or
 * trims — returns `undefined`, and the caller takes the hub. What it handles it reports as the hub
 * does, in the hub's order: the synthesized `max_tokens`, a clamped `temperature` or `top_p`, `top_p`
 * dropped beside `temperature`, whitespace-only stop sequences. Pointers are built only for those
 * losses. test/fused/chat-messages.test.ts checks it against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import type { Fused } from "./index";
import { isNumber } from "./number";

type MessagesRequest = RequestOf<"messages">;

/** Whether `message` is exactly `{role, content}` with string content, in either key order. */
function plainMessage(message: unknown): message is { role: string; content: string } {
  if (!isObject(message) || typeof message.content !== "string" || typeof message.role !== "string")
    return false;
  let count = 0;
  for (const key in message) {
    if (key !== "role" && key !== "content") return false;
    count++;
  }
  return count === 2;
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

/** chat → messages for the plain shape, or `undefined` for the hub. Never throws. */
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

  // Leading system messages, then turns that alternate from a user turn; no blank text (the hub drops
  // it), no trailing whitespace on a final assistant turn (the hub trims it).
  let system: MessagesRequest["system"];
  let systemCount = 0;
  let first = 0;
  for (; first < messages.length; first++) {
    const message: unknown = messages[first];
    if (!plainMessage(message) || message.role !== "system") break;
    if (message.content.trim() === "") return undefined;
    systemCount++;
  }
  if (systemCount === 1) system = (messages[0] as { content: string }).content;
  else if (systemCount > 1) {
    const blocks: { type: "text"; text: string }[] = [];
    for (let index = 0; index < systemCount; index++)
      blocks.push({ type: "text", text: (messages[index] as { content: string }).content });
    system = blocks;
  }
  if (first === messages.length) return undefined;
  const turns: MessagesRequest["messages"] = [];
  let expected = "user";
  for (let index = first; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (!plainMessage(message) || message.role !== expected || message.content.trim() === "")
      return undefined;
    turns.push({ role: message.role as "user" | "assistant", content: message.content });
    expected = expected === "user" ? "assistant" : "user";
  }
  const last = turns[turns.length - 1] as { role: string; content: string };
  if (last.role === "assistant" && last.content.trimEnd() !== last.content) return undefined;

  // The losses in the hub's order: the made-up budget, then the sampling fields (messages-encode).
  const losses: Loss[] = [];
  if (maxTokens === undefined && !options.maxTokensGiven)
    losses.push(
      loss(
        "/max_tokens",
        "synthesized",
        `The messages API requires \`max_tokens\`; ${options.maxTokens} was used.`,
      ),
    );
  let sentTemperature: number | undefined;
  if (temperature !== undefined)
    sentTemperature = clampUnit(temperature as number, "/temperature", "temperature", losses);
  let sentTopP: number | undefined;
  if (topP !== undefined) {
    if (temperature !== undefined)
      losses.push(
        loss(
          "/top_p",
          "dropped",
          "The messages API rejects `temperature` and `top_p` together; `top_p` was dropped.",
        ),
      );
    else sentTopP = clampUnit(topP as number, "/top_p", "top_p", losses);
  }
  let stopSequences: string[] | undefined;
  if (stop !== undefined) {
    stopSequences = [];
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
  }
  const budget = (maxTokens as number | undefined) ?? options.maxTokens;
  const value: MessagesRequest =
    system === undefined
      ? { model, max_tokens: budget, messages: turns }
      : { model, max_tokens: budget, system, messages: turns };
  if (sentTemperature !== undefined) value.temperature = sentTemperature;
  if (sentTopP !== undefined) value.top_p = sentTopP;
  if (stopSequences !== undefined) value.stop_sequences = stopSequences;
  value.stream = stream === true;
  return { value, losses, model, stream: stream === true };
}
