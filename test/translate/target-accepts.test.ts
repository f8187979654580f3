/**
 * Issue 30, Build 3: what a target accepts reaches it — a prompt cache key and verbosity toward the
 * OpenAI protocols, a tool's `strict` toward messages, one effort↔budget table for both thinking
 * targets and an effort as it is where the model takes one, asking for the thoughts or not
 * (`display`), a reasoning item without `id`, documents inside tool results. (A system message in
 * place: test/protocols/responses/translate.test.ts and test/translate/real-traffic.test.ts.)
 */
import { describe, expect, test } from "vitest";
import { type Loss, responses, translateRequest } from "../../src/index";

const user = [{ role: "user" as const, content: "x" }];
const codes = (losses: readonly Loss[]) => losses.map((entry) => `${entry.code} ${entry.path}`);

describe("prompt_cache_key and verbosity", () => {
  const body = {
    model: "gpt-5.5",
    input: "x",
    prompt_cache_key: "session-1",
    text: { verbosity: "low" as const },
  };

  test("responses → chat → responses carries both, nothing lost", () => {
    const toChat = translateRequest("responses", "chat", body);
    expect(toChat.value).toMatchObject({ prompt_cache_key: "session-1", verbosity: "low" });
    expect(toChat.losses).toEqual([]);
    const back = translateRequest("chat", "responses", toChat.value);
    expect(back.value).toMatchObject({ prompt_cache_key: "session-1", text: { verbosity: "low" } });
    expect(back.losses).toEqual([]);
  });

  test("messages and generative have neither: each dropped where it was given", () => {
    expect(
      codes(translateRequest("responses", "messages", { ...body, max_output_tokens: 100 }).losses),
    ).toEqual(["prompt_cache_key.dropped /prompt_cache_key", "verbosity.dropped /text/verbosity"]);
    expect(codes(translateRequest("responses", "generative", body).losses)).toEqual([
      "prompt_cache_key.dropped /prompt_cache_key",
      "verbosity.dropped /text/verbosity",
    ]);
  });

  test("a compatible chat dialect's server has neither: dropped, said", () => {
    const toCompatible = translateRequest("responses", "chat", body, { chatDialect: "deepseek" });
    expect(toCompatible.value).not.toHaveProperty("prompt_cache_key");
    expect(toCompatible.value).not.toHaveProperty("verbosity");
    expect(toCompatible.losses.map((entry) => entry.path)).toEqual(["/prompt_cache_key", "/text/verbosity"]);
  });
});

test("a strict tool reaches messages strict (structured outputs), nothing lost", () => {
  const { value, losses } = translateRequest(
    "chat",
    "messages",
    {
      model: "claude-sonnet-4-6",
      messages: user,
      max_tokens: 100,
      tools: [
        {
          type: "function",
          function: { name: "f", strict: true, parameters: { type: "object", properties: {} } },
        },
      ],
    },
    {},
  );
  expect(value.tools).toEqual([
    { name: "f", input_schema: { type: "object", properties: {} }, strict: true },
  ]);
  expect(losses).toEqual([]);
});

