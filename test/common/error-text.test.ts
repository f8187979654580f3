import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { plainErrorText } from "../../src/common/error-kind";
import { runs } from "../helpers/tier";

// The readable text of an HTML error page, as the three patterns the scans replaced would give it
// (they backtrack quadratically over `<` without `>`: 2.4 s for a 64 KB body of `<`).
function byPatterns(body: string): string {
  const head = body.length > 65_536 ? body.slice(0, 65_536) : body;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(head)?.[1];
  const text = (title ?? head.replace(/<(script|style)[^>]*>[^<]*<\/(script|style)>/gi, " "))
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 2048 ? text.slice(0, 2048) : text;
}

// Pieces that make tags, near-tags and the element names in every case.
const piece = fc.constantFrom(
  "<",
  ">",
  "/",
  " ",
  "\n",
  "x",
  "İ",
  "<title",
  "<TITLE",
  "</title>",
  "</Title>",
  "<script",
  "<style",
  "</script>",
  "</STYLE>",
  "<script>",
  "<title>",
  "<b>",
  "t",
  "itle",
  ">x<",
);
const page = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(""));

describe("plainErrorText", () => {
  test.prop([page], { numRuns: runs(20_000) })(
    "equals the patterns it replaced on any mix of tags",
    (body) => {
      expect(plainErrorText(body)).toBe(byPatterns(body));
    },
  );

  test.prop([fc.string({ unit: "binary", maxLength: 200 })])("equals them on any text", (body) => {
    expect(plainErrorText(body)).toBe(byPatterns(body));
  });

  test("reads the title, else the text without scripts and tags", () => {
    expect(plainErrorText("<html><head><title>502 Bad Gateway</title></head><body>x</body>")).toBe(
      "502 Bad Gateway",
    );
    expect(plainErrorText("<p>Down <script>alert(1)</script>for <b>maintenance</b></p>")).toBe(
      "Down for maintenance",
    );
  });

  test("a page of unclosed tags is read in one pass (the patterns took seconds on it)", () => {
    expect(plainErrorText("<".repeat(65_536))).toBe("<".repeat(2048));
    expect(plainErrorText("<title".repeat(11_000))).toBe("<title".repeat(11_000).slice(0, 2048));
  });
});
