/**
 * Counterexamples the request laws (test/properties/laws.test.ts) shrank to, pinned so they stay fixed
 * without the seed: each either round-trips with no loss, or now reports the loss it used to hide.
 */
import { describe, expect, test } from "vitest";
import { type Protocol, translateRequest } from "../../src/index";
import { normalize } from "../../src/testing/normalize";

const options = { model: "m", idPrefix: "gp", created: 1_700_000_000 };

function there(from: Protocol, to: Protocol, body: unknown) {
  const result = translateRequest(from, to, body, options);
  return { value: result.value, losses: result.losses.map(({ path, kind }) => ({ path, kind })) };
}

/** a → b → a, with the model and stream flag passed on as a gateway would (generative keeps them in the URL). */
function roundTrip(from: Protocol, to: Protocol, body: unknown) {
  const forth = translateRequest(from, to, body, options);
  const back = translateRequest(to, from, forth.value, {
    ...options,
    model: forth.model,
    stream: forth.stream,
  });
  return { value: back.value, losses: [...forth.losses, ...back.losses] };
}

describe("round trips that keep everything", () => {
  test.each([
    [
      "messages",
      "chat",
      "a request without `stream` (the encoder writes stream: false)",
      { model: "", max_tokens: 1, messages: [{ role: "user", content: "!" }] },
    ],
    [
      "chat",
      "generative",
      "a one-part content array (generative has no string form)",
      {
        model: "",
        max_completion_tokens: 1,
        messages: [{ role: "user", content: [{ type: "text", text: " " }] }],
      },
    ],
    [
      "chat",
      "generative",
      "two user messages in a row (merged into one turn, research R3)",
      {
        model: "",
        max_completion_tokens: 1,
        messages: [
          { role: "user", content: " " },
          { role: "user", content: " " },
        ],
      },
    ],
    [
      "chat",
      "messages",
      "a streamed request (chat asks for the final usage chunk)",
      { model: "", stream: true, max_completion_tokens: 1, messages: [{ role: "user", content: "!" }] },
    ],
    [
      "chat",
      "messages",
      'an assistant `content: ""` beside tool calls (empty text is dropped, research R4)',
      {
        model: "",
        max_completion_tokens: 1,
        messages: [
          { role: "user", content: "!" },
          { role: "assistant", content: "", tool_calls: [call("call_A")] },
          { role: "tool", tool_call_id: "call_A", content: "" },
          { role: "assistant", content: "!" },
        ],
      },
    ],
    [
      "generative",
      "chat",
      "consecutive user contents and arguments holding -0",
      {
        contents: [
          { role: "user", parts: [{ text: "!" }] },
          { role: "model", parts: [{ functionCall: { id: "a", name: "a", args: { a: -0 } } }] },
          { role: "user", parts: [{ functionResponse: { id: "a", name: "a", response: { content: "!" } } }] },
          { role: "user", parts: [{ text: "!" }] },
        ],
      },
    ],
    [
      "generative",
      "chat",
      "a model turn of two text parts (chat joins them, research R7)",
      {
        contents: [
          { role: "user", parts: [{ text: "!" }] },
          { role: "model", parts: [{ text: "!" }, { text: "!" }] },
        ],
      },
    ],
    // Seed 20261128 of the thorough tier: an empty object came back absent (and says the same).
    [
      "responses",
      "chat",
      "an empty metadata",
      { model: "", input: [{ role: "user", content: "!" }], metadata: {} },
    ],
    [
      "messages",
      "generative",
      "a JSON Schema output format (by default native toward a model with structured outputs)",
      {
        model: "",
        max_tokens: 1,
        messages: [{ role: "user", content: "!" }],
        output_config: {
          format: { type: "json_schema", schema: { type: "object", properties: { a: { type: "string" } } } },
        },
      },
    ],
    [
      "responses",
      "chat",
      "an allowed_tools tool choice (OpenAI's chat has it)",
      {
        model: "",
        tool_choice: { type: "allowed_tools", mode: "auto", tools: [] },
        input: [{ role: "user", content: "" }],
      },
    ],
    // The same seed after the 2026 fields: a default made explicit on the way back.
    [
      "messages",
      "generative",
      "thinking without a display (it comes back asking for the summarized thoughts)",
      {
        model: "claude-sonnet-4-5",
        max_tokens: 1025,
        messages: [{ role: "user", content: "x" }],
        thinking: { type: "enabled", budget_tokens: 1024 },
      },
    ],
    [
      "messages",
      "generative",
      "service_tier: auto, the default",
      { model: "", max_tokens: 1, messages: [{ role: "user", content: "!" }], service_tier: "auto" },
    ],
    [
      "responses",
      "chat",
      "a function tool without parameters (chat writes the empty object schema)",
      {
        model: "",
        tools: [{ type: "function", name: "a", strict: true }],
        input: [{ role: "user", content: "x" }],
      },
    ],
    [
      "messages",
      "generative",
      "tool_choice none with no tools",
      { model: "", max_tokens: 1, messages: [{ role: "user", content: "!" }], tool_choice: { type: "none" } },
    ],
    [
      "messages",
      "generative",
      "an empty system list",
      { model: "", max_tokens: 1, messages: [{ role: "user", content: "!" }], system: [] },
    ],
    [
      "responses",
      "chat",
      "an empty include",
      { model: "", include: [], input: [{ role: "user", content: "x" }] },
    ],
    [
      "responses",
      "chat",
      "truncation: disabled, the service's default",
      { model: "", truncation: "disabled", input: [{ role: "user", content: "x" }] },
    ],
    [
      "messages",
      "generative",
      "an empty output_config",
      { model: "", max_tokens: 1, messages: [{ role: "user", content: "!" }], output_config: {} },
    ],
  ] as const)("%s → %s → back: %s", (from, to, _title, body) => {
    const { value, losses } = roundTrip(from, to, body);
    expect(losses).toEqual([]);
    expect(normalize(value)).toEqual(normalize(body));
  });

  test("assistant texts come back joined, as research R7 joins adjacent text blocks for chat", () => {
    const body = {
      model: "",
      max_completion_tokens: 1,
      messages: [
        { role: "user", content: "!" },
        { role: "assistant", content: "a" },
        { role: "assistant", content: "b" },
      ],
    };
    const { value, losses } = roundTrip("chat", "messages", body);
    expect(losses).toEqual([]);
    expect(value).toMatchObject({
      messages: [
        { role: "user", content: "!" },
        { role: "assistant", content: "ab" },
      ],
    });
    expect(normalize(value)).toEqual(normalize(body));
  });
});

