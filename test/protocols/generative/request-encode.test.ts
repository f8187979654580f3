import { describe, expect, test } from "vitest";
import { TranslationError } from "../../../src/common/errors";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import { encodeGenerativeRequest } from "../../../src/protocols/generative/request";
import * as generative from "../../../src/protocols/generative/schema";

const options = resolveOptions({ idPrefix: "gp" });
const lossList = (losses: readonly { path: string; kind: string }[]) =>
  losses.map(({ path, kind }) => ({ path, kind }));

function request(fields: Partial<common.Request>): common.Request {
  return { model: "gemini-2.5-flash", stream: false, system: [], messages: [], tools: [], ...fields };
}
const user = (index: number, ...parts: common.Part[]): common.Message => ({
  role: "user",
  parts,
  source: `/messages/${index}`,
});
const assistant = (index: number, ...parts: common.Part[]): common.Message => ({
  role: "assistant",
  parts,
  source: `/messages/${index}`,
});
const text = (value: string, source = "/t"): common.TextPart => ({ type: "text", text: value, source });
const call = (
  id: string,
  name: string,
  source: string,
  extra: Partial<common.ToolCallPart> = {},
): common.ToolCallPart => ({
  type: "tool-call",
  id,
  name,
  arguments: {},
  source,
  ...extra,
});
const result = (
  callId: string,
  source: string,
  extra: Partial<common.ToolResultPart> = {},
): common.ToolResultPart => ({
  type: "tool-result",
  callId,
  content: [text("r", `${source}/content`)],
  source,
  ...extra,
});
const encode = (value: common.Request) => {
  const out = encodeGenerativeRequest(value, options);
  expect(generative.request.safeParse(out.value).success).toBe(true);
  return out;
};

describe("encodeGenerativeRequest: system and turns", () => {
  test("puts system text in systemInstruction, one part per block; a late block is an approximation (S2)", () => {
    const { value, losses } = encode(
      request({
        system: [
          { text: "A", source: "/messages/0" },
          {
            text: "B",
            late: true,
            cache: { type: "ephemeral", source: "/messages/2/cache_control" },
            source: "/messages/2",
          },
        ],
        messages: [user(1, text("hi"))],
      }),
    );
    expect(value.systemInstruction).toEqual({ parts: [{ text: "A" }, { text: "B" }] });
    expect(lossList(losses)).toEqual([
      { path: "/messages/2/cache_control", kind: "dropped" },
      { path: "/messages/2", kind: "approximated" },
    ]);
  });

  test("merges consecutive same-role turns and skips empty text (R3, R5)", () => {
    const { value, losses } = encode(
      request({ messages: [user(0, text("a")), user(1, text(""), text("b"))] }),
    );
    expect(value.contents).toEqual([{ role: "user", parts: [{ text: "a" }, { text: "b" }] }]);
    expect(losses).toEqual([]);
  });

  test("inserts a minimal user turn before a leading model turn, as a synthesized loss", () => {
    const { value, losses } = encode(
      request({ messages: [assistant(0, text("Hello!")), user(1, text("hi"))] }),
    );
    expect(value.contents).toEqual([
      { role: "user", parts: [{ text: "." }] },
      { role: "model", parts: [{ text: "Hello!" }] },
      { role: "user", parts: [{ text: "hi" }] },
    ]);
    expect(lossList(losses)).toEqual([{ path: "/messages/0", kind: "synthesized" }]);
  });

  test("a request of system text only sends its last system text as the user turn (S5)", () => {
    const { value, losses } = encode(
      request({ system: [{ text: "Summarize: foo", source: "/messages/0" }] }),
    );
    expect(value.contents).toEqual([{ role: "user", parts: [{ text: "Summarize: foo" }] }]);
    expect(value.systemInstruction).toBeUndefined();
    expect(lossList(losses)).toEqual([{ path: "/messages/0", kind: "synthesized" }]);
  });
});

