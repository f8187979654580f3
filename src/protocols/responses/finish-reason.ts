/**
 * responses `status` (+ `incomplete_details.reason`) ↔ common finish reason: two small total maps.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-status
 */
import type * as common from "../../common/model";

/**
 * A response's status → common; `undefined` while it is not finished (`queued`, `in_progress`).
 * `completed` with function calls in the output is `tool-calls` (the client runs them).
 */
export function decodeResponsesStatus(
  status: string | undefined,
  incompleteReason: string | null | undefined,
  hasCalls: boolean,
): common.FinishReason | undefined {
  switch (status) {
    case "completed":
    case undefined:
      return hasCalls ? "tool-calls" : "stop";
    case "incomplete":
      if (incompleteReason === "max_output_tokens") return "length";
      if (incompleteReason === "content_filter") return "content-filter";
      return "other";
    case "failed":
      return "error";
    case "queued":
    case "in_progress":
      return undefined;
    default:
      return "other";
  }
}

/** The raw value a decoded finish keeps: the incomplete reason when there is one, else the status. */
export function rawStatus(status: string | undefined, incompleteReason: string | null | undefined): string {
  return typeof incompleteReason === "string" ? incompleteReason : (status ?? "completed");
}

export type EncodedStatus = {
  readonly status: "completed" | "incomplete";
  readonly incomplete?: "max_output_tokens" | "content_filter" | undefined;
  /** responses has no such finish: the status says less than the source did. */
  readonly approximated: boolean;
};

/**
 * Common finish → a status. A response that stopped on a stop sequence, paused, or ended badly
 * (generative `MALFORMED_FUNCTION_CALL`) is still `completed` (approximated); a refusal without a refusal
 * part is `incomplete` by the content filter (approximated);
 * an exceeded context window is an `incomplete` answer like an exhausted budget (approximated). `failed`
 * is for errors, which a stream reports as its error event.
 * @example encodeResponsesStatus("length", false) // => { status: "incomplete", incomplete: "max_output_tokens", approximated: false }
 */
export function encodeResponsesStatus(
  reason: common.FinishReason | undefined,
  hasRefusal: boolean,
): EncodedStatus {
  switch (reason) {
    case undefined:
    case "stop":
    case "tool-calls":
      return { status: "completed", approximated: false };
    case "length":
      return { status: "incomplete", incomplete: "max_output_tokens", approximated: false };
    case "context-length":
      return { status: "incomplete", incomplete: "max_output_tokens", approximated: true };
    case "content-filter":
      return { status: "incomplete", incomplete: "content_filter", approximated: false };
    case "refusal":
      // A refusal part says it in the answer, as the service does; without one, a declined answer is
      // the nearest status responses has: cut by the content filter.
      return hasRefusal
        ? { status: "completed", approximated: false }
        : { status: "incomplete", incomplete: "content_filter", approximated: true };
    default:
      // "stop-sequence" (responses has no stop sequences), "pause", "other", and "error" (a generation
      // that ended badly, such as a malformed call): `failed` is kept for errors, which end streams.
      return { status: "completed", approximated: true };
  }
}
