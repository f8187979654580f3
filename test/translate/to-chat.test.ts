/**
 * Research cases (shared/research/edge-cases.md) whose target is chat, through the public functions.
 * Each asserts the item's `out` facts and its exact loss list (path + kind).
 */
import { wrapCarried } from "../../src/common/carrier";
import { withCarrier } from "../../src/protocols/chat/carrier";

/** The carrier of a messages thinking block: its text and signature. */
const carried = (text: string, signature: string): string =>
  wrapCarried({ origin: "messages", entries: [{ reasoning: { text, signature } }] }) as string;

import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import * as chat from "../../src/protocols/chat/schema";
import { createStreamTranslator } from "../../src/stream/translator";
import { translateError, translateRequest, translateResponse } from "../../src/translate";

type From = "messages" | "generative";
const kinds = (losses: readonly { path: string; kind: string }[]) =>
  losses.map(({ path, kind }) => ({ path, kind }));

function request(from: From, body: unknown, options?: TranslateOptions) {
  const result = translateRequest(from, "chat", body, options);
  expect(chat.request.safeParse(result.value).success).toBe(true);
  return result;
}

function response(from: From, body: unknown, options?: TranslateOptions) {
  const result = translateResponse(from, "chat", body, options);
  expect(chat.response.safeParse(result.value).success).toBe(true);
  return result;
}

function stream(from: From, events: unknown[], options?: TranslateOptions) {
  const translator = createStreamTranslator(from, "chat", options);
  const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
  for (const event of out) expect(chat.streamEvent.safeParse(event).success).toBe(true);
  return { out, losses: translator.losses };
}

