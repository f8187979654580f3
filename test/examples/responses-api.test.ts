/**
 * The Responses API as clients use it, through examples/node-gateway.mjs in front of a chat, messages
 * and generative upstream (the scripted one of upstream.ts): what the Open Responses compliance suite
 * checks (agents/compliance.mjs runs it), checked here without its code. A translated Response echoes
 * the request it answers; `previous_response_id` is served from the gateway's stored turns (not for a
 * `store: false` turn over HTTP); Responses over WebSocket carries the same events as SSE, one turn at
 * a time, keeps a connection's own turns and forgets the one a failed continuation named; compaction
 * gets the client's error shape with a clear message. In front of a responses upstream, which stores and
 * compacts itself, all of it goes to the upstream as it came, but for a WebSocket's `store: false` turns
 * (the upstream was asked not to keep them): the connection keeps them and sends their conversation.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { responses } from "../../src/index";
import { type Gateway, startGateway } from "./spawn";
import { startUpstream, type UpstreamProtocol } from "./upstream";

const UPSTREAMS: UpstreamProtocol[] = ["chat", "messages", "generative"];

// biome-ignore lint/suspicious/noExplicitAny: the gateway's JSON, read loosely (the schemas judge it)
type Wire = Record<string, any>;
const AUTH = { authorization: "Bearer sk-client", "content-type": "application/json" };

let upstream: Awaited<ReturnType<typeof startUpstream>>;
const gateways = new Map<UpstreamProtocol, Gateway>();

beforeAll(async () => {
  upstream = await startUpstream({ uniqueIds: true });
  for (const protocol of [...UPSTREAMS, "responses" as const])
    gateways.set(
      protocol,
      await startGateway({ UPSTREAM_URL: upstream.url, UPSTREAM_PROTOCOL: protocol, UPSTREAM_KEY: "sk-up" }),
    );
});

afterAll(async () => {
  for (const gateway of gateways.values()) gateway.child.kill();
  await upstream?.close();
});

const urlOf = (protocol: UpstreamProtocol): string => (gateways.get(protocol) as Gateway).url;

async function post(protocol: UpstreamProtocol, path: string, body: unknown) {
  const response = await fetch(`${urlOf(protocol)}${path}`, {
    method: "POST",
    headers: AUTH,
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Wire };
}

/** One WebSocket connection: send a message, collect the messages of its turn (to a terminal event or an error). */
async function socket(protocol: UpstreamProtocol) {
  const ws = new WebSocket(`${urlOf(protocol).replace("http", "ws")}/v1/responses`, { headers: AUTH });
  const inbox: Wire[] = [];
  let wake: (() => void) | undefined;
  ws.on("message", (data) => {
    inbox.push(JSON.parse(data.toString("utf8")));
    wake?.();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return {
    async turn(message: unknown): Promise<Wire[]> {
      ws.send(typeof message === "string" ? message : JSON.stringify(message));
      const events: Wire[] = [];
      for (;;) {
        const next = inbox.shift();
        if (next === undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          continue;
        }
        events.push(next);
        if (["response.completed", "response.incomplete", "response.failed", "error"].includes(next.type))
          return events;
      }
    },
    close: () => ws.close(),
  };
}

const finalOf = (events: Wire[]) => events.at(-1)?.response as Wire;

describe.each(UPSTREAMS)("the Responses API in front of a %s upstream", (protocol) => {
  test("a translated Response echoes the request it answers and carries what the description requires", async () => {
    const { status, body } = await post(protocol, "/v1/responses", {
      model: "text-model",
      input: "Hi",
      instructions: "Be brief.",
      temperature: 0.3,
      tools: [{ type: "function", name: "f", parameters: { type: "object", properties: {} } }],
    });
    expect(status).toBe(200);
    expect(responses.response.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      object: "response",
      status: "completed",
      instructions: "Be brief.",
      temperature: 0.3,
      top_p: 1,
      tool_choice: "auto",
      tools: [{ type: "function", name: "f", strict: true, description: null }],
      parallel_tool_calls: true,
      store: true,
      background: false,
      truncation: "disabled",
      text: { format: { type: "text" } },
      metadata: {},
      previous_response_id: null,
      usage: { input_tokens_details: { cache_write_tokens: expect.any(Number) } },
    });
    expect(body.completed_at).toEqual(expect.any(Number));
  });

  test("previous_response_id continues a stored turn; an unknown one, or a store:false one, is previous_response_not_found", async () => {
    const first = await post(protocol, "/v1/responses", { model: "text-model", input: "My name is Ada." });
    expect(first.status).toBe(200);
    const before = upstream.received.length;
    const next = await post(protocol, "/v1/responses", {
      model: "text-model",
      input: "What is my name?",
      previous_response_id: first.body.id,
    });
    expect(next.status).toBe(200);
    expect(next.body.previous_response_id).toBe(first.body.id);
    // The upstream got the stored turn before the new input.
    const sent = JSON.stringify(upstream.received.slice(before).at(-1)?.body);
    expect(sent.indexOf("My name is Ada.")).toBeGreaterThan(-1);
    expect(sent.indexOf("My name is Ada.")).toBeLessThan(sent.indexOf("What is my name?"));

    const unstored = await post(protocol, "/v1/responses", { model: "text-model", input: "x", store: false });
    for (const id of ["resp_unknown", unstored.body.id]) {
      const missing = await post(protocol, "/v1/responses", {
        model: "text-model",
        input: "y",
        previous_response_id: id,
      });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toMatchObject({
        code: "previous_response_not_found",
        param: "previous_response_id",
      });
    }
  });

  test("a streamed turn is stored when its final event passes", async () => {
    const response = await fetch(`${urlOf(protocol)}/v1/responses`, {
      method: "POST",
      headers: AUTH,
      body: JSON.stringify({ model: "text-model", input: "Count.", stream: true }),
    });
    const text = await response.text();
    const completed = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)))
      .find((event) => event.type === "response.completed");
    expect(completed?.response.store).toBe(true);
    const next = await post(protocol, "/v1/responses", {
      model: "text-model",
      input: "Again.",
      previous_response_id: completed.response.id,
    });
    expect(next.status).toBe(200);
  });

  test("over WebSocket: the SSE events, turn after turn, a connection's own store:false turns continued, other connections' not", async () => {
    const connection = await socket(protocol);
    const first = await connection.turn({
      type: "response.create",
      model: "text-model",
      store: false,
      input: "Hi",
    });
    expect(first.map((event) => event.type).slice(0, 2)).toEqual([
      "response.created",
      "response.in_progress",
    ]);
    expect(first.at(-1)?.type).toBe("response.completed");
    for (const event of first) expect(responses.streamEvent.safeParse(event).success).toBe(true);
    expect(first.map((event) => event.sequence_number)).toEqual(first.map((_, index) => index));
    const id = finalOf(first).id;

    const second = await connection.turn({
      type: "response.create",
      model: "text-model",
      store: false,
      previous_response_id: id,
      input: "Again",
    });
    expect(finalOf(second)).toMatchObject({ status: "completed", previous_response_id: id, store: false });
    connection.close();

    const other = await socket(protocol);
    const [error] = await other.turn({
      type: "response.create",
      model: "text-model",
      store: false,
      previous_response_id: id,
      input: "x",
    });
    expect(responses.websocketErrorEvent.safeParse(error).success).toBe(true);
    expect(error).toMatchObject({
      type: "error",
      status: 400,
      error: { code: "previous_response_not_found" },
    });
    // The connection goes on: a new chain without previous_response_id.
    expect(
      finalOf(await other.turn({ type: "response.create", model: "text-model", input: "New" })).status,
    ).toBe("completed");
    other.close();
  });

  test("over WebSocket: a continuation that fails forgets the turn it named; a message that is no response.create is an error envelope", async () => {
    const connection = await socket(protocol);
    const first = await connection.turn({
      type: "response.create",
      model: "text-model",
      store: false,
      input: "Hi",
    });
    const id = finalOf(first).id;
    const failed = await connection.turn({
      type: "response.create",
      model: "bad-request-model",
      store: false,
      previous_response_id: id,
      input: "x",
    });
    expect(failed.at(-1)?.type).toBe("error");
    const [again] = await connection.turn({
      type: "response.create",
      model: "text-model",
      store: false,
      previous_response_id: id,
      input: "x",
    });
    expect(again).toMatchObject({
      type: "error",
      status: 400,
      error: { code: "previous_response_not_found" },
    });
    const [notJson] = await connection.turn("not json");
    expect(notJson).toMatchObject({ type: "error", status: 400 });
    const [http] = await connection.turn({
      type: "response.create",
      model: "text-model",
      input: "x",
      stream: true,
    });
    expect(http).toMatchObject({ type: "error", status: 400, error: { param: "stream" } });
    connection.close();
  });

  test("compaction: a request without model is a 400, any other the client's error shape saying why it cannot be done", async () => {
    const input = [{ role: "user", content: "We launch on Tuesday." }];
    const missing = await post(protocol, "/v1/responses/compact", { input });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ param: "model" });
    const refused = await post(protocol, "/v1/responses/compact", { model: "text-model", input });
    expect(refused.status).toBe(501);
    expect(responses.errorBody.safeParse(refused.body).success).toBe(true);
    expect(refused.body.error.message).toMatch(/cannot compact/);
  });
});

