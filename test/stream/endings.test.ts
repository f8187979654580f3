/**
 * How a stream ends (API.md "Streams", DESIGN rule 7), for every pair of protocols and the same
 * protocol on both sides: a stream cut at any point before its protocol's finish, or whose body fails,
 * ends with the target's error event, never a normal stop; one that had its finish ends normally. At
 * the event level, at the byte level, through the TransformStream, and read by the official SDKs.
 */
import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI } from "@google/genai";
import fc from "fast-check";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import {
  createStreamTranslator,
  createTranslateStream,
  type Loss,
  type Protocol,
  protocols,
  sse,
  translateEventStream,
} from "../../src/index";
import { arbitraries, protocolArbitraries } from "../../src/testing/index";
import { runs } from "../helpers/tier";

const pairs = protocols.flatMap((from) => protocols.map((to) => [from, to] as const));
const options = { model: "m", idPrefix: "gp", created: 1_700_000_000 };

// ─── Whole streams, and the points to cut them at ─────────────────────────────────────────────────

const chatChunk = (delta: object, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "gpt",
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const call = (fn: object, extra: object = {}) => ({ tool_calls: [{ index: 0, ...extra, function: fn }] });

const messagesStart = {
  type: "message_start",
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 1 },
  },
};
const messagesDelta = (index: number, delta: object) => ({ type: "content_block_delta", index, delta });

const generativeChunk = (parts: object[], extra: object = {}) => ({
  candidates: [{ content: { role: "model", parts }, ...extra }],
  responseId: "r1",
  modelVersion: "gemini",
});

/** A responses event numbered in its stream (`sequence_number` is its position). */
const numbered = (events: Record<string, unknown>[]) =>
  events.map((event, sequence_number) => ({ type: event.type, sequence_number, ...event }));
const responsesEnvelope = (status: string, output: unknown[], usage: unknown = null) => ({
  id: "resp_1",
  object: "response",
  created_at: 1,
  status,
  error: null,
  incomplete_details: null,
  model: "gpt",
  output,
  usage,
});
const responsesMessage = (status: string, text: string) => ({
  id: "msg_1",
  type: "message",
  status,
  role: "assistant",
  content: status === "completed" ? [{ type: "output_text", text, annotations: [] }] : [],
});
const responsesCall = (status: string, args: string) => ({
  id: "fc_1",
  type: "function_call",
  status,
  call_id: "call_1",
  name: "get",
  arguments: args,
});
const textAt = { item_id: "msg_1", output_index: 0, content_index: 0 };
const argsAt = { item_id: "fc_1", output_index: 1 };

