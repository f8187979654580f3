/** The shapes of `checkTranslator`: what it checks (any object with the library's signatures) and what it answers. */
import type { Loss, Protocol, TranslateOptions } from "../../index";

/**
 * A loss as a checked translator reports it: this library's `Loss`, its `code` optional (the laws read
 * the pointer, the kind and the message).
 */
export type ReportedLoss = Omit<Loss, "code"> & { readonly code?: string };

/**
 * Any translator with this library's function signatures; every member is optional and a law whose
 * functions are missing is not run. The library itself fits (`import * as library from "gateway-protocols"`).
 */
export interface Translator {
  translateRequest?(
    from: Protocol,
    to: Protocol,
    body: unknown,
    options?: TranslateOptions,
  ): { value: unknown; losses: readonly ReportedLoss[]; model?: string; stream?: boolean };
  translateResponse?(
    from: Protocol,
    to: Protocol,
    body: unknown,
    options?: TranslateOptions,
  ): { value: unknown; losses: readonly ReportedLoss[] };
  translateError?(
    from: Protocol,
    to: Protocol,
    error: { status: number; body: unknown },
  ): { status: number; body: unknown; losses?: readonly ReportedLoss[] };
  createStreamTranslator?(
    from: Protocol,
    to: Protocol,
    options?: TranslateOptions,
  ): { push(event: never): unknown[]; end(): unknown[]; readonly losses?: readonly ReportedLoss[] };
  translateEventStream?(
    from: Protocol,
    to: Protocol,
    body: ReadableStream<Uint8Array>,
    options?: TranslateOptions,
  ): ReadableStream<Uint8Array>;
  accumulate?(protocol: Protocol, events: Iterable<never>, options?: TranslateOptions): unknown;
  replay?(protocol: Protocol, response: never): unknown[];
}

/** The laws, named for what they check. */
export const lawNames = [
  "valid-output",
  "identity",
  "determinism",
  "round-trip",
  "loss-paths",
  "strict-iff-losses",
  "explicit-zeros",
  "totality",
  "usage",
  "commutation",
  "honest-end",
  "replay",
  "promptness",
  "chunking",
] as const;
/** The name of a translation law, one of `lawNames`. */
export type LawName = (typeof lawNames)[number];

/** What a law is about: requests, responses, error bodies, event streams, byte streams, or `accumulate`. */
export type Subject = "request" | "response" | "error" | "stream" | "bytes" | "accumulate";

/** The outcome of one law for one protocol or pair, as `checkTranslator` reports it. */
export type LawResult = {
  law: LawName;
  subject: Subject;
  from?: Protocol;
  to?: Protocol;
  /** The sentence the law holds when it passes, naming how it was checked (a way back not among the pairs, say). */
  statement: string;
  ok: boolean;
  /** The smallest failing input fast-check found (shrunk). */
  counterexample?: unknown;
  /**
   * Why it failed — the law, then each field of the counterexample that breaks it with its JSON pointer
   * — with the seed and path that replay the run.
   */
  message?: string;
  /** The seed of the run: pass it back as `seed` to replay it. */
  seed?: number;
  /** fast-check's path to the shrunk counterexample (with `seed`, replays it: `fc.assert(…, { seed, path })`). */
  path?: string;
};

/** Options of `checkTranslator` and `translatorLaws`. */
export type CheckOptions = {
  /** Runs per law (fast-check's `numRuns`; default: fast-check's global setting). */
  numRuns?: number;
  /** A fixed seed, to replay a run. */
  seed?: number;
  /** The protocols to check, as `from` and `to` (default: all of `protocols`). */
  protocols?: readonly Protocol[];
  /**
   * Only these (from, to) pairs, for a translator that covers some directions only (overrides
   * `protocols`). No other direction is called: a law that needs the way back takes it through this
   * library's own translator when the reverse pair is not among them, and its statement says so.
   */
  pairs?: readonly (readonly [Protocol, Protocol])[];
  /** The laws to run (default: all whose functions the translator has). */
  laws?: readonly LawName[];
};

/** One law for one protocol or pair, ready to run. */
export interface Law {
  readonly law: LawName;
  readonly subject: Subject;
  readonly from?: Protocol;
  readonly to?: Protocol;
  /** A sentence saying what holds. */
  readonly statement: string;
  check(): Promise<LawResult>;
}
