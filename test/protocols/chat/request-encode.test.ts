import { describe, expect, test } from "vitest";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import { encodeChatRequest } from "../../../src/protocols/chat/request";
import * as chat from "../../../src/protocols/chat/schema";

const options = resolveOptions({});
const base: common.Request = { model: "m", stream: false, system: [], messages: [], tools: [] };
const user = (text: string, source = "/messages/0"): common.Message => ({
  role: "user",
  parts: [{ type: "text", text, source: `${source}/content/0` }],
  source,
});
const kinds = (losses: readonly { path: string; kind: string }[]) =>
  losses.map(({ path, kind }) => ({ path, kind }));

describe("encodeChatRequest", () => {
  test("puts system blocks on top as system messages, keeping a chat developer role; a cache hint is a breakpoint (OpenAI) or dropped (a compatible dialect)", () => {
    const { value, losses } = encodeChatRequest(
      {
        ...base,
        system: [
          { text: "A", source: "/system/0" },
          { text: "B", source: "/system/1", cache: { type: "ephemeral", source: "/system/1/cache_control" } },
          { text: "D", role: "developer", source: "/messages/3" },
        ],
        messages: [user("hi")],
      },
      options,
    );
    expect(value.messages).toEqual([
      {
        role: "system",
        content: [
          { type: "text", text: "A" },
          { type: "text", text: "B", prompt_cache_breakpoint: { mode: "explicit" } },
        ],
      },
      { role: "developer", content: "D" },
      { role: "user", content: "hi" },
    ]);
    expect(losses).toEqual([]);
    expect(chat.request.safeParse(value).success).toBe(true);
    const compatible = encodeChatRequest(
      {
        ...base,
        system: [
          { text: "B", source: "/system/1", cache: { type: "ephemeral", source: "/system/1/cache_control" } },
        ],
        messages: [user("hi")],
      },
      { ...options, chatDialect: "compatible" },
    );
    expect(compatible.value.messages[0]).toEqual({ role: "system", content: "B" });
    expect(kinds(compatible.losses)).toEqual([{ path: "/system/1/cache_control", kind: "dropped" }]);
  });

  test("emits tool results as tool messages first, then the rest of the user turn", () => {
    const { value, losses } = encodeChatRequest(
      {
        ...base,
        messages: [
          user("go"),
          {
            role: "assistant",
            parts: [
              {
                type: "tool-call",
                id: "t1",
                name: "f",
                arguments: { a: 1 },
                source: "/messages/1/content/0",
              },
            ],
            source: "/messages/1",
          },
          {
            role: "user",
            parts: [
              { type: "text", text: "thanks", source: "/messages/2/content/0" },
              {
                type: "tool-result",
                callId: "t1",
                content: [
                  { type: "text", text: "a", source: "/messages/2/content/1/content/0" },
                  { type: "text", text: "b", source: "/messages/2/content/1/content/1" },
                ],
                isError: true,
                source: "/messages/2/content/1",
              },
            ],
            source: "/messages/2",
          },
        ],
      },
      options,
    );
    expect(value.messages).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "t1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
      },
      { role: "tool", tool_call_id: "t1", content: "a\nb" },
      { role: "user", content: "thanks" },
    ]);
    expect(kinds(losses)).toEqual([{ path: "/messages/2/content/1", kind: "approximated" }]);
  });

  test("moves images out of tool results into a user message after the tool messages", () => {
    const { value, losses } = encodeChatRequest(
      {
        ...base,
        messages: [
          {
            role: "user",
            parts: [
              {
                type: "tool-result",
                callId: "t",
                content: [
                  { type: "text", text: "done", source: "/r/content/0" },
                  {
                    type: "media",
                    kind: "image",
                    mediaType: "image/png",
                    data: "iVBO",
                    source: "/r/content/1",
                  },
                ],
                source: "/r",
              },
            ],
            source: "/messages/0",
          },
        ],
      },
      options,
    );
    expect(value.messages).toEqual([
      { role: "tool", tool_call_id: "t", content: "done" },
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBO" } }] },
    ]);
    expect(kinds(losses)).toEqual([{ path: "/r/content/1", kind: "approximated" }]);
  });

  test("keeps reasoning of any origin as reasoning_content and drops its signature with a loss", () => {
    const { value, losses } = encodeChatRequest(
      {
        ...base,
        messages: [
          user("x"),
          {
            role: "assistant",
            parts: [
              {
                type: "reasoning",
                text: "plan",
                signature: "s",
                signatureSource: "/messages/1/content/0/signature",
                origin: "messages",
                source: "/messages/1/content/0",
              },
              {
                type: "reasoning",
                text: "",
                redacted: "opaque",
                origin: "messages",
                source: "/messages/1/content/1",
              },
              { type: "text", text: "A", source: "/messages/1/content/2" },
              { type: "text", text: "B", source: "/messages/1/content/3" },
            ],
            source: "/messages/1",
          },
        ],
      },
      options,
    );
    expect(value.messages[1]).toEqual({ role: "assistant", content: "AB", reasoning_content: "plan" });
    expect(kinds(losses)).toEqual([
      { path: "/messages/1/content/0/signature", kind: "dropped" },
      { path: "/messages/1/content/1", kind: "dropped" },
    ]);
  });

  test("synthesizes missing call ids deterministically and matches id-less results by name", () => {
    const request: common.Request = {
      ...base,
      messages: [
        user("x"),
        {
          role: "assistant",
          parts: [{ type: "tool-call", name: "f", arguments: {}, source: "/contents/1/parts/0" }],
          source: "/contents/1",
        },
        {
          role: "user",
          parts: [
            {
              type: "tool-result",
              name: "f",
              content: [{ type: "text", text: "r", source: "/p" }],
              source: "/contents/2/parts/0",
            },
          ],
          source: "/contents/2",
        },
      ],
    };
    const first = encodeChatRequest(request, options);
    expect(first.value.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "gp_req1_0", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "gp_req1_0", content: "r" },
    ]);
    expect(kinds(first.losses)).toEqual([{ path: "/contents/1/parts/0/id", kind: "synthesized" }]);
    expect(JSON.stringify(encodeChatRequest(request, options))).toBe(JSON.stringify(first));
  });

  test("sends the output budget as max_completion_tokens and forwards explicit zero/false values", () => {
    const { value, losses } = encodeChatRequest(
      {
        ...base,
        messages: [user("x")],
        maxTokens: { value: 0, source: "/max_tokens" },
        temperature: { value: 0, source: "/temperature" },
        seed: { value: 0, source: "/seed" },
        logprobs: { value: false, source: "/logprobs" },
        user: { value: "", source: "/metadata/user_id" },
      },
      options,
    );
    expect(value).toMatchObject({
      max_completion_tokens: 0,
      temperature: 0,
      seed: 0,
      logprobs: false,
      user: "",
    });
    expect(value.max_tokens).toBeUndefined();
    expect(losses).toEqual([]);
  });

  test("keeps at most four stop sequences, dropping each of the rest with its own loss", () => {
    const { value, losses } = encodeChatRequest(
      {
        ...base,
        messages: [user("x")],
        stop: { value: ["a", "b", "c", "d", "e", "f"], source: "/stop_sequences" },
      },
      options,
    );
    expect(value.stop).toEqual(["a", "b", "c", "d"]);
    expect(kinds(losses)).toEqual([
      { path: "/stop_sequences/4", kind: "dropped" },
      { path: "/stop_sequences/5", kind: "dropped" },
    ]);
  });

  test("clamps temperature above 2 and drops top_k", () => {
    const { value, losses } = encodeChatRequest(
      {
        ...base,
        messages: [user("x")],
        temperature: { value: 2.5, source: "/generationConfig/temperature" },
        topK: { value: 40, source: "/generationConfig/topK" },
      },
      options,
    );
    expect(value.temperature).toBe(2);
    expect(kinds(losses)).toEqual([
      { path: "/generationConfig/topK", kind: "dropped" },
      { path: "/generationConfig/temperature", kind: "clamped" },
    ]);
  });

  test("maps a thinking budget to an effort bucket as an approximation", () => {
    const encode = (budgetTokens: number) =>
      encodeChatRequest(
        {
          ...base,
          messages: [user("x")],
          reasoning: { budgetTokens, budgetSource: "/thinking/budget_tokens", source: "/thinking" },
        },
        options,
      );
    expect(encode(1024).value.reasoning_effort).toBe("low");
    expect(encode(8192).value.reasoning_effort).toBe("medium");
    expect(encode(8193).value.reasoning_effort).toBe("high");
    expect(kinds(encode(16000).losses)).toEqual([{ path: "/thinking/budget_tokens", kind: "approximated" }]);
    const disabled = encodeChatRequest(
      { ...base, messages: [user("x")], reasoning: { enabled: false, source: "/thinking" } },
      options,
    );
    expect(disabled.value.reasoning_effort).toBeUndefined();
  });

  test("maps response formats, tool choice, parallel calls and user", () => {
    const { value } = encodeChatRequest(
      {
        ...base,
        messages: [user("x")],
        tools: [{ type: "function", name: "f", source: "/tools/0" }],
        toolChoice: { type: "required", source: "/tool_choice" },
        parallelToolCalls: { value: false, source: "/tool_choice/disable_parallel_tool_use" },
        responseFormat: {
          type: "json-schema",
          schema: { type: "object" },
          name: "r",
          strict: true,
          source: "/response_format",
        },
      },
      options,
    );
    expect(value).toMatchObject({
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object", properties: {} } } }],
      tool_choice: "required",
      parallel_tool_calls: false,
      response_format: {
        type: "json_schema",
        json_schema: { name: "r", schema: { type: "object" }, strict: true },
      },
    });
    const named = encodeChatRequest(
      {
        ...base,
        messages: [user("x")],
        tools: [],
        toolChoice: { type: "tool", name: "f", source: "/tool_choice" },
        responseFormat: { type: "json", source: "/r" },
      },
      options,
    ).value;
    expect(named.tool_choice).toEqual({ type: "function", function: { name: "f" } });
    expect(named.response_format).toEqual({ type: "json_object" });
  });

  test("drops provider tools of another protocol and images it cannot carry", () => {
    const { value, losses } = encodeChatRequest(
      {
        ...base,
        messages: [
          {
            role: "user",
            parts: [
              {
                type: "media",
                kind: "audio",
                mediaType: "audio/ogg",
                data: "T2dn",
                source: "/messages/0/content/0",
              },
            ],
            source: "/messages/0",
          },
        ],
        tools: [
          {
            type: "provider",
            origin: "messages",
            raw: { type: "web_search_20250305" },
            label: "web_search tool",
            source: "/tools/0",
          },
        ],
      },
      options,
    );
    expect(value.messages).toEqual([{ role: "user", content: "" }]);
    expect(value.tools).toBeUndefined();
    expect(kinds(losses)).toEqual([
      { path: "/messages/0/content/0", kind: "dropped" },
      { path: "/tools/0", kind: "dropped" },
    ]);
  });

  test("asks for the usage chunk when streaming unless the source said otherwise", () => {
    expect(
      encodeChatRequest({ ...base, stream: true, messages: [user("x")] }, options).value.stream_options,
    ).toEqual({ include_usage: true });
    expect(
      encodeChatRequest(
        { ...base, stream: true, messages: [user("x")], includeUsage: { value: false, source: "/s" } },
        options,
      ).value.stream_options,
    ).toEqual({ include_usage: false });
  });
});
