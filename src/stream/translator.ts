import { strictLosses, type TranslationError } from "../common/errors";
import { type Loss, loss } from "../common/loss";
import type * as common from "../common/model";
import { type ResolvedOptions, resolveOptions, type TranslateOptions } from "../common/options";
import { checkProtocol } from "../common/protocol-id";
import type { StreamReducer } from "../common/reducer";
import { eventPointer } from "../common/stream-end";
import { clientTools, loweringEncoder, restoringDecoder, toolForms } from "../common/tool-forms";
import { normalizeUsage } from "../common/usage";
import type { EventOf } from "../protocols";
import { adapters, protocols } from "../protocols";
import { validator } from "../validate";

/**
 * An event-level stream translator, made by `createStreamTranslator`: push each parsed input event,
 * send what comes back, and call `end()` when the input ends.
 */
export type StreamTranslator<From extends common.Protocol, To extends common.Protocol> = {
  /** Translates one input event; returns every output event it determines, at once. */
  push(event: EventOf<From>): EventOf<To>[];
  /**
   * Flushes: closes open blocks and emits the target's terminal events — or, when the input stopped
   * before its protocol's finish, the target's error event.
   */
  end(): EventOf<To>[];
  /** Every loss so far (grows as events arrive); `options.onLoss` hears each one as it is added. */
  readonly losses: Loss[];
};

/**
 * The translator with what the byte level needs besides: `fail` ends the output because the body
 * failed or an event could not be read, and `ended` says the output has ended (by `end`, `fail`, or
 * the first loss in strict mode), so no more input is wanted.
 */
export type TranslatorCore = {
  /**
   * `valid`: the caller vouches that `event` passes validation, which is then not run: the byte level's
   * event reused from a template that passed it, only its delta strings and counters changed, values
   * every event schema accepts there (test/stream/repeat-valid.test.ts).
   */
  push(event: unknown, valid?: boolean): unknown[];
  end(): unknown[];
  /**
   * Ends the stream through the decoder's cut-off path, its message saying `failure`. `at`: the event
   * that could not be read (default: the end of the stream); `unreadable`: that event itself is a
   * dropped loss (also when the stream had its finish already, and so ends normally).
   */
  fail(failure: string, at?: number, unreadable?: boolean): unknown[];
  readonly losses: Loss[];
  /** The output has ended (a method, not a getter: an object literal with an accessor is slow to make). */
  ended(): boolean;
};

type AnyReducer<In, Out> = StreamReducer<unknown, In, Out>;

/**
 * Translates a stream event by event: each input event runs the `from` decoder, its parts run the `to`
 * encoder, and the encoder's events come back at once.
 *
 * Endings: `end()` after an input cut before its protocol's finish gives
 * the target's error event, never a normal stop. With `strict`, the first loss ends the output the
 * same way, with the TranslationError's message: what the lossy event determined is not sent, the
 * target's error event is, and every later `push`/`end` returns nothing. (The event level does not
 * throw for a loss, as the byte level cannot: a stream under way has sent its status, so the target's
 * own error event is what a client can still be told.) An event that fails validation is the caller's
 * input error and throws a TranslationError 400, as every translate function does.
 *
 * Same-protocol translation passes each (validated) event through unchanged; the protocol's decoder
 * watches them, so that a stream cut before its finish ends with the protocol's own error event too.
 *
 * Loss pointers are into the input as a list of events: `/12/choices/0/logprobs` is a field of the
 * 13th event pushed; the end of the stream is `/<count>`.
 */
export function createStreamTranslator<From extends common.Protocol, To extends common.Protocol>(
  from: From,
  to: To,
  options?: TranslateOptions,
): StreamTranslator<From, To> {
  checkProtocol(from, protocols, "from");
  checkProtocol(to, protocols, "to");
  const core = translatorCore(from, to, options);
  return {
    push: (event) => core.push(event) as EventOf<To>[],
    end: () => core.end() as EventOf<To>[],
    losses: core.losses,
  };
}

