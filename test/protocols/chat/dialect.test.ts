/**
 * `options.chatDialect`: what each chat-compatible upstream gets (dialect.ts), each dialect's recorded
 * fixtures translated both ways, and reasoning state (thinking + signature) surviving a round trip
 * through OpenRouter's `reasoning_details`.
 */

import { describe, expect, test } from "vitest";
import type { ChatDialect } from "../../../src/common/options";
import { chat, generative, messages, translateRequest, translateResponse } from "../../../src/index";
import { splitId } from "../../../src/protocols/chat/carrier";
import { readJson } from "./fixtures";

const dialects: ChatDialect[] = ["openai", "compatible", "deepseek", "openrouter", "qwen", "vllm"];
const kinds = (losses: readonly { path: string; kind: string }[]) =>
  losses.map(({ path, kind }) => ({ path, kind }));

const SIGNATURE = "EugCCkgIDRABGAIqQPO/3ufZc1gKugjv03ufL77WNiAsz39I93VSLf5dQy4m";

/** A messages conversation whose assistant turn thought (signed) and called a tool. */
const signedHistory = {
  model: "anthropic/claude-sonnet-4.5",
  max_tokens: 8000,
  thinking: { type: "enabled", budget_tokens: 3000 },
  messages: [
    { role: "user", content: "Weather in Paris?" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should call the weather tool.", signature: SIGNATURE },
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
      ],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "sunny" }] },
  ],
  tools: [
    { name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } } } },
  ],
};

function toChat(body: unknown, dialect: ChatDialect) {
  const result = translateRequest("messages", "chat", body, { chatDialect: dialect });
  expect(chat.request.safeParse(result.value).success).toBe(true);
  return result;
}

describe("what each dialect sends", () => {
  test.each(dialects)("%s: the output budget field", (dialect) => {
    const { value } = toChat(
      { model: "m", max_tokens: 100, messages: [{ role: "user", content: "hi" }] },
      dialect,
    );
    const field = dialect === "openai" ? "max_completion_tokens" : "max_tokens";
    const other = dialect === "openai" ? "max_tokens" : "max_completion_tokens";
    expect(value[field]).toBe(100);
    expect(value[other]).toBeUndefined();
  });

  const budgetCases: [ChatDialect, Record<string, unknown>, { path: string; kind: string }[]][] = [
    ["openai", { reasoning_effort: "medium" }, [{ path: "/thinking/budget_tokens", kind: "approximated" }]],
    [
      "compatible",
      { reasoning_effort: "medium" },
      [{ path: "/thinking/budget_tokens", kind: "approximated" }],
    ],
    [
      "deepseek",
      { thinking: { type: "enabled" }, reasoning_effort: "medium" },
      [{ path: "/thinking/budget_tokens", kind: "approximated" }],
    ],
    ["openrouter", { reasoning: { max_tokens: 3000 } }, []],
    ["qwen", { enable_thinking: true, thinking_budget: 3000 }, []],
    [
      "vllm",
      { reasoning_effort: "medium", chat_template_kwargs: { enable_thinking: true } },
      [{ path: "/thinking/budget_tokens", kind: "approximated" }],
    ],
  ];
  test.each(budgetCases)(
    "%s: a thinking budget becomes the dialect's switches",
    (dialect, switches, losses) => {
      const { value, losses: got } = toChat(
        {
          model: "m",
          max_tokens: 8000,
          thinking: { type: "enabled", budget_tokens: 3000 },
          messages: [{ role: "user", content: "hi" }],
        },
        dialect,
      );
      expect(value).toMatchObject(switches);
      for (const key of [
        "reasoning_effort",
        "reasoning",
        "thinking",
        "enable_thinking",
        "chat_template_kwargs",
      ])
        if (!(key in switches)) expect(value).not.toHaveProperty(key);
      expect(kinds(got)).toEqual(losses);
    },
  );

  const offCases: [ChatDialect, Record<string, unknown>][] = [
    ["openai", {}],
    ["compatible", {}],
    ["deepseek", { thinking: { type: "disabled" } }],
    ["openrouter", { reasoning: { enabled: false } }],
    ["qwen", { enable_thinking: false }],
    ["vllm", { chat_template_kwargs: { enable_thinking: false } }],
  ];
  test.each(offCases)("%s: thinking turned off", (dialect, switches) => {
    const { value } = toChat(
      {
        model: "m",
        max_tokens: 100,
        thinking: { type: "disabled" },
        messages: [{ role: "user", content: "hi" }],
      },
      dialect,
    );
    expect(value).toMatchObject(switches);
    expect(value.reasoning_effort).toBeUndefined();
  });

  test("an effort goes to OpenRouter's reasoning.effort; Qwen, which has none, says so", () => {
    const body = {
      model: "m",
      max_tokens: 100,
      thinking: { type: "adaptive" },
      output_config: { effort: "high" },
      messages: [{ role: "user", content: "hi" }],
    };
    expect(toChat(body, "openrouter").value.reasoning).toEqual({ effort: "high", enabled: undefined });
    const qwen = toChat(body, "qwen");
    expect(qwen.value.enable_thinking).toBe(true);
    expect(kinds(qwen.losses)).toEqual([{ path: "/thinking", kind: "approximated" }]);
  });

  test.each([
    ["openai", false],
    ["compatible", false],
    ["deepseek", false],
    ["openrouter", true],
    ["qwen", true],
    ["vllm", true],
  ] as const)("%s: top_k is sent: %s", (dialect, sent) => {
    const { value, losses } = toChat(
      { model: "m", max_tokens: 100, top_k: 40, messages: [{ role: "user", content: "hi" }] },
      dialect,
    );
    expect(value.top_k).toBe(sent ? 40 : undefined);
    expect(kinds(losses)).toEqual(sent ? [] : [{ path: "/top_k", kind: "dropped" }]);
  });
});

