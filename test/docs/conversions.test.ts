import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  analyze,
  type Matrix,
  messagePattern,
  type Row,
  render,
  renderText,
  rowsOf,
  type Section,
} from "../../scripts/conversions";
import { codeOf } from "../../src/common/loss";
import { createStreamTranslator, type Loss, translateRequest, translateResponse } from "../../src/index";
import { protocols } from "../../src/protocols/index";
import {
  fixturesDir,
  generativeModel,
  readJsonFixture,
  storedHistory,
  streamEvents,
  type WiredEntry,
  wiredFixtures,
} from "../helpers/fixtures";

const root = join(fixturesDir, "..", "..");
const documentPath = join(root, "docs", "conversions.md");

// Read once for the whole file: the analysis builds a TypeScript program over src/.
const matrix: Matrix = analyze(root);

/** The lines one text has and the other lacks, for a failure a person can read. */
function changedLines(written: string, fresh: string, count: number): string[] {
  const lines = (text: string): Map<string, number> => {
    const out = new Map<string, number>();
    for (const line of text.split("\n")) out.set(line, (out.get(line) ?? 0) + 1);
    return out;
  };
  const a = lines(written);
  const b = lines(fresh);
  const only = (x: Map<string, number>, y: Map<string, number>): string[] =>
    [...x].filter(([line, times]) => (y.get(line) ?? 0) < times).map(([line]) => line);
  return [
    ...only(b, a)
      .slice(0, count)
      .map((line) => `+ (code, not in the file) ${line}`),
    ...only(a, b)
      .slice(0, count)
      .map((line) => `- (file, not in the code) ${line}`),
  ];
}

describe("docs/conversions.md", () => {
  test("is the document the code gives (else run `npm run docs`)", () => {
    const written = readFileSync(documentPath, "utf8");
    const fresh = render(matrix);
    if (written !== fresh) {
      expect.fail(
        [
          "docs/conversions.md does not match the losses in src/: run `npm run docs` and commit the result.",
          ...changedLines(written, fresh, 8),
        ].join("\n"),
      );
    }
  });

  test("covers every ordered pair of protocols in the table, and no protocol with itself", () => {
    const pairs = matrix.pairs.map((pair) => `${pair.from}→${pair.to}`);
    const expected = protocols.flatMap((from) =>
      protocols.filter((to) => to !== from).map((to) => `${from}→${to}`),
    );
    expect(pairs).toEqual(expected);
    expect(matrix.protocols).toEqual([...protocols]);
  });

  test("reads both sides of every pair: each protocol's decoders and encoders report losses", () => {
    for (const pair of matrix.pairs) {
      for (const section of ["request", "response", "stream"] as const) {
        const [reading, writing] = pair.sections[section];
        expect(reading?.title).toBe(`Reading ${pair.from}`);
        expect(writing?.title).toBe(`Writing ${pair.to}`);
        expect(reading?.rows.length, `${pair.from} → ${pair.to} ${section}: reading`).toBeGreaterThan(0);
        expect(writing?.rows.length, `${pair.from} → ${pair.to} ${section}: writing`).toBeGreaterThan(0);
      }
    }
  });
});

/**
 * Whether a documented row of the pair's section explains a loss: its message, its kind and its code
 * (the row's own, or a `‹…›.kind` pattern the loss's code is derived by, `codeOf` of its pointer).
 */
function documents(rows: readonly Row[], entry: Loss): boolean {
  const derived = entry.code === codeOf(entry.path, entry.kind);
  return rows.some(
    (row) =>
      row.kinds.includes(entry.kind) &&
      messagePattern(row.text).test(entry.message) &&
      row.codes.some(
        (code) => code === entry.code || (derived && code.startsWith("‹") && code.endsWith(`.${entry.kind}`)),
      ),
  );
}

const options = { idPrefix: "gp", created: 1_700_000_000 };
const chatDialects = ["openai", "compatible", "deepseek", "openrouter", "qwen", "vllm"] as const;

/** Every option set a translation to `to` is walked with (each chat dialect when writing chat). */
function optionSets(to: string): Record<string, unknown>[] {
  return to === "chat" ? chatDialects.map((chatDialect) => ({ ...options, chatDialect })) : [options];
}

function observe(section: Section, entry: WiredEntry, to: (typeof protocols)[number]): Loss[] {
  const losses: Loss[] = [];
  for (const set of optionSets(to)) {
    if (section === "request") {
      losses.push(
        ...translateRequest(entry.protocol, to, readJsonFixture(entry), {
          ...set,
          model: generativeModel(entry),
          stream: entry.url.includes(":streamGenerateContent"),
          history: to === entry.protocol ? undefined : storedHistory(entry, readJsonFixture(entry)),
        }).losses,
      );
    } else if (section === "response") {
      losses.push(...translateResponse(entry.protocol, to, readJsonFixture(entry), set).losses);
    } else {
      const translator = createStreamTranslator(entry.protocol, to, set);
      for (const event of streamEvents(entry)) translator.push(event as never);
      translator.end();
      losses.push(...translator.losses);
    }
  }
  return losses;
}

// The other direction: a loss the reading of the code missed (a site it cannot follow) fails here when
// the fixture walk meets it.
describe("every loss the fixture walk observes is a documented loss of its pair", () => {
  let observed = 0;
  const fixtureKinds = { request: "request", response: "response", stream: "stream" } as const;
  for (const section of ["request", "response", "stream"] as const) {
    for (const from of protocols) {
      for (const to of protocols) {
        if (from === to) continue;
        const entries = wiredFixtures(fixtureKinds[section]).filter((entry) => entry.protocol === from);
        test(`${section}: ${from} → ${to} (${entries.length} fixtures)`, () => {
          const rows = rowsOf(matrix, from, to, section);
          // Each undocumented loss once, with the first fixture that showed it.
          const undocumented = new Map<string, string>();
          for (const entry of entries) {
            for (const found of observe(section, entry, to)) {
              observed++;
              const key = `${found.kind} ${found.code}: ${found.message}`;
              if (!undocumented.has(key) && !documents(rows, found)) undocumented.set(key, entry.path);
            }
          }
          expect(
            [...undocumented].map(([loss, path]) => `${loss}  (${path})`),
            "losses no site of docs/conversions.md explains (scripts/conversions.ts missed a site)",
          ).toEqual([]);
        });
      }
    }
  }
  test("the walk observes losses at all (the check above is not empty)", () => {
    expect(observed).toBeGreaterThan(100);
  });
});

describe("message patterns", () => {
  test("placeholders match any text, the rest only itself", () => {
    const pattern = messagePattern(["`", { hole: "key" }, "` has no common equivalent and was dropped."]);
    expect(pattern.test("`logit_bias` has no common equivalent and was dropped.")).toBe(true);
    expect(pattern.test("`a.b (c)` has no common equivalent and was dropped.")).toBe(true);
    expect(pattern.test("`logit_bias` has no common equivalent.")).toBe(false);
    expect(pattern.test("x `logit_bias` has no common equivalent and was dropped.")).toBe(false);
    expect(renderText(["`", { hole: "key" }, "` was dropped."])).toBe("`‹key›` was dropped.");
  });
});
