/**
 * Common stream parts → chat chunks, as a pure reducer, in the grammar chat clients expect (research
 * X1): a role delta first; content/reasoning/refusal deltas; per tool call a first delta with
 * index/id/name and empty arguments, then argument pieces; one finish chunk; a usage chunk with
 * `choices: []` when usage is known; `[DONE]` from `end()`. A mid-stream error is the chat error
 * object and nothing follows it (X10).
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import type { Step, StreamReducer } from "../../stream/reducer";
import { chatErrorType, encodeChatError } from "./error";
import { type ChoiceRaw, callId, choiceRaw } from "./extra";
import { type ChatFinishReason, encodeChatFinishReason } from "./finish-reason";
import { type Chunk, type Delta, DONE, type StreamEvent } from "./schema";
import { encodeChatUsage } from "./usage";

export type ChatEncodeState = {
  readonly started: boolean;
  readonly id: string;
  readonly model: string;
  readonly created: number;
  /** chat's own chunk fields (`system_fingerprint` ...), repeated on every chunk as chat does. */
  readonly extra: Readonly<Record<string, unknown>> | undefined;
  /** Block index → tool-call ordinal (the chat `tool_calls[].index`). */
  readonly toolOrdinals: readonly (readonly [number, number])[];
  readonly finished: boolean;
  readonly usage: common.Usage | undefined;
  /** After an error or `end()`, nothing more is emitted. */
  readonly closed: boolean;
};

type Work = { -readonly [K in keyof ChatEncodeState]: ChatEncodeState[K] };

function envelope(work: Work): Pick<Chunk, "id" | "object" | "created" | "model"> {
  return {
    ...work.extra,
    id: work.id,
    object: "chat.completion.chunk",
    created: work.created,
    model: work.model,
  };
}

function deltaChunk(
  work: Work,
  delta: Delta,
  finishReason: ChatFinishReason | (string & {}) | null = null,
  kept: ChoiceRaw = { choice: {}, message: {} },
): Chunk {
  return {
    ...envelope(work),
    choices: [
      { ...kept.choice, index: 0, delta: { ...kept.message, ...delta }, finish_reason: finishReason },
    ],
  };
}

function start(
  work: Work,
  part: Extract<common.StreamPart, { type: "response-start" }> | undefined,
  options: ResolvedOptions,
  out: StreamEvent[],
): void {
  if (work.started) return;
  work.started = true;
  work.id = part?.id ?? syntheticId(options, "chatcmpl");
  work.model = part?.model ?? options.model ?? "";
  work.created = part?.created ?? options.created;
  if (part?.usage !== undefined) work.usage = part.usage;
  if (part?.extra?.origin === "chat") work.extra = part.extra.raw;
  out.push(deltaChunk(work, { role: "assistant", content: "" }));
}

/** The finish chunk; chat's own choice fields (`logprobs`, `refusal: null` ...) ride on it. */
function finish(
  work: Work,
  reason: ChatFinishReason | (string & {}),
  out: StreamEvent[],
  kept?: ChoiceRaw,
): void {
  if (work.finished) return;
  work.finished = true;
  out.push(deltaChunk(work, {}, reason, kept));
}

