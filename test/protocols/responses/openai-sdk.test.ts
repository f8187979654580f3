/**
 * The `openai` SDK's responses API (`responses.create`, `responses.stream(...).finalResponse()`) as a
 * real client of a translating gateway in front of each other protocol's upstream: the SDK's request is
 * translated to the upstream's protocol (checked as the upstream would receive it), and the upstream's
 * answer is translated back. A fetch stub plays the gateway; no network.
 */
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import {
  chat,
  generative,
  messages,
  type Protocol,
  translateError,
  translateEventStream,
  translateRequest,
  translateResponse,
} from "../../../src/index";

type Upstream = Exclude<Protocol, "responses">;
type Json = Record<string, unknown>;

/** One upstream exchange: the answer it gives (JSON, SSE text, or an error) to the translated request. */
type Scripted = { status?: number; body?: unknown; sse?: string };

/** A client whose every call goes through the gateway to `upstream`; `sent` collects the translated requests. */
function gateway(upstream: Upstream, answer: Scripted): { client: OpenAI; sent: unknown[] } {
  const sent: unknown[] = [];
  const fetch: typeof globalThis.fetch = async (_url, init) => {
    const body = JSON.parse(String(init?.body)) as Json;
    const translated = translateRequest("responses", upstream, body, { created: 1_700_000_000 });
    sent.push(translated.value);
    const schema = { chat: chat.request, messages: messages.request, generative: generative.request }[
      upstream
    ];
    expect(schema.safeParse(translated.value).error?.issues ?? []).toEqual([]);
    if (answer.status !== undefined && answer.status >= 400) {
      const error = translateError(upstream, "responses", { status: answer.status, body: answer.body });
      return new Response(JSON.stringify(error.body), {
        status: error.status,
        headers: { "content-type": "application/json" },
      });
    }
    if (answer.sse !== undefined) {
      const stream = translateEventStream(
        upstream,
        "responses",
        new Response(answer.sse).body as ReadableStream,
      );
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    }
    const value = translateResponse(upstream, "responses", answer.body, { created: 1_700_000_000 }).value;
    return new Response(JSON.stringify(value), { headers: { "content-type": "application/json" } });
  };
  return {
    client: new OpenAI({ apiKey: "k", baseURL: "http://gateway.test/v1", maxRetries: 0, fetch }),
    sent,
  };
}

const sse = (events: readonly unknown[], named = false): string =>
  events
    .map((event) =>
      named
        ? `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`
        : `data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`,
    )
    .join("");

/** Each upstream's answer to the same conversation: a text and a call of `get_weather`, cached prompt tokens. */
const upstreams: Record<
  Upstream,
  { text: Scripted; call: Scripted; length: Scripted; stream: Scripted; limited: Scripted; invalid: Scripted }
