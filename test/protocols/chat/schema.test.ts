import { describe, expect, test } from "vitest";
import * as chat from "../../../src/protocols/chat/schema";
import { chatFixtures, readJson, readSseEvents } from "./fixtures";

describe("chat schemas accept every recorded fixture", () => {
  const files = chatFixtures.filter((entry) => entry.kind !== "stream");
  test.each(files.map((entry) => [entry.path, entry.kind] as const))("%s parses", (path, kind) => {
    const schema = kind === "request" ? chat.request : kind === "response" ? chat.response : chat.errorBody;
    const result = schema.safeParse(readJson(path));
    expect(result.error?.issues ?? []).toEqual([]);
  });

  const streams = chatFixtures.filter((entry) => entry.kind === "stream");
  test.each(streams.map((entry) => entry.path))("every data event of %s parses as a stream event", (path) => {
    const events = readSseEvents(path);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      const result = chat.streamEvent.safeParse(event);
      expect(result.error?.issues ?? []).toEqual([]);
    }
  });

  test("there are fixtures of every kind", () => {
    expect(new Set(chatFixtures.map((entry) => entry.kind))).toEqual(
      new Set(["request", "response", "stream", "error"]),
    );
  });
});

describe("chat schemas reject what the API rejects", () => {
  const base = { model: "m", messages: [{ role: "user", content: "hi" }] };

  test("temperature 2.5 is rejected with the pointer /temperature", () => {
    const result = chat.request.safeParse({ ...base, temperature: 2.5 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([["temperature"]]);
  });

  test("temperature 0 and 2 are accepted", () => {
    expect(chat.request.safeParse({ ...base, temperature: 0 }).success).toBe(true);
    expect(chat.request.safeParse({ ...base, temperature: 2 }).success).toBe(true);
  });

  test("an unknown role is rejected at its message", () => {
    const result = chat.request.safeParse({ ...base, messages: [{ role: "model", content: "hi" }] });
    expect(result.error?.issues[0]?.path).toEqual(["messages", 0, "role"]);
  });

  test("an empty messages array is rejected", () => {
    const result = chat.request.safeParse({ ...base, messages: [] });
    expect(result.error?.issues[0]?.path).toEqual(["messages"]);
  });

  test("a tool message without tool_call_id is rejected", () => {
    const result = chat.request.safeParse({ ...base, messages: [{ role: "tool", content: "x" }] });
    expect(result.error?.issues[0]?.path).toEqual(["messages", 0, "tool_call_id"]);
  });

  test("a function tool without its function object is rejected", () => {
    expect(chat.request.safeParse({ ...base, tools: [{ type: "function" }] }).success).toBe(false);
  });

  test("a string, null, and an array are not requests", () => {
    for (const value of ["x", null, [], 1]) expect(chat.request.safeParse(value).success).toBe(false);
  });
});

describe("chat schemas keep unknown fields", () => {
  test("unknown fields on the request, a message and a part survive a parse", () => {
    const input = {
      model: "m",
      provider: { order: ["a"] },
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "x", cache_control: { type: "ephemeral" }, extra: 1 }],
          x: true,
        },
      ],
    };
    expect(chat.request.parse(input)).toEqual(input);
  });

  test("unknown fields on a response and a chunk survive a parse", () => {
    const response = {
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "m",
      x_groq: { id: "r" },
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "a", extra_content: { k: 1 } },
          finish_reason: "stop",
        },
      ],
    };
    expect(chat.response.parse(response)).toEqual(response);
    const chunk = { choices: [], obfuscation: "abc", usage: null };
    expect(chat.chunk.parse(chunk)).toEqual(chunk);
  });

  test("other tool types and vendor tool_choice values are kept open", () => {
    const input = {
      model: "m",
      messages: [{ role: "user", content: "x" }],
      tools: [{ type: "custom", custom: { name: "c" } }],
      tool_choice: "any-vendor-value",
    };
    expect(chat.request.parse(input)).toEqual(input);
  });
});

describe("chat stream events", () => {
  test("DONE stands for data: [DONE]", () => {
    expect(chat.DONE).toBe("[DONE]");
    expect(chat.streamEvent.parse("[DONE]")).toBe("[DONE]");
  });

  test("a usage-only chunk with empty choices parses", () => {
    const event = {
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    };
    expect(chat.chunk.safeParse(event).success).toBe(true);
  });

  test("a mid-stream error object without choices parses as a stream event", () => {
    const event = { error: { message: "Overloaded", type: "overloaded_error", code: null } };
    expect(chat.streamEvent.parse(event)).toEqual(event);
  });

  test("an error body's code may be a string, a number or null", () => {
    for (const code of ["x", 429, null])
      expect(chat.errorBody.safeParse({ error: { message: "m", code } }).success).toBe(true);
  });

  test("10,000-deep nesting inside a tool schema neither crashes nor hangs", () => {
    let deep: unknown = {};
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const result = chat.request.safeParse({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      tools: [{ type: "function", function: { name: "f", parameters: deep } }],
    });
    expect(typeof result.success).toBe("boolean");
  });
});