/** Per protocol: a whole stream (text, then a call whose arguments stream) and named cut points. */
const streams: Record<Protocol, { events: unknown[]; cuts: Record<string, number>; finishedFrom: number }> = {
  chat: {
    events: [
      chatChunk({ role: "assistant", content: "" }),
      chatChunk({ content: "Hel" }),
      chatChunk({ content: "lo" }),
      chatChunk(call({ name: "get", arguments: "" }, { id: "call_1", type: "function" })),
      chatChunk(call({ arguments: '{"city":' })),
      chatChunk(call({ arguments: '"Paris"}' })),
      chatChunk({}, "tool_calls"),
      { ...chatChunk({}), choices: [], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } },
      "[DONE]",
    ],
    // The chunk with the finish reason ends a chat stream; [DONE] after it adds nothing.
    cuts: { "nothing at all": 0, "before any content": 1, "mid-text": 2, "mid-tool-call arguments": 5 },
    finishedFrom: 7,
  },
  messages: {
    events: [
      messagesStart,
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      messagesDelta(0, { type: "text_delta", text: "Hel" }),
      messagesDelta(0, { type: "text_delta", text: "lo" }),
      { type: "content_block_stop", index: 0 },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "toolu_1", name: "get", input: {} },
      },
      messagesDelta(1, { type: "input_json_delta", partial_json: '{"city":' }),
      messagesDelta(1, { type: "input_json_delta", partial_json: '"Paris"}' }),
      { type: "content_block_stop", index: 1 },
      {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { output_tokens: 9 },
      },
      { type: "message_stop" },
    ],
    // The stop reason is announced by message_delta; only message_stop confirms it.
    cuts: {
      "nothing at all": 0,
      "before any content": 1,
      "mid-text": 3,
      "mid-tool-call arguments": 7,
      "after the finish, before the terminal event": 10,
    },
    finishedFrom: 11,
  },
  generative: {
    events: [
      generativeChunk([{ text: "Hel" }]),
      generativeChunk([{ text: "lo" }]),
      generativeChunk([{ functionCall: { name: "get", willContinue: true } }]),
      generativeChunk([
        {
          functionCall: {
            partialArgs: [{ jsonPath: "$.city", stringValue: "Par", willContinue: true }],
            willContinue: true,
          },
        },
      ]),
      generativeChunk([
        { functionCall: { partialArgs: [{ jsonPath: "$.city", stringValue: "is" }], willContinue: true } },
      ]),
      generativeChunk([{ functionCall: {} }], { finishReason: "STOP" }),
    ],
    cuts: { "nothing at all": 0, "mid-text": 1, "mid-tool-call arguments": 4 },
    finishedFrom: 6,
  },
  responses: {
    events: numbered([
      { type: "response.created", response: responsesEnvelope("in_progress", []) },
      { type: "response.in_progress", response: responsesEnvelope("in_progress", []) },
      { type: "response.output_item.added", output_index: 0, item: responsesMessage("in_progress", "") },
      {
        type: "response.content_part.added",
        ...textAt,
        part: { type: "output_text", text: "", annotations: [] },
      },
      { type: "response.output_text.delta", ...textAt, delta: "Hel" },
      { type: "response.output_text.delta", ...textAt, delta: "lo" },
      { type: "response.output_text.done", ...textAt, text: "Hello" },
      {
        type: "response.content_part.done",
        ...textAt,
        part: { type: "output_text", text: "Hello", annotations: [] },
      },
      { type: "response.output_item.done", output_index: 0, item: responsesMessage("completed", "Hello") },
      { type: "response.output_item.added", output_index: 1, item: responsesCall("in_progress", "") },
      { type: "response.function_call_arguments.delta", ...argsAt, delta: '{"city":' },
      { type: "response.function_call_arguments.delta", ...argsAt, delta: '"Paris"}' },
      { type: "response.function_call_arguments.done", ...argsAt, arguments: '{"city":"Paris"}' },
      {
        type: "response.output_item.done",
        output_index: 1,
        item: responsesCall("completed", '{"city":"Paris"}'),
      },
      {
        type: "response.completed",
        response: responsesEnvelope(
          "completed",
          [responsesMessage("completed", "Hello"), responsesCall("completed", '{"city":"Paris"}')],
          { input_tokens: 5, output_tokens: 9, total_tokens: 14 },
        ),
      },
    ]),
    // response.completed is the finish and the terminal event at once.
    cuts: { "nothing at all": 0, "before any content": 2, "mid-text": 5, "mid-tool-call arguments": 11 },
    finishedFrom: 15,
  },
};

// ─── What the target's stream ends with ──────────────────────────────────────────────────────────

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The target's own error event: chat `{error}`, messages `event: error`, generative `{error}`. */
function isErrorEvent(protocol: Protocol, event: unknown): boolean {
  if (!isObject(event)) return false;
  // responses: an `error` event then `response.failed`, which ends the stream.
  if (protocol === "responses") return event.type === "response.failed";
  return protocol === "messages" ? event.type === "error" : isObject(event.error);
}

/** Any sign of a normal end: chat a finish_reason or [DONE], messages message_delta/stop, generative a finishReason. */
function isNormalStop(protocol: Protocol, event: unknown): boolean {
  if (protocol === "chat")
    return (
      event === "[DONE]" ||
      (isObject(event) &&
        Array.isArray(event.choices) &&
        event.choices.some((choice) => isObject(choice) && choice.finish_reason != null))
    );
  if (!isObject(event)) return false;
  if (protocol === "messages") return event.type === "message_delta" || event.type === "message_stop";
  if (protocol === "responses")
    return event.type === "response.completed" || event.type === "response.incomplete";
  return (
    Array.isArray(event.candidates) &&
    event.candidates.some((candidate) => isObject(candidate) && typeof candidate.finishReason === "string")
  );
}

