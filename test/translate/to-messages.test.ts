/**
 * Research cases (shared/research/edge-cases.md) whose target is messages, through the public functions.
 * Each asserts the item's `out` facts and its exact loss list (path + kind).
 */
import { describe, expect, test } from "vitest";
import { unwrapCarried } from "../../src/common/carrier";
import type { TranslateOptions } from "../../src/common/options";
import { NOT_ANSWERED } from "../../src/common/tool-pairing";
import * as messages from "../../src/protocols/messages/schema";
import { accumulate, replay } from "../../src/stream/accumulate";
import { createStreamTranslator } from "../../src/stream/translator";
import { messagesGrammar } from "../../src/testing/grammar";
import { translateError, translateRequest, translateResponse } from "../../src/translate";

type From = "chat" | "generative";
const kinds = (losses: readonly { path: string; kind: string }[]) =>
  losses.map(({ path, kind }) => ({ path, kind }));

function request(from: From, body: unknown, options?: TranslateOptions) {
  const result = translateRequest(from, "messages", body, options);
  expect(messages.request.safeParse(result.value).success).toBe(true);
  return { value: result.value, losses: kinds(result.losses) };
}

function response(from: From, body: unknown, options?: TranslateOptions) {
  const result = translateResponse(from, "messages", body, options);
  expect(messages.response.safeParse(result.value).success).toBe(true);
  return { value: result.value, losses: kinds(result.losses) };
}

function stream(from: From, events: unknown[], options?: TranslateOptions) {
  const translator = createStreamTranslator(from, "messages", options);
  const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
  for (const event of out) expect(messages.streamEvent.safeParse(event).success).toBe(true);
  expect(messagesGrammar(out)).toEqual([]);
  return { out, losses: kinds(translator.losses) };
}

