import { strictLosses } from "../common/errors";
import type { Loss } from "../common/loss";
import type * as common from "../common/model";
import { type ResolvedOptions, resolveOptions, type TranslateOptions } from "../common/options";
import type { StreamReducer } from "../common/reducer";
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
  // Reused between events rather than made or emptied per event (setting an array's length is a V8
  // runtime call; either cost as much as translating a text delta): the decoder's parts, of which
  // `parts[consumed…]` are not encoded yet, and the losses of one step.
  const parts: common.StreamPart[] = [];
  let consumed = 0;
  const found: Loss[] = [];

  // After every step, so that strict mode stops at the step that lost something.
  const record = (): void => {
    if (found.length === 0) return;
    if (resolved.strict) {
      const lost = found.slice();
      found.length = 0;
      // What the failed event determined is not encoded later.
      consumed = parts.length;
      throw strictLosses(lost);
    }
    for (const entry of found) losses.push(entry);
    found.length = 0;
  };
  const encode = (out: unknown[]): void => {
    while (consumed < parts.length) {
      encoderState = encoder.step(encoderState, parts[consumed++] as common.StreamPart, out, found);
      record();
    }
    // Emptied now and then, so that it holds at most a few hundred parts already encoded.
    if (consumed > 256) {
      parts.length = 0;
      consumed = 0;
    }
  };

  return {
    push(event) {
      const input = check(event);
      decoderState = decoder.step(decoderState, input, parts, found);
      record();
      const out: unknown[] = [];
      encode(out);
      return out as EventOf<To>[];
    },
    end() {
      decoderState = decoder.end(decoderState, parts, found);
      record();
      const out: unknown[] = [];
      encode(out);
      encoderState = encoder.end(encoderState, out, found);
      record();
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
  const parts: common.StreamPart[] = [];
  const ignored: Loss[] = [];
  const drain = (): void => {
    for (const part of parts) sink(part);
    parts.length = 0;
  };
  let state = decoder.initial;
  for (const event of events) {
    state = decoder.step(state, check(event), parts, ignored);
    drain();
  }
  decoder.end(state, parts, ignored);
  drain();
}

/** Runs a protocol's stream encoder over parts (replay's half). */
export function encodeParts(
  protocol: common.Protocol,
  parts: readonly common.StreamPart[],
  options: ResolvedOptions,
): unknown[] {
  const encoder: AnyReducer<common.StreamPart, unknown> = adapters[protocol].streamEncoder(options);
  const out: unknown[] = [];
  const ignored: Loss[] = [];
  let state = encoder.initial;
  for (const part of parts) state = encoder.step(state, part, out, ignored);
  encoder.end(state, out, ignored);
  return out;
}
