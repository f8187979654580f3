/**
 * What issue 15 lists as needing care, one behaviour per test: instructions ↔ system, the developer
 * role, reasoning items (encrypted content replayed only to their issuer, kept right before their
 * item, `summary: []` kept), outputs matched by call_id, `strict`, custom and built-in tools,
 * `max_output_tokens` ≥ 16, `incomplete` ↔ max tokens, and previous_response_id without state.
 */

import { describe, expect, test } from "vitest";
import { unwrapCarried } from "../../../src/common/carrier";
import { NOT_ANSWERED } from "../../../src/common/tool-pairing";
import {
  accumulate,
  chat,
  createStreamTranslator,
  type messages,
  replay,
  responses,
  TranslationError,
  translateRequest,
  translateResponse,
} from "../../../src/index";
import { responsesGrammar } from "../../../src/testing/grammar";

const options = { idPrefix: "gp", created: 1_700_000_000 };

describe("instructions and roles", () => {
  test("instructions are the system prompt of every other protocol, and come back as instructions", () => {
    const body = { model: "m", instructions: "Be brief.", input: "Hi" };
    const toMessages = translateRequest("responses", "messages", body, options);
    expect(toMessages.value.system).toBe("Be brief.");
    const toChat = translateRequest("responses", "chat", body, options);
    expect(toChat.value.messages[0]).toEqual({ role: "system", content: "Be brief." });
    const back = translateRequest("messages", "responses", toMessages.value, options);
    expect(back.value).toMatchObject({ instructions: "Be brief.", input: [{ role: "user", content: "Hi" }] });
  });

  test("a developer message stays a developer message to chat, and is a system prompt elsewhere", () => {
    const body = {
      model: "m",
      input: [
        { role: "developer", content: "Use metric units." },
        { role: "user", content: "Hi" },
      ],
    };
    const toChat = translateRequest("responses", "chat", body, options).value;
    expect(toChat.messages[0]).toEqual({ role: "developer", content: "Use metric units." });
    expect(translateRequest("chat", "responses", toChat, options).value.input?.[0]).toEqual({
      role: "developer",
      content: "Use metric units.",
    });
    expect(translateRequest("responses", "messages", body, options).value.system).toBe("Use metric units.");
  });

  test("a system message after the conversation began stays in its place toward chat and responses, and is hoisted with a loss toward messages and generative (issue 30)", () => {
    const body = {
      model: "m",
      input: [
        { role: "user", content: "Hi" },
        { role: "system", content: "Late." },
        { role: "user", content: "Again" },
      ],
    };
    const toChat = translateRequest("responses", "chat", body, options);
    expect(toChat.value.messages).toEqual([
      { role: "user", content: "Hi" },
      { role: "system", content: "Late." },
      { role: "user", content: "Again" },
    ]);
    expect(toChat.losses).toEqual([]);
    const back = translateRequest("chat", "responses", toChat.value, options);
    expect(back.value.input).toEqual([
      { role: "user", content: "Hi" },
      { role: "system", content: "Late." },
      { role: "user", content: "Again" },
    ]);
    expect(back.losses).toEqual([]);
    for (const to of ["messages", "generative"] as const)
      expect(translateRequest("responses", to, body, options).losses).toContainEqual(
        expect.objectContaining({ path: "/input/1/content", kind: "approximated" }),
      );
  });
});

const reasoningItem = {
  type: "reasoning",
  id: "rs_1",
  summary: [],
  encrypted_content: "gAAAA-opaque",
};

