/**
 * Chat completion ↔ common response: text, reasoning, refusals, tool calls, citations, finish reasons,
 * usage, ids.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */

import { inputSeed } from "../../common/digest";
import { isKnown, type Keys, parseJsonObject } from "../../common/json";
import { type Loss, loss, type Translated } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import { matchedStopDropped } from "../../common/stop";
import { encodeAssistant, type Target } from "./assistant";
import {
  decodeAssistantParts,
  decodeChatToolCall,
  decodeReasoning,
  TOOL_CALL_KEYS,
  withMessageSignature,
} from "./assistant-decode";
import { carryInParts } from "./carrier";
import { DIALECTS } from "./dialect";
import { callId, choiceExtra, choiceRaw, isEmptyAudio, pick } from "./extra";
import { decodeChatFinishReason, encodeChatFinishReason } from "./finish-reason";
import type * as chat from "./schema";
import { decodeChatUsage, encodeChatUsage } from "./usage";

const RESPONSE_KEYS: Keys = ["id", "object", "created", "model", "choices", "usage"];
const CHOICE_KEYS: Keys = ["index", "message", "finish_reason"];
const MESSAGE_KEYS: Keys = [
  "role",
  "content",
  "refusal",
  "tool_calls",
  "function_call",
  "annotations",
  "reasoning_content",
  "reasoning",
  "reasoning_details",
  "extra_content",
  "thought_signature",
  "audio",
];
const USAGE_KEYS: Keys = [
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "prompt_tokens_details",
  "completion_tokens_details",
  "prompt_cache_hit_tokens",
  "prompt_cache_miss_tokens",
];

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A field chat sends empty (`null`, `""`, `[]`) says nothing: it is kept, not reported. */
const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

const dropped = (path: string, key: string): Loss =>
  loss(path, "dropped", `\`${key}\` has no common equivalent and was dropped.`);

/**
 * Reports each present, non-empty field of `node` outside `known` as dropped; returns those fields'
 * keys (empty or not), for `extra`.
 */
function reportUnknown(node: object, known: Keys, source: string, losses: Loss[]): string[] | undefined {
  let keys: string[] | undefined;
  for (const key in node) {
    if (isKnown(known, key) || !Object.hasOwn(node, key)) continue;
    if (keys === undefined) keys = [];
    keys.push(key);
    if (!isBlank((node as Record<string, unknown>)[key])) losses.push(dropped(at(source, key), key));
  }
  return keys;
}

/**
 * The message's rest (see `messageRest`) with its unknown fields reported on the way: one pass over
 * the message's keys.
 */
function messageKept(message: chat.ResponseMessage, source: string, losses: Loss[]): Record<string, unknown> {
  let keys: string[] | undefined;
  for (const key in message) {
    if (key === "role" || !Object.hasOwn(message, key)) continue;
    const value = (message as Record<string, unknown>)[key];
    if (isKnown(MESSAGE_KEYS, key)) {
      if (!isRestEmpty(key, value)) continue;
    } else if (!isBlank(value)) losses.push(dropped(at(source, key), key));
    if (keys === undefined) keys = [];
    keys.push(key);
  }
  // Annotations of a message without text have no part to ride on: chat keeps them as given, the
  // others drop them (as the stream decoder does).
  const annotations = message.annotations;
  const content = message.content;
  const orphan =
    annotations != null &&
    annotations.length > 0 &&
    (content == null || (typeof content !== "string" && !content.some((part) => part.type === "text")));
  if (orphan)
    losses.push(
      loss(
        at(source, "annotations"),
        "dropped",
        "Annotations outside a text block have no place and were dropped.",
      ),
    );
  if (keys === undefined) return orphan ? { annotations } : {};
  const kept = pick(message, keys);
  return orphan ? { ...kept, annotations } : kept;
}

