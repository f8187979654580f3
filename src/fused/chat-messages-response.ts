/**
 * A fused chat → messages response path: straight from a chat completion to a messages response,
 * without the common model, for the shape most completions have — one choice whose message carries
 * text and/or function tool calls (and, from reasoning models, `reasoning_content` or `reasoning`),
 * a finish reason and usage. The hub (decode to the common model, encode from it) stays the
 * specification: anything this path does not handle exactly as the hub would — several choices,
 * content parts, audio with a transcript, a named legacy `function_call`, custom tool calls, a value of the wrong type (unvalidated input) — returns `undefined`, and the caller takes the
 * hub. What it handles it reports as the hub does and in the hub's order: first what decoding drops
 * (unknown fields of the body, the choice, the message, a tool call, usage), then what encoding
 * loses (annotations, arguments that are not a JSON object, an approximated finish reason, missing
 * usage). Pointers are built only for those losses. test/fused/chat-messages-response.test.ts checks
 * it against the hub, value and losses.
 */
import { type Loss, loss } from "../common/loss";
import { type ResolvedOptions, syntheticId } from "../common/options";
import type { ResponseOf } from "../protocols";
import { append } from "./append";
import {
  type Completion,
  callSignaturePath,
  commonReason,
  type EntryPart,
  openParts,
  parseArguments,
  readCall,
  readCompletion,
  reportRest,
} from "./chat-response-fields";

type MessagesResponse = ResponseOf<"messages">;
type Block = MessagesResponse["content"][number];

/** The usage the hub sends: chat's counts (cache reads and writes inside `prompt_tokens`) → messages'. */
function encodeUsage(completion: Completion): MessagesResponse["usage"] {
  const read = completion.cacheRead;
  const write = completion.cacheWrite;
  const reasoning = completion.reasoningTokens;
  const encoded: MessagesResponse["usage"] = {
    input_tokens: Math.max(0, (completion.promptTokens ?? 0) - (read ?? 0) - (write ?? 0)),
    cache_creation_input_tokens: write ?? 0,
    cache_read_input_tokens: read ?? 0,
    output_tokens: completion.completionTokens ?? 0,
  };
  if (reasoning != null) encoded.output_tokens_details = { thinking_tokens: reasoning };
  return encoded;
}

/** What the hub reports for another provider's thought signature on a text or a call. */
const foreignSignature = (path: string): Loss =>
  loss(path, "dropped", "A thought signature is valid only at the provider that issued it and was dropped.");

/**
 * A reasoning entry → a thinking block as the hub makes it: an entry whose `format` is Anthropic's
 * keeps its signature (and its encrypted data, as redacted thinking); another provider's signature or
 * encrypted data cannot be verified by messages and is a loss (appended to `late`).
 */
const thinkingBlock: EntryPart<Block> = (entry, source, blocks, late) => {
  const own = entry.format === "anthropic-claude-v1";
  switch (entry.type) {
    case "reasoning.text": {
      const { text, signature } = entry;
      const signed = signature != null && signature !== "";
      if (signed && !own)
        late = append(
          late,
          loss(
            `${source}/signature`,
            "dropped",
            "A reasoning signature is valid only at the provider that issued it and was dropped.",
          ),
        );
      blocks.push({ type: "thinking", thinking: text ?? "", signature: own && signed ? signature : "" });
      return late;
    }
    case "reasoning.summary":
      blocks.push({ type: "thinking", thinking: entry.summary ?? "", signature: "" });
      return late;
    default:
      if (own) {
        blocks.push({ type: "redacted_thinking", data: entry.data ?? "" });
        return late;
      }
      blocks.push({ type: "thinking", thinking: "", signature: "" });
      return append(
        late,
        loss(
          source,
          "dropped",
          "Redacted reasoning of another protocol has no messages equivalent and was dropped.",
        ),
      );
  }
};

/** Reasoning read from `reasoning_content` or `reasoning`: a thinking block without a signature. */
const thinking = (text: string): Block => ({ type: "thinking", thinking: text, signature: "" });

