/**
 * A fused chat → generative request path: straight from one wire to the other, without the common
 * model, for the shapes most gateway traffic has — system or developer messages (anywhere), user turns
 * of text and images (base64 data URLs of a type generative takes), assistant turns of text and function
 * tool calls, `tool` messages answering them, function tools, `tool_choice` and the sampling fields. The
 * hub (decode to the common model, encode from it) stays the specification: anything else — another
 * field (unknown ones included, which the hub reports), a `null` field, names, images by URL, audio and
 * files, refusals, reasoning, `cache_control`, calls and results that do not pair up (the hub's error),
 * results out of their calls' order (the hub sorts them), another `tool_choice`, a Gemini 3 model with
 * calls (the hub signs them), a request with no conversation turn — returns `undefined`, and the caller
 * takes the hub. What it handles it reports as the hub does, in the hub's order: a system message moved
 * up from mid-conversation, an empty system text, an image's `detail`, arguments that are not a JSON
 * object, an empty turn dropped, the user turn inserted before a leading model turn, `user` and
 * `parallel_tool_calls` dropped, a strict tool and what its schema's conversion loses, stop sequences
 * past generative's five, a clamped `temperature` or `top_p`. Consecutive turns of one role merge, as
 * the hub merges them; a `tool` message's result goes as a function response named after its call.
 * Pointers are built only for those losses. test/fused/chat-generative.test.ts checks it against the
 * hub, value and losses.
 */
