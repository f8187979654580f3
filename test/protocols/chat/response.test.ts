import { describe, expect, test } from "vitest";
import { wrapCarried } from "../../../src/common/carrier";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import { resolvePointer } from "../../../src/common/pointer";
import { withCarrier } from "../../../src/protocols/chat/carrier";
import { decodeChatResponse, encodeChatResponse } from "../../../src/protocols/chat/response";
import * as chat from "../../../src/protocols/chat/schema";
import { chatFixtures, readJson } from "./fixtures";

const options = resolveOptions({ created: 1700000000 });
const kinds = (losses: readonly { path: string; kind: string }[]) =>
  losses.map(({ path, kind }) => ({ path, kind }));

describe("decodeChatResponse", () => {
  test("decodes reasoning, text with annotations, tool calls, finish reason and usage", () => {
    const body = chat.response.parse({
      id: "c",
      object: "chat.completion",
      created: 5,
      model: "m",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          logprobs: null,
          message: {
            role: "assistant",
            content: "A",
            reasoning_content: "t",
            refusal: null,
            annotations: [{ type: "url_citation", url_citation: { url: "u" } }],
            tool_calls: [{ id: "", type: "function", function: { name: "f", arguments: "{}" } }],
          },
        },
      ],
      usage: {
        prompt_tokens: 9888,
        completion_tokens: 12,
        total_tokens: 9900,
        prompt_tokens_details: { cached_tokens: 6752 },
        completion_tokens_details: { reasoning_tokens: 2 },
      },
    });
    const { value, losses } = decodeChatResponse(body, options);
    expect(value).toEqual({
      id: "c",
      model: "m",
      created: 5,
      createdSource: "/created",
      choices: [
        {
          index: 0,
          finishReason: "tool-calls",
          rawFinishReason: "tool_calls",
          finishReasonSource: "/choices/0/finish_reason",
          // chat's own spellings of "nothing", for chat itself to restore (accumulate/replay).
          extra: { origin: "chat", raw: { choice: { logprobs: null }, message: { refusal: null } } },
          source: "/choices/0",
          parts: [
            { type: "reasoning", text: "t", origin: "chat", source: "/choices/0/message/reasoning_content" },
            {
              type: "text",
              text: "A",
              citations: {
                origin: "chat",
                items: [{ type: "url_citation", url_citation: { url: "u" } }],
                source: "/choices/0/message/annotations",
              },
              source: "/choices/0/message/content",
            },
            // Gemini's OpenAI-compatible endpoint sends empty ids: they count as absent (chat keeps "").
            {
              type: "tool-call",
              extra: { origin: "chat", raw: { id: "" } },
              name: "f",
              arguments: {},
              argumentsText: "{}",
              argumentsSource: "/choices/0/message/tool_calls/0/function/arguments",
              source: "/choices/0/message/tool_calls/0",
            },
          ],
        },
      ],
      usage: {
        inputTokens: 9888,
        outputTokens: 12,
        cacheReadTokens: 6752,
        reasoningTokens: 2,
        totalTokens: 9900,
        source: "/usage",
      },
    });
    expect(losses).toEqual([]);
  });

  test.each(chatFixtures.filter((entry) => entry.kind === "response").map((entry) => entry.path))(
    "decodes fixture %s, re-encodes it validly, and every loss resolves in it",
    (path) => {
      const body = chat.response.parse(readJson(path));
      const decoded = decodeChatResponse(body, options);
      for (const entry of decoded.losses) expect(resolvePointer(body, entry.path).found).toBe(true);
      const encoded = encodeChatResponse(decoded.value, options);
      expect(chat.response.safeParse(encoded.value).success).toBe(true);
      expect(encoded.value.usage?.prompt_tokens).toBe(body.usage?.prompt_tokens);
      // A content array (Mistral) is re-encoded as its text; its thinking chunks become reasoning.
      const content = body.choices[0]?.message.content ?? null;
      const text = Array.isArray(content)
        ? content.map((part) => (part.type === "text" ? (part as { text: string }).text : "")).join("")
        : content;
      expect(encoded.value.choices[0]?.message.content ?? null).toBe(text);
    },
  );
});

