/**
 * The fused stream paths against the hub, their specification: on every stream fixture of the pair's
 * source protocol and 10,000 runs of the toolkit's stream arbitraries (well-formed, biased, and any
 * event sequence the schema accepts), under several option sets, the event-level translator gives the
 * same output events (same bytes) for each push, the same losses (those `onLoss` heard too), the same
 * ending — by `end()`, or by `fail()` as a cut or unreadable body — and the same errors as the hub
 * alone; the fused path takes a good share of the events.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Loss } from "../../src/common/loss";
import type { Protocol } from "../../src/common/model";
import type { TranslateOptions } from "../../src/common/options";
import { fusedStreams, type Pair } from "../../src/fused/index";
import { type TranslatorCore, translatorCore } from "../../src/stream/translator";
import { arbitraries } from "../../src/testing/index";
import { fixtures, streamEvents } from "../helpers/fixtures";

const optionSets: readonly TranslateOptions[] = [{}, { validate: false }, { strict: true }, { model: "m" }];

/** Every step's outcome as bytes: each push's events (or its error), the ending, the losses heard and kept. */
function transcript(
  from: Protocol,
  to: Protocol,
  events: readonly unknown[],
  options: TranslateOptions,
  fused: boolean,
  ending: "end" | "cut" | "unreadable",
): string {
  const heard: Loss[] = [];
  const core: TranslatorCore = translatorCore(
    from,
    to,
    { ...options, onLoss: (entry) => heard.push(entry) },
    fused,
  );
  const steps: string[] = [];
  const run = (step: () => unknown): void => {
    try {
      steps.push(JSON.stringify(step()));
    } catch (error) {
      const e = error as Error & { status?: unknown };
      steps.push(`THROW ${e.name}: ${e.message} ${String(e.status)}`);
    }
  };
  for (const event of events) run(() => core.push(event));
  if (ending === "end") run(() => core.end());
  else if (ending === "cut") run(() => core.fail("the body was cut"));
  else run(() => core.fail("bad JSON", events.length, true));
  steps.push(JSON.stringify(core.losses), JSON.stringify(heard), String(core.ended()));
  return steps.join("\n");
}

let taken = 0;
let total = 0;

/** Counts the events the fused path itself took (a fresh fused path over the hub's run). */
function countTaken(pair: Pair, from: Protocol, to: Protocol, events: readonly unknown[]): void {
  const fused = fusedStreams[pair]?.();
  if (fused === undefined) return;
  const hub = translatorCore(from, to, { validate: false }, false);
  for (const event of events) {
    total++;
    let result: unknown[];
    try {
      result = hub.push(event);
    } catch {
      return;
    }
    const hit = fused.next(event);
    if (hit !== undefined) {
      taken++;
      expect(JSON.stringify([hit])).toBe(JSON.stringify(result));
    }
    fused.saw(event, result);
  }
}

function agrees(from: Protocol, to: Protocol, events: readonly unknown[]): void {
  countTaken(`${from}>${to}`, from, to, events);
  for (const options of optionSets)
    for (const ending of ["end", "cut", "unreadable"] as const)
      expect(transcript(from, to, events, options, true, ending)).toBe(
        transcript(from, to, events, options, false, ending),
      );
}

const numRuns = 10_000;
const pairs = Object.keys(fusedStreams) as Pair[];

describe.each(pairs)("the fused stream path %s agrees with the hub", (pair) => {
  const [from, to] = pair.split(">") as [Protocol, Protocol];

  test("on every stream fixture, and takes a share of their deltas", () => {
    const before = taken;
    const entries = fixtures("stream", from).filter((entry) => entry.path.endsWith(".sse"));
    expect(entries.length).toBeGreaterThan(5);
    for (const entry of entries) agrees(from, to, streamEvents(entry));
    expect(taken - before).toBeGreaterThan(20);
  });

  test("on the toolkit's streams: well-formed, biased, and any sequence the schema accepts", () => {
    const before = taken;
    const totalBefore = total;
    fc.assert(
      fc.property(
        fc.oneof(
          arbitraries.streamEvents(from),
          arbitraries.streamEvents(from, true),
          arbitraries.anyStreamEvents(from),
        ),
        (events) => agrees(from, to, events),
      ),
      { numRuns },
    );
    expect(taken - before).toBeGreaterThan((total - totalBefore) / 50);
  });

  test("a cut in the middle of a run of text deltas ends as the hub ends it", () => {
    const events = [
      {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "x",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "a" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "b" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "c" } },
    ];
    const before = taken;
    agrees(from, to, events);
    // "a" goes through the hub (the role chunk went out at message_start), and "b", "c" are taken here.
    if (pair === "messages>chat") expect(taken - before).toBe(2);
  });
});