/** Known message fields kept in the rest when empty (as `messageRest` does). */
function isRestEmpty(key: string, value: unknown): boolean {
  switch (key) {
    case "content":
    case "tool_calls":
    case "annotations":
      return value === null || (Array.isArray(value) && value.length === 0);
    case "refusal":
    case "reasoning_content":
    case "reasoning":
    case "reasoning_details":
      return value === null || value === "" || (Array.isArray(value) && value.length === 0);
    case "function_call":
      return value === null || (value !== undefined && (value as { name?: unknown }).name === "");
    case "audio":
      return value === null || (typeof value === "object" && isEmptyAudio(value as object));
    default:
      return false;
  }
}

/** A legacy `function_call` → a tool-call part. */
function decodeFunctionCall(
  call: { name: string; arguments: string; id?: unknown },
  source: string,
): common.ToolCallPart {
  const text = call.arguments;
  const parsed = text.charCodeAt(0) !== 123 && text.trim() === "" ? {} : parseJsonObject(text);
  const part: Mutable<common.ToolCallPart> = {
    type: "tool-call",
    name: call.name,
    argumentsText: text,
    source,
  };
  if (typeof call.id === "string" && call.id !== "") part.id = call.id;
  if (parsed !== undefined) part.arguments = parsed;
  return part;
}

type Citations = NonNullable<common.TextPart["citations"]>;

/** Text parts of the message; `annotations` ride on the first (chat keeps them as given). */
function withCitations(parts: common.Part[], citations: Citations | undefined): common.Part[] {
  if (citations === undefined) return parts;
  const first = parts.findIndex((part) => part.type === "text");
  const text = parts[first];
  if (text?.type !== "text") return parts;
  const out = [...parts];
  out[first] = { ...text, citations };
  return out;
}

function decodeMessage(message: chat.ResponseMessage, source: string, losses: Loss[]): common.Part[] {
  const parts: common.Part[] = decodeReasoning(message, source, losses);
  const annotations = message.annotations;
  const citations: Citations | undefined =
    annotations == null || annotations.length === 0
      ? undefined
      : { origin: "chat", items: annotations, source: `${source}/annotations` };
  const content = message.content;
  if (typeof content === "string") {
    parts.push(
      citations === undefined
        ? { type: "text", text: content, source: `${source}/content` }
        : { type: "text", text: content, source: `${source}/content`, citations },
    );
  } else if (content != null) {
    parts.push(...withCitations(decodeAssistantParts(content, `${source}/content`, losses), citations));
  }
  if (message.audio != null && !isEmptyAudio(message.audio)) {
    // An audio answer's transcript is its text (the AI SDK's chat provider reads it so); the audio has
    // no common slot. The stream decoder does the same with `delta.audio`.
    const transcript = message.audio.transcript;
    if (transcript !== "")
      parts.push({ type: "text", text: transcript, source: `${source}/audio/transcript` });
    losses.push(
      loss(
        `${source}/audio`,
        "dropped",
        "Audio output has no common equivalent and was dropped; its transcript was kept as text.",
      ),
    );
  }
  // Empty refusal is no part (a stream never carries an empty delta); chat keeps it in `extra`.
  if (message.refusal != null && message.refusal !== "")
    parts.push({ type: "refusal", text: message.refusal, source: `${source}/refusal` });
  const calls = message.tool_calls;
  if (calls != null) {
    for (let index = 0; index < calls.length; index++) {
      parts.push(
        decodeChatToolCall(
          calls[index] as chat.ToolCall,
          `${source}/tool_calls/${index}`,
          TOOL_CALL_KEYS,
          losses,
        ),
      );
    }
  }
  // A legacy call with no name is an empty placeholder some gateways fill in (Snowflake Cortex).
  if (message.function_call != null && message.function_call.name !== "")
    parts.push(decodeFunctionCall(message.function_call, `${source}/function_call`));
  const echoed = message as { extra_content?: unknown; thought_signature?: unknown };
  return echoed.extra_content === undefined && echoed.thought_signature === undefined
    ? parts
    : withMessageSignature(echoed, source, parts, losses);
}

