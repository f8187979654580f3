/**
 * Chat `finish_reason` ↔ common finish reason (research F1, F2).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
import type * as common from "../../common/model";

export function decodeChatFinishReason(reason: string): common.FinishReason {
  switch (reason) {
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool-calls";
    case "content_filter":
      return "content-filter";
    default:
      return "other";
  }
}

export type ChatFinishReason = "stop" | "length" | "tool_calls" | "content_filter";

/**
 * Common finish reason → chat; tool calls in the output win over the source's reason (F2). `approximate`
 * is true when chat has no exact equivalent (an error or unknown stop reads as a normal `stop`).
 */
export function encodeChatFinishReason(
  reason: common.FinishReason,
  hasToolCalls: boolean,
): { reason: ChatFinishReason; approximate: boolean } {
  if (hasToolCalls) return { reason: "tool_calls", approximate: false };
  switch (reason) {
    case "stop":
    case "stop-sequence":
    case "pause":
      return { reason: "stop", approximate: false };
    case "length":
    case "context-length":
      return { reason: "length", approximate: false };
    case "tool-calls":
      return { reason: "tool_calls", approximate: false };
    case "content-filter":
    case "refusal":
      return { reason: "content_filter", approximate: false };
    default:
      return { reason: "stop", approximate: true };
  }
}
