/**
 * The scripted upstreams' own rules, without any agent: each refusal fires with the real service's
 * status and message, the same request made right is taken, and the task's two turns over each
 * protocol bring the reasoning state home when it is echoed as issued. The responses upstream's
 * answers are judged by OpenAI's OpenAPI description (test/descriptions/openai-2.3.0.json). Run by
 * npm run test:agents before the matrix (node --test).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import { startUpstream } from "../lib/upstream.mjs";

// OpenAI's description as JSON Schema: its `nullable: true` as a null type; a Response streamed
// before it is done has `usage: null`, as the service sends it (test/descriptions/README.md).
const openai = JSON.parse(
  readFileSync(new URL("../../test/descriptions/openai-2.3.0.json", import.meta.url), "utf8"),
);
openai.$defs.Response.allOf[2].properties.usage = {
  anyOf: [{ $ref: "#/$defs/ResponseUsage" }, { type: "null" }],
};
/** @param {unknown} schema @returns {unknown} */
function withNullable(schema) {
  if (Array.isArray(schema)) return schema.map(withNullable);
  if (schema === null || typeof schema !== "object") return schema;
  /** @type {Record<string, any>} */
  const out = {};
  for (const [key, value] of Object.entries(schema)) out[key] = withNullable(value);
  if (out.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  if (out.nullable === true && Array.isArray(out.enum)) out.enum = [...out.enum, null];
  if (out.nullable === true && out.$ref !== undefined)
    return { anyOf: [{ $ref: out.$ref }, { type: "null" }] };
  return out;
}
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ .../** @type {object} */ (withNullable(openai)), $id: "openai" });
/** @param {string} name */
const judge = (name) => {
  const validate = ajv.compile({ $ref: `openai#/$defs/${name}` });
  return (/** @type {unknown} */ value) => {
    assert.ok(validate(value), `${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  };
};
const isResponse = judge("Response");
const isStreamEvent = judge("ResponseStreamEvent");
const isErrorBody = judge("ErrorResponse");
const isUsage = judge("ResponseUsage");

const WORK = "/scratch";
const READ = {
  name: "Read",
  input_schema: { type: "object", properties: { file_path: { type: "string" } } },
};

/** @param {string} protocol @param {boolean} [rateLimitOnce] */
async function upstream(protocol, rateLimitOnce = false) {
  return startUpstream({ protocol, workdir: WORK, seed: `self-test-${protocol}`, rateLimitOnce });
}

/** @param {string} url @param {unknown} body @param {Record<string, string>} headers */
async function post(url, body, headers) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const errorMessage = (body) => body?.error?.message ?? "";

describe("messages", () => {
  let server;
  before(async () => {
    server = await upstream("messages");
  });
  after(() => server.close());
  const headers = { "x-api-key": "k", "anthropic-version": "2023-06-01" };
  const send = (body, extra = {}) => post(`${server.url}/v1/messages`, body, { ...headers, ...extra });
  const base = { model: "claude-sonnet-4-6", max_tokens: 2048, messages: [{ role: "user", content: "hi" }] };

  test("beta body fields need their anthropic-beta header", async () => {
    const body = { ...base, context_management: { edits: [] } };
    const refused = await send(body);
    assert.equal(refused.status, 400);
    assert.equal(errorMessage(refused.body), "context_management: Extra inputs are not permitted");
    assert.equal(refused.body.type, "error");
    assert.equal((await send(body, { "anthropic-beta": "context-management-2025-06-27" })).status, 200);
  });

  test("temperature with top_p, max_tokens missing, a thinking budget under 1024", async () => {
    assert.match(
      errorMessage((await send({ ...base, temperature: 1, top_p: 0.9 })).body),
      /cannot both be specified/,
    );
    assert.equal(
      errorMessage((await send({ ...base, max_tokens: undefined })).body),
      "max_tokens: Field required",
    );
    const small = await send({ ...base, thinking: { type: "enabled", budget_tokens: 512 } });
    assert.match(errorMessage(small.body), /greater than or equal to 1024/);
  });

  test("tool ids, unanswered calls, results that answer nothing, signatures it did not issue", async () => {
    const call = (id) => ({
      role: "assistant",
      content: [{ type: "tool_use", id, name: "Read", input: {} }],
    });
    const result = (id) => ({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: "x" }],
    });
    const user = { role: "user", content: "hi" };
    let answer = await send({
      ...base,
      messages: [user, call("functions.Read:0"), result("functions.Read:0")],
    });
    assert.match(
      errorMessage(answer.body),
      /^messages\.1\.content\.0\.tool_use\.id: String should match pattern/,
    );
    answer = await send({ ...base, messages: [user, call("toolu_1"), user] });
    assert.match(
      errorMessage(answer.body),
      /^messages\.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/,
    );
    const both = { role: "user", content: [...result("toolu_1").content, ...result("toolu_2").content] };
    answer = await send({ ...base, messages: [user, call("toolu_1"), both] });
    assert.match(
      errorMessage(answer.body),
      /unexpected `tool_use_id` found in `tool_result` blocks: toolu_2/,
    );
    const thinking = {
      role: "assistant",
      content: [{ type: "thinking", thinking: "t", signature: "forged" }],
    };
    answer = await send({ ...base, messages: [user, thinking, user] });
    assert.match(errorMessage(answer.body), /Invalid `signature` in `thinking` block/);
  });

  test("the task: the signature comes home, and a tool loop without its thinking block is refused", async () => {
    const ask = { ...base, tools: [READ], thinking: { type: "enabled", budget_tokens: 1024 } };
    const first = await send(ask);
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.content.map((block) => block.type),
      ["thinking", "tool_use", "tool_use"],
    );
    const results = {
      role: "user",
      content: first.body.content
        .filter((block) => block.type === "tool_use")
        .map((block) => ({ type: "tool_result", tool_use_id: block.id, content: "NOTE-7F3A-42" })),
    };
    const withoutThinking = { role: "assistant", content: first.body.content.slice(1) };
    const refused = await send({ ...ask, messages: [...ask.messages, withoutThinking, results] });
    assert.match(errorMessage(refused.body), /a final `assistant` message must start with a thinking block/);
    assert.equal(server.state.task.back, "lost");
    server.state.task.back = undefined;
    const second = await send({
      ...ask,
      messages: [...ask.messages, { role: "assistant", content: first.body.content }, results],
    });
    assert.equal(second.status, 200);
    assert.equal(server.state.task.back, "home");
    assert.equal(server.state.task.turns.at(-1).note, true);
  });
});

describe("chat", () => {
  let server;
  before(async () => {
    server = await upstream("chat", true);
  });
  after(() => server.close());
  const send = (body) => post(`${server.url}/v1/chat/completions`, body, { authorization: "Bearer k" });
  const user = { role: "user", content: "hi" };
  const call = {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "Read", arguments: "{}" } }],
  };

  test("a tool message answers a preceding call; every call is answered; images only from the user", async () => {
    let answer = await send({
      model: "gpt-5.5",
      messages: [user, { role: "tool", tool_call_id: "call_1", content: "x" }],
    });
    assert.match(
      errorMessage(answer.body),
      /messages with role 'tool' must be a response to a preceeding message with 'tool_calls'/,
    );
    assert.equal(answer.body.error.param, "messages.[1].role");
    answer = await send({ model: "gpt-5.5", messages: [user, call, user] });
    assert.match(errorMessage(answer.body), /did not have response messages: call_1/);
    const image = { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } };
    answer = await send({
      model: "gpt-5.5",
      messages: [user, call, { role: "tool", tool_call_id: "call_1", content: [image] }],
    });
    assert.match(errorMessage(answer.body), /Image URLs are only allowed for messages with role 'user'/);
  });

  test("the task's first request gets a 429 with retry-after once, then two calls", async () => {
    const ask = {
      model: "gpt-5.5",
      messages: [user],
      tools: [{ type: "function", function: { name: "Read", parameters: READ.input_schema } }],
    };
    const limited = await send(ask);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), "1");
    assert.equal(limited.body.error.code, "rate_limit_exceeded");
    const first = await send(ask);
    assert.equal(first.body.choices[0].message.tool_calls.length, 2);
    assert.equal(first.body.choices[0].finish_reason, "tool_calls");
  });
});

describe("generative", () => {
  let server;
  before(async () => {
    server = await upstream("generative");
  });
  after(() => server.close());
  const send = (model, body) =>
    post(`${server.url}/v1beta/models/${model}:generateContent`, body, { "x-goog-api-key": "k" });
  const user = { role: "user", parts: [{ text: "hi" }] };
  const tools = [
    {
      functionDeclarations: [
        {
          name: "read_file",
          parametersJsonSchema: { type: "object", properties: { file_path: { type: "string" } } },
        },
      ],
    },
  ];

  test("Gemini 3: the current turn's function calls carry their signature; Gemini 2.5 does not ask", async () => {
    const model = { role: "model", parts: [{ functionCall: { name: "read_file", args: {} } }] };
    const response = { role: "user", parts: [{ functionResponse: { name: "read_file", response: {} } }] };
    const refused = await send("gemini-3.1-pro-preview", { contents: [user, model, response] });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.status, "INVALID_ARGUMENT");
    assert.match(
      errorMessage(refused.body),
      /missing a thought_signature in functionCall parts.*`default_api:read_file` , position 2\./,
    );
    assert.equal((await send("gemini-2.5-pro", { contents: [user, model, response] })).status, 200);
    // A turn that is over (a user text after it) is not checked.
    assert.equal(
      (await send("gemini-3.1-pro-preview", { contents: [user, model, response, user] })).status,
      200,
    );
  });

  test("as many responses as calls, and no signature it did not issue", async () => {
    const model = {
      role: "model",
      parts: [{ functionCall: { name: "a", args: {} } }, { functionCall: { name: "b", args: {} } }],
    };
    const one = { role: "user", parts: [{ functionResponse: { name: "a", response: {} } }] };
    const answer = await send("gemini-2.5-pro", { contents: [user, model, one] });
    assert.match(
      errorMessage(answer.body),
      /number of function response parts is equal to the number of function call parts/,
    );
    const forged = { role: "model", parts: [{ text: "x", thoughtSignature: "Zm9yZ2Vk" }] };
    assert.equal(
      errorMessage((await send("gemini-2.5-pro", { contents: [user, forged, user] })).body),
      "Corrupted thought signature.",
    );
  });

  test("the task: the signature rides on the first call and comes home", async () => {
    const first = await send("gemini-3.1-pro-preview", { contents: [user], tools });
    const parts = first.body.candidates[0].content.parts;
    assert.equal(typeof parts[0].thoughtSignature, "string");
    assert.equal(parts[1].thoughtSignature, undefined);
    const responses = {
      role: "user",
      parts: parts.map((part) => ({
        functionResponse: { name: part.functionCall.name, response: { output: "NOTE-7F3A-42" } },
      })),
    };
    const second = await send("gemini-3.1-pro-preview", {
      contents: [user, { role: "model", parts }, responses],
      tools,
    });
    assert.equal(second.status, 200);
    assert.equal(server.state.task.back, "home");
  });
});

describe("responses", () => {
  let server;
  before(async () => {
    server = await upstream("responses");
  });
  after(() => server.close());
  const send = (body) => post(`${server.url}/v1/responses`, body, { authorization: "Bearer k" });
  const user = { role: "user", content: "hi" };
  const call = (callId) => ({
    type: "function_call",
    call_id: callId,
    name: "exec_command",
    arguments: "{}",
  });
  const output = (callId) => ({ type: "function_call_output", call_id: callId, output: "x" });

  test("call ids of 64 characters at most, calls and outputs in pairs", async () => {
    const long = `call_${"x".repeat(60)}`;
    let answer = await send({ model: "gpt-5.5", input: [user, call(long), output(long)] });
    assert.equal(answer.body.error.code, "string_above_max_length");
    assert.equal(answer.body.error.param, "input[1].call_id");
    answer = await send({ model: "gpt-5.5", input: [user, call("call_1")] });
    assert.equal(errorMessage(answer.body), "No tool output found for function call call_1.");
    answer = await send({ model: "gpt-5.5", input: [user, output("call_2")] });
    assert.equal(
      errorMessage(answer.body),
      "No tool call found for function call output with call_id call_2.",
    );
  });

  test("reasoning replayed: the issued bytes only, and never by id when nothing is stored", async () => {
    let answer = await send({
      model: "gpt-5.5",
      input: [user, { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAAAABforged" }],
    });
    assert.equal(answer.body.error.code, "invalid_encrypted_content");
    answer = await send({
      model: "gpt-5.5",
      store: false,
      input: [user, { type: "reasoning", id: "rs_1", summary: [] }],
    });
    assert.equal(answer.status, 404);
    assert.match(errorMessage(answer.body), /Items are not persisted when `store` is set to false/);
  });

  test("the task: encrypted_content when include asks, and it comes home", async () => {
    const tools = [
      {
        type: "function",
        name: "exec_command",
        parameters: { type: "object", properties: { cmd: { type: "string" } } },
      },
      {
        type: "function",
        name: "view_image",
        parameters: { type: "object", properties: { path: { type: "string" } } },
      },
    ];
    const ask = {
      model: "gpt-5.5",
      store: false,
      include: ["reasoning.encrypted_content"],
      tools,
      input: [user],
    };
    const first = await send(ask);
    const [reasoning, ...calls] = first.body.output;
    assert.equal(reasoning.type, "reasoning");
    assert.match(reasoning.encrypted_content, /^gAAAAAB/);
    assert.deepEqual(
      calls.map((item) => item.name),
      ["exec_command", "view_image"],
    );
    const outputs = calls.map((item) => ({
      type: "function_call_output",
      call_id: item.call_id,
      output: "NOTE-7F3A-42",
    }));
    const second = await send({ ...ask, input: [user, reasoning, ...calls, ...outputs] });
    assert.equal(second.status, 200);
    assert.equal(server.state.task.back, "home");
  });
});

describe("responses: what the service writes, stores and compacts", () => {
  let server;
  before(async () => {
    server = await upstream("responses");
  });
  after(() => server.close());
  const send = (path, body) => post(`${server.url}${path}`, body, { authorization: "Bearer k" });
  const tool = {
    type: "function",
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  };

  test("a Response carries every field the description requires, the request's configuration echoed", async () => {
    const answer = await send("/v1/responses", {
      model: "gpt-5.5",
      input: "hi",
      instructions: "Be brief.",
      tools: [tool],
      temperature: 0.5,
      service_tier: "auto",
      metadata: { a: "b" },
    });
    assert.equal(answer.status, 200);
    isResponse(answer.body);
    assert.deepEqual(answer.body.tools, [{ ...tool, description: null, strict: true }]);
    assert.equal(answer.body.instructions, "Be brief.");
    assert.equal(answer.body.temperature, 0.5);
    assert.equal(answer.body.service_tier, "default");
    assert.deepEqual(answer.body.metadata, { a: "b" });
    for (const key of [
      "presence_penalty",
      "frequency_penalty",
      "top_logprobs",
      "max_tool_calls",
      "safety_identifier",
      "prompt_cache_key",
    ])
      assert.ok(key in answer.body, key);
    assert.equal(answer.body.completed_at, answer.body.created_at + 1);
    assert.equal(answer.body.usage.input_tokens_details.cache_write_tokens, 0);
  });

  test("a stream's events are the description's, one response id from created to completed", async () => {
    const response = await fetch(`${server.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer k" },
      body: JSON.stringify({ model: "gpt-5.5", input: "hi", tools: [tool], stream: true }),
    });
    const events = (await response.text())
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)));
    for (const event of events) isStreamEvent(event);
    const ids = new Set(events.filter((event) => event.response).map((event) => event.response.id));
    assert.equal(ids.size, 1);
    assert.equal(events[0].response.completed_at, null);
    assert.equal(events.at(-1).type, "response.completed");
  });

  test("previous_response_id: a stored response is continued, an unknown or store:false one is previous_response_not_found", async () => {
    // The task's tools: the upstream answers them with two calls (and a reasoning item).
    const tools = ["exec_command", "view_image"].map((name) => ({
      type: "function",
      name,
      parameters: { type: "object", properties: { cmd: { type: "string" } } },
    }));
    const first = await send("/v1/responses", { model: "gpt-5.5", input: "go", tools });
    const calls = first.body.output.filter((item) => item.type === "function_call");
    assert.equal(calls.length, 2);
    const answers = calls.map((call) => ({
      type: "function_call_output",
      call_id: call.call_id,
      output: "x",
    }));
    // Each call of the stored conversation needs its output.
    const half = await send("/v1/responses", {
      model: "gpt-5.5",
      previous_response_id: first.body.id,
      input: answers.slice(1),
      tools,
    });
    assert.equal(half.status, 400);
    assert.equal(errorMessage(half.body), `No tool output found for function call ${calls[0].call_id}.`);
    const next = await send("/v1/responses", {
      model: "gpt-5.5",
      previous_response_id: first.body.id,
      input: answers,
      tools,
    });
    assert.equal(next.status, 200);
    assert.equal(next.body.previous_response_id, first.body.id);
    const unstored = await send("/v1/responses", { model: "gpt-5.5", input: "x", store: false });
    assert.equal(unstored.body.store, false);
    for (const id of ["resp_unknown", unstored.body.id]) {
      const missing = await send("/v1/responses", { model: "gpt-5.5", input: "y", previous_response_id: id });
      assert.equal(missing.status, 400);
      isErrorBody(missing.body);
      assert.deepEqual(missing.body.error, {
        message: `Previous response with id '${id}' not found.`,
        type: "invalid_request_error",
        param: "previous_response_id",
        code: "previous_response_not_found",
      });
    }
    // An output that answers no call of the stored conversation is still refused.
    const stray = await send("/v1/responses", {
      model: "gpt-5.5",
      previous_response_id: first.body.id,
      input: [{ type: "function_call_output", call_id: "call_other", output: "x" }],
    });
    assert.equal(stray.status, 400);
  });

  test("compact: user messages kept, the rest one compaction item, which a later request may send back", async () => {
    const input = [
      { role: "user", content: "We launch on Tuesday." },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Noted." }] },
    ];
    const missing = await send("/v1/responses/compact", { input });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, "missing_required_parameter");
    const compacted = await send("/v1/responses/compact", { model: "gpt-5.5", input });
    assert.equal(compacted.status, 200);
    assert.equal(compacted.body.object, "response.compaction");
    assert.ok(Number.isInteger(compacted.body.created_at));
    isUsage(compacted.body.usage);
    const [user, compaction] = compacted.body.output;
    assert.deepEqual(user.content, [{ type: "input_text", text: "We launch on Tuesday." }]);
    assert.equal(user.role, "user");
    assert.equal(compaction.type, "compaction");
    assert.match(compaction.id, /^cmp_/);
    assert.match(compaction.encrypted_content, /^gAAAAAB/);
    const again = await send("/v1/responses", {
      model: "gpt-5.5",
      store: false,
      input: [...compacted.body.output, { role: "user", content: "Go on." }],
    });
    assert.equal(again.status, 200);
    const forged = await send("/v1/responses", {
      model: "gpt-5.5",
      input: [
        { type: "compaction", encrypted_content: "gAAAAABforged" },
        { role: "user", content: "x" },
      ],
    });
    assert.equal(forged.status, 400);
    assert.equal(forged.body.error.code, "invalid_encrypted_content");
  });
});