/** The last event is the target's error event and nothing before it says the stream ended normally. */
function expectErrorEnding(to: Protocol, out: readonly unknown[], label: string): void {
  expect(isErrorEvent(to, out.at(-1)), `${label}: last event ${JSON.stringify(out.at(-1))}`).toBe(true);
  if (to === "responses") expect(out.at(-2), label).toMatchObject({ type: "error" });
  expect(
    out.filter((event) => isErrorEvent(to, event)),
    label,
  ).toHaveLength(1);
  expect(
    out.some((event) => isNormalStop(to, event)),
    `${label}: a normal stop`,
  ).toBe(false);
}

/** No error event, and the stream ends as the target's ends normally. */
function expectNormalEnding(to: Protocol, out: readonly unknown[], label: string): void {
  expect(
    out.some((event) => isErrorEvent(to, event)),
    label,
  ).toBe(false);
  const last = out.at(-1);
  if (to === "chat") expect(last, label).toBe("[DONE]");
  else if (to === "messages") expect(last, label).toEqual({ type: "message_stop" });
  else expect(isNormalStop(to, last), label).toBe(true);
}

// ─── The three ways in ────────────────────────────────────────────────────────────────────────────

function eventLevel(from: Protocol, to: Protocol, events: readonly unknown[]) {
  const translator = createStreamTranslator(from, to, options);
  const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
  return { out, losses: translator.losses };
}

const encoder = new TextEncoder();

/** The SSE body of `events` (messages names each event by its type, as its servers do). */
function sseBody(protocol: Protocol, events: readonly unknown[]): string {
  return events
    .map((event) => {
      const data = event === "[DONE]" ? "[DONE]" : JSON.stringify(event);
      const name = protocol === "messages" && isObject(event) ? String(event.type) : undefined;
      return sse.format(name === undefined ? { data } : { event: name, data });
    })
    .join("");
}

/** A body that sends `text` in two pieces, then ends, or fails with `failure`. */
function body(text: string, failure?: Error): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  const pieces = [bytes.subarray(0, bytes.length >> 1), bytes.subarray(bytes.length >> 1)];
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pieces.shift();
      if (next !== undefined) controller.enqueue(next);
      else if (failure !== undefined) controller.error(failure);
      else controller.close();
    },
  });
}

/** The events of an SSE body (chat's `[DONE]` as the string). */
function eventsOf(text: string): unknown[] {
  const parser = sse.createParser();
  return [...parser.feed(text), ...parser.end()].map((message) =>
    message.data === "[DONE]" ? "[DONE]" : JSON.parse(message.data),
  );
}

async function byteLevel(
  from: Protocol,
  to: Protocol,
  events: readonly unknown[],
  failure?: Error,
  form: "translateEventStream" | "createTranslateStream" = "translateEventStream",
) {
  const losses: Loss[] = [];
  const withLosses = { ...options, onLoss: (loss: Loss) => losses.push(loss) };
  const input = body(sseBody(from, events), failure);
  const output =
    form === "translateEventStream"
      ? translateEventStream(from, to, input, withLosses)
      : input.pipeThrough(createTranslateStream(from, to, withLosses));
  // Read as a client does: a failing output would reject here.
  const text = await new Response(output).text();
  return { text, out: eventsOf(text), losses };
}

// ─── Every pair, every cut ────────────────────────────────────────────────────────────────────────