/** Chat completion → common response. */
export function decodeChatResponse(
  body: chat.Response,
  _options: ResolvedOptions,
): Translated<common.Response> {
  const losses: Loss[] = [];
  const bodyKeys = reportUnknown(body, RESPONSE_KEYS, "", losses);
  const given = body.choices;
  const choices: common.Choice[] = [];
  for (let position = 0; position < given.length; position++) {
    const choice = given[position] as chat.Choice;
    const source = `/choices/${position}`;
    const choiceKeys = reportUnknown(choice, CHOICE_KEYS, source, losses);
    const messageSource = `${source}/message`;
    const message = messageKept(choice.message, messageSource, losses);
    const reason = choice.finish_reason;
    const decoded: Mutable<common.Choice> = {
      index: choice.index,
      parts: decodeMessage(choice.message, messageSource, losses),
      source,
    };
    // `""` (Snowflake Cortex) says no more than null.
    if (reason !== undefined && reason !== null && reason !== "") {
      decoded.finishReason = decodeChatFinishReason(reason);
      decoded.rawFinishReason = reason;
      decoded.finishReasonSource = `${source}/finish_reason`;
    }
    decoded.extra = choiceExtra({
      choice: choiceKeys === undefined ? {} : pick(choice, choiceKeys),
      message,
    });
    choices.push(decoded);
  }
  const usage = body.usage;
  if (usage != null) reportUnknown(usage, USAGE_KEYS, "/usage", losses);
  const response: Mutable<common.Response> = {
    id: body.id,
    model: body.model,
    created: body.created,
    createdSource: "/created",
    choices,
  };
  if (usage != null) response.usage = decodeChatUsage(usage, "/usage");
  // `usage: null` says "no usage"; chat restores it as given.
  const extraKeys = usage === null ? [...(bodyKeys ?? []), "usage"] : bodyKeys;
  if (extraKeys !== undefined) response.extra = { origin: "chat", raw: pick(body, extraKeys) };
  return { value: response, losses };
}

/**
 * A response: chat's own citations ride as `annotations`; a response part has no cache hint to report; in
 * the dialects that carry it, a Gemini thought signature rides on its call as `extra_content` (clients send
 * it back with the call).
 */
const RESPONSE: Target = {
  reportCache: false,
  callId,
  idPath: (part) => part.source,
  citations: (citations, source, losses) => {
    if (citations.origin === "chat") return citations.items;
    losses.push(
      loss(
        citations.source ?? source,
        "dropped",
        `Citations from the ${citations.origin} protocol have no chat form and were dropped.`,
        "citations.dropped",
      ),
    );
    return undefined;
  },
  unsupported: (part, losses) =>
    losses.push(
      loss(
        part.source,
        "dropped",
        part.type === "tool-call"
          ? "A server-side tool call has no chat form and was dropped."
          : `A ${part.type === "opaque" ? part.label : `${part.type} part`} has no chat response form and was dropped.`,
        "block.dropped",
      ),
    ),
};

