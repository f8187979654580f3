import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { codeOf } from "../src/common/loss";
import { type LossKind, protocols } from "../src/index";
import { fixtureIndex as allFixtures, isWired } from "./helpers/fixtures";

// The demo translates the payloads of the protocols the library has.
const fixtureIndex = allFixtures.filter(isWired);

// `npm run demo` as a user runs it, on the recorded fixtures.
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const demo = (...args: string[]) =>
  execFileSync(process.execPath, ["--import", "tsx", "scripts/demo.ts", ...args], {
    cwd: root,
    encoding: "utf8",
  });

describe("npm run demo", () => {
  const summary = demo();
  const verbose = demo("--verbose");

  test("opens with the summary: a row per pair, then per kind", () => {
    const lines = summary.split("\n");
    const header = lines.findIndex((line) => line.startsWith("from → to"));
    expect(header).toBeGreaterThan(0);
    const pairs = protocols.flatMap((from) =>
      protocols.filter((to) => to !== from).map((to) => `${from} → ${to}`),
    );
    expect(lines.slice(header + 1, header + 1 + pairs.length).map((line) => line.split(/\s{2,}/)[0])).toEqual(
      pairs,
    );
    expect(summary).toMatch(/^kind\s+translations/m);
    expect(summary).toContain(`${fixtureIndex.length} recorded payloads`);
    expect(lines.length).toBeLessThan(50);
  });

  test("the summary's counts add up: each stream once, each fixture to every other protocol", () => {
    const translations = fixtureIndex.length * (protocols.length - 1);
    expect(summary).toContain(`${translations} translations:`);
  });

  test("the details group each translation under its payload, with counts on the same line", () => {
    const lines = verbose.split("\n");
    for (const entry of fixtureIndex) expect(lines).toContain(entry.path);
    const streamLines = lines.filter((line) => /^ {2}→ \w+ \(events\)/.test(line));
    expect(streamLines.length).toBe(
      fixtureIndex.filter((entry) => entry.kind === "stream").length * (protocols.length - 1),
    );
    for (const line of streamLines) expect(line).toMatch(/\d+ \w+ events$/);
    expect(lines.filter((line) => /^\s*\(\d+ \w+ events emitted\)/.test(line))).toEqual([]);
  });

  test("error bodies are printed whole, never cut mid-JSON", () => {
    const bodies = verbose
      .split("\n")
      .map((line) => /HTTP \d+ → \d+ (.*)$/.exec(line)?.[1])
      .filter((body) => body !== undefined);
    expect(bodies.length).toBe(
      fixtureIndex.filter((entry) => entry.kind === "error").length * (protocols.length - 1),
    );
    for (const body of bodies) expect(() => JSON.parse(body)).not.toThrow();
  });

  test("every loss it reports has a code, free of array indices, and listed in docs/conversions.md", () => {
    const lines = verbose
      .split("\n")
      .map((line) => /^ {6}(dropped|clamped|synthesized|approximated) +(\S+) {2}(\S+) {2}\S/.exec(line))
      .filter((match) => match !== null);
    expect(lines.length).toBeGreaterThan(1000);
    const docs = readFileSync(join(root, "docs", "conversions.md"), "utf8");
    const section = docs.slice(docs.indexOf("## Loss codes"), docs.indexOf("## Embeddings"));
    const listed = new Set([...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]));
    // A code known only at run time (the input's own field name) is listed as its pattern, `‹…›.kind`.
    const patterns = new Set(
      [...listed].filter((code) => code?.startsWith("‹")).map((code) => code?.split(".").pop()),
    );
    const unlisted = new Set<string>();
    let literal = 0;
    for (const [, kind, path, code] of lines as RegExpExecArray[]) {
      expect(code, path).toMatch(
        /^[^./\s][^/\s]*\.(dropped|clamped|synthesized|approximated|foreign|late|orphan|cut|unreadable|uncarried|oversize|unplaced|rewritten|shortened)$/,
      );
      expect(
        code?.split(".").some((segment) => /^\d+$/.test(segment)),
        code,
      ).toBe(false);
      if (listed.has(code)) literal++;
      else if (!(patterns.has(kind) && code === codeOf(path === "/" ? "" : (path ?? ""), kind as LossKind)))
        unlisted.add(`${code} (${path})`);
    }
    expect([...unlisted]).toEqual([]);
    // Half of them are listed by name (50% today); the rest by the pattern of a field known only at run
    // time (unknown fields dropped by their own name: service_tier.dropped, promptTokensDetails.dropped).
    expect(literal / lines.length).toBeGreaterThan(0.4);
  });
});
