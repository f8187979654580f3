import { strictLosses } from "../common/errors";
import type { Loss } from "../common/loss";
import type * as common from "../common/model";
import { type ResolvedOptions, resolveOptions, type TranslateOptions } from "../common/options";
import type { Step, StreamReducer } from "../common/reducer";
import type { EventOf } from "../protocols";
import { adapters } from "../protocols";
import { validator } from "../validate";

export type StreamTranslator<From extends common.Protocol, To extends common.Protocol> = {
  /** Translates one input event; returns every output event it determines, at once. */
  push(event: EventOf<From>): EventOf<To>[];
  /** Flushes: closes open blocks and emits the target's terminal events. */
  end(): EventOf<To>[];
  /** Every loss so far (grows as events arrive). */
  readonly losses: Loss[];
};

type AnyReducer<In, Out> = StreamReducer<unknown, In, Out>;

/**
 * The one place with mutable cells: a decoder state, an encoder state and the losses. Each input event
 * runs the `from` decoder, feeds its parts to the `to` encoder, and returns the encoder's output.
 */
export function createStreamTranslator<From extends common.Protocol, To extends common.Protocol>(
  from: From,
  to: To,
  options?: TranslateOptions,
): StreamTranslator<From, To> {
  const resolved = resolveOptions(options);
  const source = adapters[from];
  const losses: Loss[] = [];
  const check = validator(source, "event", from, resolved);
  if (from === (to as common.Protocol)) {
    return {
      push: (event) => [check(event) as EventOf<To>],
      end: () => [],
      losses,
    };
  }
  const decoder: AnyReducer<unknown, common.StreamPart> = source.streamDecoder(resolved);
  const encoder: AnyReducer<common.StreamPart, unknown> = adapters[to].streamEncoder(resolved);
  let decoderState = decoder.initial;
  let encoderState = encoder.initial;

  const record = (step: Step<unknown, unknown>): void => {
    if (step.losses !== undefined && step.losses.length > 0) {
      if (resolved.strict) throw strictLosses(step.losses);
      for (const entry of step.losses) losses.push(entry);
    }
  };
  const single = (part: common.StreamPart): EventOf<To>[] => {
    const step = encoder.step(encoderState, part);
    encoderState = step.state;
    record(step);
    // A reducer's `out` is a fresh array it never touches again (reducer.ts): it is handed on as is.
    return step.out as EventOf<To>[];
  };
  const encode = (parts: readonly common.StreamPart[], out: unknown[]): void => {
    for (const part of parts) {
      const step = encoder.step(encoderState, part);
      encoderState = step.state;
      record(step);
      for (const event of step.out) out.push(event);
    }
  };

  return {
    push(event) {
      const input = check(event);
      // The common case, a delta continuing the open block on both sides: no step objects, no state change.
      const part = decoder.single?.(decoderState, input);
      if (part !== undefined) {
        const one = encoder.single?.(encoderState, part);
        return one === undefined ? single(part) : [one as EventOf<To>];
      }
      const step = decoder.step(decoderState, input);
      decoderState = step.state;
      record(step);
      if (step.out.length === 1) return single(step.out[0] as common.StreamPart);
      const out: unknown[] = [];
      encode(step.out, out);
      return out as EventOf<To>[];
    },
    end() {
      const step = decoder.end(decoderState);
      decoderState = step.state;
      record(step);
      const out: unknown[] = [];
      encode(step.out, out);
      const last = encoder.end(encoderState);
      encoderState = last.state;
      record(last);
      for (const event of last.out) out.push(event);
      return out as EventOf<To>[];
    },
    losses,
  };
}

/** Runs a protocol's stream decoder over whole events (accumulate's half). */
export function decodeEvents(
  protocol: common.Protocol,
  events: Iterable<unknown>,
  options: ResolvedOptions,
  sink: (part: common.StreamPart) => void,
): void {
  const source = adapters[protocol];
  const decoder: AnyReducer<unknown, common.StreamPart> = source.streamDecoder(options);
  const check = validator(source, "event", protocol, options);
  let state = decoder.initial;
  for (const event of events) {
    const step = decoder.step(state, check(event));
    state = step.state;
    for (const part of step.out) sink(part);
  }
  for (const part of decoder.end(state).out) sink(part);
}

/** Runs a protocol's stream encoder over parts (replay's half). */
export function encodeParts(
  protocol: common.Protocol,
  parts: readonly common.StreamPart[],
  options: ResolvedOptions,
): unknown[] {
  const encoder: AnyReducer<common.StreamPart, unknown> = adapters[protocol].streamEncoder(options);
  let state = encoder.initial;
  const out: unknown[] = [];
  for (const part of parts) {
    const step = encoder.step(state, part);
    state = step.state;
    for (const event of step.out) out.push(event);
  }
  for (const event of encoder.end(state).out) out.push(event);
  return out;
}
