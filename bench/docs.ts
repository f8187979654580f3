/**
 * `npm run bench:docs`: renders bench/results.md (one full `npm run bench` run) into docs/performance.md
 * between `<!-- bench:start -->` and `<!-- bench:end -->`, so the tables there are always one run's
 * output and never edited by hand.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const results = readFileSync(join(root, "bench", "results.md"), "utf8");
const docPath = join(root, "docs", "performance.md");
const doc = readFileSync(docPath, "utf8");

const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";
const from = doc.indexOf(START);
const to = doc.indexOf(END);
if (from < 0 || to < from) throw new Error(`docs/performance.md has no ${START} … ${END} region`);

const body = results.replace(/^## Benchmarks\n+/, "").trimEnd();
writeFileSync(docPath, `${doc.slice(0, from + START.length)}\n${body}\n${doc.slice(to)}`);
process.stdout.write("docs/performance.md: benchmark tables rendered from bench/results.md\n");