> = {
  chat: {
    text: {
      body: {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: "gpt-x",
        choices: [
          { index: 0, message: { role: "assistant", content: "It is sunny." }, finish_reason: "stop" },
        ],
        usage: {
          prompt_tokens: 120,
          completion_tokens: 5,
          total_tokens: 125,
          prompt_tokens_details: { cached_tokens: 100 },
        },
      },
    },
    call: {
      body: {
        id: "chatcmpl-2",
        object: "chat.completion",
        created: 1,
        model: "gpt-x",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  id: "call_1",
                  type: "function",
                  function: { name: "get_weather", arguments: '{"city":"Paris"}' },
                },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 },
      },
    },
    length: {
      body: {
        id: "chatcmpl-3",
        object: "chat.completion",
        created: 1,
        model: "gpt-x",
        choices: [
          { index: 0, message: { role: "assistant", content: "It is sun" }, finish_reason: "length" },
        ],
        usage: { prompt_tokens: 20, completion_tokens: 16, total_tokens: 36 },
      },
    },
    stream: {
      sse: sse([
        {
          id: "c",
          object: "chat.completion.chunk",
          created: 1,
          model: "gpt-x",
          choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
        },
        {
          id: "c",
          object: "chat.completion.chunk",
          created: 1,
          model: "gpt-x",
          choices: [{ index: 0, delta: { content: "It is " }, finish_reason: null }],
        },
        {
          id: "c",
          object: "chat.completion.chunk",
          created: 1,
          model: "gpt-x",
          choices: [{ index: 0, delta: { content: "sunny." }, finish_reason: null }],
        },
        {
          id: "c",
          object: "chat.completion.chunk",
          created: 1,
          model: "gpt-x",
          choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
        },
        {
          id: "c",
          object: "chat.completion.chunk",
          created: 1,
          model: "gpt-x",
          choices: [],
          usage: {
            prompt_tokens: 120,
            completion_tokens: 5,
            total_tokens: 125,
            prompt_tokens_details: { cached_tokens: 100 },
          },
        },
        "[DONE]",
      ]),
    },
    limited: {
      status: 429,
      body: {
        error: {
          message: "Rate limit reached for requests",
          type: "requests",
          code: "rate_limit_exceeded",
          param: null,
        },
      },
    },
    invalid: {
      status: 400,
      body: {
        error: {
          message: "Invalid 'input[0]': bad image.",
          type: "invalid_request_error",
          code: null,
          param: "input",
        },
      },
    },
  },
  messages: {
    text: {
      body: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-x",
        content: [
          { type: "thinking", thinking: "Check the sky.", signature: "SIG" },
          { type: "text", text: "It is sunny." },
        ],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 20, cache_read_input_tokens: 100, output_tokens: 5 },
      },
    },
    call: {
      body: {
        id: "msg_2",
        type: "message",
        role: "assistant",
        model: "claude-x",
        content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } }],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 9 },
      },
    },
    length: {
      body: {
        id: "msg_3",
        type: "message",
        role: "assistant",
        model: "claude-x",
        content: [{ type: "text", text: "It is sun" }],
        stop_reason: "max_tokens",
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 16 },
      },
    },
    stream: {
      sse: sse(
        [
          {
            type: "message_start",
            message: {
              id: "msg_4",
              type: "message",
              role: "assistant",
              model: "claude-x",
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 20, cache_read_input_tokens: 100, output_tokens: 1 },
            },
          },
          { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
          { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "It is " } },
          { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "sunny." } },
          { type: "content_block_stop", index: 0 },
          {
            type: "message_delta",
            delta: { stop_reason: "end_turn", stop_sequence: null },
            usage: { output_tokens: 5 },
          },
          { type: "message_stop" },
        ],
        true,
      ),
    },
    limited: {
      status: 429,
      body: {
        type: "error",
        error: { type: "rate_limit_error", message: "Rate limit reached for requests" },
      },
    },
    invalid: {
      status: 400,
      body: {
        type: "error",
        error: { type: "invalid_request_error", message: "Invalid 'input[0]': bad image." },
      },
    },
  },
  generative: {
    text: {
      body: {
        candidates: [{ content: { role: "model", parts: [{ text: "It is sunny." }] }, finishReason: "STOP" }],
        usageMetadata: {
          promptTokenCount: 120,
          cachedContentTokenCount: 100,
          candidatesTokenCount: 5,
          totalTokenCount: 125,
        },
        modelVersion: "gemini-x",
        responseId: "g1",
      },
    },
    call: {
      body: {
        candidates: [
          {
            content: {
              role: "model",
              parts: [{ functionCall: { id: "fc1", name: "get_weather", args: { city: "Paris" } } }],
            },
            finishReason: "STOP",
          },
        ],
        usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 9, totalTokenCount: 29 },
        modelVersion: "gemini-x",
        responseId: "g2",
      },
    },
    length: {
      body: {
        candidates: [
          { content: { role: "model", parts: [{ text: "It is sun" }] }, finishReason: "MAX_TOKENS" },
        ],
        usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 16, totalTokenCount: 36 },
        modelVersion: "gemini-x",
        responseId: "g3",
      },
    },
    stream: {
      sse: sse([
        {
          candidates: [{ content: { role: "model", parts: [{ text: "It is " }] } }],
          modelVersion: "gemini-x",
          responseId: "g4",
        },
        {
          candidates: [{ content: { role: "model", parts: [{ text: "sunny." }] }, finishReason: "STOP" }],
          usageMetadata: {
            promptTokenCount: 120,
            cachedContentTokenCount: 100,
            candidatesTokenCount: 5,
            totalTokenCount: 125,
          },
          modelVersion: "gemini-x",
          responseId: "g4",
        },
      ]),
    },
    limited: {
      status: 429,
      body: {
        error: { code: 429, message: "Rate limit reached for requests", status: "RESOURCE_EXHAUSTED" },
      },
    },
    invalid: {
      status: 400,
      body: { error: { code: 400, message: "Invalid 'input[0]': bad image.", status: "INVALID_ARGUMENT" } },
    },
  },
};

