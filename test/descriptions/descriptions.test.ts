/**
 * What the library emits, judged by the providers' own descriptions (test/descriptions/README.md): every
 * chat completion, chunk, Response and Responses stream event translated from another protocol validates
 * against OpenAI's OpenAPI description 2.3.0, and every request translated toward generative against the
 * v1beta GenerateContentRequest (from Google's protos), over the recorded fixtures and generated payloads.
 * A translated Response is judged with and without the client's request (`options.request`).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  chat,
  createStreamTranslator,
  type Protocol,
  protocols,
  responses,
  sse,
  translateEventStream,
  translateRequest,
  translateResponse,
} from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readFixture, readJsonFixture } from "../helpers/fixtures";
import { runs, seed } from "../helpers/tier";

const here = dirname(fileURLToPath(import.meta.url));
const openai = JSON.parse(readFileSync(join(here, "openai-2.3.0.json"), "utf8"));
const generative = JSON.parse(readFileSync(join(here, "generative-v1beta.json"), "utf8"));

// Where the description and the service disagree, the service's recorded behaviour wins, each said here:
// a Response the service streams before it is done (`response.created`, `in_progress`) has
// `usage: null` (test/fixtures/responses/stream/openai-text.sse), which the description's Response
// (a non-null ResponseUsage) does not allow.
const responseFields = openai.$defs.Response.allOf[2].properties;
responseFields.usage = { anyOf: [{ $ref: "#/$defs/ResponseUsage" }, { type: "null" }] };

/** The schemas' `nullable: true` as JSON Schema: `type` gains "null". */
function withNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNullable);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = withNullable(value);
  if (out.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  if (out.nullable === true && Array.isArray(out.enum)) out.enum = [...out.enum, null];
  if (out.nullable === true && out.$ref !== undefined)
    return { anyOf: [{ $ref: out.$ref }, { type: "null" }] };
  return out;
}
// OpenAPI 3.0's `nullable` appears in some of its schemas (as JSON Schema below); formats
// (`unixtime`, `uri`) are not judged.
const strictAjv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
strictAjv.addSchema({ ...(withNullable(openai) as object), $id: "openai" });
const judge = (name: string): ValidateFunction => strictAjv.compile({ $ref: `openai#/$defs/${name}` });
const chatCompletion = judge("CreateChatCompletionResponse");
const chatChunk = judge("CreateChatCompletionStreamResponse");
const responseObject = judge("Response");
const responseEvent = judge("ResponseStreamEvent");
const errorBody = judge("ErrorResponse");
const generativeRequest = strictAjv.compile(generative);

/** The validator's issues, short: `path: message` each. */
function issues(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).slice(0, 6).map((error) => `${error.instancePath} ${error.message}`);
}

function check(validate: ValidateFunction, value: unknown, label: string): void {
  const ok = validate(value);
  if (!ok) expect.fail(`${label}: ${issues(validate).join("; ")}\n${JSON.stringify(value).slice(0, 600)}`);
}

/** The client requests a Response may answer: none (the description's defaults) and one that sets much. */
const REQUESTS: readonly unknown[] = [
  undefined,
  {
    model: "gpt-5",
    input: "Hi",
    instructions: "Be brief.",
    temperature: 0.2,
    top_p: 0.9,
    store: false,
    max_output_tokens: 200,
    service_tier: "flex",
    tool_choice: "required",
    tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: {} } }],
    reasoning: { effort: "low" },
    text: { format: { type: "json_object" } },
    metadata: { user: "u1" },
  },
];

const others = (to: Protocol) => protocols.filter((from) => from !== to);

describe("a translated chat completion or Response validates against OpenAI's OpenAPI description 2.3.0", () => {
  for (const to of ["chat", "responses"] as const) {
    const validate = to === "chat" ? chatCompletion : responseObject;
    test.each(others(to).flatMap((from) => fixtures("response", from).map((entry) => [from, entry.path])))(
      `%s fixture %s → ${to}`,
      (from, path) => {
        const entry = fixtures("response", from as Protocol).find((candidate) => candidate.path === path);
        const body = readJsonFixture(entry as never);
        for (const request of REQUESTS) {
          const { value } = translateResponse(from as Protocol, to, body, {
            created: 1_800_000_000,
            request,
          });
          check(validate, value, `${path} → ${to}`);
        }
      },
    );
    test.each(others(to))(`generated %s responses → ${to}`, (from) => {
      const bodies = fc.sample(arbitraries.response(from), { seed, numRuns: runs(400, 20) });
      for (const body of bodies) {
        const { value } = translateResponse(from, to, body, { created: 1_800_000_000 });
        check(validate, value, `generated ${from} → ${to}`);
      }
    });
  }
});

/** A translated SSE body's events (chat's `[DONE]` left out). */
async function eventsOf(
  from: Protocol,
  to: Protocol,
  bytes: Uint8Array,
  request?: unknown,
): Promise<unknown[]> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const out: unknown[] = [];
  const reader = translateEventStream(from, to, body, { created: 1_800_000_000, request, model: "m" })
    .pipeThrough(sse.createDataStream())
    .getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    if (value !== "[DONE]") out.push(JSON.parse(value));
  }
}

