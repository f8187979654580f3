/**
 * A fused generative → chat request path: straight from one wire to the other, without the common
 * model, for the shape most gateway traffic has — a `systemInstruction` of text parts, user and
 * model turns of text parts, and the sampling fields of `generationConfig` — toward the `openai` and
 * `compatible` chat dialects. The model id and stream flag come from the options (generative carries
 * them in the URL). The hub (decode to the common model, encode from it) stays the specification:
 * anything else — another field (unknown ones included, which the hub reports), snake_case names,
 * thoughts and signatures, media, function calls and responses, tools, another dialect, a missing
 * `options.model` (the hub's error) — returns `undefined`, and the caller takes the hub. What it
 * handles it reports as the hub does, in the hub's order: stop sequences past chat's four, `topK`,
 * a clamped `temperature`, `topP` or penalty. Pointers are built only for those losses.
 * test/fused/generative-chat.test.ts checks it against the hub, value and losses.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import { clampChat } from "./chat-target";
import { generativeFields, plainText } from "./generative-fields";
import type { Fused } from "./index";

type ChatRequest = RequestOf<"chat">;
type ChatMessage = ChatRequest["messages"][number];
type TextPart = { type: "text"; text: string };

/** generative → chat for the plain shape, or `undefined` for the hub. Never throws. */
export function generativeToChatRequest(
  body: unknown,
  options: ResolvedOptions,
): Fused<ChatRequest> | undefined {
  const dialect = options.chatDialect;
  const model = options.model;
  if (model === undefined || (dialect !== "openai" && dialect !== "compatible")) return undefined;
  const fields = generativeFields(body);
  if (fields === undefined) return undefined;
  const { contents, system } = fields;
  const { temperature, topP, topK, maxTokens, stop, candidates, presence, frequency, seed } = fields.sampling;

  const out: ChatMessage[] = [];
  if (system !== undefined) {
    if (!isObject(system) || !Array.isArray(system.parts)) return undefined;
    for (const key in system) if (key !== "parts") return undefined;
    const parts = system.parts;
    if (parts.length === 1) {
      const text = plainText(parts[0]);
      if (text === undefined) return undefined;
      out.push({ role: "system", content: text });
    } else if (parts.length > 1) {
      const blocks: TextPart[] = [];
      for (const part of parts) {
        const text = plainText(part);
        if (text === undefined) return undefined;
        blocks.push({ type: "text", text });
      }
      out.push({ role: "system", content: blocks });
    }
  }
  for (const content of contents) {
    if (!isObject(content)) return undefined;
    const role = content.role;
    const parts = content.parts;
    let count = 0;
    for (const _ in content) count++;
    if (count !== 2 || (role !== "user" && role !== "model") || !Array.isArray(parts)) return undefined;
    if (role === "model") {
      let text: string | undefined;
      for (const part of parts) {
        const piece = plainText(part);
        if (piece === undefined) return undefined;
        text = text === undefined ? piece : text + piece;
      }
      out.push({ role: "assistant", content: text ?? "" });
    } else if (parts.length === 1) {
      const text = plainText(parts[0]);
      if (text === undefined) return undefined;
      out.push({ role: "user", content: text });
    } else {
      const blocks: TextPart[] = [];
      for (const part of parts) {
        const text = plainText(part);
        if (text === undefined) return undefined;
        blocks.push({ type: "text", text });
      }
      out.push({ role: "user", content: blocks.length === 0 ? "" : blocks });
    }
  }
  if (out.length === 0) return undefined;

  // The losses in the hub's order: stop sequences, topK, then the clamps.
  const losses: Loss[] = [];
  let stopSequences: string[] | undefined;
  if (stop !== undefined) {
    stopSequences = stop.slice(0, 4);
    for (let index = 4; index < stop.length; index++)
      losses.push(
        loss(
          `/generationConfig/stopSequences/${index}`,
          "dropped",
          `Chat accepts at most 4 stop sequences; ${JSON.stringify(stop[index])} was dropped.`,
        ),
      );
  }
  if (topK !== undefined)
    losses.push(loss("/generationConfig/topK", "dropped", "Chat has no standard `top_k`; it was dropped."));
  const sentTemperature =
    temperature === undefined
      ? undefined
      : clampChat(temperature, 0, 2, "/generationConfig/temperature", "temperature", losses);
  const sentTopP =
    topP === undefined ? undefined : clampChat(topP, 0, 1, "/generationConfig/topP", "top_p", losses);
  const sentPresence =
    presence === undefined
      ? undefined
      : clampChat(presence, -2, 2, "/generationConfig/presencePenalty", "presence_penalty", losses);
  const sentFrequency =
    frequency === undefined
      ? undefined
      : clampChat(frequency, -2, 2, "/generationConfig/frequencyPenalty", "frequency_penalty", losses);

  const stream = options.stream;
  const value: ChatRequest = { model, messages: out };
  if (stream !== undefined) value.stream = stream;
  if (stream === true) value.stream_options = { include_usage: true };
  if (sentTemperature !== undefined) value.temperature = sentTemperature;
  if (sentTopP !== undefined) value.top_p = sentTopP;
  if (maxTokens !== undefined) {
    if (dialect === "openai") value.max_completion_tokens = maxTokens;
    else value.max_tokens = maxTokens;
  }
  if (stopSequences !== undefined) value.stop = stopSequences;
  if (sentPresence !== undefined) value.presence_penalty = sentPresence;
  if (sentFrequency !== undefined) value.frequency_penalty = sentFrequency;
  if (seed !== undefined) value.seed = seed;
  if (candidates !== undefined) value.n = candidates;
  return { value, losses, model, stream: stream ?? false };
}