describe("reasoning items", () => {
  test("encrypted content is replayed only to a responses service; to messages it is dropped with a loss", () => {
    const body = {
      model: "m",
      input: [
        { role: "user", content: "Weather?" },
        reasoningItem,
        { type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "sunny" },
      ],
    };
    const identity = translateRequest("responses", "responses", body, options);
    expect(identity.value).toEqual(body);
    const toMessages = translateRequest("responses", "messages", body, options);
    expect(JSON.stringify(toMessages.value)).not.toContain("gAAAA-opaque");
    // messages could not verify it: the reasoning item is dropped whole, with a loss at it.
    expect(toMessages.losses).toContainEqual(expect.objectContaining({ path: "/input/1", kind: "dropped" }));
  });

  test("another protocol's reasoning is never sent to a responses service as a reasoning item", () => {
    const body = {
      model: "m",
      max_tokens: 100,
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Look it up.", signature: "SIG" },
            { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "sunny" }] },
      ],
    };
    const result = translateRequest("messages", "responses", body, options);
    expect((result.value.input as { type?: string }[]).map((item) => item.type ?? "message")).toEqual([
      "message",
      "function_call",
      "function_call_output",
    ]);
    expect(result.losses).toContainEqual(
      expect.objectContaining({ path: "/messages/1/content/0", kind: "dropped" }),
    );
  });

  test("in an answer the reasoning item stays right before the item it belongs to, summary: [] kept", () => {
    const body = {
      id: "resp_1",
      object: "response",
      created_at: 1,
      status: "completed",
      model: "o",
      output: [
        reasoningItem,
        { type: "function_call", id: "fc_1", call_id: "c1", name: "f", arguments: "{}", status: "completed" },
        { type: "reasoning", id: "rs_2", summary: [{ type: "summary_text", text: "Then answer." }] },
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Done", annotations: [] }],
        },
      ],
      usage: null,
    };
    const events = replay("responses", body as never);
    expect(responsesGrammar(events)).toEqual([]);
    expect(accumulate("responses", events)).toEqual(body);
    // A chat answer keeps the summaries as reasoning text before its call and its text.
    const toChat = translateResponse("responses", "chat", body, options).value.choices[0]?.message;
    expect(toChat).toMatchObject({ content: "Done", reasoning_content: "Then answer." });
  });

  test("another protocol's thinking reaches a responses client as a reasoning summary, its state carried (issue 29)", () => {
    const result = translateResponse(
      "messages",
      "responses",
      {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude",
        content: [
          { type: "thinking", thinking: "Check.", signature: "SIG" },
          { type: "text", text: "Sunny." },
        ],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      options,
    );
    const item = result.value.output[0] as { encrypted_content: string };
    expect(item).toEqual({
      id: "rs_gp_msg_1_0",
      type: "reasoning",
      summary: [{ type: "summary_text", text: "Check." }],
      encrypted_content: expect.any(String),
    });
    expect(unwrapCarried(item.encrypted_content)).toEqual({
      origin: "messages",
      entries: [{ reasoning: { text: "Check.", signature: "SIG" } }],
    });
    expect(result.losses).toEqual([]);
  });
});

describe("function calls and their outputs", () => {
  test("outputs are matched by call_id: an output without its call is refused with the id named", () => {
    const body = { model: "m", input: [{ type: "function_call_output", call_id: "call_9", output: "x" }] };
    const attempt = () => translateRequest("responses", "messages", body, options);
    expect(attempt).toThrow(TranslationError);
    expect(attempt).toThrow(/call_9/);
  });

  test("a call without its output gets one saying it was not answered (the service answers 400 without)", () => {
    const body = {
      model: "m",
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
        },
      ],
    };
    const { value, losses } = translateRequest("chat", "responses", body, options);
    expect(value.input).toContainEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: NOT_ANSWERED,
    });
    expect(losses).toContainEqual(
      expect.objectContaining({
        path: "/messages/1/tool_calls/0",
        kind: "synthesized",
        code: "tool_result.synthesized",
      }),
    );
  });

  test("chat tool messages become function_call_output items after their calls", () => {
    const body = {
      model: "m",
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "a", type: "function", function: { name: "f", arguments: '{"x":1}' } },
            { id: "b", type: "function", function: { name: "g", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "b", content: "B" },
        { role: "tool", tool_call_id: "a", content: "A" },
      ],
    };
    expect(translateRequest("chat", "responses", body, options).value.input).toEqual([
      { role: "user", content: "Weather?" },
      { type: "function_call", call_id: "a", name: "f", arguments: '{"x":1}' },
      { type: "function_call", call_id: "b", name: "g", arguments: "{}" },
      { type: "function_call_output", call_id: "b", output: "B" },
      { type: "function_call_output", call_id: "a", output: "A" },
    ]);
  });
});

