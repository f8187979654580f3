import { describe, expect, test } from "vitest";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import * as messages from "../../../src/protocols/messages/schema";
import { messagesStreamDecoder } from "../../../src/protocols/messages/stream-decode";
import { accumulate, replay } from "../../../src/stream/accumulate";
import { fixtures, readJsonFixture, streamEvents } from "../../helpers/fixtures";
import { endOnce, stepOnce } from "../../helpers/reducer";

const options = resolveOptions({});

function decodeAll(events: readonly unknown[]): common.StreamPart[] {
  const decoder = messagesStreamDecoder(options);
  let state = decoder.initial;
  const out: common.StreamPart[] = [];
  for (const event of events) {
    const step = stepOnce(decoder, state, messages.streamEvent.parse(event));
    state = step.state;
    out.push(...step.out);
  }
  out.push(...endOnce(decoder, state).out);
  return out;
}

const start = (usage: object = { input_tokens: 10, output_tokens: 1 }) => ({
  type: "message_start",
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "c",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  },
});

describe("messagesStreamDecoder", () => {
  test("text, thinking with signature and a tool call become numbered parts in order", () => {
    const parts = decodeAll([
      start(),
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hm" } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "S" } },
      { type: "content_block_stop", index: 0 },
      { type: "ping" },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "t1", name: "f", input: {} },
      },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"a":' } },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "1}" } },
      { type: "content_block_stop", index: 1 },
      {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { output_tokens: 20 },
      },
      { type: "message_stop" },
    ]);
    const usage = (output: number) => ({
      inputTokens: 10,
      outputTokens: output,
      extra: { origin: "messages", raw: {} },
      source: "/usage",
    });
    expect(parts).toEqual([
      { type: "response-start", id: "msg_1", model: "c", usage: usage(1) },
      { type: "usage", usage: usage(1) },
      { type: "reasoning-start", index: 0, origin: "messages" },
      { type: "reasoning-delta", index: 0, text: "hm" },
      // Sources point into the input event (relative here: the reducer runs without positions).
      { type: "reasoning-signature", index: 0, signature: "S", source: "/delta/signature" },
      { type: "reasoning-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "t1", name: "f", source: "/content_block" },
      { type: "tool-call-delta", index: 1, argumentsText: '{"a":' },
      { type: "tool-call-delta", index: 1, argumentsText: "1}" },
      { type: "tool-call-end", index: 1 },
      { type: "usage", usage: usage(20) },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_use",
        extra: { origin: "messages", raw: {} },
        source: "/delta/stop_reason",
      },
    ]);
  });

  test("server tool blocks are gathered whole into opaque parts", () => {
    const parts = decodeAll([
      start(),
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "server_tool_use", id: "s", name: "web_search", input: {} },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"query":' },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"q"}' } },
      { type: "content_block_stop", index: 0 },
      { type: "message_stop" },
    ]);
    expect(parts.at(-1)).toEqual({
      type: "opaque",
      index: 0,
      part: {
        type: "opaque",
        origin: "messages",
        raw: { type: "server_tool_use", id: "s", name: "web_search", input: { query: "q" } },
        label: "server_tool_use block",
        source: "/content_block",
      },
    });
  });

  test("citations deltas arrive with the end of their text block", () => {
    const citation = {
      type: "web_search_result_location",
      cited_text: "c",
      url: "u",
      title: "t",
      encrypted_index: "e",
    };
    const parts = decodeAll([
      start(),
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "citations_delta", citation } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "x" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_stop" },
    ]);
    expect(parts.slice(-1)).toEqual([
      { type: "text-end", index: 0, citations: { origin: "messages", items: [citation] } },
    ]);
  });

  test("a message_start that already holds content and a stop reason emits the blocks and the finish", () => {
    const parts = decodeAll([
      {
        type: "message_start",
        message: {
          id: "m",
          type: "message",
          role: "assistant",
          model: "c",
          content: [{ type: "tool_use", id: "t", name: "roll", input: { p: 2 } }],
          stop_reason: "tool_use",
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      },
      { type: "message_stop" },
    ]);
    expect(parts.slice(2)).toEqual([
      { type: "tool-call-start", index: 0, id: "t", name: "roll", source: "/message/content/0" },
      { type: "tool-call-delta", index: 0, argumentsText: '{"p":2}' },
      { type: "tool-call-end", index: 0 },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_use",
        extra: { origin: "messages", raw: {} },
        source: "/message/stop_reason",
      },
    ]);
  });

  test("a mid-stream error event becomes an error part", () => {
    const [entry] = fixtures("stream", "messages").filter((item) =>
      item.path.includes("error-event-overloaded"),
    );
    expect(entry).toBeDefined();
    const parts = decodeAll(streamEvents(entry as never));
    expect(parts).toEqual([
      {
        type: "error",
        error: { status: 529, kind: "overloaded", message: "Overloaded", code: "overloaded_error" },
      },
    ]);
  });

  test("a stream cut off mid-block ends with an error part; the blocks the input left open stay open", () => {
    const parts = decodeAll([
      start(),
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ]);
    expect(parts.slice(-2)).toEqual([
      { type: "text-start", index: 0 },
      {
        type: "error",
        error: {
          status: 502,
          kind: "server",
          message: "The upstream messages stream ended before its finish: the answer is incomplete.",
        },
      },
    ]);
  });

  test("a finish announced by message_delta goes out only with message_stop: cut off between them, it is an error", () => {
    const head = [
      start(),
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: 3 },
      },
    ];
    const cut = decodeAll(head).map(({ type }) => type);
    expect(cut).not.toContain("finish");
    expect(cut.at(-1)).toBe("error");
    const whole = decodeAll([...head, { type: "message_stop" }]).map(({ type }) => type);
    expect(whole.at(-1)).toBe("finish");
    expect(whole).not.toContain("error");
  });

  test("every fixture stream decodes; block indices start and end in pairs", () => {
    for (const entry of fixtures("stream", "messages")) {
      const parts = decodeAll(streamEvents(entry));
      const starts = parts.filter(
        (part) => part.type.endsWith("-start") && part.type !== "response-start",
      ).length;
      const ends = parts.filter((part) => part.type.endsWith("-end")).length;
      expect(starts, entry.path).toBe(ends);
    }
  });

  test("replay then accumulate gives every fixture response back", () => {
    for (const entry of fixtures("response", "messages")) {
      const response = messages.response.parse(readJsonFixture(entry));
      expect(accumulate("messages", replay("messages", response)), entry.path).toEqual(response);
    }
  });
});