describe("reasoning effort and thinking budgets", () => {
  const effort = (model: string, reasoning_effort: string) => ({
    model,
    messages: user,
    max_completion_tokens: 100_000,
    reasoning_effort,
  });

  test("one table for both thinking targets: the same effort is the same budget toward messages and generative", () => {
    for (const [level, budget] of [
      ["low", 1024],
      ["medium", 8192],
      ["high", 24576],
    ] as const) {
      const messages = translateRequest("chat", "messages", effort("claude-sonnet-4-5", level));
      const generative = translateRequest("chat", "generative", effort("gemini-2.5-flash", level));
      expect(messages.value.thinking, level).toEqual({ type: "enabled", budget_tokens: budget });
      expect(generative.value.generationConfig?.thinkingConfig?.thinkingBudget, level).toBe(budget);
      // The reverse direction buckets by the same table.
      const back = translateRequest("messages", "chat", messages.value);
      expect(back.value.reasoning_effort, level).toBe(level);
    }
  });

  test("a model that takes an effort gets it as it is: messages adaptive thinking with output_config.effort, Gemini 3 a level", () => {
    const messages = translateRequest("chat", "messages", effort("claude-sonnet-4-6", "medium"));
    expect(messages.value.thinking).toEqual({ type: "adaptive" });
    expect(messages.value.output_config).toEqual({ effort: "medium" });
    expect(messages.losses).toEqual([]);
    const generative = translateRequest("chat", "generative", effort("gemini-3-pro-preview", "medium"));
    expect(generative.value.generationConfig?.thinkingConfig).toEqual({
      thinkingLevel: "medium",
      includeThoughts: true,
    });
    expect(generative.losses).toEqual([]);
    // And back: messages' effort is chat's effort.
    const back = translateRequest("messages", "chat", messages.value);
    expect(back.value.reasoning_effort).toBe("medium");
    expect(back.losses).toEqual([]);
  });

  test("messages `display` is asking for the thoughts or not: generative includeThoughts, a messages display again", () => {
    const body = (display: "summarized" | "omitted") => ({
      model: "claude-sonnet-4-6",
      max_tokens: 2000,
      thinking: { type: "adaptive" as const, display },
      output_config: { effort: "high" as const },
      messages: user,
    });
    for (const display of ["summarized", "omitted"] as const) {
      const toGenerative = translateRequest("messages", "generative", body(display), {
        targetModel: "gemini-3-pro-preview",
      });
      expect(toGenerative.value.generationConfig?.thinkingConfig).toEqual({
        thinkingLevel: "high",
        includeThoughts: display === "summarized",
      });
      expect(toGenerative.losses).toEqual([]);
      const back = translateRequest("generative", "messages", toGenerative.value, {
        model: "claude-sonnet-4-6",
      });
      expect(back.value.thinking).toEqual({ type: "adaptive", display });
      expect(back.value.output_config).toEqual({ effort: "high" });
    }
  });
});

test("a reasoning item without id (Codex's stateless replay) is a valid request, replayed to responses as it is", () => {
  const body = {
    model: "gpt-5.5",
    input: [
      { role: "user" as const, content: "hi" },
      { type: "reasoning" as const, summary: [], encrypted_content: "gAAAA-opaque" },
      { role: "assistant" as const, content: "x" },
      { role: "user" as const, content: "y" },
    ],
  };
  expect(responses.request.safeParse(body).success).toBe(true);
  const toMessages = translateRequest("responses", "messages", { ...body, max_output_tokens: 100 });
  expect(codes(toMessages.losses)).toEqual(["thinking.foreign /input/1"]);
});

describe("documents inside tool results (Claude Code reads PDFs with a tool)", () => {
  const pdf = "JVBERi0xLjQK";
  const body = {
    model: "claude-sonnet-4-6",
    max_tokens: 100,
    messages: [
      { role: "user" as const, content: "read it" },
      {
        role: "assistant" as const,
        content: [{ type: "tool_use" as const, id: "toolu_1", name: "Read", input: { path: "a.pdf" } }],
      },
      {
        role: "user" as const,
        content: [
          {
            type: "tool_result" as const,
            tool_use_id: "toolu_1",
            content: [
              { type: "text" as const, text: "PDF:" },
              {
                type: "document" as const,
                source: { type: "base64" as const, media_type: "application/pdf" as const, data: pdf },
              },
            ],
          },
        ],
      },
    ],
  };

  test("responses: inside the function_call_output", () => {
    const { value } = translateRequest("messages", "responses", body);
    expect(value.input).toContainEqual({
      type: "function_call_output",
      call_id: "toolu_1",
      output: [
        { type: "input_text", text: "PDF:" },
        { type: "input_file", file_data: `data:application/pdf;base64,${pdf}`, filename: "file" },
      ],
    });
  });

  test("chat: tool messages are text only, so the PDF follows them in a user message, said", () => {
    const { value, losses } = translateRequest("messages", "chat", body);
    expect(value.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "file", file: { file_data: `data:application/pdf;base64,${pdf}` } }],
    });
    expect(codes(losses)).toEqual(["content.approximated /messages/2/content/0/content/1"]);
  });

  test("Gemini 3: inside the function response (functionResponse.parts); Gemini 2.5: a part after it, said", () => {
    const three = translateRequest("messages", "generative", body, { targetModel: "gemini-3-pro-preview" });
    expect(three.value.contents.at(-1)?.parts).toEqual([
      {
        functionResponse: {
          id: "toolu_1",
          name: "Read",
          response: { content: "PDF:" },
          parts: [{ inlineData: { mimeType: "application/pdf", data: pdf } }],
        },
      },
    ]);
    expect(three.losses.filter((entry) => entry.path.startsWith("/messages/2"))).toEqual([]);
    const two = translateRequest("messages", "generative", body, { targetModel: "gemini-2.5-flash" });
    expect(two.value.contents.at(-1)?.parts).toEqual([
      { functionResponse: { id: "toolu_1", name: "Read", response: { content: "PDF:" } } },
      { inlineData: { mimeType: "application/pdf", data: pdf } },
    ]);
    expect(codes(two.losses)).toContain("content.approximated /messages/2/content/0/content/1");
  });
});