describe("requests to messages", () => {
  test("S1: system and developer messages are hoisted in order; the late one is approximated", () => {
    const { value, losses } = request("chat", {
      model: "m",
      messages: [
        { role: "system", content: "A" },
        { role: "user", content: "hi" },
        { role: "developer", content: "B" },
      ],
    });
    expect(value).toMatchObject({
      system: [
        { type: "text", text: "A" },
        { type: "text", text: "B" },
      ],
      messages: [{ role: "user", content: "hi" }],
    });
    expect(losses).toEqual([
      { path: "/messages/2", kind: "approximated" },
      { path: "/max_tokens", kind: "synthesized" },
    ]);
  });

  test("S4: generative systemInstruction parts become system text blocks", () => {
    const { value, losses } = request(
      "generative",
      {
        systemInstruction: { parts: [{ text: "A" }, { text: "B" }] },
        contents: [{ role: "user", parts: [{ text: "hi" }] }],
      },
      { model: "claude-x", maxTokens: 1024 },
    );
    expect(value).toMatchObject({
      model: "claude-x",
      max_tokens: 1024,
      system: [
        { type: "text", text: "A" },
        { type: "text", text: "B" },
      ],
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    });
    expect(losses).toEqual([]);
  });

  test("S5: a system-only request sends its system text as the user turn", () => {
    const { value, losses } = request(
      "chat",
      { model: "m", messages: [{ role: "system", content: "Summarize: foo" }] },
      { maxTokens: 256 },
    );
    expect(value).toMatchObject({ messages: [{ role: "user", content: "Summarize: foo" }] });
    expect(losses).toEqual([{ path: "/messages/0", kind: "synthesized" }]);
  });

  test("R1: a first assistant turn gets a visible placeholder user turn before it", () => {
    const { value, losses } = request(
      "chat",
      {
        model: "m",
        messages: [
          { role: "assistant", content: "Hello!" },
          { role: "user", content: "hi" },
        ],
      },
      { maxTokens: 64 },
    );
    expect(value).toMatchObject({
      messages: [
        { role: "user", content: "." },
        { role: "assistant", content: "Hello!" },
        { role: "user", content: "hi" },
      ],
    });
    expect(losses).toEqual([{ path: "/messages/0", kind: "synthesized" }]);
  });

  test("R2: tool messages and the next user message form one user turn, tool results first", () => {
    const { value, losses } = request(
      "chat",
      {
        model: "m",
        messages: [
          { role: "user", content: "go" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "c1", type: "function", function: { name: "a", arguments: "{}" } },
              { id: "c2", type: "function", function: { name: "b", arguments: "{}" } },
            ],
          },
          { role: "tool", tool_call_id: "c1", content: "1" },
          { role: "tool", tool_call_id: "c2", content: "2" },
          { role: "user", content: "thanks" },
        ],
      },
      { maxTokens: 64 },
    );
    expect(value.messages).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "c1", name: "a", input: {} },
          { type: "tool_use", id: "c2", name: "b", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "c1", content: "1" },
          { type: "tool_result", tool_use_id: "c2", content: "2" },
          { type: "text", text: "thanks" },
        ],
      },
    ]);
    expect(losses).toEqual([]);
  });

  test("R4: an empty assistant content with tool calls becomes tool_use blocks only", () => {
    const { value, losses } = request(
      "chat",
      {
        model: "m",
        messages: [
          { role: "user", content: "q" },
          {
            role: "assistant",
            content: "",
            tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"x":1}' } }],
          },
          { role: "tool", tool_call_id: "c1", content: "ok" },
        ],
      },
      { maxTokens: 64 },
    );
    expect(value.messages).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "f", input: { x: 1 } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "ok" }] },
    ]);
    expect(losses).toEqual([]);
  });

  test("R6: an assistant prefill is trimmed of trailing whitespace", () => {
    const { value, losses } = request(
      "chat",
      {
        model: "m",
        messages: [
          { role: "user", content: "Say a JSON" },
          { role: "assistant", content: "{\n  " },
        ],
      },
      { maxTokens: 64 },
    );
    expect(value.messages).toEqual([
      { role: "user", content: "Say a JSON" },
      { role: "assistant", content: "{" },
    ]);
    expect(losses).toEqual([{ path: "/messages/1/content", kind: "approximated" }]);
  });

  test("T1: a chat tool without parameters gets an empty object input_schema", () => {
    const { value, losses } = request(
      "chat",
      {
        model: "m",
        messages: [{ role: "user", content: "x" }],
        tools: [{ type: "function", function: { name: "now", description: "time" } }],
      },
      { maxTokens: 64 },
    );
    expect(value.tools).toEqual([
      { name: "now", description: "time", input_schema: { type: "object", properties: {} } },
    ]);
    expect(losses).toEqual([]);
  });

  test("C2: parallel_tool_calls false becomes disable_parallel_tool_use inside an auto tool_choice", () => {
    const { value, losses } = request(
      "chat",
      {
        model: "m",
        messages: [{ role: "user", content: "x" }],
        tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
        parallel_tool_calls: false,
      },
      { maxTokens: 64 },
    );
    expect(value.tool_choice).toEqual({ type: "auto", disable_parallel_tool_use: true });
    expect(losses).toEqual([]);
  });

  test("C3: a forced tool choice with thinking is downgraded to auto", () => {
    const { value, losses } = request(
      "chat",
      {
        model: "claude-sonnet-4-5",
        reasoning_effort: "low",
        messages: [{ role: "user", content: "x" }],
        tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
        tool_choice: "required",
      },
      { maxTokens: 4096 },
    );
    expect(value).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 1024 },
      tool_choice: { type: "auto" },
    });
    expect(losses).toEqual([
      { path: "/reasoning_effort", kind: "approximated" },
      { path: "/tool_choice", kind: "approximated" },
    ]);
  });

  test("P1: temperature above 1 is clamped to 1", () => {
    const { value, losses } = request(
      "chat",
      { model: "m", temperature: 1.5, messages: [{ role: "user", content: "x" }] },
      { maxTokens: 64 },
    );
    expect(value.temperature).toBe(1);
    expect(losses).toEqual([{ path: "/temperature", kind: "clamped" }]);
  });

  test("P2: temperature and top_p together keep temperature and drop top_p", () => {
    const { value, losses } = request(
      "chat",
      { model: "m", temperature: 0.7, top_p: 0.9, messages: [{ role: "user", content: "x" }] },
      { maxTokens: 64 },
    );
    expect(value.temperature).toBe(0.7);
    expect(value.top_p).toBeUndefined();
    expect(losses).toEqual([{ path: "/top_p", kind: "dropped" }]);
  });

  test("P5: a missing max_tokens is synthesized as 4096", () => {
    const { value, losses } = request("chat", { model: "m", messages: [{ role: "user", content: "x" }] }, {});
    expect(value.max_tokens).toBe(4096);
    expect(losses).toEqual([{ path: "/max_tokens", kind: "synthesized" }]);
  });

  test("P7: toward a model before structured outputs, a json_schema response format is emulated with a forced json_tool_call tool", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const { value, losses } = request(
      "chat",
      {
        model: "claude-sonnet-4-20250514",
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_schema", json_schema: { name: "r", schema } },
      },
      { maxTokens: 64 },
    );
    expect(value).toMatchObject({
      tools: [{ name: "json_tool_call", input_schema: schema }],
      tool_choice: { type: "tool", name: "json_tool_call" },
    });
    // The schema's name has no place in messages in either mode; saying so is the honest answer.
    expect(losses).toEqual([{ path: "/response_format/json_schema/name", kind: "dropped" }]);
  });

  test.each([
    ["m", undefined],
    ["claude-sonnet-4-5", undefined],
    ["claude-3-5-haiku-latest", "claude-opus-4-5"],
  ] as const)(
    "by default a JSON format goes natively to a model with structured outputs (model %s, targetModel %s)",
    (model, targetModel) => {
      const schema = { type: "object", properties: { a: { type: "string" } } };
      const body = {
        model,
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_schema", json_schema: { name: "r", schema } },
      };
      const { value, losses } = request("chat", body, { maxTokens: 64, targetModel });
      expect(value.output_config).toEqual({ format: { type: "json_schema", schema } });
      expect(value.tools).toBeUndefined();
      expect(losses).toEqual([{ path: "/response_format/json_schema/name", kind: "dropped" }]);
    },
  );

  test.each(["claude-3-7-sonnet-latest", "claude-opus-4-20250514", "claude-sonnet-4-0"])(
    "by default a JSON format toward %s, before structured outputs, is the forced tool",
    (model) => {
      const body = {
        model,
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_object" },
      };
      const { value } = request("chat", body, { maxTokens: 64 });
      expect(value.output_config).toBeUndefined();
      expect(value.tool_choice).toEqual({ type: "tool", name: "json_tool_call" });
    },
  );

  test("P7 with jsonMode native: the schema goes to output_config.format, no tool is added", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false };
    const { value, losses } = request(
      "chat",
      {
        model: "m",
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_schema", json_schema: { name: "r", strict: true, schema } },
      },
      { maxTokens: 64, jsonMode: "native" },
    );
    expect(value.output_config).toEqual({ format: { type: "json_schema", schema } });
    expect(value.tools).toBeUndefined();
    expect(value.tool_choice).toBeUndefined();
    expect(losses).toEqual([{ path: "/response_format/json_schema/name", kind: "dropped" }]);
  });

  test("P7 native: a messages structured-output request survives messages → chat → messages", () => {
    const body = {
      model: "claude-sonnet-4-5",
      max_tokens: 4096,
      messages: [{ role: "user", content: [{ type: "text", text: "Tell me about London" }] }],
      output_config: {
        format: {
          type: "json_schema",
          schema: { type: "object", properties: { city: { type: "string" } }, additionalProperties: false },
        },
      },
    };
    const there = translateRequest("messages", "chat", body);
    const back = translateRequest("chat", "messages", there.value, { jsonMode: "native" });
    expect(back.value.output_config).toEqual(body.output_config);
  });

  test("U3: a tool call without a result gets one saying it was not answered (issue 29)", () => {
    const body = {
      model: "m",
      messages: [
        { role: "user", content: "x" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "a", type: "function", function: { name: "f", arguments: "{}" } },
            { id: "b", type: "function", function: { name: "f", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "a", content: "ok" },
      ],
    };
    const { value, losses } = translateRequest("chat", "messages", body, { maxTokens: 64 });
    expect(value.messages[2]?.content).toContainEqual({
      type: "tool_result",
      tool_use_id: "b",
      content: NOT_ANSWERED,
      is_error: true,
    });
    expect(losses).toContainEqual(
      expect.objectContaining({ path: "/messages/1/tool_calls/1", kind: "synthesized" }),
    );
  });

  test("U9: malformed arguments are wrapped as _raw with an approximated loss", () => {
    const { value, losses } = request(
      "chat",
      {
        model: "m",
        messages: [
          { role: "user", content: "x" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: '{"a":1,' } }],
          },
          { role: "tool", tool_call_id: "c", content: "bad" },
        ],
      },
      { maxTokens: 64 },
    );
    expect(value.messages).toEqual([
      { role: "user", content: "x" },
      { role: "assistant", content: [{ type: "tool_use", id: "c", name: "f", input: { _raw: '{"a":1,' } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "c", content: "bad" }] },
    ]);
    expect(losses).toEqual([{ path: "/messages/1/tool_calls/0/function/arguments", kind: "approximated" }]);
  });

  test("I5: a chat PDF file becomes a base64 document titled with the file name", () => {
    const { value, losses } = request(
      "chat",
      {
        model: "m",
        messages: [
          {
            role: "user",
            content: [
              { type: "file", file: { filename: "a.pdf", file_data: "data:application/pdf;base64,JVBER" } },
              { type: "text", text: "sum" },
            ],
          },
        ],
      },
      { maxTokens: 64 },
    );
    expect(value.messages).toEqual([
      {
        role: "user",
        content: [
          {
            type: "document",
            source: { type: "base64", media_type: "application/pdf", data: "JVBER" },
            title: "a.pdf",
          },
          { type: "text", text: "sum" },
        ],
      },
    ]);
    expect(losses).toEqual([]);
  });

  test("K1: reasoning_effort medium becomes the one table's 8192 budget and max_tokens is raised above it", () => {
    const { value, losses } = request("chat", {
      model: "m",
      reasoning_effort: "medium",
      max_tokens: 1000,
      messages: [{ role: "user", content: "x" }],
    });
    expect(value).toMatchObject({ thinking: { type: "enabled", budget_tokens: 8192 }, max_tokens: 9192 });
    // A level is not a token count: the budget is an approximation, reported at the effort.
    expect(losses).toEqual([
      { path: "/reasoning_effort", kind: "approximated" },
      { path: "/max_tokens", kind: "clamped" },
    ]);
  });

  test("K5: reasoning from another protocol is not replayed to messages", () => {
    const { value, losses } = request(
      "chat",
      {
        model: "m",
        messages: [
          { role: "user", content: "x" },
          { role: "assistant", content: "a", reasoning_content: "thought from deepseek" },
          { role: "user", content: "y" },
        ],
      },
      { maxTokens: 64 },
    );
    expect(value.messages).toEqual([
      { role: "user", content: "x" },
      { role: "assistant", content: "a" },
      { role: "user", content: "y" },
    ]);
    expect(losses).toEqual([{ path: "/messages/1/reasoning_content", kind: "dropped" }]);
  });

  test("K6: thinking is turned off when the tool-use turn has no thinking block", () => {
    const { value, losses } = request("chat", {
      model: "m",
      reasoning_effort: "low",
      max_tokens: 4000,
      messages: [
        { role: "user", content: "x" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c", content: "r" },
      ],
    });
    expect(value.thinking).toBeUndefined();
    expect(losses).toEqual([{ path: "/reasoning_effort", kind: "dropped" }]);
  });
});

