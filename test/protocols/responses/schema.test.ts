import { describe, expect, test } from "vitest";
import { issuePointer } from "../../../src/common/errors";
import * as responses from "../../../src/protocols/responses/schema";
import { accepts, acceptsRoot } from "../../../src/validate/accepts";
import { fixtures, readJsonFixture, streamEvents } from "../../helpers/fixtures";
import { sdkEvents } from "./sdk-events";

type Parsed = {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } };
};

function pointers(schema: Parsed, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : (result.error?.issues ?? []).map((issue) => issuePointer(issue.path));
}

const minimal = { model: "gpt-test", input: "hi" };

type Typed = { type?: unknown };
const typeOf = (value: unknown): unknown => (value as Typed).type;

/** Output items a response or an event carries. */
function outputItems(event: unknown): unknown[] {
  const { item, response } = event as { item?: unknown; response?: { output?: unknown[] } };
  return [...(item === undefined ? [] : [item]), ...(response?.output ?? [])];
}

describe("every recorded responses payload parses, and each of its kinds is one the schema checks", () => {
  test.each(fixtures("request", "responses").map((entry) => [entry.path, entry] as const))(
    "request %s",
    (_path, entry) => {
      const body = readJsonFixture(entry) as { input?: unknown };
      expect(pointers(responses.request, body)).toEqual([]);
      const items = Array.isArray(body.input) ? body.input : [];
      for (const item of items) {
        const type = typeOf(item);
        if (typeof type === "string") expect(responses.inputItemTypes).toContain(type);
      }
    },
  );
  test.each(fixtures("response", "responses").map((entry) => [entry.path, entry] as const))(
    "response %s",
    (_path, entry) => {
      const body = readJsonFixture(entry);
      expect(pointers(responses.response, body)).toEqual([]);
      for (const item of outputItems({ response: body }))
        expect(responses.outputItemTypes).toContain(typeOf(item));
    },
  );
  test.each(fixtures("error", "responses").map((entry) => [entry.path, entry] as const))(
    "error body %s",
    (_path, entry) => {
      expect(pointers(responses.errorBody, readJsonFixture(entry))).toEqual([]);
    },
  );
  test.each(fixtures("stream", "responses").map((entry) => [entry.path, entry] as const))(
    "stream %s",
    (_path, entry) => {
      const events = streamEvents(entry);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) {
        expect(pointers(responses.streamEvent, event)).toEqual([]);
        if (event === responses.DONE) continue;
        expect(responses.streamEventTypes).toContain(typeOf(event));
        for (const item of outputItems(event)) expect(responses.outputItemTypes).toContain(typeOf(item));
      }
    },
  );
});

describe("every stream event type of the openai SDK", () => {
  test.each(Object.entries(sdkEvents))("%s is checked by its own schema and kept whole", (type, event) => {
    expect(responses.streamEventTypes).toContain(type);
    expect(responses.streamEvent.parse(event)).toEqual(event);
  });
});

