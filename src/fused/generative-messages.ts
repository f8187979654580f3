/**
 * A fused generative → messages request path: straight from one wire to the other, without the common
 * model, for the shapes most gateway traffic has — a `systemInstruction` of text parts, user turns of
 * text parts, images (`inlineData` of a type messages takes) and function responses, model turns of
 * text parts and function calls, function declarations, `toolConfig` and the sampling fields of
 * `generationConfig`. The model id and stream flag come from the options (generative carries them in the
 * URL). The hub (decode to the common model, encode from it) stays the specification: anything else —
 * another field (unknown ones included, which the hub reports), snake_case names, thoughts and
 * signatures, other media, a function response without an id that answers no call of the model turn
 * before it by name, calls and responses that do not pair up (the hub's error) or responses out of
 * their calls' order (the hub sorts them), a non-string error result, provider tools, a schema that is
 * not an object (the hub's error), another calling mode, blank or empty text and empty turns (which the
 * hub drops), a model turn first (the hub inserts a user turn), trailing whitespace on a final model
 * turn (the hub trims it), a `maxOutputTokens` that is not a whole number of at least 1, a missing
 * `options.model` (the hub's error) — returns `undefined`, and the caller takes the hub. Consecutive
 * turns of one role are merged, as the hub does; function calls become `tool_use` blocks with the ids
 * the hub derives, their responses `tool_result` blocks in the user turn after them. What it handles it
 * reports as the hub does, in the hub's order: call ids derived from the input, each JSON response sent
 * as its text, the synthesized `max_tokens`, a tool choice without tools or widened to all tools, the
 * dropped penalties, seed and several candidates, a clamped `temperature` or `topP`, `topP` dropped
 * beside `temperature`, a rounded `topK`, whitespace-only stop sequences. Pointers are built only for
 * those losses. test/fused/generative-messages.test.ts checks it against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { type ResolvedOptions, syntheticId } from "../common/options";
import type { RequestOf } from "../protocols";
import { IMAGE_TYPES } from "../protocols/messages/adapter";
import {
  type CallingChoice,
  derivedCallId,
  generativeFields,
  type NamedCall,
  readDeclarations,
  readFunctionCall,
  readFunctionResponse,
  readToolConfig,
} from "./generative-fields";
import type { Fused } from "./index";
import { ToolPairing } from "./messages-fields";
import { onlyKeys } from "./responses-fields";

type MessagesRequest = RequestOf<"messages">;
type Block = Record<string, unknown>;
type TextBlock = { type: "text"; text: string };
/** A call of the latest model turn with calls, for naming responses without an id (the hub's decoder). */
type Call = NamedCall;

const INLINE_PART_KEYS = ["inlineData"];
const INLINE_KEYS = ["mimeType", "data"];
/** Image types the messages API takes (the hub drops others, with a loss of its own). */

/** A `{text}` part exactly whose text is not blank, its text; else `undefined`. */
function plainText(part: unknown): string | undefined {
  if (!isObject(part) || typeof part.text !== "string") return undefined;
  for (const key in part) if (key !== "text") return undefined;
  return part.text.trim() === "" ? undefined : part.text;
}

/** An `inlineData` image part as a base64 image block, or `undefined` for the hub. */
function image(part: Block): Block | undefined {
  const inline = part.inlineData;
  if (!isObject(inline) || !onlyKeys(part, INLINE_PART_KEYS) || !onlyKeys(inline, INLINE_KEYS))
    return undefined;
  const { mimeType, data } = inline;
  if (typeof mimeType !== "string" || typeof data !== "string" || !IMAGE_TYPES.has(mimeType))
    return undefined;
  return { type: "image", source: { type: "base64", media_type: mimeType, data } };
}

/**
 * A function response's `response` as a tool result's text and error flag, with the hub's loss for a
 * JSON value sent as its text; `undefined` for the hub (an error that is not a string).
 */
