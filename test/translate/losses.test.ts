import { describe, expect, test } from "vitest";
import { type Protocol, type TranslateOptions, translateRequest, translateResponse } from "../../src/index";

// Loss branches the rest of the suite did not reach (found with a coverage run): each case names the
// input, and the exact loss (path and kind) the translation must report among its losses.
type Case = {
  name: string;
  kind: "request" | "response";
  from: Protocol;
  to: Protocol;
  body: unknown;
  options?: TranslateOptions;
  loss: { path: string; kind: string };
};

const user = { role: "user", content: "x" };
const msg = (extra: object) => ({ model: "m", max_tokens: 64, messages: [user], ...extra });
const chatReq = (extra: object) => ({ model: "m", messages: [user], ...extra });
const gen = (extra: object) => ({ contents: [{ role: "user", parts: [{ text: "x" }] }], ...extra });

// A cache hint on a block inside a tool_result, toward chat and generative: both dropped it silently.
const cacheInsideToolResult: Case[] = (["chat", "generative"] as const).flatMap((to) =>
  [
    { type: "text", text: "ok" },
    { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
  ].map((block) => ({
    name: `a cache hint on a ${block.type} block inside a tool_result (messages → ${to}${to === "chat" ? ", a compatible dialect" : ""})`,
    kind: "request" as const,
    from: "messages" as const,
    to,
    // OpenAI's own chat takes it as a breakpoint (target-accepts.test.ts).
    ...(to === "chat" ? { options: { chatDialect: "compatible" as const } } : {}),
    body: msg({
      tools: [{ name: "f", input_schema: { type: "object" } }],
      messages: [
        user,
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "t1",
              content: [{ ...block, cache_control: { type: "ephemeral" } }],
            },
          ],
        },
      ],
    }),
    loss: { path: "/messages/2/content/0/content/0/cache_control", kind: "dropped" },
  })),
);

// A cache hint on a tool_use block toward every other protocol: responses dropped it silently.
const cacheOnToolUse: Case[] = (["chat", "generative", "responses"] as const).map((to) => ({
  name: `a cache hint on a tool_use block (messages → ${to})`,
  kind: "request",
  from: "messages",
  to,
  body: msg({
    messages: [
      user,
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "f", input: {}, cache_control: { type: "ephemeral" } }],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
    ],
  }),
  loss: { path: "/messages/1/content/0/cache_control", kind: "dropped" },
}));

