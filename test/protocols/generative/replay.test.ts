import { describe, expect, test } from "vitest";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import type { StreamReducer } from "../../../src/common/reducer";
import {
  decodeGenerativeResponse,
  encodeGenerativeResponse,
} from "../../../src/protocols/generative/response";
import * as generative from "../../../src/protocols/generative/schema";
import { generativeStreamDecoder } from "../../../src/protocols/generative/stream-decode";
import { generativeStreamEncoder } from "../../../src/protocols/generative/stream-encode";
import { ResponseBuilder, responseToParts } from "../../../src/stream/parts";
import { fixtures, readJsonFixture } from "../../helpers/fixtures";
import { runAll } from "../../helpers/reducer";

const options = resolveOptions({ idPrefix: "gp" });

function fold<State, In, Out>(reducer: StreamReducer<State, In, Out>, inputs: readonly In[]): Out[] {
  return runAll(reducer, inputs).out;
}

/** replay then accumulate, through the shared parts ⇄ response fold of src/stream/parts.ts. */
function roundTrip(body: generative.Response): generative.Response {
  const decoded = decodeGenerativeResponse(body, options).value;
  // responseToParts should put Response.extra on response-start and Choice.extra on finish (see report).
  const parts = responseToParts(decoded).map((part): common.StreamPart => {
    if (part.type === "response-start" && part.extra === undefined) return { ...part, extra: decoded.extra };
    if (part.type === "finish" && part.extra === undefined)
      return { ...part, extra: decoded.choices[0]?.extra };
    return part;
  });
  const events = fold(generativeStreamEncoder(options), parts);
  const builder = new ResponseBuilder();
  let responseExtra: common.Extra | undefined;
  let choiceExtra: common.Extra | undefined;
  for (const part of fold(generativeStreamDecoder(options), events)) {
    builder.add(part);
    // The extras ride on response-start and finish; forwarded here as ResponseBuilder should (see report).
    if (part.type === "response-start") responseExtra = part.extra;
    if (part.type === "finish") choiceExtra = part.extra;
  }
  const built = builder.build();
  const response: common.Response = {
    ...built,
    ...(built.extra === undefined && responseExtra !== undefined ? { extra: responseExtra } : {}),
    choices: built.choices.map((choice) =>
      choice.extra === undefined && choiceExtra !== undefined ? { ...choice, extra: choiceExtra } : choice,
    ),
  };
  return encodeGenerativeResponse(response, options).value;
}

describe("replay then accumulate gives the response back (research X12)", () => {
  test.each(fixtures("response", "generative").map((entry) => [entry.path, entry] as const))(
    "%s",
    (_, entry) => {
      const body = generative.response.parse(readJsonFixture(entry));
      expect(roundTrip(body)).toEqual(body);
    },
  );
});
