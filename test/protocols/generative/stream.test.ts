import { describe, expect, test } from "vitest";
import type { Loss } from "../../../src/common/loss";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import type { StreamReducer } from "../../../src/common/reducer";
import * as generative from "../../../src/protocols/generative/schema";
import { generativeStreamDecoder } from "../../../src/protocols/generative/stream-decode";
import { generativeStreamEncoder } from "../../../src/protocols/generative/stream-encode";
import { generativeGrammar } from "../../../src/testing/grammar";
import { fixtures, streamEvents } from "../../helpers/fixtures";
import { endOnce, runAll } from "../../helpers/reducer";

const options = resolveOptions({ idPrefix: "gp" });

/** Runs a reducer over inputs: the output of each step, then of end(), and every loss. */
function run<State, In, Out>(reducer: StreamReducer<State, In, Out>, inputs: readonly In[]) {
  const ran = runAll(reducer, inputs, false);
  const end = endOnce(reducer, ran.state);
  const losses: Loss[] = [...ran.losses, ...end.losses];
  return { steps: ran.perStep, end: end.out, all: [...ran.out, ...end.out], losses };
}

const events = (name: string) =>
  streamEvents(
    fixtures("stream", "generative").find((entry) => entry.path.endsWith(name))!,
  ) as generative.StreamEvent[];
const chunk = (parts: generative.Part[], extra: Partial<generative.Candidate> = {}): generative.Response => ({
  responseId: "r",
  candidates: [{ index: 0, content: { role: "model", parts }, ...extra }],
});