const cases: Case[] = [
  {
    name: "a name on a chat system message",
    kind: "request",
    from: "chat",
    to: "messages",
    body: chatReq({ messages: [{ role: "system", content: "s", name: "n" }, user] }),
    loss: { path: "/messages/0/name", kind: "dropped" },
  },
  {
    name: "an unknown key on a chat system content part",
    kind: "request",
    from: "chat",
    to: "messages",
    body: chatReq({ messages: [{ role: "system", content: [{ type: "text", text: "s", tag: 1 }] }, user] }),
    loss: { path: "/messages/0/content/0/tag", kind: "dropped" },
  },
  {
    name: "chat stream_options.include_obfuscation",
    kind: "request",
    from: "chat",
    to: "messages",
    body: chatReq({ stream: true, stream_options: { include_usage: true, include_obfuscation: false } }),
    loss: { path: "/stream_options/include_obfuscation", kind: "dropped" },
  },
  {
    name: "an unknown thinking mode of messages",
    kind: "request",
    from: "messages",
    to: "chat",
    body: msg({ thinking: { type: "sideways" } }),
    loss: { path: "/thinking", kind: "dropped" },
  },
  {
    name: "an unknown output format of messages",
    kind: "request",
    from: "messages",
    to: "chat",
    body: msg({ output_config: { format: { type: "xml" } } }),
    loss: { path: "/output_config/format", kind: "dropped" },
  },
  {
    name: "a messages cache lifetime OpenAI's breakpoints do not take (1h → chat)",
    kind: "request",
    from: "messages",
    to: "chat",
    body: msg({
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "x", cache_control: { type: "ephemeral", ttl: "1h" } }],
        },
      ],
    }),
    loss: { path: "/messages/0/content/0/cache_control/ttl", kind: "approximated" },
  },
  ...cacheInsideToolResult,
  ...cacheOnToolUse,
  {
    name: "an unknown thinkingConfig key of generative",
    kind: "request",
    from: "generative",
    to: "chat",
    body: gen({ generationConfig: { thinkingConfig: { thinkingBudget: 100, mode: "x" } } }),
    options: { model: "g" },
    loss: { path: "/generationConfig/thinkingConfig/mode", kind: "dropped" },
  },
  {
    name: "an unknown functionDeclarations field of generative",
    kind: "request",
    from: "generative",
    to: "chat",
    body: gen({ tools: [{ functionDeclarations: [{ name: "f", behavior: "BLOCKING" }] }] }),
    options: { model: "g" },
    loss: { path: "/tools/0/functionDeclarations/0/behavior", kind: "dropped" },
  },
  {
    name: "an unknown toolConfig key of generative",
    kind: "request",
    from: "generative",
    to: "chat",
    body: gen({ toolConfig: { retrievalConfig: { latLng: {} } } }),
    options: { model: "g" },
    loss: { path: "/toolConfig/retrievalConfig", kind: "dropped" },
  },
  {
    name: "an effort with no Gemini 3 thinking level",
    kind: "request",
    from: "chat",
    to: "generative",
    body: chatReq({ model: "gemini-3-pro-preview", reasoning_effort: "xhigh" }),
    loss: { path: "/reasoning_effort", kind: "approximated" },
  },
  {
    name: "thinking turned off for a Gemini 3 model",
    kind: "request",
    from: "messages",
    to: "generative",
    body: msg({ model: "gemini-3-pro-preview", thinking: { type: "disabled" } }),
    loss: { path: "/thinking", kind: "approximated" },
  },
  {
    name: "a response-format description to generative",
    kind: "request",
    from: "chat",
    to: "generative",
    body: chatReq({
      response_format: {
        type: "json_schema",
        // A recursive schema goes raw (responseJsonSchema); its own description leaves no room for this one.
        json_schema: {
          name: "r",
          description: "d",
          schema: { type: "object", description: "own", properties: { child: { $ref: "#" } } },
        },
      },
    }),
    loss: { path: "/response_format/json_schema/description", kind: "dropped" },
  },
  {
    name: "a messages top_k that is not an integer",
    kind: "request",
    from: "generative",
    to: "messages",
    body: gen({ generationConfig: { topK: 2.5 } }),
    // The generative schema rejects a fractional topK; unvalidated input still gets an honest answer.
    options: { model: "g", validate: false },
    loss: { path: "/generationConfig/topK", kind: "clamped" },
  },
  {
    name: "strict: false with jsonMode native",
    kind: "request",
    from: "chat",
    to: "messages",
    body: chatReq({
      max_tokens: 5,
      response_format: {
        type: "json_schema",
        json_schema: { name: "r", strict: false, schema: { type: "object" } },
      },
    }),
    options: { jsonMode: "native" },
    loss: { path: "/response_format/json_schema/strict", kind: "approximated" },
  },
  {
    name: "a chat thinking block without signature replayed to messages history",
    kind: "request",
    from: "generative",
    to: "messages",
    body: gen({
      contents: [
        { role: "user", parts: [{ text: "x" }] },
        { role: "model", parts: [{ text: "hm", thought: true }, { text: "a" }] },
        { role: "user", parts: [{ text: "y" }] },
      ],
    }),
    options: { model: "g" },
    loss: { path: "/contents/1/parts/0", kind: "dropped" },
  },
  {
    name: "a further candidate of a generative response to messages",
    kind: "response",
    from: "generative",
    to: "messages",
    body: {
      candidates: [
        { index: 0, finishReason: "STOP", content: { role: "model", parts: [{ text: "a" }] } },
        { index: 1, finishReason: "STOP", content: { role: "model", parts: [{ text: "b" }] } },
      ],
    },
    loss: { path: "/candidates/1", kind: "dropped" },
  },
  // An unknown field of a reasoning_text part (the raw reasoning a responses item carries).
  ...(["chat", "generative"] as const).map((to) => ({
    name: `an unknown field of a reasoning_text part (responses → ${to})`,
    kind: "response" as const,
    from: "responses" as const,
    to,
    body: {
      id: "resp_1",
      object: "response",
      created_at: 1,
      status: "completed",
      model: "m",
      output: [
        {
          id: "rs_1",
          type: "reasoning",
          summary: [],
          content: [{ type: "reasoning_text", text: "why", x_vendor: 1 }],
        },
      ],
    },
    loss: { path: "/output/0/content/0/x_vendor", kind: "dropped" },
  })),
  // Annotations on a chat message with no text: kept for chat itself, dropped silently for the others
  // until they were reported as the stream decoder reports them.
  ...(["messages", "generative", "responses"] as const).map((to) => ({
    name: `annotations on a chat message with no text (chat → ${to})`,
    kind: "response" as const,
    from: "chat" as const,
    to,
    body: {
      id: "c1",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            annotations: [
              {
                type: "url_citation",
                url_citation: { url: "https://a.example", title: "A", start_index: 0, end_index: 1 },
              },
            ],
          },
          finish_reason: "stop",
        },
      ],
    },
    loss: { path: "/choices/0/message/annotations", kind: "dropped" },
  })),
];

describe("loss branches, each with its exact path and kind", () => {
  test.each(cases)("$name", ({ kind, from, to, body, options, loss }) => {
    const result =
      kind === "request"
        ? translateRequest(from, to, body, options)
        : translateResponse(from, to, body, options);
    expect(result.losses.map((entry) => ({ path: entry.path, kind: entry.kind }))).toContainEqual(loss);
  });
});