describe("how reasoning goes back on assistant turns", () => {
  test.each([
    ["openai", "reasoning_content"],
    ["compatible", "reasoning_content"],
    ["deepseek", "reasoning_content"],
    ["qwen", "reasoning_content"],
    ["vllm", "reasoning"],
  ] as const)("%s: as %s, the signature dropped with a loss at its field", (dialect, field) => {
    const { value, losses } = toChat(signedHistory, dialect);
    const assistant = value.messages[1] as chat.AssistantMessage;
    expect(assistant[field]).toBe("I should call the weather tool.");
    expect(assistant.reasoning_details).toBeUndefined();
    expect(kinds(losses)).toContainEqual({ path: "/messages/1/content/0/signature", kind: "dropped" });
  });

  test("openrouter: as reasoning_details, signature included, with no loss", () => {
    const { value, losses } = toChat(signedHistory, "openrouter");
    expect(value.messages[1]).toEqual({
      role: "assistant",
      content: null,
      reasoning_details: [
        {
          type: "reasoning.text",
          text: "I should call the weather tool.",
          signature: SIGNATURE,
          format: "anthropic-claude-v1",
          index: 0,
        },
      ],
      tool_calls: [
        { id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      ],
    });
    expect(value.reasoning).toEqual({ max_tokens: 3000 });
    expect(losses).toEqual([]);
  });

  test("deepseek: a tool-call turn without reasoning gets an empty reasoning_content, reported", () => {
    const body = {
      ...signedHistory,
      messages: [
        signedHistory.messages[0],
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } }],
        },
        signedHistory.messages[2],
      ],
    };
    const deepseek = toChat(body, "deepseek");
    expect((deepseek.value.messages[1] as chat.AssistantMessage).reasoning_content).toBe("");
    expect(kinds(deepseek.losses)).toContainEqual({ path: "/messages/1", kind: "synthesized" });
    const openai = toChat(body, "openai");
    expect(openai.value.messages[1]).not.toHaveProperty("reasoning_content");
  });

  test.each([
    ["openai", "reasoning_content"],
    ["deepseek", "reasoning_content"],
    ["qwen", "reasoning_content"],
    ["vllm", "reasoning"],
    ["openrouter", "reasoning"],
  ] as const)("%s: a response's reasoning is sent as %s", (dialect, field) => {
    const { value } = translateResponse(
      "messages",
      "chat",
      {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude",
        content: [
          { type: "thinking", thinking: "Easy.", signature: SIGNATURE },
          { type: "text", text: "4" },
        ],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 3, output_tokens: 2 },
      },
      { chatDialect: dialect },
    );
    const message = value.choices[0]?.message;
    expect(message?.[field]).toBe("Easy.");
    expect(message?.reasoning_details !== undefined).toBe(dialect === "openrouter");
  });
});