/** chat → messages for the common shape, or `undefined` for the hub. Never throws. */
export function chatToMessagesResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: MessagesResponse; losses: Loss[] } | undefined {
  const completion = readCompletion(body);
  if (completion === undefined) return undefined;
  const { id, content, refusal, calls, annotations, signature, usage } = completion;
  const signsText = signature !== undefined && !completion.hasCalls && typeof content === "string";

  // What decoding drops first, then the blocks in the hub's order: reasoning, text, refusal, calls.
  // What encoding loses waits in `late` (the hub reports it after everything decoding drops).
  const losses: Loss[] = [];
  const blocks: Block[] = [];
  const opened = openParts(completion, thinkingBlock, thinking, blocks, losses);
  if (opened === false) return undefined;
  let late = opened;
  if (typeof content === "string") {
    blocks.push({ type: "text", text: content });
    if (signsText) late = append(late, foreignSignature(completion.signaturePath));
    if (annotations != null && annotations.length > 0)
      late = append(
        late,
        loss(
          "/choices/0/message/annotations",
          "dropped",
          "Citations from the chat protocol have no messages equivalent and were dropped.",
        ),
      );
  }
  const hasRefusal = refusal != null && refusal !== "";
  if (hasRefusal) blocks.push({ type: "text", text: refusal });
  let callCount = 0;
  let firstSigned = false;
  if (calls != null) {
    for (let index = 0; index < calls.length; index++) {
      const call = readCall(calls[index], index, losses);
      if (call === undefined) return undefined;
      const own = call.signature !== undefined;
      if (index === 0) firstSigned = own;
      const signedAt = callSignaturePath(completion, index, own);
      if (signedAt !== undefined) late = append(late, foreignSignature(signedAt));
      const text = call.arguments;
      let input = parseArguments(text);
      if (input === undefined) {
        late = append(
          late,
          loss(
            `/choices/0/message/tool_calls/${index}/function/arguments`,
            "approximated",
            'Tool-call arguments are not a JSON object; they were wrapped as `{"_raw": text}`.',
          ),
        );
        input = { _raw: text };
      }
      // A call without an id (`""`) gets the hub's deterministic one, seeded by the response id.
      const blockId = call.id !== "" ? call.id : syntheticId(options, id, callCount);
      blocks.push({ type: "tool_use", id: blockId, name: call.name, input });
      callCount++;
    }
  }
  reportRest(completion, firstSigned, losses, late);

  // The stop reason as the hub chooses it for a reason that is not messages' own.
  const reason = completion.reason;
  const given = reason != null && reason !== "" ? commonReason(reason) : undefined;
  const natural = given === undefined || given === "stop" || given === "other";
  let stop: string;
  let approximated = false;
  if (callCount > 0 && (natural || given === "tool-calls")) stop = "tool_use";
  else if (given === "tool-calls") {
    stop = "end_turn";
    approximated = true;
  } else if (hasRefusal && natural) stop = "refusal";
  else if (given === undefined || given === "stop") stop = "end_turn";
  else if (given === "length") stop = "max_tokens";
  else if (given === "content-filter") stop = "refusal";
  else {
    stop = "end_turn";
    approximated = true;
  }
  if (approximated)
    losses.push(
      loss(
        "/choices/0/finish_reason",
        "approximated",
        `Finish reason \`${reason}\` has no messages equivalent; \`${stop}\` was sent.`,
      ),
    );
  if (usage == null)
    losses.push(loss("/usage", "synthesized", "The source reported no usage; zero usage was sent."));
  const value = {
    id,
    type: "message",
    role: "assistant",
    model: completion.model,
    content: blocks,
    stop_reason: stop,
    stop_sequence: null,
    usage: usage == null ? { input_tokens: 0, output_tokens: 0 } : encodeUsage(completion),
  } as MessagesResponse;
  return { value, losses };
}