describe.each(pairs)("%s → %s", (from, to) => {
  const { events, cuts, finishedFrom } = streams[from];

  test.each(Object.entries(cuts))(
    "cut %s: the target's error event last, no normal stop",
    async (name, at) => {
      const cut = events.slice(0, at);
      const event = eventLevel(from, to, cut);
      // The same protocol passes the input through as it came: only what is added is judged.
      if (from === to) expect(event.out.slice(0, at)).toEqual(cut);
      expectErrorEnding(to, event.out.slice(from === to ? at : 0), `event level, ${name}`);
      expect(protocolArbitraries[to].grammar?.(event.out) ?? []).toEqual([]);
      // The loss points at the event that never came.
      expect(event.losses.at(-1)).toMatchObject({ path: `/${at}`, kind: "synthesized" });
      expect(event.losses.at(-1)?.message).toMatch(/ended before its finish/);
      for (const form of ["translateEventStream", "createTranslateStream"] as const) {
        const bytes = await byteLevel(from, to, cut, undefined, form);
        expect(bytes.out, form).toEqual(event.out);
        expect(bytes.losses, form).toEqual(event.losses);
      }
    },
  );

  test.each(Object.entries(cuts))(
    "body failing at %s: the target's error event says the connection failed",
    async (name, at) => {
      const cut = events.slice(0, at);
      for (const form of ["translateEventStream", "createTranslateStream"] as const) {
        const { out, losses } = await byteLevel(from, to, cut, new Error("read ECONNRESET"), form);
        expectErrorEnding(to, out.slice(from === to ? at : 0), `${form}, ${name}`);
        expect(JSON.stringify(out.at(-1))).toContain(
          "failed before its finish (the upstream connection failed: read ECONNRESET)",
        );
        expect(losses.at(-1)).toMatchObject({ path: `/${at}`, kind: "synthesized" });
      }
    },
  );

  test("the whole stream ends normally, with or without a failure after its finish", async () => {
    for (const at of [finishedFrom, events.length]) {
      const whole = events.slice(0, at);
      const event = eventLevel(from, to, whole);
      if (from === to) expect(event.out).toEqual(whole);
      else expectNormalEnding(to, event.out, `event level, ${at} events`);
      expect(
        event.losses.filter((loss) => loss.kind === "synthesized" && /finish/.test(loss.message)),
      ).toEqual([]);
      const failing = await byteLevel(from, to, whole, new Error("read ECONNRESET"));
      expect(failing.out).toEqual(event.out);
    }
  });
});

// ─── The official SDKs raise their error instead of returning a complete-looking answer ────────────

/** A fetch that answers every call with `text` as an SSE body, cut and failing when asked. */
function fetchOf(text: string, failure?: Error): typeof fetch {
  return async () =>
    new Response(body(text, failure), { status: 200, headers: { "content-type": "text/event-stream" } });
}

type Reader = (fetchFn: typeof fetch) => Promise<string>;

const readers: Record<Protocol, { read: Reader; errorClass: new (...args: never[]) => Error }> = {
  chat: {
    async read(fetchFn) {
      const client = new OpenAI({
        apiKey: "k",
        baseURL: "http://gateway.test/v1",
        fetch: fetchFn,
        maxRetries: 0,
      });
      let text = "";
      const stream = await client.chat.completions.create({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      });
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
      return text;
    },
    errorClass: OpenAI.APIError,
  },
  messages: {
    async read(fetchFn) {
      const client = new Anthropic({
        apiKey: "k",
        baseURL: "http://gateway.test",
        fetch: fetchFn,
        maxRetries: 0,
      });
      const message = await client.messages
        .stream({ model: "m", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
        .finalMessage();
      return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    },
    errorClass: Anthropic.APIError,
  },
  generative: {
    async read(fetchFn) {
      const original = globalThis.fetch;
      // @google/genai takes no fetch option: it calls the global one.
      globalThis.fetch = fetchFn;
      try {
        const client = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: "http://gateway.test" } });
        let text = "";
        for await (const chunk of await client.models.generateContentStream({ model: "m", contents: "hi" }))
          text += chunk.candidates?.[0]?.content?.parts?.map((part) => part.text ?? "").join("") ?? "";
        return text;
      } finally {
        globalThis.fetch = original;
      }
    },
    errorClass: ApiError,
  },
  responses: {
    async read(fetchFn) {
      const client = new OpenAI({
        apiKey: "k",
        baseURL: "http://gateway.test/v1",
        fetch: fetchFn,
        maxRetries: 0,
      });
      const response = await client.responses.stream({ model: "m", input: "hi" }).finalResponse();
      return response.output_text;
    },
    errorClass: OpenAI.APIError,
  },
};

