/**
 * The differential tests both fused response paths from responses run (responses-chat-response.test.ts,
 * responses-messages-response.test.ts), against the hub: every responses response fixture (each taken),
 * the bench's response bodies (the generated text + 3 calls body taken), 10,000 runs of the toolkit's
 * responses response arbitraries (plain and biased) and 10,000 of the edge generator
 * (responses-response-shapes.ts), each with a minimum share taken. Called inside a `describe`.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import { responseSets } from "../../bench/corpus";
import type { Protocol } from "../../src/common/model";
import { resolveOptions, type TranslateOptions } from "../../src/common/options";
import type { FusedResponse } from "../../src/fused/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";
import { edgeResponse } from "./responses-response-shapes";

const numRuns = 10_000;
/** 10,000 runs under several option sets, both ways: under a minute alone, longer on a shared machine. */
const propertyTimeout = 300_000;

export function responsesPathTests(
  to: Protocol,
  path: FusedResponse,
  optionSets: readonly TranslateOptions[],
): void {
  const { agrees, taken } = differential("response", "responses", to, path, optionSets);

  test("on every responses response fixture, and the fused path takes every one", () => {
    const bodies = fixtures("response", "responses").map(readJsonFixture);
    expect(bodies.length).toBe(27);
    const before = taken();
    for (const body of bodies) agrees(body);
    // Every fixture is a validated response of the shape the path reads: none goes to the hub.
    expect(taken() - before).toBe(bodies.length * optionSets.length);
  });

  test("on the bench's response bodies, and the generated text + calls body takes the fused path", () => {
    for (const set of responseSets("responses")) for (const body of set.bodies) agrees(body);
    const [, generated] = responseSets("responses");
    const body = generated?.bodies[0];
    expect(body).toBeDefined();
    for (const options of optionSets) expect(path(body, resolveOptions(options))).toBeDefined();
  });

  test(
    "on the toolkit's responses responses, plain and biased",
    () => {
      const before = taken();
      fc.assert(
        fc.property(
          fc.oneof(
            arbitraries.response("responses"),
            arbitraries.response("responses", true),
            arbitraries.response("responses", ["tools", "thinking", "unicode", "empty", "zeros"]),
          ),
          agrees,
        ),
        { numRuns },
      );
      expect(taken() - before).toBeGreaterThan((numRuns * optionSets.length) / 2);
    },
    propertyTimeout,
  );

  test(
    "on the shape the path takes, edges included, and the fused path takes a good share of it",
    () => {
      const before = taken();
      fc.assert(fc.property(edgeResponse, agrees), { numRuns });
      // Without this, a fused path that always declined would pass the comparison trivially.
      expect(taken() - before).toBeGreaterThan((numRuns * optionSets.length) / 3);
    },
    propertyTimeout,
  );
}