const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  description: "The weather in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};

/** A multi-turn conversation with a system prompt, an image, a finished tool exchange and a budget. */
const conversation: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
  model: "m",
  instructions: "Answer in one sentence.",
  max_output_tokens: 64,
  tools: [weatherTool],
  input: [
    {
      role: "user",
      content: [
        { type: "input_text", text: "What is in this picture, and the weather in Paris?" },
        { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" },
      ],
    },
    { type: "function_call", call_id: "call_0", name: "get_weather", arguments: '{"city":"Paris"}' },
    { type: "function_call_output", call_id: "call_0", output: "22°C, clear" },
    { role: "assistant", content: "A cat. Paris is clear." },
    { role: "user", content: "And now?" },
  ],
};

/** The system prompt, the turns and the tool result as each upstream received them. */
const received: Record<Upstream, (request: never) => unknown> = {
  chat: (request: chat.Request) => ({
    system: request.messages[0],
    roles: request.messages.map((message) => message.role),
    result: request.messages.find((message) => message.role === "tool"),
    image: JSON.stringify(request.messages).includes("data:image/png;base64,iVBORw0KGgo="),
    budget: request.max_completion_tokens,
  }),
  messages: (request: messages.Request) => ({
    system: request.system,
    roles: request.messages.map((message) => message.role),
    result: JSON.stringify(request.messages).includes('"tool_use_id":"call_0"'),
    image: JSON.stringify(request.messages).includes('"data":"iVBORw0KGgo="'),
    budget: request.max_tokens,
  }),
  generative: (request: generative.Request) => ({
    system: request.systemInstruction,
    roles: request.contents.map((content) => content.role),
    result: JSON.stringify(request.contents).includes('"functionResponse"'),
    image: JSON.stringify(request.contents).includes('"data":"iVBORw0KGgo="'),
    budget: request.generationConfig?.maxOutputTokens,
  }),
};

const expectedRequest: Record<Upstream, unknown> = {
  chat: {
    system: { role: "system", content: "Answer in one sentence." },
    roles: ["system", "user", "assistant", "tool", "assistant", "user"],
    result: { role: "tool", tool_call_id: "call_0", content: "22°C, clear" },
    image: true,
    budget: 64,
  },
  messages: {
    system: "Answer in one sentence.",
    roles: ["user", "assistant", "user", "assistant", "user"],
    result: true,
    image: true,
    budget: 64,
  },
  generative: {
    system: { parts: [{ text: "Answer in one sentence." }] },
    roles: ["user", "model", "user", "model", "user"],
    result: true,
    image: true,
    budget: 64,
  },
};

