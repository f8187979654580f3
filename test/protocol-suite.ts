/**
 * The shared protocol suite (hono's `runTest({ newRouter })`): one call runs, for a protocol, the guard
 * and reach tests of its arbitraries, every translation law from it to every protocol (the toolkit's
 * `translatorLaws`, pointed at this library), and the walks over its recorded fixtures.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import * as library from "../src/index";
import {
  accumulate,
  createStreamTranslator,
  type Protocol,
  protocols,
  translateError,
  translateRequest,
  translateResponse,
} from "../src/index";
import {
  arbitraries,
  assertValid,
  type HardCase,
  lawNames,
  type PayloadKind,
  protocolArbitraries,
  type ReachFact,
  type Subject,
  translatorLaws,
} from "../src/testing/index";
import { fixtures, generativeModel, readJsonFixture, storedHistory, streamEvents } from "./helpers/fixtures";
import { runs } from "./helpers/tier";

/** The parts of the suite (test/suite/ runs them in separate files, so that they run in parallel). */
export type SuitePart = "arbitraries" | "body laws" | "stream laws" | "fixtures";

/** The laws on whole bodies; the rest (streams, bytes, accumulate) are the stream laws. */
const bodySubjects: ReadonlySet<Subject> = new Set(["request", "response", "error"]);

/** Samples for a reach test: a fixed seed makes each count reproducible. */
const reachSample = <T>(arbitrary: fc.Arbitrary<T>): T[] =>
  fc.sample(arbitrary, { numRuns: 200, seed: 20_260_816 });

/** Every value `arbitrary` makes parses with the schema of `kind` (Effect's verifyGeneration). */
function guard(
  protocol: Protocol,
  kind: PayloadKind,
  arbitrary: fc.Arbitrary<unknown>,
  numRuns: number,
): void {
  fc.assert(
    fc.property(arbitrary, (value) => assertValid(protocol, kind, value)),
    { numRuns },
  );
}

function guardEvents(protocol: Protocol, arbitrary: fc.Arbitrary<unknown[]>, numRuns: number): void {
  fc.assert(
    fc.property(arbitrary, (events) => {
      for (const event of events) assertValid(protocol, "streamEvent", event);
    }),
    { numRuns },
  );
}

function runArbitraries(protocol: Protocol): void {
  const entry = protocolArbitraries[protocol];
  describe(`${protocol} arbitraries`, () => {
    test("every generated request, response, event and error body parses with its schema", () => {
      guard(protocol, "request", arbitraries.request(protocol), runs(1000, 50));
      guard(protocol, "response", arbitraries.response(protocol), runs(1000, 50));
      guardEvents(protocol, arbitraries.anyStreamEvents(protocol), runs(1000, 50));
      guard(protocol, "errorBody", arbitraries.errorBody(protocol), runs(1000, 50));
      guard(
        protocol,
        "request",
        entry.givenValues().map(({ body }) => body),
        runs(1000, 50),
      );
    });

    test("leaning toward every hard case, what is generated still parses with its schema", () => {
      guard(protocol, "request", arbitraries.request(protocol, true), runs(200, 20));
      guard(protocol, "response", arbitraries.response(protocol, true), runs(200, 20));
      guardEvents(protocol, arbitraries.streamEvents(protocol, true), runs(200, 20));
    });

    const kinds = {
      request: arbitraries.request,
      response: arbitraries.response,
      stream: arbitraries.streamEvents,
      errorBody: (of: Protocol) => arbitraries.errorBody(of),
    } satisfies Record<keyof typeof entry.reach, (of: Protocol, bias?: HardCase[]) => fc.Arbitrary<unknown>>;

    describe.each(Object.keys(kinds) as (keyof typeof kinds)[])("%s reach", (kind) => {
      const facts: readonly ReachFact[] = entry.reach[kind];
      test("the arbitraries declare what they reach", () => {
        expect(facts.length).toBeGreaterThan(0);
      });
      const plain = facts.filter((fact) => fact.plain !== false);
      if (plain.length > 0) {
        test.each(plain.map((fact) => [fact.name, fact] as const))(
          "at least one in 200 has %s",
          (_, fact) => {
            const sample = reachSample(kinds[kind](protocol));
            expect(sample.filter((value) => fact.holds(value)).length).toBeGreaterThan(0);
          },
        );
      }
      const biased = facts.filter((fact) => fact.bias !== undefined);
      if (biased.length > 0) {
        test.each(biased.map((fact) => [fact.name, fact.bias, fact] as const))(
          "at least one in four has %s when the bias asks for %s",
          (_, bias, fact) => {
            const sample = reachSample(kinds[kind](protocol, bias === undefined ? [] : [bias]));
            expect(sample.filter((value) => fact.holds(value)).length).toBeGreaterThanOrEqual(50);
          },
        );
      }
    });
  });
}

