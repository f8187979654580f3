/**
 * A fused messages → responses response path: straight from a messages response to a responses
 * answer, without the common model, for the blocks responses carry — text, client `tool_use`, thinking
 * and redacted thinking, and server-side blocks (`server_tool_use`, their results, MCP blocks …),
 * which responses has no form for from another protocol — with the stop reason and usage. The hub
 * (decode to the common model, encode from it) stays the specification: anything this path does not
 * handle exactly as the hub would — the JSON-format tool (its call is the answer's text), request-only
 * blocks, a value of the wrong type (unvalidated input) — returns `undefined`, and the caller takes the
 * hub. What it handles it reports as the hub does and in the hub's order: first what decoding drops
 * (unknown fields of the body, of each block, of usage), then what encoding loses block by block
 * (citations, thinking signatures, redacted thinking, server-side blocks), an approximated stop
 * reason, and a missing `created`. Text blocks gather into one message item until reasoning or a call
 * closes it; a dropped server-side block leaves it open, as the hub's encoder does. Pointers are built
 * only for those losses. test/fused/messages-responses-response.test.ts checks it against the hub,
 * value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { ResponseOf } from "../protocols";
import { decodeMessagesStopReason } from "../protocols/messages/adapter";
import { append } from "./append";
import {
  BODY,
  dropExtras,
  isRequestBlock,
  JSON_TOOL,
  REDACTED,
  readMessagesHead,
  TEXT,
  THINKING,
  TOOL_USE,
  USAGE,
} from "./messages-response-fields";
import {
  citationsDropped,
  OutputItems,
  reasoningSignatureDropped,
  redactedDropped,
  responsesEnvelope,
  responsesUsage,
} from "./responses-response-target";

type ResponsesResponse = ResponseOf<"responses">;

/** messages → responses for the common shape, or `undefined` for the hub. Never throws. */
export function messagesToResponsesResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: ResponsesResponse; losses: Loss[] } | undefined {
  const head = readMessagesHead(body);
  if (head === undefined) return undefined;
  const { id, model, content, reason, usage, input, write, read, thinkingTokens } = head;
  const outputTokens = head.output;

  const losses: Loss[] = [];
  dropExtras(head.body, BODY, 0, losses);
  // One pass over the blocks: what decoding drops goes to `losses` now, what encoding loses to `late`
  // (the hub reports it after usage), in block order.
  const output = new OutputItems(options, id);
  let late: Loss[] | undefined;
  for (let index = 0; index < content.length; index++) {
    const block: unknown = content[index];
    if (!isObject(block)) return undefined;
    const type = block.type;
    if (typeof type !== "string") return undefined;
    switch (type) {
      case "text": {
        const text = block.text;
        const citations = block.citations;
        if (typeof text !== "string" || (citations != null && !Array.isArray(citations))) return undefined;
        dropExtras(block, TEXT, index, losses);
        if (citations != null && citations.length > 0)
          late = append(late, citationsDropped(`/content/${index}/citations`, "messages"));
        output.text(text);
        break;
      }
      case "thinking": {
        const thinking = block.thinking;
        if (typeof thinking !== "string" || typeof block.signature !== "string") return undefined;
        dropExtras(block, THINKING, index, losses);
        late = append(late, reasoningSignatureDropped(`/content/${index}/signature`));
        output.reasoning(thinking);
        break;
      }
      case "redacted_thinking":
        if (typeof block.data !== "string") return undefined;
        dropExtras(block, REDACTED, index, losses);
        late = append(late, redactedDropped(`/content/${index}`));
        output.reasoning("");
        break;
      case "tool_use": {
        const callId = block.id;
        const name = block.name;
        if (typeof callId !== "string" || typeof name !== "string" || name === JSON_TOOL) return undefined;
        dropExtras(block, TOOL_USE, index, losses);
        // The hub keeps an object input as arguments and writes anything else as text: both are its JSON.
        output.call(callId, name, JSON.stringify(block.input ?? {}));
        break;
      }
      default:
        if (isRequestBlock(type)) return undefined;
        // A server-side block (or one the hub does not know) is opaque to every other protocol.
        late = append(
          late,
          loss(
            `/content/${index}`,
            "dropped",
            `A messages ${type} block has no responses form and was dropped.`,
          ),
        );
    }
  }
  dropExtras(usage, USAGE, 0, losses);
  if (late !== undefined) for (const entry of late) losses.push(entry);

  // Cache reads and writes are part of the common input count; a null count says as little as none.
  const inputTokens = (input ?? 0) + (read ?? 0) + (write ?? 0);
  const usageValue = responsesUsage(
    inputTokens,
    outputTokens,
    inputTokens + outputTokens,
    read ?? undefined,
    write ?? undefined,
    thinkingTokens ?? undefined,
  );
  const value = responsesEnvelope(
    id,
    undefined,
    model,
    {
      ...(reason === null
        ? { reason: undefined, raw: undefined, path: "" }
        : { reason: decodeMessagesStopReason(reason), raw: reason, path: "/stop_reason" }),
      stopPath: typeof head.body.stop_sequence === "string" ? "/stop_sequence" : undefined,
    },
    false,
    output.done(),
    usageValue,
    options,
    losses,
  );
  return { value, losses };
}
