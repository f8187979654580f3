/**
 * Chat `finish_reason` ↔ common finish reason.
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
 * Common finish reason → chat; tool calls in the output win over the source's reason, and a reason
 * claiming tool calls without one is a plain stop. `approximate` is true when chat has no exact
 * equivalent: a paused turn, a refusal, an exceeded context window, an error or an unknown reason.
 */
export function encodeChatFinishReason(
  reason: common.FinishReason,
  hasToolCalls: boolean,
): { reason: ChatFinishReason; approximate: boolean } {
  if (hasToolCalls) return { reason: "tool_calls", approximate: false };
  switch (reason) {
    case "stop":
    case "stop-sequence":
      return { reason: "stop", approximate: false };
    case "length":
      return { reason: "length", approximate: false };
    case "context-length":
      return { reason: "length", approximate: true };
    case "content-filter":
      return { reason: "content_filter", approximate: false };
    case "refusal":
      return { reason: "content_filter", approximate: true };
    default:
      // "pause" (the client would have resumed the turn), "tool-calls" with no call, "error", "other".
      return { reason: "stop", approximate: true };
  }
}
