/**
 * A fused generative → responses request path: straight from one wire to the other, without the common
 * model, for the shapes most gateway traffic has — a `systemInstruction` of text parts, user turns of
 * text, images (inline or by file URI) and function responses, model turns of text and function calls,
 * function declarations, `toolConfig` and the sampling fields of `generationConfig`. The model id and
 * stream flag come from the options (generative carries them in the URL). It knows two wires, so it
 * lives outside both protocol folders; the hub (decode to the common model, encode from it) stays the
 * specification. Anything this path does not handle exactly as the hub would — another field (unknown
 * ones included, which the hub reports), snake_case names, thoughts and signatures, other media, a
 * function response without an id that answers no call of the model turn before it by name, calls and
 * responses that do not pair up (the hub's error), provider tools, another calling mode, a missing
 * `options.model` (the hub's error) — returns `undefined`, and the caller takes the hub. What it handles
 * it reports as the hub does, in the hub's order: call ids derived from the input, then each function
 * response sent as JSON text or an error sent as plain output, each declaration without parameters given
 * the empty object schema, a budget raised to 16, a clamped `temperature` or `topP`, then `topK`, the
 * penalties, `seed`, `candidateCount` and the stop sequences dropped. Pointers are built only for those
 * losses. test/fused/generative-responses.test.ts checks it against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { dataUrl } from "../common/media";
import { type ResolvedOptions, syntheticId } from "../common/options";
import type { RequestOf } from "../protocols";
import {
  derivedCallId,
  generativeFields,
  type NamedCall,
  plainText,
  readDeclarations,
  readFunctionCall,
  readFunctionResponse,
  readToolConfig,
} from "./generative-fields";
import type { Fused } from "./index";
import { onlyKeys } from "./responses-fields";
import { clampResponses, responsesBudget } from "./responses-target";

type ResponsesRequest = RequestOf<"responses">;
type InputItem = Extract<NonNullable<ResponsesRequest["input"]>, readonly unknown[]>[number];
type Raw = Record<string, unknown>;
/** A call of the latest model turn with calls, for naming responses without an id (the hub's decoder). */
type Call = NamedCall;

const SYSTEM_KEYS = ["parts", "role"];
const INLINE_PART_KEYS = ["inlineData"];
const INLINE_KEYS = ["mimeType", "data"];
const FILE_PART_KEYS = ["fileData"];
const FILE_KEYS = ["mimeType", "fileUri"];

/** An image part (`inlineData` or `fileData` of an `image/` type) as an `input_image`, or `undefined`. */
function image(part: Raw): Raw | undefined {
  const inline = part.inlineData;
  if (inline !== undefined) {
    if (!isObject(inline) || !onlyKeys(part, INLINE_PART_KEYS) || !onlyKeys(inline, INLINE_KEYS))
      return undefined;
    const { mimeType, data } = inline;
    if (typeof mimeType !== "string" || typeof data !== "string" || !mimeType.startsWith("image/"))
      return undefined;
    return { type: "input_image", image_url: dataUrl(mimeType, data) };
  }
  const file = part.fileData;
  if (!isObject(file) || !onlyKeys(part, FILE_PART_KEYS) || !onlyKeys(file, FILE_KEYS)) return undefined;
  const { mimeType, fileUri } = file;
  if (typeof mimeType !== "string" || typeof fileUri !== "string" || !mimeType.startsWith("image/"))
    return undefined;
  return { type: "input_image", image_url: fileUri };
}

/**
 * A function response's `output` and the hub's losses (an error flag, then a JSON value sent as its
 * text), or `undefined` for the hub.
 */
function output(response: Raw, source: string, losses: Loss[]): string | undefined {
  const keys = Object.keys(response);
  const only = keys.length === 1 ? keys[0] : undefined;
  if (only === "content" && typeof response.content === "string") return response.content;
  let json: unknown = response;
  if (only === "error") {
    json = response.error;
    if (json === undefined) return undefined;
    losses.push(
      loss(
        source,
        "approximated",
        "responses function outputs have no error flag; the error result was sent as ordinary output.",
      ),
    );
    if (typeof json === "string") return json;
  }
  losses.push(
    loss(source, "approximated", "The tool result was a JSON value; it was sent as its JSON text."),
  );
  return JSON.stringify(json);
}

