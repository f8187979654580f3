/**
 * Generated SSE bodies in each protocol's exact event grammar: a long text stream (5,000 deltas) and
 * a tool-call stream (some text, then three parallel tool calls whose arguments arrive in pieces).
 */
import type { Protocol } from "./generate";

type Json = Record<string, unknown>;

const PIECES = [" the", " gateway", " streams", " a", " token", ",", " then", " another", " one", "."];

const sse = (data: Json | string, event?: string): string =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

type Plan = { texts: string[]; calls: { id: string; name: string; pieces: string[] }[] };

function textPlan(deltas: number): Plan {
  const texts: string[] = [];
  for (let index = 0; index < deltas; index++) texts.push(PIECES[index % PIECES.length]!);
  return { texts, calls: [] };
}

function toolPlan(): Plan {
  const calls = [0, 1, 2].map((ordinal) => {
    const args = JSON.stringify({
      city: `City number ${ordinal}`,
      query: PIECES.join("").repeat(8),
      limit: ordinal + 1,
      filters: { tags: ["a", "b", "c"], section: "api" },
    });
    const pieces: string[] = [];
    for (let at = 0; at < args.length; at += 4) pieces.push(args.slice(at, at + 4));
    return { id: `call_s_${ordinal}`, name: ["get_weather", "search_docs", "run_sql"][ordinal]!, pieces };
  });
  return { texts: textPlan(40).texts, calls };
}

function chatStream(plan: Plan): string {
  const base = {
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "gpt-4o-mini",
  };
  const chunk = (delta: Json, finish: string | null = null): string =>
    sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  let out = chunk({ role: "assistant", content: "" });
  for (const text of plan.texts) out += chunk({ content: text });
  plan.calls.forEach((call, index) => {
    out += chunk({
      tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
    });
    for (const piece of call.pieces)
      out += chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  out += chunk({}, plan.calls.length > 0 ? "tool_calls" : "stop");
  out += sse({
    ...base,
    choices: [],
    usage: {
      prompt_tokens: 120,
      completion_tokens: plan.texts.length,
      total_tokens: 120 + plan.texts.length,
    },
  });
  return `${out}${sse("[DONE]")}`;
}

function messagesStream(plan: Plan): string {
  let out = sse(
    {
      type: "message_start",
      message: {
        id: "msg_bench",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 120, output_tokens: 1 },
      },
    },
    "message_start",
  );
  out += sse(
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    "content_block_start",
  );
  out += sse({ type: "ping" }, "ping");
  for (const text of plan.texts) {
    out += sse(
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
      "content_block_delta",
    );
  }
  out += sse({ type: "content_block_stop", index: 0 }, "content_block_stop");
  plan.calls.forEach((call, ordinal) => {
    const index = ordinal + 1;
    out += sse(
      {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: `toolu_${call.id}`, name: call.name, input: {} },
      },
      "content_block_start",
    );
    for (const piece of call.pieces) {
      out += sse(
        { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } },
        "content_block_delta",
      );
    }
    out += sse({ type: "content_block_stop", index }, "content_block_stop");
  });
  out += sse(
    {
      type: "message_delta",
      delta: { stop_reason: plan.calls.length > 0 ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: plan.texts.length },
    },
    "message_delta",
  );
  return `${out}${sse({ type: "message_stop" }, "message_stop")}`;
}

function generativeStream(plan: Plan): string {
  const chunk = (parts: Json[], last: boolean): string =>
    sse({
      candidates: [
        { content: { role: "model", parts }, index: 0, ...(last ? { finishReason: "STOP" } : {}) },
      ],
      usageMetadata: last
        ? {
            promptTokenCount: 120,
            candidatesTokenCount: plan.texts.length,
            totalTokenCount: 120 + plan.texts.length,
          }
        : { promptTokenCount: 120, totalTokenCount: 120 },
      modelVersion: "gemini-2.5-flash",
      responseId: "bench-response",
    });
  let out = "";
  plan.texts.forEach((text, index) => {
    out += chunk([{ text }], plan.calls.length === 0 && index === plan.texts.length - 1);
  });
  // Generative sends each function call whole, in one chunk, with the finish reason on the last.
  if (plan.calls.length > 0) {
    out += chunk(
      plan.calls.map((call) => ({
        functionCall: { name: call.name, args: JSON.parse(call.pieces.join("")) },
      })),
      true,
    );
  }
  return out;
}

