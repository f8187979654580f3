/**
 * A fused responses → generative request path: straight from one wire to the other, without the common
 * model, for the shapes most gateway traffic has — `instructions` and system or developer messages of
 * text, a string `input` or user and assistant messages of text and images (base64 data URLs), function
 * calls and their outputs, function tools, `tool_choice`, `parallel_tool_calls` and the sampling fields.
 * It knows two wires, so it lives outside both protocol folders; the hub (decode to the common model,
 * encode from it) stays the specification. Anything this path does not handle exactly as the hub would
 * — another field (see responses-fields.ts), another item or part type, an item field beyond the ones
 * read, images by URL or of another type, non-text tool output, calls and outputs that do not pair up
 * (the hub's error), outputs out of their calls' order (the hub sorts them), another `tool_choice`, a
 * request without a conversation turn, a Gemini 3 model with calls (the hub signs them) — returns
 * `undefined`, and the caller takes the hub. Consecutive turns of one role merge, as the hub merges
 * them. What it handles it reports as the hub does, in the hub's order: a system message moved up from
 * mid-conversation, an empty system text, an image's `detail`, arguments that are not a JSON object, an
 * empty message dropped, the user turn inserted before a leading model turn, `parallel_tool_calls`
 * dropped, a strict tool and what the schema conversion loses, a clamped `temperature` or `top_p`.
 * Pointers are built only for those losses. test/fused/responses-generative.test.ts checks it against
 * the hub, value and losses.
 */
