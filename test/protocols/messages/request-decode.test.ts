import { describe, expect, test } from "vitest";
import { resolveOptions } from "../../../src/common/options";
import { decodeMessagesRequest } from "../../../src/protocols/messages/request";
import * as messages from "../../../src/protocols/messages/schema";
import { fixtures, readJsonFixture } from "../../helpers/fixtures";

const options = resolveOptions({});
const decode = (body: unknown) => decodeMessagesRequest(messages.request.parse(body), options);
const base = { model: "claude-x", max_tokens: 64 };

describe("decodeMessagesRequest", () => {
  test("every fixture request decodes", () => {
    for (const entry of fixtures("request", "messages")) {
      const { value } = decode(readJsonFixture(entry));
      expect(value.messages.length).toBeGreaterThan(0);
    }
  });

  test("a plain request becomes the common request with sources", () => {
    const { value, losses } = decode({
      ...base,
      system: "Be terse.",
      temperature: 0,
      top_k: 5,
      stop_sequences: ["END"],
      stream: true,
      metadata: { user_id: "u-1" },
      messages: [{ role: "user", content: "hi" }],
    });
    expect(losses).toEqual([]);
    expect(value).toEqual({
      model: "claude-x",
      stream: true,
      streamGiven: true,
      system: [{ text: "Be terse.", source: "/system" }],
      messages: [
        {
          role: "user",
          parts: [{ type: "text", text: "hi", source: "/messages/0/content" }],
          source: "/messages/0",
        },
      ],
      tools: [],
      maxTokens: { value: 64, source: "/max_tokens" },
      temperature: { value: 0, source: "/temperature" },
      topK: { value: 5, source: "/top_k" },
      stop: { value: ["END"], source: "/stop_sequences" },
      user: { value: "u-1", source: "/metadata/user_id" },
    });
  });

  test("system blocks keep their cache hints", () => {
    const { value } = decode({
      ...base,
      system: [
        { type: "text", text: "A" },
        { type: "text", text: "B", cache_control: { type: "ephemeral", ttl: "1h" } },
      ],
      messages: [{ role: "user", content: "x" }],
    });
    expect(value.system).toEqual([
      { text: "A", source: "/system/0" },
      {
        text: "B",
        cache: { type: "ephemeral", ttl: "1h", source: "/system/1/cache_control" },
        source: "/system/1",
      },
    ]);
  });

  test("blocks become parts: image, pdf, text document, thinking, tool call and result", () => {
    const { value } = decode({
      ...base,
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } },
            { type: "document", source: { type: "url", url: "https://x/a.pdf" }, title: "A" },
            { type: "document", source: { type: "text", media_type: "text/plain", data: "hé" } },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hm", signature: "sig" },
            { type: "redacted_thinking", data: "opaque" },
            { type: "tool_use", id: "t1", name: "f", input: { a: 1 } },
          ],
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "t1", content: "ok", is_error: true }],
        },
      ],
    });
    expect(value.messages[0]?.parts).toEqual([
      { type: "media", kind: "image", mediaType: "image/png", data: "iVBO", source: "/messages/0/content/0" },
      {
        type: "media",
        kind: "document",
        mediaType: "application/pdf",
        url: "https://x/a.pdf",
        title: "A",
        source: "/messages/0/content/1",
      },
      {
        type: "media",
        kind: "document",
        mediaType: "text/plain",
        data: "aMOp",
        source: "/messages/0/content/2",
      },
    ]);
    expect(value.messages[1]?.parts).toEqual([
      {
        type: "reasoning",
        text: "hm",
        signature: "sig",
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
      { type: "tool-call", id: "t1", name: "f", arguments: { a: 1 }, source: "/messages/1/content/2" },
    ]);
    expect(value.messages[2]?.parts).toEqual([
      {
        type: "tool-result",
        callId: "t1",
        content: [{ type: "text", text: "ok", source: "/messages/2/content/0/content" }],
        isError: true,
        source: "/messages/2/content/0",
      },
    ]);
  });

  test("server blocks and unknown blocks are kept as opaque parts of messages origin", () => {
    const search = { type: "web_search_tool_result", tool_use_id: "s", content: [] };
    const { value } = decode({
      ...base,
      messages: [{ role: "assistant", content: [search, { type: "hologram" }] }],
    });
    expect(value.messages[0]?.parts).toEqual([
      {
        type: "opaque",
        origin: "messages",
        raw: search,
        label: "web_search_tool_result block",
        source: "/messages/0/content/0",
      },
      {
        type: "opaque",
        origin: "messages",
        raw: { type: "hologram" },
        label: "hologram block",
        source: "/messages/0/content/1",
      },
    ]);
  });

  test("tools, tool_choice and the parallel flag", () => {
    const { value, losses } = decode({
      ...base,
      messages: [{ role: "user", content: "x" }],
      tools: [
        {
          name: "f",
          description: "d",
          input_schema: { type: "object" },
          cache_control: { type: "ephemeral" },
        },
        { type: "web_search_20250305", name: "web_search" },
      ],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
    });
    expect(losses).toEqual([]);
    expect(value.tools).toEqual([
      {
        type: "function",
        name: "f",
        description: "d",
        parameters: { type: "object" },
        parametersSource: "/tools/0/input_schema",
        cache: { type: "ephemeral", source: "/tools/0/cache_control" },
        source: "/tools/0",
      },
      {
        type: "provider",
        origin: "messages",
        raw: { type: "web_search_20250305", name: "web_search" },
        label: "web_search_20250305 tool",
        kind: "web-search",
        source: "/tools/1",
      },
    ]);
    expect(value.toolChoice).toEqual({ type: "required", source: "/tool_choice" });
    expect(value.parallelToolCalls).toEqual({
      value: false,
      source: "/tool_choice/disable_parallel_tool_use",
    });
  });

  test("thinking and effort become the reasoning config", () => {
    expect(
      decode({
        ...base,
        messages: [{ role: "user", content: "x" }],
        thinking: { type: "enabled", budget_tokens: 2000 },
      }).value.reasoning,
    ).toEqual({
      enabled: true,
      budgetTokens: 2000,
      budgetSource: "/thinking/budget_tokens",
      source: "/thinking",
    });
    expect(
      decode({
        ...base,
        messages: [{ role: "user", content: "x" }],
        thinking: { type: "adaptive" },
        output_config: { effort: "high" },
      }).value.reasoning,
    ).toEqual({ enabled: true, effort: "high", source: "/thinking" });
    expect(
      decode({ ...base, messages: [{ role: "user", content: "x" }], thinking: { type: "disabled" } }).value
        .reasoning,
    ).toEqual({
      enabled: false,
      source: "/thinking",
    });
  });

  test("native structured output becomes a json-schema response format", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const { value } = decode({
      ...base,
      messages: [{ role: "user", content: "x" }],
      output_config: { format: { type: "json_schema", schema } },
    });
    expect(value.responseFormat).toEqual({
      type: "json-schema",
      schema,
      schemaSource: "/output_config/format/schema",
      source: "/output_config/format",
    });
  });

  test("fields with no common slot are reported as dropped with their pointer", () => {
    const { value, losses } = decode({
      ...base,
      service_tier: "auto",
      container: "c1",
      mcp_servers: [{ type: "url", url: "https://m", name: "m" }],
      cache_control: { type: "ephemeral" },
      messages: [
        {
          role: "user",
          content: [
            {
              type: "document",
              source: { type: "url", url: "https://x" },
              context: "ctx",
              citations: { enabled: true },
            },
          ],
        },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "t", name: "f", input: {}, caller: { type: "direct" } }],
        },
      ],
      thinking: { type: "enabled", budget_tokens: 1024, display: "omitted" },
    });
    expect(losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/container", "dropped"],
      ["/mcp_servers", "dropped"],
      ["/cache_control", "dropped"],
      ["/messages/0/content/0/context", "dropped"],
      ["/messages/0/content/0/citations", "dropped"],
      ["/messages/1/content/0/caller", "dropped"],
    ]);
    // The service tier has a slot, in chat's words; `display` is asking for the thoughts or not.
    expect(value.serviceTier).toEqual({ value: "auto", source: "/service_tier" });
    expect(value.reasoning).toMatchObject({ includeThoughts: false, includeSource: "/thinking/display" });
  });

  test("tool_use extras are kept for the same protocol only", () => {
    const { value } = decode({
      ...base,
      messages: [
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "t", name: "f", input: {}, caller: { type: "direct" } }],
        },
      ],
    });
    expect(value.messages[0]?.parts[0]).toMatchObject({
      extra: { origin: "messages", raw: { caller: { type: "direct" } } },
    });
  });
});
