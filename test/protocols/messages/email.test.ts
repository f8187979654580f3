import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { translateRequest } from "../../../src/index";
import { looksLikeEmail } from "../../../src/protocols/messages/request-encode";
import { runs } from "../../helpers/tier";

// The pattern the scan replaced: it backtracks quadratically over a long run without spaces (a
// 176 KB `user` from the toolkit's arbitraries took 6 s to translate to messages).
const EMAIL = /\S+@\S+\.\S+/;

const piece = fc.constantFrom("a", "@", ".", " ", "\n", "\u00a0", "\ufeff", "😀", "x.y", "@@", "..");
const text = fc.array(piece, { maxLength: 16 }).map((pieces) => pieces.join(""));

describe("looksLikeEmail", () => {
  test.prop([text], { numRuns: runs(20_000) })(
    "agrees with /\\S+@\\S+\\.\\S+/ on mixes of its characters",
    (value) => {
      expect(looksLikeEmail(value)).toBe(EMAIL.test(value));
    },
  );

  test.prop([fc.string({ unit: "binary", maxLength: 64 })])("agrees with it on any text", (value) => {
    expect(looksLikeEmail(value)).toBe(EMAIL.test(value));
  });

  test("a long user without spaces is read in one pass, and an address in it is still found", () => {
    const long = "😀".repeat(88_000);
    expect(looksLikeEmail(long)).toBe(false);
    expect(looksLikeEmail(`${long} me@example.com`)).toBe(true);
    const request = { model: "m", input: "hi", user: long };
    const { value, losses } = translateRequest("responses", "messages", request);
    expect(value.metadata).toEqual({ user_id: long });
    expect(losses.filter((entry) => entry.path === "/user")).toEqual([]);
    const dropped = translateRequest("responses", "messages", { ...request, user: "a@b.co" });
    expect(dropped.value.metadata).toBeUndefined();
    expect(dropped.losses).toContainEqual(expect.objectContaining({ path: "/user", kind: "dropped" }));
  });
});
