/**
 * Research U3 and issue 29 through the public function: a tool call without its result is answered
 * with a synthesized result toward every target that refuses one (chat, messages, responses) and
 * passed as it is to generative, which takes it; a result that answers no call stays a 400
 * `TranslationError` naming it, for every target.
 */
import { describe, expect, test } from "vitest";
import { NOT_ANSWERED } from "../../src/common/tool-pairing";
import {
  type chat,
  type generative,
  type messages,
  type Protocol,
  type responses,
  TranslationError,
  translateRequest,
} from "../../src/index";

const call = (id: string) => ({ id, type: "function", function: { name: "f", arguments: "{}" } });

function caught(from: Protocol, to: Protocol, body: unknown): TranslationError {
  try {
    translateRequest(from, to, body, { model: "g", maxTokens: 64 });
  } catch (error) {
    if (error instanceof TranslationError) return error;
    throw error;
  }
  throw new Error("expected a TranslationError");
}

const orphanCall = {
  model: "m",
  messages: [
    { role: "user", content: "x" },
    { role: "assistant", content: null, tool_calls: [call("a"), call("b")] },
    { role: "tool", tool_call_id: "a", content: "ok" },
  ],
};

const orphanResult = {
  model: "m",
  messages: [
    { role: "user", content: "x" },
    { role: "tool", tool_call_id: "z", content: "ok" },
  ],
};

/** A Claude Code turn whose call the user interrupted: the next user turn is text, no result. */
const unanswered = {
  model: "m",
  max_tokens: 64,
  messages: [
    { role: "user", content: "x" },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
    { role: "user", content: "no result" },
  ],
};

describe.each(["messages", "generative", "responses"] as const)("chat → %s", (to) => {
  test("a result that answers no call is a 400 tool_pairing error naming the result's id", () => {
    const error = caught("chat", to, orphanResult);
    expect(error.status).toBe(400);
    expect(error.message).toBe("tool result for z answers no tool call of the assistant turn before it");
    expect(error.issues).toEqual([{ code: "tool_pairing", path: ["messages", "1"], message: error.message }]);
  });
});

