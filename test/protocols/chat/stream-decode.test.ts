import { describe, expect, test } from "vitest";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import * as chat from "../../../src/protocols/chat/schema";
import { chatStreamDecoder } from "../../../src/protocols/chat/stream-decode";
import { runAll, stepOnce } from "../../helpers/reducer";
import { chatFixtures, readSseEvents } from "./fixtures";

const decoder = chatStreamDecoder(resolveOptions({}));
const decode = (events: unknown[], end = true, positioned = false) =>
  runAll(
    decoder,
    events.map((event) => chat.streamEvent.parse(event)),
    end,
    positioned,
  );

/** The common stream grammar: start first; blocks start, get deltas of their kind, end once; one finish. */
function checkGrammar(parts: readonly common.StreamPart[]): void {
  expect(parts[0]?.type).toBe("response-start");
  const open = new Map<number, string>();
  const ended = new Set<number>();
  let finishes = 0;
  let next = 0;
  for (const part of parts.slice(1)) {
    expect(part.type).not.toBe("response-start");
    if (part.type === "text-start" || part.type === "reasoning-start" || part.type === "tool-call-start") {
      expect(part.index).toBe(next);
      next++;
      open.set(part.index, part.type.replace("-start", ""));
    } else if (
      part.type === "text-delta" ||
      part.type === "reasoning-delta" ||
      part.type === "tool-call-delta"
    ) {
      expect(open.get(part.index)).toBe(part.type.replace("-delta", ""));
    } else if (part.type === "refusal-delta") {
      expect(ended.has(part.index)).toBe(false);
      next = Math.max(next, part.index + 1);
    } else if (part.type === "text-end" || part.type === "reasoning-end" || part.type === "tool-call-end") {
      expect(open.get(part.index)).toBe(part.type.replace("-end", ""));
      open.delete(part.index);
      ended.add(part.index);
    } else if (part.type === "finish") {
      finishes++;
      expect(open.size).toBe(0);
    }
  }
  expect(open.size).toBe(0);
  expect(finishes).toBeLessThanOrEqual(1);
}

