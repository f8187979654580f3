/**
 * What the laws share: the options every translation gets, what counts as a clean refusal, a deep
 * comparison that names the first difference, a shifted clock, and running a property into a result.
 */
import fc from "fast-check";
import type { Loss, Protocol } from "../../index";
import { type Hard, resolveBias } from "../arbitraries/common";
import { parentOf, resolves, tokensOf } from "../pointer";
import type { Law, LawName, LawResult, Subject, Translator } from "./types";

const plainBias = resolveBias(false);
const hardBias = resolveBias(["tools", "images", "thinking", "unicode", "empty", "zeros"]);

/**
 * The inputs of a law: the plain mix and, as often, the hard cases (huge text aside: it only slows the
 * byte laws, and the guard properties cover it).
 */
export function lawInputs<T>(make: (hard: Hard) => fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof(make(plainBias), make(hardBias));
}

/** The options every translation gets: a model for protocols that carry it in the URL, fixed id prefix and time. */
export const translateOptions = { model: "m", idPrefix: "gp", created: 1_700_000_000 } as const;

type ErrorLike = Error & { status: number; issues?: readonly unknown[]; losses?: readonly Loss[] };

/** A TranslationError or anything shaped like one: an Error (not a TypeError and kin) with an HTTP error status. */
export function isTranslationErrorLike(error: unknown): error is ErrorLike {
  return (
    error instanceof Error &&
    !(error instanceof TypeError) &&
    !(error instanceof RangeError) &&
    !(error instanceof ReferenceError) &&
    typeof (error as { status?: unknown }).status === "number" &&
    (error as ErrorLike).status >= 400 &&
    (error as ErrorLike).status < 600
  );
}

/**
 * A 400 naming an orphan tool call or result (issues of code `tool_pairing`) is a right answer to an
 * unpaired history; the laws skip such a run (fast-check fails when too many are skipped).
 */
export function isToolPairing(error: unknown): boolean {
  return (
    isTranslationErrorLike(error) &&
    error.status === 400 &&
    Array.isArray(error.issues) &&
    error.issues.length > 0 &&
    error.issues.every((issue) => (issue as { code?: unknown } | null)?.code === "tool_pairing")
  );
}

/** A short description of a thrown value. */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.split("\n")[0]}`;
  return `a non-Error ${typeof error} (${String(error)})`;
}

/** Throws an Error with `message` unless `condition` holds. */
export function check(condition: boolean, message: () => string): asserts condition {
  if (!condition) throw new Error(message());
}

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/**
 * The pointer of the first place `actual` and `expected` differ, with both values, or undefined when
 * they are equal (keys in any order; a key whose value is `undefined` counts as absent, as in JSON).
 */
export function firstDifference(actual: unknown, expected: unknown, at = ""): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length)
      return `${at || "/"}: ${actual.length} items instead of ${expected.length}: ${shown(actual)} vs ${shown(expected)}`;
    for (let index = 0; index < actual.length; index++) {
      const found = firstDifference(actual[index], expected[index], `${at}/${index}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isPlain(actual) && isPlain(expected)) {
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
    for (const key of [...keys].sort()) {
      const found = firstDifference(
        actual[key],
        expected[key],
        `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`,
      );
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return `${at || "/"}: ${shown(actual)} instead of ${shown(expected)}`;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every loss points into the input: its path resolves, or for a synthesized value its parent does. */
export function lossResolves(input: unknown, entry: Loss): boolean {
  if (typeof entry.path !== "string" || tokensOf(entry.path) === undefined) return false;
  if (resolves(input, entry.path)) return true;
  return entry.kind === "synthesized" && resolves(input, parentOf(entry.path));
}

/** Whether a loss names `pointer`, something inside it, or something it sits in. */
export function lossCovers(entry: Loss, pointer: string): boolean {
  return (
    entry.path === pointer || entry.path.startsWith(`${pointer}/`) || pointer.startsWith(`${entry.path}/`)
  );
}

/** The instant the stopped clock shows: far from any real run, so output that reads the clock differs. */
const STOPPED_AT = Date.UTC(2100, 0, 1);

/**
 * Runs `run` with `Date` and `Date.now` stopped at 2100-01-01, then restores them: output that reads the
 * clock differs from a run before it. The real clock is never read.
 */
export function withShiftedClock<T>(run: () => T): T {
  const RealDate = globalThis.Date;
  const now = () => STOPPED_AT;
  function ShiftedDate(this: unknown, ...args: unknown[]): unknown {
    if (!new.target) return new RealDate(now()).toString();
    return args.length === 0 ? new RealDate(now()) : Reflect.construct(RealDate, args);
  }
  Object.setPrototypeOf(ShiftedDate, RealDate);
  ShiftedDate.prototype = RealDate.prototype;
  Object.defineProperty(ShiftedDate, "now", { value: now });
  globalThis.Date = ShiftedDate as unknown as DateConstructor;
  try {
    return run();
  } finally {
    globalThis.Date = RealDate;
  }
}

/** Every event a stream translator gives for `events`, `end()` included, and its losses. */
export function translateAll(
  translator: Required<Pick<Translator, "createStreamTranslator">>,
  from: Protocol,
  to: Protocol,
  events: readonly unknown[],
): { events: unknown[]; losses: readonly Loss[] } {
  const stream = translator.createStreamTranslator(from, to, translateOptions);
  const out = [...events.flatMap((event) => stream.push(event as never)), ...stream.end()];
  return { events: out, losses: stream.losses ?? [] };
}

/** The bytes a byte-stream translator writes for a body arriving in `chunks`. */
export async function translateBytes(
  translator: Required<Pick<Translator, "translateEventStream">>,
  from: Protocol,
  to: Protocol,
  chunks: readonly Uint8Array[],
): Promise<Uint8Array> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const parts: Uint8Array[] = [];
  const reader = translator.translateEventStream(from, to, body, translateOptions).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export type RunOptions = { numRuns?: number; seed?: number };

/** A law that runs one property (sync or async) and answers with its result. */
export function law<T>(
  identity: { law: LawName; subject: Subject; from?: Protocol; to?: Protocol; statement: string },
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => void | Promise<void>,
  options: RunOptions,
): Law {
  return {
    ...identity,
    async check(): Promise<LawResult> {
      const parameters: fc.Parameters<[T]> = {
        ...(options.numRuns === undefined ? {} : { numRuns: options.numRuns }),
        ...(options.seed === undefined ? {} : { seed: options.seed }),
      };
      const details = await fc.check(
        fc.asyncProperty(arbitrary, async (value) => {
          await predicate(value);
        }),
        parameters,
      );
      const base: LawResult = {
        law: identity.law,
        subject: identity.subject,
        ...(identity.from === undefined ? {} : { from: identity.from }),
        ...(identity.to === undefined ? {} : { to: identity.to }),
        ok: !details.failed,
        seed: details.seed,
      };
      if (!details.failed) return base;
      if (details.counterexample === null) {
        return {
          ...base,
          message: `${identity.statement}: not checked, ${details.numSkips} of the generated inputs were skipped (the translator refused them). (seed ${details.seed})`,
        };
      }
      const reason =
        details.errorInstance instanceof Error
          ? details.errorInstance.message
          : String(details.errorInstance);
      return {
        ...base,
        counterexample: details.counterexample[0],
        message: `${identity.statement}: ${reason}\n(seed ${details.seed}, path "${details.counterexamplePath}", shrunk ${details.numShrinks} times)`,
      };
    },
  };
}