describe("a call without its result", () => {
  test("toward messages gets a synthesized result before the next user turn's text, reported", () => {
    const { value, losses } = translateRequest("chat", "messages", orphanCall, { maxTokens: 64 });
    const user = (value as messages.Request).messages[2];
    expect(user?.content).toEqual([
      { type: "tool_result", tool_use_id: "a", content: "ok" },
      { type: "tool_result", tool_use_id: "b", content: NOT_ANSWERED, is_error: true },
    ]);
    expect(
      losses.filter((entry) => entry.kind === "synthesized" && entry.code === "tool_result.synthesized"),
    ).toEqual([expect.objectContaining({ path: "/messages/1/tool_calls/1" })]);
  });

  test("toward responses gets a function_call_output, reported", () => {
    const { value, losses } = translateRequest("messages", "responses", unanswered);
    const input = (value as responses.Request).input as unknown[];
    expect(input).toContainEqual({ type: "function_call_output", call_id: "t1", output: NOT_ANSWERED });
    expect(losses).toContainEqual(
      expect.objectContaining({
        path: "/messages/1/content/0",
        kind: "synthesized",
        code: "tool_result.synthesized",
      }),
    );
  });

  test("toward chat (OpenAI refuses an unanswered call) gets a tool message, reported", () => {
    const { value, losses } = translateRequest("messages", "chat", unanswered);
    expect((value as chat.Request).messages).toEqual([
      { role: "user", content: "x" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "t1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "t1", content: NOT_ANSWERED },
      { role: "user", content: "no result" },
    ]);
    expect(losses).toContainEqual(
      expect.objectContaining({ path: "/messages/1/content/0", kind: "synthesized" }),
    );
  });

  // Seed 20261128 of the thorough tier (valid-output, chat → messages and → responses): a call with an
  // empty id, the conversation's last turn, went out with a made-up id and no result.
  test.each(["messages", "responses"] as const)(
    "a call without an id, never answered, gets a result toward %s matched to the id it is given",
    (to) => {
      const body = {
        model: "m",
        messages: [
          { role: "user", content: "x" },
          {
            role: "assistant",
            tool_calls: [{ id: "", type: "function", function: { name: "a", arguments: "" } }],
          },
        ],
      };
      const { value, losses } = translateRequest("chat", to, body, { maxTokens: 64 });
      const text = JSON.stringify(value);
      const ids = [...text.matchAll(/"(?:id|call_id|tool_use_id|tool_call_id)":"(gp_[^"]+)"/g)].map(
        (m) => m[1],
      );
      expect(ids.length).toBe(2);
      expect(new Set(ids).size).toBe(1);
      expect(text).toContain(NOT_ANSWERED);
      expect(losses).toContainEqual(
        expect.objectContaining({ path: "/messages/1/tool_calls/0", code: "tool_result.synthesized" }),
      );
      expect(losses.find((entry) => entry.code === "tool_result.synthesized")?.message).toMatch(
        /^The tool call of "a" has no result/,
      );
    },
  );

  // The same seed, the next run: two assistant messages in a row (one turn in messages), each with a call
  // without an id. The second message's call closed the first one's, whose result then went to the second.
  test.each(["messages", "responses"] as const)(
    "calls without ids in consecutive assistant messages, never answered, each get their own result toward %s",
    (to) => {
      const anonymous = (name: string, args: string) => ({
        role: "assistant",
        tool_calls: [{ id: "", type: "function", function: { name, arguments: args } }],
      });
      const body = {
        model: "m",
        messages: [{ role: "user", content: "x" }, anonymous("a", '{"a":1}'), anonymous("b", "{}")],
      };
      const { value, losses } = translateRequest("chat", to, body, { maxTokens: 64 });
      const text = JSON.stringify(value);
      const callIds = [...text.matchAll(/"(?:id|call_id)":"(gp_[^"]+)","(?:name|type)/g)].map((m) => m[1]);
      const resultIds = [
        ...text.matchAll(/"(?:tool_use_id|call_id)":"(gp_[^"]+)","(?:content|output)"/g),
      ].map((m) => m[1]);
      expect(new Set(callIds).size).toBe(2);
      expect([...resultIds].sort()).toEqual([...callIds].sort());
      expect(losses.filter((entry) => entry.code === "tool_result.synthesized")).toHaveLength(2);
    },
  );

  test("toward generative passes as it is: Gemini takes it (recorded histories have them)", () => {
    const { value, losses } = translateRequest("messages", "generative", unanswered);
    expect((value as generative.Request).contents).toEqual([
      { role: "user", parts: [{ text: "x" }] },
      { role: "model", parts: [{ functionCall: { id: "t1", name: "f", args: {} } }] },
      { role: "user", parts: [{ text: "no result" }] },
    ]);
    expect(losses.filter((entry) => entry.kind === "synthesized")).toEqual([]);
  });

  test("a generative history's unanswered call toward messages is answered, its id the one derived", () => {
    const { value } = translateRequest(
      "generative",
      "messages",
      {
        contents: [
          { role: "user", parts: [{ text: "x" }] },
          { role: "model", parts: [{ functionCall: { id: "c1", name: "f", args: {} } }] },
          { role: "user", parts: [{ text: "no result" }] },
        ],
      },
      { model: "g" },
    );
    expect((value as messages.Request).messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "c1", content: NOT_ANSWERED, is_error: true },
      { type: "text", text: "no result" },
    ]);
  });

  test("the last turn's call, awaiting its answer, gets a user turn of its own", () => {
    const body = { ...unanswered, messages: unanswered.messages.slice(0, 2) };
    const { value } = translateRequest("messages", "responses", body);
    const input = (value as responses.Request).input as unknown[];
    expect(input[input.length - 1]).toEqual({
      type: "function_call_output",
      call_id: "t1",
      output: NOT_ANSWERED,
    });
  });
});
