import { describe, expect, test } from "vitest";
import { resolveOptions } from "../../../src/common/options";
import { resolvePointer } from "../../../src/common/pointer";
import { decodeChatRequest } from "../../../src/protocols/chat/request";
import * as chat from "../../../src/protocols/chat/schema";
import { chatFixtures, readJson } from "./fixtures";

const options = resolveOptions({});
const decode = (body: unknown) => decodeChatRequest(chat.request.parse(body), options);

describe("decodeChatRequest", () => {
  test("hoists system and developer messages, marking those after the conversation began as late, with their place", () => {
    const { value, losses } = decode({
      model: "m",
      messages: [
        { role: "system", content: "A" },
        { role: "user", content: "hi" },
        { role: "developer", content: [{ type: "text", text: "B", cache_control: { type: "ephemeral" } }] },
      ],
    });
    expect(value.system).toEqual([
      { text: "A", role: "system", source: "/messages/0" },
      {
        text: "B",
        role: "developer",
        late: true,
        at: 1,
        cache: { type: "ephemeral", source: "/messages/2/content/0/cache_control" },
        source: "/messages/2/content/0",
      },
    ]);
    expect(value.messages).toEqual([
      {
        role: "user",
        parts: [{ type: "text", text: "hi", source: "/messages/1/content" }],
        source: "/messages/1",
      },
    ]);
    expect(losses).toEqual([]);
  });

  test("turns a tool message into a user turn with one tool result named after its call", () => {
    const { value } = decode({
      model: "m",
      messages: [
        { role: "user", content: "q" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"x":1}' } }],
        },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ],
    });
    expect(value.messages[1]).toEqual({
      role: "assistant",
      parts: [
        {
          type: "tool-call",
          id: "c1",
          name: "f",
          arguments: { x: 1 },
          argumentsText: '{"x":1}',
          argumentsSource: "/messages/1/tool_calls/0/function/arguments",
          source: "/messages/1/tool_calls/0",
        },
      ],
      source: "/messages/1",
    });
    expect(value.messages[2]).toEqual({
      role: "user",
      parts: [
        {
          type: "tool-result",
          callId: "c1",
          name: "f",
          content: [{ type: "text", text: "ok", source: "/messages/2/content" }],
          source: "/messages/2",
        },
      ],
      source: "/messages/2",
    });
  });

  test("keeps malformed argument text raw without parsed arguments", () => {
    const { value } = decode({
      model: "m",
      messages: [
        {
          role: "assistant",
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: '{"a":1,' } }],
        },
      ],
    });
    expect(value.messages[0]?.parts[0]).toEqual({
      type: "tool-call",
      id: "c",
      name: "f",
      argumentsText: '{"a":1,',
      argumentsSource: "/messages/0/tool_calls/0/function/arguments",
      source: "/messages/0/tool_calls/0",
    });
  });

  test("puts assistant reasoning first, then text, refusal and calls", () => {
    const { value } = decode({
      model: "m",
      messages: [{ role: "assistant", content: "a", reasoning_content: "r", refusal: "no" }],
    });
    expect(value.messages[0]?.parts).toEqual([
      { type: "reasoning", text: "r", origin: "chat", source: "/messages/0/reasoning_content" },
      { type: "text", text: "a", source: "/messages/0/content" },
      { type: "refusal", text: "no", source: "/messages/0/refusal" },
    ]);
  });

  test("maps data: URLs to inline data and http URLs to url, audio and PDF files to media parts", () => {
    const { value } = decode({
      model: "m",
      messages: [
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/4AA=", detail: "low" } },
            { type: "image_url", image_url: { url: "https://ex.com/a.png" } },
            { type: "input_audio", input_audio: { data: "UklG", format: "wav" } },
            { type: "file", file: { filename: "a.pdf", file_data: "data:application/pdf;base64,JVBER" } },
          ],
        },
      ],
    });
    expect(value.messages[0]?.parts).toEqual([
      {
        type: "media",
        kind: "image",
        data: "/9j/4AA=",
        mediaType: "image/jpeg",
        detail: "low",
        source: "/messages/0/content/0",
      },
      { type: "media", kind: "image", url: "https://ex.com/a.png", source: "/messages/0/content/1" },
      { type: "media", kind: "audio", mediaType: "audio/wav", data: "UklG", source: "/messages/0/content/2" },
      {
        type: "media",
        kind: "document",
        data: "JVBER",
        mediaType: "application/pdf",
        filename: "a.pdf",
        source: "/messages/0/content/3",
      },
    ]);
  });

  test("maps sampling, budget, stop, format, effort and flags with their pointers", () => {
    const { value, losses } = decode({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      stream: true,
      stream_options: { include_usage: false },
      temperature: 0,
      top_p: 1,
      max_tokens: 10,
      max_completion_tokens: 20,
      n: 2,
      seed: 0,
      stop: "END",
      presence_penalty: 0,
      frequency_penalty: -1,
      logprobs: false,
      top_logprobs: 0,
      user: "",
      reasoning_effort: "low",
      parallel_tool_calls: false,
      response_format: {
        type: "json_schema",
        json_schema: { name: "r", schema: { type: "object" }, strict: true },
      },
      tool_choice: { type: "function", function: { name: "f" } },
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
    });
    expect(value).toMatchObject({
      stream: true,
      includeUsage: { value: false, source: "/stream_options/include_usage" },
      temperature: { value: 0, source: "/temperature" },
      topP: { value: 1, source: "/top_p" },
      maxTokens: { value: 20, source: "/max_completion_tokens" },
      candidateCount: { value: 2, source: "/n" },
      seed: { value: 0, source: "/seed" },
      stop: { value: ["END"], source: "/stop", scalar: true },
      presencePenalty: { value: 0, source: "/presence_penalty" },
      frequencyPenalty: { value: -1, source: "/frequency_penalty" },
      logprobs: { value: false, source: "/logprobs" },
      topLogprobs: { value: 0, source: "/top_logprobs" },
      user: { value: "", source: "/user" },
      reasoning: { effort: "low", source: "/reasoning_effort" },
      parallelToolCalls: { value: false, source: "/parallel_tool_calls" },
      responseFormat: {
        type: "json-schema",
        schema: { type: "object" },
        name: "r",
        strict: true,
        schemaSource: "/response_format/json_schema/schema",
        source: "/response_format/json_schema",
      },
      toolChoice: { type: "tool", name: "f", source: "/tool_choice" },
      tools: [{ type: "function", name: "f", parameters: { type: "object" }, source: "/tools/0/function" }],
    });
    expect(losses).toEqual([
      { path: "/max_tokens", kind: "dropped", code: "max_tokens.dropped", message: expect.any(String) },
    ]);
  });

  test("reports fields without a common slot as dropped, each at its pointer", () => {
    const { value, losses } = decode({
      model: "m",
      messages: [{ role: "user", content: "x", extra: 1 }],
      logit_bias: { "1": 2 },
      service_tier: "flex",
      metadata: { a: "b" },
      web_search_options: {},
      store: null,
    });
    const found = losses.map(({ path, kind }) => `${kind} ${path}`).sort();
    expect(found).toEqual([
      "dropped /logit_bias",
      "dropped /messages/0/extra",
      "dropped /metadata",
      "dropped /web_search_options",
    ]);
    // The service tier has a slot.
    expect(value.serviceTier).toEqual({ value: "flex", source: "/service_tier" });
  });

  test("keeps other tool types as provider tools, a custom tool as a free-form one, and decodes allowed_tools as a subset", () => {
    const { value } = decode({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      tools: [
        { type: "custom", custom: { name: "c" } },
        {
          type: "custom",
          custom: {
            name: "d",
            format: { type: "grammar", grammar: { syntax: "regex", definition: "\\d+" } },
          },
        },
        { type: "code_interpreter" },
      ],
      tool_choice: {
        type: "allowed_tools",
        allowed_tools: { mode: "required", tools: [{ type: "function", function: { name: "a" } }] },
      },
    });
    expect(value.tools).toEqual([
      { type: "function", name: "c", freeform: {}, source: "/tools/0" },
      {
        type: "function",
        name: "d",
        freeform: {
          format: { kind: "grammar", syntax: "regex", definition: "\\d+" },
          formatSource: "/tools/1/custom/format",
        },
        source: "/tools/1",
      },
      {
        type: "provider",
        origin: "chat",
        raw: { type: "code_interpreter" },
        label: "code_interpreter tool",
        source: "/tools/2",
      },
    ]);
    expect(value.toolChoice).toEqual({
      type: "allowed",
      names: ["a"],
      mode: "required",
      source: "/tool_choice",
    });
  });

  test("maps legacy functions and function messages", () => {
    const { value } = decode({
      model: "m",
      functions: [{ name: "f" }],
      function_call: { name: "f" },
      messages: [
        { role: "assistant", content: null, function_call: { name: "f", arguments: "{}" } },
        { role: "function", name: "f", content: "r" },
      ],
    });
    expect(value.tools).toEqual([{ type: "function", name: "f", source: "/functions/0" }]);
    expect(value.toolChoice).toEqual({ type: "tool", name: "f", source: "/function_call" });
    expect(value.messages[1]?.parts[0]).toMatchObject({ type: "tool-result", name: "f" });
  });

  test.each(chatFixtures.filter((entry) => entry.kind === "request").map((entry) => entry.path))(
    "decodes fixture %s with every loss pointing into it",
    (path) => {
      const body = readJson(path);
      const { losses } = decode(body);
      for (const entry of losses) expect(resolvePointer(body, entry.path).found).toBe(true);
    },
  );
});
