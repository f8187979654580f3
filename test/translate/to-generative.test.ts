/** Research items of shared/research/edge-cases.md whose target is generative, through the public functions. */
import { describe, expect, test } from "vitest";
import { TranslationError } from "../../src/common/errors";
import * as generative from "../../src/protocols/generative/schema";
import { translateError, translateRequest, translateResponse } from "../../src/translate";

const lossList = (losses: readonly { path: string; kind: string }[]) =>
  losses.map(({ path, kind }) => ({ path, kind }));
const user = (content: unknown) => ({ role: "user", content });
const tool = (parameters: unknown, name = "f") => ({ type: "function", function: { name, parameters } });
const chatTools = (parameters: unknown) => ({ model: "g", messages: [user("x")], tools: [tool(parameters)] });
const declaration = (body: unknown) => {
  const { value, losses } = translateRequest("chat", "generative", body);
  expect(generative.request.safeParse(value).success).toBe(true);
  return { declaration: value.tools?.[0]?.functionDeclarations?.[0], losses: lossList(losses) };
};

describe("system prompts and turns", () => {
  test("S2: chat system becomes systemInstruction", () => {
    const { value, losses, model } = translateRequest("chat", "generative", {
      model: "gemini-2.5-flash",
      messages: [{ role: "system", content: "Be terse." }, user("hi")],
    });
    expect(value).toEqual({
      systemInstruction: { parts: [{ text: "Be terse." }] },
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
    });
    expect(model).toBe("gemini-2.5-flash");
    expect(losses).toEqual([]);
  });

  test("R3: consecutive user turns are merged", () => {
    const { value, losses } = translateRequest("chat", "generative", {
      model: "g",
      messages: [user("a"), user("b")],
    });
    expect(value.contents).toEqual([{ role: "user", parts: [{ text: "a" }, { text: "b" }] }]);
    expect(losses).toEqual([]);
  });

  test("R5: an empty text block is skipped; the function response joins the next user content", () => {
    const { value, losses } = translateRequest("messages", "generative", {
      model: "m",
      max_tokens: 64,
      messages: [
        user("hi"),
        {
          role: "assistant",
          content: [
            { type: "text", text: "" },
            { type: "tool_use", id: "t1", name: "f", input: {} },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "r" }] },
      ],
    });
    expect(value.contents).toEqual([
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts: [{ functionCall: { id: "t1", name: "f", args: {} } }] },
      { role: "user", parts: [{ functionResponse: { id: "t1", name: "f", response: { content: "r" } } }] },
    ]);
    expect(losses).toEqual([]);
  });
});

