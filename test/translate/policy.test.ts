import { describe, expect, test } from "vitest";
import { type Loss, TranslationError, translateRequest, translateResponse } from "../../src/index";

// One test per row of DESIGN.md's policy table ("where the protocols disagree"), titled with the row.
const kinds = (losses: readonly Loss[]) => losses.map((entry) => [entry.path, entry.kind]);
const user = (text: string) => ({ role: "user", content: text });

describe("DESIGN policy table", () => {
  test("temperature above the target's range (messages: 0–1): clamp to the maximum, loss clamped", () => {
    const { value, losses } = translateRequest("chat", "messages", {
      model: "m",
      max_tokens: 10,
      temperature: 1.7,
      messages: [user("x")],
    });
    expect(value.temperature).toBe(1);
    expect(kinds(losses)).toContainEqual(["/temperature", "clamped"]);
  });

  test("target requires max_tokens (messages) and input has none: options.maxTokens, default 4096, loss synthesized", () => {
    const defaulted = translateRequest("chat", "messages", { model: "m", messages: [user("x")] });
    expect(defaulted.value.max_tokens).toBe(4096);
    expect(kinds(defaulted.losses)).toEqual([["/max_tokens", "synthesized"]]);
    const given = translateRequest(
      "chat",
      "messages",
      { model: "m", messages: [user("x")] },
      { maxTokens: 77 },
    );
    expect(given.value.max_tokens).toBe(77);
  });

  test("more stop sequences than the target allows (chat 4, generative 5): keep the first N, loss dropped", () => {
    const six = ["a", "b", "c", "d", "e", "f"];
    const toChat = translateRequest("messages", "chat", {
      model: "m",
      max_tokens: 5,
      stop_sequences: six,
      messages: [user("x")],
    });
    expect(toChat.value.stop).toEqual(["a", "b", "c", "d"]);
    expect(kinds(toChat.losses)).toEqual([
      ["/stop_sequences/4", "dropped"],
      ["/stop_sequences/5", "dropped"],
    ]);
    const toGenerative = translateRequest("messages", "generative", {
      model: "m",
      max_tokens: 5,
      stop_sequences: six,
      messages: [user("x")],
    });
    expect(toGenerative.value.generationConfig?.stopSequences).toEqual(["a", "b", "c", "d", "e"]);
    expect(kinds(toGenerative.losses)).toEqual([["/stop_sequences/5", "dropped"]]);
  });

  test("n/candidateCount > 1 to messages: dropped, loss", () => {
    const { value, losses } = translateRequest("chat", "messages", {
      model: "m",
      max_tokens: 5,
      n: 3,
      messages: [user("x")],
    });
    expect(value).not.toHaveProperty("n");
    expect(kinds(losses)).toEqual([["/n", "dropped"]]);
  });

  test("system text anywhere in chat messages: hoisted in order; a system message after the first user turn is approximated", () => {
    const { value, losses } = translateRequest("chat", "messages", {
      model: "m",
      max_tokens: 5,
      messages: [
        { role: "system", content: "one" },
        user("hi"),
        { role: "system", content: "two" },
        { role: "assistant", content: "ok" },
        user("again"),
      ],
    });
    const system =
      typeof value.system === "string" ? [value.system] : (value.system ?? []).map((block) => block.text);
    expect(system.join("\n")).toContain("one");
    expect(system.join("\n")).toContain("two");
    expect(system.join("\n").indexOf("one")).toBeLessThan(system.join("\n").indexOf("two"));
    expect(value.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(kinds(losses)).toEqual([["/messages/2", "approximated"]]);
  });

  test("consecutive same-role turns to messages/generative: merged into one turn, blocks kept in order, no loss", () => {
    const body = {
      model: "m",
      max_tokens: 5,
      messages: [user("a"), user("b"), { role: "assistant", content: "c" }],
    };
    const toMessages = translateRequest("chat", "messages", body);
    expect(toMessages.losses).toEqual([]);
    expect(toMessages.value.messages).toHaveLength(2);
    expect(JSON.stringify(toMessages.value.messages[0])).toMatch(/"a".*"b"/);
    const toGenerative = translateRequest("chat", "generative", body);
    expect(toGenerative.value.contents.map((content) => content.parts?.map((part) => part.text))).toEqual([
      ["a", "b"],
      ["c"],
    ]);
  });

  test("first turn not user (messages, generative): a minimal user turn is inserted, loss synthesized; strict mode: error", () => {
    const body = { model: "m", messages: [{ role: "assistant", content: "hello" }, user("hi")] };
    for (const to of ["messages", "generative"] as const) {
      const { value, losses } = translateRequest("chat", to, body, { maxTokens: 5 });
      const first =
        to === "messages"
          ? (value as { messages: { role: string }[] }).messages[0]
          : (value as { contents: { role?: string }[] }).contents[0];
      expect(first?.role).toBe("user");
      expect(losses.filter((entry) => entry.kind === "synthesized").map((entry) => entry.path)).toContain(
        "/messages/0",
      );
      expect(() => translateRequest("chat", to, body, { maxTokens: 5, strict: true })).toThrow(
        TranslationError,
      );
    }
  });

  test("tool call ids missing (generative): synthesized deterministically from idPrefix, turn and position; results matched by order and name", () => {
    const body = {
      contents: [
        user2("weather?"),
        {
          role: "model",
          parts: [
            { functionCall: { name: "get", args: { city: "A" } } },
            { functionCall: { name: "get", args: { city: "B" } } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "get", response: { t: 1 } } },
            { functionResponse: { name: "get", response: { t: 2 } } },
          ],
        },
      ],
    };
    const first = translateRequest("generative", "chat", body, { model: "g", idPrefix: "gw" });
    const second = translateRequest("generative", "chat", body, { model: "g", idPrefix: "gw" });
    expect(JSON.stringify(first.value)).toBe(JSON.stringify(second.value));
    const assistant = first.value.messages[1] as { tool_calls: { id: string }[] };
    const ids = assistant.tool_calls.map((call) => call.id);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id.startsWith("gw")).toBe(true);
    const results = first.value.messages.slice(2) as { role: string; tool_call_id: string }[];
    expect(results.map((message) => [message.role, message.tool_call_id])).toEqual([
      ["tool", ids[0]],
      ["tool", ids[1]],
    ]);
    expect(first.losses.every((entry) => entry.kind === "synthesized")).toBe(true);
  });

  test("JSON Schema keywords the generative subset lacks ($schema, additionalProperties, $ref/$defs, formats): the schema goes whole as parametersJsonSchema, no loss (issue 30)", () => {
    const { value, losses } = translateRequest("chat", "generative", {
      model: "m",
      messages: [user("x")],
      tools: [
        {
          type: "function",
          function: {
            name: "f",
            parameters: {
              $schema: "http://json-schema.org/draft-07/schema#",
              type: "object",
              additionalProperties: false,
              properties: { p: { $ref: "#/$defs/P" } },
              $defs: { P: { type: "string", format: "hostname" } },
            },
          },
        },
      ],
    });
    // Gemini takes full JSON Schema in `parametersJsonSchema`: nothing it accepts is removed.
    const declaration = value.tools?.[0]?.functionDeclarations?.[0];
    expect(declaration?.parameters).toBeUndefined();
    expect(declaration?.parametersJsonSchema).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      additionalProperties: false,
      properties: { p: { $ref: "#/$defs/P" } },
      $defs: { P: { type: "string", format: "hostname" } },
    });
    expect(losses).toEqual([]);
  });

  test("http(s) image URL to generative: fileData {fileUri, mimeType}; unknown mime type → loss approximated", () => {
    const known = translateRequest("chat", "generative", {
      model: "m",
      messages: [
        { role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/cat.png" } }] },
      ],
    });
    expect(known.value.contents[0]?.parts?.[0]).toMatchObject({
      fileData: { fileUri: "https://example.com/cat.png", mimeType: "image/png" },
    });
    expect(known.losses).toEqual([]);
    const unknown = translateRequest("chat", "generative", {
      model: "m",
      messages: [
        { role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/picture" } }] },
      ],
    });
    expect(unknown.value.contents[0]?.parts?.[0]).toMatchObject({
      fileData: { fileUri: "https://example.com/picture" },
    });
    expect(kinds(unknown.losses).map(([, kind]) => kind)).toEqual(["approximated"]);
  });

  test("usage: messages input_tokens excludes cache reads and writes; chat prompt_tokens and generative promptTokenCount include them", () => {
    const body = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "c",
      content: [{ type: "text", text: "hi" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: {
        input_tokens: 3,
        cache_creation_input_tokens: 200,
        cache_read_input_tokens: 1000,
        output_tokens: 50,
      },
    };
    const toChat = translateResponse("messages", "chat", body);
    expect(toChat.value.usage).toMatchObject({
      prompt_tokens: 1203,
      completion_tokens: 50,
      total_tokens: 1253,
      prompt_tokens_details: { cached_tokens: 1000 },
    });
    const toGenerative = translateResponse("messages", "generative", body);
    expect(toGenerative.value.usageMetadata).toMatchObject({
      promptTokenCount: 1203,
      cachedContentTokenCount: 1000,
      candidatesTokenCount: 50,
      totalTokenCount: 1253,
    });
    const back = translateResponse("chat", "messages", toChat.value);
    expect(back.value.usage).toMatchObject({
      input_tokens: 3,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 200,
      output_tokens: 50,
    });
  });
});

function user2(text: string) {
  return { role: "user", parts: [{ text }] };
}

describe("the model of a generative request", () => {
  test("comes from options.model; without it, translating to a body-carried protocol is a 400 that says so", () => {
    const body = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
    expect(translateRequest("generative", "chat", body, { model: "gemini-2.5-flash" }).value.model).toBe(
      "gemini-2.5-flash",
    );
    for (const to of ["chat", "messages"] as const) {
      let thrown: unknown;
      try {
        translateRequest("generative", to, body);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TranslationError);
      expect((thrown as TranslationError).status).toBe(400);
      expect((thrown as TranslationError).message).toMatch(/^Model name not specified.*options\.model/);
      expect((thrown as TranslationError).toErrorBody("chat").status).toBe(400);
    }
  });
});