describe("encodeGenerativeRequest: tool calls and results", () => {
  test("names function responses after their calls, wraps text results, groups them in call order (U2, U4, R3)", () => {
    const { value, losses } = encode(
      request({
        messages: [
          user(0, text("go")),
          assistant(
            1,
            call("c1", "a", "/messages/1/tool_calls/0"),
            call("c2", "b", "/messages/1/tool_calls/1"),
          ),
          user(2, result("c2", "/messages/2")),
          user(3, result("c1", "/messages/3", { content: [], json: { ok: true } }), text("thanks")),
        ],
      }),
    );
    expect(value.contents).toEqual([
      { role: "user", parts: [{ text: "go" }] },
      {
        role: "model",
        parts: [
          { functionCall: { id: "c1", name: "a", args: {} } },
          { functionCall: { id: "c2", name: "b", args: {} } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { id: "c1", name: "a", response: { ok: true } } },
          { functionResponse: { id: "c2", name: "b", response: { content: "r" } } },
          { text: "thanks" },
        ],
      },
    ]);
    expect(losses).toEqual([]);
  });

  test("an error result becomes response.error (U8); a JSON-Schema-looking string stays a string (U4)", () => {
    const schemaText = '{"$defs":{"A":{}},"$ref":"#/$defs/A"}';
    const { value } = encode(
      request({
        messages: [
          user(0, text("x")),
          assistant(1, call("t", "f", "/messages/1/content/0"), call("u", "g", "/messages/1/content/1")),
          user(
            2,
            result("t", "/messages/2/content/0", { isError: true, content: [text("timeout")] }),
            result("u", "/messages/2/content/1", { content: [text(schemaText)] }),
          ),
        ],
      }),
    );
    expect(value.contents[2]?.parts).toEqual([
      { functionResponse: { id: "t", name: "f", response: { error: "timeout" } } },
      { functionResponse: { id: "u", name: "g", response: { content: schemaText } } },
    ]);
  });

  test("a result answering no known call is a TranslationError, never an empty name (U2)", () => {
    const body = request({ messages: [user(0, text("x")), user(1, result("nope", "/messages/1"))] });
    expect(() => encodeGenerativeRequest(body, options)).toThrow(TranslationError);
  });

  test("a call without a result goes as it is: Gemini takes it (U3, issue 29)", () => {
    const body = request({
      messages: [
        user(0, text("x")),
        assistant(1, call("a", "f", "/m/1/0"), call("b", "f", "/m/1/1")),
        user(2, result("a", "/messages/2")),
      ],
    });
    const { value, losses } = encodeGenerativeRequest(body, options);
    expect(value.contents[1]?.parts?.map((part) => part.functionCall?.id)).toEqual(["a", "b"]);
    expect(value.contents[2]?.parts?.map((part) => part.functionResponse?.id)).toEqual(["a"]);
    expect(losses.filter((entry) => entry.kind === "synthesized")).toEqual([]);
  });

  test("malformed argument text is sent as { _raw } with an approximated loss (U9)", () => {
    const { value, losses } = encode(
      request({
        messages: [
          user(0, text("x")),
          assistant(1, {
            type: "tool-call",
            id: "c",
            name: "f",
            argumentsText: '{"a":1,',
            argumentsSource: "/messages/1/tool_calls/0/function/arguments",
            source: "/messages/1/tool_calls/0",
          }),
          user(2, { type: "tool-result", callId: "c", content: [], source: "/messages/2" }),
        ],
      }),
    );
    expect(value.contents[1]?.parts?.[0]).toEqual({
      functionCall: { id: "c", name: "f", args: { _raw: '{"a":1,' } },
    });
    expect(lossList(losses)).toEqual([
      { path: "/messages/1/tool_calls/0/function/arguments", kind: "approximated" },
    ]);
  });

  test("a Gemini 3 target gets the skip sentinel on the first unsigned call of a turn (U10)", () => {
    const { value, losses } = encode(
      request({
        model: "gemini-3-flash-preview",
        messages: [
          user(0, text("x")),
          assistant(1, call("c", "f", "/messages/1/tool_calls/0")),
          user(2, result("c", "/messages/2")),
        ],
      }),
    );
    expect(value.contents[1]?.parts?.[0]).toEqual({
      functionCall: { id: "c", name: "f", args: {} },
      thoughtSignature: "skip_thought_signature_validator",
    });
    expect(lossList(losses)).toEqual([{ path: "/messages/1/tool_calls/0", kind: "synthesized" }]);
  });

  test("signatures and reasoning go back only to generative (K4, K5)", () => {
    const { value, losses } = encode(
      request({
        messages: [
          user(0, text("x")),
          assistant(
            1,
            {
              type: "reasoning",
              text: "mine",
              signature: "g-sig",
              origin: "generative",
              source: "/messages/1/content/0",
            },
            {
              type: "reasoning",
              text: "theirs",
              signature: "a-sig",
              origin: "messages",
              source: "/messages/1/content/1",
            },
            call("c", "f", "/messages/1/content/2", { signature: { origin: "messages", value: "x" } }),
            call("d", "g", "/messages/1/content/3", { signature: { origin: "generative", value: "y" } }),
          ),
          user(2, result("c", "/messages/2/content/0"), result("d", "/messages/2/content/1")),
        ],
      }),
    );
    expect(value.contents[1]?.parts).toEqual([
      { text: "mine", thought: true, thoughtSignature: "g-sig" },
      { functionCall: { id: "c", name: "f", args: {} } },
      { functionCall: { id: "d", name: "g", args: {} }, thoughtSignature: "y" },
    ]);
    expect(lossList(losses)).toEqual([
      { path: "/messages/1/content/1", kind: "dropped" },
      { path: "/messages/1/content/2", kind: "dropped" },
    ]);
  });
});