function runLaws(protocol: Protocol, part: "body laws" | "stream laws"): void {
  describe(`${protocol} ${part}`, () => {
    // The byte laws run a Web Stream per input and cut: fewer runs, as the SSE parser's own laws have.
    const laws = [
      ...translatorLaws(library, { laws: lawNames.filter((name) => name !== "chunking") }),
      ...translatorLaws(library, { laws: ["chunking"], numRuns: runs(1000) }),
    ].filter((law) => law.from === protocol && bodySubjects.has(law.subject) === (part === "body laws"));
    test.each(laws.map((law) => [law.law, law.statement, law] as const))(
      "%s: %s",
      async (_, statement, law) => {
        const result = await law.check();
        expect(result.message ?? "", statement).toBe("");
        expect(result.ok).toBe(true);
      },
    );
  });
}

function runFixtures(protocol: Protocol): void {
  const options = { idPrefix: "gp", created: 1_700_000_000 };
  const each = (kind: Parameters<typeof fixtures>[0]) =>
    fixtures(kind, protocol).map((entry) => [entry.path, entry] as const);
  describe(`every recorded ${protocol} payload`, () => {
    test.each(each("request"))("request %s parses with its schema", (_, entry) => {
      assertValid(protocol, "request", readJsonFixture(entry));
    });
    test.each(each("response"))("response %s parses with its schema", (_, entry) => {
      assertValid(protocol, "response", readJsonFixture(entry));
    });
    test.each(each("error"))("error body %s parses with its schema", (_, entry) => {
      assertValid(protocol, "errorBody", readJsonFixture(entry));
    });
    test.each(each("stream"))("every event of stream %s parses with its schema", (_, entry) => {
      const events = streamEvents(entry);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) assertValid(protocol, "streamEvent", event);
    });
    test.each(each("stream"))("stream %s accumulates to a response that parses", (_, entry) => {
      const events = streamEvents(entry);
      const hasError = events.some(
        (event) =>
          typeof event === "object" &&
          event !== null &&
          ("error" in event || (event as { type?: unknown }).type === "error"),
      );
      if (hasError) expect(() => accumulate(protocol, events as never)).toThrow(/error/i);
      else assertValid(protocol, "response", accumulate(protocol, events as never));
    });
  });

  describe.each(protocols)(`every recorded ${protocol} payload translates to %s`, (to) => {
    test.each(each("request"))(`request %s → ${to} parses with the ${to} schema`, (_, entry) => {
      const body = readJsonFixture(entry);
      const url = { model: generativeModel(entry), stream: entry.url.includes(":streamGenerateContent") };
      const history = protocol === to ? undefined : storedHistory(entry, body);
      // Stateless: without the stored items a continuing request is refused, naming the option that carries them.
      if (history !== undefined)
        expect(() => translateRequest(protocol, to, body, { ...options, ...url })).toThrow(
          /options\.history/,
        );
      const result = translateRequest(protocol, to, body, { ...options, ...url, history });
      assertValid(to, "request", result.value);
      if (protocol === to) expect(result.losses).toEqual([]);
      expect(result.model).not.toBe("");
    });
    test.each(each("response"))(`response %s → ${to} parses with the ${to} schema`, (_, entry) => {
      assertValid(to, "response", translateResponse(protocol, to, readJsonFixture(entry), options).value);
    });
    test.each(each("error"))(`error %s → ${to} parses with the ${to} error schema`, (_, entry) => {
      const result = translateError(protocol, to, {
        status: entry.http_status,
        body: readJsonFixture(entry),
      });
      assertValid(to, "errorBody", result.body);
      expect(result.status).toBeGreaterThanOrEqual(400);
    });
    test.each(each("stream"))(
      `stream %s → ${to}: every event parses and the sequence follows the ${to} grammar`,
      (_, entry) => {
        const translator = createStreamTranslator(protocol, to, options);
        const out: unknown[] = [];
        for (const event of streamEvents(entry)) out.push(...translator.push(event as never));
        out.push(...translator.end());
        for (const event of out) assertValid(to, "streamEvent", event);
        if (protocol !== to) expect(protocolArbitraries[to].grammar?.(out) ?? []).toEqual([]);
      },
    );
  });
}

/** Runs the whole suite for `protocol` (or the parts named). */
export function runProtocolSuite(
  protocol: Protocol,
  parts: readonly SuitePart[] = ["arbitraries", "body laws", "stream laws", "fixtures"],
): void {
  if (parts.includes("arbitraries")) runArbitraries(protocol);
  if (parts.includes("body laws")) runLaws(protocol, "body laws");
  if (parts.includes("stream laws")) runLaws(protocol, "stream laws");
  if (parts.includes("fixtures")) runFixtures(protocol);
}