describe("generativeStreamDecoder", () => {
  test("a recorded text stream: start with usage, one text block, cumulative usage, finish at the end", () => {
    const { all } = run(generativeStreamDecoder(options), events("gemini-text.sse"));
    expect(all.map((part) => part.type)).toEqual([
      "response-start",
      "text-start",
      "text-delta",
      "usage",
      "text-delta",
      "usage",
      "text-delta",
      "text-end",
      "finish",
    ]);
    expect(all[0]).toMatchObject({
      type: "response-start",
      id: "w1peaMz6INOvnvgPgYfPiQY",
      model: "gemini-2.0-flash-exp",
      usage: { inputTokens: 15 },
    });
    expect(all.filter((part) => part.type === "usage").at(-1)).toMatchObject({
      usage: { inputTokens: 13, outputTokens: 8, totalTokens: 21 },
    });
    expect(all.at(-1)).toMatchObject({ type: "finish", reason: "stop", rawReason: "STOP" });
  });

  test("a text delta comes out of the same step that received it", () => {
    const { steps } = run(generativeStreamDecoder(options), [
      chunk([{ text: "Hel" }]),
      chunk([{ text: "lo" }]),
    ]);
    expect(steps[0]).toContainEqual({ type: "text-delta", index: 0, text: "Hel" });
    expect(steps[1]).toEqual([{ type: "text-delta", index: 0, text: "lo" }]);
  });

  test("whole function calls in two chunks: ids from the response id, tool-calls finish (X9)", () => {
    const { all, losses } = run(generativeStreamDecoder(options), [
      chunk([{ functionCall: { name: "a", args: { q: 1 } } }]),
      chunk([{ functionCall: { name: "b", args: {} } }], { finishReason: "STOP" }),
    ]);
    const call = "/candidates/0/content/parts/0/functionCall";
    expect(all.slice(1)).toEqual([
      { type: "tool-call-start", index: 0, id: "gp_r_0", name: "a", source: call },
      { type: "tool-call-delta", index: 0, argumentsText: '{"q":1}' },
      { type: "tool-call-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "gp_r_1", name: "b", source: call },
      { type: "tool-call-delta", index: 1, argumentsText: "{}" },
      { type: "tool-call-end", index: 1 },
      expect.objectContaining({ type: "finish", reason: "tool-calls", rawReason: "STOP" }),
    ]);
    expect(losses.map((entry) => entry.kind)).toEqual(["synthesized"]);
  });

  test("thoughts, then text, then a signature on an empty text part attached to the text (X7)", () => {
    const { all } = run(generativeStreamDecoder(options), [
      chunk([{ text: "think…", thought: true }]),
      chunk([{ text: "Answer" }, { text: "", thoughtSignature: "U0lH" }], { finishReason: "STOP" }),
    ]);
    expect(all.slice(1, -1)).toEqual([
      { type: "reasoning-start", index: 0, origin: "generative" },
      { type: "reasoning-delta", index: 0, text: "think…" },
      { type: "reasoning-end", index: 0 },
      { type: "text-start", index: 1 },
      { type: "text-delta", index: 1, text: "Answer" },
      {
        type: "block-signature",
        index: 1,
        signature: { origin: "generative", value: "U0lH" },
        source: "/candidates/0/content/parts/1/thoughtSignature",
      },
      { type: "text-end", index: 1 },
    ]);
  });

  test("a finish reason repeated on every chunk is emitted once, at the end", () => {
    const { all } = run(generativeStreamDecoder(options), events("vertex-utf8-finish-every-chunk.sse"));
    expect(all.filter((part) => part.type === "finish")).toHaveLength(1);
    expect(all.at(-1)?.type).toBe("finish");
    expect(all.filter((part) => part.type === "text-start")).toHaveLength(1);
  });

  test("Vertex streamed arguments are assembled into one call", () => {
    const { all } = run(generativeStreamDecoder(options), events("vertex-streaming-function-call-args.sse"));
    const calls = all.filter((part) => part.type === "tool-call-start" || part.type === "tool-call-delta");
    expect(calls).toEqual([
      expect.objectContaining({
        type: "tool-call-start",
        index: 0,
        name: "getWeather",
        id: "gp_dqHOab6xGLzWodAPkPuViA4_0",
      }),
      { type: "tool-call-delta", index: 0, argumentsText: '{"location":"Boston"}' },
      expect.objectContaining({ type: "tool-call-start", index: 1, name: "getWeather" }),
      { type: "tool-call-delta", index: 1, argumentsText: '{"location":"San Francisco"}' },
    ]);
  });

  test("a blocked prompt gives prompt-blocked and no finish", () => {
    const { all } = run(generativeStreamDecoder(options), events("gemini-prompt-blocked-safety.sse"));
    expect(all.map((part) => part.type)).toEqual(["response-start", "prompt-blocked"]);
  });

  test("a mid-stream error is an error part and ends the stream (X10)", () => {
    const { all } = run(generativeStreamDecoder(options), [
      chunk([{ text: "Hal" }]),
      { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } },
      chunk([{ text: "ignored" }]),
    ]);
    expect(all.slice(-1)).toEqual([
      {
        type: "error",
        error: { status: 503, kind: "overloaded", message: "The model is overloaded.", code: "UNAVAILABLE" },
      },
    ]);
    expect(all.some((part) => part.type === "finish")).toBe(false);
  });

  test.each(fixtures("stream", "generative").map((entry) => [entry.path, entry] as const))(
    "%s decodes to well-nested blocks numbered in order",
    (_, entry) => {
      const { all } = run(generativeStreamDecoder(options), streamEvents(entry) as generative.StreamEvent[]);
      const open = new Set<number>();
      let next = 0;
      for (const part of all) {
        if (
          part.type === "text-start" ||
          part.type === "reasoning-start" ||
          part.type === "tool-call-start" ||
          part.type === "media" ||
          part.type === "opaque"
        ) {
          expect(part.index).toBe(next++);
          if (part.type !== "media" && part.type !== "opaque") open.add(part.index);
        }
        if (part.type === "text-end" || part.type === "reasoning-end" || part.type === "tool-call-end") {
          expect(open.delete(part.index)).toBe(true);
        }
      }
      expect([...open]).toEqual([]);
    },
  );
});

