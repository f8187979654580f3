/**
 * What the fused paths from a chat completion share (chat-messages-response.ts,
 * chat-generative-response.ts): the completion read and checked for the shape they take — one choice
 * whose message carries text and/or function tool calls, reasoning, a refusal, Gemini's thought
 * signatures, a finish reason and usage — and what the chat decoder (src/protocols/chat/response.ts,
 * assistant-decode.ts, usage.ts) reports while reading it, word for word and in its order: the
 * unknown fields of the body, the choice and the message, of a reasoning entry, of a tool call, of
 * `extra_content`, of usage, and a message-level signature with nothing to sign. Every reader returns
 * `undefined` for a shape it leaves to the hub.
 */
import { isObject, parseJsonObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { at } from "../common/pointer";

export type Node = Record<string, unknown>;

/** Nothing said: chat sends these for fields it has nothing in; the hub keeps them without a loss. */
const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

const dropped = (path: string, key: string): Loss =>
  loss(path, "dropped", `\`${key}\` has no common equivalent and was dropped.`);

const droppedOn = (path: string, key: string, what: string): Loss =>
  loss(path, "dropped", `\`${key}\` on ${what} has no common equivalent and was dropped.`);

/** A count the hub reads with `?? 0` or `!= null`: a number, null or absent. */
export const isCount = (value: unknown): value is number | null | undefined =>
  value === undefined || value === null || typeof value === "number";

export const isText = (value: unknown): value is string | null | undefined =>
  value === undefined || value === null || typeof value === "string";

/** Chat `finish_reason` → the common reason: the chat decoder's own mapping. */
export { decodeChatFinishReason as commonReason } from "../protocols/chat/adapter";

/**
 * A call's own thought signature (`extra_content.google.thought_signature`, Gemini): the string,
 * `undefined` when there is none, `false` for a shape this path leaves to the hub.
 */
function callSignature(extra: unknown): string | undefined | false {
  if (extra == null) return undefined;
  if (!isObject(extra)) return false;
  const google = extra.google;
  if (google == null) return undefined;
  if (!isObject(google)) return false;
  const signature = google.thought_signature;
  if (signature === undefined) return undefined;
  return typeof signature === "string" ? signature : false;
}

/** An audio answer whose every field is `null`, `""` or 0: the hub reads no text from it and reports nothing. */
function isEmptyAudio(audio: Node): boolean {
  for (const key in audio) {
    const value = audio[key];
    if (value !== null && value !== "" && value !== 0) return false;
  }
  return true;
}

/** A chat completion of the shape the fused paths take, its fields read and checked. */
export type Completion = {
  readonly body: Node;
  readonly id: string;
  readonly model: string;
  readonly choice: Node;
  readonly message: Node;
  readonly reason: string | null | undefined;
  readonly content: string | null | undefined;
  readonly refusal: string | null | undefined;
  readonly calls: readonly unknown[] | null | undefined;
  readonly annotations: readonly unknown[] | null | undefined;
  /** `reasoning_content`, else `reasoning` (the hub's choice), when there are no `reasoning_details`. */
  readonly reasoning: string | null | undefined;
  /** `reasoning_details` when it has entries (they hold the same text as `reasoning`, and signatures). */
  readonly details: readonly unknown[] | undefined;
  readonly extraContent: Node | null | undefined;
  readonly google: Node | null | undefined;
  /** The message-level thought signature (Gemini), when given and not empty. */
  readonly signature: string | undefined;
  readonly signaturePath: string;
  readonly hasCalls: boolean;
  readonly usage: Node | null | undefined;
  /** `usage`'s figures as the hub reads them (cache reads and writes are part of `prompt_tokens`). */
  readonly promptTokens: number | null | undefined;
  readonly completionTokens: number | null | undefined;
  /** `prompt_tokens_details.cached_tokens`, else DeepSeek's `prompt_cache_hit_tokens`. */
  readonly cacheRead: number | null | undefined;
  readonly cacheWrite: number | null | undefined;
  readonly reasoningTokens: number | null | undefined;
};

/** A chat completion of the shape the fused paths take, or `undefined` for the hub. */
export function readCompletion(body: unknown): Completion | undefined {
  if (!isObject(body)) return undefined;
  const id = body.id;
  const model = body.model;
  const choices = body.choices;
  const usage = body.usage;
  if (typeof id !== "string" || typeof model !== "string" || !Array.isArray(choices) || choices.length !== 1)
    return undefined;
  if (usage != null && !isObject(usage)) return undefined;
  const choice: unknown = choices[0];
  if (!isObject(choice)) return undefined;
  const message = choice.message;
  const reason = choice.finish_reason;
  if (!isObject(message) || !isText(reason)) return undefined;
  const content = message.content;
  const refusal = message.refusal;
  const calls = message.tool_calls;
  const annotations = message.annotations;
  const reasoningContent = message.reasoning_content;
  const reasoningText = message.reasoning;
  const details = message.reasoning_details;
  if (!isText(content) || !isText(refusal) || !isText(reasoningContent) || !isText(reasoningText))
    return undefined;
  if ((calls != null && !Array.isArray(calls)) || (annotations != null && !Array.isArray(annotations)))
    return undefined;
  if (details != null && !Array.isArray(details)) return undefined;
  // An empty audio answer and a nameless legacy call (Snowflake Cortex sends both) say nothing.
  const audio = message.audio;
  const legacy = message.function_call;
  if (audio != null && !(isObject(audio) && isEmptyAudio(audio))) return undefined;
  if (legacy != null && !(isObject(legacy) && legacy.name === "")) return undefined;
  // Gemini's compatible endpoint signs the message (`extra_content.google.thought_signature`, or
  // `thought_signature`): the signature goes to the first call, or else to the text.
  const extraContent = message.extra_content;
  if (extraContent != null && !isObject(extraContent)) return undefined;
  const google = extraContent?.google;
  if (google != null && !isObject(google)) return undefined;
  const nested = google?.thought_signature;
  const signature = typeof nested === "string" ? nested : message.thought_signature;
  // Usage figures: a number, null or absent each, as the hub reads them with `?? 0` or `!= null`.
  const prompt = usage?.prompt_tokens;
  const completion = usage?.completion_tokens;
  const promptDetails = usage?.prompt_tokens_details;
  const completionDetails = usage?.completion_tokens_details;
  const hit = usage?.prompt_cache_hit_tokens;
  if (!isCount(prompt) || !isCount(completion) || !isCount(hit)) return undefined;
  if (promptDetails != null && !isObject(promptDetails)) return undefined;
  if (completionDetails != null && !isObject(completionDetails)) return undefined;
  const cached = promptDetails?.cached_tokens;
  const write = promptDetails?.cache_write_tokens;
  const reasoning = completionDetails?.reasoning_tokens;
  if (!isCount(cached) || !isCount(write) || !isCount(reasoning)) return undefined;
  return {
    body,
    id,
    model,
    choice,
    message,
    reason,
    content,
    refusal,
    calls,
    annotations,
    reasoning: reasoningContent != null ? reasoningContent : reasoningText,
    details: details != null && details.length > 0 ? details : undefined,
    extraContent,
    google,
    signature: typeof signature === "string" && signature !== "" ? signature : undefined,
    signaturePath:
      typeof nested === "string"
        ? "/choices/0/message/extra_content/google/thought_signature"
        : "/choices/0/message/thought_signature",
    hasCalls: calls != null && calls.length > 0,
    usage,
    promptTokens: prompt,
    completionTokens: completion,
    cacheRead: cached ?? hit,
    cacheWrite: write,
    reasoningTokens: reasoning,
  };
}

/** What the hub drops first, in its order: the body's, the choice's and the message's unknown fields. */
function reportEnvelope(completion: Completion, losses: Loss[]): void {
  const { body, choice, message } = completion;
  for (const key in body) {
    switch (key) {
      case "id":
      case "object":
      case "created":
      case "model":
      case "choices":
      case "usage":
        continue;
    }
    if (Object.hasOwn(body, key) && !isBlank(body[key])) losses.push(dropped(at("", key), key));
  }
  for (const key in choice) {
    if (key === "index" || key === "message" || key === "finish_reason") continue;
    if (Object.hasOwn(choice, key) && !isBlank(choice[key])) losses.push(dropped(at("/choices/0", key), key));
  }
  for (const key in message) {
    switch (key) {
      case "role":
      case "content":
      case "refusal":
      case "tool_calls":
      case "function_call":
      case "annotations":
      case "reasoning_content":
      case "reasoning":
      case "reasoning_details":
      case "extra_content":
      case "thought_signature":
      case "audio":
        continue;
    }
    if (Object.hasOwn(message, key) && !isBlank(message[key]))
      losses.push(dropped(at("/choices/0/message", key), key));
  }
  // Annotations with no text to ride on (the path takes text or null content only).
  const annotations = completion.annotations;
  if (completion.content == null && annotations != null && annotations.length > 0)
    losses.push(
      loss(
        "/choices/0/message/annotations",
        "dropped",
        "Annotations outside a text block have no place and were dropped.",
      ),
    );
}

/** An OpenRouter `reasoning_details` entry of the types this path reads. */
export type ReasoningEntry = {
  readonly node: Node;
  readonly type: string;
  readonly format: string | null | undefined;
  readonly text: string | null | undefined;
  readonly summary: string | null | undefined;
  readonly data: string | null | undefined;
  readonly signature: string | null | undefined;
};

/** A `reasoning_details` entry, or `undefined` for the hub. */
function readReasoningEntry(detail: unknown): ReasoningEntry | undefined {
  if (!isObject(detail)) return undefined;
  const type = detail.type;
  const format = detail.format;
  const text = detail.text;
  const summary = detail.summary;
  const data = detail.data;
  const signature = detail.signature;
  if (typeof type !== "string" || !isText(format) || !isText(text) || !isText(summary)) return undefined;
  if (!isText(data) || !isText(signature)) return undefined;
  return { node: detail, type, format, text, summary, data, signature };
}

const isDetailKey = (key: string): boolean =>
  key === "type" ||
  key === "text" ||
  key === "signature" ||
  key === "summary" ||
  key === "data" ||
  key === "format" ||
  key === "index";

/**
 * A target's part for a reasoning entry the hub reads (`reasoning.text`, `.summary` or `.encrypted`):
 * pushed to `parts`, what encoding loses appended to `late`, which it returns.
 */
export type EntryPart<P> = (
  entry: ReasoningEntry,
  source: string,
  parts: P[],
  late: Loss[] | undefined,
) => Loss[] | undefined;

/**
 * OpenRouter `reasoning_details` (they hold the same text as `reasoning`, and the signatures too) →
 * the target's parts by `part`, with what the decoder reports in its order: an entry of another type
 * dropped whole, an unknown field of one it reads. Returns `late` as `part` left it, `false` when an
 * entry is not of the shape this path reads.
 */
function reasoningParts<P>(
  details: readonly unknown[],
  part: EntryPart<P>,
  parts: P[],
  losses: Loss[],
  late: Loss[] | undefined,
): Loss[] | undefined | false {
  for (let index = 0; index < details.length; index++) {
    const entry = readReasoningEntry(details[index]);
    if (entry === undefined) return false;
    const source = `/choices/0/message/reasoning_details/${index}`;
    const type = entry.type;
    if (type !== "reasoning.text" && type !== "reasoning.summary" && type !== "reasoning.encrypted") {
      losses.push(
        loss(
          source,
          "dropped",
          `A reasoning entry of type "${type}" has no common equivalent and was dropped.`,
        ),
      );
      continue;
    }
    late = part(entry, source, parts, late);
    const node = entry.node;
    for (const key in node) {
      if (isDetailKey(key) || !Object.hasOwn(node, key) || isBlank(node[key])) continue;
      losses.push(droppedOn(`${source}/${key}`, key, "a reasoning entry"));
    }
  }
  return late;
}

/** A function tool call as the hub reads it. */
export type ChatCall = {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /** Its own thought signature (Gemini), `""` included. */
  readonly signature: string | undefined;
};

/**
 * Where the thought signature of call `index` is, for a target with no place for it: the call's own
 * (`own`), else, for the first call, the message's (Gemini signs the first call); `undefined` when the
 * call is unsigned.
 */
export function callSignaturePath(completion: Completion, index: number, own: boolean): string | undefined {
  if (own) return `/choices/0/message/tool_calls/${index}/extra_content/google/thought_signature`;
  return index === 0 && completion.signature !== undefined ? completion.signaturePath : undefined;
}

/**
 * The tool call at `index`, its unknown fields reported as the hub does, or `undefined` for the hub
 * (a custom call, a value of the wrong type).
 */
export function readCall(call: unknown, index: number, losses: Loss[]): ChatCall | undefined {
  if (!isObject(call) || call.type === "custom") return undefined;
  const signature = callSignature(call.extra_content);
  if (signature === false) return undefined;
  const fn = call.function;
  const id = call.id;
  if (!isObject(fn) || typeof id !== "string") return undefined;
  const name = fn.name;
  const text = fn.arguments;
  if (typeof name !== "string" || typeof text !== "string") return undefined;
  for (const key in call) {
    switch (key) {
      case "id":
      case "type":
      case "function":
      case "custom":
      case "index":
      case "extra_content":
        continue;
    }
    if (Object.hasOwn(call, key) && !isBlank(call[key]))
      losses.push(droppedOn(`/choices/0/message/tool_calls/${index}/${key}`, key, "a tool call"));
  }
  return { id, name, arguments: text, signature };
}

/** Arguments text as the hub parses it: blank is `{}`, anything but a JSON object `undefined`. */
export const parseArguments = (text: string): Record<string, unknown> | undefined =>
  text.charCodeAt(0) !== 123 && text.trim() === "" ? {} : parseJsonObject(text);

/**
 * What the hub reports of `extra_content` after the calls: its unknown fields and those of
 * `extra_content.google`, and the message-level signature when there is nothing for it to sign (the
 * first call is signed already, or there is neither a call nor a text). `firstSigned`: whether the first
 * call carries its own signature.
 */
function reportMessageSignature(completion: Completion, firstSigned: boolean, losses: Loss[]): void {
  const { message, extraContent, google, signature } = completion;
  if (extraContent === undefined && message.thought_signature === undefined) return;
  if (isObject(google))
    for (const key in google)
      if (key !== "thought_signature" && Object.hasOwn(google, key) && !isBlank(google[key]))
        losses.push(
          droppedOn(`/choices/0/message/extra_content/google/${key}`, key, "`extra_content.google`"),
        );
  if (isObject(extraContent))
    for (const key in extraContent)
      if (key !== "google" && Object.hasOwn(extraContent, key) && !isBlank(extraContent[key]))
        losses.push(droppedOn(`/choices/0/message/extra_content/${key}`, key, "`extra_content`"));
  if (signature !== undefined && (completion.hasCalls ? firstSigned : typeof completion.content !== "string"))
    losses.push(
      loss(
        completion.signaturePath,
        "dropped",
        "A message-level thought signature with no call or text to sign was dropped.",
      ),
    );
}

/** The unknown fields of `usage`, reported as the hub does. */
function reportUsage(usage: Node, losses: Loss[]): void {
  for (const key in usage) {
    switch (key) {
      case "prompt_tokens":
      case "completion_tokens":
      case "total_tokens":
      case "prompt_tokens_details":
      case "completion_tokens_details":
      case "prompt_cache_hit_tokens":
      case "prompt_cache_miss_tokens":
        continue;
    }
    if (Object.hasOwn(usage, key) && !isBlank(usage[key])) losses.push(dropped(at("/usage", key), key));
  }
}

/**
 * What the hub reports after the calls, in its order — of `extra_content` and the message-level
 * signature (see `reportMessageSignature`), the unknown fields of usage — then `late`, what encoding
 * lost part by part. `firstSigned`: whether the first call carries its own signature.
 */
export function reportRest(
  completion: Completion,
  firstSigned: boolean,
  losses: Loss[],
  late: Loss[] | undefined,
): void {
  reportMessageSignature(completion, firstSigned, losses);
  const usage = completion.usage;
  if (usage != null) reportUsage(usage, losses);
  if (late !== undefined) for (const entry of late) losses.push(entry);
}

/**
 * What the hub does first, in its order: drops the body's, the choice's and the message's unknown
 * fields (into `losses`), then reads the reasoning — `reasoning_details` through `part`, else
 * `reasoning_content` or `reasoning` as one `plain` part (none when empty). Returns `late`, what
 * encoding lost so far (the hub reports it after everything decoding drops), or `false` for the hub.
 */
export function openParts<P>(
  completion: Completion,
  part: EntryPart<P>,
  plain: (text: string) => P,
  parts: P[],
  losses: Loss[],
): Loss[] | undefined | false {
  reportEnvelope(completion, losses);
  const details = completion.details;
  if (details !== undefined) return reasoningParts(details, part, parts, losses, undefined);
  const reasoning = completion.reasoning;
  if (reasoning != null && reasoning !== "") parts.push(plain(reasoning));
  return undefined;
}