describe("requests to chat", () => {
  test("S3: a messages system array becomes one system message of text parts; cache_control is OpenAI's prompt_cache_breakpoint", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 10,
      system: [
        { type: "text", text: "A" },
        { type: "text", text: "B", cache_control: { type: "ephemeral" } },
      ],
      messages: [{ role: "user", content: "hi" }],
    });
    expect(value).toMatchObject({
      messages: [
        {
          role: "system",
          content: [
            { type: "text", text: "A" },
            { type: "text", text: "B", prompt_cache_breakpoint: { mode: "explicit" } },
          ],
        },
        { role: "user", content: "hi" },
      ],
    });
    expect(kinds(losses)).toEqual([]);
  });

  test("R7: an assistant turn keeps its text and its tool calls", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 64,
      messages: [
        { role: "user", content: "w?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "t1", name: "get", input: { c: "P" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "sunny" }] },
      ],
    });
    expect(value.messages).toEqual([
      { role: "user", content: "w?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [{ id: "t1", type: "function", function: { name: "get", arguments: '{"c":"P"}' } }],
      },
      { role: "tool", tool_call_id: "t1", content: "sunny" },
    ]);
    expect(losses).toEqual([]);
  });

  test("T2: messages tools become chat functions; tool cache_control and server tools are dropped", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 64,
      messages: [{ role: "user", content: "x" }],
      tools: [
        {
          name: "f",
          description: "d",
          input_schema: { type: "object", properties: { a: { type: "string" } } },
          cache_control: { type: "ephemeral" },
        },
        { type: "web_search_20250305", name: "web_search" },
      ],
    });
    expect(value.tools).toEqual([
      {
        type: "function",
        function: {
          name: "f",
          description: "d",
          parameters: { type: "object", properties: { a: { type: "string" } } },
        },
      },
    ]);
    expect(kinds(losses)).toEqual([
      { path: "/tools/0/cache_control", kind: "dropped" },
      { path: "/tools/1", kind: "dropped" },
    ]);
  });

  test("C1: messages tool_choice any becomes required", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 64,
      messages: [{ role: "user", content: "x" }],
      tools: [{ name: "f", input_schema: { type: "object" } }],
      tool_choice: { type: "any" },
    });
    expect(value.tool_choice).toBe("required");
    expect(losses).toEqual([]);
  });

  const allowedTwo = {
    contents: [{ role: "user", parts: [{ text: "x" }] }],
    tools: [{ functionDeclarations: [{ name: "a" }, { name: "b" }, { name: "c" }] }],
    toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["a", "b"] } },
  };

  test("C4: generative ANY with several allowed names is OpenAI's allowed_tools choice, every tool still offered", () => {
    const { value, losses } = request("generative", allowedTwo, { model: "gpt-x" });
    expect((value.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name)).toEqual(
      ["a", "b", "c"],
    );
    expect(value.tool_choice).toEqual({
      type: "allowed_tools",
      allowed_tools: {
        mode: "required",
        tools: [
          { type: "function", function: { name: "a" } },
          { type: "function", function: { name: "b" } },
        ],
      },
    });
    expect(losses).toEqual([]);
  });

  test("C4: toward a chat-compatible server, generative ANY with several allowed names filters the tools and requires a call", () => {
    const { value, losses } = request("generative", allowedTwo, {
      model: "gpt-x",
      chatDialect: "compatible",
    });
    expect(value).toMatchObject({
      tools: [
        { type: "function", function: { name: "a", parameters: { type: "object", properties: {} } } },
        { type: "function", function: { name: "b", parameters: { type: "object", properties: {} } } },
      ],
      tool_choice: "required",
    });
    expect(kinds(losses)).toEqual([{ path: "/tools/0/functionDeclarations/2", kind: "dropped" }]);
  });

  test("U6: N tool_result blocks become N tool messages, then the user's text", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 64,
      messages: [
        { role: "user", content: "x" },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "t1", name: "f", input: {} },
            { type: "tool_use", id: "t2", name: "g", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "t1",
              content: [
                { type: "text", text: "a" },
                { type: "text", text: "b" },
              ],
            },
            { type: "tool_result", tool_use_id: "t2", content: [] },
            { type: "text", text: "next" },
          ],
        },
      ],
    });
    expect(value.messages).toEqual([
      { role: "user", content: "x" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "t1", type: "function", function: { name: "f", arguments: "{}" } },
          { id: "t2", type: "function", function: { name: "g", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "t1", content: "a\nb" },
      { role: "tool", tool_call_id: "t2", content: "" },
      { role: "user", content: "next" },
    ]);
    expect(losses).toEqual([]);
  });

  test("U7: an image inside a tool result moves into a user message after the tool message", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 64,
      messages: [
        { role: "user", content: "shot" },
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "screenshot", input: {} }] },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "t",
              content: [
                { type: "text", text: "done" },
                { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } },
              ],
            },
          ],
        },
      ],
    });
    expect(value.messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "t", content: "done" },
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBO" } }] },
    ]);
    expect(kinds(losses)).toEqual([{ path: "/messages/2/content/0/content/1", kind: "approximated" }]);
  });

  test("I3: a messages URL image becomes image_url with that URL", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 64,
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "url", url: "https://ex.com/a.jpg" } },
            { type: "text", text: "?" },
          ],
        },
      ],
    });
    expect(value.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "image_url", image_url: { url: "https://ex.com/a.jpg" } },
          { type: "text", text: "?" },
        ],
      },
    ]);
    expect(losses).toEqual([]);
  });

  test("P4: more than four stop sequences keep the first four", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 64,
      stop_sequences: ["</a>", "</b>", "</c>", "</d>", "</e>", " "],
      messages: [{ role: "user", content: "x" }],
    });
    expect(value.stop).toEqual(["</a>", "</b>", "</c>", "</d>"]);
    // The research item says `clamped`; DESIGN's policy table and the brief say extra stop sequences are `dropped`.
    expect(kinds(losses)).toEqual([
      { path: "/stop_sequences/4", kind: "dropped" },
      { path: "/stop_sequences/5", kind: "dropped" },
    ]);
  });

  test("P8: metadata.user_id becomes user", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 64,
      metadata: { user_id: "u-42" },
      messages: [{ role: "user", content: "x" }],
    });
    expect(value.user).toBe("u-42");
    expect(losses).toEqual([]);
  });

  test("K2: a thinking budget becomes an effort bucket; max_tokens becomes max_completion_tokens", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 20000,
      thinking: { type: "enabled", budget_tokens: 16000 },
      messages: [{ role: "user", content: "x" }],
    });
    expect(value).toMatchObject({ reasoning_effort: "high", max_completion_tokens: 20000 });
    expect(kinds(losses)).toEqual([{ path: "/thinking/budget_tokens", kind: "approximated" }]);
  });

  test("K7: thinking in history becomes reasoning_content; its signature is dropped", () => {
    const { value, losses } = request("messages", {
      model: "m",
      max_tokens: 64,
      messages: [
        { role: "user", content: "x" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "plan", signature: "s" },
            { type: "tool_use", id: "t", name: "f", input: {} },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "r" }] },
      ],
    });
    expect(value.messages).toEqual([
      { role: "user", content: "x" },
      {
        role: "assistant",
        content: null,
        reasoning_content: "plan",
        tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "t", content: "r" },
    ]);
    expect(kinds(losses)).toEqual([{ path: "/messages/1/content/0/signature", kind: "dropped" }]);
  });
});