describe("changes that are now reported", () => {
  // Seed 20261128 of the thorough tier: messages output_config.effort with thinking disabled reached
  // generative as thinking off, the effort gone without a word.
  test("an effort beside thinking disabled toward generative is reported dropped", () => {
    const body = {
      model: "",
      max_tokens: 1,
      messages: [{ role: "user", content: "!" }],
      thinking: { type: "disabled" },
      output_config: { effort: "low" },
    };
    const { value, losses } = translateRequest("messages", "generative", body, options);
    expect(value).toMatchObject({ generationConfig: { thinkingConfig: { thinkingBudget: 0 } } });
    expect(losses.map(({ path, code, kind }) => ({ path, code, kind }))).toContainEqual({
      path: "/thinking",
      code: "effort.dropped",
      kind: "dropped",
    });
  });

  // Seed 20261128 of the thorough tier (run 8744): a responses function tool without `strict` (strict
  // where its schema allows, the responses default) reached chat as non-strict and came back
  // `strict: false`, without a word.
  test.each(["chat", "messages", "generative"] as const)(
    "a responses function tool without `strict` toward %s is reported approximated; an explicit one is not",
    (to) => {
      const tool = { type: "function", name: "f", parameters: { type: "object", properties: {} } };
      const body = { model: "m", input: "hi", tools: [tool, { ...tool, name: "g", strict: false }] };
      const { losses } = translateRequest("responses", to, body, options);
      expect(losses.filter(({ code }) => code === "tool.strict.approximated")).toEqual([
        expect.objectContaining({ path: "/tools/0", kind: "approximated" }),
      ]);
      const back = roundTrip("responses", to, { ...body, tools: [{ ...tool, strict: false }] });
      expect(back.losses.filter(({ code }) => code.includes("strict"))).toEqual([]);
    },
  );

  test("a responses function tool without `strict` toward responses is sent as it came", () => {
    const body = { model: "m", input: "hi", tools: [{ type: "function", name: "f" }] };
    const { value, losses } = translateRequest("responses", "responses", body, options);
    expect(value.tools).toEqual([{ type: "function", name: "f" }]);
    expect(losses).toEqual([]);
  });

  // Seed -205145536 of the round-trip law (issue 28): the summary came back missing, with no loss.
  test("a responses reasoning summary toward OpenAI's chat, which returns no reasoning, is reported", () => {
    const body = { model: "m", input: "hi", reasoning: { effort: "minimal", summary: "auto" } };
    const { value, losses } = there("responses", "chat", body);
    expect(value).toMatchObject({ reasoning_effort: "minimal" });
    expect(losses).toEqual([{ path: "/reasoning/summary", kind: "dropped" }]);
  });

  test.each(["deepseek", "openrouter", "qwen", "vllm"] as const)(
    "a reasoning summary toward the %s dialect, which returns the reasoning text, is kept",
    (chatDialect) => {
      const body = { model: "m", input: "hi", reasoning: { effort: "low", summary: "auto" } };
      const { losses } = translateRequest("responses", "chat", body, { ...options, chatDialect });
      expect(losses.filter((entry) => entry.path === "/reasoning/summary")).toEqual([]);
    },
  );

  test("generative includeThoughts toward OpenAI's chat: true is reported where it was set, false is what it does anyway", () => {
    const body = (include: boolean) => ({
      contents: [{ role: "user", parts: [{ text: "x" }] }],
      generationConfig: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: include } },
    });
    expect(there("generative", "chat", body(true)).losses).toContainEqual({
      path: "/generationConfig/thinkingConfig/includeThoughts",
      kind: "dropped",
    });
    expect(there("generative", "chat", body(false)).losses).not.toContainEqual({
      path: "/generationConfig/thinkingConfig/includeThoughts",
      kind: "dropped",
    });
  });

  test('chat `stop: ""` dropped by messages points at /stop, the string itself', () => {
    const body = {
      model: "",
      messages: [{ role: "user", content: "x" }],
      max_completion_tokens: 1,
      stop: "",
    };
    expect(there("chat", "messages", body).losses).toEqual([{ path: "/stop", kind: "dropped" }]);
  });

  test("max_completion_tokens 0 is raised to the messages minimum of 1", () => {
    const body = { model: "", messages: [{ role: "user", content: "x" }], max_completion_tokens: 0 };
    const { value, losses } = there("chat", "messages", body);
    expect(value).toMatchObject({ max_tokens: 1 });
    expect(losses).toEqual([{ path: "/max_completion_tokens", kind: "clamped" }]);
  });

  test("an empty assistant message dropped for generative is reported", () => {
    const body = {
      model: "",
      max_completion_tokens: 1,
      messages: [
        { role: "user", content: "x" },
        { role: "assistant", content: "" },
      ],
    };
    const { value, losses } = there("chat", "generative", body);
    expect(value).toMatchObject({ contents: [{ role: "user", parts: [{ text: "x" }] }] });
    expect(losses).toEqual([{ path: "/messages/1", kind: "dropped" }]);
  });

  test.each(["messages", "generative"] as const)(
    "an empty system message dropped for %s is reported",
    (to) => {
      const body = {
        model: "",
        max_completion_tokens: 1,
        messages: [
          { role: "system", content: "" },
          { role: "user", content: "x" },
        ],
      };
      expect(there("chat", to, body).losses).toEqual([{ path: "/messages/0", kind: "dropped" }]);
    },
  );

  test("an empty text part's cache_control dropped by messages is reported", () => {
    const body = {
      model: "",
      max_completion_tokens: 1,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "", cache_control: { type: "ephemeral" } },
            { type: "text", text: "!" },
          ],
        },
      ],
    };
    expect(there("chat", "messages", body).losses).toEqual([
      { path: "/messages/0/content/0/cache_control", kind: "dropped" },
    ]);
  });

  test("trailing whitespace trimmed from a final assistant turn for messages is reported", () => {
    const body = {
      model: "",
      max_completion_tokens: 1,
      messages: [
        { role: "user", content: "!" },
        { role: "assistant", content: "! " },
      ],
    };
    const { value, losses } = there("chat", "messages", body);
    expect(value).toMatchObject({ messages: [{ role: "user" }, { role: "assistant", content: "!" }] });
    expect(losses).toEqual([{ path: "/messages/1/content", kind: "approximated" }]);
  });
});

function call(id: string) {
  return { id, type: "function", function: { name: "a", arguments: "{}" } };
}