import { isObject, parseJsonObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { parseDataUrl } from "../common/media";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import {
  clampGenerative,
  declareParameters,
  IMAGE_TYPES,
  resultsInOrder,
  systemText,
} from "./generative-target";
import type { Fused } from "./index";
import { ToolPairing } from "./messages-fields";
import { isNumber } from "./number";
import { onlyKeys } from "./responses-fields";

type GenerativeRequest = RequestOf<"generative">;
type TextPart = { text: string };
type Part = NonNullable<GenerativeRequest["contents"][number]["parts"]>[number];
type Content = { role: "user" | "model"; parts: Part[] };
type GenerationConfig = NonNullable<GenerativeRequest["generationConfig"]>;
type Declaration = NonNullable<
  NonNullable<GenerativeRequest["tools"]>[number]["functionDeclarations"]
>[number];

const ASSISTANT_KEYS = ["role", "content", "tool_calls"];
const TOOL_MESSAGE_KEYS = ["role", "content", "tool_call_id"];
const CALL_KEYS = ["id", "type", "function"];
const FUNCTION_CALL_KEYS = ["name", "arguments"];
const IMAGE_PART_KEYS = ["type", "image_url"];
const IMAGE_URL_KEYS = ["url", "detail"];
const TOOL_KEYS = ["type", "function"];
const FUNCTION_KEYS = ["name", "description", "parameters", "strict"];
const CHOICE_KEYS = ["type", "function"];
const CHOICE_FUNCTION_KEYS = ["name"];

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

/**
 * A user message's content parts into `parts` (text and base64 images, with the hub's loss for an
 * image's `detail`), or `false` for the hub.
 */
function userParts(content: readonly unknown[], index: number, parts: Part[], losses: Loss[]): boolean {
  for (let at = 0; at < content.length; at++) {
    const part: unknown = content[at];
    const text = plainText(part);
    if (text !== undefined) {
      if (text !== "") parts.push({ text });
      continue;
    }
    if (!isObject(part) || part.type !== "image_url" || !onlyKeys(part, IMAGE_PART_KEYS)) return false;
    const image = part.image_url;
    if (!isObject(image) || !onlyKeys(image, IMAGE_URL_KEYS)) return false;
    const { url, detail } = image;
    if (typeof url !== "string" || (detail !== undefined && typeof detail !== "string")) return false;
    const inline = parseDataUrl(url);
    if (inline === undefined || !IMAGE_TYPES.has(inline.mediaType)) return false;
    if (detail !== undefined)
      losses.push(
        loss(
          `/messages/${index}/content/${at}`,
          "dropped",
          `The image detail "${detail}" has no generative equivalent and was dropped.`,
        ),
      );
    parts.push({ inlineData: { mimeType: inline.mediaType, data: inline.data } });
  }
  return true;
}

/**
 * An assistant message's text and function calls into `parts` (the hub's loss for arguments that are
 * not a JSON object), each call's name noted by id and paired; or `false` for the hub.
 */
function assistantParts(
  message: Record<string, unknown>,
  index: number,
  parts: Part[],
  names: Map<string, string>,
  pairing: ToolPairing,
  losses: Loss[],
): boolean {
  if (!onlyKeys(message, ASSISTANT_KEYS)) return false;
  const content = message.content;
  if (typeof content === "string") {
    if (content !== "") parts.push({ text: content });
  } else if (Array.isArray(content)) {
    for (let at = 0; at < content.length; at++) {
      const text = plainText(content[at]);
      if (text === undefined) return false;
      if (text !== "") parts.push({ text });
    }
  } else if (content !== null && content !== undefined) return false;
  const calls = message.tool_calls;
  if (calls === undefined) return true;
  if (!Array.isArray(calls)) return false;
  for (let at = 0; at < calls.length; at++) {
    const call: unknown = calls[at];
    if (!isObject(call) || call.type !== "function" || !onlyKeys(call, CALL_KEYS)) return false;
    const id = call.id;
    const fn = call.function;
    // A call without an id ("") is the hub's: chat restores it, and it pairs by nothing.
    if (typeof id !== "string" || id === "" || !isObject(fn) || !onlyKeys(fn, FUNCTION_CALL_KEYS))
      return false;
    const { name, arguments: text } = fn;
    if (typeof name !== "string" || typeof text !== "string" || !pairing.call(id)) return false;
    let args = text.trim() === "" ? {} : parseJsonObject(text);
    if (args === undefined) {
      losses.push(
        loss(
          `/messages/${index}/tool_calls/${at}/function/arguments`,
          "approximated",
          "The call's arguments are not a JSON object; they were sent as { _raw: <text> }.",
        ),
      );
      args = { _raw: text };
    }
    parts.push({ functionCall: { id, name, args } });
    names.set(id, name);
  }
  return true;
}

/** A `tool` message as the function response the hub makes of it, or `undefined` for the hub. */
function toolResult(
  message: Record<string, unknown>,
  names: ReadonlyMap<string, string>,
  pairing: ToolPairing,
): Part | undefined {
  if (!onlyKeys(message, TOOL_MESSAGE_KEYS)) return undefined;
  const id = message.tool_call_id;
  const content = message.content;
  if (typeof id !== "string" || !pairing.result(id)) return undefined;
  const name = names.get(id);
  if (name === undefined) return undefined;
  let text: string;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    // Text parts joined by newlines, as the hub joins them.
    text = "";
    for (let at = 0; at < content.length; at++) {
      const piece = plainText(content[at]);
      if (piece === undefined) return undefined;
      text = at === 0 ? piece : `${text}\n${piece}`;
    }
  } else return undefined;
  return { functionResponse: { id, name, response: { content: text } } };
}

/** Function tools as declarations (the hub's losses in `losses`), or `false` for the hub. */
function declarations(tools: readonly unknown[], into: Declaration[], losses: Loss[]): boolean {
  for (let index = 0; index < tools.length; index++) {
    const tool: unknown = tools[index];
    if (!isObject(tool) || tool.type !== "function" || !onlyKeys(tool, TOOL_KEYS)) return false;
    const fn = tool.function;
    if (!isObject(fn) || !onlyKeys(fn, FUNCTION_KEYS)) return false;
    const { name, description, parameters, strict } = fn;
    if (typeof name !== "string") return false;
    if (description !== undefined && typeof description !== "string") return false;
    if (parameters !== undefined && !isObject(parameters)) return false;
    if (strict !== undefined && typeof strict !== "boolean") return false;
    // `strict: false` asks for what generative does anyway: only a strict tool loses something.
    if (strict === true)
      losses.push(
        loss(
          `/tools/${index}/function/strict`,
          "dropped",
          "`strict` has no generative equivalent and was dropped.",
        ),
      );
    const declaration: Declaration = description === undefined ? { name } : { name, description };
    if (parameters !== undefined)
      declareParameters(declaration, parameters, `/tools/${index}/function/parameters`, losses);
    into.push(declaration);
  }
  return true;
}

