/**
 * A fused chat → messages response path: straight from a chat completion to a messages response,
 * without the common model, for the shape most completions have — one choice whose message carries
 * text and/or function tool calls (and, from reasoning models, `reasoning_content` or `reasoning`),
 * a finish reason and usage. The hub (decode to the common model, encode from it) stays the
 * specification: anything this path does not handle exactly as the hub would — several choices,
 * content parts, audio with a transcript, a named legacy `function_call`, custom tool calls, a value of the wrong type (unvalidated input) — returns `undefined`, and the caller takes the
 * hub. What it handles it reports as the hub does and in the hub's order: first what decoding drops
 * (unknown fields of the body, the choice, the message, a tool call, usage), then what encoding
 * loses (annotations, arguments that are not a JSON object, an approximated finish reason, missing
 * usage). Pointers are built only for those losses. test/fused/chat-messages-response.test.ts checks
 * it against the hub, value and losses.
 */
import { isObject, parseJsonObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { type ResolvedOptions, syntheticId } from "../common/options";
import { at } from "../common/pointer";
import type { ResponseOf } from "../protocols";

type MessagesResponse = ResponseOf<"messages">;
type Block = MessagesResponse["content"][number];
type Node = Record<string, unknown>;

/** `list` with `entry` at its end; the list is made on the first entry (most responses lose nothing). */
function append<T>(list: T[] | undefined, entry: T): T[] {
  if (list === undefined) return [entry];
  list.push(entry);
  return list;
}

/** Nothing said: chat sends these for fields it has nothing in; the hub keeps them without a loss. */
const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

const dropped = (path: string, key: string): Loss =>
  loss(path, "dropped", `\`${key}\` has no common equivalent and was dropped.`);

/** A count the hub reads with `?? 0` or `!= null`: a number, null or absent. */
const isCount = (value: unknown): value is number | null | undefined =>
  value === undefined || value === null || typeof value === "number";

const isText = (value: unknown): value is string | null | undefined =>
  value === undefined || value === null || typeof value === "string";

/** Chat `finish_reason` → the common reason the hub decodes it to. */
function commonReason(reason: string): "stop" | "length" | "tool-calls" | "content-filter" | "other" {
  switch (reason) {
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool-calls";
    case "content_filter":
      return "content-filter";
    default:
      return "other";
  }
}

/** The usage the hub sends: chat's counts (cache reads and writes inside `prompt_tokens`) → messages'. */
function encodeUsage(usage: Node): MessagesResponse["usage"] | undefined {
  const prompt = usage.prompt_tokens;
  const completion = usage.completion_tokens;
  const promptDetails = usage.prompt_tokens_details;
  const completionDetails = usage.completion_tokens_details;
  const hit = usage.prompt_cache_hit_tokens;
  if (!isCount(prompt) || !isCount(completion) || !isCount(hit)) return undefined;
  if (promptDetails != null && !isObject(promptDetails)) return undefined;
  if (completionDetails != null && !isObject(completionDetails)) return undefined;
  const cached = promptDetails?.cached_tokens;
  const write = promptDetails?.cache_write_tokens;
  const reasoning = completionDetails?.reasoning_tokens;
  if (!isCount(cached) || !isCount(write) || !isCount(reasoning)) return undefined;
  const read = cached ?? hit;
  const input = prompt ?? 0;
  const encoded: MessagesResponse["usage"] = {
    input_tokens: Math.max(0, input - (read ?? 0) - (write ?? 0)),
    cache_creation_input_tokens: write ?? 0,
    cache_read_input_tokens: read ?? 0,
    output_tokens: completion ?? 0,
  };
  if (reasoning != null) encoded.output_tokens_details = { thinking_tokens: reasoning };
  return encoded;
}

/** What the hub reports for another provider's thought signature on a text or a call. */
const foreignSignature = (path: string): Loss =>
  loss(path, "dropped", "A thought signature is valid only at the provider that issued it and was dropped.");

const droppedOn = (path: string, key: string, what: string): Loss =>
  loss(path, "dropped", `\`${key}\` on ${what} has no common equivalent and was dropped.`);

/**
 * Whether a call carries its own thought signature (`extra_content.google.thought_signature`, Gemini):
 * `true`, `undefined` when not, `false` for a shape this path leaves to the hub.
 */
function callSignature(extra: unknown): boolean | undefined {
  if (extra == null) return undefined;
  if (!isObject(extra)) return false;
  const google = extra.google;
  if (google == null) return undefined;
  if (!isObject(google)) return false;
  const signature = google.thought_signature;
  if (signature === undefined) return undefined;
  return typeof signature === "string";
}

/** An audio answer whose every field is `null`, `""` or 0: the hub reads no text from it and reports nothing. */
function isEmptyAudio(audio: Node): boolean {
  for (const key in audio) {
    const value = audio[key];
    if (value !== null && value !== "" && value !== 0) return false;
  }
  return true;
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
 * OpenRouter `reasoning_details` → thinking blocks as the hub makes them: an entry whose `format` is
 * Anthropic's keeps its signature (and its encrypted data, as redacted thinking); another provider's
 * signature or encrypted data cannot be verified by messages and is a loss. Decoding losses go to
 * `losses`, encoding ones to the returned `late`; `false` when an entry is not of the types it reads.
 */
function detailBlocks(
  details: readonly unknown[],
  blocks: Block[],
  losses: Loss[],
  late: Loss[] | undefined,
): Loss[] | undefined | false {
  for (let index = 0; index < details.length; index++) {
    const detail: unknown = details[index];
    if (!isObject(detail)) return false;
    const type = detail.type;
    const format = detail.format;
    const text = detail.text;
    const summary = detail.summary;
    const data = detail.data;
    const signature = detail.signature;
    if (typeof type !== "string" || !isText(format) || !isText(text) || !isText(summary)) return false;
    if (!isText(data) || !isText(signature)) return false;
    const source = `/choices/0/message/reasoning_details/${index}`;
    const own = format === "anthropic-claude-v1";
    switch (type) {
      case "reasoning.text": {
        const signed = signature != null && signature !== "";
        if (signed && !own)
          late = append(
            late,
            loss(
              `${source}/signature`,
              "dropped",
              "A reasoning signature is valid only at the provider that issued it and was dropped.",
            ),
          );
        blocks.push({ type: "thinking", thinking: text ?? "", signature: own && signed ? signature : "" });
        break;
      }
      case "reasoning.summary":
        blocks.push({ type: "thinking", thinking: summary ?? "", signature: "" });
        break;
      case "reasoning.encrypted":
        if (own) blocks.push({ type: "redacted_thinking", data: data ?? "" });
        else {
          late = append(
            late,
            loss(
              source,
              "dropped",
              "Redacted reasoning of another protocol has no messages equivalent and was dropped.",
            ),
          );
          blocks.push({ type: "thinking", thinking: "", signature: "" });
        }
        break;
      default:
        losses.push(
          loss(
            source,
            "dropped",
            `A reasoning entry of type "${type}" has no common equivalent and was dropped.`,
          ),
        );
        continue;
    }
    for (const key in detail) {
      if (isDetailKey(key) || !Object.hasOwn(detail, key) || isBlank(detail[key])) continue;
      losses.push(
        loss(
          `${source}/${key}`,
          "dropped",
          `\`${key}\` on a reasoning entry has no common equivalent and was dropped.`,
        ),
      );
    }
  }
  return late;
}

/** chat → messages for the common shape, or `undefined` for the hub. Never throws. */
export function chatToMessagesResponse(
  body: unknown,
  options: ResolvedOptions,
): { value: MessagesResponse; losses: Loss[] } | undefined {
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
  const signaturePath =
    typeof nested === "string"
      ? "/choices/0/message/extra_content/google/thought_signature"
      : "/choices/0/message/thought_signature";
  const signed = typeof signature === "string" && signature !== "";
  const hasCalls = calls != null && calls.length > 0;
  const signsText = signed && !hasCalls && typeof content === "string";

  // What decoding drops, in the hub's order: the body's, the choice's and the message's unknown fields.
  const losses: Loss[] = [];
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

  // The blocks in the hub's order: reasoning, text, refusal, tool calls. What encoding loses waits
  // in `late` (the hub reports it after everything decoding drops, usage included).
  const blocks: Block[] = [];
  let late: Loss[] | undefined;
  if (details != null && details.length > 0) {
    // OpenRouter's entries hold the same text as `reasoning`, and the signatures too.
    const gathered = detailBlocks(details, blocks, losses, late);
    if (gathered === false) return undefined;
    late = gathered;
  } else {
    const reasoning =
      reasoningContent != null ? reasoningContent : reasoningText != null ? reasoningText : undefined;
    if (reasoning !== undefined && reasoning !== "")
      blocks.push({ type: "thinking", thinking: reasoning, signature: "" });
  }
  if (typeof content === "string") {
    blocks.push({ type: "text", text: content });
    if (signsText) late = append(late, foreignSignature(signaturePath));
    if (annotations != null && annotations.length > 0)
      late = append(
        late,
        loss(
          "/choices/0/message/annotations",
          "dropped",
          "Citations from the chat protocol have no messages equivalent and were dropped.",
        ),
      );
  }
  const hasRefusal = refusal != null && refusal !== "";
  if (hasRefusal) blocks.push({ type: "text", text: refusal });
  let callCount = 0;
  if (calls != null) {
    for (let index = 0; index < calls.length; index++) {
      const call: unknown = calls[index];
      if (!isObject(call) || call.type === "custom") return undefined;
      const own = callSignature(call.extra_content);
      if (own === false) return undefined;
      const fn = call.function;
      const callId = call.id;
      if (!isObject(fn) || typeof fn.name !== "string" || typeof fn.arguments !== "string") return undefined;
      if (typeof callId !== "string") return undefined;
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
          losses.push(
            loss(
              `/choices/0/message/tool_calls/${index}/${key}`,
              "dropped",
              `\`${key}\` on a tool call has no common equivalent and was dropped.`,
            ),
          );
      }
      const signedAt =
        own !== undefined
          ? `/choices/0/message/tool_calls/${index}/extra_content/google/thought_signature`
          : index === 0 && signed
            ? signaturePath
            : undefined;
      if (signedAt !== undefined) late = append(late, foreignSignature(signedAt));
      const text = fn.arguments;
      let input: Record<string, unknown> | undefined =
        text.charCodeAt(0) !== 123 && text.trim() === "" ? {} : parseJsonObject(text);
      if (input === undefined) {
        late = append(
          late,
          loss(
            `/choices/0/message/tool_calls/${index}/function/arguments`,
            "approximated",
            'Tool-call arguments are not a JSON object; they were wrapped as `{"_raw": text}`.',
          ),
        );
        input = { _raw: text };
      }
      // A call without an id (`""`) gets the hub's deterministic one, seeded by the response id.
      const blockId = callId !== "" ? callId : syntheticId(options, id, callCount);
      blocks.push({ type: "tool_use", id: blockId, name: fn.name, input });
      callCount++;
    }
  }
  if (extraContent !== undefined || message.thought_signature !== undefined) {
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
    // A first call signed already, or nothing to sign: the message's signature is dropped.
    const firstCall: unknown = hasCalls ? (calls as unknown[])[0] : undefined;
    if (signed && (hasCalls ? callSignature((firstCall as Node).extra_content) !== undefined : !signsText))
      losses.push(
        loss(
          signaturePath,
          "dropped",
          "A message-level thought signature with no call or text to sign was dropped.",
        ),
      );
  }
  let encodedUsage: MessagesResponse["usage"] | undefined;
  if (usage != null) {
    encodedUsage = encodeUsage(usage);
    if (encodedUsage === undefined) return undefined;
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
  if (late !== undefined) for (const entry of late) losses.push(entry);

  // The stop reason as the hub chooses it for a reason that is not messages' own.
  const given = reason != null && reason !== "" ? commonReason(reason) : undefined;
  const natural = given === undefined || given === "stop" || given === "other";
  let stop: string;
  let approximated = false;
  if (callCount > 0 && (natural || given === "tool-calls")) stop = "tool_use";
  else if (given === "tool-calls") {
    stop = "end_turn";
    approximated = true;
  } else if (hasRefusal && natural) stop = "refusal";
  else if (given === undefined || given === "stop") stop = "end_turn";
  else if (given === "length") stop = "max_tokens";
  else if (given === "content-filter") stop = "refusal";
  else {
    stop = "end_turn";
    approximated = true;
  }
  if (approximated)
    losses.push(
      loss(
        "/choices/0/finish_reason",
        "approximated",
        `Finish reason \`${reason}\` has no messages equivalent; \`${stop}\` was sent.`,
      ),
    );
  if (encodedUsage === undefined)
    losses.push(loss("/usage", "synthesized", "The source reported no usage; zero usage was sent."));
  const value = {
    id,
    type: "message",
    role: "assistant",
    model,
    content: blocks,
    stop_reason: stop,
    stop_sequence: null,
    usage: encodedUsage ?? { input_tokens: 0, output_tokens: 0 },
  } as MessagesResponse;
  return { value, losses };
}
