/**
 * A fused chat → generative request path: straight from one wire to the other, without the common
 * model, for the shape most gateway traffic has — system or developer messages (anywhere), user and
 * assistant turns of text (a string or text parts), and the sampling fields. The hub (decode to the
 * common model, encode from it) stays the specification: anything else — another field (unknown
 * ones included, which the hub reports), a `null`, names, images, tools and tool calls, reasoning,
 * `cache_control`, a request with no conversation turn — returns `undefined`, and the caller takes
 * the hub. What it handles it reports as the hub does, in the hub's order: a system message moved up
 * from mid-conversation, an empty system text, an empty turn dropped, the user turn inserted before
 * a leading model turn, `user` and `parallel_tool_calls` dropped, stop sequences past generative's
 * five, a clamped `temperature` or `top_p`. Consecutive turns of one role merge, as the hub merges
 * them. Pointers are built only for those losses. test/fused/chat-generative.test.ts checks it
 * against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import { clampGenerative, systemText } from "./generative-target";
import type { Fused } from "./index";
import { isNumber } from "./number";

type GenerativeRequest = RequestOf<"generative">;
type TextPart = { text: string };
type Content = { role: "user" | "model"; parts: TextPart[] };
type GenerationConfig = NonNullable<GenerativeRequest["generationConfig"]>;

const optionalNumber = (value: unknown): boolean => value === undefined || isNumber(value);

/** A `{type: "text", text}` part exactly, its text; else `undefined`. */
function plainText(part: unknown): string | undefined {
  if (!isObject(part) || part.type !== "text" || typeof part.text !== "string") return undefined;
  let count = 0;
  for (const _ in part) count++;
  return count === 2 ? part.text : undefined;
}

/** The pointer of system message `index`, or of its part `at` (≥ 0). */
const systemSource = (index: number, at: number): string =>
  at < 0 ? `/messages/${index}` : `/messages/${index}/content/${at}`;

