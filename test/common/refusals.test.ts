/**
 * What each protocol's service refuses beyond its schema, read through its adapter with the rules the
 * request encoders enforce (common/refusals.ts): the testing toolkit's valid-output law rests on it.
 */
import { describe, expect, test } from "vitest";
import { resolveOptions } from "../../src/common/options";
import type { Protocol } from "../../src/index";
import { adapters } from "../../src/protocols/index";

const refusals = (protocol: Protocol, body: unknown) =>
  adapters[protocol].requestRefusals(
    adapters[protocol].schemas.request.parse(body),
    resolveOptions({ model: "m" }),
  );

const call = (id: string, name = "f") => ({ id, type: "function", function: { name, arguments: "{}" } });

describe("requestRefusals", () => {
  test("a paired history is taken by every protocol", () => {
    expect(
      refusals("chat", {
        model: "m",
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: null, tool_calls: [call("a"), call("b")] },
          { role: "tool", tool_call_id: "b", content: "2" },
          { role: "tool", tool_call_id: "a", content: "1" },
        ],
      }),
    ).toEqual([]);
    expect(
      refusals("messages", {
        model: "m",
        max_tokens: 1,
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "r" }] },
        ],
      }),
    ).toEqual([]);
  });

  test("messages: every tool call without its result, each with its pointer, and a user turn first", () => {
    expect(
      refusals("messages", {
        model: "m",
        max_tokens: 1,
        messages: [
          {
            role: "assistant",
            content: [
              { type: "tool_use", id: "t1", name: "f", input: {} },
              { type: "tool_use", id: "t2", name: "f", input: {} },
            ],
          },
          { role: "user", content: "no results" },
        ],
      }),
    ).toEqual([
      {
        path: "/messages/0",
        message: "the conversation starts with an assistant turn: the service needs a user turn first",
      },
      { path: "/messages/0/content/0", message: "tool call t1 has no tool result" },
      { path: "/messages/0/content/1", message: "tool call t2 has no tool result" },
    ]);
  });

  test("chat: a call left unanswered, with or without an id; a result of no call passes, as the encoder lets it", () => {
    expect(
      refusals("chat", {
        model: "m",
        messages: [
          { role: "user", content: "q" },
          { role: "tool", tool_call_id: "zz", content: "r" },
          { role: "assistant", content: null, tool_calls: [call("a"), call("", "g")] },
          { role: "user", content: "next" },
          { role: "function", name: "h", content: "r" },
        ],
      }),
    ).toEqual([
      { path: "/messages/2/tool_calls/0", message: "tool call a has no tool result" },
      {
        path: "/messages/2/tool_calls/1",
        message: 'the tool call of "g" without a call id has no tool result',
      },
    ]);
  });

  test("generative: a user turn first, a response of no call (a call may go unanswered); responses: a call output answering no call", () => {
    expect(
      refusals("generative", {
        contents: [
          { role: "model", parts: [{ functionCall: { id: "c1", name: "f", args: {} } }] },
          { role: "user", parts: [{ functionResponse: { id: "c9", name: "f", response: {} } }] },
        ],
      }),
    ).toEqual([
      {
        path: "/contents/0",
        message: "the conversation starts with an assistant turn: the service needs a user turn first",
      },
      {
        path: "/contents/1/parts/0",
        message: "tool result for c9 answers no tool call of the assistant turn before it",
      },
    ]);
    expect(
      refusals("responses", {
        model: "m",
        input: [{ type: "function_call_output", call_id: "c", output: "r" }],
      }),
    ).toEqual([
      { path: "/input/0", message: "tool result for c answers no tool call of the assistant turn before it" },
    ]);
  });
});
