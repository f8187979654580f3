/**
 * What one protocol brings to the testing toolkit: its arbitraries and the little it must say about
 * its own streams and usage for the laws to read them. A protocol is one file of these and one line
 * in the table (`./index.ts`).
 */
import type fc from "fast-check";
import type { Hard, HardCase } from "./common";

/**
 * Token totals as a protocol counts them: prompt (cached included) and output (reasoning included), with
 * the pointers of the fields each is read from (`/usage/input_tokens`, …) for the usage law's messages.
 */
export type UsageTotals = {
  readonly input: number;
  readonly output: number;
  readonly total?: number;
  /** How its details exceed their wholes (cached tokens above the prompt's), when they do: the usage contradicts itself. */
  readonly contradiction?: string;
  /** The pointers each figure is read from: `input` and `output` summed over theirs, `total` as given. */
  readonly fields?: {
    readonly input: readonly string[];
    readonly output: readonly string[];
    readonly total?: string;
  };
};

/** A request whose explicit `0`, `false` or `""` settings (JSON pointers in `given`) mean something. */
export type GivenValues = { readonly body: unknown; readonly given: readonly string[] };

/**
 * Something a generated value can hold (parallel tool calls, an image ...): the arbitraries reach it
 * now and then, and mostly when `bias` names its hard case. `plain: false` when only a bias reaches it.
 */
export type ReachFact = {
  readonly name: string;
  readonly bias?: HardCase;
  readonly plain?: false;
  holds(value: unknown): boolean;
};

/**
 * The generators of one protocol's wire shapes (`protocolArbitraries[protocol]`); `arbitraries`
 * offers the same by protocol id. Each `hard` argument leans the values toward the hard cases.
 */
export interface ProtocolArbitraries {
  /** Requests as clients send them: everyday traffic and odd wire shapes, leaning toward `hard`. */
  request(hard: Hard): fc.Arbitrary<unknown>;
  /** Whole responses as providers send them. */
  response(hard: Hard): fc.Arbitrary<unknown>;
  /** Responses a stream can carry (one finished choice): `replay` of them is a well-formed stream. */
  replayableResponse(hard: Hard): fc.Arbitrary<unknown>;
  /**
   * Hand-written event streams in the protocol's grammar, with deltas split at odd places, ending
   * normally or cut off (never with an error event).
   */
  stream(hard: Hard): fc.Arbitrary<unknown[]>;
  /** Any event sequence the event schema accepts: odd chunks and orders, error events. */
  rawStream(): fc.Arbitrary<unknown[]>;
  errorBody(): fc.Arbitrary<unknown>;
  /** Requests holding explicit `0`/`false`/`""` settings that differ from leaving them out. */
  givenValues(): fc.Arbitrary<GivenValues>;
  /** The stream reached the protocol's finish (a cut-off stream has no whole response to agree with). */
  finished(events: readonly unknown[]): boolean;
  /** The answer text (not thoughts) one event carries, piece by piece. */
  texts(event: unknown): string[];
  /** Token totals of a response, when it reports usage (`contradiction` says when its details exceed their wholes). */
  usage?(response: unknown): UsageTotals | undefined;
  /** What the arbitraries of each kind reach (`stream`: the well-formed streams). */
  readonly reach: {
    readonly request: readonly ReachFact[];
    readonly response: readonly ReachFact[];
    readonly stream: readonly ReachFact[];
    readonly errorBody: readonly ReachFact[];
  };
  /** Violations of the protocol's event grammar in a whole emitted sequence ([] when well-formed). */
  grammar?(events: readonly unknown[]): string[];
  /**
   * Whether a response accumulated from a translated stream can equal the translated whole response
   * (messages puts thinking first in a whole response, a stream cannot move it back).
   */
  streamable?(response: unknown): boolean;
}
