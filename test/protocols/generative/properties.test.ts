import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { TranslationError } from "../../../src/common/errors";
import type { Loss } from "../../../src/common/loss";
import { resolveOptions } from "../../../src/common/options";
import { parsePointer, resolvePointer } from "../../../src/common/pointer";
import { decodeGenerativeError, encodeGenerativeError } from "../../../src/protocols/generative/error";
import { decodeGenerativeRequest, encodeGenerativeRequest } from "../../../src/protocols/generative/request";
import {
  decodeGenerativeResponse,
  encodeGenerativeResponse,
} from "../../../src/protocols/generative/response";
import * as generative from "../../../src/protocols/generative/schema";
import { generativeStreamDecoder } from "../../../src/protocols/generative/stream-decode";
import { generativeStreamEncoder } from "../../../src/protocols/generative/stream-encode";
import {
  generativeErrorBodyArb,
  generativeRequestArb,
  generativeResponseArb,
  generativeStreamArb,
} from "../../../src/testing/arbitraries/generative";
import { generativeGrammar } from "../../../src/testing/grammar";
import { runAll } from "../../helpers/reducer";

const options = resolveOptions({ idPrefix: "gp", model: "gemini-2.5-flash" });

/** A loss path resolves in the input; for a synthesized value, its parent does. */
function resolves(input: unknown, entry: Loss): boolean {
  if (resolvePointer(input, entry.path).found) return true;
  if (entry.kind !== "synthesized") return false;
  const tokens = parsePointer(entry.path);
  return resolvePointer(input, tokens.length === 0 ? "" : `/${tokens.slice(0, -1).join("/")}`).found;
}

describe("requests", () => {
  test("decoding never throws and every loss path resolves in the input", () => {
    fc.assert(
      fc.property(generativeRequestArb, (body) => {
        const { losses } = decodeGenerativeRequest(generative.request.parse(body), options);
        for (const entry of losses) expect(resolves(body, entry), entry.path).toBe(true);
      }),
    );
  });

  test("re-encoding a decoded request gives a valid request or a TranslationError, nothing else", () => {
    fc.assert(
      fc.property(generativeRequestArb, (body) => {
        const decoded = decodeGenerativeRequest(generative.request.parse(body), options).value;
        try {
          const { value } = encodeGenerativeRequest(decoded, options);
          expect(generative.request.safeParse(value).error?.issues ?? []).toEqual([]);
        } catch (error) {
          expect(error).toBeInstanceOf(TranslationError);
        }
      }),
    );
  });

  test("decoding is deterministic and never mutates its input", () => {
    fc.assert(
      fc.property(generativeRequestArb, (body) => {
        const parsed = generative.request.parse(body);
        const copy = structuredClone(parsed);
        const first = JSON.stringify(decodeGenerativeRequest(parsed, options));
        expect(JSON.stringify(decodeGenerativeRequest(parsed, options))).toBe(first);
        expect(parsed).toEqual(copy);
      }),
    );
  });
});

describe("responses", () => {
  test("decoding then encoding gives the response back exactly, and loss paths resolve", () => {
    fc.assert(
      fc.property(generativeResponseArb, (body) => {
        const parsed = generative.response.parse(body);
        const decoded = decodeGenerativeResponse(parsed, options);
        for (const entry of decoded.losses) expect(resolves(body, entry), entry.path).toBe(true);
        const encoded = encodeGenerativeResponse(decoded.value, options).value;
        expect(generative.response.safeParse(encoded).success).toBe(true);
        // Spellings of "nothing" that are not kept: finishReason "" (still generating), thought: false.
        const normal = JSON.parse(JSON.stringify(parsed), (key, value) => {
          if ((key === "finishReason" && value === "") || (key === "thought" && value === false))
            return undefined;
          return value;
        });
        expect(encoded).toEqual(normal);
      }),
    );
  });
});

describe("streams", () => {
  test("decoding then encoding any chunk sequence never throws and follows the generative grammar", () => {
    fc.assert(
      fc.property(generativeStreamArb, (events) => {
        const decoder = generativeStreamDecoder(options);
        const encoder = generativeStreamEncoder(options);
        const parts = runAll(decoder, events as generative.StreamEvent[]).out;
        const out: generative.StreamEvent[] = runAll(encoder, parts).out;
        for (const event of out) expect(generative.streamEvent.safeParse(event).success).toBe(true);
        expect(generativeGrammar(out)).toEqual([]);
      }),
    );
  });
});

describe("errors", () => {
  test("any status and any body decode without throwing and re-encode to the generative shape", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999 }),
        fc.oneof(fc.jsonValue(), generativeErrorBodyArb, fc.string()),
        (status, body) => {
          const info = decodeGenerativeError({ status, body });
          const encoded = encodeGenerativeError(info);
          expect(generative.errorBody.safeParse(encoded.body).success).toBe(true);
          expect(encoded.status).toBeGreaterThanOrEqual(400);
        },
      ),
    );
  });
});