describe("the Responses API in front of a responses upstream", () => {
  const lastSent = () => upstream.received.at(-1) as { path: string; body: Wire };

  test("over WebSocket: a store:false turn is continued with its conversation as the input, the answer naming the client's previous_response_id", async () => {
    const connection = await socket("responses");
    const first = await connection.turn({
      type: "response.create",
      model: "text-model",
      store: false,
      input: "Remember: cobalt.",
    });
    const id = finalOf(first).id;
    expect(typeof id).toBe("string");
    const second = await connection.turn({
      type: "response.create",
      model: "text-model",
      store: false,
      previous_response_id: id,
      input: "The word?",
    });
    const sent = lastSent().body;
    expect(sent.previous_response_id).toBeUndefined();
    expect(sent.input[0]).toEqual({ role: "user", content: "Remember: cobalt." });
    expect(sent.input.slice(1, -1)).toEqual(finalOf(first).output);
    expect(sent.input.at(-1)).toEqual({ role: "user", content: "The word?" });
    for (const event of second) expect(responses.streamEvent.safeParse(event).success).toBe(true);
    for (const event of second.filter((entry) => entry.response !== undefined))
      expect(event.response.previous_response_id).toBe(id);
    // The next turn continues the whole chain.
    await connection.turn({
      type: "response.create",
      model: "text-model",
      store: false,
      previous_response_id: finalOf(second).id,
      input: "Once more.",
    });
    const chain = lastSent().body.input as Wire[];
    expect(chain[0]).toEqual({ role: "user", content: "Remember: cobalt." });
    expect(chain.at(-1)).toEqual({ role: "user", content: "Once more." });
    connection.close();
  });

  test("a stored turn, and any turn over HTTP, names its previous response to the upstream as it came; compaction goes to the upstream", async () => {
    const connection = await socket("responses");
    const first = await connection.turn({ type: "response.create", model: "text-model", input: "Hi" });
    const id = finalOf(first).id;
    await connection.turn({
      type: "response.create",
      model: "text-model",
      previous_response_id: id,
      input: "Again",
    });
    expect(lastSent().body).toMatchObject({ previous_response_id: id, input: "Again" });
    connection.close();

    await post("responses", "/v1/responses", { model: "text-model", input: "x", previous_response_id: id });
    expect(lastSent().body).toMatchObject({ previous_response_id: id, input: "x" });

    const input = [{ role: "user", content: "We launch on Tuesday." }];
    await post("responses", "/v1/responses/compact", { model: "text-model", input });
    expect(lastSent()).toMatchObject({ path: "/v1/responses/compact", body: { model: "text-model", input } });
  });
});
