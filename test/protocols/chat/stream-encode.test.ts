import { describe, expect, test } from "vitest";
import { wrapCarried } from "../../../src/common/carrier";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import { withCarrier } from "../../../src/protocols/chat/carrier";
import * as chat from "../../../src/protocols/chat/schema";
import { chatStreamDecoder } from "../../../src/protocols/chat/stream-decode";
import { chatStreamEncoder } from "../../../src/protocols/chat/stream-encode";
import { runAll, stepOnce } from "../../helpers/reducer";
import { chatFixtures, readSseEvents } from "./fixtures";

const options = resolveOptions({ created: 1 });
const encoder = chatStreamEncoder(options);

/** The chat grammar (research X1): role chunk first, one finish chunk, usage chunk with no choices, DONE last. */
function checkChatGrammar(events: readonly chat.StreamEvent[]): void {
  for (const event of events) expect(chat.streamEvent.safeParse(event).success).toBe(true);
  expect(events.at(-1)).toBe(chat.DONE);
  const chunks = events.slice(0, -1) as chat.Chunk[];
  // Another protocol's answer says in its first delta that it has no refusal, as the service does.
  expect([
    { role: "assistant", content: "" },
    { role: "assistant", content: "", refusal: null },
  ]).toContainEqual(chunks[0]?.choices[0]?.delta);
  const finishAt = chunks.findIndex((chunk) => chunk.choices[0]?.finish_reason != null);
  expect(finishAt).toBeGreaterThan(0);
  expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason != null)).toHaveLength(1);
  for (const chunk of chunks.slice(finishAt + 1)) {
    expect(chunk.choices).toEqual([]);
    expect(chunk.usage).toBeDefined();
  }
  const ids = new Set(chunks.map((chunk) => chunk.id));
  expect(ids.size).toBe(1);
  const seen = new Set<number>();
  for (const chunk of chunks.slice(0, finishAt)) {
    for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
      const first = !seen.has(call.index ?? -1);
      if (first) {
        expect(call.id).toEqual(expect.any(String));
        expect(call.function?.name).toEqual(expect.any(String));
        expect(call.index).toBe(seen.size);
        seen.add(call.index ?? -1);
      } else {
        expect(call.id).toBeUndefined();
      }
    }
  }
}

