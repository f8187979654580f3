import { describe, expect, test } from "vitest";
import { issuePointer } from "../../../src/common/errors";
import * as messages from "../../../src/protocols/messages/schema";
import { fixtures, readJsonFixture, streamEvents } from "../../helpers/fixtures";

const minimal = { model: "claude-x", max_tokens: 64, messages: [{ role: "user", content: "hi" }] };

function pointers(
  schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } },
  value: unknown,
): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : (result.error?.issues ?? []).map((issue) => issuePointer(issue.path));
}

describe("messages schemas accept every recorded payload", () => {
  test.each(fixtures("request", "messages").map((entry) => [entry.path, entry]))(
    "request %s parses",
    (_path, entry) => {
      expect(messages.request.safeParse(readJsonFixture(entry)).success).toBe(true);
    },
  );
  test.each(fixtures("response", "messages").map((entry) => [entry.path, entry]))(
    "response %s parses",
    (_path, entry) => {
      expect(messages.response.safeParse(readJsonFixture(entry)).success).toBe(true);
    },
  );
  test.each(fixtures("error", "messages").map((entry) => [entry.path, entry]))(
    "error body %s parses",
    (_path, entry) => {
      expect(messages.errorBody.safeParse(readJsonFixture(entry)).success).toBe(true);
    },
  );
  test.each(fixtures("stream", "messages").map((entry) => [entry.path, entry]))(
    "every event of %s parses",
    (_path, entry) => {
      const events = streamEvents(entry);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(messages.streamEvent.safeParse(event).success).toBe(true);
    },
  );
});

describe("messages request rejections (what the API rejects), with the pointer", () => {
  test("a request without max_tokens is rejected at /max_tokens", () => {
    const { max_tokens: _, ...rest } = minimal;
    expect(pointers(messages.request, rest)).toEqual(["/max_tokens"]);
  });
  test("a role other than user, assistant and system is rejected at /messages/N/role", () => {
    const body = {
      ...minimal,
      messages: [
        { role: "user", content: "a" },
        { role: "tool", content: "b" },
      ],
    };
    expect(pointers(messages.request, body)).toEqual(["/messages/1/role"]);
  });
  test("a system turn mid-conversation is accepted (newer models take it)", () => {
    const body = {
      ...minimal,
      messages: [
        { role: "user", content: "a" },
        { role: "system", content: "b" },
      ],
    };
    expect(pointers(messages.request, body)).toEqual([]);
  });
  test("an empty messages array is rejected at /messages", () => {
    expect(pointers(messages.request, { ...minimal, messages: [] })).toEqual(["/messages"]);
  });
  test("temperature above 1 is rejected at /temperature", () => {
    expect(pointers(messages.request, { ...minimal, temperature: 1.5 })).toEqual(["/temperature"]);
  });
  test("a known block with a missing field is rejected at that field", () => {
    const body = { ...minimal, messages: [{ role: "user", content: [{ type: "text" }] }] };
    expect(pointers(messages.request, body)).toEqual(["/messages/0/content/0/text"]);
  });
  test("a tool_use input that is not an object is rejected", () => {
    const block = { type: "tool_use", id: "t", name: "f", input: "x" };
    const body = { ...minimal, messages: [{ role: "assistant", content: [block] }] };
    expect(pointers(messages.request, body)).toEqual(["/messages/0/content/0/input"]);
  });
  test("a thinking budget below 1024 is rejected", () => {
    expect(
      pointers(messages.request, { ...minimal, thinking: { type: "enabled", budget_tokens: 100 } }),
    ).toEqual(["/thinking/budget_tokens"]);
  });
  test("a custom tool without input_schema is rejected", () => {
    expect(messages.request.safeParse({ ...minimal, tools: [{ name: "f" }] }).success).toBe(false);
  });
});

describe("messages schemas keep what they do not know", () => {
  test("a history that starts with an assistant turn parses (turn order is not imposed on input)", () => {
    const body = {
      ...minimal,
      messages: [
        { role: "assistant", content: "hello" },
        { role: "user", content: "hi" },
      ],
    };
    expect(messages.request.safeParse(body).success).toBe(true);
  });
  test("unknown fields survive a parse at every level", () => {
    const body = {
      ...minimal,
      future_flag: { a: 1 },
      messages: [{ role: "user", content: [{ type: "text", text: "x", extra: true }], note: "n" }],
    };
    expect(messages.request.parse(body)).toEqual(body);
  });
  test("unknown block, tool, thinking and event types are accepted as loose objects", () => {
    const body = {
      ...minimal,
      messages: [{ role: "user", content: [{ type: "hologram", payload: [1] }] }],
      tools: [{ type: "teleport_20990101", name: "teleport", range: 3 }],
      thinking: { type: "dreaming", depth: 2 },
    };
    expect(messages.request.parse(body)).toEqual(body);
    expect(messages.streamEvent.parse({ type: "message_pondering", x: 1 })).toEqual({
      type: "message_pondering",
      x: 1,
    });
    const delta = {
      type: "content_block_delta",
      index: 0,
      delta: { type: "compaction_delta", content: "c" },
    };
    expect(messages.streamEvent.parse(delta)).toEqual(delta);
  });
  test("an unknown stop_reason in a response is accepted", () => {
    const body = {
      id: "m",
      type: "message",
      role: "assistant",
      model: "c",
      content: [],
      stop_reason: "daydreaming",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    expect(messages.response.safeParse(body).success).toBe(true);
  });
  test("the mid-stream error event has the error body's shape", () => {
    const event = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    expect(messages.streamEvent.parse(event)).toEqual(event);
    expect(messages.errorBody.parse(event)).toEqual(event);
  });
});

describe("bad input gives a zod error, never a crash", () => {
  test.each([
    ["not an object", 42],
    ["a string", "hello"],
    ["null", null],
  ])("%s", (_name, value) => {
    expect(messages.request.safeParse(value).success).toBe(false);
    expect(messages.response.safeParse(value).success).toBe(false);
    expect(messages.streamEvent.safeParse(value).success).toBe(false);
  });
  test("10,000-deep nesting inside a tool input parses without a stack overflow", () => {
    let deep: unknown = {};
    for (let depth = 0; depth < 10_000; depth++) deep = { a: deep };
    const body = {
      ...minimal,
      messages: [{ role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: { deep } }] }],
    };
    expect(messages.request.safeParse(body).success).toBe(true);
  });
  test("10 MB of text parses", () => {
    const body = { ...minimal, messages: [{ role: "user", content: "x".repeat(10_000_000) }] };
    expect(messages.request.safeParse(body).success).toBe(true);
  });
});