/** The declarations as responses function tools (the hub's losses in `losses`), or `undefined`. */
function responsesTools(tools: unknown, losses: Loss[]): Raw[] | undefined {
  const declared = readDeclarations(tools);
  if (declared === undefined) return undefined;
  const out: Raw[] = [];
  for (const { name, description, schema: given, tool, at } of declared) {
    let schema = given;
    if (schema === undefined) {
      losses.push(
        loss(
          `/tools/${tool}/functionDeclarations/${at}/parameters`,
          "synthesized",
          "A responses function tool needs a parameter schema; the empty object schema was sent.",
        ),
      );
      schema = { type: "object", properties: {} };
    }
    const encoded: Raw =
      description === undefined
        ? { type: "function", name, parameters: schema, strict: false }
        : { type: "function", name, description, parameters: schema, strict: false };
    out.push(encoded);
  }
  return out;
}

/** The allowed names as responses' `allowed_tools` choice. */
const allowed = (mode: "auto" | "required", names: readonly string[]): Raw => ({
  type: "allowed_tools",
  mode,
  tools: names.map((name) => ({ type: "function", name })),
});

/** `toolConfig` as responses' `tool_choice` (`null` for none), or `undefined` for the hub. */
function toolChoice(config: unknown): unknown {
  const choice = readToolConfig(config);
  if (choice === undefined || choice === null) return choice;
  switch (choice.type) {
    case "tool":
      return { type: "function", name: choice.name };
    case "allowed":
      return allowed(choice.mode, choice.names);
    default:
      return choice.type;
  }
}