describe("tools", () => {
  const tool = { name: "f", parameters: { type: "object", properties: { a: { type: "string" } } } };

  test("a tool says strict: false unless the source asked for strict (the source's own default: no loss)", () => {
    const result = translateRequest(
      "chat",
      "responses",
      {
        model: "m",
        messages: [{ role: "user", content: "x" }],
        tools: [
          { type: "function", function: tool },
          { type: "function", function: { ...tool, name: "g", strict: true } },
        ],
      },
      options,
    );
    expect(result.value.tools).toEqual([
      { type: "function", name: "f", parameters: tool.parameters, strict: false },
      { type: "function", name: "g", parameters: tool.parameters, strict: true },
    ]);
    // Without `strict` the responses service would treat the schema as strict; `false` says what chat meant.
    expect(result.losses).toEqual([]);
  });

  test("custom and built-in tools reach responses as given; a custom tool is a custom tool of chat, a built-in one is reported", () => {
    const body = {
      model: "m",
      input: "x",
      tools: [
        { type: "custom", name: "shell", description: "Runs a command" },
        { type: "web_search" },
        { type: "function", ...tool, strict: true },
      ],
    };
    expect(translateRequest("responses", "responses", body, options).value).toEqual(body);
    const toChat = translateRequest("responses", "chat", body, options);
    expect(toChat.value.tools?.[0]).toEqual({
      type: "custom",
      custom: { name: "shell", description: "Runs a command" },
    });
    expect(toChat.value.tools).toHaveLength(2);
    expect(toChat.losses.map((entry) => entry.path)).toEqual(["/tools/1"]);
  });
});

describe("budgets and finishes", () => {
  test("max_output_tokens is at least 16: a smaller budget is raised, with a loss", () => {
    const result = translateRequest(
      "messages",
      "responses",
      { model: "m", max_tokens: 5, messages: [{ role: "user", content: "x" }] },
      options,
    );
    expect(result.value.max_output_tokens).toBe(16);
    expect(result.losses).toEqual([expect.objectContaining({ path: "/max_tokens", kind: "clamped" })]);
  });

  test("an incomplete answer (max_output_tokens) is every protocol's max-tokens finish, and back", () => {
    const body = {
      id: "resp_1",
      object: "response",
      created_at: 1,
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      model: "o",
      output: [
        {
          type: "message",
          id: "m1",
          role: "assistant",
          status: "incomplete",
          content: [{ type: "output_text", text: "Hal", annotations: [] }],
        },
      ],
      usage: { input_tokens: 3, output_tokens: 16, total_tokens: 19 },
    };
    const toChat = translateResponse("responses", "chat", body, options).value;
    expect(toChat.choices[0]?.finish_reason).toBe("length");
    expect(translateResponse("responses", "messages", body, options).value.stop_reason).toBe("max_tokens");
    expect(
      translateResponse("responses", "generative", body, options).value.candidates?.[0]?.finishReason,
    ).toBe("MAX_TOKENS");
    const back = translateResponse("chat", "responses", toChat, options).value;
    expect(back).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
  });
});

