import { describe, expect, test } from "vitest";
import { wrapCarried } from "../../../src/common/carrier";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import * as messages from "../../../src/protocols/messages/schema";
import { messagesStreamEncoder } from "../../../src/protocols/messages/stream-encode";
import { messagesGrammar } from "../../../src/testing/grammar";
import { endOnce, stepOnce } from "../../helpers/reducer";

const options = resolveOptions({ idPrefix: "gp" });

function encodeAll(parts: readonly common.StreamPart[], end = true) {
  const encoder = messagesStreamEncoder(options);
  let state = encoder.initial;
  const out: messages.StreamEvent[] = [];
  const losses: [string, string][] = [];
  for (const part of parts) {
    const step = stepOnce(encoder, state, part);
    state = step.state;
    out.push(...step.out);
    for (const entry of step.losses ?? []) losses.push([entry.path, entry.kind]);
  }
  if (end) {
    const step = endOnce(encoder, state);
    out.push(...step.out);
    for (const entry of step.losses ?? []) losses.push([entry.path, entry.kind]);
  }
  for (const event of out) expect(messages.streamEvent.safeParse(event).success).toBe(true);
  return { out, losses };
}

const usage = (input: number, output: number): common.Usage => ({
  inputTokens: input,
  outputTokens: output,
  source: "/usage",
});