/** A responses stream as OpenAI sends it: named events numbered by `sequence_number`, whole items in `.done`. */
function responsesStream(plan: Plan): string {
  let sequence = 0;
  const event = (fields: Json): string => {
    const type = fields.type as string;
    return sse({ type, sequence_number: sequence++, ...fields }, type);
  };
  const response = (status: string, output: unknown[], usage: unknown): Json => ({
    id: "resp_bench",
    object: "response",
    created_at: 1_700_000_000,
    status,
    error: null,
    incomplete_details: null,
    model: "gpt-5-mini",
    output,
    usage,
  });
  let out = event({ type: "response.created", response: response("in_progress", [], null) });
  out += event({ type: "response.in_progress", response: response("in_progress", [], null) });
  const message = { id: "msg_bench", type: "message", role: "assistant" };
  const at = { item_id: message.id, output_index: 0, content_index: 0 };
  out += event({
    type: "response.output_item.added",
    output_index: 0,
    item: { ...message, status: "in_progress", content: [] },
  });
  out += event({
    type: "response.content_part.added",
    ...at,
    part: { type: "output_text", annotations: [], logprobs: [], text: "" },
  });
  for (const text of plan.texts)
    out += event({ type: "response.output_text.delta", ...at, delta: text, logprobs: [] });
  const whole = plan.texts.join("");
  const part = { type: "output_text", annotations: [], logprobs: [], text: whole };
  out += event({ type: "response.output_text.done", ...at, text: whole, logprobs: [] });
  out += event({ type: "response.content_part.done", ...at, part });
  const output: unknown[] = [{ ...message, status: "completed", content: [part] }];
  out += event({ type: "response.output_item.done", output_index: 0, item: output[0] });
  plan.calls.forEach((call, ordinal) => {
    const output_index = ordinal + 1;
    const item = { id: `fc_${call.id}`, type: "function_call", call_id: call.id, name: call.name };
    out += event({
      type: "response.output_item.added",
      output_index,
      item: { ...item, status: "in_progress", arguments: "" },
    });
    for (const piece of call.pieces)
      out += event({
        type: "response.function_call_arguments.delta",
        item_id: item.id,
        output_index,
        delta: piece,
      });
    const args = call.pieces.join("");
    out += event({
      type: "response.function_call_arguments.done",
      item_id: item.id,
      output_index,
      arguments: args,
    });
    const done = { ...item, status: "completed", arguments: args };
    out += event({ type: "response.output_item.done", output_index, item: done });
    output.push(done);
  });
  const usage = {
    input_tokens: 120,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: plan.texts.length,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 120 + plan.texts.length,
  };
  return out + event({ type: "response.completed", response: response("completed", output, usage) });
}

const renderers: Record<Protocol, (plan: Plan) => string> = {
  chat: chatStream,
  messages: messagesStream,
  generative: generativeStream,
  responses: responsesStream,
};

/** 5,000 text deltas between the protocol's opening and closing events. */
export function textStream(protocol: Protocol): string {
  return renderers[protocol](textPlan(5000));
}

/** Forty text deltas, then three parallel tool calls with their arguments streamed four characters at a time. */
export function toolCallStream(protocol: Protocol): string {
  return renderers[protocol](toolPlan());
}

/** One text delta event in `protocol`'s shape, freshly built (for the long memory run). */
export function textDeltaEvent(protocol: Protocol, ordinal: number): Json {
  const text = PIECES[ordinal % PIECES.length]!;
  if (protocol === "chat") {
    return {
      id: "chatcmpl-bench",
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model: "gpt-4o-mini",
      choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
    };
  }
  if (protocol === "messages")
    return { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } };
  if (protocol === "responses")
    return {
      type: "response.output_text.delta",
      sequence_number: ordinal + 4,
      item_id: "msg_bench",
      output_index: 0,
      content_index: 0,
      delta: text,
      logprobs: [],
    };
  return {
    candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }],
    modelVersion: "gemini-2.5-flash",
  };
}
