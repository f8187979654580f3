/**
 * A fused responses → chat response path: straight from a responses response to a chat completion,
 * without the common model, for what responses answers carry — message items (text, refusals),
 * reasoning items, function and custom tool calls, and the server-side tool calls and other items chat
 * has no form for — with the status as a finish reason and usage. The hub (decode to the common
 * model, encode from it) stays the specification; what this path does not read exactly as the hub
 * would (a value of the wrong type, unvalidated input) returns `undefined`, and the caller takes the
 * hub. Losses come in the hub's order: first what decoding drops (responses-response-fields.ts), then
 * what encoding loses part by part (citations, reasoning signatures, items and parts chat has no form
 * for), an approximated finish reason, and a missing `created`. test/fused/responses-chat-response.
 * test.ts checks it against the hub, value and losses.
 */
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { ResponseOf } from "../protocols";
import { DIALECTS, encodeChatFinishReason, reasoningFormat } from "../protocols/chat/adapter";
import { chatUsage, createdSynthesized } from "./chat-target";
import { type ResponsesPart, readResponsesResponse } from "./responses-response-fields";

type ChatResponse = ResponseOf<"chat">;
type Node = Record<string, unknown>;

/** The OpenRouter `format` of a responses reasoning entry (the hub's table; one lookup, not one per entry). */
const FORMAT = reasoningFormat("responses");

/** The pointer of an item (`index` -1) or of a message's content part. */
const pointer = (part: { item: number; index: number }): string =>
  part.index < 0 ? `/output/${part.item}` : `/output/${part.item}/content/${part.index}`;

/** What the chat response encoder (src/protocols/chat/assistant.ts) loses on a part, as it words it. */
function partLoss(part: ResponsesPart, losses: Loss[]): void {
  if (part.type === "text")
    losses.push(
      loss(
        `/output/${part.item}/content/${part.index}/annotations`,
        "dropped",
        "Citations from the responses protocol have no chat form and were dropped.",
      ),
    );
  else if (part.type === "reasoning")
    losses.push(
      loss(
        `/output/${part.item}/encrypted_content`,
        "dropped",
        "Chat cannot carry a thinking signature; it was dropped.",
      ),
    );
  else if (part.type === "opaque")
    losses.push(loss(pointer(part), "dropped", `A ${part.label} has no chat response form and was dropped.`));
}

/** responses → chat for what the answer carries, or `undefined` for the hub. Never throws. */
export function responsesToChatResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: ChatResponse; losses: Loss[] } | undefined {
  const read = readResponsesResponse(body);
  if (read === undefined) return undefined;
  const losses = read.losses;
  const dialect = DIALECTS[options.chatDialect];
  const details = dialect.reasoningDetails;

  let text: string | undefined;
  let reasoning: string | undefined;
  let refusal: string | undefined;
  let reasoningDetails: Node[] | undefined;
  let calls: Node[] | undefined;
  const parts = read.parts;
  for (let position = 0; position < parts.length; position++) {
    const part = parts[position] as ResponsesPart;
    switch (part.type) {
      case "text":
        text = text === undefined ? part.text : text + part.text;
        if (part.cited) partLoss(part, losses);
        break;
      case "refusal":
        refusal = refusal === undefined ? part.text : refusal + part.text;
        break;
      case "reasoning":
        reasoning = reasoning === undefined ? part.text : reasoning + part.text;
        if (details) {
          if (reasoningDetails === undefined) reasoningDetails = [];
          // An empty signature signs nothing (the hub's `reasoningDetail`).
          const detail: Node = { type: "reasoning.text", text: part.text };
          if (part.signature !== undefined && part.signature !== "") detail.signature = part.signature;
          detail.format = FORMAT;
          detail.index = reasoningDetails.length;
          reasoningDetails.push(detail);
        } else if (part.signature !== undefined) partLoss(part, losses);
        break;
      case "call": {
        if (calls === undefined) calls = [];
        calls.push(
          part.custom
            ? { id: part.id, type: "custom", custom: { name: part.name, input: part.text } }
            : { id: part.id, type: "function", function: { name: part.name, arguments: part.text } },
        );
        break;
      }
      default:
        partLoss(part, losses);
    }
  }

  let finish: string | null = calls === undefined ? null : "tool_calls";
  const reason = read.finish;
  if (reason !== undefined) {
    const mapped = encodeChatFinishReason(reason, calls !== undefined);
    finish = mapped.reason;
    if (mapped.approximate)
      losses.push(
        loss(
          read.finishSource as string,
          "approximated",
          `Finish reason "${read.rawFinish ?? reason}" has no chat equivalent; "${mapped.reason}" was used.`,
        ),
      );
  }
  const created = read.created ?? options.created;
  if (created === undefined) losses.push(createdSynthesized());

  const message: Node = { role: "assistant", content: text ?? null };
  if (reasoning !== undefined) message[dialect.reasoningField] = reasoning;
  if (reasoningDetails !== undefined) message.reasoning_details = reasoningDetails;
  if (refusal !== undefined) message.refusal = refusal;
  if (calls !== undefined) message.tool_calls = calls;
  const value: Node = {
    id: read.id,
    object: "chat.completion",
    created: created ?? 0,
    model: read.model ?? options.model ?? "",
    choices: [{ index: 0, message, finish_reason: finish }],
  };
  const usage = read.usage;
  if (usage !== undefined)
    value.usage = chatUsage(
      usage.input,
      usage.output,
      usage.total ?? usage.input + usage.output,
      usage.cacheRead,
      usage.cacheWrite,
      usage.reasoning,
      dialect.cacheCounters,
    );
  return { value: value as ChatResponse, losses };
}
