/**
 * Issue 12, "the small rules that slipped": each item of its Why list, pinned. Every test here failed
 * before the change it describes.
 */
import { describe, expect, test } from "vitest";
import {
  accumulate,
  createStreamTranslator,
  createTranslateStream,
  protocols,
  replay,
  TranslationError,
  translateError,
  translateEventStream,
  translateRequest,
  translateResponse,
} from "../../src/index";

const user = [{ role: "user", content: "hi" }];

describe("given values are given, approximations are said", () => {
  test("an explicit stream: false from messages reaches chat", () => {
    const { value } = translateRequest("messages", "chat", {
      model: "m",
      max_tokens: 10,
      stream: false,
      messages: user,
    });
    expect(value.stream).toBe(false);
    // Absent stays absent.
    const absent = translateRequest("messages", "chat", { model: "m", max_tokens: 10, messages: user });
    expect("stream" in absent.value).toBe(false);
  });

  test("reasoning_effort turned into a thinking budget is an approximation at the effort", () => {
    const toMessages = translateRequest(
      "chat",
      "messages",
      { model: "m", reasoning_effort: "high", messages: user },
      { maxTokens: 8192 },
    );
    // The one effort↔budget table (common/effort.ts): high is 24,576 tokens for messages as for generative.
    expect(toMessages.value.thinking).toEqual({ type: "enabled", budget_tokens: 24576 });
    expect(toMessages.losses.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      "approximated /reasoning_effort",
    ]);
    const toGenerative = translateRequest("chat", "generative", {
      model: "gemini-2.5-flash",
      reasoning_effort: "low",
      messages: user,
    });
    expect(toGenerative.value.generationConfig?.thinkingConfig?.thinkingBudget).toBeGreaterThan(0);
    expect(toGenerative.losses.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      "approximated /reasoning_effort",
    ]);
  });

  test("strict with maxTokens given does not throw for max_tokens: the caller chose that value", () => {
    const { value, losses } = translateRequest(
      "chat",
      "messages",
      { model: "m", messages: user },
      { strict: true, maxTokens: 512 },
    );
    expect(value.max_tokens).toBe(512);
    expect(losses).toEqual([]);
    // The library's own default is still made up, and says so.
    expect(() =>
      translateRequest("chat", "messages", { model: "m", messages: user }, { strict: true }),
    ).toThrow(/\/max_tokens \(synthesized\)/);
  });
});

describe("an error maps the same way as a body and mid-stream", () => {
  const internal = { error: { code: 500, message: "Internal error", status: "INTERNAL" } };

  test("a mid-stream generative INTERNAL becomes the chat type translateError gives", () => {
    const asBody = translateError("generative", "chat", { status: 500, body: internal });
    expect(asBody.body.error.type).toBe("server_error");
    const translator = createStreamTranslator("generative", "chat", { created: 1 });
    const out = [
      ...translator.push({
        responseId: "r",
        candidates: [{ content: { role: "model", parts: [{ text: "a" }] } }],
      }),
      ...translator.push(internal as never),
      ...translator.end(),
    ];
    expect(out.at(-1)).toEqual(asBody.body);
  });

  // Each body with the HTTP status its provider sends it with; mid-stream, the body alone says as much.
  test.each([
    ["generative", 500, internal],
    [
      "messages",
      529,
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" }, request_id: "r" },
    ],
    [
      "chat",
      400,
      { error: { message: "Bad", type: "invalid_request_error", param: "temperature", code: "bad" } },
    ],
  ] as const)(
    "%s: every target renders its error event as translateError renders the body",
    (from, status, body) => {
      for (const to of protocols.filter((protocol) => protocol !== from)) {
        const asBody = translateError(from, to, { status, body });
        const translator = createStreamTranslator(from, to, { created: 1, model: "m" });
        const out = [...translator.push(body as never), ...translator.end()];
        // responses ends a stream with an `error` event carrying the body's error, then `response.failed`.
        if (to === "responses")
          expect((out.at(-2) as { error: unknown }).error, `${from} → ${to}`).toEqual(
            (asBody.body as { error: unknown }).error,
          );
        else expect(out.at(-1), `${from} → ${to}`).toEqual(asBody.body);
        // The same fields are lost either way, at the same place in the error (in the stream: in its event).
        expect(
          translator.losses.map(({ path, kind }) => `${kind} ${path}`),
          `${from} → ${to}`,
        ).toEqual(asBody.losses.map(({ path, kind }) => `${kind} /0${path}`));
      }
    },
  );

  test("translateError reports the fields that do not arrive: param and code to messages", () => {
    const { body, losses } = translateError("chat", "messages", {
      status: 400,
      body: {
        error: { message: "Bad", type: "invalid_request_error", param: "temperature", code: "bad_value" },
      },
    });
    expect(body).toEqual({ type: "error", error: { type: "invalid_request_error", message: "Bad" } });
    expect(losses.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      "approximated /error/code",
      "dropped /error/param",
    ]);
  });

  test("translateError reports a messages request_id and generative details as dropped", () => {
    const fromMessages = translateError("messages", "chat", {
      status: 529,
      body: {
        type: "error",
        error: { type: "overloaded_error", message: "Overloaded" },
        request_id: "req_1",
      },
    });
    expect(fromMessages.losses.map(({ path, kind }) => `${kind} ${path}`)).toEqual(["dropped /request_id"]);
    const heard: string[] = [];
    const fromGenerative = translateError(
      "generative",
      "chat",
      {
        status: 429,
        body: { error: { code: 429, message: "Quota", status: "RESOURCE_EXHAUSTED", details: [{}] } },
      },
      { onLoss: (loss) => heard.push(loss.path) },
    );
    expect(fromGenerative.losses.map(({ path }) => path)).toEqual(["/error/details"]);
    expect(heard).toEqual(["/error/details"]);
  });

  test("the same protocol with a valid body is the identity and loses nothing", () => {
    const body = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    expect(translateError("messages", "messages", { status: 529, body })).toEqual({
      status: 529,
      body,
      losses: [],
      headers: {},
      retryable: true,
      kind: "overloaded",
      fault: "upstream",
    });
  });
});