describe("Gemini's thought signature through chat-compatible extra_content, both ways", () => {
  const signed = {
    contents: [
      { role: "user", parts: [{ text: "Weather?" }] },
      {
        role: "model",
        parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "c2ln" }],
      },
      {
        role: "user",
        parts: [{ functionResponse: { name: "get_weather", response: { content: "sunny" } } }],
      },
    ],
  };

  test("a generative history → chat (compatible) → generative keeps the signature on the call", () => {
    const there = translateRequest("generative", "chat", signed, {
      model: "gemini-3-flash-preview",
      chatDialect: "compatible",
    });
    const call = (there.value.messages[1] as chat.AssistantMessage).tool_calls?.[0] as chat.FunctionToolCall;
    expect(call.extra_content).toEqual({ google: { thought_signature: "c2ln" } });
    expect(kinds(there.losses)).toEqual([
      { path: "/contents/1/parts/0/functionCall/id", kind: "synthesized" },
    ]);
    const back = translateRequest("chat", "generative", there.value);
    expect(back.value.contents[1]?.parts?.[0]).toMatchObject({ thoughtSignature: "c2ln" });
    expect(back.losses).toEqual([]);
  });

  test("openai rejects unknown message fields: there the signature is dropped with a loss", () => {
    const there = translateRequest("generative", "chat", signed, { model: "gemini-3-flash-preview" });
    const call = (there.value.messages[1] as chat.AssistantMessage).tool_calls?.[0] as chat.FunctionToolCall;
    expect(call.extra_content).toBeUndefined();
    expect(kinds(there.losses)).toContainEqual({
      path: "/contents/1/parts/0/thoughtSignature",
      kind: "dropped",
    });
  });

  test("a response's signed call reaches a compatible chat client in extra_content, and comes back", () => {
    const response = {
      responseId: "r1",
      modelVersion: "gemini-3-flash-preview",
      candidates: [
        {
          index: 0,
          finishReason: "STOP",
          content: {
            role: "model",
            parts: [
              {
                functionCall: { id: "fc_1", name: "get_weather", args: { city: "Paris" } },
                thoughtSignature: "c2ln",
              },
            ],
          },
        },
      ],
    };
    const there = translateResponse("generative", "chat", response, {
      chatDialect: "compatible",
      created: 1,
    });
    expect(there.value.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      extra_content: { google: { thought_signature: "c2ln" } },
    });
    expect(there.losses).toEqual([]);
    const back = translateResponse("chat", "generative", there.value);
    expect(back.value.candidates?.[0]?.content?.parts?.[0]).toEqual({
      functionCall: { id: "fc_1", name: "get_weather", args: { city: "Paris" } },
      thoughtSignature: "c2ln",
    });
  });

  test("the recorded Gemini-compatible response carries its signature into generative", () => {
    const body = readJson("chat/response/gemini-openai-compat-tool-call-empty-id.json");
    const { value } = translateResponse("chat", "generative", body);
    const part = value.candidates?.[0]?.content?.parts?.find((item) => item.functionCall !== undefined);
    expect(part?.thoughtSignature).toBeTypeOf("string");
  });
});

describe("reasoning state survives a round trip through OpenRouter reasoning_details", () => {
  test("request: messages thinking + signature → chat (openrouter) → messages again, unchanged", () => {
    const there = toChat(signedHistory, "openrouter");
    expect(there.losses).toEqual([]);
    const back = translateRequest("chat", "messages", there.value);
    expect(messages.request.safeParse(back.value).success).toBe(true);
    expect(back.value.messages).toEqual(signedHistory.messages);
    expect(back.value.thinking).toEqual(signedHistory.thinking);
    expect(back.losses).toEqual([]);
  });

  test("response: messages thinking + signature → chat (openrouter) → messages again, unchanged", () => {
    const original = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude",
      content: [
        { type: "thinking", thinking: "Plan.", signature: SIGNATURE },
        { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix" },
        { type: "text", text: "Done." },
      ],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 2 },
    };
    const there = translateResponse("messages", "chat", original, { chatDialect: "openrouter", created: 1 });
    expect(there.losses).toEqual([]);
    expect(there.value.choices[0]?.message.reasoning_details).toEqual([
      {
        type: "reasoning.text",
        text: "Plan.",
        signature: SIGNATURE,
        format: "anthropic-claude-v1",
        index: 0,
      },
      { type: "reasoning.encrypted", data: "EmwKAhgBEgy3va3pzix", format: "anthropic-claude-v1", index: 1 },
    ]);
    const back = translateResponse("chat", "messages", there.value);
    expect(back.value.content).toEqual(original.content);
  });

  test("the recorded OpenRouter signed response → messages → chat (openrouter) gives its reasoning_details back", () => {
    const body = readJson("chat/response/openrouter-anthropic-reasoning-signature.json") as chat.Response;
    const viaMessages = translateResponse("chat", "messages", body);
    const thinking = viaMessages.value.content[0] as { type: string; signature: string };
    expect(thinking.type).toBe("thinking");
    expect(thinking.signature).toBe(body.choices[0]?.message.reasoning_details?.[0]?.signature);
    const back = translateResponse("messages", "chat", viaMessages.value, { chatDialect: "openrouter" });
    expect(back.value.choices[0]?.message.reasoning_details).toEqual(
      body.choices[0]?.message.reasoning_details,
    );
    expect(back.value.choices[0]?.message.reasoning).toBe(body.choices[0]?.message.reasoning);
  });
});