describe("tool definitions and JSON Schema", () => {
  test("T3: a schema the OpenAPI subset cannot say all of goes whole as parametersJsonSchema, nothing lost", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      additionalProperties: false,
      properties: { n: { type: "integer", exclusiveMinimum: 0 }, title: { type: "string", const: "a" } },
      required: ["n"],
    };
    const { declaration: out, losses } = declaration(chatTools(schema));
    expect(out).toEqual({ name: "f", description: "", parametersJsonSchema: schema });
    expect(losses).toEqual([]);
  });

  test("T4: a schema the subset says whole goes as `parameters`; a parameter-less object is omitted", () => {
    expect(declaration(chatTools({ type: "object", properties: {} }))).toEqual({
      declaration: { name: "f", description: "" },
      losses: [],
    });
    // `additionalProperties: false` is not in the subset: the JSON Schema form keeps it.
    const closed = { type: "object", additionalProperties: false, properties: {} };
    expect(declaration(chatTools(closed))).toEqual({
      declaration: { name: "f", description: "", parametersJsonSchema: closed },
      losses: [],
    });
  });

  test("T5: a local $ref is inlined with its sibling description", () => {
    const { declaration: out, losses } = declaration(
      chatTools({
        type: "object",
        $defs: { P: { type: "object", properties: { x: { type: "number" } } } },
        properties: { p: { $ref: "#/$defs/P", description: "pt" } },
      }),
    );
    expect(out?.parameters).toEqual({
      type: "object",
      properties: { p: { type: "object", description: "pt", properties: { x: { type: "number" } } } },
    });
    expect(losses).toEqual([]);
  });

  test("T6: type arrays become nullable or anyOf", () => {
    const { declaration: out, losses } = declaration(
      chatTools({
        type: "object",
        properties: { a: { type: ["string", "null"] }, b: { type: ["string", "integer"] } },
      }),
    );
    expect(out?.parameters).toEqual({
      type: "object",
      properties: {
        a: { type: "string", nullable: true },
        b: { anyOf: [{ type: "string" }, { type: "integer" }] },
      },
    });
    expect(losses).toEqual([]);
  });

  test("T7: anyOf with a null member becomes the member plus nullable", () => {
    const { declaration: out } = declaration(
      chatTools({
        type: "object",
        properties: {
          o: { anyOf: [{ type: "object", properties: { k: { type: "string" } } }, { type: "null" }] },
        },
      }),
    );
    expect(out?.parameters).toEqual({
      type: "object",
      properties: { o: { type: "object", nullable: true, properties: { k: { type: "string" } } } },
    });
  });

  test("T8: an integer enum is stringified with format enum", () => {
    const { declaration: out, losses } = declaration(
      chatTools({ type: "object", properties: { lvl: { type: "integer", enum: [1, 2, 3] } } }),
    );
    expect(out?.parameters).toEqual({
      type: "object",
      properties: { lvl: { type: "integer", format: "enum", enum: ["1", "2", "3"] } },
    });
    expect(losses).toEqual([]);
  });

  test("T9: a format outside the subset keeps the schema JSON Schema (parametersJsonSchema)", () => {
    const schema = {
      type: "object",
      properties: { u: { type: "string", format: "uri" }, t: { type: "string", format: "date-time" } },
    };
    const { declaration: out, losses } = declaration(chatTools(schema));
    expect(out).toEqual({ name: "f", description: "", parametersJsonSchema: schema });
    expect(losses).toEqual([]);
  });

  test("T10: a parameter-less tool has no parameters", () => {
    const { declaration: out, losses } = declaration({
      model: "g",
      messages: [user("x")],
      tools: [tool({ type: "object", properties: {} }, "ping")],
    });
    // The description requires `description`: empty when the tool has none.
    expect(out).toEqual({ name: "ping", description: "" });
    expect(losses).toEqual([]);
  });

  test("C1: every chat tool_choice maps to a functionCallingConfig", () => {
    const choice = (tool_choice: unknown) =>
      translateRequest("chat", "generative", {
        ...chatTools({ type: "object", properties: { a: { type: "string" } } }),
        tool_choice,
      }).value.toolConfig;
    expect(choice("auto")).toEqual({ functionCallingConfig: { mode: "AUTO" } });
    expect(choice("none")).toEqual({ functionCallingConfig: { mode: "NONE" } });
    expect(choice("required")).toEqual({ functionCallingConfig: { mode: "ANY" } });
    expect(choice({ type: "function", function: { name: "f" } })).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["f"] },
    });
  });
});