describe("responses to chat", () => {
  test("F1: generative MAX_TOKENS becomes length", () => {
    const { value } = response("generative", {
      candidates: [
        { index: 0, finishReason: "MAX_TOKENS", content: { role: "model", parts: [{ text: "abc" }] } },
      ],
    });
    expect(value.choices).toEqual([
      {
        index: 0,
        finish_reason: "length",
        logprobs: null,
        message: { role: "assistant", content: "abc", refusal: null },
      },
    ]);
  });

  test("F3: a blocked prompt becomes a content_filter refusal with usage", () => {
    const { value, losses } = response(
      "generative",
      {
        promptFeedback: { blockReason: "SAFETY" },
        usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
      },
      { created: 1, idPrefix: "gp" },
    );
    expect(value).toMatchObject({
      choices: [
        {
          index: 0,
          finish_reason: "content_filter",
          message: { role: "assistant", content: null, refusal: "Prompt blocked: SAFETY" },
        },
      ],
      usage: { prompt_tokens: 7, completion_tokens: 0, total_tokens: 7 },
    });
    expect(losses).toEqual([]);
  });

  test("F4: messages usage adds cache reads and writes into prompt_tokens", () => {
    const { value, losses } = response(
      "messages",
      {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "m",
        content: [{ type: "text", text: "hi" }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: {
          input_tokens: 3,
          cache_creation_input_tokens: 200,
          cache_read_input_tokens: 1000,
          output_tokens: 50,
        },
      },
      { created: 1_700_000_000 },
    );
    expect(value.usage).toEqual({
      prompt_tokens: 1203,
      completion_tokens: 50,
      total_tokens: 1253,
      prompt_tokens_details: { cached_tokens: 1000, cache_write_tokens: 200 },
    });
    expect(losses).toEqual([]);
  });

  test("F6: generative usage counts thoughts as completion and keeps the total", () => {
    const { value } = response("generative", {
      candidates: [{ index: 0, finishReason: "STOP", content: { role: "model", parts: [{ text: "ok" }] } }],
      usageMetadata: {
        promptTokenCount: 20,
        cachedContentTokenCount: 8,
        candidatesTokenCount: 198,
        thoughtsTokenCount: 405,
        totalTokenCount: 623,
      },
    });
    expect(value.usage).toEqual({
      prompt_tokens: 20,
      completion_tokens: 603,
      total_tokens: 623,
      prompt_tokens_details: { cached_tokens: 8 },
      completion_tokens_details: { reasoning_tokens: 405 },
    });
  });

  test("F8: the upstream id and model are kept; created comes from options", () => {
    const { value, losses } = response(
      "messages",
      {
        id: "msg_01A",
        type: "message",
        role: "assistant",
        model: "claude-x",
        content: [{ type: "text", text: "hi" }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      { created: 1700000000 },
    );
    expect(value).toMatchObject({
      id: "msg_01A",
      object: "chat.completion",
      created: 1700000000,
      model: "claude-x",
    });
    expect(losses).toEqual([]);
  });

  test("F9: all text joined, thinking as reasoning_content, tool_use as tool_calls in order", () => {
    const { value, losses } = response(
      "messages",
      {
        id: "m",
        type: "message",
        role: "assistant",
        model: "c",
        content: [
          { type: "thinking", thinking: "t", signature: "s" },
          { type: "text", text: "A" },
          { type: "tool_use", id: "u1", name: "f", input: {} },
          { type: "tool_use", id: "u2", name: "g", input: { a: 1 } },
        ],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      { created: 1_700_000_000 },
    );
    // Non-streamed chat tool calls carry no `index` on the wire (the research example adds one); order is the index.
    expect(value.choices).toEqual([
      {
        index: 0,
        finish_reason: "tool_calls",
        logprobs: null,
        message: {
          role: "assistant",
          content: "A",
          refusal: null,
          reasoning_content: "t",
          // The thinking and its signature ride home in the next call's id (issue 29).
          tool_calls: [
            {
              id: withCarrier("u1", carried("t", "s")),
              type: "function",
              function: { name: "f", arguments: "{}" },
            },
            { id: "u2", type: "function", function: { name: "g", arguments: '{"a":1}' } },
          ],
        },
      },
    ]);
    expect(kinds(losses)).toEqual([]);
  });

  test("U1: generative calls without ids get deterministic ids from the response id", () => {
    const { value, losses } = response(
      "generative",
      {
        responseId: "r1",
        modelVersion: "gemini-2.5-flash",
        candidates: [
          {
            index: 0,
            finishReason: "STOP",
            content: {
              role: "model",
              parts: [
                { functionCall: { name: "a", args: {} } },
                { functionCall: { name: "a", args: { x: 1 } } },
              ],
            },
          },
        ],
      },
      { idPrefix: "gp", created: 1700000000 },
    );
    expect(value).toMatchObject({
      id: "r1",
      created: 1700000000,
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "gp_r1_0", type: "function", function: { name: "a", arguments: "{}" } },
              { id: "gp_r1_1", type: "function", function: { name: "a", arguments: '{"x":1}' } },
            ],
          },
        },
      ],
    });
    // The research item lists no loss; the generative decoder reports each made-up id as synthesized.
    expect(kinds(losses)).toEqual([
      { path: "/candidates/0/content/parts/0/functionCall/id", kind: "synthesized" },
      { path: "/candidates/0/content/parts/1/functionCall/id", kind: "synthesized" },
    ]);
  });
});