/** Tool calls compared by id, name and parsed arguments (a trip through messages re-serialises them). */
// A call's own id: reasoning state carried after it (`<id>~<carrier>`, issue 29) is the thinking's.
const calls = (toolCalls: readonly chat.ToolCall[] | null | undefined) =>
  (toolCalls ?? []).map((call) => {
    const id = splitId(call.id, "").id;
    return call.type === "function"
      ? { id, name: call.function.name, args: JSON.parse(call.function.arguments) as unknown }
      : { id, name: call.custom.name, input: call.custom.input };
  });

describe("each dialect's recorded fixtures translate both ways", () => {
  const viaMessagesAndBack = (path: string, dialect: ChatDialect) => {
    const body = readJson(path) as chat.Request;
    const there = translateRequest("chat", "messages", body, { maxTokens: 1024 });
    expect(messages.request.safeParse(there.value).success).toBe(true);
    const back = translateRequest("messages", "chat", there.value, { chatDialect: dialect });
    expect(chat.request.safeParse(back.value).success).toBe(true);
    return { body, back: back.value };
  };

  test("deepseek request: tool turns keep their calls and carry reasoning_content again", () => {
    const { body, back } = viaMessagesAndBack(
      "chat/request/deepseek-reasoning-content-tool-turns.json",
      "deepseek",
    );
    const turns = (messages: chat.Message[]) =>
      messages.filter((message): message is chat.AssistantMessage => message.role === "assistant");
    expect(turns(back.messages).map((turn) => calls(turn.tool_calls))).toEqual(
      turns(body.messages).map((turn) => calls(turn.tool_calls)),
    );
    for (const turn of turns(back.messages)) expect(typeof turn.reasoning_content).toBe("string");
    expect(back.max_tokens).toBe(1024);
  });

  test("openrouter request: the effort becomes a messages budget, which comes back as reasoning.max_tokens", () => {
    const { back } = viaMessagesAndBack("chat/request/openrouter-reasoning-effort.json", "openrouter");
    expect(back.reasoning).toEqual({ max_tokens: 24576 });
  });

  test("an echoed signed reasoning_details (Snowflake Cortex) reaches messages as signed thinking, and comes back", () => {
    const body = readJson("chat/request/snowflake-reasoning-details-echo.json") as chat.Request;
    const echoed = (body.messages[1] as chat.AssistantMessage).reasoning_details?.[0];
    const there = translateRequest("chat", "messages", body, { maxTokens: 4096 });
    expect(there.value.messages[1]?.content).toEqual([
      { type: "thinking", thinking: echoed?.text, signature: echoed?.signature },
      { type: "text", text: "Sure! Let me check that for you!" },
      {
        type: "tool_use",
        id: "toolu_bdrk_01VmA9jmWpws4HgPqjhtGo6i",
        name: "get_weather",
        input: { city: "Mexico City" },
      },
    ]);
    expect(kinds(there.losses)).toContainEqual({
      path: "/messages/1/reasoning_details/0/id",
      kind: "dropped",
    });
    const back = translateRequest("messages", "chat", there.value, { chatDialect: "openrouter" });
    expect((back.value.messages[1] as chat.AssistantMessage).reasoning_details).toEqual([
      {
        type: "reasoning.text",
        text: echoed?.text,
        signature: echoed?.signature,
        format: "anthropic-claude-v1",
        index: 0,
      },
    ]);
  });

  test("qwen request: enable_thinking comes back as enable_thinking", () => {
    const { back } = viaMessagesAndBack("chat/request/qwen-enable-thinking.json", "qwen");
    expect(back.enable_thinking).toBe(true);
    expect(back.stream).toBe(true);
  });

  test("vllm request: the tool turn and its result come back; max_tokens is the budget field", () => {
    const { body, back } = viaMessagesAndBack("chat/request/vllm-crusoe-reasoning-echo.json", "vllm");
    expect(calls((back.messages[1] as chat.AssistantMessage).tool_calls)).toEqual(
      calls((body.messages[1] as chat.AssistantMessage).tool_calls),
    );
    expect(back.max_tokens).toBe(1024);
  });

  test("mistral request: the thinking chunks of the history are read as reasoning", () => {
    const body = readJson("chat/request/mistral-thinking-history.json");
    const toGenerative = translateRequest("chat", "generative", body, { chatDialect: "compatible" });
    expect(generative.request.safeParse(toGenerative.value).success).toBe(true);
    expect(kinds(toGenerative.losses)).toContainEqual({ path: "/messages/1/content/0", kind: "dropped" });
  });

  test.each([
    ["chat/response/deepseek-reasoning.json", "deepseek", "reasoning_content"],
    ["chat/response/alibaba-qwen-reasoning.json", "qwen", "reasoning_content"],
    ["chat/response/vllm-crusoe-annotations-null.json", "vllm", "reasoning"],
    ["chat/response/openrouter-reasoning-details.json", "openrouter", "reasoning"],
    ["chat/response/snowflake-reasoning-details-signature.json", "openrouter", "reasoning"],
    ["chat/response/mistral-thinking.json", "compatible", "reasoning_content"],
  ] as const)("%s → messages → chat (%s): reasoning comes back as %s", (path, dialect, field) => {
    const body = readJson(path) as chat.Response;
    const there = translateResponse("chat", "messages", body);
    const back = translateResponse("messages", "chat", there.value, { chatDialect: dialect });
    expect(chat.response.safeParse(back.value).success).toBe(true);
    const source = body.choices[0]?.message;
    const details = source?.reasoning_details?.map((detail) => detail.text ?? detail.summary ?? "").join("");
    const thinking = Array.isArray(source?.content)
      ? source.content
          .flatMap((part) =>
            part.type === "thinking"
              ? (part as chat.ThinkingPart).thinking.map((chunk) => chunk.text ?? "")
              : [],
          )
          .join("")
      : undefined;
    const reasoning = source?.reasoning_content ?? source?.reasoning ?? details ?? thinking;
    expect(back.value.choices[0]?.message[field]).toBe(reasoning);
    expect(calls(back.value.choices[0]?.message.tool_calls)).toEqual(calls(source?.tool_calls));
  });

  test("deepseek response: the cache counters come back in the deepseek dialect", () => {
    const body = readJson("chat/response/deepseek-reasoning.json") as chat.Response;
    const there = translateResponse("chat", "messages", body);
    const back = translateResponse("messages", "chat", there.value, { chatDialect: "deepseek" });
    expect(back.value.usage).toMatchObject({
      prompt_tokens: body.usage?.prompt_tokens,
      prompt_cache_hit_tokens: body.usage?.prompt_cache_hit_tokens,
      prompt_cache_miss_tokens: body.usage?.prompt_cache_miss_tokens,
    });
  });
});