function resultContent(
  response: Block,
  source: string,
  losses: Loss[],
): { text: string; error: boolean } | undefined {
  let only: string | undefined;
  let count = 0;
  for (const key in response) {
    only = key;
    count++;
  }
  if (count === 1) {
    if (only === "content" && typeof response.content === "string")
      return { text: response.content, error: false };
    if (only === "error")
      return typeof response.error === "string" ? { text: response.error, error: true } : undefined;
  }
  losses.push(loss(source, "approximated", "A JSON tool result was sent to the messages API as JSON text."));
  return { text: JSON.stringify(response), error: false };
}

/** The declarations as custom tools (the hub's input schema), or `undefined` for the hub. */
function messagesTools(tools: unknown): Block[] | undefined {
  const declared = readDeclarations(tools);
  if (declared === undefined) return undefined;
  const out: Block[] = [];
  for (const { name, description, schema } of declared) {
    let input: Record<string, unknown>;
    if (schema === undefined) input = { type: "object", properties: {} };
    else if (schema.type === undefined) input = { type: "object", ...schema };
    else if (schema.type === "object") input = schema;
    // Another type is the hub's error.
    else return undefined;
    out.push(
      description === undefined ? { name, input_schema: input } : { name, description, input_schema: input },
    );
  }
  return out;
}

/**
 * The calling choice as messages' `tool_choice` (none when `undefined`), with the hub's losses: a
 * choice without tools dropped, a subset of tools widened to all of them.
 */
function messagesChoice(choice: CallingChoice, hasTools: boolean, losses: Loss[]): Block | undefined {
  const source = "/toolConfig/functionCallingConfig";
  if (!hasTools) {
    if (choice.type !== "auto" && choice.type !== "none")
      losses.push(
        loss(source, "dropped", "A tool choice without tools has no messages equivalent and was dropped."),
      );
    return undefined;
  }
  switch (choice.type) {
    case "none":
    case "auto":
      return { type: choice.type };
    case "required":
      return { type: "any" };
    case "tool":
      return { type: "tool", name: choice.name };
    case "allowed":
      losses.push(
        loss(
          source,
          "approximated",
          "A restriction to a subset of tools has no messages equivalent; the choice was widened to all tools.",
        ),
      );
      return { type: choice.mode === "required" ? "any" : "auto" };
  }
}

/** A sampling value clamped to the messages range 0–1, with the hub's loss when it moved. */
function clampUnit(value: number, field: string, name: string, losses: Loss[]): number {
  if (value >= 0 && value <= 1) return value;
  const clamped = Math.min(1, Math.max(0, value));
  losses.push(
    loss(
      `/generationConfig/${field}`,
      "clamped",
      `\`${name}\` ${value} is outside the messages range 0–1 and was clamped to ${clamped}.`,
    ),
  );
  return clamped;
}

/** A setting messages has no field for, with the hub's loss. */
function dropped(field: string, name: string, losses: Loss[]): void {
  losses.push(
    loss(
      `/generationConfig/${field}`,
      "dropped",
      `\`${name}\` has no messages-protocol equivalent and was dropped.`,
    ),
  );
}

