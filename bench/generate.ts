/**
 * Generated request and response payloads, written directly in each protocol's wire shape (not through
 * our encoders) and deterministic: a conversation with tools, parallel tool calls and an image, at a
 * normal size and at about 200 KB.
 */

export type Protocol = "chat" | "messages" | "generative" | "responses";
type Json = Record<string, unknown>;

const WORDS =
  "the a gateway request stream token model reply tool weather city forecast answer data table query user assistant json schema value field number string list item result error retry cache budget think plan step check merge translate ratio cost fast slow small large image text block event chunk delta usage index order name id argument".split(
    " ",
  );

/** A small linear congruential generator: the same seed gives the same text every run. */
function words(seed: number, count: number): string {
  let state = (seed * 2654435761) >>> 0 || 1;
  const out: string[] = [];
  for (let index = 0; index < count; index++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out.push(WORDS[state % WORDS.length] ?? "x");
  }
  return out.join(" ");
}

/** Deterministic base64 of `bytes` bytes behind a PNG signature: only the shape matters here. */
function base64Image(bytes: number): string {
  const data = new Uint8Array(bytes);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let index = 8; index < bytes; index++) data[index] = (index * 31 + 7) & 0xff;
  return Buffer.from(data).toString("base64");
}

type ToolCall = { id: string; name: string; args: Json; result: Json };
type Exchange = { user: string; image?: string; calls: ToolCall[]; answer: string };
type Conversation = { system: string; exchanges: Exchange[] };

const tools = [
  {
    name: "get_weather",
    description: "Current weather and a short forecast for a city.",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", description: "City name" },
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
        days: { type: "integer", minimum: 1, maximum: 7 },
      },
      required: ["city"],
    },
  },
  {
    name: "search_docs",
    description: "Full-text search over the product documentation.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string" },
        filters: {
          type: "object",
          properties: { section: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
        },
        limit: { type: "integer" },
      },
      required: ["query"],
    },
  },
  {
    name: "run_sql",
    description: "Runs a read-only SQL query and returns the rows.",
    parameters: {
      type: "object",
      properties: { sql: { type: "string" }, params: { type: "array", items: { type: "number" } } },
      required: ["sql"],
    },
  },
] as const;

/**
 * The conversation every protocol renders: `exchanges` user turns, each answered; every third exchange
 * first makes parallel tool calls (two or three) whose results come back before the answer; an image in
 * the first user turn. `scale` multiplies the length of every text.
 */
function conversation(exchanges: number, scale: number): Conversation {
  const list: Exchange[] = [];
  for (let turn = 0; turn < exchanges; turn++) {
    const calls: ToolCall[] = [];
    if (turn % 3 === 1) {
      const count = turn % 2 === 0 ? 2 : 3;
      for (let ordinal = 0; ordinal < count; ordinal++) {
        const tool = tools[(turn + ordinal) % tools.length]!;
        calls.push({
          id: `call_${turn}_${ordinal}`,
          name: tool.name,
          args:
            tool.name === "get_weather"
              ? { city: words(turn * 10 + ordinal, 2), unit: "celsius", days: 3 }
              : tool.name === "search_docs"
                ? {
                    query: words(turn * 11 + ordinal, 6),
                    filters: { section: "api", tags: ["stream", "tools"] },
                    limit: 5,
                  }
                : {
                    sql: `select * from events where kind = '${words(turn, 1)}' limit 20`,
                    params: [1, 2, 3],
                  },
          result: { ok: true, rows: 3, text: words(turn * 13 + ordinal, Math.round(40 * scale)) },
        });
      }
    }
    list.push({
      user: words(turn * 7 + 1, Math.round(30 * scale)),
      ...(turn === 0 ? { image: base64Image(1536) } : {}),
      calls,
      answer: words(turn * 7 + 2, Math.round(60 * scale)),
    });
  }
  return { system: words(3, Math.round(80 * scale)), exchanges: list };
}