describe("every dialect's reasoning switches are read", () => {
  const decode = (extra: Record<string, unknown>) =>
    translateRequest(
      "chat",
      "messages",
      { model: "m", max_tokens: 8000, messages: [{ role: "user", content: "hi" }], ...extra },
      { maxTokens: 8000 },
    );

  test.each([
    [{ reasoning: { max_tokens: 2000 } }, { type: "enabled", budget_tokens: 2000 }],
    [{ reasoning: { effort: "minimal", enabled: true } }, { type: "enabled", budget_tokens: 1024 }],
    [{ reasoning: { enabled: false } }, { type: "disabled" }],
    [{ thinking: { type: "enabled", budget_tokens: 3000 } }, { type: "enabled", budget_tokens: 3000 }],
    [{ thinking: { type: "disabled" } }, { type: "disabled" }],
    [
      { enable_thinking: true, thinking_budget: 1500 },
      { type: "enabled", budget_tokens: 1500 },
    ],
    [{ enable_thinking: false }, { type: "disabled" }],
    [{ chat_template_kwargs: { enable_thinking: false } }, { type: "disabled" }],
    [{ reasoning_effort: "low" }, { type: "enabled", budget_tokens: 1024 }],
  ])("%j → thinking %j", (switches, thinking) => {
    const { value, losses } = decode(switches);
    expect(value.thinking).toEqual(thinking);
    // An effort is a level, not a token count: the budget made of it is an approximation at the effort.
    const effort = "reasoning_effort" in switches ? "/reasoning_effort" : "/reasoning/effort";
    const isEffort = JSON.stringify(switches).includes('effort"');
    expect(losses.map(({ path, kind }) => `${kind} ${path}`)).toEqual(
      isEffort ? [`approximated ${effort}`] : [],
    );
  });

  test("an unknown chat template argument is reported, the switch beside it read", () => {
    const { value, losses } = decode({ chat_template_kwargs: { enable_thinking: true, custom_flag: 1 } });
    expect(value.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
    expect(kinds(losses)).toEqual([
      { path: "/chat_template_kwargs/custom_flag", kind: "dropped" },
      { path: "/chat_template_kwargs/enable_thinking", kind: "approximated" },
    ]);
  });
});