describe("tool calls and results", () => {
  const history = {
    model: "g",
    messages: [
      user("t?"),
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_9", type: "function", function: { name: "get_time", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_9", content: "12:00" },
    ],
  };

  test("U2: the function response is named after its call", () => {
    const { value, losses } = translateRequest("chat", "generative", history);
    expect(value.contents).toMatchObject([
      { role: "user", parts: [{ text: "t?" }] },
      { role: "model", parts: [{ functionCall: { name: "get_time", args: {} } }] },
      { role: "user", parts: [{ functionResponse: { name: "get_time", response: { content: "12:00" } } }] },
    ]);
    expect(losses).toEqual([]);
  });

  test("U2: a tool result answering no call is a 400 TranslationError", () => {
    const body = { model: "g", messages: [user("x"), { role: "tool", tool_call_id: "nope", content: "r" }] };
    expect(() => translateRequest("chat", "generative", body)).toThrow(TranslationError);
  });

  test("U4: a result that is a JSON Schema text stays a string inside { content }", () => {
    const schemaText = '{"$defs":{"A":{}},"$ref":"#/$defs/A"}';
    const { value, losses } = translateRequest("messages", "generative", {
      model: "m",
      max_tokens: 64,
      messages: [
        user("x"),
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "schema", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: schemaText }] },
      ],
    });
    expect(value.contents[2]).toEqual({
      role: "user",
      parts: [{ functionResponse: { id: "t", name: "schema", response: { content: schemaText } } }],
    });
    expect(losses).toEqual([]);
  });

  test("U5: ids are still sent (no Vertex target option exists in the API); the rest of the shape matches", () => {
    const { value } = translateRequest("chat", "generative", {
      model: "g",
      messages: [
        user("x"),
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c", content: "r" },
      ],
    });
    expect(value.contents).toEqual([
      { role: "user", parts: [{ text: "x" }] },
      { role: "model", parts: [{ functionCall: { id: "c", name: "f", args: {} } }] },
      { role: "user", parts: [{ functionResponse: { id: "c", name: "f", response: { content: "r" } } }] },
    ]);
  });

  test("U8: an error result becomes response.error", () => {
    const { value, losses } = translateRequest("messages", "generative", {
      model: "m",
      max_tokens: 64,
      messages: [
        user("x"),
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: {} }] },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "t", is_error: true, content: "timeout" }],
        },
      ],
    });
    expect(value.contents[2]?.parts).toEqual([
      { functionResponse: { id: "t", name: "f", response: { error: "timeout" } } },
    ]);
    expect(losses).toEqual([]);
  });

  test("U10: a Gemini 3 target gets the skip sentinel on the unsigned replayed call", () => {
    const { value, losses } = translateRequest("chat", "generative", {
      ...history,
      model: "gemini-3-flash-preview",
    });
    expect(value.contents[1]).toEqual({
      role: "model",
      parts: [
        {
          functionCall: { id: "call_9", name: "get_time", args: {} },
          thoughtSignature: "skip_thought_signature_validator",
        },
      ],
    });
    expect(lossList(losses)).toEqual([{ path: "/messages/1/tool_calls/0", kind: "synthesized" }]);
  });
});

