/**
 * The carrier's base64 (common/carrier.ts writes it by hand, for speed): the same text as the platform's
 * base64 of the same UTF-8 bytes, at every length modulo 3 and over every kind of character, and read
 * back to what was wrapped.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import { unwrapCarried, wrapCarried } from "../../src/common/carrier";
import { runs, seed } from "../helpers/tier";

const platformBase64 = (lines: readonly string[]): string =>
  Buffer.from(lines.join("\n"), "utf8").toString("base64");

test("a carrier is the base64 of its lines, and unwraps to what was wrapped", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: "grapheme", maxLength: 300 }),
      fc.string({ maxLength: 8 }),
      (text, signature) => {
        const entry = { reasoning: { text, signature } };
        const wrapped = wrapCarried({ origin: "messages", entries: [entry] });
        expect(wrapped).toBe(platformBase64(["gpr1", "messages", JSON.stringify(entry)]));
        expect(unwrapCarried(wrapped as string)).toEqual({ origin: "messages", entries: [entry] });
      },
    ),
    { seed, numRuns: runs(2000, 100) },
  );
});