describe("encodeGenerativeRequest: media", () => {
  const media = (part: Partial<common.MediaPart>): common.Request =>
    request({
      messages: [user(0, { type: "media", kind: "image", source: "/messages/0/content/0", ...part })],
    });

  test("a data URL or base64 becomes inlineData (I1); an http URL fileData with the type from its extension (I2)", () => {
    expect(encode(media({ url: "data:image/jpeg;base64,/9j/4AA=" })).value.contents[0]?.parts).toEqual([
      { inlineData: { mimeType: "image/jpeg", data: "/9j/4AA=" } },
    ]);
    expect(encode(media({ url: "https://ex.com/cat.png" })).value.contents[0]?.parts).toEqual([
      { fileData: { mimeType: "image/png", fileUri: "https://ex.com/cat.png" } },
    ]);
  });

  test("an unknown URL type is approximated; a GIF is dropped, not relabelled (I2, I4)", () => {
    const unknown = encode(media({ url: "https://ex.com/image" }));
    expect(unknown.value.contents[0]?.parts).toEqual([
      { fileData: { mimeType: "image/jpeg", fileUri: "https://ex.com/image" } },
    ]);
    expect(lossList(unknown.losses)).toEqual([{ path: "/messages/0/content/0", kind: "approximated" }]);
    const gif = encode(
      request({
        messages: [
          user(
            0,
            {
              type: "media",
              kind: "image",
              mediaType: "image/gif",
              data: "R0lG",
              source: "/messages/0/content/0",
            },
            text("?"),
          ),
        ],
      }),
    );
    expect(gif.value.contents).toEqual([{ role: "user", parts: [{ text: "?" }] }]);
    expect(lossList(gif.losses)).toEqual([{ path: "/messages/0/content/0", kind: "dropped" }]);
  });

  test("audio keeps its type; a provider file id is dropped", () => {
    expect(
      encode(media({ kind: "audio", mediaType: "audio/wav", data: "UklG" })).value.contents[0]?.parts,
    ).toEqual([{ inlineData: { mimeType: "audio/wav", data: "UklG" } }]);
    const fileId = encode(
      request({
        messages: [
          user(0, text("x"), {
            type: "media",
            kind: "file",
            fileId: "file-1",
            source: "/messages/0/content/1",
          }),
        ],
      }),
    );
    expect(lossList(fileId.losses)).toEqual([{ path: "/messages/0/content/1", kind: "dropped" }]);
  });
});