/** `tool_choice` as generative's `toolConfig`, or `undefined` for the hub. */
function toolConfig(choice: unknown): GenerativeRequest["toolConfig"] | undefined {
  if (choice === "auto") return { functionCallingConfig: { mode: "AUTO" } };
  if (choice === "none") return { functionCallingConfig: { mode: "NONE" } };
  if (choice === "required") return { functionCallingConfig: { mode: "ANY" } };
  if (!isObject(choice) || choice.type !== "function" || !onlyKeys(choice, CHOICE_KEYS)) return undefined;
  const fn = choice.function;
  if (!isObject(fn) || typeof fn.name !== "string" || !onlyKeys(fn, CHOICE_FUNCTION_KEYS)) return undefined;
  return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [fn.name] } };
}

/** chat → generative for the plain shapes, or `undefined` for the hub. Never throws. */
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
  let tools: unknown;
  let choice: unknown;
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
      case "tools":
        tools = value;
        break;
      case "tool_choice":
        choice = value;
        break;
      default:
        return undefined;
    }
  }
  if (typeof model !== "string" || !Array.isArray(messages) || maxFields > 1) return undefined;
  if (stream !== undefined && typeof stream !== "boolean") return undefined;
  if (user !== undefined && typeof user !== "string") return undefined;
  if (parallel !== undefined && typeof parallel !== "boolean") return undefined;
  if (tools !== undefined && !Array.isArray(tools)) return undefined;
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
  // Call names by id (for the results), and the hub's pairing rule followed message by message.
  const names = new Map<string, string>();
  const pairing = new ToolPairing();
  let calls = false;
  let firstTurn = -1;
  let seenTurn = false;
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (!isObject(message)) return undefined;
    const role = message.role;
    const content = message.content;
    if (role === "system" || role === "developer") {
      let count = 0;
      for (const _ in message) count++;
      if (count !== 2) return undefined;
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
    seenTurn = true;
    const parts: Part[] = [];
    let turnRole: "user" | "model";
    if (role === "user") {
      let count = 0;
      for (const _ in message) count++;
      if (count !== 2 || !pairing.turn("user")) return undefined;
      if (typeof content === "string") {
        if (content !== "") parts.push({ text: content });
      } else if (!Array.isArray(content) || !userParts(content, index, parts, losses)) return undefined;
      turnRole = "user";
    } else if (role === "assistant") {
      if (!pairing.turn("assistant") || !assistantParts(message, index, parts, names, pairing, losses))
        return undefined;
      if (!calls && message.tool_calls !== undefined && (message.tool_calls as unknown[]).length > 0)
        calls = true;
      turnRole = "model";
    } else if (role === "tool") {
      if (!pairing.turn("user")) return undefined;
      const result = toolResult(message, names, pairing);
      if (result === undefined) return undefined;
      parts.push(result);
      turnRole = "user";
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
    const previous = contents[contents.length - 1];
    if (previous !== undefined && previous.role === turnRole) {
      for (const part of parts) previous.parts.push(part);
    } else {
      if (previous === undefined) firstTurn = index;
      contents.push({ role: turnRole, parts });
    }
  }
  // No conversation turn (the hub sends the last system text as one), calls left unanswered (its
  // error), responses to sort, or calls a Gemini 3 model wants signed: the hub's.
  if (contents.length === 0 || !pairing.done() || !resultsInOrder(contents)) return undefined;
  if (calls && /gemini-3/.test(model)) return undefined;
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
  const declared: Declaration[] = [];
  if (tools !== undefined && !declarations(tools as unknown[], declared, losses)) return undefined;
  let functionCalling: GenerativeRequest["toolConfig"] | undefined;
  if (choice !== undefined) {
    functionCalling = toolConfig(choice);
    if (functionCalling === undefined) return undefined;
  }
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
  if (declared.length > 0) value.tools = [{ functionDeclarations: declared }];
  if (functionCalling !== undefined) value.toolConfig = functionCalling;
  const all = systemLosses.length === 0 ? losses : systemLosses.concat(losses);
  return { value, losses: all, model, stream: stream === true };
}
