/**
 * messages response ↔ common response: thinking first, tool calls ⇒ `tool_use`, foreign
 * reasoning as `thinking` with an empty signature, usage arithmetic, ids kept or derived.
 * @see https://docs.anthropic.com/en/api/messages
 */
import { inputSeed } from "../../common/digest";
import { type Loss, loss, type Translated } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { decodeBlock, dropExtras } from "./decode-blocks";
import { dropForeignSignature, encodeArguments, encodeCitations, encodeOpaquePart } from "./encode-blocks";
import { chooseStopReason, decodeMessagesStopReason } from "./finish-reason";
import { JSON_TOOL } from "./request-settings";
import type { ContentBlock, Response } from "./schema";
import { decodeMessagesUsage, encodeMessagesUsage } from "./usage";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const KNOWN_FIELDS = ["id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"];

/** A tool_use of the JSON-format tool is the answer itself: it becomes text. */
function isJsonTool(block: ContentBlock): block is ContentBlock & { input: unknown } {
  return block.type === "tool_use" && (block as { name?: unknown }).name === JSON_TOOL;
}

/** messages response → common response. */
export function decodeMessagesResponse(
  body: Response,
  _options: ResolvedOptions,
): Translated<common.Response> {
  const losses: Loss[] = [];
  const extra = dropExtras(body, KNOWN_FIELDS, "", "the response", losses);
  const parts: common.Part[] = [];
  let jsonOnly = false;
  let hasCalls = false;
  const content = body.content;
  for (let index = 0; index < content.length; index++) {
    const block = content[index] as ContentBlock;
    const source = `/content/${index}`;
    if (isJsonTool(block)) {
      parts.push({ type: "text", text: JSON.stringify(block.input ?? {}), source });
      jsonOnly = true;
      continue;
    }
    const part = decodeBlock(block, source, losses);
    if (part === undefined) continue;
    parts.push(part);
    if (part.type === "tool-call" && part.server === undefined) hasCalls = true;
  }
  const raw = body.stop_reason;
  const jsonAnswer = jsonOnly && !hasCalls && raw === "tool_use";
  const choice: Mutable<common.Choice> = { index: 0, parts, source: "" };
  if (raw !== null) {
    choice.finishReason = jsonAnswer ? "stop" : decodeMessagesStopReason(raw);
    if (!jsonAnswer) choice.rawFinishReason = raw;
    choice.finishReasonSource = "/stop_reason";
  }
  if (typeof body.stop_sequence === "string") {
    choice.stopSequence = body.stop_sequence;
    choice.stopSequenceSource = "/stop_sequence";
  }
  choice.extra = { origin: "messages", raw: {} };
  const value: Mutable<common.Response> = {
    id: body.id,
    model: body.model,
    choices: [choice],
    usage: decodeMessagesUsage(body.usage, "/usage", losses),
  };
  if (extra !== undefined) value.extra = { origin: "messages", raw: extra };
  return { value, losses };
}

type Block = Response["content"][number];

/**
 * The seed of a message id the input lacks (and of its calls' ids): the id itself when there is one,
 * else derived from what the response carries, so different responses get different ids.
 */
function messageSeed(response: common.Response): string {
  return response.id ?? `msg_${response.seed ?? inputSeed(response)}`;
}

function encodePart(
  part: common.Part,
  response: common.Response,
  ordinal: { calls: number },
  options: ResolvedOptions,
  losses: Loss[],
): Block | undefined {
  switch (part.type) {
    case "text": {
      dropForeignSignature(part, losses);
      const citations = encodeCitations(part, losses);
      return citations === undefined
        ? { type: "text", text: part.text }
        : { type: "text", text: part.text, citations: citations as [] };
    }
    case "refusal":
      return { type: "text", text: part.text };
    case "reasoning":
      if (part.origin === "messages" && part.redacted !== undefined)
        return { type: "redacted_thinking", data: part.redacted };
      if (part.origin !== "messages" && part.signature !== undefined) {
        losses.push(
          loss(
            part.signatureSource ?? part.source,
            "dropped",
            "A reasoning signature is valid only at the provider that issued it and was dropped.",
            "thinking.signature.foreign",
          ),
        );
      }
      if (part.origin !== "messages" && part.redacted !== undefined) {
        losses.push(
          loss(
            part.source,
            "dropped",
            "Redacted reasoning of another protocol has no messages equivalent and was dropped.",
          ),
        );
      }
      return {
        type: "thinking",
        thinking: part.text,
        signature: part.origin === "messages" ? (part.signature ?? "") : "",
      };
    case "tool-call": {
      if (part.server !== undefined) {
        if (part.server.origin === "messages") return part.server.raw as Block;
        losses.push(
          loss(
            part.source,
            "dropped",
            `A ${part.server.origin} server-side tool call has no messages equivalent and was dropped.`,
          ),
        );
        return undefined;
      }
      dropForeignSignature(part, losses);
      const id = part.id ?? syntheticId(options, messageSeed(response), ordinal.calls);
      ordinal.calls++;
      const input = encodeArguments(part, losses);
      if (part.extra?.origin === "messages")
        return { ...part.extra.raw, type: "tool_use", id, name: part.name, input };
      return { type: "tool_use", id, name: part.name, input };
    }
    case "opaque":
      return encodeOpaquePart(part, losses) as Block | undefined;
    default:
      losses.push(
        loss(
          part.source,
          "dropped",
          `A ${part.type} part cannot appear in a messages response and was dropped.`,
        ),
      );
      return undefined;
  }
}