describe("images and files", () => {
  test("I1: a data URL becomes inlineData", () => {
    const { value, losses } = translateRequest("chat", "generative", {
      model: "g",
      messages: [
        user([
          { type: "text", text: "what" },
          { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/4AA=" } },
        ]),
      ],
    });
    expect(value.contents).toEqual([
      {
        role: "user",
        parts: [{ text: "what" }, { inlineData: { mimeType: "image/jpeg", data: "/9j/4AA=" } }],
      },
    ]);
    expect(losses).toEqual([]);
  });

  test("I2: an https image URL becomes fileData with the type from its extension", () => {
    const { value, losses } = translateRequest("chat", "generative", {
      model: "gemini-2.5-flash",
      messages: [user([{ type: "image_url", image_url: { url: "https://ex.com/cat.png" } }])],
    });
    expect(value.contents).toEqual([
      { role: "user", parts: [{ fileData: { mimeType: "image/png", fileUri: "https://ex.com/cat.png" } }] },
    ]);
    expect(losses).toEqual([]);
  });

  test("I4: a GIF is dropped, not relabelled", () => {
    const { value, losses } = translateRequest("messages", "generative", {
      model: "m",
      max_tokens: 64,
      messages: [
        user([
          { type: "image", source: { type: "base64", media_type: "image/gif", data: "R0lG" } },
          { type: "text", text: "?" },
        ]),
      ],
    });
    expect(value.contents).toEqual([{ role: "user", parts: [{ text: "?" }] }]);
    expect(lossList(losses)).toEqual([{ path: "/messages/0/content/0", kind: "dropped" }]);
  });

  test("I6: chat input_audio becomes inlineData audio/wav", () => {
    const { value, losses } = translateRequest("chat", "generative", {
      model: "g",
      messages: [user([{ type: "input_audio", input_audio: { data: "UklG", format: "wav" } }])],
    });
    expect(value.contents).toEqual([
      { role: "user", parts: [{ inlineData: { mimeType: "audio/wav", data: "UklG" } }] },
    ]);
    expect(losses).toEqual([]);
  });
});

describe("sampling, response format and reasoning", () => {
  test("P3: n, seed, penalties and logprobs map to generationConfig", () => {
    const { value, losses } = translateRequest("chat", "generative", {
      model: "g",
      n: 2,
      seed: 7,
      presence_penalty: 0.5,
      logprobs: true,
      top_logprobs: 3,
      messages: [user("x")],
    });
    expect(value.generationConfig).toEqual({
      candidateCount: 2,
      seed: 7,
      presencePenalty: 0.5,
      responseLogprobs: true,
      logprobs: 3,
    });
    expect(losses).toEqual([]);
  });

  test("P6: a json_schema response format the subset cannot say becomes responseJsonSchema; strict is a loss", () => {
    const { value, losses } = translateRequest("chat", "generative", {
      model: "g",
      messages: [user("x")],
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "r",
          strict: true,
          schema: {
            type: "object",
            additionalProperties: false,
            properties: { a: { type: "string" } },
            required: ["a"],
          },
        },
      },
    });
    expect(value.generationConfig).toEqual({
      responseMimeType: "application/json",
      responseJsonSchema: {
        type: "object",
        additionalProperties: false,
        properties: { a: { type: "string" } },
        required: ["a"],
      },
    });
    expect(lossList(losses)).toEqual([{ path: "/response_format/json_schema/strict", kind: "dropped" }]);
  });

  test("K3: a messages thinking budget is clamped to the Gemini 2.5 Flash range", () => {
    const { value, losses } = translateRequest(
      "messages",
      "generative",
      {
        model: "m",
        max_tokens: 8000,
        thinking: { type: "enabled", budget_tokens: 40000 },
        messages: [user("x")],
      },
      { model: "gemini-2.5-flash" },
    );
    expect(value.generationConfig).toEqual({
      maxOutputTokens: 8000,
      thinkingConfig: { thinkingBudget: 24576, includeThoughts: true },
    });
    expect(lossList(losses)).toEqual([{ path: "/thinking/budget_tokens", kind: "clamped" }]);
  });
});

describe("responses and errors", () => {
  test("F7: messages usage becomes usageMetadata with cache reads inside the prompt", () => {
    const { value, losses } = translateResponse("messages", "generative", {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "m",
      content: [{ type: "text", text: "hi" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: {
        input_tokens: 3,
        cache_creation_input_tokens: 200,
        cache_read_input_tokens: 1000,
        output_tokens: 50,
      },
    });
    expect(value.usageMetadata).toMatchObject({
      promptTokenCount: 1203,
      cachedContentTokenCount: 1000,
      candidatesTokenCount: 50,
      thoughtsTokenCount: 0,
      totalTokenCount: 1253,
    });
    expect(value.candidates?.[0]).toMatchObject({
      content: { role: "model", parts: [{ text: "hi" }] },
      finishReason: "STOP",
    });
    expect(losses).toEqual([]);
  });

  test("E3: a messages 529 overloaded error is a generative 503 UNAVAILABLE", () => {
    expect(
      translateError("messages", "generative", {
        status: 529,
        body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      }),
    ).toEqual({
      status: 503,
      body: { error: { code: 503, message: "Overloaded", status: "UNAVAILABLE" } },
      losses: [],
      headers: {},
      retryable: true,
      kind: "overloaded",
      fault: "upstream",
    });
  });

  test("E2/E3: a chat 429 is RESOURCE_EXHAUSTED", () => {
    const out = translateError("chat", "generative", {
      status: 429,
      body: {
        error: { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" },
      },
    });
    expect(out).toEqual({
      status: 429,
      body: { error: { code: 429, message: "Rate limit reached", status: "RESOURCE_EXHAUSTED" } },
      // The type `requests` (which limit) has no generative field: it does not arrive.
      losses: [expect.objectContaining({ path: "/error/type", kind: "dropped" })],
      headers: {},
      retryable: true,
      kind: "rate_limit",
      fault: "account",
    });
  });
});
