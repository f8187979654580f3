/**
 * Chat completion ↔ common response: text, reasoning, refusals, tool calls, citations, finish reasons,
 * usage, ids (research F1–F9, K4).
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
import { unknownKeys } from "../../common/json";
import { type Loss, loss, type Translated } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import { callId, chatExtra, choiceExtra, choiceRaw, EMPTY_ID, messageRest } from "./extra";
import { decodeChatFinishReason, encodeChatFinishReason } from "./finish-reason";
import { decodeToolCall } from "./messages-decode";
import { signaturePath } from "./messages-encode";
import type * as chat from "./schema";
import { decodeChatUsage, encodeChatUsage } from "./usage";

const RESPONSE_KEYS = new Set(["id", "object", "created", "model", "choices", "usage"]);
const CHOICE_KEYS = new Set(["index", "message", "finish_reason"]);
const MESSAGE_KEYS = new Set([
  "role",
  "content",
  "refusal",
  "tool_calls",
  "function_call",
  "annotations",
  "reasoning_content",
  "reasoning",
]);
const USAGE_KEYS = new Set([
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "prompt_tokens_details",
  "completion_tokens_details",
  "prompt_cache_hit_tokens",
  "prompt_cache_miss_tokens",
]);

/** Reports each present, non-empty field of `node` outside `known` as dropped. */
function reportUnknown(node: object, known: ReadonlySet<string>, source: string, losses: Loss[]): void {
  for (const key of unknownKeys(node, known)) {
    const value = (node as Record<string, unknown>)[key];
    if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0))
      continue;
    losses.push(loss(at(source, key), "dropped", `\`${key}\` has no common equivalent and was dropped.`));
  }
}

function decodeMessage(message: chat.ResponseMessage, source: string, losses: Loss[]): common.Part[] {
  reportUnknown(message, MESSAGE_KEYS, source, losses);
  const parts: common.Part[] = [];
  const reasoningKey =
    message.reasoning_content != null
      ? "reasoning_content"
      : message.reasoning != null
        ? "reasoning"
        : undefined;
  const reasoning = message.reasoning_content ?? message.reasoning;
  // Empty reasoning or refusal is no part (a stream never carries an empty delta); chat keeps it in `extra`.
  if (reasoningKey !== undefined && reasoning != null && reasoning !== "") {
    parts.push({ type: "reasoning", text: reasoning, origin: "chat", source: at(source, reasoningKey) });
  }
  if (message.content != null) {
    const annotations = message.annotations ?? [];
    parts.push({
      type: "text",
      text: message.content,
      source: at(source, "content"),
      ...(annotations.length === 0 ? {} : { citations: { origin: "chat", items: annotations } }),
    });
  }
  if (message.refusal != null && message.refusal !== "")
    parts.push({ type: "refusal", text: message.refusal, source: at(source, "refusal") });
  message.tool_calls?.forEach((call, index) => {
    const callSource = at(source, "tool_calls", index);
    if (call.type === "function") {
      const part = decodeToolCall(
        { id: call.id, name: call.function.name, arguments: call.function.arguments },
        callSource,
      );
      parts.push(call.id === "" ? { ...part, extra: EMPTY_ID } : part);
    } else {
      losses.push(
        loss(callSource, "dropped", `A ${call.type} tool call has no common equivalent and was dropped.`),
      );
    }
  });
  if (message.function_call != null)
    parts.push(decodeToolCall(message.function_call, at(source, "function_call")));
  return parts;
}

/** Chat completion → common response. */
export function decodeChatResponse(
  body: chat.Response,
  _options: ResolvedOptions,
): Translated<common.Response> {
  const losses: Loss[] = [];
  reportUnknown(body, RESPONSE_KEYS, "", losses);
  const choices = body.choices.map((choice, position): common.Choice => {
    const source = at("", "choices", position);
    reportUnknown(choice, CHOICE_KEYS, source, losses);
    const reason = choice.finish_reason;
    const extra = choiceExtra({
      choice: chatExtra(choice, CHOICE_KEYS)?.raw ?? {},
      message: {
        ...messageRest(choice.message, MESSAGE_KEYS),
        // Annotations of a message without text have no part to ride on; chat keeps them as given.
        ...(choice.message.content == null && (choice.message.annotations?.length ?? 0) > 0
          ? { annotations: choice.message.annotations }
          : {}),
      },
    });
    return {
      index: choice.index,
      parts: decodeMessage(choice.message, at(source, "message"), losses),
      ...(reason === undefined || reason === null
        ? {}
        : { finishReason: decodeChatFinishReason(reason), rawFinishReason: reason }),
      extra,
      source,
    };
  });
  if (body.usage != null) reportUnknown(body.usage, USAGE_KEYS, "/usage", losses);
  const extra = chatExtra(body, RESPONSE_KEYS);
  const response: common.Response = {
    id: body.id,
    model: body.model,
    created: body.created,
    choices,
    ...(body.usage == null ? {} : { usage: decodeChatUsage(body.usage, "/usage") }),
    ...(extra === undefined ? {} : { extra }),
  };
  return { value: response, losses };
}