/** generative → responses for the plain shapes, or `undefined` for the hub. Never throws. */
export function generativeToResponsesRequest(
  body: unknown,
  options: ResolvedOptions,
): Fused<ResponsesRequest> | undefined {
  const model = options.model;
  if (model === undefined) return undefined;
  const fields = generativeFields(body, true);
  if (fields === undefined) return undefined;
  const { contents, system } = fields;

  // systemInstruction: one text part is `instructions`, several are one system message of input_text.
  const input: InputItem[] = [];
  let instructions: string | undefined;
  if (system !== undefined) {
    // The hub reads only the parts (a `role` there says nothing).
    if (!isObject(system) || !Array.isArray(system.parts) || !onlyKeys(system, SYSTEM_KEYS)) return undefined;
    if (system.role !== undefined && typeof system.role !== "string") return undefined;
    const parts = system.parts;
    if (parts.length === 1) {
      instructions = plainText(parts[0]);
      if (instructions === undefined) return undefined;
    } else if (parts.length > 1) {
      const content: Raw[] = [];
      for (const part of parts) {
        const text = plainText(part);
        if (text === undefined) return undefined;
        content.push({ type: "input_text", text });
      }
      input.push({ role: "system", content } as InputItem);
    }
  }

  // The turns, one or more items each, in order. The decoder's losses (ids it derives) come before the
  // encoder's; the calls and responses must pair up as the hub's check wants (else its error).
  const derived: Loss[] = [];
  const losses: Loss[] = [];
  let named: Call[] = [];
  let waiting: Set<string> | undefined;
  let previousModel = false;
  for (let turn = 0; turn < contents.length; turn++) {
    const content: unknown = contents[turn];
    if (!isObject(content)) return undefined;
    const role = content.role;
    const parts = content.parts;
    let count = 0;
    for (const _ in content) count++;
    if (count !== 2 || (role !== "user" && role !== "model") || !Array.isArray(parts)) return undefined;
    let texts: Raw[] = [];
    if (role === "model") {
      // A new run of model turns: the calls of the one before must all have been answered.
      if (!previousModel && waiting !== undefined && waiting.size > 0) return undefined;
      previousModel = true;
      let head: string | undefined;
      let ordinal = 0;
      let calls: Call[] | undefined;
      for (let index = 0; index < parts.length; index++) {
        const part: unknown = parts[index];
        const text = plainText(part);
        if (text !== undefined) {
          texts.push({ type: "output_text", text });
          continue;
        }
        if (!isObject(part)) return undefined;
        const call = readFunctionCall(part);
        if (call === undefined) return undefined;
        const { name, args } = call;
        const position = ordinal++;
        let id = call.id;
        if (id === undefined) {
          if (head === undefined) head = syntheticId(options, `req${turn}`);
          id = derivedCallId(head, position, `/contents/${turn}/parts/${index}/functionCall/id`, derived);
        }
        if (texts.length > 0) {
          input.push(assistantMessage(texts));
          texts = [];
        }
        input.push({
          type: "function_call",
          call_id: id,
          name,
          arguments: JSON.stringify(args ?? {}),
        } as InputItem);
        if (calls === undefined) calls = [];
        calls.push({ id, name, answered: false });
        if (waiting === undefined) waiting = new Set();
        waiting.add(id);
      }
      if (texts.length > 0) input.push(assistantMessage(texts));
      if (calls !== undefined) named = calls;
      continue;
    }
    previousModel = false;
    for (let index = 0; index < parts.length; index++) {
      const part: unknown = parts[index];
      const text = plainText(part);
      if (text !== undefined) {
        texts.push({ type: "input_text", text });
        continue;
      }
      if (!isObject(part)) return undefined;
      if (part.functionResponse === undefined) {
        const picture = image(part);
        if (picture === undefined) return undefined;
        texts.push(picture);
        continue;
      }
      const read = readFunctionResponse(part, named);
      if (read === undefined) return undefined;
      const { id, response } = read;
      // Each response answers one waiting call of the run before it, once (else the hub's error).
      if (waiting === undefined || !waiting.delete(id)) return undefined;
      const sent = output(response, `/contents/${turn}/parts/${index}`, losses);
      if (sent === undefined) return undefined;
      if (texts.length > 0) {
        input.push(userMessage(texts));
        texts = [];
      }
      input.push({ type: "function_call_output", call_id: id, output: sent } as InputItem);
    }
    if (texts.length > 0) input.push(userMessage(texts));
  }
  if (waiting !== undefined && waiting.size > 0) return undefined;

  let tools: Raw[] | undefined;
  if (fields.tools !== undefined) {
    tools = responsesTools(fields.tools, losses);
    if (tools === undefined) return undefined;
  }
  let choice: unknown;
  if (fields.toolConfig !== undefined) {
    choice = toolChoice(fields.toolConfig);
    if (choice === undefined) return undefined;
  }

  // The rest in the hub's order (responses' encoder): the budget, the sampling ranges, then what
  // responses has no field for.
  const { temperature, topP, topK, maxTokens, stop, candidates, presence, frequency, seed } = fields.sampling;
  const value: ResponsesRequest =
    instructions === undefined ? { model, input } : { model, instructions, input };
  const stream = options.stream ?? false;
  if (stream) value.stream = true;
  if (maxTokens !== undefined)
    value.max_output_tokens = responsesBudget(maxTokens, "/generationConfig/maxOutputTokens", losses);
  if (temperature !== undefined)
    value.temperature = clampResponses(
      temperature,
      2,
      "/generationConfig/temperature",
      "temperature",
      losses,
    );
  if (topP !== undefined) value.top_p = clampResponses(topP, 1, "/generationConfig/topP", "top_p", losses);
  if (topK !== undefined) dropped("topK", "responses has no `top_k`; it was dropped.", losses);
  if (presence !== undefined)
    dropped("presencePenalty", "responses has no presence penalty; it was dropped.", losses);
  if (frequency !== undefined)
    dropped("frequencyPenalty", "responses has no frequency penalty; it was dropped.", losses);
  if (seed !== undefined) dropped("seed", "responses has no `seed`; it was dropped.", losses);
  if (candidates !== undefined)
    dropped(
      "candidateCount",
      "responses returns one answer per request; the candidate count was dropped.",
      losses,
    );
  // An empty list stops on nothing: nothing is dropped.
  if (stop !== undefined && stop.length > 0)
    dropped("stopSequences", "responses has no stop sequences; they were dropped.", losses);
  if (tools !== undefined && tools.length > 0) value.tools = tools as ResponsesRequest["tools"];
  if (choice !== undefined && choice !== null) value.tool_choice = choice as ResponsesRequest["tool_choice"];
  const all = derived.length === 0 ? losses : derived.concat(losses);
  return { value, losses: all, model, stream };
}

/** A generation config field responses has no place for, with the hub's loss. */
function dropped(field: string, message: string, losses: Loss[]): void {
  losses.push(loss(`/generationConfig/${field}`, "dropped", message));
}

/** A user turn's run of parts as one message: one text as a string (the hub's EasyInputMessage). */
function userMessage(content: Raw[]): InputItem {
  const only = content[0] as Raw;
  return (
    content.length === 1 && only.type === "input_text"
      ? { role: "user", content: only.text }
      : { role: "user", content }
  ) as InputItem;
}

/** A model turn's run of texts as one assistant message: one text as a string. */
function assistantMessage(content: Raw[]): InputItem {
  return (
    content.length === 1
      ? { role: "assistant", content: (content[0] as Raw).text }
      : { role: "assistant", content }
  ) as InputItem;
}
