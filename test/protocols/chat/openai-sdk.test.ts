/** Drives the real `openai` SDK against bodies produced by our chat encoders (no network). */
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import { encodeChatError } from "../../../src/protocols/chat/error";
import { encodeChatResponse } from "../../../src/protocols/chat/response";
import { DONE } from "../../../src/protocols/chat/schema";
import { chatStreamEncoder } from "../../../src/protocols/chat/stream-encode";
import { runAll } from "../../helpers/reducer";

const options = resolveOptions({ created: 1700000000 });

function client(body: string, contentType: string, status = 200): OpenAI {
  return new OpenAI({
    apiKey: "x",
    baseURL: "http://local.test/v1",
    maxRetries: 0,
    fetch: async () => new Response(body, { status, headers: { "content-type": contentType } }),
  });
}

const response: common.Response = {
  id: "msg_01",
  model: "claude-x",
  choices: [
    {
      index: 0,
      finishReason: "tool-calls",
      source: "",
      parts: [
        { type: "reasoning", text: "think", origin: "messages", source: "/content/0" },
        { type: "text", text: "Checking.", source: "/content/1" },
        { type: "tool-call", id: "t1", name: "get", arguments: { c: "P" }, source: "/content/2" },
      ],
    },
  ],
  usage: {
    inputTokens: 1203,
    outputTokens: 50,
    cacheReadTokens: 1000,
    cacheWriteTokens: 200,
    source: "/usage",
  },
};

describe("the openai SDK reads what the chat encoders produce", () => {
  test("a completion: content, tool calls and usage", async () => {
    const body = JSON.stringify(encodeChatResponse(response, options).value);
    const completion = await client(body, "application/json").chat.completions.create({
      model: "claude-x",
      messages: [{ role: "user", content: "w?" }],
    });
    expect(completion.id).toBe("msg_01");
    expect(completion.created).toBe(1700000000);
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBe("Checking.");
    const call = choice?.message.tool_calls?.[0];
    expect(
      call?.type === "function" ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : [],
    ).toEqual(["t1", "get", { c: "P" }]);
    expect(completion.usage).toEqual({
      prompt_tokens: 1203,
      completion_tokens: 50,
      total_tokens: 1253,
      prompt_tokens_details: { cached_tokens: 1000, cache_write_tokens: 200 },
    });
  });

  test("a stream iterates to the end with the right deltas, tool-call pieces and usage", async () => {
    const parts: common.StreamPart[] = [
      { type: "response-start", id: "msg_01", model: "claude-x" },
      { type: "text-start", index: 0 },
      { type: "text-delta", index: 0, text: "Check" },
      { type: "text-delta", index: 0, text: "ing." },
      { type: "text-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "t1", name: "get" },
      { type: "tool-call-delta", index: 1, argumentsText: '{"c":' },
      { type: "tool-call-delta", index: 1, argumentsText: '"P"}' },
      { type: "tool-call-end", index: 1 },
      { type: "finish", reason: "tool-calls" },
      { type: "usage", usage: { inputTokens: 12, outputTokens: 7, source: "" } },
    ];
    const events = runAll(chatStreamEncoder(options), parts).out;
    const sse = events.map((event) => `data: ${event === DONE ? DONE : JSON.stringify(event)}\n\n`).join("");
    const stream = await client(sse, "text/event-stream").chat.completions.create({
      model: "claude-x",
      messages: [{ role: "user", content: "w?" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let args = "";
    const names: string[] = [];
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      const choice = chunk.choices[0];
      text += choice?.delta.content ?? "";
      for (const call of choice?.delta.tool_calls ?? []) {
        if (call.function?.name) names.push(call.function.name);
        args += call.function?.arguments ?? "";
      }
      finish = choice?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(chunks).toBe(events.length - 1);
    expect(text).toBe("Checking.");
    expect(names).toEqual(["get"]);
    expect(JSON.parse(args)).toEqual({ c: "P" });
    expect(finish).toBe("tool_calls");
    expect(usage).toEqual({ prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 });
  });

  test("the SDK's stream helper accumulates our chunks into a final completion", async () => {
    const events = runAll(chatStreamEncoder(options), [
      { type: "response-start", id: "r1", model: "m" },
      { type: "text-delta", index: 0, text: "Hello" },
      { type: "finish", reason: "stop" },
    ]).out;
    const sse = events.map((event) => `data: ${event === DONE ? DONE : JSON.stringify(event)}\n\n`).join("");
    const runner = client(sse, "text/event-stream").chat.completions.stream({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
    });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe("Hello");
    expect(final.choices[0]?.finish_reason).toBe("stop");
  });

  test("a mid-stream error from our encoder makes the SDK throw instead of ending normally", async () => {
    const events = runAll(chatStreamEncoder(options), [
      { type: "response-start", id: "r1" },
      { type: "text-delta", index: 0, text: "Hal" },
      {
        type: "error",
        error: { status: 529, kind: "overloaded", message: "Overloaded", code: "overloaded_error" },
      },
    ]).out;
    const sse = events.map((event) => `data: ${event === DONE ? DONE : JSON.stringify(event)}\n\n`).join("");
    const stream = await client(sse, "text/event-stream").chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    await expect(async () => {
      for await (const _ of stream) {
        // drain
      }
    }).rejects.toThrow(/Overloaded/);
  });

  test("an encoded error body becomes the SDK's typed error with our message", async () => {
    const { status, body } = encodeChatError({
      status: 429,
      kind: "rate_limit",
      message: "Slow down",
      code: "rate_limit_error",
    });
    const call = client(JSON.stringify(body), "application/json", status).chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
    });
    await expect(call).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await expect(call).rejects.toMatchObject({ status: 429, code: "rate_limit_error" });
  });
});