describe("responses to messages", () => {
  test("F2: tool calls make stop_reason tool_use even when the source said stop", () => {
    const { value, losses } = response("chat", {
      id: "x",
      object: "chat.completion",
      created: 1,
      model: "llama",
      choices: [
        {
          index: 0,
          finish_reason: "stop",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
          },
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
    expect(value).toMatchObject({
      content: [{ type: "tool_use", id: "c", name: "f", input: {} }],
      stop_reason: "tool_use",
    });
    expect(losses).toEqual([]);
  });

  test("F5: chat usage with cached tokens splits into input and cache reads", () => {
    const { value, losses } = response("chat", {
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "gpt",
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "ok" } }],
      usage: {
        prompt_tokens: 9888,
        completion_tokens: 12,
        total_tokens: 9900,
        prompt_tokens_details: { cached_tokens: 6752 },
      },
    });
    expect(value.usage).toEqual({
      input_tokens: 3136,
      cache_read_input_tokens: 6752,
      cache_creation_input_tokens: 0,
      output_tokens: 12,
    });
    expect(losses).toEqual([]);
  });

  test("K4: generative thoughts come first as thinking marked with their origin; the last text's signature is dropped, as a thinking block after it would hide the answer (issue 29)", () => {
    const { value, losses } = response("generative", {
      responseId: "r",
      modelVersion: "gemini-2.5-pro",
      candidates: [
        {
          index: 0,
          finishReason: "STOP",
          content: {
            role: "model",
            parts: [
              { text: "Let me think", thought: true },
              { text: "42", thoughtSignature: "c2ln" },
            ],
          },
        },
      ],
      usageMetadata: {
        promptTokenCount: 5,
        candidatesTokenCount: 1,
        thoughtsTokenCount: 3,
        totalTokenCount: 9,
      },
    });
    expect(value).toMatchObject({
      id: "r",
      type: "message",
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Let me think" },
        { type: "text", text: "42" },
      ],
      stop_reason: "end_turn",
      usage: { input_tokens: 5, output_tokens: 4 },
    });
    const signatures = value.content.map((block) => (block as { signature?: string }).signature ?? "");
    expect(unwrapCarried(signatures[0] as string)).toEqual({
      origin: "generative",
      entries: [{ reasoning: {} }],
    });
    expect(value.content).toHaveLength(2);
    expect(losses).toEqual([{ path: "/candidates/0/content/parts/1/thoughtSignature", kind: "dropped" }]);
  });

  test("K8: chat reasoning_content becomes a thinking block marked as chat's, so it goes home to chat", () => {
    const { value } = response("chat", {
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "deepseek-reasoner",
      choices: [
        {
          index: 0,
          finish_reason: "stop",
          message: { role: "assistant", content: "4", reasoning_content: "2+2" },
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    });
    expect(value).toMatchObject({
      content: [
        { type: "thinking", thinking: "2+2" },
        { type: "text", text: "4" },
      ],
      stop_reason: "end_turn",
    });
    const signature = (value.content[0] as { signature: string }).signature;
    expect(unwrapCarried(signature)).toEqual({ origin: "chat", entries: [{ reasoning: {} }] });
  });

  test("F1: chat length becomes max_tokens; content_filter becomes refusal", () => {
    const body = (finish: string) => ({
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "g",
      choices: [{ index: 0, finish_reason: finish, message: { role: "assistant", content: "x" } }],
    });
    expect(response("chat", body("length")).value.stop_reason).toBe("max_tokens");
    expect(response("chat", body("content_filter")).value.stop_reason).toBe("refusal");
  });
});

describe("errors to messages", () => {
  test("E2: a chat 429 becomes rate_limit_error", () => {
    expect(
      translateError("chat", "messages", {
        status: 429,
        body: {
          error: {
            message: "Rate limit reached",
            type: "requests",
            param: null,
            code: "rate_limit_exceeded",
          },
        },
      }),
    ).toEqual({
      status: 429,
      body: { type: "error", error: { type: "rate_limit_error", message: "Rate limit reached" } },
      // `rate_limit_exceeded` is chat's own code for the kind, which arrives; the type `requests` does not.
      losses: [expect.objectContaining({ path: "/error/type", kind: "dropped" })],
      headers: {},
      retryable: true,
      kind: "rate_limit",
      fault: "account",
    });
  });

  test("E1: a generative invalid API key becomes a 401 authentication_error", () => {
    expect(
      translateError("generative", "messages", {
        status: 400,
        body: {
          error: {
            code: 400,
            message: "API key not valid. Please pass a valid API key.",
            status: "INVALID_ARGUMENT",
            details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }],
          },
        },
      }),
    ).toEqual({
      status: 401,
      body: {
        type: "error",
        error: { type: "authentication_error", message: "API key not valid. Please pass a valid API key." },
      },
      losses: [
        expect.objectContaining({ path: "/error/details", kind: "dropped" }),
        expect.objectContaining({ path: "/error/status", kind: "approximated" }),
      ],
      headers: {},
      retryable: false,
      kind: "authentication",
      fault: "account",
    });
  });
});

