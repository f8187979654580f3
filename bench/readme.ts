/**
 * `npm run bench:readme`: renders bench/results.md (one full `npm run bench` run) into README.md
 * between `<!-- bench:start -->` and `<!-- bench:end -->`, headings one level down, so the README's
 * tables are always one run's output and never edited by hand.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const results = readFileSync(join(root, "bench", "results.md"), "utf8");
const readmePath = join(root, "README.md");
const readme = readFileSync(readmePath, "utf8");

const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";
const from = readme.indexOf(START);
const to = readme.indexOf(END);
if (from < 0 || to < from) throw new Error(`README.md has no ${START} … ${END} region`);

const body = results
  .replace(/^## Benchmarks\n+/, "")
  .replace(/^(#{3,5}) /gm, "#$1 ")
  .trimEnd();
writeFileSync(readmePath, `${readme.slice(0, from + START.length)}\n${body}\n${readme.slice(to)}`);
process.stdout.write("README.md: benchmark tables rendered from bench/results.md\n");