function encodeChoice(
  choice: common.Choice,
  responseId: string,
  options: ResolvedOptions,
  losses: Loss[],
): chat.Choice {
  const dialect = DIALECTS[options.chatDialect];
  const { text, reasoning, refusal, annotations, reasoningDetails, toolCalls } = encodeAssistant(
    // Another protocol's reasoning state rides in tool call ids (carrier.ts).
    carryInParts(choice.parts, dialect, losses),
    RESPONSE,
    responseId,
    options,
    losses,
  );
  let finishReason: chat.Choice["finish_reason"] = null;
  if (choice.extra?.origin === "chat" && choice.rawFinishReason !== undefined) {
    // chat's own reason, restored as given (accumulate/replay).
    finishReason = choice.rawFinishReason;
  } else if (choice.finishReason !== undefined) {
    const mapped = encodeChatFinishReason(choice.finishReason, toolCalls.length > 0);
    if (mapped.approximate) {
      losses.push(
        loss(
          choice.finishReasonSource ?? choice.source,
          "approximated",
          `Finish reason "${choice.rawFinishReason ?? choice.finishReason}" has no chat equivalent; "${mapped.reason}" was used.`,
          "finish_reason.approximated",
        ),
      );
    }
    finishReason = mapped.reason;
  } else if (toolCalls.length > 0) {
    finishReason = "tool_calls";
  } else if (choice.extra?.origin !== "chat") {
    // The description requires a reason of a completion: another protocol's answer without one (not
    // finished, or a candidate that says nothing) is sent as "stop", and said, as a stream's end is.
    finishReason = "stop";
    losses.push(
      loss(
        choice.finishReasonSource ?? choice.source,
        "synthesized",
        'The answer carries no finish reason; chat requires one and "stop" was sent.',
        "finish_reason.synthesized",
      ),
    );
  }
  if (choice.stopSequence !== undefined)
    losses.push(matchedStopDropped(choice.stopSequenceSource ?? choice.source, "chat"));
  const own = choiceRaw(choice.extra);
  const foreign = choice.extra?.origin !== "chat";
  const message: Mutable<chat.ResponseMessage> = isEmptyObject(own.message)
    ? { role: "assistant", content: null }
    : ({ ...own.message, role: "assistant", content: null } as chat.ResponseMessage);
  // The description requires `refusal` (null when none); chat's own answer keeps what it had.
  if (foreign) message.refusal = null;
  message.content = text ?? null;
  if (reasoning !== undefined) message[dialect.reasoningField] = reasoning;
  if (reasoningDetails !== undefined) message.reasoning_details = reasoningDetails;
  if (refusal !== undefined) message.refusal = refusal;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (annotations !== undefined) message.annotations = annotations as chat.Annotation[];
  // `logprobs` is required too: null, as the service writes it when none were asked for.
  if (foreign) return { index: choice.index, message, logprobs: null, finish_reason: finishReason };
  return isEmptyObject(own.choice)
    ? { index: choice.index, message, finish_reason: finishReason }
    : { ...own.choice, index: choice.index, message, finish_reason: finishReason };
}

/**
 * chat's `created` is whole seconds (the description's integer): a fractional time from another
 * protocol (a responses `created_at` may have a fraction) is rounded down, and said.
 */
export function chatCreated(created: number | undefined, losses: Loss[], path: string): number {
  if (created === undefined) return 0;
  if (Number.isInteger(created)) return created;
  const whole = Number.isFinite(created) ? Math.floor(created) : 0;
  losses.push(
    loss(
      path,
      "approximated",
      `chat's \`created\` is whole seconds: ${created} was sent as ${whole}.`,
      "created.approximated",
    ),
  );
  return whole;
}

function isEmptyObject(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** Common response → chat completion; a missing id or `created` comes from `options`, never the clock. */
export function encodeChatResponse(
  response: common.Response,
  options: ResolvedOptions,
): Translated<chat.Response> {
  const losses: Loss[] = [];
  // An id the input lacks is derived from what it carries: different responses, different ids.
  const id = response.id ?? syntheticId(options, `chatcmpl_${response.seed ?? inputSeed(response)}`);
  // A blocked prompt is a refusal of the whole request, also when an empty candidate came with it.
  const blocked =
    response.promptBlocked !== undefined && response.choices.every((choice) => choice.parts.length === 0);
  const choices = blocked ? [] : response.choices.map((choice) => encodeChoice(choice, id, options, losses));
  if (blocked && response.promptBlocked !== undefined) {
    choices.push({
      index: 0,
      message: {
        role: "assistant",
        content: null,
        refusal: `Prompt blocked: ${response.promptBlocked.reason}`,
      },
      logprobs: null,
      finish_reason: "content_filter",
    });
  }
  const kept = response.extra?.origin === "chat" ? response.extra.raw : undefined;
  const created = response.created ?? options.created;
  if (created === undefined)
    losses.push(
      loss(
        "/created",
        "synthesized",
        "The response carries no creation time and `options.created` gives none; chat's `created` was sent as 0.",
      ),
    );
  const value: Mutable<chat.Response> = {
    ...kept,
    id,
    object: "chat.completion",
    created: chatCreated(created, losses, response.createdSource ?? ""),
    model: response.model ?? options.model ?? "",
    choices,
  };
  if (response.usage !== undefined)
    value.usage = encodeChatUsage(response.usage, DIALECTS[options.chatDialect].cacheCounters);
  return { value, losses };
}