describe.each(["chat", "messages", "generative"] as const)(
  "the openai SDK's responses API, %s upstream",
  (upstream) => {
    const answers = upstreams[upstream];

    test("a multi-turn request with instructions, an image and a tool result reaches the upstream whole", async () => {
      const { client, sent } = gateway(upstream, answers.text);
      const response = await client.responses.create(conversation);
      expect(response.output_text).toBe("It is sunny.");
      expect(received[upstream](sent[0] as never)).toEqual(expectedRequest[upstream]);
    });

    test("text and cached usage", async () => {
      const { client } = gateway(upstream, answers.text);
      const response = await client.responses.create({ model: "m", input: "Weather?" });
      expect(response.status).toBe("completed");
      expect(response.output_text).toBe("It is sunny.");
      expect(response.usage).toMatchObject({
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 100 },
        output_tokens: 5,
        total_tokens: 125,
      });
    });

    test("a tool call comes back as a function_call item to answer by call_id", async () => {
      const { client } = gateway(upstream, answers.call);
      const response = await client.responses.create({
        model: "m",
        input: "Weather in Paris?",
        tools: [weatherTool],
      });
      const calls = response.output.filter((item) => item.type === "function_call");
      expect(calls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
        ["get_weather", { city: "Paris" }],
      ]);
      expect(calls[0]?.call_id).toMatch(/\S/);
      expect(response.status).toBe("completed");
    });

    test("an exhausted budget is an incomplete response (max_output_tokens)", async () => {
      const { client, sent } = gateway(upstream, answers.length);
      const response = await client.responses.create({
        model: "m",
        input: "Weather?",
        max_output_tokens: 16,
      });
      expect(response.status).toBe("incomplete");
      expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
      expect(response.output_text).toBe("It is sun");
      expect(JSON.stringify(sent[0])).toContain("16");
    });

    test("a stream: deltas as they come, and the final response", async () => {
      const { client } = gateway(upstream, answers.stream);
      const stream = client.responses.stream({ model: "m", input: "Weather?" });
      const deltas: string[] = [];
      stream.on("response.output_text.delta", (event) => deltas.push(event.delta));
      const final = await stream.finalResponse();
      expect(deltas.join("")).toBe("It is sunny.");
      expect(deltas.length).toBeGreaterThanOrEqual(2);
      expect(final.output_text).toBe("It is sunny.");
      expect(final.status).toBe("completed");
      expect(final.usage?.input_tokens_details?.cached_tokens).toBe(100);
    });

    test("a raw stream (create with stream: true) iterates to response.completed, numbered from 0", async () => {
      const { client } = gateway(upstream, answers.stream);
      const stream = await client.responses.create({ model: "m", input: "Weather?", stream: true });
      const seen: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const event of stream) seen.push(event);
      expect(seen.map((event) => event.sequence_number)).toEqual(seen.map((_, index) => index));
      expect(seen[0]?.type).toBe("response.created");
      expect(seen.at(-1)?.type).toBe("response.completed");
    });

    test("429 from the upstream is the SDK's RateLimitError with the upstream's message", async () => {
      const { client } = gateway(upstream, answers.limited);
      const failure = client.responses.create({ model: "m", input: "Weather?" });
      await expect(failure).rejects.toBeInstanceOf(OpenAI.RateLimitError);
      await expect(failure).rejects.toThrow(/Rate limit reached for requests/);
    });

    test("400 from the upstream is the SDK's BadRequestError with the upstream's message", async () => {
      const { client } = gateway(upstream, answers.invalid);
      const failure = client.responses.create({ model: "m", input: "Weather?" });
      await expect(failure).rejects.toBeInstanceOf(OpenAI.BadRequestError);
      await expect(failure).rejects.toThrow(/bad image/);
    });

    test("an upstream stream cut off makes the SDK's stream fail, never finish", async () => {
      const whole = answers.stream.sse as string;
      // Cut after the event before the last text (a cut inside an event is issue 12's byte-level case).
      const cut = whole.lastIndexOf("\n\n", whole.indexOf("sunny")) + 2;
      const { client } = gateway(upstream, { sse: whole.slice(0, cut) });
      await expect(
        client.responses.stream({ model: "m", input: "Weather?" }).finalResponse(),
      ).rejects.toThrow(/ended before its finish/);
    });
  },
);
