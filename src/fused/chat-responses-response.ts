/**
 * A fused chat → responses response path: straight from a chat completion to a responses answer,
 * without the common model, for the shape most completions have — one choice whose message carries
 * text and/or function tool calls (and, from reasoning models, `reasoning_content`, `reasoning` or
 * OpenRouter's `reasoning_details`; from Gemini's compatible endpoint, thought signatures), a refusal,
 * a finish reason and usage. The hub (decode to the common model, encode from it) stays the
 * specification: what this path does not handle exactly as the hub would — several choices, content
 * parts, audio with a transcript, a named legacy `function_call`, custom tool calls, a value of the
 * wrong type (unvalidated input) — returns `undefined`, and the caller takes the hub. What it handles
 * it reports as the hub does and in the hub's order: first what decoding drops
 * (chat-response-fields.ts), then what encoding loses item by item (another provider's reasoning
 * signature, redacted reasoning, a thought signature, citations, a call without an id), an
 * approximated finish reason, a missing `created`. test/fused/chat-responses-response.test.ts checks
 * it against the hub, value and losses.
 */
import type { Loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { ResponseOf } from "../protocols";
import { append } from "./append";
import {
  callSignaturePath,
  commonReason,
  type EntryPart,
  isCount,
  openParts,
  readCall,
  readCompletion,
  reportRest,
} from "./chat-response-fields";
import {
  callIdSynthesized,
  citationsDropped,
  OutputItems,
  reasoningSignatureDropped,
  redactedDropped,
  responsesEnvelope,
  responsesUsage,
  thoughtSignatureDropped,
} from "./responses-response-target";

type ResponsesResponse = ResponseOf<"responses">;

/**
 * A reasoning entry → the text of its reasoning item (pushed to `texts`; `OutputItems.reasoningRead`
 * makes the items), what encoding loses appended to `late`: every signature (no chat format is
 * responses'), and encrypted reasoning, whose item has no summary.
 */
const reasoningText: EntryPart<unknown> = (entry, source, texts, late) => {
  switch (entry.type) {
    case "reasoning.text": {
      texts.push(entry.text ?? "");
      const signature = entry.signature;
      return signature != null && signature !== ""
        ? append(late, reasoningSignatureDropped(`${source}/signature`))
        : late;
    }
    case "reasoning.summary":
      texts.push(entry.summary ?? "");
      return late;
    default:
      texts.push("");
      return append(late, redactedDropped(source));
  }
};

/** Reasoning read from `reasoning_content` or `reasoning`: its text. */
const plainText = (text: string): unknown => text;

/** chat → responses for the common shape, or `undefined` for the hub. Never throws. */
export function chatToResponsesResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: ResponsesResponse; losses: Loss[] } | undefined {
  const completion = readCompletion(body);
  if (completion === undefined) return undefined;
  const { id, content, refusal, calls, annotations, signature, usage } = completion;
  const created = completion.body.created;
  if (!isCount(created)) return undefined;
  const total = usage?.total_tokens;
  if (!isCount(total)) return undefined;

  // What decoding drops first, then the items in the hub's order: reasoning, the message (text, then
  // refusal), calls. What encoding loses waits in `late` (the hub reports it after all decoding drops).
  const losses: Loss[] = [];
  const output = new OutputItems(options, id);
  const opened = openParts(completion, reasoningText, plainText, output.items, losses);
  if (opened === false) return undefined;
  output.reasoningRead();
  let late = opened;
  if (typeof content === "string") {
    // The message's signature signs the text when there is no call (Gemini's: not responses').
    if (signature !== undefined && !completion.hasCalls)
      late = append(late, thoughtSignatureDropped(completion.signaturePath));
    if (annotations != null && annotations.length > 0)
      late = append(late, citationsDropped("/choices/0/message/annotations", "chat"));
    output.text(content);
  }
  const hasRefusal = refusal != null && refusal !== "";
  if (hasRefusal) output.refusal(refusal);
  let firstSigned = false;
  if (calls != null) {
    for (let index = 0; index < calls.length; index++) {
      const call = readCall(calls[index], index, losses);
      if (call === undefined) return undefined;
      const own = call.signature !== undefined;
      if (index === 0) firstSigned = own;
      const signedAt = callSignaturePath(completion, index, own);
      if (signedAt !== undefined) late = append(late, thoughtSignatureDropped(signedAt));
      // A call without an id (`""`, Gemini's compatible endpoint) gets the hub's derived one.
      const callId = call.id;
      if (callId === "") late = append(late, callIdSynthesized(`/choices/0/message/tool_calls/${index}`));
      output.call(callId === "" ? undefined : callId, call.name, call.arguments);
    }
  }
  reportRest(completion, firstSigned, losses, late);

  const reason = completion.reason;
  const given = reason != null && reason !== "" ? reason : undefined;
  let usageValue: Record<string, unknown> | null = null;
  if (usage != null) {
    const input = completion.promptTokens ?? 0;
    const outputTokens = completion.completionTokens ?? 0;
    usageValue = responsesUsage(
      input,
      outputTokens,
      total ?? input + outputTokens,
      completion.cacheRead ?? undefined,
      completion.cacheWrite ?? undefined,
      completion.reasoningTokens ?? undefined,
    );
  }
  const value = responsesEnvelope(
    id,
    created ?? undefined,
    completion.model,
    {
      reason: given === undefined ? undefined : commonReason(given),
      raw: given,
      path: "/choices/0/finish_reason",
    },
    hasRefusal,
    output.done(),
    usageValue,
    options,
    losses,
  );
  return { value, losses };
}
