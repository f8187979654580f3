import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import type * as common from "../../src/common/model";
import { resolveOptions } from "../../src/common/options";
import type { StreamReducer } from "../../src/common/reducer";
import { createStreamTranslator, type Protocol, protocols } from "../../src/index";
import { adapters } from "../../src/protocols";
import { anyStreamArbs, streamArbs } from "../arbitraries/streams";
import { stepOnce } from "../helpers/reducer";

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
    test.prop([fc.oneof(streamArbs[protocol], anyStreamArbs[protocol])])(
      `${protocol} decoder, then each encoder on its parts`,
      (events) => {
        const { parts } = runFrozen(adapters[protocol].streamDecoder(options) as Reducer, events);
        for (const to of protocols) runFrozen(adapters[to].streamEncoder(options) as Reducer, parts);
      },
    );
  }
});

/** A whole text response of `count` pieces, replayed as the protocol's own stream. */
function textStream(protocol: Protocol, count: number): unknown[] {
  const pieces = Array.from({ length: count }, (_, index) => `piece ${index} `);
  const translator = createStreamTranslator("messages", protocol, options);
  const events = [
    {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "m",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ...pieces.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: 9 },
    },
    { type: "message_stop" },
  ];
  if (protocol === "messages") return events;
  return [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
}

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

describe("createStreamTranslator in strict mode", () => {
  const chunk = (delta: object, extra: object = {}) => ({
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: null, ...extra }],
  });

  test("an event that loses something throws, and what it carried is not sent with the next event", () => {
    const translator = createStreamTranslator("chat", "messages", { ...options, strict: true });
    translator.push(chunk({ role: "assistant", content: "" }) as never);
    expect(() => translator.push(chunk({ content: "lost" }, { logprobs: { content: [] } }) as never)).toThrow(
      /logprobs/,
    );
    const next = translator.push(chunk({ content: "kept" }) as never);
    expect(JSON.stringify(next)).toContain("kept");
    expect(JSON.stringify(next)).not.toContain("lost");
  });
});