function chatRequest(conversationValue: Conversation): Json {
  const messages: Json[] = [{ role: "system", content: conversationValue.system }];
  for (const exchange of conversationValue.exchanges) {
    messages.push({
      role: "user",
      content:
        exchange.image === undefined
          ? exchange.user
          : [
              { type: "text", text: exchange.user },
              {
                type: "image_url",
                image_url: { url: `data:image/png;base64,${exchange.image}`, detail: "auto" },
              },
            ],
    });
    if (exchange.calls.length > 0) {
      messages.push({
        role: "assistant",
        content: null,
        tool_calls: exchange.calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.args) },
        })),
      });
      for (const call of exchange.calls) {
        messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(call.result) });
      }
    }
    messages.push({ role: "assistant", content: exchange.answer });
  }
  messages.push({ role: "user", content: "Summarise the conversation so far." });
  return {
    model: "gpt-4o-mini",
    messages,
    tools: tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    })),
    tool_choice: "auto",
    parallel_tool_calls: true,
    temperature: 0.7,
    max_tokens: 1024,
    stream: false,
  };
}

function messagesRequest(conversationValue: Conversation): Json {
  const messages: Json[] = [];
  for (const exchange of conversationValue.exchanges) {
    messages.push({
      role: "user",
      content:
        exchange.image === undefined
          ? exchange.user
          : [
              { type: "image", source: { type: "base64", media_type: "image/png", data: exchange.image } },
              { type: "text", text: exchange.user },
            ],
    });
    if (exchange.calls.length > 0) {
      messages.push({
        role: "assistant",
        content: exchange.calls.map((call) => ({
          type: "tool_use",
          id: `toolu_${call.id}`,
          name: call.name,
          input: call.args,
        })),
      });
      messages.push({
        role: "user",
        content: exchange.calls.map((call) => ({
          type: "tool_result",
          tool_use_id: `toolu_${call.id}`,
          content: JSON.stringify(call.result),
        })),
      });
    }
    messages.push({ role: "assistant", content: [{ type: "text", text: exchange.answer }] });
  }
  messages.push({ role: "user", content: "Summarise the conversation so far." });
  return {
    model: "claude-sonnet-4-5",
    system: conversationValue.system,
    messages,
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    })),
    tool_choice: { type: "auto" },
    temperature: 0.7,
    max_tokens: 1024,
  };
}

function generativeRequest(conversationValue: Conversation): Json {
  const contents: Json[] = [];
  for (const exchange of conversationValue.exchanges) {
    contents.push({
      role: "user",
      parts:
        exchange.image === undefined
          ? [{ text: exchange.user }]
          : [{ inlineData: { mimeType: "image/png", data: exchange.image } }, { text: exchange.user }],
    });
    if (exchange.calls.length > 0) {
      contents.push({
        role: "model",
        parts: exchange.calls.map((call) => ({ functionCall: { name: call.name, args: call.args } })),
      });
      contents.push({
        role: "user",
        parts: exchange.calls.map((call) => ({
          functionResponse: { name: call.name, response: call.result },
        })),
      });
    }
    contents.push({ role: "model", parts: [{ text: exchange.answer }] });
  }
  contents.push({ role: "user", parts: [{ text: "Summarise the conversation so far." }] });
  return {
    systemInstruction: { parts: [{ text: conversationValue.system }] },
    contents,
    tools: [
      {
        functionDeclarations: tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
        })),
      },
    ],
    toolConfig: { functionCallingConfig: { mode: "AUTO" } },
    generationConfig: { temperature: 0.7, maxOutputTokens: 1024 },
  };
}

function responsesRequest(conversationValue: Conversation): Json {
  const input: Json[] = [];
  for (const exchange of conversationValue.exchanges) {
    input.push({
      role: "user",
      content:
        exchange.image === undefined
          ? exchange.user
          : [
              { type: "input_text", text: exchange.user },
              { type: "input_image", image_url: `data:image/png;base64,${exchange.image}`, detail: "auto" },
            ],
    });
    for (const call of exchange.calls)
      input.push({
        type: "function_call",
        call_id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.args),
      });
    for (const call of exchange.calls)
      input.push({ type: "function_call_output", call_id: call.id, output: JSON.stringify(call.result) });
    input.push({ role: "assistant", content: exchange.answer });
  }
  input.push({ role: "user", content: "Summarise the conversation so far." });
  return {
    model: "gpt-5-mini",
    instructions: conversationValue.system,
    input,
    tools: tools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    })),
    tool_choice: "auto",
    parallel_tool_calls: true,
    temperature: 0.7,
    max_output_tokens: 1024,
    stream: false,
  };
}

const renderers: Record<Protocol, (value: Conversation) => Json> = {
  chat: chatRequest,
  messages: messagesRequest,
  generative: generativeRequest,
  responses: responsesRequest,
};

