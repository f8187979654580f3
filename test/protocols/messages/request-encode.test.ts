import { describe, expect, test } from "vitest";
import { TranslationError } from "../../../src/common/errors";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import { findToolPairingProblem, NOT_ANSWERED } from "../../../src/common/tool-pairing";
import { encodeMessagesRequest } from "../../../src/protocols/messages/request";
import * as messages from "../../../src/protocols/messages/schema";

const options = resolveOptions({});
const text = (value: string, source: string): common.TextPart => ({ type: "text", text: value, source });
const user = (parts: common.Part[], source: string): common.Message => ({ role: "user", parts, source });
const assistant = (parts: common.Part[], source: string): common.Message => ({
  role: "assistant",
  parts,
  source,
});
const request = (overrides: Partial<common.Request>): common.Request => ({
  model: "m",
  stream: false,
  system: [],
  messages: [user([text("hi", "/messages/0/content")], "/messages/0")],
  tools: [],
  maxTokens: { value: 100, source: "/max_tokens" },
  ...overrides,
});
const encode = (value: common.Request) => {
  const result = encodeMessagesRequest(value, options);
  expect(messages.request.safeParse(result.value).success).toBe(true);
  return { value: result.value, losses: result.losses.map((entry) => [entry.path, entry.kind]) };
};

