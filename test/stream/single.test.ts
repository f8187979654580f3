import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import type * as common from "../../src/common/model";
import { resolveOptions } from "../../src/common/options";
import { type Protocol, protocols } from "../../src/index";
import { adapters } from "../../src/protocols";
import type { StreamReducer } from "../../src/stream/reducer";
import { arbitraries } from "../../src/testing/index";

const options = resolveOptions({ model: "m", idPrefix: "gp", created: 1 });
type Reducer = StreamReducer<unknown, unknown, unknown>;

const outcome = (run: () => unknown): { value?: unknown; threw?: true } => {
  try {
    return { value: run() };
  } catch {
    return { threw: true };
  }
};

/**
 * Runs `reducer` over `inputs`; wherever `single` answers, `step` must keep the same state object, emit
 * exactly that item and lose nothing; where `single` throws, `step` must throw too. Returns how often
 * `single` answered.
 */
function checkAgreement(reducer: Reducer, inputs: readonly unknown[]): number {
  let state = reducer.initial;
  let answered = 0;
  for (const input of inputs) {
    const fast = outcome(() => reducer.single?.(state, input));
    const slow = outcome(() => reducer.step(state, input));
    if (fast.threw) {
      expect(slow.threw).toBe(true);
      return answered;
    }
    if (slow.threw) return answered;
    const step = slow.value as { state: unknown; out: readonly unknown[]; losses?: readonly unknown[] };
    if (fast.value !== undefined) {
      answered++;
      expect(step.state).toBe(state);
      expect(step.out).toEqual([fast.value]);
      expect(step.losses ?? []).toEqual([]);
    }
    state = step.state;
  }
  return answered;
}

/** The parts a protocol's decoder makes of a stream (for driving the encoders). */
function partsOf(protocol: Protocol, events: readonly unknown[]): common.StreamPart[] {
  const decoder = adapters[protocol].streamDecoder(options) as Reducer;
  let state = decoder.initial;
  const parts: common.StreamPart[] = [];
  try {
    for (const event of events) {
      const step = decoder.step(state, event);
      state = step.state;
      parts.push(...(step.out as common.StreamPart[]));
    }
    parts.push(...(decoder.end(state).out as common.StreamPart[]));
  } catch {
    // A hostile stream may stop the decoder; the parts so far still drive the encoders.
  }
  return parts;
}

describe("reducers' single fast path agrees with step", () => {
  const totals = new Map<string, number>();
  for (const protocol of protocols) {
    test.prop([fc.oneof(arbitraries.streamEvents(protocol), arbitraries.anyStreamEvents(protocol))])(
      `${protocol} decoder`,
      (events) => {
        const decoder = adapters[protocol].streamDecoder(options) as Reducer;
        const answered = checkAgreement(decoder, events);
        totals.set(`decoder ${protocol}`, (totals.get(`decoder ${protocol}`) ?? 0) + answered);
      },
    );
    for (const from of protocols) {
      if (from === protocol) continue;
      test.prop([arbitraries.streamEvents(from)])(
        `${protocol} encoder, on parts from ${from} streams`,
        (events) => {
          const encoder = adapters[protocol].streamEncoder(options) as Reducer;
          const answered = checkAgreement(encoder, partsOf(from, events));
          totals.set(`encoder ${protocol}`, (totals.get(`encoder ${protocol}`) ?? 0) + answered);
        },
      );
    }
  }

  test("the fast paths were taken (the checks above compared something)", () => {
    for (const name of [
      "decoder chat",
      "decoder messages",
      "encoder chat",
      "encoder messages",
      "encoder generative",
    ]) {
      expect(totals.get(name) ?? 0, name).toBeGreaterThan(0);
    }
  });
});