describe("a translated stream event validates against OpenAI's OpenAPI description 2.3.0", () => {
  const encoder = new TextEncoder();
  for (const to of ["chat", "responses"] as const) {
    const validate = to === "chat" ? chatChunk : responseEvent;
    test.each(others(to).flatMap((from) => fixtures("stream", from).map((entry) => [from, entry.path])))(
      `%s fixture %s → ${to}`,
      async (from, path) => {
        const entry = fixtures("stream", from as Protocol).find((candidate) => candidate.path === path);
        const bytes = encoder.encode(readFixture(entry as never));
        for (const request of REQUESTS) {
          const events = await eventsOf(from as Protocol, to, bytes, request);
          expect(events.length).toBeGreaterThan(0);
          for (const [index, event] of events.entries()) {
            // chat ends a failed stream with its error body as the last event (`data: {"error": …}`).
            const chatError =
              to === "chat" && typeof event === "object" && event !== null && "error" in event;
            check(chatError ? errorBody : validate, event, `${path} → ${to} event ${index}`);
          }
        }
      },
    );
  }
});

describe("a request translated toward generative validates against the v1beta GenerateContentRequest", () => {
  test.each(
    others("generative").flatMap((from) => fixtures("request", from).map((entry) => [from, entry.path])),
  )("%s fixture %s", (from, path) => {
    const entry = fixtures("request", from as Protocol).find((candidate) => candidate.path === path);
    let value: unknown;
    try {
      value = translateRequest(from as Protocol, "generative", readJsonFixture(entry as never), {
        history: [],
      }).value;
    } catch {
      return; // a request the translation refuses (a 400 that says why) emits nothing to judge
    }
    check(generativeRequest, value, path as string);
  });
  test.each(others("generative"))("generated %s requests", (from) => {
    const bodies = fc.sample(arbitraries.request(from), { seed, numRuns: runs(400, 20) });
    for (const body of bodies) {
      let value: unknown;
      try {
        value = translateRequest(from, "generative", body, { history: [] }).value;
      } catch {
        continue;
      }
      check(generativeRequest, value, `generated ${from}`);
    }
  });
});

describe("a generated stream translated toward chat or responses validates event by event", () => {
  for (const to of ["chat", "responses"] as const) {
    const validate = to === "chat" ? chatChunk : responseEvent;
    test.each(others(to))(`generated %s streams → ${to}`, (from) => {
      const streams = fc.sample(arbitraries.streamEvents(from), { seed, numRuns: runs(200, 10) });
      for (const events of streams) {
        const translator = createStreamTranslator(from, to, { created: 1_800_000_000, model: "m" });
        const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
        for (const [index, event] of out.entries()) {
          if (event === "[DONE]") continue;
          const chatError = to === "chat" && typeof event === "object" && event !== null && "error" in event;
          check(chatError ? errorBody : validate, event, `generated ${from} → ${to} event ${index}`);
        }
      }
    });
  }
});

/** The description's properties of a schema (its `allOf` parts merged) that may be null. */
function nullableFields(name: string): string[] {
  const fields: string[] = [];
  const visit = (schema: Record<string, unknown>): void => {
    if (typeof schema.$ref === "string") visit(openai.$defs[schema.$ref.split("/").pop() as string]);
    for (const part of (schema.allOf as Record<string, unknown>[] | undefined) ?? []) visit(part);
    for (const [field, value] of Object.entries((schema.properties as Record<string, unknown>) ?? {})) {
      const text = JSON.stringify(value);
      const direct = value as { nullable?: boolean; anyOf?: { type?: string }[] };
      if (direct.nullable === true || direct.anyOf?.some((member) => member.type === "null"))
        fields.push(field);
      else if (typeof (value as { $ref?: string }).$ref === "string") {
        const target = openai.$defs[(value as { $ref: string }).$ref.split("/").pop() as string];
        if (target?.anyOf?.some((member: { type?: string }) => member.type === "null")) fields.push(field);
      } else if (text === '{"type":"null"}') fields.push(field);
    }
  };
  visit(openai.$defs[name]);
  return fields;
}

describe("what the description calls valid parses: each nullable field null", () => {
  test("a Response: every field the description lets be null (output_text, usage, reasoning …)", () => {
    const base = readJsonFixture(
      fixtures("response", "responses").find((entry) => entry.path.endsWith("openai-text.json")) as never,
    ) as Record<string, unknown>;
    const fields = nullableFields("Response");
    expect(fields).toEqual(expect.arrayContaining(["output_text", "instructions", "previous_response_id"]));
    for (const field of fields)
      expect(responses.response.safeParse({ ...base, [field]: null }).success, `${field}: null`).toBe(true);
  });
  test("a chat completion, its choice and its message: every field the description lets be null", () => {
    const base = readJsonFixture(
      fixtures("response", "chat").find((entry) => entry.path.endsWith("openai-text.json")) as never,
    ) as {
      choices: Record<string, unknown>[];
    } & Record<string, unknown>;
    const choice = base.choices[0] as Record<string, unknown>;
    for (const field of nullableFields("CreateChatCompletionResponse"))
      expect(chat.response.safeParse({ ...base, [field]: null }).success, `${field}: null`).toBe(true);
    for (const field of nullableFields("ChatCompletionResponseMessage"))
      expect(
        chat.response.safeParse({
          ...base,
          choices: [{ ...choice, message: { ...(choice.message as object), [field]: null } }],
        }).success,
        `message.${field}: null`,
      ).toBe(true);
    expect(chat.response.safeParse({ ...base, choices: [{ ...choice, logprobs: null }] }).success).toBe(true);
  });
});
