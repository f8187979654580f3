/**
 * Common stream parts → generative stream chunks (research X8–X10): every chunk a whole response
 * object; text and thoughts go out as they arrive; a function call goes out whole when its block ends
 * (generative has no argument deltas); the finish reason and final usage ride on the last chunk; a
 * mid-stream error is a final `{error}` event, never a normal finish.
 */
import { isObject, type JsonObject, parseJsonObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import type { Step, StreamReducer } from "../../stream/reducer";
import { encodeGenerativeError } from "./error";
import { encodeGenerativeFinishReason } from "./finish-reason";
import { callSeed, encodeResponsePart, extraFields } from "./response";
import type * as generative from "./schema";
import { encodeGenerativeUsage } from "./usage";

type Block =
  | { readonly kind: "text"; readonly emitted: boolean; readonly signature: string | undefined }
  | { readonly kind: "reasoning"; readonly origin: common.ReasoningOrigin }
  | {
      readonly kind: "tool-call";
      readonly id: string | undefined;
      readonly name: string;
      readonly signature: common.ToolCallPart["signature"];
      readonly extra: common.Extra | undefined;
      readonly args: string;
    }
  | { readonly kind: "refusal" };

export type GenerativeEncodeState = {
  readonly id: string | undefined;
  readonly model: string | undefined;
  readonly extra: JsonObject;
  readonly usage: generative.UsageMetadata | undefined;
  readonly ordinal: number;
  /** Open blocks only. */
  readonly blocks: Readonly<Record<number, Block>>;
  readonly wroteContent: boolean;
  readonly finish: Extract<common.StreamPart, { type: "finish" }> | undefined;
  readonly blocked: boolean;
  /** The response this stream replays had `candidates: []` (kept on a prompt-blocked chunk). */
  readonly emptyCandidates: boolean;
  /** The candidate content's fields besides `parts` (`role: "model"` unless a replayed response says). */
  readonly shape: JsonObject;
  readonly done: boolean;
};

const initial: GenerativeEncodeState = {
  id: undefined,
  model: undefined,
  extra: {},
  usage: undefined,
  ordinal: 0,
  blocks: {},
  wroteContent: false,
  finish: undefined,
  blocked: false,
  emptyCandidates: false,
  shape: { role: "model" },
  done: false,
};

function chunk(state: GenerativeEncodeState, fields: Partial<generative.Response>): generative.Response {
  return {
    ...fields,
    ...(state.usage === undefined ? {} : { usageMetadata: state.usage }),
    ...(state.model === undefined ? {} : { modelVersion: state.model }),
    ...(state.id === undefined ? {} : { responseId: state.id }),
    ...state.extra,
  };
}

function content(state: GenerativeEncodeState, parts: generative.Part[]): generative.Response {
  return chunk(state, { candidates: [{ content: { ...state.shape, parts } }] });
}

function withBlock(
  state: GenerativeEncodeState,
  index: number,
  block: Block | undefined,
): GenerativeEncodeState {
  const blocks = Object.fromEntries(Object.entries(state.blocks).filter(([key]) => Number(key) !== index));
  return { ...state, blocks: block === undefined ? blocks : { ...blocks, [index]: block } };
}

export function generativeStreamEncoder(
  options: ResolvedOptions,
): StreamReducer<GenerativeEncodeState, common.StreamPart, generative.StreamEvent> {
  return {
    initial,
    step(state, part) {
      if (state.done) return { state, out: [] };
      return encodeStep(state, part, options);
    },
    end(state) {
      if (state.done) return { state, out: [] };
      const out: generative.StreamEvent[] = [];
      const losses: Loss[] = [];
      let next = state;
      for (const key of Object.keys(state.blocks)) {
        const index = Number(key);
        const block = state.blocks[index];
        if (block?.kind === "tool-call") {
          const flushed = flushCall(next, block, options, losses);
          out.push(flushed.event);
          next = flushed.state;
        } else if (block?.kind === "text" && block.signature !== undefined) {
          out.push(content(next, [{ text: "", thoughtSignature: block.signature }]));
        }
      }
      if (!next.blocked || next.finish !== undefined) out.push(finalChunk(next, losses));
      return { state: { ...next, blocks: {}, done: true }, out, ...(losses.length === 0 ? {} : { losses }) };
    },
  };
}

function finalChunk(state: GenerativeEncodeState, losses: Loss[]): generative.Response {
  const finish = state.finish;
  let reason = "STOP";
  if (finish === undefined) {
    losses.push(loss("", "synthesized", "The stream ended without a finish reason; STOP was sent."));
  } else {
    const mapped = encodeGenerativeFinishReason(finish.reason, finish.rawReason);
    reason = mapped.value;
    if (mapped.loss !== undefined) {
      losses.push(
        loss(
          "",
          mapped.loss,
          `The finish reason "${finish.rawReason ?? finish.reason}" was sent as ${mapped.value}.`,
        ),
      );
    }
  }
  const extra = finish?.extra?.origin === "generative" ? finish.extra.raw : undefined;
  const shape = extra !== undefined && isObject(extra.content) ? extra.content : undefined;
  const candidate: generative.Candidate = {
    ...(state.wroteContent || shape === undefined
      ? {}
      : { content: { ...shape, ...(extra?.hasParts === true ? { parts: [] } : {}) } }),
    finishReason: reason,
    ...(extra?.hasIndex === false ? {} : { index: 0 }),
    ...(extra !== undefined && isObject(extra.candidate) ? extra.candidate : {}),
  };
  return chunk(state, { candidates: [candidate] });
}

function flushCall(
  state: GenerativeEncodeState,
  block: Extract<Block, { kind: "tool-call" }>,
  options: ResolvedOptions,
  losses: Loss[],
): { state: GenerativeEncodeState; event: generative.Response } {
  const text = block.args.trim();
  const parsed = text === "" ? {} : parseJsonObject(text);
  if (parsed === undefined)
    losses.push(
      loss("", "dropped", `The arguments of call ${block.name} are not a JSON object; {} was sent.`),
    );
  const naming = { seed: callSeed(state.id), ordinal: state.ordinal };
  const call: common.ToolCallPart = {
    type: "tool-call",
    id: block.id,
    name: block.name,
    arguments: parsed ?? {},
    signature: block.signature,
    extra: block.extra,
    source: "",
  };
  const parts = encodeResponsePart(call, naming, options, losses);
  return {
    state: { ...state, ordinal: state.ordinal + 1, wroteContent: true },
    event: content(state, parts),
  };
}

function encodeStep(
  state: GenerativeEncodeState,
  part: common.StreamPart,
  options: ResolvedOptions,
): Step<GenerativeEncodeState, generative.StreamEvent> {
  const losses: Loss[] = [];
  const emit = (next: GenerativeEncodeState, out: generative.StreamEvent[]) => ({
    state: next,
    out,
    ...(losses.length === 0 ? {} : { losses }),
  });
  switch (part.type) {
    case "response-start": {
      const extra = extraFields(part.extra);
      return emit(
        {
          ...state,
          id: part.id ?? state.id,
          model: part.model ?? state.model,
          extra: { ...extra },
          emptyCandidates: part.extra?.origin === "generative" && part.extra.raw.hasCandidates === true,
          shape:
            part.choiceExtra?.origin === "generative" && isObject(part.choiceExtra.raw.content)
              ? part.choiceExtra.raw.content
              : state.shape,
          usage: part.usage === undefined ? state.usage : encodeGenerativeUsage(part.usage),
        },
        [],
      );
    }
    case "text-start":
      return emit(withBlock(state, part.index, { kind: "text", emitted: false, signature: undefined }), []);
    case "text-delta": {
      const block = state.blocks[part.index];
      const signature = block?.kind === "text" ? block.signature : undefined;
      if (part.text === "") return emit(state, []);
      const next = withBlock({ ...state, wroteContent: true }, part.index, {
        kind: "text",
        emitted: true,
        signature: undefined,
      });
      return emit(next, [
        content(state, [
          { text: part.text, ...(signature === undefined ? {} : { thoughtSignature: signature }) },
        ]),
      ]);
    }
    case "block-signature": {
      const block = state.blocks[part.index];
      if (part.signature.origin !== "generative") {
        losses.push(
          loss(
            "",
            "dropped",
            `A ${part.signature.origin} signature has no meaning at generative and was dropped.`,
          ),
        );
        return emit(state, []);
      }
      if (block?.kind === "tool-call")
        return emit(withBlock(state, part.index, { ...block, signature: part.signature }), []);
      if (block?.kind === "text" && !block.emitted)
        return emit(withBlock(state, part.index, { ...block, signature: part.signature.value }), []);
      return emit({ ...state, wroteContent: true }, [
        content(state, [{ text: "", thoughtSignature: part.signature.value }]),
      ]);
    }
    case "text-end": {
      const block = state.blocks[part.index];
      const out =
        block?.kind === "text" && block.signature !== undefined
          ? [content(state, [{ text: "", thoughtSignature: block.signature }])]
          : [];
      if (part.citations !== undefined && part.citations.origin !== "generative") {
        losses.push(
          loss("", "dropped", "Citations of another protocol have no generative form and were dropped."),
        );
      }
      return emit(
        withBlock({ ...state, wroteContent: state.wroteContent || out.length > 0 }, part.index, undefined),
        out,
      );
    }
    case "reasoning-start":
      return emit(withBlock(state, part.index, { kind: "reasoning", origin: part.origin }), []);
    case "reasoning-delta":
      if (part.text === "") return emit(state, []);
      return emit({ ...state, wroteContent: true }, [content(state, [{ text: part.text, thought: true }])]);
    case "reasoning-signature": {
      const block = state.blocks[part.index];
      if (block?.kind !== "reasoning" || block.origin !== "generative") {
        losses.push(
          loss(
            "",
            "dropped",
            "A thinking signature of another protocol has no meaning at generative and was dropped.",
          ),
        );
        return emit(state, []);
      }
      return emit({ ...state, wroteContent: true }, [
        content(state, [{ text: "", thought: true, thoughtSignature: part.signature }]),
      ]);
    }
    case "reasoning-redacted":
      losses.push(loss("", "dropped", "Redacted thinking has no generative equivalent and was dropped."));
      return emit(state, []);
    case "reasoning-end":
      return emit(withBlock(state, part.index, undefined), []);
    case "tool-call-start":
      return emit(
        withBlock(state, part.index, {
          kind: "tool-call",
          id: part.id,
          name: part.name,
          signature: part.signature,
          extra: part.extra,
          args: "",
        }),
        [],
      );
    case "tool-call-delta": {
      const block = state.blocks[part.index];
      if (block?.kind !== "tool-call") return emit(state, []);
      return emit(withBlock(state, part.index, { ...block, args: block.args + part.argumentsText }), []);
    }
    case "tool-call-end": {
      const block = state.blocks[part.index];
      if (block?.kind !== "tool-call") return emit(state, []);
      const flushed = flushCall(state, block, options, losses);
      return emit(withBlock(flushed.state, part.index, undefined), [flushed.event]);
    }
    case "refusal-delta": {
      const first = state.blocks[part.index] === undefined;
      if (first)
        losses.push(loss("", "approximated", "A refusal was sent as text with finishReason SAFETY."));
      return emit(withBlock({ ...state, wroteContent: true }, part.index, { kind: "refusal" }), [
        content(state, [{ text: part.text }]),
      ]);
    }
    case "media":
    case "opaque": {
      const parts = encodeResponsePart(part.part, { seed: callSeed(state.id), ordinal: 0 }, options, losses);
      return emit(
        parts.length === 0 ? state : { ...state, wroteContent: true },
        parts.length === 0 ? [] : [content(state, parts)],
      );
    }
    case "usage":
      return emit({ ...state, usage: encodeGenerativeUsage(part.usage) }, []);
    case "finish":
      return emit({ ...state, finish: part }, []);
    case "prompt-blocked":
      return emit({ ...state, blocked: true }, [
        chunk(state, {
          ...(state.emptyCandidates ? { candidates: [] } : {}),
          promptFeedback: { blockReason: part.reason },
        }),
      ]);
    case "error":
      return emit({ ...state, done: true, blocks: {} }, [encodeGenerativeError(part.error).body]);
  }
}

/** The id a call would get if this library synthesized it; exported for tests. */
export function synthesizedCallId(
  options: ResolvedOptions,
  responseId: string | undefined,
  ordinal: number,
): string {
  return syntheticId(options, callSeed(responseId), ordinal);
}
