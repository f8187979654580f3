/**
 * messages response ↔ common response: parts in their order, tool calls ⇒ `tool_use`, another protocol's
 * reasoning state carried in thinking signatures (carrier.ts), usage arithmetic, ids kept or derived.
 * @see https://docs.anthropic.com/en/api/messages
 */
import { inputSeed } from "../../common/digest";
import { type Loss, loss, type Translated } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { fitResponseToolIds } from "../../common/tool-id";
import { afterTextDropped, foreignThinking, signatureBlock } from "./carrier";
import { decodeBlock, dropExtras } from "./decode-blocks";
import { encodeArguments, encodeCitations, encodeOpaquePart } from "./encode-blocks";
import { chooseStopReason, decodeMessagesStopReason } from "./finish-reason";
import { JSON_TOOL } from "./request-settings";
import type { ContentBlock, Response } from "./schema";
import { TOOL_IDS } from "./tool-id";
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

/** The carrier of the last text's foreign signature, waiting for the block after it. */
type AfterText = { pending: { block: Block; source: string } | undefined };

/**
 * One part → its blocks, appended to `content`. Another protocol's reasoning state rides in thinking
 * signatures (carrier.ts): a reasoning part's in its own block, a call's signature in a block before
 * it, a text's in a block after it.
 */
function encodePart(
  part: common.Part,
  response: common.Response,
  ordinal: { calls: number },
  options: ResolvedOptions,
  content: Block[],
  after: AfterText,
  losses: Loss[],
): void {
  switch (part.type) {
    case "text": {
      const citations = encodeCitations(part, losses);
      content.push(
        citations === undefined
          ? { type: "text", text: part.text }
          : { type: "text", text: part.text, citations: citations as [] },
      );
      const signature = part.signature;
      // Its carrier goes after it, before the next block: never last (carrier.ts afterTextDropped).
      if (signature !== undefined && signature.origin !== "messages") {
        const block = signatureBlock(signature, "previous", part.source, losses);
        if (block !== undefined) after.pending = { block, source: signature.source ?? part.source };
      }
      return;
    }
    case "refusal":
      content.push({ type: "text", text: part.text });
      return;
    case "reasoning":
      if (part.origin !== "messages") content.push(foreignThinking(part, losses));
      else if (part.redacted !== undefined) content.push({ type: "redacted_thinking", data: part.redacted });
      else content.push({ type: "thinking", thinking: part.text, signature: part.signature ?? "" });
      return;
    case "tool-call": {
      if (part.server !== undefined) {
        if (part.server.origin === "messages") content.push(part.server.raw as Block);
        else
          losses.push(
            loss(
              part.source,
              "dropped",
              `A ${part.server.origin} server-side tool call has no messages equivalent and was dropped.`,
            ),
          );
        return;
      }
      const signature = part.signature;
      if (signature !== undefined && signature.origin !== "messages") {
        const block = signatureBlock(signature, "next", part.source, losses);
        if (block !== undefined) content.push(block);
      }
      const id = part.id ?? syntheticId(options, messageSeed(response), ordinal.calls);
      ordinal.calls++;
      const input = encodeArguments(part, losses);
      content.push(
        part.extra?.origin === "messages"
          ? { ...part.extra.raw, type: "tool_use", id, name: part.name, input }
          : { type: "tool_use", id, name: part.name, input },
      );
      return;
    }
    case "opaque": {
      const block = encodeOpaquePart(part, losses) as Block | undefined;
      if (block !== undefined) content.push(block);
      return;
    }
    default:
      losses.push(
        loss(
          part.source,
          "dropped",
          `A ${part.type} part cannot appear in a messages response and was dropped.`,
        ),
      );
  }
}

/** common response → messages response; only the first choice fits. */
export function encodeMessagesResponse(
  original: common.Response,
  options: ResolvedOptions,
): Translated<Response> {
  const losses: Loss[] = [];
  // Tool ids messages refuses are rewritten, and read back as the original (common/tool-id.ts).
  const response = fitResponseToolIds(original, TOOL_IDS, losses);
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
  // Every part in its own place, as a stream sends it: another protocol's reasoning goes home in its
  // place among the calls and texts (carrier.ts), and messages' own keeps its order (interleaved thinking).
  let hasRefusal = false;
  for (const part of parts) if (part.type === "refusal") hasRefusal = true;
  const ordinal = { calls: 0 };
  const content: Block[] = [];
  let hasToolCalls = false;
  const after: AfterText = { pending: undefined };
  for (const part of parts) {
    const pending = after.pending;
    const before = content.length;
    encodePart(part, response, ordinal, options, content, after, losses);
    // A block came after the signed text: the carrier goes between them.
    if (pending !== undefined && content.length > before) {
      content.splice(before, 0, pending.block);
      if (after.pending === pending) after.pending = undefined;
    }
  }
  if (after.pending !== undefined) losses.push(afterTextDropped(after.pending.source));
  for (const block of content) if (block.type === "tool_use") hasToolCalls = true;
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