describe("messagesStreamEncoder", () => {
  test("emits the exact grammar: message_start, blocks one at a time, message_delta, message_stop", () => {
    const { out, losses } = encodeAll([
      { type: "response-start", id: "r", model: "g", usage: usage(12, 0) },
      { type: "reasoning-start", index: 0, origin: "generative" },
      { type: "reasoning-delta", index: 0, text: "hm" },
      { type: "reasoning-end", index: 0 },
      { type: "text-start", index: 1 },
      { type: "text-delta", index: 1, text: "Hi" },
      { type: "text-end", index: 1 },
      { type: "tool-call-start", index: 2, name: "f" },
      { type: "tool-call-delta", index: 2, argumentsText: '{"a":1}' },
      { type: "tool-call-end", index: 2 },
      { type: "usage", usage: usage(12, 7) },
      { type: "finish", reason: "stop" },
    ]);
    expect(out).toEqual([
      {
        type: "message_start",
        message: {
          id: "r",
          type: "message",
          role: "assistant",
          model: "g",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: 12,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            output_tokens: 0,
          },
        },
      },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hm" } },
      // Generative's thought goes home to generative: its origin rides in the signature (issue 29).
      {
        type: "content_block_delta",
        index: 0,
        delta: {
          type: "signature_delta",
          signature: wrapCarried({ origin: "generative", entries: [{ reasoning: {} }] }),
        },
      },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hi" } },
      { type: "content_block_stop", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "tool_use", id: "gp_r_0", name: "f", input: {} },
      },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"a":1}' } },
      { type: "content_block_stop", index: 2 },
      {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: {
          input_tokens: 12,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 7,
        },
      },
      { type: "message_stop" },
    ]);
    expect(messagesGrammar(out)).toEqual([]);
    expect(losses).toEqual([]);
  });

  test("a text delta comes out of the same step that received it", () => {
    const encoder = messagesStreamEncoder(options);
    const started = stepOnce(encoder, encoder.initial, { type: "response-start", id: "r" });
    const opened = stepOnce(encoder, started.state, { type: "text-start", index: 0 });
    const delta = stepOnce(encoder, opened.state, { type: "text-delta", index: 0, text: "x" });
    expect(delta.out.at(-1)).toEqual({
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: "x" },
    });
    const next = stepOnce(encoder, delta.state, { type: "text-delta", index: 0, text: "y" });
    expect(next.out).toEqual([
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "y" } },
    ]);
  });

  test("the encoder does not mutate its state", () => {
    const encoder = messagesStreamEncoder(options);
    const state = stepOnce(encoder, encoder.initial, { type: "text-delta", index: 0, text: "x" }).state;
    const copy = structuredClone(state);
    stepOnce(encoder, state, { type: "finish", reason: "stop" });
    endOnce(encoder, state);
    expect(state).toEqual(copy);
  });

  test("message_delta waits for the usage that follows the finish, then ends at once", () => {
    const encoder = messagesStreamEncoder(options);
    const text = stepOnce(encoder, encoder.initial, { type: "text-delta", index: 0, text: "hi" });
    const finish = stepOnce(encoder, text.state, { type: "finish", reason: "length" });
    expect(finish.out).toEqual([{ type: "content_block_stop", index: 0 }]);
    const final = stepOnce(encoder, finish.state, { type: "usage", usage: usage(5, 9) });
    expect(final.out).toMatchObject([
      {
        type: "message_delta",
        delta: { stop_reason: "max_tokens" },
        usage: { input_tokens: 5, output_tokens: 9 },
      },
      { type: "message_stop" },
    ]);
    expect(endOnce(encoder, final.state).out).toEqual([]);
  });

  test("a mid-stream error becomes an error event and nothing follows it", () => {
    const { out } = encodeAll([
      { type: "text-delta", index: 0, text: "Hal" },
      { type: "error", error: { status: 529, kind: "overloaded", message: "Overloaded" } },
      { type: "text-delta", index: 0, text: "ignored" },
    ]);
    expect(out.map((event) => event.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "error",
    ]);
    expect(out.at(-1)).toEqual({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    expect(messagesGrammar(out)).toEqual([]);
  });

  test("an error before anything else is the only event", () => {
    const { out } = encodeAll([
      { type: "error", error: { status: 429, kind: "rate_limit", message: "slow down" } },
    ]);
    expect(out).toEqual([{ type: "error", error: { type: "rate_limit_error", message: "slow down" } }]);
  });

  test("a stream cut off without finish is closed well-formed with a synthesized stop", () => {
    const { out, losses } = encodeAll([{ type: "tool-call-start", index: 0, id: "t", name: "f" }]);
    expect(out.map((event) => event.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(out[3]).toMatchObject({ delta: { stop_reason: "tool_use" }, usage: { output_tokens: 0 } });
    expect(losses).toEqual([["", "synthesized"]]);
    expect(messagesGrammar(out)).toEqual([]);
  });

  test("an empty stream still gives message_start … message_stop", () => {
    const { out } = encodeAll([]);
    expect(out.map((event) => event.type)).toEqual(["message_start", "message_delta", "message_stop"]);
  });

  test("interleaved text opens a new block rather than two at once; late tool arguments are reported", () => {
    const { out, losses } = encodeAll([
      { type: "text-delta", index: 0, text: "a" },
      { type: "tool-call-start", index: 1, id: "t", name: "f" },
      { type: "text-delta", index: 0, text: "b" },
      { type: "tool-call-delta", index: 1, argumentsText: "{}" },
      { type: "finish", reason: "tool-calls" },
    ]);
    expect(messagesGrammar(out)).toEqual([]);
    expect(out.filter((event) => event.type === "content_block_start")).toHaveLength(3);
    expect(losses).toEqual([["", "dropped"]]);
  });

  test("foreign signatures ride in the signature, wrapped (issue 29); messages signatures and redacted thinking are kept", () => {
    const { out, losses } = encodeAll([
      { type: "reasoning-start", index: 0, origin: "messages" },
      { type: "reasoning-delta", index: 0, text: "t" },
      { type: "reasoning-signature", index: 0, signature: "S" },
      { type: "reasoning-end", index: 0 },
      { type: "reasoning-start", index: 1, origin: "messages" },
      { type: "reasoning-redacted", index: 1, data: "R" },
      { type: "reasoning-end", index: 1 },
      { type: "reasoning-start", index: 2, origin: "generative" },
      { type: "reasoning-signature", index: 2, signature: "G" },
      { type: "reasoning-end", index: 2 },
      { type: "finish", reason: "stop" },
    ]);
    expect(out.slice(1, 10)).toEqual([
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "t" } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "S" } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "redacted_thinking", data: "R" } },
      { type: "content_block_stop", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      {
        type: "content_block_delta",
        index: 2,
        delta: {
          type: "signature_delta",
          signature: wrapCarried({ origin: "generative", entries: [{ reasoning: { signature: "G" } }] }),
        },
      },
      { type: "content_block_stop", index: 2 },
    ]);
    expect(losses).toEqual([]);
  });

  test("a text's foreign signature rides between it and the next block, and never ends the answer (Claude Code shows no text then)", () => {
    const signed = (more: common.StreamPart[]) =>
      encodeAll([
        { type: "text-start", index: 0 },
        { type: "text-delta", index: 0, text: "A" },
        {
          type: "block-signature",
          index: 0,
          signature: { origin: "generative", value: "G" },
          source: "/1/sig",
        },
        { type: "text-end", index: 0 },
        ...more,
        { type: "finish", reason: "stop" },
      ]);
    const last = signed([]);
    const types = (out: unknown[]) =>
      out.map((event) => {
        const block = (event as { content_block?: { type: string } }).content_block;
        return block === undefined ? (event as { type: string }).type : `start ${block.type}`;
      });
    expect(types(last.out)).toEqual([
      "message_start",
      "start text",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(last.losses).toEqual([["/1/sig", "dropped"]]);
    const followed = signed([
      { type: "tool-call-start", index: 1, id: "c", name: "f" },
      { type: "tool-call-end", index: 1 },
    ]);
    expect(types(followed.out).slice(1, 8)).toEqual([
      "start text",
      "content_block_delta",
      "content_block_stop",
      "start thinking",
      "content_block_delta",
      "content_block_stop",
      "start tool_use",
    ]);
    expect(followed.losses).toEqual([]);
  });

  test("opaque blocks of messages origin are restored whole; others are dropped", () => {
    const raw = { type: "web_search_tool_result", tool_use_id: "s", content: [] };
    const { out, losses } = encodeAll([
      { type: "opaque", index: 0, part: { type: "opaque", origin: "messages", raw, label: "x", source: "" } },
      {
        type: "opaque",
        index: 1,
        part: { type: "opaque", origin: "generative", raw: {}, label: "executableCode part", source: "" },
      },
      { type: "finish", reason: "stop" },
    ]);
    expect(out.slice(1, 3)).toEqual([
      { type: "content_block_start", index: 0, content_block: raw },
      { type: "content_block_stop", index: 0 },
    ]);
    expect(losses).toEqual([["", "dropped"]]);
  });

  test("a refusal delta becomes text with stop_reason refusal", () => {
    const { out } = encodeAll([
      { type: "refusal-delta", index: 0, text: "No." },
      { type: "finish", reason: "stop" },
    ]);
    expect(out.find((event) => event.type === "message_delta")).toMatchObject({
      delta: { stop_reason: "refusal" },
    });
  });
});