function encodeChoice(
  choice: common.Choice,
  responseId: string,
  options: ResolvedOptions,
  losses: Loss[],
): chat.Choice {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const refusals: string[] = [];
  const annotations: unknown[] = [];
  const toolCalls: chat.FunctionToolCall[] = [];
  for (const part of choice.parts) {
    switch (part.type) {
      case "text":
        texts.push(part.text);
        if (part.citations !== undefined) {
          if (part.citations.origin === "chat") annotations.push(...part.citations.items);
          else
            losses.push(
              loss(
                part.source,
                "dropped",
                `Citations from the ${part.citations.origin} protocol have no chat form and were dropped.`,
              ),
            );
        }
        if (part.signature !== undefined) {
          losses.push(
            loss(
              signaturePath(part.source, part.signature.origin),
              "dropped",
              "Chat cannot carry a thought signature; it was dropped.",
            ),
          );
        }
        break;
      case "reasoning":
        if (part.redacted !== undefined) {
          losses.push(loss(part.source, "dropped", "Redacted thinking is opaque to chat and was dropped."));
          break;
        }
        reasoning.push(part.text);
        if (part.signature !== undefined) {
          losses.push(
            loss(
              signaturePath(part.source, part.origin),
              "dropped",
              "Chat cannot carry a thinking signature; it was dropped.",
            ),
          );
        }
        break;
      case "refusal":
        refusals.push(part.text);
        break;
      case "tool-call": {
        if (part.server !== undefined) {
          losses.push(
            loss(part.source, "dropped", "A server-side tool call has no chat form and was dropped."),
          );
          break;
        }
        let id = callId(part);
        if (id === undefined) {
          id = syntheticId(options, responseId, toolCalls.length);
          losses.push(
            loss(part.source, "synthesized", "The tool call had no id; a deterministic one was made up."),
          );
        }
        if (part.signature !== undefined) {
          losses.push(
            loss(
              signaturePath(part.source, part.signature.origin),
              "dropped",
              "Chat cannot carry a thought signature; it was dropped.",
            ),
          );
        }
        const args = part.argumentsText ?? JSON.stringify(part.arguments ?? {});
        toolCalls.push({ id, type: "function", function: { name: part.name, arguments: args } });
        break;
      }
      default:
        losses.push(
          loss(
            part.source,
            "dropped",
            `A ${part.type === "opaque" ? part.label : `${part.type} part`} has no chat response form and was dropped.`,
          ),
        );
    }
  }
  let finishReason: chat.Choice["finish_reason"] = null;
  if (choice.extra?.origin === "chat" && choice.rawFinishReason !== undefined) {
    // chat's own reason, restored as given (accumulate/replay).
    finishReason = choice.rawFinishReason;
  } else if (choice.finishReason !== undefined) {
    const mapped = encodeChatFinishReason(choice.finishReason, toolCalls.length > 0);
    if (mapped.approximate) {
      losses.push(
        loss(
          choice.source,
          "approximated",
          `Finish reason "${choice.rawFinishReason ?? choice.finishReason}" has no chat equivalent; "stop" was used.`,
        ),
      );
    }
    finishReason = mapped.reason;
  } else if (toolCalls.length > 0) {
    finishReason = "tool_calls";
  }
  const own = choiceRaw(choice.extra);
  const message: chat.ResponseMessage = {
    ...own.message,
    role: "assistant",
    content: texts.length === 0 ? null : texts.join(""),
    ...(reasoning.length === 0 ? {} : { reasoning_content: reasoning.join("") }),
    ...(refusals.length === 0 ? {} : { refusal: refusals.join("") }),
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    ...(annotations.length === 0 ? {} : { annotations: annotations as chat.Annotation[] }),
  };
  return { ...own.choice, index: choice.index, message, finish_reason: finishReason };
}

/** Common response → chat completion; a missing id or `created` comes from `options` (F8), never the clock. */
export function encodeChatResponse(
  response: common.Response,
  options: ResolvedOptions,
): Translated<chat.Response> {
  const losses: Loss[] = [];
  const id = response.id ?? syntheticId(options, "chatcmpl");
  // A blocked prompt is a refusal of the whole request (research F3), also when an empty candidate came with it.
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
      finish_reason: "content_filter",
    });
  }
  const value: chat.Response = {
    ...(response.extra?.origin === "chat" ? response.extra.raw : {}),
    id,
    object: "chat.completion",
    created: response.created ?? options.created,
    model: response.model ?? options.model ?? "",
    choices,
    ...(response.usage === undefined ? {} : { usage: encodeChatUsage(response.usage) }),
  };
  return { value, losses };
}