/** A 20-exchange conversation with tools, parallel tool calls and an image, in `protocol`'s shape. */
export function conversationRequest(protocol: Protocol): Json {
  return renderers[protocol](conversation(20, 1));
}

/**
 * A short request, the commonest gateway call: a system prompt, one user turn and the usual sampling
 * fields, in `protocol`'s shape.
 */
export function shortRequest(protocol: Protocol): Json {
  const system = "You are a concise assistant. Answer in one paragraph.";
  const user = "What is the boiling point of water at the top of Mount Everest, roughly?";
  if (protocol === "chat")
    return {
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
      temperature: 0.7,
      top_p: 0.9,
      max_tokens: 256,
      stop: ["\n\n"],
      stream: false,
    };
  if (protocol === "messages")
    return {
      model: "claude-sonnet-4-5",
      system,
      messages: [{ role: "user", content: user }],
      temperature: 0.7,
      top_p: 0.9,
      max_tokens: 256,
      stop_sequences: ["\n\n"],
    };
  if (protocol === "responses")
    // The responses API has no stop sequences.
    return {
      model: "gpt-5-mini",
      instructions: system,
      input: [{ role: "user", content: user }],
      temperature: 0.7,
      top_p: 0.9,
      max_output_tokens: 256,
      stream: false,
    };
  return {
    systemInstruction: { parts: [{ text: system }] },
    contents: [{ role: "user", parts: [{ text: user }] }],
    generationConfig: { temperature: 0.7, topP: 0.9, maxOutputTokens: 256, stopSequences: ["\n\n"] },
  };
}

/** A conversation of about 200 KB of JSON (in the chat shape; the others are within a few percent). */
export function largeRequest(protocol: Protocol): Json {
  return renderers[protocol](conversation(40, 6.2));
}

const responseText = words(99, 400);
const responseCalls = [0, 1, 2].map((ordinal) => ({
  id: `call_r_${ordinal}`,
  name: tools[ordinal]!.name,
  args: { city: words(ordinal, 2), query: words(ordinal + 5, 8), limit: ordinal + 1 },
}));

/** A response with a long text, three parallel tool calls and cache-aware usage. */
export function toolResponse(protocol: Protocol): Json {
  if (protocol === "chat") {
    return {
      id: "chatcmpl-bench",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "gpt-4o-mini",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: responseText,
            tool_calls: responseCalls.map((call) => ({
              id: call.id,
              type: "function",
              function: { name: call.name, arguments: JSON.stringify(call.args) },
            })),
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: {
        prompt_tokens: 2000,
        completion_tokens: 600,
        total_tokens: 2600,
        prompt_tokens_details: { cached_tokens: 1500 },
      },
    };
  }
  if (protocol === "messages") {
    return {
      id: "msg_bench",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [
        { type: "text", text: responseText },
        ...responseCalls.map((call) => ({
          type: "tool_use",
          id: `toolu_${call.id}`,
          name: call.name,
          input: call.args,
        })),
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: 500,
        output_tokens: 600,
        cache_read_input_tokens: 1500,
        cache_creation_input_tokens: 0,
      },
    };
  }
  if (protocol === "responses") {
    return {
      id: "resp_bench",
      object: "response",
      created_at: 1_700_000_000,
      status: "completed",
      error: null,
      incomplete_details: null,
      model: "gpt-5-mini",
      output: [
        {
          id: "msg_bench",
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", annotations: [], logprobs: [], text: responseText }],
        },
        ...responseCalls.map((call, ordinal) => ({
          id: `fc_bench_${ordinal}`,
          type: "function_call",
          status: "completed",
          arguments: JSON.stringify(call.args),
          call_id: call.id,
          name: call.name,
        })),
      ],
      usage: {
        input_tokens: 2000,
        input_tokens_details: { cached_tokens: 1500 },
        output_tokens: 600,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 2600,
      },
    };
  }
  return {
    candidates: [
      {
        content: {
          role: "model",
          parts: [
            { text: responseText },
            ...responseCalls.map((call) => ({ functionCall: { name: call.name, args: call.args } })),
          ],
        },
        finishReason: "STOP",
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: 2000,
      candidatesTokenCount: 600,
      totalTokenCount: 2600,
      cachedContentTokenCount: 1500,
    },
    modelVersion: "gemini-2.5-flash",
    responseId: "bench-response",
  };
}