describe("generativeStreamEncoder", () => {
  const start: common.StreamPart = {
    type: "response-start",
    id: "msg_1",
    model: "m",
    usage: { inputTokens: 12, outputTokens: 0, source: "" },
  };

  test("emits each delta as its own chunk and ends with finishReason and usage on the last chunk (X8)", () => {
    const { steps, end, all, losses } = run(generativeStreamEncoder(options), [
      start,
      { type: "text-start", index: 0 },
      { type: "text-delta", index: 0, text: "Hel" },
      { type: "text-delta", index: 0, text: "lo" },
      { type: "text-end", index: 0 },
      { type: "finish", reason: "stop", rawReason: "end_turn" },
      { type: "usage", usage: { inputTokens: 12, outputTokens: 2, source: "" } },
    ]);
    expect(steps[2]).toEqual([
      {
        candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] } }],
        usageMetadata: {
          promptTokenCount: 12,
          candidatesTokenCount: 0,
          thoughtsTokenCount: 0,
          totalTokenCount: 12,
        },
        modelVersion: "m",
        responseId: "msg_1",
      },
    ]);
    expect(end).toEqual([
      {
        candidates: [{ finishReason: "STOP", index: 0 }],
        usageMetadata: {
          promptTokenCount: 12,
          candidatesTokenCount: 2,
          thoughtsTokenCount: 0,
          totalTokenCount: 14,
        },
        modelVersion: "m",
        responseId: "msg_1",
      },
    ]);
    expect(generativeGrammar(all)).toEqual([]);
    for (const event of all) expect(generative.streamEvent.safeParse(event).success).toBe(true);
    expect(losses).toEqual([]);
  });

  test("buffers a call's argument pieces and sends one functionCall when the block ends", () => {
    const { steps } = run(generativeStreamEncoder(options), [
      start,
      { type: "tool-call-start", index: 0, id: "toolu_1", name: "f" },
      { type: "tool-call-delta", index: 0, argumentsText: '{"a":' },
      { type: "tool-call-delta", index: 0, argumentsText: "1}" },
      { type: "tool-call-end", index: 0 },
    ]);
    expect(steps.slice(1, 4)).toEqual([[], [], []]);
    expect(steps[4]?.[0]).toMatchObject({
      candidates: [{ content: { parts: [{ functionCall: { id: "toolu_1", name: "f", args: { a: 1 } } }] } }],
    });
  });

  test("does not send back an id it would have synthesized itself", () => {
    const { all } = run(generativeStreamEncoder(options), [
      { type: "response-start", id: "r" },
      { type: "tool-call-start", index: 0, id: "gp_r_0", name: "f" },
      { type: "tool-call-end", index: 0 },
    ]);
    expect(all[0]).toMatchObject({
      candidates: [{ content: { parts: [{ functionCall: { name: "f", args: {} } }] } }],
    });
    expect(JSON.stringify(all[0])).not.toContain("gp_r_0");
  });

  test("a mid-stream error is the last event, with no finish after it (X10)", () => {
    const { all } = run(generativeStreamEncoder(options), [
      start,
      { type: "text-delta", index: 0, text: "Hal" },
      { type: "error", error: { status: 529, kind: "overloaded", message: "Overloaded" } },
      { type: "text-delta", index: 0, text: "ignored" },
    ]);
    expect(all.at(-1)).toEqual({ error: { code: 503, message: "Overloaded", status: "UNAVAILABLE" } });
    expect(all).toHaveLength(2);
    expect(generativeGrammar(all)).toEqual([]);
  });

  test("a stream cut off without a finish still ends with a finishing chunk, as a synthesized loss", () => {
    const { end, all, losses } = run(generativeStreamEncoder(options), [
      start,
      { type: "text-delta", index: 0, text: "partial" },
    ]);
    expect(end[0]).toMatchObject({ candidates: [{ finishReason: "STOP" }] });
    expect(losses.map(({ path, kind }) => ({ path, kind }))).toEqual([{ path: "", kind: "synthesized" }]);
    expect(generativeGrammar(all)).toEqual([]);
  });

  test("thoughts go out as thought parts; foreign thinking signatures are dropped", () => {
    const { all, losses } = run(generativeStreamEncoder(options), [
      start,
      { type: "reasoning-start", index: 0, origin: "messages" },
      { type: "reasoning-delta", index: 0, text: "hm" },
      { type: "reasoning-signature", index: 0, signature: "S" },
      { type: "reasoning-end", index: 0 },
      { type: "finish", reason: "stop" },
    ]);
    expect(all[0]).toMatchObject({ candidates: [{ content: { parts: [{ text: "hm", thought: true }] } }] });
    expect(all).toHaveLength(2);
    expect(losses.map((entry) => entry.kind)).toEqual(["dropped"]);
  });

  test("a blocked prompt is one promptFeedback chunk", () => {
    const { all } = run(generativeStreamEncoder(options), [
      { type: "response-start" },
      { type: "prompt-blocked", reason: "SAFETY" },
    ]);
    expect(all).toEqual([{ promptFeedback: { blockReason: "SAFETY" } }]);
    expect(generativeGrammar(all)).toEqual([]);
  });
});

describe("decoder then encoder", () => {
  test.each(fixtures("stream", "generative").map((entry) => [entry.path, entry] as const))(
    "%s re-encodes to events that parse and follow the generative grammar",
    (_, entry) => {
      const decoded = run(
        generativeStreamDecoder(options),
        streamEvents(entry) as generative.StreamEvent[],
      ).all;
      const { all } = run(generativeStreamEncoder(options), decoded);
      for (const event of all) expect(generative.streamEvent.safeParse(event).success).toBe(true);
      expect(generativeGrammar(all)).toEqual([]);
    },
  );
});
