/**
 * Research U3 through the public function: a history whose tool calls and results do not pair up is a
 * 400 `TranslationError` naming the orphan id, for every target that checks (messages, generative).
 */
import { describe, expect, test } from "vitest";
import { type Protocol, TranslationError, translateRequest } from "../../src/index";

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

describe.each(["messages", "generative"] as const)("chat → %s", (to) => {
  test("a call without a result is a 400 tool_pairing error naming the call", () => {
    const error = caught("chat", to, orphanCall);
    expect(error.status).toBe(400);
    expect(error.message).toBe("tool call b has no tool result");
    expect(error.issues).toEqual([
      { code: "tool_pairing", path: ["messages", "1", "tool_calls", "1"], message: error.message },
    ]);
  });

  test("a result that answers no call is a 400 tool_pairing error naming the result's id", () => {
    const error = caught("chat", to, orphanResult);
    expect(error.status).toBe(400);
    expect(error.message).toBe("tool result for z answers no tool call of the assistant turn before it");
    expect(error.issues).toEqual([{ code: "tool_pairing", path: ["messages", "1"], message: error.message }]);
  });
});

test("messages → generative: a tool_use without its tool_result is a 400 naming the id", () => {
  const error = caught("messages", "generative", {
    model: "m",
    max_tokens: 64,
    messages: [
      { role: "user", content: "x" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
      { role: "user", content: "no result" },
    ],
  });
  expect(error.status).toBe(400);
  expect(error.message).toBe("tool call t1 has no tool result");
  expect(error.issues).toEqual([
    { code: "tool_pairing", path: ["messages", "1", "content", "0"], message: error.message },
  ]);
});

test("generative → messages: a function call without its response is a 400 naming the id", () => {
  const error = caught("generative", "messages", {
    contents: [
      { role: "user", parts: [{ text: "x" }] },
      { role: "model", parts: [{ functionCall: { id: "c1", name: "f", args: {} } }] },
      { role: "user", parts: [{ text: "no result" }] },
    ],
  });
  expect(error.status).toBe(400);
  expect(error.message).toBe("tool call c1 has no tool result");
  expect(error.issues).toEqual([
    { code: "tool_pairing", path: ["contents", "1", "parts", "0"], message: error.message },
  ]);
});

test("chat, which has no pairing rule, takes the unpaired history as it is", () => {
  const { value } = translateRequest("messages", "chat", {
    model: "m",
    max_tokens: 64,
    messages: [
      { role: "user", content: "x" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
      { role: "user", content: "no result" },
    ],
  });
  expect(value.messages).toEqual([
    { role: "user", content: "x" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "t1", type: "function", function: { name: "f", arguments: "{}" } }],
    },
    { role: "user", content: "no result" },
  ]);
});
