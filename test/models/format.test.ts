import { describe, expect, test } from "vitest";
import { formatList, formatModel, notFound } from "../../src/models/format";
import { chatList, chatModel, generativeList, messagesList, notFoundBody } from "../../src/models/schema";

const entries = [
  { id: "gpt-4o", owned_by: "openai", supported_endpoint_types: ["std", "std-response"] },
  { id: "claude-x", owned_by: "anthropic", supported_endpoint_types: ["msg", "std"] },
];

const nullModel = {
  baseModelId: null,
  version: null,
  description: null,
  inputTokenLimit: null,
  outputTokenLimit: null,
  supportedGenerationMethods: null,
  temperature: null,
  maxTemperature: null,
  topP: null,
  topK: null,
  thinking: null,
};

describe("formatList: chat (spec 2.1)", () => {
  test("a non-empty list has success, object list, placeholder created and endpoint types", () => {
    const out = formatList("chat", entries);
    expect(out).toEqual({
      success: true,
      object: "list",
      data: [
        {
          id: "gpt-4o",
          object: "model",
          created: 1626777600,
          owned_by: "openai",
          supported_endpoint_types: ["std", "std-response"],
        },
        {
          id: "claude-x",
          object: "model",
          created: 1626777600,
          owned_by: "anthropic",
          supported_endpoint_types: ["msg", "std"],
        },
      ],
    });
    expect(chatList.safeParse(out).success).toBe(true);
  });

  test("an empty list is a normal answer", () => {
    const out = formatList("chat", []);
    expect(out).toEqual({ success: true, object: "list", data: [] });
    expect(chatList.safeParse(out).success).toBe(true);
  });

  test("catalog-only fields do not leak into the list, and the endpoint array is a copy", () => {
    const full = { ...entries[0]!, groups: ["vip"], hasChannel: true, listed: true, priced: true };
    const out = formatList("chat", [full]);
    expect(Object.keys(out.data[0]!).sort()).toEqual([
      "created",
      "id",
      "object",
      "owned_by",
      "supported_endpoint_types",
    ]);
    expect(out.data[0]!.supported_endpoint_types).not.toBe(full.supported_endpoint_types);
  });
});

describe("formatList: messages (spec 2.2)", () => {
  test("a non-empty list has first_id, last_id, has_more false and display_name = id", () => {
    const out = formatList("messages", entries);
    expect(out).toEqual({
      data: [
        { id: "gpt-4o", type: "model", display_name: "gpt-4o", created_at: "2021-07-20T10:40:00Z" },
        { id: "claude-x", type: "model", display_name: "claude-x", created_at: "2021-07-20T10:40:00Z" },
      ],
      first_id: "gpt-4o",
      last_id: "claude-x",
      has_more: false,
    });
    expect(messagesList.safeParse(out).success).toBe(true);
  });

  test("an empty list has empty-string first_id and last_id", () => {
    const out = formatList("messages", []);
    expect(out).toEqual({ data: [], first_id: "", last_id: "", has_more: false });
    expect(messagesList.safeParse(out).success).toBe(true);
  });

  test("the created_at placeholder is the same instant as the chat created placeholder", () => {
    const [first] = formatList("messages", entries).data;
    expect(Date.parse(first!.created_at) / 1000).toBe(1626777600);
  });
});

describe("formatList: generative (spec 2.3)", () => {
  test("a non-empty list has name models/{id}, displayName, other fields null and nextPageToken null", () => {
    const out = formatList("generative", entries);
    expect(out).toEqual({
      models: [
        { name: "models/gpt-4o", displayName: "gpt-4o", ...nullModel },
        { name: "models/claude-x", displayName: "claude-x", ...nullModel },
      ],
      nextPageToken: null,
    });
    expect(generativeList.safeParse(out).success).toBe(true);
  });

  test("an empty list", () => {
    const out = formatList("generative", []);
    expect(out).toEqual({ models: [], nextPageToken: null });
    expect(generativeList.safeParse(out).success).toBe(true);
  });

  test("an unknown format is a TypeError naming the formats", () => {
    expect(() => formatList("xml" as never, entries)).toThrow(TypeError);
  });
});

describe("the list schemas accept real upstream lists", () => {
  test("an upstream chat list without success or endpoint types", () => {
    const upstream = {
      object: "list",
      data: [{ id: "gpt-4o", object: "model", created: 1715367049, owned_by: "system" }],
    };
    expect(chatList.safeParse(upstream).success).toBe(true);
  });

  test("an empty upstream messages page with null ids", () => {
    expect(messagesList.safeParse({ data: [], first_id: null, last_id: null, has_more: false }).success).toBe(
      true,
    );
  });

  test("an upstream generative list without nextPageToken, with limits filled", () => {
    const upstream = {
      models: [
        {
          name: "models/gemini-2.5-pro",
          displayName: "Gemini 2.5 Pro",
          inputTokenLimit: 1048576,
          supportedGenerationMethods: ["generateContent"],
        },
      ],
    };
    expect(generativeList.safeParse(upstream).success).toBe(true);
  });
});

describe("retrieve", () => {
  test("formatModel gives the 2.1 object, not wrapped in data", () => {
    const out = formatModel(entries[0]!);
    expect(out).toEqual({ id: "gpt-4o", object: "model", created: 1626777600, owned_by: "openai" });
    expect(chatModel.safeParse(out).success).toBe(true);
  });

  test("formatModel in the messages and generative formats", () => {
    expect(formatModel({ id: "m" }, "messages")).toEqual({
      id: "m",
      type: "model",
      display_name: "m",
      created_at: "2021-07-20T10:40:00Z",
    });
    expect(formatModel({ id: "m" }, "generative")).toEqual({
      name: "models/m",
      displayName: "m",
      ...nullModel,
    });
  });

  test("notFound is the HTTP-200 body with model_not_found", () => {
    const out = notFound("gpt-x");
    expect(out).toEqual({
      error: {
        message: "The model 'gpt-x' does not exist",
        type: "invalid_request_error",
        param: "model",
        code: "model_not_found",
      },
    });
    expect(notFoundBody.safeParse(out).success).toBe(true);
  });
});
