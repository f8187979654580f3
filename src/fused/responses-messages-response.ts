/**
 * A fused responses → messages response path: straight from a responses response to a messages
 * response, without the common model, for what responses answers carry — message items (text,
 * refusals as text), reasoning items (as `thinking` with an empty signature, moved first as the hub
 * moves another protocol's reasoning), function and custom tool calls, and the server-side tool calls
 * and other items messages has no form for — with the status as a stop reason and usage. The hub
 * (decode to the common model, encode from it) stays the specification; what this path does not read
 * exactly as the hub would (a value of the wrong type, unvalidated input) returns `undefined`, and the
 * caller takes the hub. Losses come in the hub's order: first what decoding drops
 * (responses-response-fields.ts), then what encoding loses block by block in the encoded order
 * (reasoning signatures, citations, free-form or non-object call arguments, items and parts messages
 * has no form for), an approximated stop reason, and missing usage.
 * test/fused/responses-messages-response.test.ts checks it against the hub, value and losses.
 */
import { parseJsonObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { ResponseOf } from "../protocols";
import { chooseStopReason } from "../protocols/messages/adapter";
import { type ResponsesPart, readResponsesResponse } from "./responses-response-fields";

type MessagesResponse = ResponseOf<"messages">;
type Node = Record<string, unknown>;

/**
 * One part → its block, with what the messages response encoder (src/protocols/messages/response.ts,
 * encode-blocks.ts) loses on it, as it words it; `undefined` for a part it drops.
 */
function block(part: ResponsesPart, losses: Loss[]): Node | undefined {
  switch (part.type) {
    case "text":
      if (part.cited)
        losses.push(
          loss(
            `/output/${part.item}/content/${part.index}/annotations`,
            "dropped",
            "Citations from the responses protocol have no messages equivalent and were dropped.",
          ),
        );
      return { type: "text", text: part.text };
    case "refusal":
      return { type: "text", text: part.text };
    case "reasoning":
      if (part.signature !== undefined)
        losses.push(
          loss(
            `/output/${part.item}/encrypted_content`,
            "dropped",
            "A reasoning signature is valid only at the provider that issued it and was dropped.",
          ),
        );
      return { type: "thinking", thinking: part.text, signature: "" };
    case "call":
      return { type: "tool_use", id: part.id, name: part.name, input: callInput(part, losses) };
    default:
      losses.push(
        loss(
          part.index < 0 ? `/output/${part.item}` : `/output/${part.item}/content/${part.index}`,
          "dropped",
          `A responses ${part.label} has no messages equivalent and was dropped.`,
        ),
      );
      return undefined;
  }
}

/** A call's `input`: its arguments object, `{}` for blank ones, else wrapped (`encodeArguments`). */
function callInput(part: ResponsesPart & { type: "call" }, losses: Loss[]): unknown {
  const text = part.text;
  if (part.custom) {
    losses.push(
      loss(
        `/output/${part.item}/input`,
        "approximated",
        'The messages API has no free-form tool calls; the call\'s text input was sent as `{"input": text}`.',
      ),
    );
    return { input: text };
  }
  if (text.trim() === "") return {};
  const parsed = parseJsonObject(text);
  if (parsed !== undefined) return parsed;
  losses.push(
    loss(
      `/output/${part.item}/arguments`,
      "approximated",
      'Tool-call arguments are not a JSON object; they were wrapped as `{"_raw": text}`.',
    ),
  );
  return { _raw: text };
}

/** responses → messages for what the answer carries, or `undefined` for the hub. Never throws. */
export function responsesToMessagesResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: MessagesResponse; losses: Loss[] } | undefined {
  const read = readResponsesResponse(body);
  if (read === undefined) return undefined;
  const losses = read.losses;
  const parts = read.parts;
  const content: Node[] = [];
  // Another protocol's reasoning goes first, in its order; then the rest in theirs.
  if (read.reasonings > 0)
    for (const part of parts) {
      if (part.type !== "reasoning") continue;
      content.push(block(part, losses) as Node);
    }
  for (const part of parts) {
    if (part.type === "reasoning" && read.reasonings > 0) continue;
    const encoded = block(part, losses);
    if (encoded !== undefined) content.push(encoded);
  }
  const stop = chooseStopReason({
    reason: read.finish,
    rawReason: read.rawFinish,
    hasToolCalls: read.calls > 0,
    hasRefusal: read.refusals > 0,
    own: false,
  });
  if (stop.approximated)
    losses.push(
      loss(
        read.finishSource ?? "",
        "approximated",
        `Finish reason \`${read.rawFinish ?? read.finish}\` has no messages equivalent; \`${stop.value}\` was sent.`,
      ),
    );
  const figures = read.usage;
  let usage: Node;
  if (figures === undefined) {
    losses.push(loss("/usage", "synthesized", "The source reported no usage; zero usage was sent."));
    usage = { input_tokens: 0, output_tokens: 0 };
  } else {
    const cacheRead = figures.cacheRead;
    const cacheWrite = figures.cacheWrite;
    usage = {
      input_tokens: Math.max(0, figures.input - (cacheRead ?? 0) - (cacheWrite ?? 0)),
      cache_creation_input_tokens: cacheWrite ?? 0,
      cache_read_input_tokens: cacheRead ?? 0,
      output_tokens: figures.output,
    };
    if (figures.reasoning !== undefined) usage.output_tokens_details = { thinking_tokens: figures.reasoning };
  }
  const value: Node = {
    id: read.id,
    type: "message",
    role: "assistant",
    model: read.model ?? options.model ?? "",
    content,
    stop_reason: stop.value,
    stop_sequence: null,
    usage,
  };
  return { value: value as MessagesResponse, losses };
}