/** chat → generative for the plain shape, or `undefined` for the hub. Never throws. */
export function chatToGenerativeRequest(
  body: unknown,
  _options: ResolvedOptions,
): Fused<GenerativeRequest> | undefined {
  if (!isObject(body)) return undefined;
  let model: unknown;
  let messages: unknown;
  let temperature: unknown;
  let topP: unknown;
  let topK: unknown;
  let maxTokens: unknown;
  let stop: unknown;
  let stream: unknown;
  let candidates: unknown;
  let presence: unknown;
  let frequency: unknown;
  let seed: unknown;
  let user: unknown;
  let parallel: unknown;
  let maxFields = 0;
  // Every field is one this path handles, given (not null): anything else is the hub's.
  for (const key in body) {
    const value = body[key];
    if (value === null || value === undefined) return undefined;
    switch (key) {
      case "model":
        model = value;
        break;
      case "messages":
        messages = value;
        break;
      case "temperature":
        temperature = value;
        break;
      case "top_p":
        topP = value;
        break;
      case "top_k":
        topK = value;
        break;
      case "max_tokens":
      case "max_completion_tokens":
        maxTokens = value;
        maxFields++;
        break;
      case "stop":
        stop = value;
        break;
      case "stream":
        stream = value;
        break;
      case "n":
        candidates = value;
        break;
      case "presence_penalty":
        presence = value;
        break;
      case "frequency_penalty":
        frequency = value;
        break;
      case "seed":
        seed = value;
        break;
      case "user":
        user = value;
        break;
      case "parallel_tool_calls":
        parallel = value;
        break;
      default:
        return undefined;
    }
  }
  if (typeof model !== "string" || !Array.isArray(messages) || maxFields > 1) return undefined;
  if (stream !== undefined && typeof stream !== "boolean") return undefined;
  if (user !== undefined && typeof user !== "string") return undefined;
  if (parallel !== undefined && typeof parallel !== "boolean") return undefined;
  if (
    !optionalNumber(temperature) ||
    !optionalNumber(topP) ||
    !optionalNumber(topK) ||
    !optionalNumber(maxTokens) ||
    !optionalNumber(candidates) ||
    !optionalNumber(presence) ||
    !optionalNumber(frequency) ||
    !optionalNumber(seed)
  )
    return undefined;
  if (stop !== undefined && typeof stop !== "string") {
    if (!Array.isArray(stop)) return undefined;
    for (const sequence of stop) if (typeof sequence !== "string") return undefined;
  }

  // The system blocks are hoisted and reported first, then the turns (as the hub encodes them).
  const system: TextPart[] = [];
  const systemLosses: Loss[] = [];
  const losses: Loss[] = [];
  const contents: Content[] = [];
  let firstTurn = -1;
  let seenTurn = false;
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (!isObject(message)) return undefined;
    let count = 0;
    for (const _ in message) count++;
    const role = message.role;
    const content = message.content;
    if (count !== 2) return undefined;
    if (role === "system" || role === "developer") {
      if (typeof content === "string")
        systemText(content, seenTurn, systemSource(index, -1), system, systemLosses);
      else if (Array.isArray(content))
        for (let at = 0; at < content.length; at++) {
          const text = plainText(content[at]);
          if (text === undefined) return undefined;
          systemText(text, seenTurn, systemSource(index, at), system, systemLosses);
        }
      else return undefined;
      continue;
    }
    if (role !== "user" && role !== "assistant") return undefined;
    seenTurn = true;
    const parts: TextPart[] = [];
    if (typeof content === "string") {
      if (content !== "") parts.push({ text: content });
    } else if (Array.isArray(content)) {
      for (let at = 0; at < content.length; at++) {
        const text = plainText(content[at]);
        if (text === undefined) return undefined;
        if (text !== "") parts.push({ text });
      }
    } else return undefined;
    if (parts.length === 0) {
      losses.push(
        loss(
          `/messages/${index}`,
          "dropped",
          "An empty message has no generative equivalent and was dropped.",
        ),
      );
      continue;
    }
    const turnRole = role === "assistant" ? "model" : "user";
    const previous = contents[contents.length - 1];
    if (previous !== undefined && previous.role === turnRole) {
      for (const part of parts) previous.parts.push(part);
    } else {
      if (previous === undefined) firstTurn = index;
      contents.push({ role: turnRole, parts });
    }
  }
  if (contents.length === 0) return undefined;
  if ((contents[0] as Content).role !== "user") {
    contents.unshift({ role: "user", parts: [{ text: "." }] });
    losses.push(
      loss(
        `/messages/${firstTurn}`,
        "synthesized",
        "generative conversations start with a user turn; a minimal one was inserted.",
      ),
    );
  }
  if (user !== undefined)
    losses.push(loss("/user", "dropped", "The user setting has no generative equivalent and was dropped."));
  if (parallel !== undefined)
    losses.push(
      loss(
        "/parallel_tool_calls",
        "dropped",
        "The parallel tool calls setting has no generative equivalent and was dropped.",
      ),
    );

  // The generation config: stop sequences past five, then the clamps, as the hub reports them.
  let stopSequences: string[] | undefined;
  if (stop !== undefined) {
    if (typeof stop === "string") stopSequences = [stop];
    else {
      const list = stop as string[];
      stopSequences = list.slice(0, 5);
      for (let index = 5; index < list.length; index++)
        losses.push(
          loss(
            `/stop/${index}`,
            "dropped",
            `generative accepts at most 5 stop sequences; ${JSON.stringify(list[index])} was dropped.`,
          ),
        );
    }
  }
  const config: GenerationConfig = {};
  let configured = false;
  if (temperature !== undefined) {
    config.temperature = clampGenerative(temperature as number, 2, "temperature", losses);
    configured = true;
  }
  if (topP !== undefined) {
    config.topP = clampGenerative(topP as number, 1, "top_p", losses);
    configured = true;
  }
  if (topK !== undefined) {
    config.topK = topK as number;
    configured = true;
  }
  if (maxTokens !== undefined) {
    config.maxOutputTokens = maxTokens as number;
    configured = true;
  }
  if (stopSequences !== undefined) {
    config.stopSequences = stopSequences;
    configured = true;
  }
  if (candidates !== undefined) {
    config.candidateCount = candidates as number;
    configured = true;
  }
  if (presence !== undefined) {
    config.presencePenalty = presence as number;
    configured = true;
  }
  if (frequency !== undefined) {
    config.frequencyPenalty = frequency as number;
    configured = true;
  }
  if (seed !== undefined) {
    config.seed = seed as number;
    configured = true;
  }

  const value: GenerativeRequest = { contents };
  if (system.length > 0) value.systemInstruction = { parts: system };
  if (configured) value.generationConfig = config;
  const all = systemLosses.length === 0 ? losses : systemLosses.concat(losses);
  return { value, losses: all, model, stream: stream === true };
}