describe("chatStreamEncoder", () => {
  test("emits the exact chunk sequence for reasoning, a tool call, finish and usage", () => {
    const parts: common.StreamPart[] = [
      {
        type: "response-start",
        id: "msg_1",
        model: "c",
        usage: { inputTokens: 10, outputTokens: 1, source: "" },
      },
      { type: "reasoning-start", index: 0, origin: "messages" },
      { type: "reasoning-delta", index: 0, text: "hm" },
      { type: "reasoning-signature", index: 0, signature: "S" },
      { type: "reasoning-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "t1", name: "f" },
      { type: "tool-call-delta", index: 1, argumentsText: '{"a":' },
      { type: "tool-call-delta", index: 1, argumentsText: "1}" },
      { type: "tool-call-end", index: 1 },
      { type: "finish", reason: "tool-calls", rawReason: "tool_use" },
      { type: "usage", usage: { inputTokens: 10, outputTokens: 20, source: "" } },
    ];
    const { out, losses } = runAll(encoder, parts);
    const envelope = { id: "msg_1", object: "chat.completion.chunk", created: 1, model: "c" };
    // Another protocol's answer: `logprobs: null` on the finish chunk's choice, as the service writes it.
    const delta = (value: chat.Delta, finish: string | null = null) => ({
      ...envelope,
      choices: [
        finish === null
          ? { index: 0, delta: value, finish_reason: finish }
          : { logprobs: null, index: 0, delta: value, finish_reason: finish },
      ],
    });
    // The thinking signature rides home in the call's id (issue 29, chat/carrier.ts).
    const carried = wrapCarried({
      origin: "messages",
      entries: [{ reasoning: { text: "hm", signature: "S" } }],
    });
    expect(out).toEqual([
      delta({ role: "assistant", content: "", refusal: null }),
      delta({ reasoning_content: "hm" }),
      delta({
        tool_calls: [
          {
            index: 0,
            id: withCarrier("t1", carried as string),
            type: "function",
            function: { name: "f", arguments: "" },
          },
        ],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: "1}" } }] }),
      delta({}, "tool_calls"),
      { ...envelope, choices: [], usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } },
      "[DONE]",
    ]);
    expect(losses).toEqual([]);
    checkChatGrammar(out);
  });

  test("reasoning state with no tool call after it has no carrier in chat: dropped, reported", () => {
    const { losses } = runAll(encoder, [
      { type: "response-start", id: "msg_1", model: "c" },
      { type: "reasoning-start", index: 0, origin: "messages" },
      { type: "reasoning-delta", index: 0, text: "hm" },
      { type: "reasoning-signature", index: 0, signature: "S" },
      { type: "reasoning-end", index: 0 },
      { type: "text-start", index: 1 },
      { type: "text-delta", index: 1, text: "done" },
      { type: "text-end", index: 1 },
      { type: "finish", reason: "stop", rawReason: "end_turn" },
    ]);
    expect(losses.map(({ kind, code }) => `${kind} ${code}`)).toEqual(["dropped reasoning_state.uncarried"]);
  });

  test.each(
    chatFixtures
      .filter((entry) => entry.kind === "stream" && !entry.path.includes("midstream"))
      .map((entry) => entry.path),
  )("re-encodes the decoded %s in the chat grammar with the same text", (path) => {
    const events = readSseEvents(path).map((event) => chat.streamEvent.parse(event));
    const parts = runAll(chatStreamDecoder(options), events).out;
    const { out } = runAll(encoder, parts);
    checkChatGrammar(out);
    const text = (list: readonly chat.StreamEvent[]) =>
      list
        .filter((event): event is chat.Chunk => typeof event !== "string" && "choices" in event)
        .map((chunk) => {
          const content = chunk.choices.find((choice) => choice.index === 0)?.delta.content ?? "";
          // Mistral's content chunks: their text ones are the text.
          return typeof content === "string"
            ? content
            : content.map((part) => (part.type === "text" ? (part as chat.TextPart).text : "")).join("");
        })
        .join("");
    expect(text(out)).toBe(text(events));
  });

  test("a mid-stream error is the chat error object, with no finish or DONE after it", () => {
    const { out } = runAll(encoder, [
      { type: "response-start", id: "m" },
      { type: "text-start", index: 0 },
      { type: "text-delta", index: 0, text: "Hal" },
      {
        type: "error",
        error: { status: 529, kind: "overloaded", message: "Overloaded", code: "overloaded_error" },
      },
      { type: "text-delta", index: 0, text: "ignored" },
    ]);
    expect(out.slice(1)).toEqual([
      {
        id: "m",
        object: "chat.completion.chunk",
        created: 1,
        model: "",
        choices: [{ index: 0, delta: { content: "Hal" }, finish_reason: null }],
      },
      // The same table as translateError: the kind's chat type, the source's own type as `code`.
      { error: { message: "Overloaded", type: "server_error", param: null, code: "overloaded_error" } },
    ]);
  });

  test("a stream cut off without finish still ends with a finish chunk and DONE, reported as synthesized", () => {
    const { out, losses } = runAll(encoder, [
      { type: "response-start" },
      { type: "text-delta", index: 0, text: "partial" },
    ]);
    expect(out.slice(-2)).toEqual([
      {
        id: "gp_chatcmpl",
        object: "chat.completion.chunk",
        created: 1,
        model: "",
        choices: [{ logprobs: null, index: 0, delta: {}, finish_reason: "stop" }],
      },
      "[DONE]",
    ]);
    expect(losses.map(({ path, kind }) => ({ path, kind }))).toEqual([{ path: "", kind: "synthesized" }]);
    checkChatGrammar(out);
  });

  test("emits the role chunk even when the first part is not response-start", () => {
    const { out } = runAll(encoder, [{ type: "text-delta", index: 0, text: "x" }], false);
    expect((out[0] as chat.Chunk).choices[0]?.delta).toEqual({
      role: "assistant",
      content: "",
      refusal: null,
    });
  });

  test("a text delta is translated in the same step", () => {
    let state = stepOnce(encoder, encoder.initial, { type: "response-start", id: "r" }).state;
    state = stepOnce(encoder, state, { type: "text-start", index: 0 }).state;
    const step = stepOnce(encoder, state, { type: "text-delta", index: 0, text: "now" });
    expect(step.out).toEqual([
      {
        id: "r",
        object: "chat.completion.chunk",
        created: 1,
        model: "",
        choices: [{ index: 0, delta: { content: "now" }, finish_reason: null }],
      },
    ]);
  });

  test("tool calls without ids get deterministic ids and make the finish tool_calls", () => {
    const { out } = runAll(encoder, [
      { type: "response-start", id: "r" },
      { type: "tool-call-start", index: 0, name: "a" },
      { type: "tool-call-delta", index: 0, argumentsText: '{"q":1}' },
      { type: "tool-call-start", index: 1, name: "b" },
      { type: "finish", reason: "stop", rawReason: "STOP" },
    ]);
    const calls = (out as chat.Chunk[]).flatMap((chunk) =>
      typeof chunk === "string" ? [] : (chunk.choices[0]?.delta.tool_calls ?? []),
    );
    expect(calls.filter((call) => call.id !== undefined).map((call) => [call.index, call.id])).toEqual([
      [0, "gp_r_0"],
      [1, "gp_r_1"],
    ]);
    expect((out.at(-2) as chat.Chunk).choices[0]?.finish_reason).toBe("tool_calls");
  });
});
