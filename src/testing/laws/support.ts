/**
 * What the laws share: the options every translation gets, what counts as a clean refusal, a deep
 * comparison that names the first difference, a shifted clock, and running a property into a result.
 */
import fc from "fast-check";
import { resolveOptions } from "../../common/options";
import { type RequestRefusal, requestRefusals } from "../../common/refusals";
import type { Protocol } from "../../index";
import { adapters } from "../../protocols/index";
import { type Hard, resolveBias } from "../arbitraries/common";
import { parentOf, pointerOf, resolves, tokensOf } from "../pointer";
import type { Law, LawName, LawResult, ReportedLoss, Subject, Translator } from "./types";

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

type ErrorLike = Error & { status: number; issues?: readonly unknown[]; losses?: readonly ReportedLoss[] };

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

/** The options every translation gets, resolved, for the adapters the laws read. */
const resolvedOptions = resolveOptions(translateOptions);

/**
 * Why `value` does not parse with `protocol`'s schema of `kind` — every issue as its pointer and the
 * schema's message, the first eight and how many more — or undefined when it parses.
 */
export function schemaProblems(
  protocol: Protocol,
  kind: "request" | "response" | "event" | "errorBody",
  value: unknown,
  at = "",
): string | undefined {
  const parsed = adapters[protocol].schemas[kind].safeParse(value);
  if (parsed.success) return undefined;
  const issues = parsed.error.issues;
  const listed = issues
    .slice(0, 8)
    .map((issue) => `${at + pointerOf(issue.path) || "(the whole value)"}: ${issue.message}`);
  if (issues.length > 8) listed.push(`and ${issues.length - 8} more`);
  return listed.join("; ");
}

/**
 * What `protocol`'s service refuses in `body` beyond its schema (the library's own rules, read through
 * the adapter: tool calls answered, results answering a call, a user turn first where needed); undefined
 * when `body` does not parse. A body the library cannot even decode is one refusal saying so.
 */
export function refusalsOf(protocol: Protocol, body: unknown): readonly RequestRefusal[] | undefined {
  const adapter = adapters[protocol];
  const parsed = adapter.schemas.request.safeParse(body);
  if (!parsed.success) return undefined;
  try {
    return adapter.requestRefusals(parsed.data, resolvedOptions);
  } catch (error) {
    return [{ path: "", message: `gateway-protocols cannot read it (${describeThrown(error)})` }];
  }
}

/**
 * Whether a request has no right translation to check for what its target refuses: passed through to
 * its own protocol, anything its service refuses (the translation carries it over); across protocols,
 * a tool result answering no call (a translator refuses it or passes it on: chat-compatible servers
 * differ on it). A call left unanswered is not such a case: a translator answers it or the target takes it.
 */
export function unpairedAsGiven(from: Protocol, to: Protocol, body: unknown): boolean {
  if (from === to) return (refusalsOf(from, body) ?? []).length > 0;
  const adapter = adapters[from];
  const parsed = adapter.schemas.request.safeParse(body);
  if (!parsed.success) return false;
  try {
    const decoded = adapter.decodeRequest(parsed.data, resolvedOptions).value;
    return requestRefusals(decoded, { calls: false, results: true }).length > 0;
  } catch {
    return false;
  }
}

/** A short description of a thrown value. */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.split("\n")[0]}`;
  return `a non-Error ${typeof error} (${String(error)})`;
}

/** What a law throws when the translator breaks it: its message says where. */
export class LawBroken extends Error {
  override name = "LawBroken";
}

/** Throws a LawBroken with `message` unless `condition` holds. */
export function check(condition: boolean, message: () => string): asserts condition {
  if (!condition) throw new LawBroken(message());
}

/** `things` as a sentence's list: `a`, `a and b`, `a, b and c`. */
export function listed(things: readonly string[]): string {
  return things.length <= 1 ? (things[0] ?? "") : `${things.slice(0, -1).join(", ")} and ${things.at(-1)}`;
}

/**
 * A value as a failure message shows it: its JSON, abbreviated to about `room` characters with `…` where
 * members were left out (`{"role":"tool",…}`), so that the place it differs stays readable.
 */
export function shown(value: unknown, room = 120): string {
  if (value === undefined) return "undefined";
  const text = JSON.stringify(value) ?? String(value);
  if (text.length <= room) return text;
  if (typeof value === "string")
    return `${JSON.stringify(value.slice(0, Math.max(8, room - 3))).slice(0, -1)}…"`;
  const array = Array.isArray(value);
  if (!array && !isPlain(value)) return `${text.slice(0, room)}…`;
  const entries: [string | undefined, unknown][] = array
    ? value.map((item) => [undefined, item])
    : Object.entries(value).filter(([, child]) => child !== undefined);
  const parts: string[] = [];
  let used = 2;
  for (const [key, child] of entries) {
    const head = key === undefined ? "" : `${JSON.stringify(key)}:`;
    const left = room - used - head.length - 2;
    if (left < 8) break;
    const part = `${head}${shown(child, left)}`;
    parts.push(part);
    used += part.length + 1;
  }
  if (parts.length < entries.length) parts.push("…");
  return array ? `[${parts.join(",")}]` : `{${parts.join(",")}}`;
}

