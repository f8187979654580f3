/**
 * A fused chat → generative response path: straight from a chat completion to a generative response,
 * without the common model, for the shape most completions have — one choice whose message carries
 * text and/or function tool calls (and, from reasoning models, `reasoning_content`, `reasoning` or
 * OpenRouter's `reasoning_details`; from Gemini's compatible endpoint, thought signatures), a refusal,
 * a finish reason and usage. The hub (decode to the common model, encode from it) stays the
 * specification: what this path does not handle exactly as the hub would — several choices, content
 * parts, audio with a transcript, a named legacy `function_call`, custom tool calls, an upper-case
 * finish reason chat does not know (the hub may restore it as generative's own), a value of the wrong
 * type (unvalidated input) — returns `undefined`, and the caller takes the hub. What it handles it
 * reports as the hub does and in the hub's order: first what decoding drops (chat-response-fields.ts),
 * then what encoding loses, part by part (another provider's reasoning signature, redacted reasoning,
 * citations, a refusal sent as text, arguments that are not a JSON object). Chat's finish reasons all
 * have a generative equivalent, and generative reports no missing usage: neither is a loss here.
 * test/fused/chat-generative-response.test.ts checks it against the hub, value and losses.
 */
import { type Loss, loss } from "../common/loss";
import { type ResolvedOptions, syntheticId } from "../common/options";
import type { ResponseOf } from "../protocols";
import { append } from "./append";
import {
  commonReason,
  type EntryPart,
  isCount,
  openParts,
  parseArguments,
  readCall,
  readCompletion,
  reportRest,
} from "./chat-response-fields";

type GenerativeResponse = ResponseOf<"generative">;
type Candidate = NonNullable<GenerativeResponse["candidates"]>[number];
type Part = NonNullable<NonNullable<Candidate["content"]>["parts"]>[number];
type UsageMetadata = NonNullable<GenerativeResponse["usageMetadata"]>;

/**
 * A reasoning entry → a thought part as the hub makes it: a text entry keeps its signature when its
 * `format` is Gemini's (another provider's is a loss), a summary is a thought without one, encrypted
 * reasoning has no generative form (a loss, no part). Losses are appended to `late`.
 */
const thoughtPart: EntryPart<Part> = (entry, source, parts, late) => {
  switch (entry.type) {
    case "reasoning.text": {
      const signature = entry.signature;
      const text = entry.text ?? "";
      if (signature == null || signature === "") parts.push({ text, thought: true });
      else if (entry.format === "google-gemini-v1")
        parts.push({ text, thought: true, thoughtSignature: signature });
      else {
        parts.push({ text, thought: true });
        const origin = entry.format === "anthropic-claude-v1" ? "messages" : "chat";
        return append(
          late,
          loss(
            `${source}/signature`,
            "dropped",
            `A ${origin} thinking signature has no meaning at generative and was dropped.`,
          ),
        );
      }
      return late;
    }
    case "reasoning.summary":
      parts.push({ text: entry.summary ?? "", thought: true });
      return late;
    default:
      return append(
        late,
        loss(source, "dropped", "Redacted thinking has no generative equivalent and was dropped."),
      );
  }
};

/** Reasoning read from `reasoning_content` or `reasoning`: a thought part. */
const thought = (text: string): Part => ({ text, thought: true });

/** The number of decimal digits of `ordinal` (a call's position, never negative). */
function digits(ordinal: number): number {
  let count = 1;
  for (let rest = ordinal; rest >= 10; rest = Math.floor(rest / 10)) count++;
  return count;
}

/** Whether `id` ends in `_<ordinal>`, as every id the hub synthesizes for the call at `ordinal` does. */
function endsWithOrdinal(id: string, ordinal: number): boolean {
  let end = id.length;
  let rest = ordinal;
  do {
    if (id.charCodeAt(--end) !== 48 + (rest % 10)) return false;
    rest = Math.floor(rest / 10);
  } while (rest > 0);
  return id.charCodeAt(end - 1) === 95;
}