test("a web search tool is each target's own web search (its settings the target's defaults, said); chat has none", () => {
  const body = {
    model: "gpt-5.5",
    input: "x",
    max_output_tokens: 100,
    tools: [{ type: "web_search" as const }],
  };
  const toMessages = translateRequest("responses", "messages", body);
  expect(toMessages.value.tools).toEqual([{ type: "web_search_20250305", name: "web_search" }]);
  expect(codes(toMessages.losses)).toEqual(["tools.approximated /tools/0"]);
  const toGenerative = translateRequest("responses", "generative", body);
  expect(toGenerative.value.tools).toEqual([{ googleSearch: {} }]);
  expect(codes(toGenerative.losses)).toEqual(["tools.approximated /tools/0"]);
  expect(codes(translateRequest("responses", "chat", body).losses)).toEqual(["tools.dropped /tools/0"]);
  const back = translateRequest("messages", "responses", toMessages.value);
  expect(back.value.tools).toEqual([{ type: "web_search" }]);
});

describe("prompt cache breakpoints: messages cache_control is OpenAI's prompt_cache_breakpoint, both ways", () => {
  const mark = { mode: "explicit" };
  const body = {
    model: "claude-sonnet-4-6",
    max_tokens: 100,
    system: [
      { type: "text" as const, text: "rules" },
      { type: "text" as const, text: "more rules", cache_control: { type: "ephemeral" as const } },
    ],
    messages: [
      {
        role: "user" as const,
        content: [
          {
            type: "text" as const,
            text: "hi",
            cache_control: { type: "ephemeral" as const, ttl: "1h" as const },
          },
        ],
      },
    ],
  };

  test("toward chat and responses each hint is a breakpoint on its part; a lifetime OpenAI does not take is said", () => {
    const toChat = translateRequest("messages", "chat", body);
    expect(toChat.value.messages).toEqual([
      {
        role: "system",
        content: [
          { type: "text", text: "rules" },
          { type: "text", text: "more rules", prompt_cache_breakpoint: mark },
        ],
      },
      { role: "user", content: [{ type: "text", text: "hi", prompt_cache_breakpoint: mark }] },
    ]);
    expect(codes(toChat.losses)).toEqual([
      "cache_control.ttl.approximated /messages/0/content/0/cache_control/ttl",
    ]);
    const toResponses = translateRequest("messages", "responses", body);
    expect(toResponses.value.input).toEqual([
      {
        role: "system",
        content: [
          { type: "input_text", text: "rules" },
          { type: "input_text", text: "more rules", prompt_cache_breakpoint: mark },
        ],
      },
      { role: "user", content: [{ type: "input_text", text: "hi", prompt_cache_breakpoint: mark }] },
    ]);
    expect(codes(toResponses.losses)).toEqual([
      "cache_control.ttl.approximated /messages/0/content/0/cache_control/ttl",
    ]);
    // A compatible chat dialect's server has no cache hint.
    expect(
      codes(translateRequest("messages", "chat", body, { chatDialect: "vllm" }).losses).filter((entry) =>
        entry.startsWith("cache_control.dropped"),
      ),
    ).toEqual([
      "cache_control.dropped /system/1/cache_control",
      "cache_control.dropped /messages/0/content/0/cache_control",
    ]);
  });

  test("a recorded chat request with breakpoints and prompt_cache_options: responses takes both, messages gets cache_control", () => {
    const recorded = {
      model: "gpt-5.5",
      prompt_cache_key: "k",
      prompt_cache_options: { mode: "explicit" as const, ttl: "30m" },
      messages: [
        {
          role: "user" as const,
          content: [
            {
              type: "text" as const,
              text: "catalogue",
              prompt_cache_breakpoint: { mode: "explicit" as const },
            },
            { type: "text" as const, text: "question" },
          ],
        },
      ],
    };
    const toResponses = translateRequest("chat", "responses", recorded);
    expect(toResponses.value).toMatchObject({
      prompt_cache_key: "k",
      prompt_cache_options: { mode: "explicit", ttl: "30m" },
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "catalogue", prompt_cache_breakpoint: mark },
            { type: "input_text", text: "question" },
          ],
        },
      ],
    });
    expect(toResponses.losses).toEqual([]);
    const toMessages = translateRequest("chat", "messages", recorded, { maxTokens: 100 });
    expect(toMessages.value.messages[0]?.content).toEqual([
      { type: "text", text: "catalogue", cache_control: { type: "ephemeral" } },
      { type: "text", text: "question" },
    ]);
    expect(codes(toMessages.losses)).toEqual([
      "prompt_cache_key.dropped /prompt_cache_key",
      "prompt_cache_options.dropped /prompt_cache_options",
    ]);
  });
});