describe.each(pairs)("the official %s → %s client", (from, to) => {
  const { events, cuts } = streams[from];
  const { read, errorClass } = readers[to];

  test("reads the whole translated stream as a complete answer", async () => {
    const translated = await byteLevel(from, to, events);
    expect(await read(fetchOf(translated.text))).toBe("Hello");
  });

  test.each(Object.entries(cuts).filter(([, at]) => at > 0))(
    "raises its error type for a stream cut %s",
    async (_name, at) => {
      const translated = await byteLevel(from, to, events.slice(0, at));
      const failure = await read(fetchOf(translated.text)).then(
        (text) => `no error, text ${JSON.stringify(text)}`,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(errorClass);
      expect(String((failure as Error).message)).toContain("before its finish");
    },
  );

  test("raises its error type for a body that fails mid-text", async () => {
    const translated = await byteLevel(from, to, events.slice(0, 2), new Error("socket hang up"));
    const failure = await read(fetchOf(translated.text)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(errorClass);
    expect(String((failure as Error).message)).toContain("the upstream connection failed: socket hang up");
  });
});

// ─── The property ─────────────────────────────────────────────────────────────────────────────────

/**
 * The oracle, read off the input alone: whether it reached its protocol's finish, and whether an error
 * event of its own came before its terminal event (chat `[DONE]`, messages `message_stop`) — before
 * the finish, or after it.
 */
function outcome(protocol: Protocol, events: readonly unknown[]) {
  let finished = false;
  let failed: "no" | "before" | "after" = "no";
  for (const event of events) {
    if (!isObject(event)) {
      if (protocol === "chat" && event === "[DONE]") break;
      continue;
    }
    const error = protocol === "messages" ? event.type === "error" : event.error !== undefined;
    if (error) {
      failed = finished ? "after" : "before";
      break;
    }
    if (protocol === "chat") {
      const choices = Array.isArray(event.choices) ? event.choices : [];
      if (choices.some((choice) => isObject(choice) && choice.index === 0 && choice.finish_reason != null))
        finished = true;
    } else if (protocol === "messages") {
      if (event.type === "message_stop") {
        finished = true;
        break;
      }
    } else if (protocol === "responses") {
      if (event.type === "response.completed" || event.type === "response.incomplete") {
        finished = true;
        break;
      }
      if (event.type === "response.failed") {
        failed = "before";
        break;
      }
    } else {
      const candidates = Array.isArray(event.candidates) ? event.candidates : [];
      const first = candidates.find(
        (candidate, position) => isObject(candidate) && (candidate.index ?? position) === 0,
      );
      if (isObject(first) && typeof first.finishReason === "string" && first.finishReason !== "")
        finished = true;
      const blocked = isObject(event.promptFeedback) && event.promptFeedback.blockReason !== undefined;
      if (candidates.length === 0 && blocked) finished = true;
    }
  }
  return { finished, failed };
}

describe.each(pairs)("property: %s → %s cut at any event", (from, to) => {
  test("ends with the target's error event, or a normal finish exactly when the input had its finish", () => {
    fc.assert(
      fc.property(
        fc.oneof(arbitraries.streamEvents(from), arbitraries.anyStreamEvents(from)),
        fc.nat(),
        (events, at) => {
          const cut = events.slice(0, at % (events.length + 1));
          const { out } = eventLevel(from, to, cut);
          const { finished, failed } = outcome(from, cut);
          const last = out.at(-1);
          if (from === to) {
            // The input goes out as it came; only a cut adds the protocol's error event.
            expect(out.slice(0, cut.length)).toEqual(cut);
            const cutOff = !finished && failed === "no";
            expect(out.length > cut.length).toBe(cutOff);
            if (cutOff) expect(isErrorEvent(to, last)).toBe(true);
          } else if (failed === "before") expect(isErrorEvent(to, last)).toBe(true);
          else if (failed === "after") {
            // The upstream's error after its finish: forwarded as the target's error event, unless the
            // target had already ended its stream normally (messages ends at the final usage).
            expect(isErrorEvent(to, last) || isNormalStop(to, last)).toBe(true);
          } else if (finished) expectNormalEnding(to, out, "finished");
          else expectErrorEnding(to, out, "cut");
        },
      ),
      { numRuns: runs(150) },
    );
  });
});