/** Whether two JSON values are equal (keys in any order; a key whose value is `undefined` is absent). */
export function deepEqual(actual: unknown, expected: unknown): boolean {
  return firstDifference(actual, expected) === undefined;
}

/**
 * The first place `actual` and `expected` differ, named: its JSON pointer and both values at it —
 * `/temperature: 1 instead of 0`, `/messages/3: missing (expected {"role":"tool",…})`,
 * `/messages/5: unexpected {…}` — or undefined when they are equal (keys in any order; a key whose
 * value is `undefined` counts as absent, as in JSON). An array one item shorter or longer than the
 * other names the item missing or added, not the items shifted after it.
 */
export function firstDifference(actual: unknown, expected: unknown, at = ""): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  const place = at === "" ? "(the whole value)" : at;
  if (actual === undefined) return `${place}: missing (expected ${shown(expected)})`;
  if (expected === undefined) return `${place}: unexpected ${shown(actual)}`;
  if (Array.isArray(actual) && Array.isArray(expected)) {
    for (let index = 0; index < Math.max(actual.length, expected.length); index++) {
      const pointer = `${at}/${index}`;
      if (index >= actual.length) return `${pointer}: missing (expected ${shown(expected[index])})`;
      if (index >= expected.length) return `${pointer}: unexpected ${shown(actual[index])}`;
      const found = firstDifference(actual[index], expected[index], pointer);
      if (found === undefined) continue;
      // One item left out or put in: name it, rather than every item after it.
      if (actual.length < expected.length && deepEqual(actual.slice(index), expected.slice(index + 1)))
        return `${pointer}: missing (expected ${shown(expected[index])})`;
      if (actual.length > expected.length && deepEqual(actual.slice(index + 1), expected.slice(index)))
        return `${pointer}: unexpected ${shown(actual[index])}`;
      return found;
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
  return `${place}: ${shown(actual)} instead of ${shown(expected)}`;
}

/**
 * How a second run's result differs from the first's, member by member (`the output`, `the losses`,
 * `the events` …) and at the first differing pointer of that member; undefined when their JSON is the same.
 */
export function runDifference(second: unknown, first: unknown): string | undefined {
  const [later, earlier] = [JSON.stringify(second), JSON.stringify(first)];
  if (later === earlier) return undefined;
  const [a, b] = [JSON.parse(later ?? "null") as unknown, JSON.parse(earlier ?? "null") as unknown];
  if (isPlain(a) && isPlain(b)) {
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
      const found = firstDifference(a[key], b[key]);
      if (found !== undefined) return `${memberNames[key] ?? `its ${key}`} at ${found}`;
    }
  }
  return firstDifference(a, b) ?? "the same values with the keys in another order";
}

const memberNames: Readonly<Record<string, string>> = {
  value: "the output",
  losses: "the losses",
  events: "the events",
  body: "the body",
  status: "the status",
};

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every loss points into the input: its path resolves, or for a synthesized value its parent does. */
export function lossResolves(input: unknown, entry: ReportedLoss): boolean {
  if (typeof entry.path !== "string" || tokensOf(entry.path) === undefined) return false;
  if (resolves(input, entry.path)) return true;
  return entry.kind === "synthesized" && resolves(input, parentOf(entry.path));
}

/** The message for losses whose pointers do not resolve in `where` ("the input"), each named. */
export function unresolved(astray: readonly ReportedLoss[], where: string): string {
  const named = astray.map(
    (entry) => `the ${entry.kind} loss ${JSON.stringify(entry.path)} (${shown(entry.message, 80)})`,
  );
  return `${listed(named)} ${astray.length === 1 ? "does" : "do"} not resolve in ${where}`;
}

/** Whether a loss names `pointer`, something inside it, or something it sits in. */
export function lossCovers(entry: ReportedLoss, pointer: string): boolean {
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
): { events: unknown[]; losses: readonly ReportedLoss[] } {
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
        statement: identity.statement,
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
      const thrown = details.errorInstance;
      const reason =
        thrown instanceof LawBroken
          ? thrown.message
          : `the translator threw ${thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown)}`;
      return {
        ...base,
        counterexample: details.counterexample[0],
        path: details.counterexamplePath ?? "",
        message: `${identity.statement}: ${reason}\n(seed ${details.seed}, path "${details.counterexamplePath}", found at run ${details.numRuns}${details.numSkips === 0 ? "" : ` after ${details.numSkips} skipped`}, shrunk ${details.numShrinks} time${details.numShrinks === 1 ? "" : "s"})`,
      };
    },
  };
}
