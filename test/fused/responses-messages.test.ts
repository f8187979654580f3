/**
 * The fused responses → messages request path against the hub, its specification: on every body — the
 * toolkit's responses request arbitraries (plain and biased), a generator of the plain shape the fused
 * path takes with the edge values that must send it back to the hub (./responses-shapes.ts), and every
 * responses request fixture — under several option sets, `translateRequest` gives the same value (same
 * bytes), losses, model and stream as the hub path, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { responsesToMessagesRequest } from "../../src/fused/responses-messages";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";
import { plainResponsesRequest } from "./responses-shapes";

const optionSets: readonly TranslateOptions[] = [{}, { validate: false }, { maxTokens: 512 }];

const { agrees, taken } = differential(
  "request",
  "responses",
  "messages",
  responsesToMessagesRequest,
  optionSets,
);

const numRuns = 10_000;

describe("fused responses → messages requests match the hub", () => {
  test("on every responses request fixture", () => {
    const bodies = fixtures("request", "responses").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) agrees(body);
  });

  test("on the toolkit's responses requests, plain and biased", () => {
    const before = taken();
    fc.assert(
      fc.property(
        fc.oneof(
          arbitraries.request("responses"),
          arbitraries.request("responses", true),
          arbitraries.request("responses", ["unicode", "empty", "zeros"]),
        ),
        agrees,
      ),
      { numRuns },
    );
    // The toolkit's requests carry fields the hub reports; some are plain all the same.
    expect(taken() - before).toBeGreaterThan(0);
  }, 600_000);

  test("on the plain shape, edges included, and the fused path takes a good share of it", () => {
    const before = taken();
    fc.assert(fc.property(plainResponsesRequest(false), agrees), { numRuns });
    // Without this, a fused path that always declined would pass the comparison trivially.
    expect(taken() - before).toBeGreaterThan(numRuns / 2);
  }, 600_000);

  test("a plain request takes the fused path and reports the synthesized max_tokens as the hub does", () => {
    const body = {
      model: "gpt-5-mini",
      instructions: "Be brief.",
      input: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: [{ type: "output_text", text: "Hello.", annotations: [] }] },
        { type: "message", role: "user", content: "Weather in Paris?" },
      ],
      temperature: 0.5,
      top_p: 0.9,
    };
    expect(responsesToMessagesRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("responses", "messages", body);
    expect(result.value).toEqual({
      model: "gpt-5-mini",
      max_tokens: 4096,
      system: "Be brief.",
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: [{ type: "text", text: "Hello." }] },
        { role: "user", content: "Weather in Paris?" },
      ],
      temperature: 0.5,
      stream: false,
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/max_tokens", "synthesized"],
      ["/top_p", "dropped"],
    ]);
  });
});
