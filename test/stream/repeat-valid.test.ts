/**
 * translateEventStream does not validate an event the repeat parser made from the last event's
 * template (src/stream/web.ts): that event passed validation, and the reused one differs from it only
 * in its delta strings and counters. The claim this rests on: every event schema accepts any string at
 * each of its protocol's delta paths, and any non-negative safe integer where the template held a
 * number. Here it is checked on every event of every stream fixture and of the toolkit's streams, with
 * those values replaced by hostile strings and large counters — and end to end, where an event whose
 * values break the schema elsewhere is still refused.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { type Protocol, protocols, translateEventStream } from "../../src/index";
import { adapters } from "../../src/protocols";
import type { DeltaPath } from "../../src/protocols/adapter";
import { createRepeatParser } from "../../src/stream/repeat";
import { arbitraries } from "../../src/testing/index";
import { fixtures, streamEvents } from "../helpers/fixtures";

type Node = Record<string | number, unknown>;

/** The value at `path`, or undefined when a step is missing. */
function valueAt(node: unknown, path: DeltaPath): unknown {
  let current = node;
  for (const key of path) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Node)[key];
  }
  return current;
}

/** A deep copy of `event` with the value at each path set (strings where it held a string, else counters). */
function withValues(event: unknown, paths: readonly DeltaPath[], text: string, counter: number): unknown {
  const copy = JSON.parse(JSON.stringify(event)) as unknown;
  for (const path of paths) {
    const value = valueAt(copy, path);
    let parent = copy as Node;
    for (const key of path.slice(0, -1)) parent = parent[key] as Node;
    parent[path[path.length - 1] as string | number] = typeof value === "number" ? counter : text;
  }
  return copy;
}

/** The delta paths of `protocol` that hold a non-empty string or a non-negative safe integer in `event`. */
function holesIn(protocol: Protocol, event: unknown): DeltaPath[] {
  return adapters[protocol].deltaStrings.filter((path) => {
    const value = valueAt(event, path);
    return typeof value === "number" ? Number.isSafeInteger(value) && value >= 0 : typeof value === "string";
  });
}

/** Strings that stress a schema and the literal alike: empty, escapes, controls, surrogates, JSON look-alikes. */
const hostileText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', "\\", "\n", "\u0000", "\u2028", "\ud800", "é", "😀", '","x":"', "}", "null"),
    fc.string({ unit: "binary", maxLength: 3 }),
  ),
  maxLength: 12,
});
/** Counters up to the parser's 15 digits (a longer one is parsed, not reused). */
const counter = fc.oneof(
  fc.constantFrom(0, 999_999_999_999_999),
  fc.integer({ min: 0, max: 999_999_999_999_999 }),
);

/**
 * Feeds `event` then the same event with new values to a fresh parser; when the second was reused,
 * the schema must accept it. Returns whether it was reused.
 */
function reusedIsValid(protocol: Protocol, event: unknown, text: string, count: number): boolean {
  const schema = adapters[protocol].schemas.event;
  if (typeof event !== "object" || event === null || !schema.safeParse(event).success) return false;
  const paths = holesIn(protocol, event);
  if (paths.length === 0) return false;
  const parser = createRepeatParser(adapters[protocol].deltaStrings, (data) => JSON.parse(data));
  parser(JSON.stringify(event));
  const next = parser(JSON.stringify(withValues(event, paths, text, count)));
  if (!parser.reused()) return false;
  const verdict = schema.safeParse(next);
  if (!verdict.success)
    throw new Error(`${protocol}: ${JSON.stringify(next)} rejected: ${verdict.error.issues[0]?.message}`);
  return true;
}

describe("an event reused from a validated template passes validation (its check is skipped)", () => {
  for (const protocol of protocols) {
    const recorded = fixtures("stream", protocol)
      .filter((entry) => entry.path.endsWith(".sse"))
      .flatMap(streamEvents);

    test.prop([hostileText, counter], { numRuns: 30 })(
      `${protocol}: every stream fixture event, its delta values replaced`,
      (text, count) => {
        let reused = 0;
        for (const event of recorded) if (reusedIsValid(protocol, event, text, count)) reused++;
        // The fixtures have deltas of every kind the parser learns: most of them are reused.
        expect(reused).toBeGreaterThan(20);
      },
    );

    test.prop([
      fc.oneof(arbitraries.streamEvents(protocol, true), arbitraries.anyStreamEvents(protocol)),
      hostileText,
      counter,
    ])(`${protocol}: the toolkit's stream events, their delta values replaced`, (events, text, count) => {
      for (const event of events) reusedIsValid(protocol, event, text, count);
    });
  }

  test("an event that breaks the schema outside its delta values is still refused, after reused ones", async () => {
    const delta = (text: string, index: unknown) =>
      `data: ${JSON.stringify({ type: "content_block_delta", index, delta: { type: "text_delta", text } })}\n\n`;
    const body = [
      `data: ${JSON.stringify({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } })}\n\n`,
      `data: ${JSON.stringify({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } })}\n\n`,
      delta("a", 0),
      delta("b", 0),
      delta("c", 0),
      // The same text around the value, but `index` is a string: not the template's text, so parsed and checked.
      delta("d", "0"),
      delta("e", 0),
    ].join("");
    const output = await new Response(
      translateEventStream("messages", "chat", new Response(body).body as ReadableStream<Uint8Array>),
    ).text();
    expect(output).toContain('"content":"c"');
    expect(output).not.toContain('"content":"d"');
    expect(output).not.toContain('"content":"e"');
    expect(output).toMatch(/event 5 could not be read: Invalid messages event/);
  });
});
