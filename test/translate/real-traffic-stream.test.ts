/**
 * Issue 13 ("Real traffic"), the stream items of its Why list, one pinned test each: recorded chat
 * streams of Mistral (thinking chunks in `delta.content`) and OpenRouter (`reasoning_details` with a
 * signature) parse and keep their reasoning state, as does a Gemini-compatible call's `extra_content`;
 * an OpenAI audio answer's transcript is text, in a stream as in a whole response, and its audio a
 * reported loss. What the chat stream encoder sends each dialect: test/protocols/chat/stream-dialect.test.ts.
 */

import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { wrapCarried } from "../../src/common/carrier";
import { accumulate, chat, messages, translateResponse } from "../../src/index";
import { messagesGrammar } from "../../src/testing/grammar";
import { recordedEvents } from "../helpers/fixtures";
import { translateEvents } from "../helpers/translate";

const kinds = (losses: readonly { path: string; kind: string }[]) =>
  losses.map(({ path, kind }) => ({ path, kind }));

const sse = (events: readonly unknown[], named = false) =>
  events
    .map((event) => {
      const data = typeof event === "string" ? event : JSON.stringify(event);
      return named ? `event: ${(event as { type: string }).type}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
    })
    .join("");

const serving = (body: string) => async () =>
  new Response(body, { headers: { "content-type": "text/event-stream" } });

/** The signature of the recorded OpenRouter stream (its one `reasoning_details` entry that has one). */
function recordedSignature(events: readonly unknown[]): string {
  for (const event of events) {
    const details = (event as chat.Chunk).choices?.[0]?.delta.reasoning_details ?? [];
    for (const detail of details)
      if (detail.signature != null && detail.signature !== "") return detail.signature;
  }
  throw new Error("no signature recorded");
}

describe("Mistral thinking chunks in stream deltas", () => {
  const events = recordedEvents("chat/stream/mistral-reasoning.sse");
  const thinking = "The user is asking for 2+2. This is basic arithmetic. 2+2=4.";

  test("every recorded chunk parses with the chat event schema", () => {
    for (const event of events) expect(chat.streamEvent.safeParse(event).error?.issues ?? []).toEqual([]);
  });

  test("the thinking chunks become a thinking block and the text chunk a text block, nothing lost", () => {
    const { out, losses } = translateEvents("chat", "messages", events);
    expect(messagesGrammar(out)).toEqual([]);
    expect(accumulate("messages", out as never).content).toEqual([
      // chat's reasoning goes home to chat: its origin rides in the signature (issue 29).
      {
        type: "thinking",
        thinking,
        signature: wrapCarried({ origin: "chat", entries: [{ reasoning: {} }] }),
      },
      { type: "text", text: "2 + 2 = 4" },
    ]);
    expect(losses).toEqual([]);
    const whole = accumulate("chat", events as never);
    expect(whole.choices[0]?.message).toMatchObject({ content: "2 + 2 = 4", reasoning_content: thinking });
  });

  test("null annotations and reasoning_details in a delta say nothing (vLLM, OpenRouter)", () => {
    const chunk = {
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [
        {
          index: 0,
          delta: { role: "assistant", content: "Hi", annotations: null, reasoning_details: null },
          finish_reason: "stop",
        },
      ],
    };
    expect(chat.streamEvent.safeParse(chunk).success).toBe(true);
    const { out, losses } = translateEvents("chat", "messages", [chunk, "[DONE]"]);
    expect(accumulate("messages", out as never).content).toEqual([{ type: "text", text: "Hi" }]);
    expect(losses).toEqual([]);
  });

  test("the AI SDK's messages provider reads the translated stream's reasoning and text", async () => {
    const { createAnthropic } = await import("@ai-sdk/anthropic");
    const { streamText } = await import("ai");
    const body = sse(translateEvents("chat", "messages", events).out, true);
    const model = createAnthropic({ apiKey: "x", baseURL: "http://local.test/v1", fetch: serving(body) })(
      "claude-test",
    );
    let reasoning = "";
    let text = "";
    const result = streamText({ model, prompt: "2+2?", maxRetries: 0 });
    for await (const part of result.fullStream) {
      if (part.type === "reasoning-delta") reasoning += part.text;
      if (part.type === "text-delta") text += part.text;
    }
    expect({ reasoning, text }).toEqual({ reasoning: thinking, text: "2 + 2 = 4" });
  });
});

describe("OpenRouter reasoning_details in a stream keep their signature", () => {
  const events = recordedEvents("chat/stream/openrouter-reasoning.sse");
  const signature = recordedSignature(events);
  const thinking = "This is a simple arithmetic question. 2+2 equals 4.";

  test("the recorded signature becomes a signature_delta, the text read once (details, not also `reasoning`)", () => {
    const { out, losses } = translateEvents("chat", "messages", events);
    expect(messagesGrammar(out)).toEqual([]);
    expect(out).toContainEqual({
      type: "content_block_delta",
      index: 0,
      delta: { type: "signature_delta", signature },
    });
    expect(accumulate("messages", out as never).content).toEqual([
      { type: "thinking", thinking, signature },
      { type: "text", text: "2 + 2 = 4" },
    ]);
    expect(losses).toEqual([]);
  });

  test("the Anthropic SDK's finalMessage() holds the signed thinking block", async () => {
    const body = sse(translateEvents("chat", "messages", events).out, true);
    const client = new Anthropic({ apiKey: "x", baseURL: "http://local.test", fetch: serving(body) });
    const message = await client.messages
      .stream({ model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "2+2?" }] })
      .finalMessage();
    expect(message.content[0]).toEqual({ type: "thinking", thinking, signature });
  });

  test("a reasoning.encrypted entry is redacted thinking of the provider its format names", () => {
    const chunk = (delta: object, finish_reason: string | null = null) => ({
      id: "gen-1",
      object: "chat.completion.chunk",
      created: 1,
      model: "anthropic/claude-sonnet-4.5",
      choices: [{ index: 0, delta, finish_reason }],
    });
    const { out, losses } = translateEvents("chat", "messages", [
      chunk({ role: "assistant", content: "" }),
      chunk({
        reasoning_details: [
          {
            type: "reasoning.encrypted",
            data: "EmwKAhgBEgy3va3pzix",
            format: "anthropic-claude-v1",
            index: 0,
          },
        ],
      }),
      chunk({ content: "Done." }),
      chunk({}, "stop"),
      "[DONE]",
    ]);
    expect(accumulate("messages", out as never).content).toEqual([
      { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix" },
      { type: "text", text: "Done." },
    ]);
    expect(losses).toEqual([]);
  });
});

describe("Gemini's thought signature on a streamed call (extra_content) is read, as on a whole response's call", () => {
  const chunk = (delta: object, finish_reason: string | null = null) => ({
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    model: "gemini-3-flash-preview",
    choices: [{ index: 0, delta, finish_reason }],
  });
  const call = { index: 0, id: "fc_1", type: "function", function: { name: "f", arguments: "{}" } };
  const signed = { google: { thought_signature: "c2ln" } };

  test.each([
    [
      "on the call's first delta",
      [chunk({ role: "assistant", tool_calls: [{ ...call, extra_content: signed }] })],
    ],
    [
      "on a later delta of the call",
      [
        chunk({ role: "assistant", tool_calls: [call] }),
        chunk({ tool_calls: [{ index: 0, extra_content: signed }] }),
      ],
    ],
  ])("%s", (_, head) => {
    const { out, losses } = translateEvents("chat", "generative", [
      ...head,
      chunk({}, "tool_calls"),
      "[DONE]",
    ]);
    expect(losses).toEqual([]);
    expect(accumulate("generative", out as never).candidates?.[0]?.content?.parts).toEqual([
      { functionCall: { id: "fc_1", name: "f", args: {} }, thoughtSignature: "c2ln" },
    ]);
  });
});

describe("an OpenAI audio answer's transcript is text, in a stream and in a whole response", () => {
  const head = {
    id: "chatcmpl-a1",
    object: "chat.completion.chunk",
    created: 1,
    model: "gpt-4o-audio-preview",
  };
  const chunk = (delta: object, finish_reason: string | null = null) => ({
    ...head,
    choices: [{ index: 0, delta, finish_reason }],
  });
  // The shape the openai SDK's stream helper assembles (lib/ChatCompletionStream: id, data and transcript
  // pieces, then `expires_at` alone when the audio is done).
  const audioStream = [
    chunk({ role: "assistant", content: null, refusal: null, audio: { id: "audio_1", transcript: "Hel" } }),
    chunk({ audio: { data: "UklGRiQA" } }),
    chunk({ audio: { transcript: "lo." } }),
    chunk({ audio: { data: "AABXQVZF" } }),
    chunk({ audio: { expires_at: 1735689600 } }),
    chunk({}, "stop"),
    "[DONE]",
  ];
  const audioResponse = {
    id: "chatcmpl-a1",
    object: "chat.completion",
    created: 1,
    model: "gpt-4o-audio-preview",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          audio: { id: "audio_1", data: "UklGRiQAAABXQVZF", expires_at: 1735689600, transcript: "Hello." },
        },
        finish_reason: "stop",
      },
    ],
    usage: { prompt_tokens: 17, completion_tokens: 24, total_tokens: 41 },
  };

  test("a stream: the transcript pieces are text; the audio is dropped with one loss", () => {
    for (const event of audioStream) expect(chat.streamEvent.safeParse(event).success).toBe(true);
    const { out, losses } = translateEvents("chat", "messages", audioStream);
    expect(accumulate("messages", out as never).content).toEqual([{ type: "text", text: "Hello." }]);
    // The first chunk that carries audio other than its transcript (its id).
    expect(kinds(losses)).toEqual([{ path: "/0/choices/0/delta/audio", kind: "dropped" }]);
  });

  test("a whole response: the transcript is text; the audio is dropped with a loss at its field", () => {
    const { value, losses } = translateResponse("chat", "messages", audioResponse);
    expect(messages.response.safeParse(value).success).toBe(true);
    expect(value.content).toEqual([{ type: "text", text: "Hello." }]);
    expect(kinds(losses)).toEqual([{ path: "/choices/0/message/audio", kind: "dropped" }]);
  });

  test("an empty audio placeholder (Snowflake Cortex sends one on every message) says nothing", () => {
    const placeholder = { id: "", data: "", expires_at: 0, transcript: "" };
    const body = {
      ...audioResponse,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Hi", audio: placeholder },
          finish_reason: "stop",
        },
      ],
    };
    const { value, losses } = translateResponse("chat", "messages", body);
    expect(value.content).toEqual([{ type: "text", text: "Hi" }]);
    expect(losses).toEqual([]);
    const { out, losses: streamed } = translateEvents("chat", "messages", [
      chunk({ role: "assistant", content: "Hi", audio: placeholder }),
      chunk({}, "stop"),
      "[DONE]",
    ]);
    expect(accumulate("messages", out as never).content).toEqual([{ type: "text", text: "Hi" }]);
    expect(streamed).toEqual([]);
  });

  test("the stream read by the openai SDK, translated whole, equals the translated stream, accumulated", async () => {
    const client = new OpenAI({
      apiKey: "x",
      baseURL: "http://local.test/v1",
      fetch: serving(sse(audioStream)),
    });
    const final = await client.chat.completions
      .stream({ model: "gpt-4o-audio-preview", messages: [{ role: "user", content: "Hi" }] })
      .finalChatCompletion();
    expect(final.choices[0]?.message.audio?.transcript).toBe("Hello.");
    const viaResponse = translateResponse("chat", "messages", final).value;
    const viaStream = accumulate("messages", translateEvents("chat", "messages", audioStream).out as never);
    expect(viaStream.content).toEqual(viaResponse.content);
    expect(viaStream.stop_reason).toBe(viaResponse.stop_reason);
  });
});