describe("JSON Schema both ways", () => {
  test("Gemini CLI's OpenAPI type names (OBJECT, STRING) come out lower-case toward chat, messages and responses", () => {
    const body = {
      contents: [{ role: "user" as const, parts: [{ text: "x" }] }],
      generationConfig: {
        responseMimeType: "application/json",
        responseJsonSchema: {
          type: "OBJECT",
          properties: { a: { type: "STRING" }, n: { type: ["INTEGER", "NULL"] } },
        },
      },
      tools: [
        {
          functionDeclarations: [
            {
              name: "read",
              description: "Reads",
              parametersJsonSchema: { type: "OBJECT", properties: { path: { type: "STRING" } } },
            },
          ],
        },
      ],
    };
    const lower = { type: "object", properties: { a: { type: "string" }, n: { type: ["integer", "null"] } } };
    const toChat = translateRequest("generative", "chat", body, { model: "gemini-3-pro-preview" });
    expect(toChat.value.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { schema: lower },
    });
    expect(toChat.value.tools?.[0]).toMatchObject({
      function: { parameters: { type: "object", properties: { path: { type: "string" } } } },
    });
    const toMessages = translateRequest("generative", "messages", body, { model: "claude-sonnet-4-6" });
    expect(toMessages.value.tools?.[0]).toMatchObject({
      input_schema: { type: "object", properties: { path: { type: "string" } } },
    });
  });

  test("a schema with no type: generative and messages write the type its properties tell, and say so", () => {
    const body = {
      model: "m",
      max_tokens: 100,
      messages: [{ role: "user" as const, content: "x" }],
      tools: [
        {
          type: "function" as const,
          function: { name: "f", parameters: { properties: { a: { type: "string" } } } },
        },
      ],
    };
    const toGenerative = translateRequest("chat", "generative", body);
    expect(toGenerative.value.tools?.[0]?.functionDeclarations?.[0]?.parameters).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
    expect(codes(toGenerative.losses)).toEqual([
      "tool.schema.type.synthesized /tools/0/function/parameters/type",
    ]);
    const toMessages = translateRequest("chat", "messages", body);
    expect(toMessages.value.tools?.[0]).toMatchObject({ input_schema: { type: "object" } });
    expect(codes(toMessages.losses)).toEqual([
      "tool.schema.type.synthesized /tools/0/function/parameters/type",
    ]);
  });
});

test("OpenAI's moderation setting passes between chat and responses; messages and generative have none, said", () => {
  const moderation = {
    model: "omni-moderation-latest",
    policy: { input: { mode: "block" }, output: { mode: "block" } },
  };
  const body = { model: "gpt-5.5", messages: user, moderation };
  const toResponses = translateRequest("chat", "responses", body);
  expect(toResponses.value.moderation).toEqual(moderation);
  expect(toResponses.losses).toEqual([]);
  expect(translateRequest("responses", "chat", toResponses.value).value.moderation).toEqual(moderation);
  expect(codes(translateRequest("chat", "messages", body, { maxTokens: 10 }).losses)).toEqual([
    "moderation.dropped /moderation",
  ]);
  expect(codes(translateRequest("chat", "generative", body).losses)).toEqual([
    "moderation.dropped /moderation",
  ]);
});