describe("previous_response_id: stateless", () => {
  const first = { model: "m", instructions: "Be brief.", input: "What is 2+2?" };
  const answer = {
    id: "resp_1",
    object: "response",
    created_at: 1,
    status: "completed",
    model: "o",
    output: [
      {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "4", annotations: [] }],
      },
    ],
    usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 },
  };
  const next = { model: "m", previous_response_id: "resp_1", input: "And 3+3?" };

  test("without the earlier items the request is refused with a 400 naming options.history", () => {
    let thrown: unknown;
    try {
      translateRequest("responses", "chat", next, options);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TranslationError);
    expect((thrown as TranslationError).status).toBe(400);
    expect((thrown as TranslationError).message).toMatch(/options\.history/);
    expect((thrown as TranslationError).toErrorBody("responses").body).toMatchObject({
      error: { type: "invalid_request_error", message: expect.stringContaining("options.history") },
    });
  });

  test("historyOf gives what to store; with it the request translates as the whole conversation", () => {
    const history = responses.historyOf(first, answer as never);
    expect(history).toEqual([{ role: "user", content: "What is 2+2?" }, answer.output[0]]);
    const result = translateRequest("responses", "chat", next, { ...options, history });
    expect(result.value.messages).toEqual([
      { role: "user", content: "What is 2+2?" },
      { role: "assistant", content: "4" },
      { role: "user", content: "And 3+3?" },
    ]);
    // A third turn stores on top of the second's history.
    expect(responses.historyOf(next, answer as never, history)).toHaveLength(4);
  });

  test("to a responses upstream the request goes as it came (the service holds the state)", () => {
    expect(translateRequest("responses", "responses", next, options).value).toEqual(next);
  });

  test("an item_reference is looked up in options.history, and refused without it", () => {
    const body = {
      model: "m",
      input: [
        { type: "item_reference", id: "msg_1" },
        { role: "user", content: "More?" },
      ],
    };
    expect(() => translateRequest("responses", "chat", body, options)).toThrow(/item_reference/);
    const history = responses.historyOf(first, answer as never);
    const result = translateRequest("responses", "chat", body, { ...options, history });
    expect(result.value.messages).toEqual([
      { role: "assistant", content: "4" },
      { role: "user", content: "More?" },
    ]);
  });

  test("a history item that is not an input item is refused with its place named", () => {
    expect(() =>
      translateRequest("responses", "chat", next, { ...options, history: [{ role: "user" }] }),
    ).toThrow(/options\.history: \/history\/0\/content/);
  });
});