describe("streams to messages", () => {
  test("X2: chat finish then a usage chunk: message_delta waits for the usage", () => {
    const chunk = (rest: object) => ({
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "g",
      ...rest,
    });
    const { out, losses } = stream("chat", [
      chunk({ choices: [{ index: 0, delta: { role: "assistant", content: "hi" }, finish_reason: null }] }),
      chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }),
      chunk({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }),
      "[DONE]",
    ]);
    expect(out).toMatchObject([
      { type: "message_start" },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: {
          input_tokens: 5,
          output_tokens: 1,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
        },
      },
      { type: "message_stop" },
    ]);
    expect(losses).toEqual([]);
  });

  test("X3: text and a tool-call start in one chunk, a new id at a used index is a new call", () => {
    const { out } = stream("chat", [
      {
        choices: [
          {
            index: 0,
            delta: {
              role: "assistant",
              content: "Run",
              tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "f", arguments: "" } }],
            },
            finish_reason: null,
          },
        ],
      },
      {
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [{ index: 0, id: "b", type: "function", function: { name: "g", arguments: "{}" } }],
            },
            finish_reason: null,
          },
        ],
      },
      { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
      "[DONE]",
    ]);
    expect(out).toMatchObject([
      { type: "message_start" },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Run" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "a", name: "f", input: {} },
      },
      { type: "content_block_stop", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "tool_use", id: "b", name: "g", input: {} },
      },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: "{}" } },
      { type: "content_block_stop", index: 2 },
      { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null } },
      { type: "message_stop" },
    ]);
  });

  test("X4: message_start carries the real input tokens; message_delta the final usage", () => {
    const { out } = stream("generative", [
      {
        responseId: "r",
        modelVersion: "gemini-2.5-flash",
        candidates: [{ index: 0, content: { role: "model", parts: [{ text: "Hel" }] } }],
        usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
      },
      {
        responseId: "r",
        candidates: [{ index: 0, finishReason: "STOP", content: { role: "model", parts: [{ text: "lo" }] } }],
        usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 2, totalTokenCount: 14 },
      },
    ]);
    expect(out).toMatchObject([
      {
        type: "message_start",
        message: {
          id: "r",
          type: "message",
          role: "assistant",
          model: "gemini-2.5-flash",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 12, output_tokens: 0 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { input_tokens: 12, output_tokens: 2 },
      },
      { type: "message_stop" },
    ]);
  });

  test("X5: a stream cut off without its finish ends with the messages error event, never message_stop", () => {
    const { out, losses } = stream("chat", [
      { choices: [{ index: 0, delta: { role: "assistant", content: "partial" }, finish_reason: null }] },
    ]);
    expect(out).toMatchObject([
      { type: "message_start" },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "partial" } },
      // The block the input never ended is not ended either: the error event comes as it would mid-block.
      {
        type: "error",
        error: {
          type: "api_error",
          message: "The upstream chat stream ended before its finish: the answer is incomplete.",
        },
      },
    ]);
    // At the event that never came: one past the last event received.
    expect(losses).toEqual([{ path: "/1", kind: "synthesized" }]);
  });

  test("X6: a whole generative function call becomes one tool_use with one input_json_delta", () => {
    const { out } = stream(
      "generative",
      [
        {
          responseId: "r",
          candidates: [
            {
              index: 0,
              finishReason: "STOP",
              content: {
                role: "model",
                parts: [{ functionCall: { name: "Read", args: { path: "a.txt" } } }],
              },
            },
          ],
          usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 },
        },
      ],
      { idPrefix: "gp" },
    );
    expect(out).toMatchObject([
      { type: "message_start" },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "gp_r_0", name: "Read", input: {} },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"path":"a.txt"}' },
      },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { input_tokens: 3, output_tokens: 5 },
      },
      { type: "message_stop" },
    ]);
  });

  test("X10: a chat mid-stream error becomes a messages error event and nothing after it", () => {
    const { out } = stream("chat", [
      { choices: [{ index: 0, delta: { role: "assistant", content: "Hal" }, finish_reason: null }] },
      { error: { message: "Overloaded", type: "overloaded_error", param: null, code: "overloaded_error" } },
    ]);
    expect(out.at(-1)).toEqual({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    expect(out.some((event) => (event as { type: string }).type === "message_stop")).toBe(false);
  });

  test("X12: accumulate(messages, replay(messages, r)) gives r back", () => {
    const r = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "c",
      content: [
        { type: "text", text: "hi" },
        { type: "tool_use", id: "t", name: "f", input: { a: [1, 2] } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 4, output_tokens: 9 },
    };
    expect(accumulate("messages", replay("messages", r as never))).toEqual(r);
  });
});