describe("streams to chat", () => {
  const delta = (value: object, finish: string | null = null) => ({
    choices: [{ index: 0, delta: value, finish_reason: finish }],
  });

  test("X1: messages events become the chat chunk grammar ending in a usage chunk and DONE", () => {
    const { out, losses } = stream(
      "messages",
      [
        {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "c",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 1 },
          },
        },
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "thinking", thinking: "", signature: "" },
        },
        { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hm" } },
        { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "S" } },
        { type: "content_block_stop", index: 0 },
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "tool_use", id: "t1", name: "f", input: {} },
        },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"a":' } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "1}" } },
        { type: "content_block_stop", index: 1 },
        {
          type: "message_delta",
          delta: { stop_reason: "tool_use", stop_sequence: null },
          usage: { output_tokens: 20 },
        },
        { type: "message_stop" },
      ],
      { created: 1 },
    );
    expect(out).toMatchObject([
      delta({ role: "assistant", content: "" }),
      delta({ reasoning_content: "hm" }),
      delta({
        tool_calls: [
          {
            index: 0,
            id: withCarrier("t1", carried("hm", "S")),
            type: "function",
            function: { name: "f", arguments: "" },
          },
        ],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: "1}" } }] }),
      delta({}, "tool_calls"),
      { choices: [], usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } },
      "[DONE]",
    ]);
    // The signature rides home in the call's id (issue 29; the X7 rule dropped it).
    expect(kinds(losses)).toEqual([]);
  });

  test("X7: generative thought parts become reasoning_content deltas before the answer", () => {
    const { out, losses } = stream("generative", [
      {
        responseId: "r",
        candidates: [{ index: 0, content: { role: "model", parts: [{ text: "think…", thought: true }] } }],
      },
      {
        responseId: "r",
        candidates: [
          {
            index: 0,
            finishReason: "STOP",
            content: { role: "model", parts: [{ text: "Answer" }, { text: "", thoughtSignature: "U0lH" }] },
          },
        ],
      },
    ]);
    expect(out).toMatchObject([
      delta({ role: "assistant", content: "" }),
      delta({ reasoning_content: "think…" }),
      delta({ content: "Answer" }),
      delta({}, "stop"),
      "[DONE]",
    ]);
    // Research points this loss at /candidates/0/content/parts/1/thoughtSignature: so it does, in the 2nd
    // event. Generative carries no creation time: chat's `created` is made up (no options.created here).
    expect(kinds(losses)).toEqual([
      { path: "/0/created", kind: "synthesized" },
      { path: "/1/candidates/0/content/parts/1/thoughtSignature", kind: "dropped" },
    ]);
  });

  test("X9: generative function calls become tool-call deltas with stable ordinals and a tool_calls finish", () => {
    const { out } = stream(
      "generative",
      [
        {
          responseId: "r",
          candidates: [
            {
              index: 0,
              content: { role: "model", parts: [{ functionCall: { name: "a", args: { q: 1 } } }] },
            },
          ],
        },
        {
          responseId: "r",
          candidates: [
            {
              index: 0,
              finishReason: "STOP",
              content: { role: "model", parts: [{ functionCall: { name: "b", args: {} } }] },
            },
          ],
        },
      ],
      { idPrefix: "gp" },
    );
    // The research example puts id, name and arguments in one delta; the chat grammar of X1 sends the
    // start (empty arguments) first, then the argument piece — both read the same in chat clients.
    expect(out).toMatchObject([
      delta({ role: "assistant", content: "" }),
      delta({
        tool_calls: [{ index: 0, id: "gp_r_0", type: "function", function: { name: "a", arguments: "" } }],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"q":1}' } }] }),
      delta({
        tool_calls: [{ index: 1, id: "gp_r_1", type: "function", function: { name: "b", arguments: "" } }],
      }),
      delta({ tool_calls: [{ index: 1, function: { arguments: "{}" } }] }),
      delta({}, "tool_calls"),
      "[DONE]",
    ]);
  });

  test("X10: a messages error event becomes the chat error object, with no DONE", () => {
    const { out } = stream("messages", [
      {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "c",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hal" } },
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    ]);
    expect(out).toMatchObject([
      delta({ role: "assistant", content: "" }),
      delta({ content: "Hal" }),
      // The same as translateError gives for the same body (E3 below): one table.
      { error: { message: "Overloaded", type: "server_error", param: null, code: "overloaded_error" } },
    ]);
    expect(out).toHaveLength(3);
  });
});

describe("errors to chat", () => {
  test("E4: an HTML error page becomes a chat error with the page title", () => {
    expect(
      translateError("generative", "chat", {
        status: 404,
        body: "<!DOCTYPE html><title>Error 404 (Not Found)!!1</title>",
      }),
    ).toEqual({
      status: 404,
      body: {
        error: {
          message: "Error 404 (Not Found)!!1",
          type: "invalid_request_error",
          param: null,
          code: "not_found",
        },
      },
      losses: [],
      headers: {},
      retryable: false,
      kind: "not_found",
      fault: "request",
    });
  });

  test("E3: a messages 529 overload becomes a chat 503 server_error keeping the type in code", () => {
    expect(
      translateError("messages", "chat", {
        status: 529,
        body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      }),
    ).toEqual({
      status: 503,
      body: { error: { message: "Overloaded", type: "server_error", param: null, code: "overloaded_error" } },
      losses: [],
      headers: {},
      retryable: true,
      kind: "overloaded",
      fault: "upstream",
    });
  });
});