describe("encodeChatResponse", () => {
  const response = (parts: common.Part[], extra: Partial<common.Choice> = {}): common.Response => ({
    choices: [{ index: 0, parts, finishReason: "stop", source: "/candidates/0", ...extra }],
  });

  test("joins text, keeps reasoning separately and says tool_calls when calls are present", () => {
    const { value, losses } = encodeChatResponse(
      {
        id: "m1",
        model: "c",
        choices: [
          {
            index: 0,
            finishReason: "stop",
            source: "",
            parts: [
              {
                type: "reasoning",
                text: "t",
                signature: "s",
                signatureSource: "/content/0/signature",
                origin: "messages",
                source: "/content/0",
              },
              { type: "text", text: "A", source: "/content/1" },
              { type: "text", text: "B", source: "/content/2" },
              { type: "tool-call", id: "u1", name: "f", arguments: { a: 1 }, source: "/content/3" },
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
      },
      options,
    );
    expect(value).toEqual({
      id: "m1",
      object: "chat.completion",
      created: 1700000000,
      model: "c",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          // Required by the description: null when none (the service writes them so).
          logprobs: null,
          message: {
            role: "assistant",
            content: "AB",
            refusal: null,
            reasoning_content: "t",
            // The thinking signature rides home in the next call's id (issue 29, chat/carrier.ts).
            tool_calls: [
              {
                id: withCarrier(
                  "u1",
                  wrapCarried({
                    origin: "messages",
                    entries: [{ reasoning: { text: "t", signature: "s" } }],
                  }) as string,
                ),
                type: "function",
                function: { name: "f", arguments: '{"a":1}' },
              },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 1203,
        completion_tokens: 50,
        total_tokens: 1253,
        prompt_tokens_details: { cached_tokens: 1000, cache_write_tokens: 200 },
      },
    });
    expect(kinds(losses)).toEqual([]);
  });

  test("maps refusals and safety finishes to content_filter", () => {
    const { value } = encodeChatResponse(
      response([{ type: "refusal", text: "no", source: "/r" }], { finishReason: "content-filter" }),
      options,
    );
    expect(value.choices[0]).toEqual({
      index: 0,
      finish_reason: "content_filter",
      logprobs: null,
      message: { role: "assistant", content: null, refusal: "no" },
    });
  });

  test("an error finish becomes stop with an approximated loss at the choice", () => {
    const { value, losses } = encodeChatResponse(
      response([], { finishReason: "error", rawFinishReason: "MALFORMED_FUNCTION_CALL" }),
      options,
    );
    expect(value.choices[0]?.finish_reason).toBe("stop");
    expect(kinds(losses)).toEqual([{ path: "/candidates/0", kind: "approximated" }]);
  });

  test("a blocked prompt without candidates becomes a content_filter refusal", () => {
    const { value } = encodeChatResponse(
      {
        choices: [],
        promptBlocked: { reason: "SAFETY", source: "/promptFeedback" },
        usage: { inputTokens: 7, outputTokens: 0, totalTokens: 7, source: "/u" },
      },
      resolveOptions({ created: 1, idPrefix: "gp" }),
    );
    // Without an id, one is derived from what the response carries (common/digest.ts).
    expect(value.id).toMatch(/^gp_chatcmpl_[0-9a-z]{11}$/);
    expect(value).toEqual({
      id: value.id,
      object: "chat.completion",
      created: 1,
      model: "",
      choices: [
        {
          index: 0,
          finish_reason: "content_filter",
          logprobs: null,
          message: { role: "assistant", content: null, refusal: "Prompt blocked: SAFETY" },
        },
      ],
      usage: { prompt_tokens: 7, completion_tokens: 0, total_tokens: 7 },
    });
  });

  test("keeps the source's total and reasoning tokens", () => {
    const { value } = encodeChatResponse(
      {
        choices: [],
        usage: {
          inputTokens: 20,
          outputTokens: 603,
          cacheReadTokens: 8,
          reasoningTokens: 405,
          totalTokens: 623,
          source: "/u",
        },
      },
      options,
    );
    expect(value.usage).toEqual({
      prompt_tokens: 20,
      completion_tokens: 603,
      total_tokens: 623,
      prompt_tokens_details: { cached_tokens: 8 },
      completion_tokens_details: { reasoning_tokens: 405 },
    });
  });
});

describe("replay and accumulate through the chat reducers", () => {
  test("accumulating the replay of a chat response gives the response back", async () => {
    const { accumulate, replay } = await import("../../../src/stream/accumulate");
    const body = {
      id: "c",
      object: "chat.completion",
      created: 5,
      model: "m",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: "A",
            reasoning_content: "t",
            tool_calls: [{ id: "x", type: "function", function: { name: "f", arguments: '{"a": 1}' } }],
          },
        },
      ],
      usage: {
        prompt_tokens: 3,
        completion_tokens: 4,
        total_tokens: 7,
        prompt_tokens_details: { cached_tokens: 1 },
      },
    };
    expect(accumulate("chat", replay("chat", chat.response.parse(body)))).toEqual(body);
  });
});
