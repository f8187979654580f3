/**
 * What every chat-compatible dialect puts in an assistant message, read without configuration, for
 * request history (`messages-decode.ts`) and responses (`response.ts`) alike: content arrays with
 * Mistral thinking chunks, OpenRouter `reasoning_details` (signatures, encrypted reasoning), OpenAI
 * `custom` tool calls, Gemini's `extra_content.google.thought_signature`.
 */
import { isKnown, type Keys, parseJsonObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { cacheHint } from "./content";
import { reasoningOrigin } from "./dialect";
import { EMPTY_ID } from "./extra";
import type * as chat from "./schema";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const blank = (value: unknown): boolean =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

/** A chat tool call → a tool-call part; `custom` calls are free-form (their input is plain text). */
export function decodeChatToolCall(
  call: chat.ToolCall,
  source: string,
  known: Keys,
  losses: Loss[],
): Mutable<common.ToolCallPart> {
  reportUnknown(call, known, source, "a tool call", losses);
  let part: Mutable<common.ToolCallPart>;
  if (call.type === "custom") {
    part = {
      type: "tool-call",
      name: call.custom.name,
      argumentsText: call.custom.input,
      argumentsSource: `${source}/custom/input`,
      freeform: true,
      source,
    };
  } else {
    const text = call.function.arguments;
    // Arguments text almost always opens with `{`: no need to trim it to know it is not blank.
    const parsed = text.charCodeAt(0) !== 123 && text.trim() === "" ? {} : parseJsonObject(text);
    part = {
      type: "tool-call",
      name: call.function.name,
      argumentsText: text,
      argumentsSource: `${source}/function/arguments`,
      source,
    };
    if (parsed !== undefined) part.arguments = parsed;
  }
  // `""` (Gemini's compatible endpoint) is no id for other protocols; chat restores it.
  if (call.id !== "") part.id = call.id;
  else part.extra = EMPTY_ID;
  const signature = (call as chat.FunctionToolCall).extra_content?.google?.thought_signature;
  if (signature !== undefined) {
    part.signature = {
      origin: "generative",
      value: signature,
      source: `${source}/extra_content/google/thought_signature`,
    };
  }
  return part;
}

/** The known fields of a tool call: `extra_content` is read for its thought signature only. */
export const TOOL_CALL_KEYS: Keys = ["id", "type", "function", "custom", "index", "extra_content"];

const GOOGLE_KEYS: Keys = ["thought_signature"];
const EXTRA_KEYS: Keys = ["google"];

/**
 * Gemini's compatible endpoint also puts a thought signature on the message itself
 * (`extra_content.google.thought_signature`, repeated as `thought_signature`): it signs the first call,
 * or the text when there is no call, as generative signs the first functionCall part. Returns `parts`
 * with it attached.
 */
export function withMessageSignature(
  message: { readonly extra_content?: unknown; readonly thought_signature?: unknown },
  source: string,
  parts: common.Part[],
  losses: Loss[],
): common.Part[] {
  const extra = message.extra_content;
  const google =
    extra !== null && typeof extra === "object" ? (extra as { google?: unknown }).google : undefined;
  const nested =
    google !== null && typeof google === "object"
      ? (google as { thought_signature?: unknown }).thought_signature
      : undefined;
  if (google !== null && typeof google === "object") {
    reportUnknown(google, GOOGLE_KEYS, `${source}/extra_content/google`, "`extra_content.google`", losses);
  }
  if (extra !== null && typeof extra === "object") {
    reportUnknown(extra, EXTRA_KEYS, `${source}/extra_content`, "`extra_content`", losses);
  }
  const value = typeof nested === "string" ? nested : message.thought_signature;
  if (typeof value !== "string" || value === "") return parts;
  const signature: common.Signature = {
    origin: "generative",
    value,
    source:
      typeof nested === "string"
        ? `${source}/extra_content/google/thought_signature`
        : `${source}/thought_signature`,
  };
  let target = parts.findIndex((part) => part.type === "tool-call");
  for (let index = parts.length - 1; target === -1 && index >= 0; index--)
    if (parts[index]?.type === "text") target = index;
  const part = parts[target];
  if ((part?.type !== "tool-call" && part?.type !== "text") || part.signature !== undefined) {
    losses.push(
      loss(
        signature.source ?? source,
        "dropped",
        "A message-level thought signature with no call or text to sign was dropped.",
      ),
    );
    return parts;
  }
  const out = [...parts];
  out[target] = { ...part, signature };
  return out;
}

const DETAIL_KEYS: Keys = ["type", "text", "signature", "summary", "data", "format", "index"];

/**
 * OpenRouter `reasoning_details` → reasoning parts, one per entry. A signature or encrypted data validates
 * only at the provider its `format` names, so that provider's protocol is the part's origin.
 */
export function decodeReasoningDetails(
  details: readonly chat.ReasoningDetail[],
  source: string,
  losses: Loss[],
): common.ReasoningPart[] {
  const parts: common.ReasoningPart[] = [];
  for (let index = 0; index < details.length; index++) {
    const detail = details[index] as chat.ReasoningDetail;
    const at = `${source}/${index}`;
    const origin = reasoningOrigin(detail.format);
    // The entry as given, so that chat sends it back exactly (OpenRouter asks for it unmodified).
    const extra: common.Extra = { origin: "chat", raw: { detail } };
    switch (detail.type) {
      case "reasoning.text": {
        const part: Mutable<common.ReasoningPart> = {
          type: "reasoning",
          text: detail.text ?? "",
          origin,
          extra,
          source: at,
        };
        if (detail.signature != null && detail.signature !== "") {
          part.signature = detail.signature;
          part.signatureSource = `${at}/signature`;
        }
        parts.push(part);
        break;
      }
      case "reasoning.summary":
        parts.push({ type: "reasoning", text: detail.summary ?? "", origin, extra, source: at });
        break;
      case "reasoning.encrypted":
        parts.push({ type: "reasoning", text: "", redacted: detail.data ?? "", origin, extra, source: at });
        break;
      default:
        losses.push(
          loss(
            at,
            "dropped",
            `A reasoning entry of type "${detail.type}" has no common equivalent and was dropped.`,
          ),
        );
        continue;
    }
    reportUnknown(detail, DETAIL_KEYS, at, "a reasoning entry", losses);
  }
  return parts;
}

/**
 * The reasoning of an assistant message: its `reasoning_details` when given (they hold the same text as
 * `reasoning` and the signatures too), else `reasoning_content` or `reasoning`. Empty reasoning is no part.
 */
export function decodeReasoning(
  message: {
    readonly reasoning_content?: string | null | undefined;
    readonly reasoning?: string | null | undefined;
    readonly reasoning_details?: readonly chat.ReasoningDetail[] | null | undefined;
  },
  source: string,
  losses: Loss[],
): common.ReasoningPart[] {
  const details = message.reasoning_details;
  if (details != null && details.length > 0)
    return decodeReasoningDetails(details, `${source}/reasoning_details`, losses);
  const key =
    message.reasoning_content != null
      ? "reasoning_content"
      : message.reasoning != null
        ? "reasoning"
        : undefined;
  const text = key === undefined ? undefined : message[key];
  if (key === undefined || text == null || text === "") return [];
  return [{ type: "reasoning", text, origin: "chat", source: `${source}/${key}` }];
}

/**
 * An assistant message's content array → parts: text and refusal parts as they are, a Mistral thinking
 * chunk as reasoning (its text chunks joined), any other chunk dropped with a loss.
 */
export function decodeAssistantParts(
  content: readonly chat.AssistantPart[],
  source: string,
  losses: Loss[],
): common.Part[] {
  const parts: common.Part[] = [];
  for (let index = 0; index < content.length; index++) {
    const part = content[index] as chat.AssistantPart;
    const at = `${source}/${index}`;
    switch (part.type) {
      case "text":
        parts.push(textPart(part as chat.TextPart, at, losses));
        break;
      case "refusal":
        parts.push({ type: "refusal", text: (part as chat.RefusalPart).refusal, source: at });
        break;
      case "thinking":
        parts.push(thinkingPart(part as chat.ThinkingPart, at, losses));
        break;
      default:
        losses.push(
          loss(
            at,
            "dropped",
            `A ${part.type} content part of an assistant message has no common equivalent and was dropped.`,
          ),
        );
    }
  }
  return parts;
}

const TEXT_KEYS: Keys = ["type", "text", "cache_control", "prompt_cache_breakpoint"];

function textPart(part: chat.TextPart, source: string, losses: Loss[]): common.TextPart {
  reportUnknown(part, TEXT_KEYS, source, "a text part", losses);
  const cache = cacheHint(part.cache_control, source, part.prompt_cache_breakpoint);
  return cache === undefined
    ? { type: "text", text: part.text, source }
    : { type: "text", text: part.text, source, cache };
}

const THINKING_KEYS: Keys = ["type", "thinking", "closed"];

/** `closed: false` marks an unfinished chunk (Mistral prefixing); the default `true` says nothing. */
function thinkingPart(part: chat.ThinkingPart, source: string, losses: Loss[]): common.ReasoningPart {
  reportUnknown(part, THINKING_KEYS, source, "a thinking chunk", losses);
  if (part.closed === false)
    losses.push(
      loss(
        `${source}/closed`,
        "dropped",
        "An open (`closed: false`) thinking chunk was read as a closed one.",
      ),
    );
  let text = "";
  for (let index = 0; index < part.thinking.length; index++) {
    const chunk = part.thinking[index] as chat.ThinkingPart["thinking"][number];
    if (chunk.type === "text" && chunk.text !== undefined) text += chunk.text;
    else
      losses.push(
        loss(
          `${source}/thinking/${index}`,
          "dropped",
          `A ${chunk.type} chunk inside thinking has no common equivalent and was dropped.`,
        ),
      );
  }
  return { type: "reasoning", text, origin: "chat", source };
}

function reportUnknown(node: object, known: Keys, source: string, what: string, losses: Loss[]): void {
  for (const key in node) {
    if (isKnown(known, key) || !Object.hasOwn(node, key)) continue;
    if (!blank((node as Record<string, unknown>)[key]))
      losses.push(
        loss(
          `${source}/${key}`,
          "dropped",
          `\`${key}\` on ${what} has no common equivalent and was dropped.`,
        ),
      );
  }
}
