/**
 * The differential tests both fused response paths from responses run (responses-chat-response.test.ts,
 * responses-messages-response.test.ts), against the hub: every responses response fixture (each taken),
 * the bench's response bodies (the generated text + 3 calls body taken), 10,000 runs of the toolkit's
 * responses response arbitraries (plain and biased) and 10,000 of the edge generator
 * (responses-response-shapes.ts), each with a minimum share taken. Called inside a `describe`.
 */
import type { Protocol } from "../../src/common/model";
import type { TranslateOptions } from "../../src/common/options";
import type { FusedResponse } from "../../src/fused/index";
import { responsePathTests } from "./response-suite";
import { edgeResponse } from "./responses-response-shapes";

export function responsesPathTests(
  to: Protocol,
  path: FusedResponse,
  optionSets: readonly TranslateOptions[],
): void {
  responsePathTests({
    from: "responses",
    to,
    path,
    optionSets,
    fixtures: {
      title: "on every responses response fixture, and the fused path takes every one",
      // Every fixture is a validated response of the shape the path reads: none goes to the hub.
      count: 27,
      taken: "all",
    },
    bench: "on the bench's response bodies, and the generated text + calls body takes the fused path",
    toolkit: 1 / 2,
    edge: {
      title: "on the shape the path takes, edges included, and the fused path takes a good share of it",
      arbitrary: edgeResponse,
      least: 1 / 3,
    },
  });
}