describe("responses request rejections (what the API rejects), with the pointer", () => {
  test("a request without model is rejected at /model, unless a stored prompt supplies it", () => {
    expect(pointers(responses.request, { input: "hi" })).toEqual(["/model"]);
    expect(pointers(responses.request, { input: "hi", prompt: { id: "pmpt_1" } })).toEqual([]);
  });
  test("max_output_tokens below 16 is rejected at /max_output_tokens", () => {
    expect(pointers(responses.request, { ...minimal, max_output_tokens: 15 })).toEqual([
      "/max_output_tokens",
    ]);
    expect(pointers(responses.request, { ...minimal, max_output_tokens: 16 })).toEqual([]);
  });
  test("a negative temperature is rejected where the recorded 400 points (param temperature)", () => {
    const recorded = fixtures("error", "responses").find((entry) =>
      entry.path.endsWith("openai-400-decimal-below-min.json"),
    );
    expect(recorded).toBeDefined();
    const { error } = readJsonFixture(recorded!) as { error: { param: string } };
    expect(pointers(responses.request, { ...minimal, temperature: -1 })).toEqual([`/${error.param}`]);
  });
  test("top_logprobs above 20 is rejected at /top_logprobs", () => {
    expect(pointers(responses.request, { ...minimal, top_logprobs: 21 })).toEqual(["/top_logprobs"]);
  });
  test("a message role outside user/assistant/system/developer is rejected at its role", () => {
    const body = { ...minimal, input: [{ role: "tool", content: "x" }] };
    expect(pointers(responses.request, body)).toEqual(["/input/0/role"]);
  });
  test("a typed message with a bad role is rejected at its role too", () => {
    const body = { ...minimal, input: [{ type: "message", role: "tool", content: "x" }] };
    expect(pointers(responses.request, body)).toEqual(["/input/0/role"]);
  });
  test("an input_text part without text is rejected at that field", () => {
    const body = { ...minimal, input: [{ role: "user", content: [{ type: "input_text" }] }] };
    expect(pointers(responses.request, body)).toEqual(["/input/0/content/0/text"]);
  });
  test("a function_call_output without call_id is rejected at /input/N/call_id", () => {
    const body = {
      ...minimal,
      input: [
        { type: "function_call", call_id: "call_1", name: "f", arguments: "{}" },
        { type: "function_call_output", output: "ok" },
      ],
    };
    expect(pointers(responses.request, body)).toEqual(["/input/1/call_id"]);
  });
  test("function_call arguments that are not a string are rejected", () => {
    const body = {
      ...minimal,
      input: [{ type: "function_call", call_id: "c", name: "f", arguments: { a: 1 } }],
    };
    expect(pointers(responses.request, body)).toEqual(["/input/0/arguments"]);
  });
  test("a reasoning item without summary is rejected at /input/N/summary", () => {
    const body = { ...minimal, input: [{ type: "reasoning", id: "rs_1", encrypted_content: "gAAA" }] };
    expect(pointers(responses.request, body)).toEqual(["/input/0/summary"]);
  });
  test("an untyped item with neither role nor id is rejected as an item reference without id", () => {
    expect(pointers(responses.request, { ...minimal, input: [{ content: "x" }] })).toEqual(["/input/0/id"]);
  });
  test("a function tool without name is rejected at /tools/N/name", () => {
    const body = { ...minimal, tools: [{ type: "function", parameters: { type: "object" } }] };
    expect(pointers(responses.request, body)).toEqual(["/tools/0/name"]);
  });
  test("a json_schema text format without schema is rejected at /text/format/schema", () => {
    const body = { ...minimal, text: { format: { type: "json_schema", name: "x" } } };
    expect(pointers(responses.request, body)).toEqual(["/text/format/schema"]);
  });
  test("a function tool_choice without name is rejected at /tool_choice/name", () => {
    expect(pointers(responses.request, { ...minimal, tool_choice: { type: "function" } })).toEqual([
      "/tool_choice/name",
    ]);
  });
  test.each([
    ["not an object", 42],
    ["a string", "hello"],
    ["null", null],
    ["an array", [minimal]],
  ])("%s is rejected, never a crash", (_name, value) => {
    expect(responses.request.safeParse(value).success).toBe(false);
    expect(responses.response.safeParse(value).success).toBe(false);
    expect(responses.errorBody.safeParse(value).success).toBe(false);
    expect(responses.streamEvent.safeParse(value).success).toBe(false);
  });
});