describe("encodeGenerativeRequest: generation config", () => {
  const base = { messages: [user(0, text("x"))] };

  test("clamps temperature and keeps the first five stop sequences (P1, P4)", () => {
    const { value, losses } = encode(
      request({
        ...base,
        temperature: { value: 2.5, source: "/temperature" },
        stop: { value: ["a", "b", "c", "d", "e", "f"], source: "/stop_sequences" },
      }),
    );
    expect(value.generationConfig).toEqual({ temperature: 2, stopSequences: ["a", "b", "c", "d", "e"] });
    expect(lossList(losses)).toEqual([
      { path: "/stop_sequences/5", kind: "dropped" },
      { path: "/temperature", kind: "clamped" },
    ]);
  });

  test("forwards explicit zeros and false, and maps n, seed, penalties and logprobs (P3)", () => {
    const { value, losses } = encode(
      request({
        ...base,
        temperature: { value: 0, source: "/t" },
        topP: { value: 0, source: "/p" },
        maxTokens: { value: 0, source: "/m" },
        candidateCount: { value: 2, source: "/n" },
        seed: { value: 7, source: "/seed" },
        presencePenalty: { value: 0.5, source: "/pp" },
        logprobs: { value: false, source: "/lp" },
        topLogprobs: { value: 3, source: "/tl" },
      }),
    );
    expect(value.generationConfig).toEqual({
      temperature: 0,
      topP: 0,
      maxOutputTokens: 0,
      candidateCount: 2,
      seed: 7,
      presencePenalty: 0.5,
      responseLogprobs: false,
      logprobs: 3,
    });
    expect(losses).toEqual([]);
  });

  test("a JSON-Schema response format the subset cannot say becomes responseJsonSchema; strict is dropped (P6)", () => {
    const { value, losses } = encode(
      request({
        ...base,
        responseFormat: {
          type: "json-schema",
          name: "r",
          strict: true,
          schema: {
            type: "object",
            additionalProperties: false,
            properties: { a: { type: "string" } },
            required: ["a"],
          },
          source: "/response_format/json_schema",
        },
      }),
    );
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

  test("clamps a thinking budget to the model's range and asks for thoughts (K3)", () => {
    const { value, losses } = encode(
      request({
        ...base,
        maxTokens: { value: 8000, source: "/max_tokens" },
        reasoning: {
          budgetTokens: 40000,
          enabled: true,
          budgetSource: "/thinking/budget_tokens",
          source: "/thinking",
        },
      }),
    );
    expect(value.generationConfig).toEqual({
      maxOutputTokens: 8000,
      thinkingConfig: { thinkingBudget: 24576, includeThoughts: true },
    });
    expect(lossList(losses)).toEqual([{ path: "/thinking/budget_tokens", kind: "clamped" }]);
  });

  test("an effort becomes a thinking level on Gemini 3 and a budget before it", () => {
    const effort = (model: string) =>
      encode(request({ ...base, model, reasoning: { effort: "low", source: "/reasoning_effort" } })).value
        .generationConfig?.thinkingConfig;
    expect(effort("gemini-3-pro-preview")).toEqual({ thinkingLevel: "low", includeThoughts: true });
    expect(effort("gemini-2.5-flash")).toEqual({ thinkingBudget: 1024, includeThoughts: true });
  });

  test("turning thinking off on a model that cannot is clamped to its minimum", () => {
    const { value, losses } = encode(
      request({
        ...base,
        model: "gemini-2.5-pro",
        reasoning: { enabled: false, budgetTokens: 0, source: "/thinking" },
      }),
    );
    expect(value.generationConfig?.thinkingConfig).toEqual({ thinkingBudget: 128 });
    expect(lossList(losses)).toEqual([{ path: "/thinking", kind: "clamped" }]);
  });

  test("user and parallel tool calls have no generative field and are dropped (C2, P8)", () => {
    const { losses } = encode(
      request({
        ...base,
        user: { value: "u-1", source: "/user" },
        parallelToolCalls: { value: false, source: "/parallel_tool_calls" },
      }),
    );
    expect(lossList(losses)).toEqual([
      { path: "/user", kind: "dropped" },
      { path: "/parallel_tool_calls", kind: "dropped" },
    ]);
  });
});

describe("encodeGenerativeRequest: tools", () => {
  const base = { messages: [user(0, text("x"))] };
  const fn = (name: string, parameters?: common.JsonSchema): common.FunctionTool => ({
    type: "function",
    name,
    ...(parameters === undefined ? {} : { parameters }),
    source: `/tools/0/function`,
  });

  test("puts every function in one functionDeclarations entry; a parameter-less object is omitted (T10)", () => {
    const { value } = encode(
      request({
        ...base,
        tools: [
          fn("ping", { type: "object", properties: {} }),
          fn("get", { type: "object", properties: { q: { type: "string" } } }),
        ],
      }),
    );
    expect(value.tools).toEqual([
      {
        functionDeclarations: [
          { name: "ping", description: "" },
          {
            name: "get",
            description: "",
            parameters: { type: "object", properties: { q: { type: "string" } } },
          },
        ],
      },
    ]);
  });

  test("a schema the converter cannot express goes unchanged as parametersJsonSchema (T4)", () => {
    const recursive = {
      $defs: { N: { type: "object", properties: { n: { $ref: "#/$defs/N" } } } },
      $ref: "#/$defs/N",
    };
    const { value, losses } = encode(request({ ...base, tools: [fn("tree", recursive)] }));
    expect(value.tools).toEqual([
      { functionDeclarations: [{ name: "tree", description: "", parametersJsonSchema: recursive }] },
    ]);
    expect(losses).toEqual([]);
  });

  test("a member of any type, which generative's Schema cannot hold (it requires `type`), sends the schema as parametersJsonSchema", () => {
    const anyValue = { type: "object", properties: { v: { description: "anything" }, w: true } };
    const { value, losses } = encode(request({ ...base, tools: [fn("put", anyValue)] }));
    expect(value.tools).toEqual([
      { functionDeclarations: [{ name: "put", description: "", parametersJsonSchema: anyValue }] },
    ]);
    expect(losses).toEqual([]);
    // A member that says what it holds gets the type: properties make an object, items an array.
    const told = {
      type: "object",
      properties: { o: { properties: { a: { type: "string" } } }, l: { items: { type: "integer" } } },
    };
    expect(encode(request({ ...base, tools: [fn("put", told)] })).value.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "put",
            description: "",
            parameters: {
              type: "object",
              properties: {
                o: { type: "object", properties: { a: { type: "string" } } },
                l: { type: "array", items: { type: "integer" } },
              },
            },
          },
        ],
      },
    ]);
  });

  test("maps every tool choice (C1) and drops provider tools of other protocols (T2)", () => {
    const config = (toolChoice: common.ToolChoice) =>
      encode(request({ ...base, toolChoice })).value.toolConfig;
    expect(config({ type: "auto", source: "" })).toEqual({ functionCallingConfig: { mode: "AUTO" } });
    expect(config({ type: "none", source: "" })).toEqual({ functionCallingConfig: { mode: "NONE" } });
    expect(config({ type: "required", source: "" })).toEqual({ functionCallingConfig: { mode: "ANY" } });
    expect(config({ type: "tool", name: "f", source: "" })).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["f"] },
    });
    const { value, losses } = encode(
      request({
        ...base,
        tools: [
          { type: "provider", origin: "messages", raw: {}, label: "web_search tool", source: "/tools/1" },
        ],
      }),
    );
    expect(value.tools).toBeUndefined();
    expect(lossList(losses)).toEqual([{ path: "/tools/1", kind: "dropped" }]);
  });
});