/** chat → generative for the common shape, or `undefined` for the hub. Never throws. */
export function chatToGenerativeResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: GenerativeResponse; losses: Loss[] } | undefined {
  const completion = readCompletion(body);
  if (completion === undefined) return undefined;
  const { id, content, refusal, calls, annotations, signature, usage } = completion;
  const index = completion.choice.index;
  if (typeof index !== "number") return undefined;
  // Chat's reasons are lower-case; an upper-case one the hub may keep as generative's own.
  const reason = completion.reason;
  const given = reason != null && reason !== "" ? commonReason(reason) : undefined;
  if (given === "other" && /^[A-Z_]+$/.test(reason as string)) return undefined;
  let usageMetadata: UsageMetadata | undefined;
  if (usage != null) {
    const total = usage.total_tokens;
    if (!isCount(total)) return undefined;
    const input = completion.promptTokens ?? 0;
    const output = completion.completionTokens ?? 0;
    const thoughts = completion.reasoningTokens ?? 0;
    usageMetadata = {
      promptTokenCount: Math.max(0, input),
      candidatesTokenCount: Math.max(0, output - thoughts),
      thoughtsTokenCount: thoughts,
    };
    const read = completion.cacheRead;
    if (read != null) usageMetadata.cachedContentTokenCount = read;
    usageMetadata.totalTokenCount = total ?? input + output;
  }

  // What decoding drops first, then the parts in the hub's order: reasoning, text, refusal, calls.
  // What encoding loses waits in `late` (the hub reports it after everything decoding drops).
  const losses: Loss[] = [];
  const parts: Part[] = [];
  const opened = openParts(completion, thoughtPart, thought, parts, losses);
  if (opened === false) return undefined;
  let late = opened;
  if (typeof content === "string") {
    // The message's signature signs the text when there is no call (Gemini's own, so it is kept).
    parts.push(
      signature !== undefined && !completion.hasCalls
        ? { text: content, thoughtSignature: signature }
        : { text: content },
    );
    if (annotations != null && annotations.length > 0)
      late = append(
        late,
        loss(
          "/choices/0/message/annotations",
          "dropped",
          "Citations of another protocol have no generative form and were dropped.",
        ),
      );
  }
  const hasRefusal = refusal != null && refusal !== "";
  if (hasRefusal) {
    late = append(
      late,
      loss(
        "/choices/0/message/refusal",
        "approximated",
        "A refusal was sent as text with finishReason SAFETY.",
      ),
    );
    parts.push({ text: refusal });
  }
  let firstSigned = false;
  let head: string | undefined;
  if (calls != null) {
    for (let ordinal = 0; ordinal < calls.length; ordinal++) {
      const call = readCall(calls[ordinal], ordinal, losses);
      if (call === undefined) return undefined;
      let signed = call.signature;
      if (ordinal === 0) {
        firstSigned = signed !== undefined;
        if (!firstSigned) signed = signature;
      }
      // No id (`""`) stays none; nor is an id sent that the hub would take for one it synthesized
      // (`<head>_<ordinal>`: its head is made once, and only for an id that ends so).
      const callId = call.id;
      let sent: string | undefined = callId;
      if (callId === "") sent = undefined;
      else if (endsWithOrdinal(callId, ordinal)) {
        if (head === undefined) head = syntheticId(options, id);
        if (callId.length === head.length + 1 + digits(ordinal) && callId.startsWith(head)) sent = undefined;
      }
      let args = parseArguments(call.arguments);
      if (args === undefined) {
        late = append(
          late,
          loss(
            `/choices/0/message/tool_calls/${ordinal}`,
            "dropped",
            "The call's arguments are not a JSON object; {} was sent.",
          ),
        );
        args = {};
      }
      const functionCall =
        sent === undefined ? { name: call.name, args } : { id: sent, name: call.name, args };
      parts.push(signed === undefined ? { functionCall } : { functionCall, thoughtSignature: signed });
    }
  }
  reportRest(completion, firstSigned, losses, late);

  // Every chat reason has a generative equivalent; a refusal's STOP is SAFETY.
  const candidate: Candidate = { content: { role: "model", parts } };
  if (given !== undefined)
    candidate.finishReason =
      given === "length"
        ? "MAX_TOKENS"
        : given === "content-filter"
          ? "SAFETY"
          : given === "other"
            ? "OTHER"
            : hasRefusal
              ? "SAFETY"
              : "STOP";
  candidate.index = index;
  const value: GenerativeResponse = { candidates: [candidate] };
  if (usageMetadata !== undefined) value.usageMetadata = usageMetadata;
  value.modelVersion = completion.model;
  value.responseId = id;
  return { value, losses };
}