describe("synthesized ids derive from the input", () => {
  const generativeResponse = (text: string) => ({
    candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }],
  });

  test("two different generative responses do not both become gp_chatcmpl; equal ones get equal ids", () => {
    const one = translateResponse("generative", "chat", generativeResponse("one"), { created: 1 }).value.id;
    const two = translateResponse("generative", "chat", generativeResponse("two"), { created: 1 }).value.id;
    const again = translateResponse("generative", "chat", generativeResponse("one"), { created: 1 }).value.id;
    expect(one).toMatch(/^gp_chatcmpl_[0-9a-z]{11}$/);
    expect(one).not.toBe(two);
    expect(again).toBe(one);
    const toMessages = translateResponse("generative", "messages", generativeResponse("one")).value.id;
    expect(toMessages).toMatch(/^gp_msg_[0-9a-z]{11}$/);
    // idPrefix leads the id.
    expect(
      translateResponse("generative", "chat", generativeResponse("one"), { created: 1, idPrefix: "gw" }).value
        .id,
    ).toMatch(/^gw_chatcmpl_/);
  });

  test("calls without ids in different responses get different ids", () => {
    const call = (name: string) => ({
      candidates: [
        { content: { role: "model", parts: [{ functionCall: { name, args: {} } }] }, finishReason: "STOP" },
      ],
    });
    const first = translateResponse("generative", "messages", call("a")).value.content[0];
    const second = translateResponse("generative", "messages", call("b")).value.content[0];
    expect(first).toMatchObject({ type: "tool_use" });
    expect((first as { id: string }).id).not.toBe((second as { id: string }).id);
  });

  test("a stream's id is known at its first output event and derives from its first input event", () => {
    const first = (text: string) => {
      const translator = createStreamTranslator("generative", "chat", { created: 1 });
      return translator.push({ candidates: [{ content: { role: "model", parts: [{ text }] } }] })[0] as {
        id: string;
      };
    };
    expect(first("one").id).toMatch(/^gp_chatcmpl_[0-9a-z]{11}$/);
    expect(first("one").id).toBe(first("one").id);
    expect(first("one").id).not.toBe(first("two").id);
  });

  test("created missing from the input and the options is a synthesized loss, not a silent 0", () => {
    const { value, losses } = translateResponse("generative", "chat", generativeResponse("x"));
    expect(value.created).toBe(0);
    expect(losses.map(({ path, kind }) => `${kind} ${path}`)).toEqual(["synthesized /created"]);
    expect(translateResponse("generative", "chat", generativeResponse("x"), { created: 7 }).losses).toEqual(
      [],
    );
    const translator = createStreamTranslator("messages", "chat");
    translator.push({
      type: "message_start",
      message: {
        id: "m",
        type: "message",
        role: "assistant",
        model: "c",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    });
    expect(translator.losses.map(({ path, kind }) => `${kind} ${path}`)).toEqual(["synthesized /0/created"]);
  });
});

describe("protocol ids are checked first", () => {
  const body = { model: "m", messages: user };
  const message = /Unknown protocol "mesages" \((from|to|protocol)\): use one of chat, messages, generative/;
  const stream = () => new ReadableStream<Uint8Array>();

  test.each([
    ["translateRequest", () => translateRequest("mesages" as never, "chat", body)],
    ["translateRequest (to)", () => translateRequest("chat", "mesages" as never, body)],
    ["translateResponse", () => translateResponse("mesages" as never, "chat", {})],
    ["translateError", () => translateError("chat", "mesages" as never, { status: 500, body: {} })],
    ["createStreamTranslator", () => createStreamTranslator("mesages" as never, "chat")],
    ["translateEventStream", () => translateEventStream("chat", "mesages" as never, stream())],
    ["createTranslateStream", () => createTranslateStream("mesages" as never, "chat")],
    ["accumulate", () => accumulate("mesages" as never, [])],
    ["replay", () => replay("mesages" as never, {} as never)],
  ])("%s: a TypeError naming the id and the valid ones, never a message about the body", (_name, call) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
    expect(call).not.toThrow(TranslationError);
  });

  test("ids that are not strings, or inherited names, are refused the same way", () => {
    expect(() => translateRequest("toString" as never, "chat", body)).toThrow(/Unknown protocol "toString"/);
    expect(() => translateRequest(undefined as never, "chat", body)).toThrow(/Unknown protocol undefined/);
  });
});

test("an error rendered for an unknown protocol names it and the valid ones", () => {
  expect(() => new TranslationError("bad").toErrorBody("mesages" as never)).toThrow(
    /Unknown protocol "mesages" \(protocol\): use one of chat, messages, generative/,
  );
});
