/**
 * What the chat stream encoder sends each `options.chatDialect` (dialect.ts): reasoning in the field the
 * upstream reads, toward OpenRouter also as `reasoning_details` with signatures and redacted reasoning
 * (so a messages thinking stream → OpenRouter-style chat → messages again keeps them), and a Gemini
 * thought signature as a call's `extra_content`; accumulating the translated stream equals translating
 * the accumulated response in every dialect (the stream/response commutation law, by example).
 */

import { describe, expect, test } from "vitest";
import type { ChatDialect } from "../../../src/common/options";
import { accumulate, chat, translateResponse } from "../../../src/index";
import { splitId } from "../../../src/protocols/chat/carrier";
import { chatGrammar, messagesGrammar } from "../../../src/testing/grammar";
import { normalize } from "../../../src/testing/normalize";
import { recordedEvents } from "../../helpers/fixtures";
import { translateEvents } from "../../helpers/translate";

const dialects: ChatDialect[] = ["openai", "compatible", "deepseek", "openrouter", "qwen", "vllm"];

describe("the chat stream encoder writes reasoning the way each dialect's upstream does", () => {
  const thinkingStream = recordedEvents("messages/stream/anthropic-thinking.sse");
  const redactedStream = recordedEvents("messages/stream/anthropic-redacted-thinking.sse");

  /** The reasoning fields the translated chat deltas carry. */
  const reasoningFields = (out: readonly unknown[]) => {
    const fields = new Set<string>();
    for (const event of out) {
      const delta = (event as chat.Chunk).choices?.[0]?.delta ?? {};
      for (const key of ["reasoning_content", "reasoning", "reasoning_details"])
        if ((delta as Record<string, unknown>)[key] != null) fields.add(key);
    }
    return [...fields].sort();
  };

  test.each([
    ["openai", ["reasoning_content"]],
    ["compatible", ["reasoning_content"]],
    ["deepseek", ["reasoning_content"]],
    ["qwen", ["reasoning_content"]],
    ["vllm", ["reasoning"]],
    ["openrouter", ["reasoning", "reasoning_details"]],
  ] as const)("%s: thinking goes as %j", (dialect, fields) => {
    const { out } = translateEvents("messages", "chat", thinkingStream, { chatDialect: dialect, created: 1 });
    expect(chatGrammar(out)).toEqual([]);
    for (const event of out) expect(chat.streamEvent.safeParse(event).success).toBe(true);
    expect(reasoningFields(out)).toEqual(fields);
  });

  test.each(dialects.filter((dialect) => dialect !== "openrouter"))(
    "%s: the signature and redacted thinking cannot go, and each is a loss",
    (dialect) => {
      const signed = translateEvents("messages", "chat", thinkingStream, {
        chatDialect: dialect,
        created: 1,
      });
      expect(signed.losses.map((item) => item.kind)).toEqual(["dropped"]);
      const redacted = translateEvents("messages", "chat", redactedStream, {
        chatDialect: dialect,
        created: 1,
      });
      expect(redacted.losses.map((item) => item.kind)).toEqual(["dropped", "dropped"]);
    },
  );

  test.each([
    ["a signed thinking stream", thinkingStream],
    ["a redacted thinking stream", redactedStream],
  ])("openrouter: %s → chat → messages again keeps every block, signature and data", (_, source) => {
    const there = translateEvents("messages", "chat", source, { chatDialect: "openrouter", created: 1 });
    expect(there.losses).toEqual([]);
    const back = translateEvents("chat", "messages", there.out);
    expect(back.losses).toEqual([]);
    expect(messagesGrammar(back.out)).toEqual([]);
    expect(accumulate("messages", back.out as never).content).toEqual(
      accumulate("messages", source as never).content,
    );
  });

  test("openrouter: an empty signature (messages opens every thinking block with one) signs nothing", () => {
    // The dialect property shrank to this stream: the whole response must not send `signature: ""` either.
    const events = [
      {
        type: "message_start",
        message: {
          id: "a",
          type: "message",
          role: "assistant",
          model: "",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: 0 },
      },
      { type: "message_stop" },
    ];
    const options = { chatDialect: "openrouter" as const, created: 1 };
    const empty = [{ type: "reasoning.text", text: "", format: "anthropic-claude-v1", index: 0 }];
    const viaStream = accumulate(
      "chat",
      translateEvents("messages", "chat", events, options).out as never,
      options,
    );
    expect(viaStream.choices[0]?.message.reasoning_details).toEqual(empty);
    const whole = translateResponse("messages", "chat", accumulate("messages", events as never), options);
    expect(whole.value.choices[0]?.message.reasoning_details).toEqual(empty);
  });

  test("openrouter: the signature arrives as a reasoning_details entry of its own, as OpenRouter sends it", () => {
    const { out } = translateEvents("messages", "chat", thinkingStream, {
      chatDialect: "openrouter",
      created: 1,
    });
    const signature = (accumulate("messages", thinkingStream as never).content[0] as { signature: string })
      .signature;
    expect(out).toContainEqual(
      expect.objectContaining({
        choices: [
          {
            index: 0,
            delta: {
              reasoning_details: [
                { type: "reasoning.text", signature, format: "anthropic-claude-v1", index: 0 },
              ],
            },
            finish_reason: null,
          },
        ],
      }),
    );
  });

  test.each(dialects)(
    "%s: accumulating the translated stream equals translating the accumulated response",
    (dialect) => {
      for (const source of [thinkingStream, redactedStream]) {
        const options = { chatDialect: dialect, created: 1 };
        const viaStream = accumulate(
          "chat",
          translateEvents("messages", "chat", source, options).out as never,
          options,
        );
        const viaResponse = translateResponse(
          "messages",
          "chat",
          accumulate("messages", source as never),
          options,
        );
        expect(normalize(viaStream)).toEqual(normalize(viaResponse.value));
      }
    },
  );
});

