/**
 * The fused responses → messages response path against the hub, its specification: on every body — every
 * responses response fixture, the bench's response bodies, the toolkit's responses response arbitraries
 * (plain and biased), and a generator of the shape the fused path takes with the values at and past its
 * edges (responses-response-shapes.ts) — under several option sets (`created` and the id prefix given
 * and not, a fallback model, unvalidated, strict),
 * `translateResponse` gives the same value (same bytes) and losses as the hub, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { responseSets } from "../../bench/corpus";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { responsesToMessagesResponse } from "../../src/fused/responses-messages-response";
import { translateResponse } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";
import { edgeResponse, exampleResponse } from "./responses-response-shapes";

const optionSets: readonly TranslateOptions[] = [
  {},
  { idPrefix: "gw", model: "fallback" },
  { validate: false },
  { strict: true },
];

const { agrees, taken } = differential(
  "response",
  "responses",
  "messages",
  responsesToMessagesResponse,
  optionSets,
);

const numRuns = 10_000;
/** 10,000 runs under several option sets, both ways: under a minute alone, longer on a shared machine. */
const propertyTimeout = 300_000;

describe("fused responses → messages responses match the hub", () => {
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
    for (const options of optionSets)
      expect(responsesToMessagesResponse(body, resolveOptions(options))).toBeDefined();
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

  test("a reasoning answer with cited text, a call and a web search takes the fused path, thinking first", () => {
    expect(responsesToMessagesResponse(exampleResponse, resolveOptions({}))).toBeDefined();
    const result = translateResponse("responses", "messages", exampleResponse);
    expect(JSON.stringify(result.value)).toBe(
      JSON.stringify({
        id: "resp_1",
        type: "message",
        role: "assistant",
        model: "gpt-5-mini",
        content: [
          { type: "thinking", thinking: "Plan.\n\nCall.", signature: "" },
          { type: "text", text: "Looking." },
          { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Oslo" } },
        ],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: {
          input_tokens: 10,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 90,
          output_tokens: 20,
          output_tokens_details: { thinking_tokens: 12 },
        },
      }),
    );
    expect(result.losses.map((entry) => [entry.path, entry.kind, entry.message])).toEqual([
      [
        "/service_tier",
        "dropped",
        "`service_tier` of the response has no equivalent in the target and was dropped.",
      ],
      [
        "/output/0/summary",
        "approximated",
        "The 2 summary parts of the reasoning item were joined into one text, parted by blank lines.",
      ],
      [
        "/output/0/encrypted_content",
        "dropped",
        "A reasoning signature is valid only at the provider that issued it and was dropped.",
      ],
      [
        "/output/1/content/0/annotations",
        "dropped",
        "Citations from the responses protocol have no messages equivalent and were dropped.",
      ],
      [
        "/output/3",
        "dropped",
        "A responses web_search_call item has no messages equivalent and was dropped.",
      ],
    ]);
  });
});
