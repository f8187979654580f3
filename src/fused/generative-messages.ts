/**
 * A fused generative → messages request path: straight from one wire to the other, without the common
 * model, for the shape most gateway traffic has — a `systemInstruction` of text parts, user and model
 * turns of text parts, and the sampling fields of `generationConfig`. The model id and stream flag come
 * from the options (generative carries them in the URL). The hub (decode to the common model, encode
 * from it) stays the specification: anything else — another field (unknown ones included, which the hub
 * reports), snake_case names, thoughts and signatures, media, function calls and responses, tools, blank
 * or empty text and empty turns (which the hub drops), a model turn first (the hub inserts a user turn),
 * trailing whitespace on a final model turn (the hub trims it), a `maxOutputTokens` that is not a whole
 * number of at least 1, a missing `options.model` (the hub's error) — returns `undefined`, and the
 * caller takes the hub. Consecutive turns of one role are merged, as the hub does. What it handles it
 * reports as the hub does, in the hub's order: the synthesized `max_tokens`, the dropped penalties,
 * seed and several candidates, a clamped `temperature` or `topP`, `topP` dropped beside `temperature`,
 * a rounded `topK`, whitespace-only stop sequences. Pointers are built only for those losses.
 * test/fused/generative-messages.test.ts checks it against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import { generativeFields } from "./generative-fields";
import type { Fused } from "./index";

type MessagesRequest = RequestOf<"messages">;
type TextBlock = { type: "text"; text: string };

/** A `{text}` part exactly whose text is not blank, its text; else `undefined`. */
function plainText(part: unknown): string | undefined {
  if (!isObject(part) || typeof part.text !== "string") return undefined;
  for (const key in part) if (key !== "text") return undefined;
  return part.text.trim() === "" ? undefined : part.text;
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
  const fields = generativeFields(body);
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

  // Turns of non-blank text parts, a user turn first; consecutive turns of one role merged (the hub's
  // rule). Generative parts never make a plain-string message content: every turn is text blocks.
  const turns: { role: "user" | "assistant"; content: TextBlock[] }[] = [];
  let previous: { role: "user" | "assistant"; content: TextBlock[] } | undefined;
  for (const content of contents) {
    if (!isObject(content)) return undefined;
    const role = content.role;
    const parts = content.parts;
    let count = 0;
    for (const _ in content) count++;
    if (count !== 2 || (role !== "user" && role !== "model") || !Array.isArray(parts) || parts.length === 0)
      return undefined;
    const wire = role === "model" ? "assistant" : "user";
    if (previous === undefined && wire !== "user") return undefined;
    let blocks: TextBlock[];
    if (previous !== undefined && previous.role === wire) blocks = previous.content;
    else {
      blocks = [];
      previous = { role: wire, content: blocks };
      turns.push(previous);
    }
    for (const part of parts) {
      const text = plainText(part);
      if (text === undefined) return undefined;
      blocks.push({ type: "text", text });
    }
  }
  if (previous === undefined) return undefined;
  if (previous.role === "assistant") {
    const last = previous.content[previous.content.length - 1] as TextBlock;
    if (last.text.trimEnd() !== last.text) return undefined;
  }

  // The losses in the hub's order: the made-up budget, the settings messages has no field for, then
  // the sampling fields (messages-encode).
  const losses: Loss[] = [];
  if (maxTokens === undefined && !options.maxTokensGiven)
    losses.push(
      loss(
        "/max_tokens",
        "synthesized",
        `The messages API requires \`max_tokens\`; ${options.maxTokens} was used.`,
      ),
    );
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
  const value: MessagesRequest =
    systemValue === undefined
      ? { model, max_tokens: budget, messages: turns }
      : { model, max_tokens: budget, system: systemValue, messages: turns };
  if (sentTemperature !== undefined) value.temperature = sentTemperature;
  if (sentTopP !== undefined) value.top_p = sentTopP;
  if (sentTopK !== undefined) value.top_k = sentTopK;
  if (stopSequences !== undefined) value.stop_sequences = stopSequences;
  const stream = options.stream ?? false;
  value.stream = stream;
  return { value, losses, model, stream };
}