describe("Gemini's thought signature on a call rides extra_content in the dialects that carry it", () => {
  // The property "accumulating the translated stream equals translating the accumulated response" in the
  // compatible dialects shrank to this stream (test/properties/streams.test.ts).
  const signedCall = [
    { candidates: [{ content: { parts: [{ functionCall: { name: "a" }, thoughtSignature: "=" }] } }] },
    { candidates: [{ finishReason: "STOP" }] },
  ];

  test.each(dialects.filter((dialect) => dialect !== "openai"))(
    "%s: the call's first delta carries it, and it comes back to generative",
    (dialect) => {
      const options = { chatDialect: dialect, model: "gemini-3-flash-preview", created: 1 };
      const there = translateEvents("generative", "chat", signedCall, options);
      expect(there.losses.map((item) => item.kind)).toEqual(["synthesized"]);
      const call = (there.out[1] as chat.Chunk).choices[0]?.delta.tool_calls?.[0];
      expect(call?.extra_content).toEqual({ google: { thought_signature: "=" } });
      const back = translateEvents("chat", "generative", there.out);
      expect(back.losses).toEqual([]);
      const parts = accumulate("generative", back.out as never).candidates?.[0]?.content?.parts;
      expect(parts).toEqual([{ functionCall: { id: call?.id, name: "a", args: {} }, thoughtSignature: "=" }]);
    },
  );

  test("openai: OpenAI rejects unknown fields, so the signature rides in the call id (issue 29)", () => {
    const there = translateEvents("generative", "chat", signedCall, {
      model: "gemini-3-flash-preview",
      created: 1,
    });
    expect(JSON.stringify(there.out)).not.toContain("extra_content");
    expect(there.losses.map((item) => item.kind)).toEqual(["synthesized"]);
    const id = accumulate("chat", there.out as never).choices[0]?.message.tool_calls?.[0]?.id ?? "";
    expect(splitId(id, "").carried?.next).toMatchObject({ origin: "generative", value: "=" });
  });
});
