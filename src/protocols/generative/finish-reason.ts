/**
 * generative `finishReason` ⇄ common finish reasons.
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
import type { LossKind } from "../../common/loss";
import type * as common from "../../common/model";

/** `finishReason` → common; STOP with function calls is `tool-calls`; "" means none yet. */
export function decodeGenerativeFinishReason(
  reason: string | undefined,
  hasToolCalls: boolean,
): common.FinishReason | undefined {
  switch (reason) {
    case undefined:
    case "":
      return undefined;
    case "STOP":
      return hasToolCalls ? "tool-calls" : "stop";
    case "MAX_TOKENS":
      return "length";
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
    case "IMAGE_PROHIBITED_CONTENT":
    case "IMAGE_RECITATION":
    case "MODEL_ARMOR":
      return "content-filter";
    case "MALFORMED_FUNCTION_CALL":
    case "UNEXPECTED_TOOL_CALL":
    case "TOO_MANY_TOOL_CALLS":
      return "error";
    default:
      return "other";
  }
}

/**
 * common → `finishReason`. A generative value kept in `raw` (upper-case, and meaning the same) is
 * restored as it was; otherwise the closest value, with the loss kind when it is not exact.
 */
export function encodeGenerativeFinishReason(
  reason: common.FinishReason,
  raw: string | undefined,
): { value: string; loss?: LossKind } {
  if (raw !== undefined && /^[A-Z_]+$/.test(raw) && sameMeaning(raw, reason)) return { value: raw };
  switch (reason) {
    case "stop":
    case "tool-calls":
    case "stop-sequence":
      return { value: "STOP" };
    case "length":
      return { value: "MAX_TOKENS" };
    case "context-length":
      return { value: "MAX_TOKENS", loss: "approximated" };
    case "content-filter":
      return { value: "SAFETY" };
    case "refusal":
      return { value: "SAFETY", loss: "approximated" };
    case "pause":
      return { value: "STOP", loss: "approximated" };
    case "error":
      return { value: "OTHER", loss: "approximated" };
    default:
      return { value: "OTHER" };
  }
}

function sameMeaning(raw: string, reason: common.FinishReason): boolean {
  const decoded = decodeGenerativeFinishReason(raw, reason === "tool-calls");
  return decoded === reason;
}