describe("responses schemas keep what they do not know", () => {
  test("unknown fields survive a parse at every level", () => {
    const body = {
      ...minimal,
      future_flag: { a: 1 },
      input: [
        { role: "user", content: [{ type: "input_text", text: "x", extra: true }], note: "n" },
        { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAA", signature_v2: "s" },
        { type: "function_call", call_id: "c", name: "f", arguments: "{}", trace: [1] },
      ],
      tools: [{ type: "function", name: "f", parameters: { type: "object" }, strict: false, cost: 1 }],
      reasoning: { effort: "low", summary: "auto", budget: 7 },
      text: { format: { type: "json_schema", name: "x", schema: {}, hint: "h" }, verbosity: "low" },
    };
    expect(responses.request.parse(body)).toEqual(body);
  });
  test("items, parts, tools, tool choices and formats of unknown kinds are kept as they come", () => {
    const body = {
      ...minimal,
      input: [
        { type: "hologram_call", id: "h_1", payload: [1] },
        { role: "user", content: [{ type: "input_video", video_url: "https://v" }] },
      ],
      tools: [{ type: "x_search", sources: ["x"] }],
      tool_choice: { type: "teleport" },
      text: { format: { type: "yaml" } },
    };
    expect(responses.request.parse(body)).toEqual(body);
  });
  test("an item without type is a message when it has a role, a reference when it has an id", () => {
    const input = [{ role: "developer", content: "be brief" }, { id: "msg_1" }, { type: null, id: "fc_1" }];
    expect(responses.request.parse({ ...minimal, input })).toEqual({ ...minimal, input });
  });
  test("an unknown stream event type parses as it came", () => {
    const event = { type: "response.thinking_hard.delta", sequence_number: 3, delta: "hm" };
    expect(responses.streamEvent.parse(event)).toEqual(event);
    const known = { type: "response.output_text.delta", item_id: "m", output_index: 0, content_index: 0 };
    expect(pointers(responses.streamEvent, known)).toEqual(["/delta"]);
  });
  test("an unknown status, incomplete reason and error code in a response are accepted", () => {
    const body = {
      id: "resp_1",
      object: "response",
      created_at: 1,
      model: "m",
      output: [],
      status: "paused",
      incomplete_details: { reason: "daydreaming" },
      error: { code: "insufficient_quota", message: "quota" },
    };
    expect(responses.response.parse(body)).toEqual(body);
  });
  test("the error event parses flat (the SDK's shape) and nested (the recorded shape)", () => {
    const flat = { type: "error", code: "server_error", message: "boom", param: null, sequence_number: 2 };
    const nested = {
      type: "error",
      sequence_number: 2,
      error: { type: "insufficient_quota", code: "insufficient_quota", message: "quota", param: null },
    };
    expect(responses.streamEvent.parse(flat)).toEqual(flat);
    expect(responses.streamEvent.parse(nested)).toEqual(nested);
  });
  test("events without sequence_number (March 2025 recordings) parse; a negative one does not", () => {
    const delta = { type: "response.output_text.delta", item_id: "m", output_index: 0, content_index: 0 };
    expect(pointers(responses.streamEvent, { ...delta, delta: "a" })).toEqual([]);
    expect(pointers(responses.streamEvent, { ...delta, delta: "a", sequence_number: -1 })).toEqual([
      "/sequence_number",
    ]);
  });
});

describe("the quick schema check agrees with zod on the responses schemas", () => {
  const cases = [
    {
      kind: "request",
      schema: responses.request,
      bodies: fixtures("request", "responses").map(readJsonFixture),
    },
    {
      kind: "response",
      schema: responses.response,
      bodies: fixtures("response", "responses").map(readJsonFixture),
    },
    {
      kind: "event",
      schema: responses.streamEvent,
      bodies: fixtures("stream", "responses").flatMap(streamEvents),
    },
    {
      kind: "errorBody",
      schema: responses.errorBody,
      bodies: fixtures("error", "responses").map(readJsonFixture),
    },
  ];
  test.each(cases)("on every $kind fixture", ({ schema, bodies }) => {
    for (const body of bodies) {
      expect(acceptsRoot(schema)(body)).toBe(true);
      expect(accepts(schema)(body)).toBe(true);
    }
  });
  test("through the request's refinement: no model and no stored prompt is left to zod, which rejects it", () => {
    const { model: _model, ...noModel } = minimal as { model?: unknown };
    expect(responses.request.safeParse(noModel).success).toBe(false);
    expect(acceptsRoot(responses.request)(noModel)).toBe(false);
    expect(accepts(responses.request)(noModel)).toBe(false);
    for (const prompt of [{ id: "pmpt_1" }, null]) {
      const body = { ...noModel, prompt };
      const zod = responses.request.safeParse(body).success;
      expect(zod).toBe(prompt !== null);
      // Accepted only where zod accepts; a stored prompt supplies the model.
      expect(acceptsRoot(responses.request)(body)).toBe(zod);
      expect(accepts(responses.request)(body)).toBe(zod);
    }
  });
  test("on rejected items, untyped ones included", () => {
    for (const input of [
      [{ content: "x" }],
      [{ role: "tool", content: "x" }],
      [{ type: "reasoning", id: "r" }],
    ]) {
      const body = { ...minimal, input };
      expect(responses.request.safeParse(body).success).toBe(false);
      expect(acceptsRoot(responses.request)(body)).toBe(false);
      expect(accepts(responses.request)(body)).toBe(false);
    }
  });
});