describe("encodeMessagesRequest", () => {
  test("a plain string turn stays a string and the output parses", () => {
    expect(encode(request({}))).toEqual({
      value: { model: "m", max_tokens: 100, messages: [{ role: "user", content: "hi" }], stream: false },
      losses: [],
    });
  });

  test("system blocks are hoisted; a late one is approximated; cache hints become cache_control", () => {
    const { value, losses } = encode(
      request({
        system: [
          {
            text: "A",
            source: "/messages/0",
            cache: { type: "ephemeral", source: "/messages/0/cache_control" },
          },
          { text: "B", source: "/messages/2", late: true },
        ],
      }),
    );
    expect(value.system).toEqual([
      { type: "text", text: "A", cache_control: { type: "ephemeral" } },
      { type: "text", text: "B" },
    ]);
    expect(losses).toEqual([["/messages/2", "approximated"]]);
  });

  test("consecutive same-role turns merge, tool results first, empty text removed", () => {
    const call = (id: string): common.ToolCallPart => ({
      type: "tool-call",
      id,
      name: "f",
      arguments: {},
      source: `/c/${id}`,
    });
    const result = (id: string): common.ToolResultPart => ({
      type: "tool-result",
      callId: id,
      content: [text(id, `/r/${id}/content`)],
      source: `/r/${id}`,
    });
    const { value, losses } = encode(
      request({
        messages: [
          user([text("go", "/messages/0/content")], "/messages/0"),
          assistant([text("", "/messages/1/content"), call("a"), call("b")], "/messages/1"),
          user([text("note", "/messages/2/content/0"), result("b")], "/messages/2"),
          user([result("a")], "/messages/3"),
        ],
      }),
    );
    expect(losses).toEqual([]);
    expect(value.messages).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "a", name: "f", input: {} },
          { type: "tool_use", id: "b", name: "f", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "a", content: "a" },
          { type: "tool_result", tool_use_id: "b", content: "b" },
          { type: "text", text: "note" },
        ],
      },
    ]);
  });

  test("a first assistant turn gets a synthesized user turn before it", () => {
    const { value, losses } = encode(
      request({ messages: [assistant([text("Hello", "/messages/0/content")], "/messages/0")] }),
    );
    expect(value.messages).toEqual([
      { role: "user", content: "." },
      { role: "assistant", content: "Hello" },
    ]);
    expect(losses).toEqual([["/messages/0", "synthesized"]]);
  });

  test("an orphan tool call gets a result saying it was not answered, in a user turn of its own", () => {
    const value = request({
      messages: [
        user([text("x", "/messages/0/content")], "/messages/0"),
        assistant(
          [{ type: "tool-call", id: "b", name: "f", arguments: {}, source: "/messages/1/tool_calls/0" }],
          "/messages/1",
        ),
      ],
    });
    const encoded = encodeMessagesRequest(value, options);
    expect(encoded.value.messages[2]).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "b", content: NOT_ANSWERED, is_error: true }],
    });
    expect(encoded.losses).toContainEqual(
      expect.objectContaining({
        path: "/messages/1/tool_calls/0",
        kind: "synthesized",
        code: "tool_result.synthesized",
      }),
    );
    expect(findToolPairingProblem(value)).toEqual({
      message: "tool call b has no tool result",
      path: "/messages/1/tool_calls/0",
    });
  });

  test("tool results that answer no call, or answer one twice, are rejected", () => {
    const result: common.ToolResultPart = {
      type: "tool-result",
      callId: "z",
      content: [],
      source: "/messages/0/content/0",
    };
    expect(findToolPairingProblem(request({ messages: [user([result], "/messages/0")] }))?.message).toBe(
      "tool result for z answers no tool call of the assistant turn before it",
    );
  });

  test("calls without ids get deterministic ids and results are matched by name", () => {
    const { value } = encode(
      request({
        messages: [
          user([text("x", "/contents/0/parts/0")], "/contents/0"),
          assistant(
            [
              { type: "tool-call", name: "a", arguments: {}, source: "/contents/1/parts/0" },
              { type: "tool-call", name: "b", arguments: {}, source: "/contents/1/parts/1" },
            ],
            "/contents/1",
          ),
          user(
            [
              {
                type: "tool-result",
                name: "b",
                content: [],
                json: { content: "B" },
                source: "/contents/2/parts/0",
              },
              {
                type: "tool-result",
                name: "a",
                content: [],
                json: { error: "boom" },
                source: "/contents/2/parts/1",
              },
            ],
            "/contents/2",
          ),
        ],
      }),
    );
    expect(value.messages[1]?.content).toEqual([
      { type: "tool_use", id: "gp_req1_0", name: "a", input: {} },
      { type: "tool_use", id: "gp_req1_1", name: "b", input: {} },
    ]);
    expect(value.messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "gp_req1_0", content: "boom", is_error: true },
      { type: "tool_result", tool_use_id: "gp_req1_1", content: "B" },
    ]);
  });

  test("foreign reasoning is dropped and messages reasoning is replayed with its signature", () => {
    const { value, losses } = encode(
      request({
        messages: [
          user([text("x", "/messages/0/content")], "/messages/0"),
          assistant(
            [
              {
                type: "reasoning",
                text: "mine",
                signature: "sig",
                origin: "messages",
                source: "/messages/1/content/0",
              },
              { type: "reasoning", text: "theirs", origin: "chat", source: "/messages/1/reasoning_content" },
              text("a", "/messages/1/content/1"),
            ],
            "/messages/1",
          ),
        ],
      }),
    );
    expect(value.messages[1]?.content).toEqual([
      { type: "thinking", thinking: "mine", signature: "sig" },
      { type: "text", text: "a" },
    ]);
    expect(losses).toEqual([["/messages/1/reasoning_content", "dropped"]]);
  });

  test("media: unsupported image types, audio and file ids are dropped; PDFs and text become documents", () => {
    const { value, losses } = encode(
      request({
        messages: [
          user(
            [
              { type: "media", kind: "image", mediaType: "image/heic", data: "AAAA", source: "/p/0" },
              { type: "media", kind: "audio", mediaType: "audio/wav", data: "UklG", source: "/p/1" },
              { type: "media", kind: "image", fileId: "file-1", source: "/p/2" },
              {
                type: "media",
                kind: "file",
                mediaType: "application/pdf",
                data: "JVBER",
                filename: "a.pdf",
                source: "/p/3",
              },
              { type: "media", kind: "document", mediaType: "text/plain", data: "aMOp", source: "/p/4" },
              { type: "media", kind: "image", url: "data:image/png;base64,iVBO", source: "/p/5" },
            ],
            "/messages/0",
          ),
        ],
      }),
    );
    expect(value.messages[0]?.content).toEqual([
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: "JVBER" },
        title: "a.pdf",
      },
      { type: "document", source: { type: "text", media_type: "text/plain", data: "hé" } },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } },
    ]);
    expect(losses).toEqual([
      ["/p/0", "dropped"],
      ["/p/1", "dropped"],
      ["/p/2", "dropped"],
    ]);
  });

  test("sampling: temperature clamped, top_p dropped beside it, penalties and n dropped", () => {
    const { value, losses } = encode(
      request({
        temperature: { value: 1.7, source: "/temperature" },
        topP: { value: 0.5, source: "/top_p" },
        seed: { value: 1, source: "/seed" },
        presencePenalty: { value: 0.1, source: "/presence_penalty" },
        candidateCount: { value: 2, source: "/n" },
        stop: { value: ["END", "  "], source: "/stop" },
      }),
    );
    expect(value).toMatchObject({ temperature: 1, stop_sequences: ["END"] });
    expect(value.top_p).toBeUndefined();
    expect(losses).toEqual([
      ["/presence_penalty", "dropped"],
      ["/seed", "dropped"],
      ["/n", "dropped"],
      ["/temperature", "clamped"],
      ["/top_p", "dropped"],
      ["/stop/1", "dropped"],
    ]);
  });

  test("explicit zeros are forwarded", () => {
    const { value } = encode(
      request({ temperature: { value: 0, source: "/temperature" }, topK: { value: 0, source: "/top_k" } }),
    );
    expect(value).toMatchObject({ temperature: 0, top_k: 0 });
  });

  test("a missing max_tokens is synthesized from options", () => {
    const { value, losses } = encode(request({ maxTokens: undefined }));
    expect(value.max_tokens).toBe(4096);
    expect(losses).toEqual([["/max_tokens", "synthesized"]]);
  });

  test("a thinking budget below 1024 is clamped and max_tokens raised above it", () => {
    const { value, losses } = encode(
      request({ reasoning: { budgetTokens: 500, source: "/generationConfig/thinkingConfig" } }),
    );
    expect(value).toMatchObject({ thinking: { type: "enabled", budget_tokens: 1024 }, max_tokens: 1124 });
    expect(losses).toEqual([
      ["/generationConfig/thinkingConfig", "clamped"],
      ["/max_tokens", "clamped"],
    ]);
  });

  test("disabled reasoning becomes thinking disabled", () => {
    expect(encode(request({ reasoning: { enabled: false, source: "/thinking" } })).value.thinking).toEqual({
      type: "disabled",
    });
  });

  test("a user containing an e-mail address is dropped, others go to metadata.user_id", () => {
    expect(encode(request({ user: { value: "u-1", source: "/user" } })).value.metadata).toEqual({
      user_id: "u-1",
    });
    const withEmail = encode(request({ user: { value: "a@b.co", source: "/user" } }));
    expect(withEmail.value.metadata).toBeUndefined();
    expect(withEmail.losses).toEqual([["/user", "dropped"]]);
  });

  test("provider tools of another protocol are dropped; a subset choice is widened", () => {
    const { value, losses } = encode(
      request({
        tools: [
          { type: "function", name: "a", source: "/tools/0" },
          { type: "function", name: "b", source: "/tools/1" },
          {
            type: "provider",
            origin: "generative",
            raw: { googleSearch: {} },
            label: "googleSearch tool",
            source: "/tools/2",
          },
        ],
        toolChoice: { type: "allowed", names: ["a", "b"], mode: "required", source: "/toolConfig" },
      }),
    );
    expect(value.tools).toEqual([
      { name: "a", input_schema: { type: "object", properties: {} } },
      { name: "b", input_schema: { type: "object", properties: {} } },
    ]);
    expect(value.tool_choice).toEqual({ type: "any" });
    expect(losses).toEqual([
      ["/tools/2", "dropped"],
      ["/toolConfig", "approximated"],
    ]);
  });

  test("a tool whose schema is not an object is a TranslationError", () => {
    const value = request({
      tools: [{ type: "function", name: "f", parameters: { type: "string" }, source: "/tools/0" }],
    });
    expect(() => encodeMessagesRequest(value, options)).toThrowError(TranslationError);
  });

  test("a trailing assistant prefill loses its trailing whitespace", () => {
    const { value } = encode(
      request({
        messages: [
          user([text("q", "/messages/0/content")], "/messages/0"),
          assistant([text("{\n  ", "/messages/1/content")], "/messages/1"),
        ],
      }),
    );
    expect(value.messages[1]).toEqual({ role: "assistant", content: "{" });
  });

  test("only system text and no conversation: the last system text becomes the user turn", () => {
    const { value, losses } = encode(
      request({ system: [{ text: "Summarize: foo", source: "/messages/0" }], messages: [] }),
    );
    expect(value.messages).toEqual([{ role: "user", content: "Summarize: foo" }]);
    expect(value.system).toBeUndefined();
    expect(losses).toEqual([["/messages/0", "synthesized"]]);
  });

  test("the input common value is not mutated", () => {
    const value = request({ temperature: { value: 3, source: "/temperature" } });
    const copy = structuredClone(value);
    encodeMessagesRequest(value, options);
    expect(value).toEqual(copy);
  });
});
