import { describe, expect, test } from "vitest";
import { resolveOptions } from "../../../src/common/options";
import { decodeGenerativeRequest, generativeRequestInfo } from "../../../src/protocols/generative/request";
import * as generative from "../../../src/protocols/generative/schema";
import { fixtures, readJsonFixture } from "../../helpers/fixtures";

const options = resolveOptions({ model: "gemini-2.5-flash", stream: true, idPrefix: "gp" });
const fixture = (name: string) =>
  generative.request.parse(
    readJsonFixture(
      fixtures("request", "generative").find((entry) => entry.path.endsWith(name)) ?? fixtures("request")[0]!,
    ),
  );
const decode = (body: unknown, opts = options) =>
  decodeGenerativeRequest(generative.request.parse(body), opts);
const lossList = (losses: readonly { path: string; kind: string }[]) =>
  losses.map(({ path, kind }) => ({ path, kind }));

describe("decodeGenerativeRequest", () => {
  test("takes the model and the stream flag from the options; absent they are empty and false", () => {
    const body = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
    expect(decode(body).value).toMatchObject({ model: "gemini-2.5-flash", stream: true });
    expect(generativeRequestInfo(generative.request.parse(body), resolveOptions({}))).toEqual({
      model: "",
      stream: false,
    });
  });

  test("decodes a recorded function-call history: ids kept, results matched, the signature kept on its call", () => {
    const { value, losses } = decodeGenerativeRequest(fixture("gemini-function-call-history.json"), options);
    const [user, model, results] = value.messages;
    expect(user).toMatchObject({
      role: "user",
      parts: [{ type: "text", text: "", source: "/contents/0/parts/0" }],
    });
    expect(model?.role).toBe("assistant");
    expect(model?.parts[0]).toMatchObject({
      type: "tool-call",
      id: "pyd_ai_df5891897e434a16add992cc09f10172",
      name: "generate_topic",
      arguments: {},
      signature: { origin: "generative" },
      source: "/contents/1/parts/0",
    });
    expect(results?.parts[1]).toEqual({
      type: "tool-result",
      callId: "pyd_ai_102eb2f935364e77bac26307e3428e2b",
      name: "generate_topic",
      content: [],
      json: { return_value: "penguins" },
      source: "/contents/2/parts/1",
    });
    expect(losses.filter((entry) => entry.kind === "synthesized")).toEqual([]);
  });

  test("synthesizes call ids from the turn and matches id-less results by name and order (U1, U2)", () => {
    const { value, losses } = decode({
      contents: [
        { role: "user", parts: [{ text: "go" }] },
        {
          role: "model",
          parts: [{ functionCall: { name: "a", args: {} } }, { functionCall: { name: "a", args: { x: 1 } } }],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "a", response: { content: "one" } } },
            { functionResponse: { name: "a", response: { error: "bad" } } },
          ],
        },
      ],
    });
    expect(value.messages[1]?.parts.map((part) => (part.type === "tool-call" ? part.id : ""))).toEqual([
      "gp_req1_0",
      "gp_req1_1",
    ]);
    expect(value.messages[2]?.parts).toEqual([
      {
        type: "tool-result",
        callId: "gp_req1_0",
        name: "a",
        content: [
          { type: "text", text: "one", source: "/contents/2/parts/0/functionResponse/response/content" },
        ],
        source: "/contents/2/parts/0",
      },
      {
        type: "tool-result",
        callId: "gp_req1_1",
        name: "a",
        content: [
          { type: "text", text: "bad", source: "/contents/2/parts/1/functionResponse/response/error" },
        ],
        isError: true,
        source: "/contents/2/parts/1",
      },
    ]);
    expect(lossList(losses)).toEqual([
      { path: "/contents/1/parts/0/functionCall/id", kind: "synthesized" },
      { path: "/contents/1/parts/1/functionCall/id", kind: "synthesized" },
    ]);
  });

  test("reads snake_case thinking fields and keeps an explicit zero budget", () => {
    const { value, losses } = decodeGenerativeRequest(
      fixture("gemini-thinking-budget-snake-case.json"),
      options,
    );
    expect(value.reasoning).toEqual({
      budgetTokens: 0,
      budgetSource: "/generationConfig/thinkingConfig/thinking_budget",
      enabled: false,
      source: "/generationConfig/thinkingConfig",
    });
    expect(value.maxTokens).toEqual({ value: 5, source: "/generationConfig/maxOutputTokens" });
    expect(value.system).toEqual([
      { text: "You are a helpful chatbot.", source: "/systemInstruction/parts/0" },
    ]);
    expect(losses).toEqual([]);
  });

  test("decodes thoughts, text signatures and raw JSON-Schema parameters of a recorded thinking history", () => {
    const { value } = decodeGenerativeRequest(fixture("gemini-thinking-history.json"), options);
    const model = value.messages[1];
    expect(model?.parts[0]).toMatchObject({ type: "reasoning", origin: "generative" });
    expect(model?.parts[1]).toMatchObject({ type: "text", signature: { origin: "generative" } });
    expect(value.reasoning).toEqual({
      includeThoughts: true,
      includeSource: "/generationConfig/thinkingConfig/include_thoughts",
      source: "/generationConfig/thinkingConfig",
    });
    expect(value.tools).toEqual([
      {
        type: "function",
        name: "dummy",
        description: "",
        parameters: { additionalProperties: false, properties: {}, type: "object" },
        parametersSource: "/tools/0/functionDeclarations/0/parameters_json_schema",
        source: "/tools/0/functionDeclarations/0",
      },
    ]);
  });

  test("converts upper-case Schema types and maps ANY with several names to an allowed subset (C4)", () => {
    const { value } = decodeGenerativeRequest(fixture("gemini-tool-config-any.json"), options);
    expect(value.tools[1]).toMatchObject({
      name: "final_result",
      parameters: { type: "object", properties: { bar: { type: "string" } }, required: ["bar"] },
    });
    expect(value.toolChoice).toEqual({
      type: "allowed",
      names: ["bar", "final_result"],
      mode: "required",
      source: "/toolConfig/functionCallingConfig",
    });
  });

  test("maps each functionCallingConfig mode (C1)", () => {
    const choice = (functionCallingConfig: object) =>
      decode({ contents: [{ parts: [{ text: "x" }] }], toolConfig: { functionCallingConfig } });
    expect(choice({ mode: "AUTO" }).value.toolChoice?.type).toBe("auto");
    expect(choice({ mode: "NONE" }).value.toolChoice?.type).toBe("none");
    expect(choice({ mode: "ANY" }).value.toolChoice?.type).toBe("required");
    expect(choice({ mode: "ANY", allowedFunctionNames: ["f"] }).value.toolChoice).toMatchObject({
      type: "tool",
      name: "f",
    });
    const validated = choice({ mode: "VALIDATED" });
    expect(validated.value.toolChoice?.type).toBe("auto");
    expect(lossList(validated.losses)).toEqual([
      { path: "/toolConfig/functionCallingConfig/mode", kind: "approximated" },
    ]);
  });

  test("keeps provider tools raw with their origin", () => {
    const { value } = decodeGenerativeRequest(fixture("gemini-google-search-tool.json"), options);
    expect(value.tools).toEqual([
      {
        type: "provider",
        origin: "generative",
        raw: { googleSearch: {} },
        label: "googleSearch tool",
        kind: "web-search",
        source: "/tools/0/googleSearch",
      },
    ]);
  });

  test("reports fields with no common slot as dropped: safety settings, cached content, unknown keys", () => {
    const { losses } = decode({
      contents: [{ role: "user", parts: [{ text: "x", videoMetadata: {} }] }],
      safetySettings: [{ category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_NONE" }],
      cachedContent: "cachedContents/1",
      generationConfig: { responseModalities: ["TEXT", "IMAGE"], responseModalities2: 1 },
      futureField: true,
    });
    expect(lossList(losses)).toEqual([
      { path: "/safetySettings", kind: "dropped" },
      { path: "/cachedContent", kind: "dropped" },
      { path: "/futureField", kind: "dropped" },
      { path: "/contents/0/parts/0/videoMetadata", kind: "dropped" },
      { path: "/generationConfig/responseModalities", kind: "dropped" },
      { path: "/generationConfig/responseModalities2", kind: "dropped" },
    ]);
  });

  test("decodes media parts, the JSON response format and sampling with explicit zeros", () => {
    const { value } = decode({
      contents: [
        {
          role: "user",
          parts: [
            { inlineData: { mimeType: "image/png", data: "iVBO" } },
            { fileData: { fileUri: "gs://b/a.pdf", mimeType: "application/pdf" } },
          ],
        },
      ],
      generationConfig: {
        temperature: 0,
        topK: 0,
        seed: 0,
        responseMimeType: "application/json",
        responseLogprobs: false,
      },
    });
    expect(value.messages[0]?.parts).toEqual([
      { type: "media", kind: "image", mediaType: "image/png", data: "iVBO", source: "/contents/0/parts/0" },
      {
        type: "media",
        kind: "document",
        mediaType: "application/pdf",
        url: "gs://b/a.pdf",
        source: "/contents/0/parts/1",
      },
    ]);
    expect(value).toMatchObject({
      temperature: { value: 0 },
      topK: { value: 0 },
      seed: { value: 0 },
      logprobs: { value: false },
      responseFormat: { type: "json", source: "/generationConfig/responseMimeType" },
    });
  });

  test("decodes responseSchema to JSON Schema and responseJsonSchema as given", () => {
    const viaSchema = decode({
      contents: [{ parts: [{ text: "x" }] }],
      generationConfig: {
        responseMimeType: "application/json",
        responseSchema: { type: "OBJECT", properties: { a: { type: "STRING" } } },
      },
    });
    expect(viaSchema.value.responseFormat).toEqual({
      type: "json-schema",
      schema: { type: "object", properties: { a: { type: "string" } } },
      schemaSource: "/generationConfig/responseSchema",
      source: "/generationConfig/responseSchema",
    });
    const { value } = decodeGenerativeRequest(fixture("gemini-response-schema.json"), options);
    expect(value.responseFormat).toMatchObject({ type: "json-schema", schema: { title: "CityLocation" } });
  });

  test("a thinking level decodes as an effort", () => {
    const { value } = decode({
      contents: [{ parts: [{ text: "x" }] }],
      generationConfig: { thinkingConfig: { thinkingLevel: "LOW" } },
    });
    expect(value.reasoning).toEqual({ effort: "low", source: "/generationConfig/thinkingConfig" });
  });

  test("code execution parts and model-side function responses stay opaque with their origin", () => {
    const { value } = decode({
      contents: [
        { role: "user", parts: [{ text: "x" }] },
        {
          role: "model",
          parts: [
            { executableCode: { code: "print(1)", language: "PYTHON" } },
            { functionResponse: { name: "mcp", response: { r: 1 } } },
          ],
        },
      ],
    });
    expect(value.messages[1]?.parts.map((part) => part.type)).toEqual(["opaque", "opaque"]);
  });

  test("never mutates its input", () => {
    const body = generative.request.parse(readJsonFixture(fixtures("request", "generative")[3]!));
    const copy = structuredClone(body);
    decodeGenerativeRequest(body, options);
    expect(body).toEqual(copy);
  });
});