/** The translator itself, with the byte level's `fail`; protocol ids checked by the caller. */
export function translatorCore(
  from: common.Protocol,
  to: common.Protocol,
  options: TranslateOptions | undefined,
): TranslatorCore {
  const resolved = resolveOptions(options);
  const source = adapters[from];
  const check = validator(source, "event", from, resolved);
  const identity = from === to;
  const onLoss = resolved.onLoss;
  const target = adapters[to];
  const decoded: AnyReducer<unknown, common.StreamPart> = source.streamDecoder(resolved);
  const encoded: AnyReducer<common.StreamPart, unknown> = target.streamEncoder(resolved);
  // Calls of the client's tools come back in its form; forms the target lacks are lowered (tool-forms.ts).
  const tools = identity ? undefined : clientTools(target, resolved);
  const decoder: AnyReducer<unknown, common.StreamPart> =
    tools === undefined
      ? decoded
      : (restoringDecoder(decoded, tools) as AnyReducer<unknown, common.StreamPart>);
  const forms = toolForms(target, resolved);
  const encoder: AnyReducer<common.StreamPart, unknown> =
    identity || (forms.freeform && forms.namespace && forms.search)
      ? encoded
      : (loweringEncoder(encoded, forms) as AnyReducer<common.StreamPart, unknown>);
  let decoderState = decoder.initial;
  let encoderState = encoder.initial;
  const losses: Loss[] = [];
  /** Events pushed so far: the position of the next one. */
  let position = 0;
  let ended = false;
  // Reused between events rather than made or emptied per event (setting an array's length is a V8
  // runtime call; either cost as much as translating a text delta): the decoder's parts, of which
  // `parts[consumed…]` are not encoded yet, and the losses of one step.
  const parts: common.StreamPart[] = [];
  let consumed = 0;
  const found: Loss[] = [];
  // The encoder's events of one `push` go to a reused list too, and `push` returns them in an array
  // made at their exact size: an empty array that grows by `push` allocates a backing store of 17
  // slots for its first element, which cost as much as the rest of a text delta's translation.
  const emitted: unknown[] = [];
  // The last usage the input carried (cumulative figures), told to `onUsage` once when the output ends.
  const onUsage = resolved.onUsage;
  let usage: common.Usage | undefined;
  let billed = false;
  /** Notes the usage of the decoder's parts from `from` on. */
  const noteUsage = (from: number): void => {
    if (onUsage === undefined) return;
    for (let index = from; index < parts.length; index++) {
      const part = parts[index] as common.StreamPart;
      if (part.type === "usage" || (part.type === "response-start" && part.usage !== undefined))
        usage = part.usage;
    }
  };
  const bill = (): void => {
    if (billed) return;
    billed = true;
    if (onUsage !== undefined && usage !== undefined) onUsage(normalizeUsage(usage));
  };

  /** Moves the step's losses to `losses` (telling `onLoss`); in strict mode, the error they make. */
  const report = (): TranslationError | undefined => {
    const fresh = found.slice();
    found.length = 0;
    for (const entry of fresh) {
      losses.push(entry);
      onLoss?.(entry);
    }
    return resolved.strict ? strictLosses(fresh) : undefined;
  };

  /** Ends the output with the target's error event for `error` (encoded from `state`). */
  const stop = (error: common.ErrorInfo, out: unknown[], at: number): void => {
    ended = true;
    bill();
    consumed = parts.length;
    const continued = identity ? source.passThroughError?.(error, decoderState, at) : undefined;
    if (continued !== undefined) {
      // Same protocol, numbered events: the protocol continues what passed through.
      for (const event of continued) out.push(event);
      return;
    }
    const rendered: unknown[] = [];
    encoder.step(encoderState, { type: "error", error }, rendered, [], at);
    // Same protocol: the input went out as it was, so only the error event itself (an encoder's last
    // event for an error part) is added — all of it when the protocol numbers its events and nothing
    // passed through.
    if (identity && source.passThroughError === undefined) rendered.splice(0, rendered.length - 1);
    for (const event of rendered) out.push(event);
  };
  const strictStop = (error: TranslationError, out: unknown[], at: number): void =>
    stop({ status: error.status, kind: "invalid_request", message: error.message }, out, at);

  /** Encodes the parts not encoded yet; false when strict mode stopped the stream. */
  const encode = (out: unknown[], at: number): boolean => {
    while (consumed < parts.length) {
      const part = parts[consumed++] as common.StreamPart;
      const before = out.length;
      const next = encoder.step(encoderState, part, out, found, at);
      if (found.length > 0) {
        const error = report();
        if (error !== undefined) {
          // What the lossy part made is not sent; the state before it renders the error.
          out.length = before;
          strictStop(error, out, at);
          return false;
        }
      }
      encoderState = next;
    }
    // Emptied now and then, so that it holds at most a few hundred parts already encoded.
    if (consumed > 256) {
      parts.length = 0;
      consumed = 0;
    }
    return true;
  };

  /** The same protocol: the decoder only watches; its parts and losses are the translation's business. */
  const watch = (input: unknown, at: number): void => {
    const before = parts.length;
    decoderState = decoder.step(decoderState, input, parts, found, at);
    noteUsage(before);
    consumed = parts.length;
    found.length = 0;
    if (consumed > 256) {
      parts.length = 0;
      consumed = 0;
    }
  };

  const finish = (failure: string | undefined, at: number, unreadable = false): unknown[] => {
    const out = close(failure, at, unreadable);
    bill();
    return out;
  };

  const close = (failure: string | undefined, at: number, unreadable: boolean): unknown[] => {
    ended = true;
    const out: unknown[] = [];
    if (unreadable)
      found.push(
        loss(
          eventPointer(at),
          "dropped",
          `The event could not be read and was dropped (${failure}).`,
          "event.unreadable",
        ),
      );
    const decoded = parts.length;
    decoderState = decoder.end(decoderState, parts, found, at, failure);
    noteUsage(decoded);
    if (identity) {
      // Only the cut-off (an error part with its loss) concerns a same-protocol stream.
      let error: common.ErrorInfo | undefined;
      for (let index = consumed; index < parts.length; index++) {
        const part = parts[index] as common.StreamPart;
        if (part.type === "error") error = part.error;
      }
      consumed = parts.length;
      const strict = found.length > 0 ? report() : undefined;
      if (strict !== undefined) strictStop(strict, out, at);
      else if (error !== undefined) stop(error, out, at);
      return out;
    }
    if (found.length > 0) {
      const error = report();
      if (error !== undefined) {
        strictStop(error, out, at);
        return out;
      }
    }
    if (!encode(out, at)) return out;
    const before = out.length;
    const next = encoder.end(encoderState, out, found, at);
    if (found.length > 0) {
      const error = report();
      if (error !== undefined) {
        out.length = before;
        strictStop(error, out, at);
        return out;
      }
    }
    encoderState = next;
    return out;
  };

  return {
    push(event, valid) {
      if (ended) return [];
      const at = position++;
      const input = valid === true ? event : check(event);
      if (identity) {
        watch(input, at);
        return [input];
      }
      const before = parts.length;
      decoderState = decoder.step(decoderState, input, parts, found, at);
      noteUsage(before);
      const out = emitted;
      const start = out.length;
      if (found.length > 0) {
        const error = report();
        if (error !== undefined) {
          // What the lossy event determined is not encoded.
          strictStop(error, out, at);
          return taken(out, start);
        }
      }
      encode(out, at);
      return taken(out, start);
    },
    end() {
      return ended ? [] : finish(undefined, position);
    },
    fail(failure, at, unreadable) {
      return ended ? [] : finish(failure, at ?? position, unreadable);
    },
    losses,
    ended: () => ended,
  };
}

/**
 * The events `list` gained from `start` on, in an array of their own at its exact size; `list` is
 * emptied now and then, so that it holds at most a few hundred events already returned.
 */
function taken(list: unknown[], start: number): unknown[] {
  const end = list.length;
  const result = end === start ? [] : end === start + 1 ? [list[start]] : list.slice(start, end);
  if (end > 256) list.length = 0;
  return result;
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
  let position = 0;
  for (const event of events) {
    state = decoder.step(state, check(event), parts, ignored, position++);
    drain();
  }
  decoder.end(state, parts, ignored, position);
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