/** generative → messages for the plain shape, or `undefined` for the hub. Never throws. */
export function generativeToMessagesRequest(
  body: unknown,
  options: ResolvedOptions,
): Fused<MessagesRequest> | undefined {
  const model = options.model;
  if (model === undefined) return undefined;
  const fields = generativeFields(body, true);
  if (fields === undefined) return undefined;
  const { contents, system } = fields;
  const { temperature, topP, topK, maxTokens, stop, candidates, presence, frequency, seed } = fields.sampling;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) return undefined;

  // systemInstruction: text parts, none blank; one part is a string, several are text blocks.
  let systemValue: MessagesRequest["system"];
  if (system !== undefined) {
    if (!isObject(system) || !Array.isArray(system.parts)) return undefined;
    for (const key in system) if (key !== "parts") return undefined;
    const parts = system.parts;
    if (parts.length === 1) {
      const text = plainText(parts[0]);
      if (text === undefined) return undefined;
      systemValue = text;
    } else if (parts.length > 1) {
      const blocks: TextBlock[] = [];
      for (const part of parts) {
        const text = plainText(part);
        if (text === undefined) return undefined;
        blocks.push({ type: "text", text });
      }
      systemValue = blocks;
    }
  }

  // The turns, a user turn first; consecutive turns of one role merged (the hub's rule). Generative
  // parts never make a plain-string message content: every turn is blocks. The decoder's losses (ids
  // it derives) come before the encoder's; the calls and responses pair up by the hub's rule.
  const derived: Loss[] = [];
  const losses: Loss[] = [];
  const turns: { role: "user" | "assistant"; content: Block[] }[] = [];
  const pairing = new ToolPairing();
  let previous: { role: "user" | "assistant"; content: Block[] } | undefined;
  let named: Call[] = [];
  // The tool_use ids of the latest assistant turn, in order (the hub orders a user turn's results by them).
  let callOrder: string[] = [];
  // The rank of the user turn's last block: its tool results must lead, in call order (∞ after another block).
  let rank = -1;
  for (let turn = 0; turn < contents.length; turn++) {
    const content: unknown = contents[turn];
    if (!isObject(content)) return undefined;
    const role = content.role;
    const parts = content.parts;
    let count = 0;
    for (const _ in content) count++;
    if (count !== 2 || (role !== "user" && role !== "model") || !Array.isArray(parts) || parts.length === 0)
      return undefined;
    const wire = role === "model" ? "assistant" : "user";
    if (previous === undefined && wire !== "user") return undefined;
    if (!pairing.turn(wire)) return undefined;
    let blocks: Block[];
    if (previous !== undefined && previous.role === wire) blocks = previous.content;
    else {
      blocks = [];
      previous = { role: wire, content: blocks };
      turns.push(previous);
      if (wire === "assistant") callOrder = [];
      else rank = -1;
    }
    let head: string | undefined;
    let ordinal = 0;
    let calls: Call[] | undefined;
    for (let index = 0; index < parts.length; index++) {
      const part: unknown = parts[index];
      const text = plainText(part);
      if (text !== undefined) {
        blocks.push({ type: "text", text });
        rank = Number.POSITIVE_INFINITY;
        continue;
      }
      if (!isObject(part)) return undefined;
      if (wire === "assistant") {
        const call = readFunctionCall(part);
        if (call === undefined) return undefined;
        const { name, args } = call;
        const position = ordinal++;
        let id = call.id;
        if (id === undefined) {
          if (head === undefined) head = syntheticId(options, `req${turn}`);
          id = derivedCallId(head, position, `/contents/${turn}/parts/${index}/functionCall/id`, derived);
        }
        if (!pairing.call(id)) return undefined;
        blocks.push({ type: "tool_use", id, name, input: args ?? {} });
        callOrder.push(id);
        if (calls === undefined) calls = [];
        calls.push({ id, name, answered: false });
        continue;
      }
      if (part.functionResponse === undefined) {
        const picture = image(part);
        if (picture === undefined) return undefined;
        blocks.push(picture);
        rank = Number.POSITIVE_INFINITY;
        continue;
      }
      const read = readFunctionResponse(part, named);
      if (read === undefined) return undefined;
      const { id, response } = read;
      if (!pairing.result(id)) return undefined;
      // Out of call order (or after other blocks) the hub sorts the results: its case.
      const position = callOrder.indexOf(id);
      if (position < rank) return undefined;
      rank = position;
      const result = resultContent(response, `/contents/${turn}/parts/${index}`, losses);
      if (result === undefined) return undefined;
      blocks.push(
        result.error
          ? { type: "tool_result", tool_use_id: id, content: result.text, is_error: true }
          : { type: "tool_result", tool_use_id: id, content: result.text },
      );
    }
    if (calls !== undefined) named = calls;
  }
  if (previous === undefined || !pairing.done()) return undefined;
  if (previous.role === "assistant") {
    const last = previous.content[previous.content.length - 1] as Block;
    if (last.type === "text" && (last.text as string).trimEnd() !== last.text) return undefined;
  }
  let tools: Block[] | undefined;
  if (fields.tools !== undefined) {
    tools = messagesTools(fields.tools);
    if (tools === undefined) return undefined;
  }
  let calling: CallingChoice | null | undefined;
  if (fields.toolConfig !== undefined) {
    calling = readToolConfig(fields.toolConfig);
    if (calling === undefined) return undefined;
  }

  // The losses in the hub's order: the made-up budget, the settings messages has no field for, then
  // the sampling fields (messages-encode).
  if (maxTokens === undefined && !options.maxTokensGiven)
    losses.push(
      loss(
        "/max_tokens",
        "synthesized",
        `The messages API requires \`max_tokens\`; ${options.maxTokens} was used.`,
      ),
    );
  const hasTools = tools !== undefined && tools.length > 0;
  const choice =
    calling === undefined || calling === null ? undefined : messagesChoice(calling, hasTools, losses);
  if (presence !== undefined) dropped("presencePenalty", "presence_penalty", losses);
  if (frequency !== undefined) dropped("frequencyPenalty", "frequency_penalty", losses);
  if (seed !== undefined) dropped("seed", "seed", losses);
  if (candidates !== undefined && candidates !== 1)
    dropped("candidateCount", "n (several candidates)", losses);
  let sentTemperature: number | undefined;
  if (temperature !== undefined)
    sentTemperature = clampUnit(temperature, "temperature", "temperature", losses);
  let sentTopP: number | undefined;
  if (topP !== undefined) {
    if (temperature !== undefined)
      losses.push(
        loss(
          "/generationConfig/topP",
          "dropped",
          "The messages API rejects `temperature` and `top_p` together; `top_p` was dropped.",
        ),
      );
    else sentTopP = clampUnit(topP, "topP", "top_p", losses);
  }
  let sentTopK: number | undefined;
  if (topK !== undefined) {
    sentTopK = Math.max(0, Math.round(topK));
    if (sentTopK !== topK)
      losses.push(
        loss("/generationConfig/topK", "clamped", "`top_k` must be a non-negative integer and was rounded."),
      );
  }
  let stopSequences: string[] | undefined;
  if (stop !== undefined) {
    stopSequences = [];
    for (let index = 0; index < stop.length; index++) {
      const sequence = stop[index] as string;
      if (sequence.trim() !== "") stopSequences.push(sequence);
      else
        losses.push(
          loss(
            `/generationConfig/stopSequences/${index}`,
            "dropped",
            "The messages API rejects whitespace-only stop sequences; it was dropped.",
          ),
        );
    }
  }

  const budget = maxTokens ?? options.maxTokens;
  // The blocks are the wire's own (each built above as the hub builds it).
  const messages = turns as MessagesRequest["messages"];
  const value: MessagesRequest =
    systemValue === undefined
      ? { model, max_tokens: budget, messages }
      : { model, max_tokens: budget, system: systemValue, messages };
  if (hasTools) value.tools = tools as MessagesRequest["tools"];
  if (choice !== undefined) value.tool_choice = choice as MessagesRequest["tool_choice"];
  if (sentTemperature !== undefined) value.temperature = sentTemperature;
  if (sentTopP !== undefined) value.top_p = sentTopP;
  if (sentTopK !== undefined) value.top_k = sentTopK;
  if (stopSequences !== undefined) value.stop_sequences = stopSequences;
  const stream = options.stream ?? false;
  value.stream = stream;
  return { value, losses: derived.length === 0 ? losses : derived.concat(losses), model, stream };
}
