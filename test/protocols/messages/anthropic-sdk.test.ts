/**
 * The official `@anthropic-ai/sdk` client reads what our encoders produce: a whole response and an SSE
 * stream, both encoded from one common value and served by a custom `fetch` (no network).
 */

import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, test } from "vitest";
import { wrapCarried } from "../../../src/common/carrier";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import { encodeMessagesResponse } from "../../../src/protocols/messages/response";
import { messagesStreamEncoder } from "../../../src/protocols/messages/stream-encode";
import { endOnce, stepOnce } from "../../helpers/reducer";

const options = resolveOptions({ idPrefix: "gp" });

const value: common.Response = {
  id: "resp_1",
  model: "gemini-2.5-flash",
  choices: [
    {
      index: 0,
      parts: [
        { type: "reasoning", text: "Think.", origin: "generative", source: "/p/0" },
        { type: "text", text: "Hello, world", source: "/p/1" },
        { type: "tool-call", name: "lookup", arguments: { q: "x", n: [1, 2] }, source: "/p/2" },
      ],
      finishReason: "stop",
      source: "/candidates/0",
    },
  ],
  usage: { inputTokens: 30, outputTokens: 12, cacheReadTokens: 10, source: "/usageMetadata" },
};

/** The stream of `value`, split the way an upstream would send it. */
const parts: common.StreamPart[] = [
  {
    type: "response-start",
    id: "resp_1",
    model: "gemini-2.5-flash",
    usage: { inputTokens: 30, outputTokens: 0, cacheReadTokens: 10, source: "" },
  },
  { type: "reasoning-start", index: 0, origin: "generative" },
  { type: "reasoning-delta", index: 0, text: "Thi" },
  { type: "reasoning-delta", index: 0, text: "nk." },
  { type: "reasoning-end", index: 0 },
  { type: "text-start", index: 1 },
  { type: "text-delta", index: 1, text: "Hello, " },
  { type: "text-delta", index: 1, text: "world" },
  { type: "text-end", index: 1 },
  { type: "tool-call-start", index: 2, name: "lookup" },
  { type: "tool-call-delta", index: 2, argumentsText: '{"q":"x",' },
  { type: "tool-call-delta", index: 2, argumentsText: '"n":[1,2]}' },
  { type: "tool-call-end", index: 2 },
  { type: "finish", reason: "stop" },
  { type: "usage", usage: { inputTokens: 30, outputTokens: 12, cacheReadTokens: 10, source: "" } },
];

function sseBody(): string {
  const encoder = messagesStreamEncoder(options);
  let state = encoder.initial;
  const events: unknown[] = [];
  for (const part of parts) {
    const step = stepOnce(encoder, state, part);
    state = step.state;
    events.push(...step.out);
  }
  events.push(...endOnce(encoder, state).out);
  return events
    .map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join("");
}

function client(body: string, contentType: string): Anthropic {
  const fetch = async (_url: string | URL | Request, _init?: RequestInit) =>
    new Response(body, { status: 200, headers: { "content-type": contentType, "request-id": "req_1" } });
  return new Anthropic({ apiKey: "test", baseURL: "http://local.test", fetch, maxRetries: 0 });
}

const params = { model: "claude-x", max_tokens: 100, messages: [{ role: "user" as const, content: "hi" }] };

describe("the Anthropic SDK reads our encoders' output", () => {
  test("client.messages.create returns our blocks, stop_reason and usage", async () => {
    const body = JSON.stringify(encodeMessagesResponse(value, options).value);
    const message = await client(body, "application/json").messages.create(params);
    expect(message.content).toEqual([
      // Generative's thought goes home to generative: its origin rides in the signature (issue 29).
      {
        type: "thinking",
        thinking: "Think.",
        signature: wrapCarried({ origin: "generative", entries: [{ reasoning: {} }] }),
      },
      { type: "text", text: "Hello, world" },
      { type: "tool_use", id: "gp_resp_1_0", name: "lookup", input: { q: "x", n: [1, 2] } },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage).toMatchObject({
      input_tokens: 20,
      cache_read_input_tokens: 10,
      cache_creation_input_tokens: 0,
      output_tokens: 12,
    });
  });

  test("client.messages.stream(...).finalMessage() assembles the same message", async () => {
    const whole = encodeMessagesResponse(value, options).value;
    const stream = client(sseBody(), "text/event-stream").messages.stream(params);
    const texts: string[] = [];
    stream.on("text", (text) => texts.push(text));
    const message = await stream.finalMessage();
    expect(texts).toEqual(["Hello, ", "world"]);
    expect(message.content).toEqual(whole.content);
    expect(message.stop_reason).toBe(whole.stop_reason);
    expect(message.id).toBe(whole.id);
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 12, cache_read_input_tokens: 10 });
  });

  test("a mid-stream error event makes the SDK stream reject with the error", async () => {
    const encoder = messagesStreamEncoder(options);
    const first = stepOnce(encoder, encoder.initial, { type: "text-delta", index: 0, text: "Hal" });
    const failed = stepOnce(encoder, first.state, {
      type: "error",
      error: { status: 529, kind: "overloaded", message: "Overloaded" },
    });
    const body = [...first.out, ...failed.out]
      .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      .join("");
    const stream = client(body, "text/event-stream").messages.stream(params);
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
  });
});
