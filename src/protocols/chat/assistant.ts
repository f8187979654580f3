/**
 * What chat assistant messages share between request history (`messages-encode.ts`,
 * `messages-decode.ts`) and responses (`response.ts`). What the two encoders do differently is a `Target`.
 */
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { withCarrier } from "./carrier";
import { cacheDropped } from "./content";
import { DIALECTS, reasoningFormat } from "./dialect";
import type * as chat from "./schema";

type Citations = NonNullable<common.TextPart["citations"]>;

/** What one kind of chat assistant message does with what differs between request history and response. */
export interface Target {
  /** Whether `cache_control` on a text or tool call is reported as dropped. */
  readonly reportCache: boolean;
  /** The id a call keeps, or none (one is made up). */
  readonly callId: (part: common.ToolCallPart) => string | undefined;
  /** Where the loss of a made-up call id points. */
  readonly idPath: (part: common.ToolCallPart) => string;
  /** The citations of a text part kept as chat `annotations`; those it cannot keep it reports. */
  readonly citations: (
    citations: Citations,
    source: string,
    losses: Loss[],
  ) => readonly unknown[] | undefined;
  /** Reports a part the message cannot hold (a server-side tool call included). */
  readonly unsupported: (part: common.Part, losses: Loss[]) => void;
}

/** The collected fields; a field is `undefined` when no part gave it. */
export type Assistant = {
  text: string | undefined;
  reasoning: string | undefined;
  refusal: string | undefined;
  annotations: unknown[] | undefined;
  /** OpenRouter `reasoning_details`, when the target sends them. */
  reasoningDetails: chat.ReasoningDetail[] | undefined;
  readonly toolCalls: chat.ToolCall[];
};

const thoughtSignatureDropped = (source: string, signature: common.Signature): Loss =>
  loss(
    signature.source ?? source,
    "dropped",
    "Chat cannot carry a thought signature; it was dropped.",
    "thinking.signature.foreign",
  );

/**
 * A reasoning part as an OpenRouter `reasoning_details` entry: chat's own entry as it came, else one
 * built from the part, its `format` naming the provider its signature or encrypted data belongs to.
 */
function reasoningDetail(part: common.ReasoningPart, index: number): chat.ReasoningDetail {
  const own = part.extra?.origin === "chat" ? part.extra.raw.detail : undefined;
  if (own !== undefined && own !== null && typeof own === "object") return own as chat.ReasoningDetail;
  const format = reasoningFormat(part.origin);
  if (part.redacted !== undefined) return { type: "reasoning.encrypted", data: part.redacted, format, index };
  // An empty signature (messages opens every thinking block with one) signs nothing.
  return part.signature === undefined || part.signature === ""
    ? { type: "reasoning.text", text: part.text, format, index }
    : { type: "reasoning.text", text: part.text, signature: part.signature, format, index };
}

/** A text part: joined to the texts before it, its citations kept as annotations where the target can. */
function addText(out: Assistant, part: common.TextPart, target: Target, losses: Loss[]): void {
  out.text = out.text === undefined ? part.text : out.text + part.text;
  if (part.citations !== undefined) {
    const items = target.citations(part.citations, part.source, losses);
    if (items !== undefined) {
      if (out.annotations === undefined) out.annotations = [];
      for (const item of items) out.annotations.push(item);
    }
  }
  if (part.signature !== undefined) losses.push(thoughtSignatureDropped(part.source, part.signature));
  if (target.reportCache && part.cache !== undefined) losses.push(cacheDropped(part.cache));
}

/**
 * A reasoning part: reasoning text, and where the dialect sends them (OpenRouter) a `reasoning_details`
 * entry with its signature or encrypted data; elsewhere a signature or redacted reasoning is a loss.
 */
function addReasoning(
  out: Assistant,
  part: common.ReasoningPart,
  withDetails: boolean,
  losses: Loss[],
): void {
  if (withDetails) {
    if (out.reasoningDetails === undefined) out.reasoningDetails = [];
    out.reasoningDetails.push(reasoningDetail(part, out.reasoningDetails.length));
    if (part.redacted === undefined)
      out.reasoning = out.reasoning === undefined ? part.text : out.reasoning + part.text;
    return;
  }
  if (part.redacted !== undefined) {
    losses.push(
      loss(
        part.source,
        "dropped",
        "Redacted thinking is opaque to chat and was dropped.",
        "thinking.redacted.foreign",
      ),
    );
    return;
  }
  out.reasoning = out.reasoning === undefined ? part.text : out.reasoning + part.text;
  if (part.signature !== undefined) {
    losses.push(
      loss(
        part.signatureSource ?? part.source,
        "dropped",
        "Chat cannot carry a thinking signature; it was dropped.",
        "thinking.signature.foreign",
      ),
    );
  }
}

/**
 * A client tool call: its id (made up when it has none; carrying another protocol's state when the
 * part's signature is chat's own carrier), a Gemini signature where the dialect has `extra_content`,
 * and a function or custom call.
 */
function toolCall(
  part: common.ToolCallPart,
  target: Target,
  seed: string,
  options: ResolvedOptions,
  ordinal: number,
  losses: Loss[],
): chat.ToolCall {
  let id = target.callId(part);
  if (id === undefined) {
    id = syntheticId(options, seed, ordinal);
    losses.push(
      loss(target.idPath(part), "synthesized", "The tool call had no id; a deterministic one was made up."),
    );
  }
  // A signature of chat's own is a carrier of another protocol's state (carrier.ts): it rides in the id.
  if (part.signature?.origin === "chat") id = withCarrier(id, part.signature.value);
  const signature =
    part.signature?.origin === "generative" && DIALECTS[options.chatDialect].extraContent
      ? part.signature.value
      : undefined;
  if (part.signature !== undefined && part.signature.origin !== "chat" && signature === undefined)
    losses.push(thoughtSignatureDropped(part.source, part.signature));
  if (target.reportCache && part.cache !== undefined) losses.push(cacheDropped(part.cache));
  const args = part.argumentsText ?? JSON.stringify(part.arguments ?? {});
  const call: chat.ToolCall =
    part.freeform === true
      ? { id, type: "custom", custom: { name: part.name, input: args } }
      : { id, type: "function", function: { name: part.name, arguments: args } };
  if (signature !== undefined) call.extra_content = { google: { thought_signature: signature } };
  return call;
}

/**
 * Walks `parts` once: adjacent texts (and reasonings, refusals) are joined with no separator;
 * a call with no id gets `syntheticId(options, seed, <its ordinal>)`.
 */
export function encodeAssistant(
  parts: readonly common.Part[],
  target: Target,
  seed: string,
  options: ResolvedOptions,
  losses: Loss[],
): Assistant {
  // The dialect says whether reasoning also goes out as OpenRouter `reasoning_details` (with its
  // signatures and encrypted entries), and a Gemini signature on a call as `extra_content`.
  const withDetails = DIALECTS[options.chatDialect].reasoningDetails;
  const out: Assistant = {
    text: undefined,
    reasoning: undefined,
    refusal: undefined,
    annotations: undefined,
    reasoningDetails: undefined,
    toolCalls: [],
  };
  for (const part of parts) {
    if (part.type === "text") addText(out, part, target, losses);
    else if (part.type === "reasoning") addReasoning(out, part, withDetails, losses);
    else if (part.type === "refusal")
      out.refusal = out.refusal === undefined ? part.text : out.refusal + part.text;
    else if (part.type === "tool-call" && part.server === undefined)
      out.toolCalls.push(toolCall(part, target, seed, options, out.toolCalls.length, losses));
    else target.unsupported(part, losses);
  }
  return out;
}