function step(
  options: ResolvedOptions,
  state: ChatEncodeState,
  part: common.StreamPart,
): Step<ChatEncodeState, StreamEvent> {
  if (state.closed) return { state, out: [] };
  const work: Work = { ...state };
  const out: StreamEvent[] = [];
  const losses: Loss[] = [];
  if (part.type === "response-start") {
    start(work, part, options, out);
    return { state: work, out };
  }
  start(work, undefined, options, out);
  switch (part.type) {
    case "text-delta":
      out.push(deltaChunk(work, { content: part.text }));
      break;
    case "reasoning-delta":
      out.push(deltaChunk(work, { reasoning_content: part.text }));
      break;
    case "refusal-delta":
      out.push(deltaChunk(work, { refusal: part.text }));
      break;
    case "text-end":
      if (part.citations?.origin === "chat") {
        out.push(deltaChunk(work, { annotations: part.citations.items as Delta["annotations"] }));
      } else if (part.citations !== undefined) {
        losses.push(
          loss(
            "",
            "dropped",
            `Citations from the ${part.citations.origin} protocol have no chat form and were dropped.`,
          ),
        );
      }
      break;
    case "tool-call-start": {
      const ordinal = work.toolOrdinals.length;
      work.toolOrdinals = [...work.toolOrdinals, [part.index, ordinal]];
      const own = callId(part);
      const id = own ?? syntheticId(options, work.id, ordinal);
      if (own === undefined)
        losses.push(loss("", "synthesized", "A tool call had no id; a deterministic one was made up."));
      if (part.signature !== undefined)
        losses.push(loss("", "dropped", "Chat cannot carry a thought signature; it was dropped."));
      out.push(
        deltaChunk(work, {
          tool_calls: [
            { index: ordinal, id, type: "function", function: { name: part.name, arguments: "" } },
          ],
        }),
      );
      break;
    }
    case "tool-call-delta": {
      const ordinal = work.toolOrdinals.find(([block]) => block === part.index)?.[1];
      if (ordinal === undefined)
        losses.push(loss("", "dropped", "Arguments for an unknown tool call were dropped."));
      else
        out.push(
          deltaChunk(work, { tool_calls: [{ index: ordinal, function: { arguments: part.argumentsText } }] }),
        );
      break;
    }
    case "reasoning-signature":
    case "block-signature":
      losses.push(loss("", "dropped", "Chat cannot carry a thinking signature; it was dropped."));
      break;
    case "reasoning-redacted":
      losses.push(loss("", "dropped", "Redacted thinking is opaque to chat and was dropped."));
      break;
    case "media":
      losses.push(loss("", "dropped", `Streamed ${part.part.kind} output has no chat form and was dropped.`));
      break;
    case "opaque":
      losses.push(loss("", "dropped", `The ${part.part.label} has no chat form and was dropped.`));
      break;
    case "usage":
      work.usage = part.usage;
      break;
    case "finish": {
      if (part.extra?.origin === "chat" && part.rawReason !== undefined) {
        // chat's own reason, restored as given (accumulate/replay).
        finish(work, part.rawReason, out, choiceRaw(part.extra));
        break;
      }
      const mapped = encodeChatFinishReason(part.reason, work.toolOrdinals.length > 0);
      if (mapped.approximate) {
        losses.push(
          loss(
            "",
            "approximated",
            `Finish reason "${part.rawReason ?? part.reason}" has no chat equivalent; "stop" was used.`,
          ),
        );
      }
      finish(work, mapped.reason, out, choiceRaw(part.extra));
      break;
    }
    case "prompt-blocked":
      out.push(deltaChunk(work, { refusal: `Prompt blocked: ${part.reason}` }));
      finish(work, "content_filter", out);
      break;
    case "error": {
      const body = encodeChatError(part.error).body;
      // Mid-stream, the source's own type names the failure best (envoyproxy/ai-gateway#2698, X10).
      out.push({ error: { ...body.error, type: part.error.code ?? chatErrorType(part.error.kind) } });
      work.closed = true;
      break;
    }
    default:
      // text-start, reasoning-start, reasoning-end, tool-call-end: chat has no event for them.
      break;
  }
  return { state: work, out, losses };
}

function end(options: ResolvedOptions, state: ChatEncodeState): Step<ChatEncodeState, StreamEvent> {
  if (state.closed) return { state, out: [] };
  const work: Work = { ...state, closed: true };
  const out: StreamEvent[] = [];
  const losses: Loss[] = [];
  start(work, undefined, options, out);
  if (!work.finished) {
    losses.push(loss("", "synthesized", 'The stream ended without a finish reason; "stop" was sent.'));
    finish(work, work.toolOrdinals.length > 0 ? "tool_calls" : "stop", out);
  }
  if (work.usage !== undefined)
    out.push({ ...envelope(work), choices: [], usage: encodeChatUsage(work.usage) });
  out.push(DONE);
  return { state: work, out, losses };
}

/** The chat stream encoder: common stream parts in, chat chunks (and `DONE`) out. */
export function chatStreamEncoder(
  options: ResolvedOptions,
): StreamReducer<ChatEncodeState, common.StreamPart, StreamEvent> {
  return {
    initial: {
      started: false,
      id: "",
      model: "",
      created: 0,
      extra: undefined,
      toolOrdinals: [],
      finished: false,
      usage: undefined,
      closed: false,
    },
    step: (state, part) => step(options, state, part),
    end: (state) => end(options, state),
  };
}
