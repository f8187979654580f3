import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import type * as common from "../../src/common/model";
import { resolveOptions } from "../../src/common/options";
import type { StreamReducer } from "../../src/common/reducer";
import { accumulate, createStreamTranslator, protocols } from "../../src/index";
import { adapters } from "../../src/protocols";
import { arbitraries } from "../../src/testing/index";
import { stepOnce } from "../helpers/reducer";
import { messagesTextEvents, textStream } from "../helpers/text-stream";

const options = resolveOptions({ model: "m", idPrefix: "gp", created: 1 });
type Reducer = StreamReducer<unknown, unknown, unknown>;

/** Freezes `value` and everything it holds, so that a reducer that writes to an earlier state throws. */
function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  seen.add(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key], seen);
  return Object.freeze(value);
}

/** The fields of `next` that are not the very same values as `state`'s. */
function changed(state: unknown, next: unknown): string[] {
  const before = state as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  return Object.keys(after).filter((key) => after[key] !== before[key]);
}

/**
 * Steps `reducer` over `inputs` with every state frozen; returns how many steps kept the state object,
 * and for each step that did not, which fields changed.
 */
function runFrozen(
  reducer: Reducer,
  inputs: readonly unknown[],
): { kept: number; parts: unknown[]; changes: string[][] } {
  let state = deepFreeze(reducer.initial);
  let kept = 0;
  const changes: string[][] = [];
  const parts: unknown[] = [];
  for (const input of inputs) {
    let next: ReturnType<typeof stepOnce<unknown, unknown, unknown>>;
    try {
      next = stepOnce(reducer, state, input);
    } catch (error) {
      // A hostile stream may be refused; writing to a frozen state is not such a refusal.
      expect(String(error)).not.toMatch(/read.only|not extensible|Cannot assign|Cannot add property/);
      return { kept, parts, changes };
    }
    if (next.state === state) kept++;
    else changes.push(changed(state, next.state));
    parts.push(...next.out);
    state = deepFreeze(next.state);
  }
  const out: unknown[] = [];
  reducer.end(state, out, []);
  parts.push(...out);
  return { kept, parts, changes };
}

describe("stream reducers never change a state they were given", () => {
  for (const protocol of protocols) {
    test.prop([fc.oneof(arbitraries.streamEvents(protocol), arbitraries.anyStreamEvents(protocol))])(
      `${protocol} decoder, then each encoder on its parts`,
      (events) => {
        const { parts } = runFrozen(adapters[protocol].streamDecoder(options) as Reducer, events);
        for (const to of protocols) runFrozen(adapters[to].streamEncoder(options) as Reducer, parts);
      },
    );
  }
});

describe("a delta continuing its block takes the inline fast path: the same state object, nothing allocated for it", () => {
  test.each(protocols)("%s decoder and encoder over a 50-delta text stream", (protocol) => {
    const events = textStream(protocol, 50);
    const decoded = runFrozen(adapters[protocol].streamDecoder(options) as Reducer, events);
    // The first delta opens the block; every later one continues it.
    expect(decoded.kept).toBeGreaterThanOrEqual(49);
    const parts = decoded.parts as common.StreamPart[];
    const encoded = runFrozen(adapters[protocol].streamEncoder(options) as Reducer, parts);
    if (protocol !== "responses") {
      expect(encoded.kept).toBeGreaterThanOrEqual(49);
      return;
    }
    // A responses event carries the next sequence number, and the `.done` events repeat the whole text:
    // each delta changes the state, but only in those two fields (one small draft).
    const onlyDelta = encoded.changes.filter((fields) => fields.join() === "seq,open");
    expect(onlyDelta.length).toBeGreaterThanOrEqual(49);
  });
});

describe("a reasoning delta of a chat-compatible dialect takes the fast path too", () => {
  const head = { id: "c", object: "chat.completion.chunk", created: 1, model: "m" };
  const chunk = (delta: object) => ({ ...head, choices: [{ index: 0, delta, finish_reason: null }] });
  const pieces = Array.from({ length: 50 }, (_, index) => `thought ${index} `);
  const decoder = adapters.chat.streamDecoder(options) as Reducer;

  test("OpenRouter: `reasoning` with the same text in one reasoning_details entry", () => {
    const entry = (text: string) => ({
      type: "reasoning.text",
      text,
      format: "anthropic-claude-v1",
      index: 0,
    });
    const events = [
      chunk({ role: "assistant", content: "", reasoning: null, reasoning_details: [] }),
      ...pieces.map((text) => chunk({ content: "", reasoning: text, reasoning_details: [entry(text)] })),
    ];
    const decoded = runFrozen(decoder, events);
    expect(decoded.kept).toBeGreaterThanOrEqual(49);
    expect(decoded.parts).toContainEqual({ type: "reasoning-start", index: 0, origin: "messages" });
    expect(
      decoded.parts.filter((part) => (part as common.StreamPart).type === "reasoning-delta"),
    ).toHaveLength(50);
  });

  test("Mistral: one thinking chunk of one text chunk, then text chunks", () => {
    const events = [
      chunk({ role: "assistant", content: "" }),
      ...pieces.map((text) => chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text }] }] })),
      ...pieces.map((text) => chunk({ content: [{ type: "text", text }] })),
    ];
    const decoded = runFrozen(decoder, events);
    expect(decoded.kept).toBeGreaterThanOrEqual(98);
  });

  // Another protocol's reasoning toward a dialect without reasoning_details keeps its text for the
  // carrier of its state (issue 29): those deltas change the state, and take the general path.
  test.each([
    ["openai", "chat"],
    ["vllm", "chat"],
    ["openrouter", "messages"],
  ] as const)("the chat encoder in the %s dialect (reasoning of %s origin)", (chatDialect, origin) => {
    const parts: common.StreamPart[] = [
      { type: "response-start", id: "r" },
      { type: "reasoning-start", index: 0, origin },
      ...pieces.map((text) => ({ type: "reasoning-delta" as const, index: 0, text })),
      { type: "reasoning-end", index: 0 },
    ];
    const encoder = adapters.chat.streamEncoder(resolveOptions({ ...options, chatDialect })) as Reducer;
    expect(runFrozen(encoder, parts).kept).toBeGreaterThanOrEqual(49);
  });
});