/** common response → messages response; only the first choice fits. */
export function encodeMessagesResponse(
  response: common.Response,
  options: ResolvedOptions,
): Translated<Response> {
  const losses: Loss[] = [];
  const choices = response.choices;
  const choice = choices[0];
  for (let index = 1; index < choices.length; index++) {
    losses.push(
      loss(
        (choices[index] as common.Choice).source,
        "dropped",
        "The messages protocol returns one candidate; this one was dropped.",
      ),
    );
  }
  const parts = choice?.parts ?? [];
  // Thinking goes first; a messages response keeps its own order (interleaved thinking).
  let foreign = false;
  let hasRefusal = false;
  for (const part of parts) {
    if (part.type === "reasoning" && part.origin !== "messages") foreign = true;
    else if (part.type === "refusal") hasRefusal = true;
  }
  const ordered = foreign
    ? [
        ...parts.filter((part) => part.type === "reasoning"),
        ...parts.filter((part) => part.type !== "reasoning"),
      ]
    : parts;
  const ordinal = { calls: 0 };
  const content: Block[] = [];
  let hasToolCalls = false;
  for (const part of ordered) {
    const block = encodePart(part, response, ordinal, options, losses);
    if (block === undefined) continue;
    content.push(block);
    if (block.type === "tool_use") hasToolCalls = true;
  }
  let stop: { value: string; approximated: boolean } | undefined;
  if (response.promptBlocked !== undefined && parts.length === 0) {
    losses.push(
      loss(
        response.promptBlocked.source,
        "approximated",
        `The prompt was blocked (${response.promptBlocked.reason}); it is reported as a refusal.`,
      ),
    );
    stop = { value: "refusal", approximated: false };
  } else {
    stop = chooseStopReason({
      reason: choice?.finishReason,
      rawReason: choice?.rawFinishReason,
      hasToolCalls,
      hasRefusal,
      own: choice?.extra?.origin === "messages",
    });
    if (stop.approximated) {
      losses.push(
        loss(
          choice?.finishReasonSource ?? choice?.source ?? "",
          "approximated",
          `Finish reason \`${choice?.rawFinishReason ?? choice?.finishReason}\` has no messages equivalent; \`${stop.value}\` was sent.`,
          "finish_reason.approximated",
        ),
      );
    }
  }
  if (response.usage === undefined)
    losses.push(loss("/usage", "synthesized", "The source reported no usage; zero usage was sent."));
  const kept = response.extra?.origin === "messages" ? response.extra.raw : undefined;
  const keptChoice = choice?.extra?.origin === "messages" ? choice.extra.raw : undefined;
  // Spread, not assignment: a kept `__proto__` field stays a plain own field.
  const value: Record<string, unknown> =
    kept === undefined && keptChoice === undefined ? {} : { ...kept, ...keptChoice };
  value.id = response.id ?? syntheticId(options, messageSeed(response));
  value.type = "message";
  value.role = "assistant";
  value.model = response.model ?? options.model ?? "";
  value.content = content;
  value.stop_reason = stop.value;
  value.stop_sequence = choice?.stopSequence ?? null;
  value.usage =
    response.usage === undefined
      ? { input_tokens: 0, output_tokens: 0 }
      : encodeMessagesUsage(response.usage);
  return { value: value as Response, losses };
}