import { isObject, parseJsonObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { parseDataUrl } from "../common/media";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import { clampGenerative, declareParameters, resultsInOrder, systemText } from "./generative-target";
import type { Fused } from "./index";
import { onlyKeys, responsesFields } from "./responses-fields";

type GenerativeRequest = RequestOf<"generative">;
type Part = NonNullable<GenerativeRequest["contents"][number]["parts"]>[number];
type Content = { role: "user" | "model"; parts: Part[] };
type Declaration = NonNullable<
  NonNullable<GenerativeRequest["tools"]>[number]["functionDeclarations"]
>[number];
type Raw = Record<string, unknown>;

/** A common message as the hub's decoder groups the items: its role, pointer and encoded parts. */
type Message = {
  readonly role: "user" | "assistant";
  readonly source: string;
  readonly parts: Part[];
  /** How many losses there were when it opened: an empty message reports itself only if none came since. */
  readonly reported: number;
  texts: boolean;
  results: boolean;
};

const MESSAGE_KEYS = ["role", "content", "type"];
const CALL_KEYS = ["type", "call_id", "name", "arguments"];
const OUTPUT_KEYS = ["type", "call_id", "output"];
const TEXT_KEYS = ["type", "text"];
const OUTPUT_TEXT_KEYS = ["type", "text", "annotations"];
const IMAGE_KEYS = ["type", "image_url", "detail"];
const TOOL_KEYS = ["type", "name", "description", "parameters", "strict"];
const CHOICE_KEYS = ["type", "name"];
/** Image types this path sends inline (all of them ones generative takes; the hub decides the rest). */
const INLINE_IMAGES = ["image/png", "image/jpeg", "image/webp"];

/** The state of one translation: the turns being built and the losses in the hub's order. */
class Builder {
  readonly contents: Content[] = [];
  /** The pointer of each content's first message (the hub's `first`), for the inserted user turn. */
  readonly firsts: string[] = [];
  readonly system: { text: string }[] = [];
  readonly systemLosses: Loss[] = [];
  readonly losses: Loss[] = [];
  message: Message | undefined;

  open(role: "user" | "assistant", source: string): Message {
    this.flush();
    const message: Message = {
      role,
      source,
      parts: [],
      reported: this.losses.length,
      texts: false,
      results: false,
    };
    this.message = message;
    return message;
  }

  /** Ends the open message: dropped with the hub's loss when empty, else merged into the turns. */
  flush(): void {
    const message = this.message;
    if (message === undefined) return;
    this.message = undefined;
    if (message.parts.length === 0) {
      if (this.losses.length === message.reported)
        this.losses.push(
          loss(message.source, "dropped", "An empty message has no generative equivalent and was dropped."),
        );
      return;
    }
    const role = message.role === "assistant" ? "model" : "user";
    const previous = this.contents[this.contents.length - 1];
    if (previous !== undefined && previous.role === role) {
      for (const part of message.parts) previous.parts.push(part);
    } else {
      this.contents.push({ role, parts: message.parts });
      this.firsts.push(message.source);
    }
  }
}

/** A text the hub keeps as a part (an empty one is none). */
function pushText(text: string, parts: Part[]): void {
  if (text !== "") parts.push({ text });
}

/** A message's content as parts, or `false` for the hub. `role` says which parts it may hold here. */
function contentParts(
  content: unknown,
  role: "user" | "assistant",
  source: string,
  into: Builder,
  parts: Part[],
): boolean {
  if (typeof content === "string") {
    pushText(content, parts);
    return true;
  }
  if (!Array.isArray(content)) return false;
  for (let index = 0; index < content.length; index++) {
    const part: unknown = content[index];
    if (!isObject(part)) return false;
    const type = part.type;
    if (type === "input_text") {
      if (typeof part.text !== "string" || !onlyKeys(part, TEXT_KEYS)) return false;
      pushText(part.text, parts);
    } else if (type === "output_text" && role === "assistant") {
      // Annotations are citations the hub reports as dropped: only an empty list is the plain shape.
      const annotations = part.annotations;
      if (typeof part.text !== "string" || !onlyKeys(part, OUTPUT_TEXT_KEYS)) return false;
      if (annotations !== undefined && !(Array.isArray(annotations) && annotations.length === 0))
        return false;
      pushText(part.text, parts);
    } else if (type === "input_image" && role === "user") {
      const { image_url: url, detail } = part;
      if (typeof url !== "string" || !onlyKeys(part, IMAGE_KEYS)) return false;
      if (detail !== undefined && typeof detail !== "string") return false;
      const inline = parseDataUrl(url);
      if (inline === undefined || !INLINE_IMAGES.includes(inline.mediaType)) return false;
      if (detail !== undefined)
        into.losses.push(
          loss(
            `${source}/content/${index}`,
            "dropped",
            `The image detail "${detail}" has no generative equivalent and was dropped.`,
          ),
        );
      parts.push({ inlineData: { mimeType: inline.mediaType, data: inline.data } });
    } else return false;
  }
  return true;
}

/** A system or developer message's text into the system parts, or `false` for the hub. */
function systemMessage(item: Raw, source: string, late: boolean, into: Builder): boolean {
  const content = item.content;
  if (typeof content === "string") {
    systemText(content, late, `${source}/content`, into.system, into.systemLosses);
    return true;
  }
  if (!Array.isArray(content)) return false;
  for (let index = 0; index < content.length; index++) {
    const part: unknown = content[index];
    if (!isObject(part) || part.type !== "input_text" || typeof part.text !== "string") return false;
    if (!onlyKeys(part, TEXT_KEYS)) return false;
    systemText(part.text, late, `${source}/content/${index}`, into.system, into.systemLosses);
  }
  return true;
}

/** The input items into `into`, or `false` for the hub. */
function readItems(items: readonly unknown[], gemini3: boolean, into: Builder): boolean {
  // Call names by id (for the outputs), and the calls of the current run of assistant items still
  // waiting for their output: every one must be answered once before the next run (the hub's check).
  let names: Map<string, string> | undefined;
  let waiting: Set<string> | undefined;
  let assistantSide = false;
  let seenTurn = false;
  for (let index = 0; index < items.length; index++) {
    const item: unknown = items[index];
    if (!isObject(item)) return false;
    const source = `/input/${index}`;
    const type = item.type;
    if (type === undefined || type === "message") {
      const role = item.role;
      if (!onlyKeys(item, MESSAGE_KEYS)) return false;
      if (role === "system" || role === "developer") {
        if (!systemMessage(item, source, seenTurn, into)) return false;
        continue;
      }
      seenTurn = true;
      if (role === "user") {
        assistantSide = false;
        const message = into.open("user", source);
        if (!contentParts(item.content, "user", source, into, message.parts)) return false;
        into.flush();
      } else if (role === "assistant") {
        if (!assistantSide && waiting !== undefined && waiting.size > 0) return false;
        assistantSide = true;
        const open = into.message;
        const message =
          open !== undefined && open.role === "assistant" && !open.texts
            ? open
            : into.open("assistant", source);
        if (!contentParts(item.content, "assistant", source, into, message.parts)) return false;
        message.texts = true;
      } else return false;
    } else if (type === "function_call") {
      const { call_id: id, name, arguments: text } = item;
      if (typeof id !== "string" || typeof name !== "string" || typeof text !== "string") return false;
      if (!onlyKeys(item, CALL_KEYS) || gemini3) return false;
      seenTurn = true;
      if (!assistantSide && waiting !== undefined && waiting.size > 0) return false;
      assistantSide = true;
      const open = into.message;
      const message = open !== undefined && open.role === "assistant" ? open : into.open("assistant", source);
      let args = text.trim() === "" ? {} : parseJsonObject(text);
      if (args === undefined) {
        into.losses.push(
          loss(
            `${source}/arguments`,
            "approximated",
            "The call's arguments are not a JSON object; they were sent as { _raw: <text> }.",
          ),
        );
        args = { _raw: text };
      }
      message.parts.push({ functionCall: { id, name, args } });
      if (names === undefined) names = new Map();
      names.set(id, name);
      if (waiting === undefined) waiting = new Set();
      waiting.add(id);
    } else if (type === "function_call_output") {
      const { call_id: id, output } = item;
      if (typeof id !== "string" || typeof output !== "string" || !onlyKeys(item, OUTPUT_KEYS)) return false;
      seenTurn = true;
      assistantSide = false;
      // Each output answers one waiting call of the run before it, once (else the hub's error).
      const name = names?.get(id);
      if (name === undefined || waiting === undefined || !waiting.delete(id)) return false;
      const open = into.message;
      const message =
        open !== undefined && open.role === "user" && open.results ? open : into.open("user", source);
      message.results = true;
      message.parts.push({ functionResponse: { id, name, response: { content: output } } });
    } else return false;
  }
  into.flush();
  return waiting === undefined || waiting.size === 0;
}

/** Function tools as one entry of declarations (the hub's losses in `losses`), or `false` for the hub. */
function declarations(tools: readonly unknown[], into: Declaration[], losses: Loss[]): boolean {
  for (let index = 0; index < tools.length; index++) {
    const tool: unknown = tools[index];
    if (!isObject(tool) || tool.type !== "function" || !onlyKeys(tool, TOOL_KEYS)) return false;
    const { name, description, parameters, strict } = tool;
    if (typeof name !== "string") return false;
    if (description !== undefined && typeof description !== "string") return false;
    if (parameters !== undefined && !isObject(parameters)) return false;
    if (strict !== undefined && typeof strict !== "boolean") return false;
    // `strict: false` asks for what generative does anyway: only a strict tool loses something.
    if (strict === true)
      losses.push(
        loss(`/tools/${index}/strict`, "dropped", "`strict` has no generative equivalent and was dropped."),
      );
    const declaration: Declaration = description === undefined ? { name } : { name, description };
    if (parameters !== undefined)
      declareParameters(declaration, parameters, `/tools/${index}/parameters`, losses);
    into.push(declaration);
  }
  return true;
}

/** `tool_choice` as generative's `toolConfig`, or `undefined` for the hub. */
function toolConfig(choice: unknown): GenerativeRequest["toolConfig"] | undefined {
  if (choice === "auto") return { functionCallingConfig: { mode: "AUTO" } };
  if (choice === "none") return { functionCallingConfig: { mode: "NONE" } };
  if (choice === "required") return { functionCallingConfig: { mode: "ANY" } };
  if (!isObject(choice) || (choice.type !== "function" && choice.type !== "custom")) return undefined;
  const name = choice.name;
  if (typeof name !== "string" || !onlyKeys(choice, CHOICE_KEYS)) return undefined;
  return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [name] } };
}