test("the messages encoder keeps its state for reasoning and refusal pieces continuing their block", () => {
  const pieces = Array.from({ length: 50 }, (_, index) => `piece ${index} `);
  const parts: common.StreamPart[] = [
    { type: "response-start", id: "r" },
    { type: "reasoning-start", index: 0, origin: "messages" },
    ...pieces.map((text) => ({ type: "reasoning-delta" as const, index: 0, text })),
    { type: "reasoning-end", index: 0 },
    ...pieces.map((text) => ({ type: "refusal-delta" as const, index: 1, text })),
  ];
  const encoded = runFrozen(adapters.messages.streamEncoder(options) as Reducer, parts);
  // The first piece of each block opens it (and the first refusal piece marks the message refused).
  expect(encoded.kept).toBeGreaterThanOrEqual(98);
});

describe("createStreamTranslator in strict mode", () => {
  const chunk = (delta: object, extra: object = {}) => ({
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: null, ...extra }],
  });

  test("the first loss ends the output with the target's error event; what the lossy event carried is not sent", () => {
    const heard: string[] = [];
    const translator = createStreamTranslator("chat", "messages", {
      ...options,
      strict: true,
      onLoss: (loss) => heard.push(loss.path),
    });
    // messages holds its message_start until the first content.
    expect(translator.push(chunk({ role: "assistant", content: "" }) as never)).toEqual([]);
    const stopped = translator.push(chunk({ content: "lost" }, { logprobs: { content: [] } }) as never);
    // Never thrown mid-stream: the client is told in its own protocol, with the TranslationError's message.
    expect(stopped).toEqual([
      {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: expect.stringMatching(/^Translation would lose information: \/1\/choices\/0\/logprobs/),
        },
      },
    ]);
    expect(JSON.stringify(stopped)).not.toContain('"text":"lost"');
    // The loss is listed and heard at the event's position; nothing follows the error event.
    expect(translator.losses.map((loss) => loss.path)).toEqual(["/1/choices/0/logprobs"]);
    expect(heard).toEqual(["/1/choices/0/logprobs"]);
    expect(translator.push(chunk({ content: "kept" }) as never)).toEqual([]);
    expect(translator.end()).toEqual([]);
  });

  test("an encoder's loss ends the output before the lossy part's own events", () => {
    // Citations have no chat form: the block's text went out, the citations' loss stops it.
    const translator = createStreamTranslator("messages", "chat", { ...options, strict: true });
    const events = [
      {
        type: "message_start",
        message: {
          id: "m",
          type: "message",
          role: "assistant",
          model: "c",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hm" } },
      {
        type: "content_block_delta",
        index: 0,
        delta: {
          type: "citations_delta",
          citation: {
            type: "char_location",
            cited_text: "h",
            document_index: 0,
            start_char_index: 0,
            end_char_index: 1,
          },
        },
      },
      { type: "content_block_stop", index: 0 },
    ];
    const out = events.flatMap((event) => translator.push(event as never));
    expect(out.at(-1)).toEqual({
      error: expect.objectContaining({
        type: "invalid_request_error",
        message: expect.stringContaining("(dropped)"),
      }),
    });
    expect(JSON.stringify(out)).toContain('"content":"hm"');
    expect(translator.end()).toEqual([]);
  });
});

describe("the messages stream decoder keeps a usage's fields as given", () => {
  test("unknown fields in their order, then explicit nulls; an own `__proto__` field stays a field", () => {
    // As JSON.parse makes it: `__proto__` is an own field there, not the prototype.
    const usage = JSON.parse(
      '{"input_tokens":3,"cache_read_input_tokens":null,"service_tier":"standard","__proto__":{"x":1},"output_tokens":1,"iterations":[1]}',
    );
    const events = messagesTextEvents(["hi"]);
    (events[0] as { message: { usage: unknown } }).message.usage = usage;
    const response = accumulate("messages", events as never) as { usage: Record<string, unknown> };
    expect(Object.getPrototypeOf(response.usage)).toBe(Object.prototype);
    expect(Object.keys(response.usage)).toEqual([
      "service_tier",
      "__proto__",
      "iterations",
      "cache_read_input_tokens",
      "input_tokens",
      "output_tokens",
    ]);
    expect(JSON.stringify(response.usage)).toBe(
      '{"service_tier":"standard","__proto__":{"x":1},"iterations":[1],"cache_read_input_tokens":null,"input_tokens":3,"output_tokens":9}',
    );
  });
});
