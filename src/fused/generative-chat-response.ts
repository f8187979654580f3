/**
 * A fused generative → chat response path: straight from a generative response to a chat
 * completion, without the common model, for what Gemini responses carry — candidates whose parts are
 * text, thoughts, function calls (with ids or without: the hub's ids are derived), thought
 * signatures, and parts chat has no form for (code execution, media), a finish reason, candidate
 * fields of no common meaning (safety ratings, grounding, log probabilities …), `usageMetadata`,
 * `modelVersion`, `responseId`, `createTime` and a blocked prompt. The hub (decode to the common
 * model, encode from it) stays the specification: a value of the wrong type (unvalidated input)
 * returns `undefined`, and the caller takes the hub. What it handles it reports as the hub does and in
 * the hub's order: first what decoding drops (generative-response-fields.ts), then what encoding loses
 * candidate by candidate (thought signatures chat cannot carry, parts it has no form for, an
 * approximated finish reason), and a missing `created`. Pointers are built only for those losses.
 * test/fused/generative-chat-response.test.ts checks it against the hub, value and losses.
 */
import { inputSeed } from "../common/digest";
import { type Loss, loss } from "../common/loss";
import { type ResolvedOptions, syntheticId } from "../common/options";
import type { ResponseOf } from "../protocols";
import { DIALECTS, encodeChatFinishReason } from "../protocols/chat/adapter";
import { parseTimestamp } from "../protocols/generative/adapter";
import { append } from "./append";
import { chatUsage, createdSynthesized } from "./chat-target";
import { derivedCallId } from "./generative-fields";
import {
  CALL,
  callHead,
  commonFinishReason,
  MEDIA,
  OTHER,
  partRead,
  partSource,
  readCandidate,
  readPart,
  readResponseTop,
  readUsage,
  reportCandidateFields,
  TEXT,
} from "./generative-response-fields";

type ChatResponse = ResponseOf<"chat">;
type Node = Record<string, unknown>;
type ToolCall = {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  extra_content?: { google: { thought_signature: string } };
};

const signatureDropped = (position: number, index: number, what: "thought" | "thinking"): Loss =>
  loss(
    `${partSource(position, index)}/thoughtSignature`,
    "dropped",
    `Chat cannot carry a ${what} signature; it was dropped.`,
  );

/** generative → chat for what the readers take, or `undefined` for the hub. Never throws. */
export function generativeToChatResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: ChatResponse; losses: Loss[] } | undefined {
  const losses: Loss[] = [];
  const top = readResponseTop(body, losses);
  if (top === undefined) return undefined;
  const dialect = DIALECTS[options.chatDialect];
  const details = dialect.reasoningDetails;
  // A response without an id: the hub derives the chat id and the calls' ids from its digest.
  const digest = top.id === undefined ? inputSeed(body) : undefined;
  let head: string | undefined;
  // What encoding loses, reported after all that decoding drops (usage included), candidate by candidate.
  let late: Loss[] | undefined;
  let spoke = false;
  const choices: Node[] = [];
  const given = top.candidates;
  const into = partRead();
  if (given !== undefined)
    for (let position = 0; position < given.length; position++) {
      const candidate = readCandidate(given[position]);
      if (candidate === undefined) return undefined;
      let text: string | undefined;
      let reasoning: string | undefined;
      let entries: Node[] | undefined;
      let calls: ToolCall[] | undefined;
      const parts = candidate.parts;
      if (parts !== undefined)
        for (let index = 0; index < parts.length; index++) {
          if (!readPart(parts[index], position, index, into, losses)) return undefined;
          spoke = true;
          const signature = into.signature;
          switch (into.kind) {
            case TEXT:
              text = text === undefined ? into.text : text + into.text;
              if (signature !== undefined) late = append(late, signatureDropped(position, index, "thought"));
              break;
            case CALL: {
              const ordinal = calls === undefined ? 0 : calls.length;
              let id = into.id;
              if (id === undefined) {
                if (head === undefined) head = callHead(options, top.id, digest);
                id = derivedCallId(head, ordinal, `${partSource(position, index)}/functionCall/id`, losses);
              }
              const call: ToolCall = {
                id,
                type: "function",
                function: { name: into.name, arguments: JSON.stringify(into.args ?? {}) },
              };
              if (signature !== undefined) {
                if (dialect.extraContent) call.extra_content = { google: { thought_signature: signature } };
                else late = append(late, signatureDropped(position, index, "thought"));
              }
              calls = append(calls, call);
              break;
            }
            case MEDIA:
            case OTHER:
              late = append(
                late,
                loss(
                  partSource(position, index),
                  "dropped",
                  `A ${into.label} has no chat response form and was dropped.`,
                ),
              );
              break;
            default:
              reasoning = reasoning === undefined ? into.text : reasoning + into.text;
              if (details) {
                // OpenRouter's entry for a Gemini thought, its signature (not an empty one) with it.
                const entry: Node = { type: "reasoning.text", text: into.text };
                if (signature !== undefined && signature !== "") entry.signature = signature;
                entry.format = "google-gemini-v1";
                entry.index = entries === undefined ? 0 : entries.length;
                entries = append(entries, entry);
              } else if (signature !== undefined)
                late = append(late, signatureDropped(position, index, "thinking"));
          }
        }
      reportCandidateFields(given[position] as Node, position, losses);

      let finish: string | null = calls === undefined ? null : "tool_calls";
      const raw = candidate.finishReason;
      const reason = commonFinishReason(raw, calls !== undefined);
      if (reason !== undefined) {
        const mapped = encodeChatFinishReason(reason, calls !== undefined);
        finish = mapped.reason;
        if (mapped.approximate)
          late = append(
            late,
            loss(
              `/candidates/${position}/finishReason`,
              "approximated",
              `Finish reason "${raw ?? reason}" has no chat equivalent; "${mapped.reason}" was used.`,
            ),
          );
      }
      const message: Node = { role: "assistant", content: text ?? null };
      if (reasoning !== undefined) message[dialect.reasoningField] = reasoning;
      if (entries !== undefined) message.reasoning_details = entries;
      if (calls !== undefined) message.tool_calls = calls;
      choices.push({ index: candidate.index ?? position, message, finish_reason: finish });
    }

  let usage: Node | undefined;
  if (top.usage !== undefined) {
    const figures = readUsage(top.usage, losses);
    if (figures === undefined) return undefined;
    const { input, output } = figures;
    usage = chatUsage(
      input,
      output,
      figures.total ?? input + output,
      figures.cacheRead,
      undefined,
      figures.reasoning,
      dialect.cacheCounters,
    );
  }

  // A blocked prompt is a refusal of the whole request, also when empty candidates came with it; the
  // candidates are not encoded, so what encoding would have lost is not lost.
  const blocked = top.blockReason;
  if (blocked !== undefined && !spoke) {
    choices.length = 0;
    choices.push({
      index: 0,
      message: { role: "assistant", content: null, refusal: `Prompt blocked: ${blocked}` },
      finish_reason: "content_filter",
    });
  } else if (late !== undefined) for (const entry of late) losses.push(entry);

  const created =
    (top.createTime === undefined ? undefined : parseTimestamp(top.createTime)) ?? options.created;
  if (created === undefined) losses.push(createdSynthesized());
  const value: Node = {
    id: top.id ?? syntheticId(options, `chatcmpl_${digest}`),
    object: "chat.completion",
    created: created ?? 0,
    model: top.model ?? options.model ?? "",
    choices,
  };
  if (usage !== undefined) value.usage = usage;
  return { value: value as ChatResponse, losses };
}