/** responses → generative for the plain shapes, or `undefined` for the hub. Never throws. */
export function responsesToGenerativeRequest(
  body: unknown,
  options: ResolvedOptions,
): Fused<GenerativeRequest> | undefined {
  const fields = responsesFields(body, options);
  if (fields === undefined) return undefined;
  const model = fields.model;
  const into = new Builder();
  if (fields.instructions !== undefined)
    systemText(fields.instructions, false, "/instructions", into.system, into.systemLosses);
  const input = fields.input;
  if (typeof input === "string") {
    const message = into.open("user", "/input");
    pushText(input, message.parts);
    into.flush();
  } else if (!readItems(input, /gemini-3/.test(model), into)) return undefined;
  const contents = into.contents;
  // No conversation turn (the hub sends the last system text as one), or responses to sort: the hub's.
  if (contents.length === 0 || !resultsInOrder(contents)) return undefined;

  const losses = into.systemLosses.length === 0 ? into.losses : into.systemLosses.concat(into.losses);
  if ((contents[0] as Content).role !== "user") {
    contents.unshift({ role: "user", parts: [{ text: "." }] });
    losses.push(
      loss(
        into.firsts[0] as string,
        "synthesized",
        "generative conversations start with a user turn; a minimal one was inserted.",
      ),
    );
  }
  if (fields.parallelToolCalls !== undefined)
    losses.push(
      loss(
        "/parallel_tool_calls",
        "dropped",
        "The parallel tool calls setting has no generative equivalent and was dropped.",
      ),
    );
  const declared: Declaration[] = [];
  if (fields.tools !== undefined && !declarations(fields.tools, declared, losses)) return undefined;
  let config: GenerativeRequest["toolConfig"] | undefined;
  if (fields.toolChoice !== undefined) {
    config = toolConfig(fields.toolChoice);
    if (config === undefined) return undefined;
  }

  // The generation config, clamped as the hub clamps it.
  const generation: NonNullable<GenerativeRequest["generationConfig"]> = {};
  let configured = false;
  if (fields.temperature !== undefined) {
    generation.temperature = clampGenerative(fields.temperature, 2, "temperature", losses);
    configured = true;
  }
  if (fields.topP !== undefined) {
    generation.topP = clampGenerative(fields.topP, 1, "top_p", losses);
    configured = true;
  }
  if (fields.maxTokens !== undefined) {
    generation.maxOutputTokens = fields.maxTokens;
    configured = true;
  }

  const value: GenerativeRequest = { contents };
  if (into.system.length > 0) value.systemInstruction = { parts: into.system };
  if (configured) value.generationConfig = generation;
  if (declared.length > 0) value.tools = [{ functionDeclarations: declared }];
  if (config !== undefined) value.toolConfig = config;
  return { value, losses, model, stream: fields.stream };
}
