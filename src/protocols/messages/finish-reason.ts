/**
 * messages `stop_reason` ↔ common finish reason: two small total maps.
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
import type * as common from "../../common/model";
import type { StopReason } from "./schema";

/** A messages `stop_reason` → common; values the map does not know become `other`. */
export function decodeMessagesStopReason(stopReason: string): common.FinishReason {
  switch (stopReason) {
    case "end_turn":
      return "stop";
    case "stop_sequence":
      return "stop-sequence";
    case "max_tokens":
      return "length";
    case "model_context_window_exceeded":
      return "context-length";
    case "tool_use":
      return "tool-calls";
    case "pause_turn":
      return "pause";
    case "refusal":
      return "refusal";
    default:
      return "other";
  }
}

/**
 * common → messages `stop_reason`; `approximated` when messages has no such reason.
 * @example encodeMessagesStopReason("content-filter") // => { value: "refusal", approximated: false }
 */
export function encodeMessagesStopReason(reason: common.FinishReason): {
  value: StopReason;
  approximated: boolean;
} {
  switch (reason) {
    case "stop":
      return { value: "end_turn", approximated: false };
    case "stop-sequence":
      return { value: "stop_sequence", approximated: false };
    case "length":
      return { value: "max_tokens", approximated: false };
    case "context-length":
      return { value: "model_context_window_exceeded", approximated: false };
    case "tool-calls":
      return { value: "tool_use", approximated: false };
    case "content-filter":
    case "refusal":
      return { value: "refusal", approximated: false };
    case "pause":
      return { value: "pause_turn", approximated: false };
    default:
      return { value: "end_turn", approximated: true };
  }
}

/**
 * The stop reason of an encoded response: a stop reason that came from messages is restored exactly;
 * otherwise tool calls win over a natural stop, a reason claiming tool calls without one
 * is an approximated `end_turn`, and a refusal part makes it `refusal`.
 */
export function chooseStopReason(input: {
  readonly reason: common.FinishReason | undefined;
  readonly rawReason: string | undefined;
  readonly hasToolCalls: boolean;
  readonly hasRefusal: boolean;
  /** The reason was decoded from messages itself: its raw value is restored, even an unknown one. */
  readonly own: boolean;
}): { value: StopReason; approximated: boolean } {
  const { reason, rawReason } = input;
  // A stop reason that came from messages itself is authoritative (programmatic tool calls end with end_turn).
  if (input.own && rawReason !== undefined) return { value: rawReason, approximated: false };
  const natural = reason === undefined || reason === "stop" || reason === "other";
  if (input.hasToolCalls && (natural || reason === "tool-calls" || reason === "error")) {
    return { value: "tool_use", approximated: false };
  }
  // A stop reason never claims tool use without a tool_use block: the client would wait for a call.
  if (reason === "tool-calls") return { value: "end_turn", approximated: true };
  if (
    rawReason !== undefined &&
    reason !== undefined &&
    reason !== "other" &&
    decodeMessagesStopReason(rawReason) === reason
  ) {
    return { value: rawReason, approximated: false };
  }
  if (input.hasRefusal && natural) return { value: "refusal", approximated: false };
  if (reason === undefined) return { value: "end_turn", approximated: false };
  return encodeMessagesStopReason(reason);
}