describe("chatStreamDecoder", () => {
  test.each(chatFixtures.filter((entry) => entry.kind === "stream").map((entry) => entry.path))(
    "decodes %s into a well-formed part sequence",
    (path) => {
      const { out } = decode(readSseEvents(path));
      checkGrammar(out);
    },
  );

  test("decodes text, tool-call pieces, finish and a trailing usage chunk in order", () => {
    const { out, losses } = decode([
      {
        id: "c",
        object: "chat.completion.chunk",
        created: 1,
        model: "m",
        choices: [{ index: 0, delta: { role: "assistant", content: "Run" } }],
      },
      {
        id: "c",
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 0, id: "a", type: "function", function: { name: "f", arguments: '{"x"' } },
              ],
            },
          },
        ],
      },
      {
        id: "c",
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ":1}" } }] } }],
      },
      { id: "c", choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
      { id: "c", choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
      "[DONE]",
    ]);
    expect(out).toEqual([
      {
        type: "response-start",
        id: "c",
        model: "m",
        created: 1,
        createdSource: "/created",
        extra: { origin: "chat", raw: {} },
      },
      { type: "text-start", index: 0 },
      { type: "text-delta", index: 0, text: "Run" },
      { type: "text-end", index: 0 },
      // Sources point into the input event: an encoder that drops the call or the reason reports it there.
      { type: "tool-call-start", index: 1, id: "a", name: "f", source: "/choices/0/delta/tool_calls/0" },
      { type: "tool-call-delta", index: 1, argumentsText: '{"x"' },
      { type: "tool-call-delta", index: 1, argumentsText: ":1}" },
      { type: "tool-call-end", index: 1 },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_calls",
        extra: { origin: "chat", raw: { choice: {}, message: {} } },
        source: "/choices/0/finish_reason",
      },
      { type: "usage", usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7, source: "/usage" } },
    ]);
    expect(losses).toEqual([]);
  });

  test("a new id at an index already used starts a new call (X3)", () => {
    const { out } = decode([
      {
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: "" } }] },
          },
        ],
      },
      {
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, id: "b", function: { name: "g", arguments: "{}" } }] },
          },
        ],
      },
    ]);
    expect(out.filter((part) => part.type === "tool-call-start")).toEqual([
      { type: "tool-call-start", index: 0, id: "a", name: "f", source: "/choices/0/delta/tool_calls/0" },
      { type: "tool-call-start", index: 1, id: "b", name: "g", source: "/choices/0/delta/tool_calls/0" },
    ]);
  });

  test("continuation deltas that repeat an empty id stay with their call (Alibaba)", () => {
    const { out } = decode(readSseEvents("chat/stream/alibaba-tool-call.sse"));
    expect(out.filter((part) => part.type === "tool-call-start")).toHaveLength(1);
    expect(
      out
        .filter((part) => part.type === "tool-call-delta")
        .map((part) => (part.type === "tool-call-delta" ? part.argumentsText : ""))
        .join(""),
    ).toBe('{"location": "San Francisco"}');
  });

  test("a mid-stream error becomes an error part and nothing follows it", () => {
    const { out } = decode(readSseEvents("chat/stream/openrouter-midstream-error.sse"));
    const error = out.at(-1);
    expect(error).toEqual({
      type: "error",
      error: { status: 400, kind: "invalid_request", message: "Token limit reached", code: "400" },
    });
  });

  test("an error object without choices is decoded as an error", () => {
    const { out } = decode([
      { choices: [{ index: 0, delta: { content: "Hal" } }] },
      { error: { message: "Overloaded", type: "overloaded_error" } },
    ]);
    expect(out.slice(-2)).toEqual([
      { type: "text-end", index: 0 },
      {
        type: "error",
        error: {
          // Mid-stream there is no HTTP status: the kind's own (as translateError would give).
          status: 503,
          kind: "overloaded",
          message: "Overloaded",
          code: "overloaded_error",
          codeSource: "/error/type",
        },
      },
    ]);
  });

  test("a stream cut off without a finish ends with an error part and a loss; its open block is not closed", () => {
    const { out, losses } = decode([{ choices: [{ index: 0, delta: { content: "partial" } }] }], true, true);
    expect(out).toEqual([
      // No id in the chunk: a seed derived from it, for the ids a target needs.
      {
        type: "response-start",
        seed: expect.stringMatching(/^[0-9a-z]{11}$/),
        extra: { origin: "chat", raw: {} },
      },
      { type: "text-start", index: 0 },
      { type: "text-delta", index: 0, text: "partial" },
      // The input never ended the block: closing it would let a target make a whole block (a call) of it.
      {
        type: "error",
        error: {
          status: 502,
          kind: "server",
          message: "The upstream chat stream ended before its finish: the answer is incomplete.",
        },
      },
    ]);
    // The loss points at the event that never came: one past the last.
    expect(losses.map(({ kind, path }) => `${kind} ${path}`)).toEqual(["synthesized /1"]);
  });

  test("a finish chunk without [DONE] is a complete stream; [DONE] without a finish is not", () => {
    const text = { choices: [{ index: 0, delta: { content: "x" } }] };
    const finished = decode([text, { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }]);
    expect(finished.out.map(({ type }) => type)).not.toContain("error");
    expect(finished.losses).toEqual([]);
    const done = decode([text, "[DONE]"]);
    expect(done.out.at(-1)?.type).toBe("error");
  });

  test("a text delta comes out of the same step that received it", () => {
    const { perStep } = decode(
      [
        { choices: [{ index: 0, delta: { role: "assistant", content: "" } }] },
        { choices: [{ index: 0, delta: { content: "a" } }] },
        { choices: [{ index: 0, delta: { content: "b" } }] },
      ],
      false,
    );
    expect(perStep[1]).toContainEqual({ type: "text-delta", index: 0, text: "a" });
    expect(perStep[2]).toEqual([{ type: "text-delta", index: 0, text: "b" }]);
  });

  test("reasoning deltas (reasoning_content or reasoning) form a reasoning block before the text", () => {
    const { out } = decode([
      { choices: [{ index: 0, delta: { reasoning_content: "hm", content: null } }] },
      { choices: [{ index: 0, delta: { reasoning: "m" } }] },
      { choices: [{ index: 0, delta: { content: "ok" } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
    ]);
    expect(out.slice(1, -1)).toEqual([
      { type: "reasoning-start", index: 0, origin: "chat" },
      { type: "reasoning-delta", index: 0, text: "hm" },
      { type: "reasoning-delta", index: 0, text: "m" },
      { type: "reasoning-end", index: 0 },
      { type: "text-start", index: 1 },
      { type: "text-delta", index: 1, text: "ok" },
      { type: "text-end", index: 1 },
    ]);
  });

  test("choices other than 0 are dropped with one loss each, at the first event that carries each", () => {
    // OpenAI sends one choice per chunk: choice 1 first at event 2, choice 2 at event 4.
    const { losses } = decode(readSseEvents("chat/stream/openai-n3-multiple-choices.sse"), true, true);
    expect(losses.map(({ path, kind }) => `${kind} ${path}`).sort()).toEqual([
      "dropped /2/choices/0",
      "dropped /4/choices/0",
    ]);
  });

  test("state stays small: it never holds the text seen so far", () => {
    let state = decoder.initial;
    for (let i = 0; i < 2000; i++)
      state = stepOnce(decoder, state, { choices: [{ index: 0, delta: { content: "word " } }] }).state;
    expect(JSON.stringify(state).length).toBeLessThan(300);
  });
});
