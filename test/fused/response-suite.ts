/**
 * The differential tests every fused whole-response path runs against the hub, as one call inside
 * its `describe`: every response fixture of `from` (with how many there are and how many the path
 * takes), the bench's response bodies (the generated text + 3 tool calls body taken under every option
 * set), 10,000 runs of the toolkit's response arbitraries of `from` (plain and biased) and 10,000 of the
 * test's own edge generator, each with a minimum share the fused path takes. What is the test's own —
 * the edge generator and the pinned examples — stays in its file.
 */
import type fc from "fast-check";
import { expect, test } from "vitest";
import type { Protocol } from "../../src/common/model";
import { resolveOptions, type TranslateOptions } from "../../src/common/options";
import type { FusedResponse } from "../../src/fused/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { benchResponses, differential, toolkitResponses } from "./oracle";

const numRuns = 10_000;
/** 10,000 runs under several option sets, both ways: under a minute alone, longer on a shared machine. */
const propertyTimeout = 300_000;

export interface ResponseSuite {
  from: Protocol;
  to: Protocol;
  path: FusedResponse;
  optionSets: readonly TranslateOptions[];
  fixtures: {
    /** The test's name. */
    title: string;
    /** How many fixtures there are; without it, at least one. */
    count?: number;
    /** Whether the path takes the fixture at `file` (under the default options), checked on each. */
    takes?: (file: string) => boolean;
    /**
     * The translations the path gives on them: on `all` fixtures, on this many fixtures under every
     * option set, or on more than this share of them (`{ over }`).
     */
    taken: "all" | number | { over: number };
  };
  /** The bench test's name, if not the usual one. */
  bench?: string;
  /** The least share of the toolkit's responses the path takes. */
  toolkit: number;
  edge: {
    /** The test's name, if not the usual one. */
    title?: string;
    /** The shape the path takes, with the values at and past its edges. */
    arbitrary: fc.Arbitrary<unknown>;
    /** The least share of it the path takes: without one, a path that always declined would pass. */
    least: number;
  };
}

/** The chat response fixtures for a path that leaves content parts to the hub: all 19 but Mistral's thinking chunks taken. */
export const chatFixturesButContentParts: ResponseSuite["fixtures"] = {
  title: "on every chat response fixture, and the fused path takes all but the one with content parts",
  count: 19,
  // Mistral's thinking chunks come as content parts: the hub's.
  takes: (file) => !file.endsWith("mistral-thinking.json"),
  taken: 18,
};

/** The tests of `suite` (see the top of this file), for a `describe`; returns the pair's checker. */
export function responsePathTests(suite: ResponseSuite): ReturnType<typeof differential> {
  const { from, to, path, optionSets } = suite;
  const checker = differential("response", from, to, path, optionSets);
  const { agrees, taken, share } = checker;

  test(suite.fixtures.title, () => {
    const entries = fixtures("response", from);
    const { count, takes, taken: expected } = suite.fixtures;
    if (count === undefined) expect(entries.length).toBeGreaterThan(0);
    else expect(entries.length).toBe(count);
    const before = taken();
    for (const entry of entries) {
      const body = readJsonFixture(entry);
      agrees(body);
      if (takes !== undefined)
        expect([entry.path, path(body, resolveOptions({})) !== undefined]).toEqual([
          entry.path,
          takes(entry.path),
        ]);
    }
    if (expected === "all") expect(taken() - before).toBe(entries.length * optionSets.length);
    else if (typeof expected === "number") expect(taken() - before).toBe(expected * optionSets.length);
    else expect(taken() - before).toBeGreaterThan(entries.length * optionSets.length * expected.over);
  });

  test(
    suite.bench ??
      "on the bench's response bodies, and the generated text + 3 tool calls body takes the fused path",
    () => {
      const body = benchResponses(from, agrees);
      for (const options of optionSets) expect(path(body, resolveOptions(options))).toBeDefined();
    },
  );

  test(
    `on the toolkit's ${from} responses, plain and biased`,
    () => {
      expect(share(toolkitResponses(from), numRuns)).toBeGreaterThan(suite.toolkit);
    },
    propertyTimeout,
  );

  test(
    suite.edge.title ?? "on the plain shape, edges included, and the fused path takes a good share of it",
    () => {
      expect(share(suite.edge.arbitrary, numRuns)).toBeGreaterThan(suite.edge.least);
    },
    propertyTimeout,
  );

  return checker;
}
