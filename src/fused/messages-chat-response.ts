/**
 * A fused messages → chat response path: straight from a messages response to a chat completion,
 * without the common model, for the blocks responses carry — text, client `tool_use`, thinking and
 * redacted thinking, and server-side blocks (`server_tool_use`, their results, MCP blocks …), which
 * chat has no form for — with the stop reason and usage. The hub (decode to the common model, encode
 * from it) stays the specification: anything this path does not handle exactly as the hub would — the
 * JSON-format tool (its call is the answer's text), request-only blocks, reasoning toward the
 * OpenRouter dialect (sent as `reasoning_details`), a value of the wrong type (unvalidated input) —
 * returns `undefined`, and the caller takes the hub. What it handles it reports as the hub does and in
 * the hub's order: first what decoding drops (unknown fields of the body, of each block, of usage),
 * then what encoding loses block by block (citations, thinking signatures, redacted thinking,
 * server-side blocks), an approximated finish reason, and a missing `created`. Pointers are built
 * only for those losses. test/fused/messages-chat-response.test.ts checks it against the hub, value
 * and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import { matchedStopDropped } from "../common/stop";
import type { ResponseOf } from "../protocols";
import { append } from "./append";
import { chatUsage, createdSynthesized } from "./chat-target";
import {
  BODY,
  dropExtras,
  isRequestBlock,
  JSON_TOOL,
  REDACTED,
  readMessagesHead,
  TEXT,
  THINKING,
  TOOL_USE,
  USAGE,
} from "./messages-response-fields";

type ChatResponse = ResponseOf<"chat">;
type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };
type Node = Record<string, unknown>;

/** A messages `stop_reason` (not null) → chat's, and whether chat has no exact equivalent. */
function finishReason(reason: string, hasCalls: boolean): { value: string; approximate: boolean } {
  if (hasCalls) return { value: "tool_calls", approximate: false };
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return { value: "stop", approximate: false };
    case "max_tokens":
      return { value: "length", approximate: false };
    case "model_context_window_exceeded":
      return { value: "length", approximate: true };
    case "refusal":
      return { value: "content_filter", approximate: true };
    default:
      // pause_turn, tool_use without a call, and reasons the hub does not know.
      return { value: "stop", approximate: true };
  }
}

/** messages → chat for the common shape, or `undefined` for the hub. Never throws. */
export function messagesToChatResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: ChatResponse; losses: Loss[] } | undefined {
  const head = readMessagesHead(body);
  if (head === undefined) return undefined;
  const { id, model, content, reason, usage, input, output, write, read, thinkingTokens } = head;
  const dialect = options.chatDialect;

  const losses: Loss[] = [];
  dropExtras(head.body, BODY, 0, losses);
  // One pass over the blocks: what decoding drops goes to `losses` now, what encoding loses to `late`
  // (the hub reports it after usage), in block order.
  let text: string | undefined;
  let reasoning: string | undefined;
  let calls: ToolCall[] | undefined;
  let late: Loss[] | undefined;
  for (let index = 0; index < content.length; index++) {
    const block: unknown = content[index];
    if (!isObject(block)) return undefined;
    const type = block.type;
    if (typeof type !== "string") return undefined;
    switch (type) {
      case "text": {
        const value = block.text;
        const citations = block.citations;
        if (typeof value !== "string" || (citations != null && !Array.isArray(citations))) return undefined;
        dropExtras(block, TEXT, index, losses);
        text = text === undefined ? value : text + value;
        if (citations != null && citations.length > 0)
          late = append(
            late,
            loss(
              `/content/${index}/citations`,
              "dropped",
              "Citations from the messages protocol have no chat form and were dropped.",
            ),
          );
        break;
      }
      case "thinking": {
        const value = block.thinking;
        if (typeof value !== "string" || typeof block.signature !== "string" || dialect === "openrouter")
          return undefined;
        dropExtras(block, THINKING, index, losses);
        reasoning = reasoning === undefined ? value : reasoning + value;
        late = append(
          late,
          loss(
            `/content/${index}/signature`,
            "dropped",
            "Chat cannot carry a thinking signature; it was dropped.",
          ),
        );
        break;
      }
      case "redacted_thinking":
        if (typeof block.data !== "string" || dialect === "openrouter") return undefined;
        dropExtras(block, REDACTED, index, losses);
        late = append(
          late,
          loss(`/content/${index}`, "dropped", "Redacted thinking is opaque to chat and was dropped."),
        );
        break;
      case "tool_use": {
        const callId = block.id;
        const name = block.name;
        if (typeof callId !== "string" || typeof name !== "string" || name === JSON_TOOL) return undefined;
        dropExtras(block, TOOL_USE, index, losses);
        calls = append(calls, {
          id: callId,
          type: "function",
          function: { name, arguments: JSON.stringify(block.input ?? {}) },
        });
        break;
      }
      default:
        if (isRequestBlock(type)) return undefined;
        // A server-side block (or one the hub does not know) is opaque to every other protocol.
        late = append(
          late,
          loss(`/content/${index}`, "dropped", `A ${type} block has no chat response form and was dropped.`),
        );
    }
  }
  dropExtras(usage, USAGE, 0, losses);
  if (late !== undefined) for (const entry of late) losses.push(entry);

  let finish: string | null = calls === undefined ? null : "tool_calls";
  if (reason !== null) {
    const mapped = finishReason(reason, calls !== undefined);
    finish = mapped.value;
    if (mapped.approximate)
      losses.push(
        loss(
          "/stop_reason",
          "approximated",
          `Finish reason "${reason}" has no chat equivalent; "${mapped.value}" was used.`,
        ),
      );
  }
  if (typeof head.body.stop_sequence === "string") losses.push(matchedStopDropped("/stop_sequence", "chat"));
  const created = options.created;
  if (created === undefined) losses.push(createdSynthesized());

  const message: Node = { role: "assistant", content: text ?? null };
  if (reasoning !== undefined) message[dialect === "vllm" ? "reasoning" : "reasoning_content"] = reasoning;
  if (calls !== undefined) message.tool_calls = calls;
  const promptTokens = (input ?? 0) + (read ?? 0) + (write ?? 0);
  // A null count says as little as an absent one.
  const usageValue = chatUsage(
    promptTokens,
    output,
    promptTokens + output,
    read ?? undefined,
    write ?? undefined,
    thinkingTokens ?? undefined,
    dialect === "deepseek",
  );
  const value = {
    id,
    object: "chat.completion",
    created: created ?? 0,
    model,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: usageValue,
  } as ChatResponse;
  return { value, losses };
}