describe("streams", () => {
  test("a responses stream cut off before its final event ends the target stream with its error", () => {
    const translator = createStreamTranslator("responses", "chat", options);
    translator.push({
      type: "response.created",
      sequence_number: 0,
      response: { id: "r", object: "response", created_at: 1, status: "in_progress", model: "o", output: [] },
    } as never);
    const out = translator.end();
    expect(out.at(-1)).toMatchObject({
      error: { message: expect.stringContaining("ended before its finish") },
    });
    expect(translator.losses).toContainEqual(expect.objectContaining({ kind: "synthesized" }));
  });

  test("text that arrives only in .done events (no deltas, recorded from LM Studio and others) is passed on", () => {
    const at = { item_id: "m", output_index: 0, content_index: 0 };
    const translator = createStreamTranslator("responses", "messages", options);
    const events = [
      {
        type: "response.created",
        sequence_number: 0,
        response: {
          id: "r",
          object: "response",
          created_at: 1,
          status: "in_progress",
          model: "o",
          output: [],
        },
      },
      {
        type: "response.output_item.added",
        sequence_number: 1,
        output_index: 0,
        item: { id: "m", type: "message", role: "assistant", status: "in_progress", content: [] },
      },
      {
        type: "response.content_part.added",
        sequence_number: 2,
        ...at,
        part: { type: "output_text", text: "", annotations: [] },
      },
      { type: "response.output_text.done", sequence_number: 3, ...at, text: "Whole." },
      {
        type: "response.output_item.added",
        sequence_number: 4,
        output_index: 1,
        item: {
          id: "f",
          type: "function_call",
          call_id: "c",
          name: "g",
          arguments: "",
          status: "in_progress",
        },
      },
      {
        type: "response.function_call_arguments.done",
        sequence_number: 5,
        item_id: "f",
        output_index: 1,
        arguments: '{"a":1}',
      },
      {
        type: "response.completed",
        sequence_number: 6,
        response: { id: "r", object: "response", created_at: 1, status: "completed", model: "o", output: [] },
      },
    ];
    const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
    const text = JSON.stringify(out);
    expect(text).toContain('"text":"Whole."');
    expect(text).toContain('"partial_json":"{\\"a\\":1}"');
    expect((out.at(-2) as messages.StreamEvent & { delta: { stop_reason: string } }).delta.stop_reason).toBe(
      "tool_use",
    );
  });

  test("OpenRouter's [DONE] after response.completed ends nothing early and adds nothing", () => {
    const translator = createStreamTranslator("responses", "chat", options);
    translator.push({
      type: "response.completed",
      sequence_number: 0,
      response: { id: "r", object: "response", created_at: 1, status: "completed", model: "o", output: [] },
    } as never);
    expect(translator.push(responses.DONE as never)).toEqual([]);
    const out = translator.end();
    expect(out.at(-1)).toBe(chat.DONE);
  });

  describe("items that only the final event lists (no item events for them) are passed on, once", () => {
    const envelope = { id: "r", object: "response", created_at: 1, model: "o" };
    const message = (id: string, text: string) => ({
      id,
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text, annotations: [], logprobs: [] }],
    });
    const call = {
      id: "fc_1",
      type: "function_call",
      status: "completed",
      call_id: "call_1",
      name: "f",
      arguments: '{"a":1}',
      x_item: 1,
    };
    const reasoning = { id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "why" }] };
    const created = {
      type: "response.created",
      response: { ...envelope, status: "in_progress", output: [] },
    };
    const completed = (output: unknown[]) => ({
      type: "response.completed",
      response: { ...envelope, status: "completed", output },
    });
    const run = (events: object[]) => {
      const translator = createStreamTranslator("responses", "chat", options);
      const numbered = events.map((event, sequence) => ({ ...event, sequence_number: sequence }));
      const out = [...numbered.flatMap((event) => translator.push(event as never)), ...translator.end()];
      const chunks = out.filter((event): event is chat.StreamEvent & object => event !== chat.DONE);
      const deltas = chunks.flatMap(
        (chunk) =>
          (chunk as { choices: { delta: Record<string, unknown>; finish_reason: unknown }[] }).choices,
      );
      return { deltas, losses: translator.losses };
    };

    test("a stream of its final event alone: reasoning, text and the call, and the call's finish", () => {
      const { deltas, losses } = run([created, completed([reasoning, message("m", "hello"), call])]);
      expect(deltas.map((choice) => choice.delta.reasoning_content).filter(Boolean)).toEqual(["why"]);
      expect(deltas.map((choice) => choice.delta.content).filter(Boolean)).toEqual(["hello"]);
      const calls = deltas.flatMap((choice) => (choice.delta.tool_calls as unknown[] | undefined) ?? []);
      expect(calls).toEqual([
        { index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "" } },
        { index: 0, function: { arguments: '{"a":1}' } },
      ]);
      expect(deltas.at(-1)?.finish_reason).toBe("tool_calls");
      // What the whole response reports of the item, in the final event.
      expect(losses.map(({ kind, path }) => `${kind} ${path}`)).toContain(
        "dropped /1/response/output/2/x_item",
      );
    });

    test("an item the stream announced is not sent again; the one after it is", () => {
      const at = { item_id: "m", output_index: 0, content_index: 0 };
      const { deltas } = run([
        created,
        { type: "response.output_item.added", output_index: 0, item: { ...message("m", ""), content: [] } },
        {
          type: "response.content_part.added",
          ...at,
          part: { type: "output_text", text: "", annotations: [] },
        },
        { type: "response.output_text.delta", ...at, delta: "Hi", logprobs: [] },
        { type: "response.output_item.done", output_index: 0, item: message("m", "Hi") },
        completed([message("m", "Hi"), message("m2", "again")]),
      ]);
      expect(deltas.map((choice) => choice.delta.content).filter(Boolean)).toEqual(["Hi", "again"]);
    });
  });
});

describe("a missing creation time is reported, not a silent 0", () => {
  test("a whole response: created_at 0 with a synthesized loss at /created", () => {
    const body = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude",
      content: [{ type: "text", text: "Hi" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const { value, losses } = translateResponse("messages", "responses", body);
    expect(value.created_at).toBe(0);
    expect(losses.map(({ path, kind }) => ({ path, kind }))).toContainEqual({
      path: "/created",
      kind: "synthesized",
    });
    expect(translateResponse("messages", "responses", body, { created: 5 }).losses).toEqual([]);
  });

  test("a stream: the loss points at the event that started it", () => {
    const translator = createStreamTranslator("messages", "responses");
    translator.push({
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    } as never);
    translator.push({
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    } as never);
    // The responses stream opens (response.created) with the first block: the loss points at that event.
    expect(translator.losses.map(({ path, kind }) => ({ path, kind }))).toEqual([
      { path: "/1/created", kind: "synthesized" },
    ]);
  });
});
