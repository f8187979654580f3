/**
 * `npm run bench`: every measurement in one run, printed as Markdown ratio tables and written to
 * bench/results.md (full runs only). Flags: --quick (shorter samples), --rounds=N (rounds per cell), --only=requests,responses,streams,fixed,
 * sse,memory, --no-memory, --memory-events=N, --out=<file>.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Check, Context, Section } from "./context";
import { protocols, streamSets } from "./corpus";
import type { MemoryReport } from "./memory";
import { table } from "./report";
import { sseSection } from "./sse.bench";
import { fixedCostSection, streamSections } from "./stream.bench";
import { loadOurs, loadOursWithoutCodegen, loadPeers } from "./subjects";
import { defaultTiming, quickTiming } from "./timing";
import { translateSections } from "./translate.bench";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const found = args.find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  return found === undefined ? undefined : (found.split("=")[1] ?? "");
};
const only = flag("only")?.split(",");
const wants = (part: string): boolean => (only === undefined ? true : only.includes(part));
const withMemory = wants("memory") && flag("no-memory") === undefined;
const memoryEvents = Number(flag("memory-events") ?? 1_000_000);
// Only a full run at the default timing replaces bench/results.md; partial runs print, or go to --out.
const out =
  flag("out") ??
  (only === undefined && flag("quick") === undefined && flag("rounds") === undefined
    ? join(here, "results.md")
    : undefined);
const TOTAL_BUDGET_MS = 170_000;

const started = Date.now();
const elapsed = (): string => `${((Date.now() - started) / 1000).toFixed(1)}s`;

function checkSummary(checks: readonly Check[]): string {
  const targets = [...new Set(checks.map((check) => check.target))];
  const rows = targets.map((target) => {
    const mine = checks.filter((check) => check.target === target);
    const failed = mine.filter((check) => check.met === false);
    return [
      target,
      String(mine.filter((check) => check.met === true).length),
      String(failed.length),
      String(mine.filter((check) => check.met === undefined).length),
      failed
        .slice(0, 4)
        .map((check) => check.row)
        .join("; ") + (failed.length > 4 ? "; …" : ""),
    ];
  });
  return table(["target (issue 8)", "met", "not met", "not measured", "rows not met"], rows, "lrrrl");
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

function memorySection(budgetMs: number): string {
  const child = spawnSync(
    process.execPath,
    ["--expose-gc", "--import", "tsx", join(here, "memory.ts"), String(memoryEvents), String(budgetMs)],
    { encoding: "utf8", timeout: budgetMs + 30_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const lines = ["### Memory", ""];
  if (child.status !== 0 || child.stdout === "") {
    const why =
      child.error?.message ?? child.stderr.split("\n").find((line) => line.trim() !== "") ?? "no output";
    return [...lines, `The memory run failed: ${why}`].join("\n");
  }
  const report = JSON.parse(child.stdout) as MemoryReport;
  if (report.problem !== undefined)
    return [...lines, `The memory run could not measure: ${report.problem}`].join("\n");
  lines.push(
    `heapUsed after a full GC while one chat→messages translator takes a text stream of ${memoryEvents.toLocaleString("en")} events (sampled every 100,000): parsed events through createStreamTranslator and the peers, and the same stream as SSE bytes through translateEventStream, generated as it is pulled. Flat = less than 1 MB growth from the 100,000th event to the last.`,
    "",
  );
  const rows = report.runs.map((run) => {
    if (run.error !== undefined) return [run.name, "n/a", "n/a", `n/a: ${run.error.slice(0, 120)}`];
    const first = run.samples.find(([events]) => events >= 100_000) ?? run.samples[0];
    const last = run.samples[run.samples.length - 1];
    const growth = first !== undefined && last !== undefined ? last[1] - first[1] : Number.NaN;
    const verdict = Number.isNaN(growth)
      ? "n/a"
      : `${growth < 1024 * 1024 ? "flat" : "GROWS"} (${growth >= 0 ? "+" : ""}${(growth / 1024).toFixed(0)} KB)`;
    const series = run.samples.map(([, heap]) => (heap / 1024 / 1024).toFixed(1)).join(" → ");
    const partial =
      run.events < memoryEvents ? ` (stopped at ${run.events.toLocaleString("en")}: time budget)` : "";
    return [run.name, `${series} MB`, `${(run.ms / 1000).toFixed(1)} s${partial}`, verdict];
  });
  lines.push(table(["translator", "heapUsed per 100k events", "time", "verdict"], rows, "llrl"), "");
  lines.push(
    `Heap kept alive by the output of one translation of the ~200 KB chat request (${(report.inputBytes / 1024).toFixed(0)} KB of JSON); a translation that shares the input's strings keeps far less than a copy does.`,
    "",
  );
  lines.push(
    table(
      ["operation", "retained heap"],
      report.retained.map((entry) => [
        entry.name,
        entry.bytes === undefined ? `n/a: ${entry.error}` : megabytes(entry.bytes),
      ]),
      "lr",
    ),
  );
  return lines.join("\n");
}

async function main(): Promise<void> {
  const preset = flag("quick") === undefined ? defaultTiming : quickTiming;
  const rounds = Number(flag("rounds") ?? preset.rounds);
  const timing = { ...preset, rounds: Number.isInteger(rounds) && rounds > 0 ? rounds : preset.rounds };
  const { ours, problems, from } = await loadOurs();
  const plain = await loadOursWithoutCodegen();
  const peers = await loadPeers();
  const context: Context = {
    ours,
    plain,
    oursProblem: problems.length > 0 ? "src/index does not load yet" : undefined,
    peers,
    timing,
    progress: (message) => process.stderr.write(`[bench ${elapsed()}] ${message}\n`),
  };
  const sections: Section[] = [];
  sections.push(
    ...translateSections(context, { requests: wants("requests"), responses: wants("responses") }),
  );
  const sets = wants("streams") || wants("sse") ? protocols.flatMap(streamSets) : [];
  if (wants("streams")) sections.push(...(await streamSections(context, sets)));
  if (wants("fixed")) sections.push(await fixedCostSection(context));
  if (wants("sse")) sections.push(sseSection(context, sets));
  const checks = sections.flatMap((section) => section.checks);

  const environment = `node ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores), ${new Date().toISOString().slice(0, 10)}`;
  const loaded = Object.keys(ours).filter((key) => ours[key as keyof typeof ours] !== undefined);
  const status = [
    ...(problems.length > 0
      ? [`- ours: only ${loaded.length > 0 ? loaded.join(", ") : "nothing"} loaded; ${problems.join("; ")}`]
      : [`- ours: ${from} loaded`]),
    `- ours, no code generation: ${plain.ours === undefined ? `not measured: ${plain.problem}` : "dist/index.cjs loaded with its own zod under `jitless` (no `new Function`: zod's plain parsers and the library's closure checks, as on workerd)"}`,
    ...peers.map((peer) => `- ${peer.name}: ${peer.problem ?? "loaded"}`),
  ];
  const parts = [
    "## Benchmarks",
    "",
    `Reproduce with \`npm run bench\` (${environment}; steady state: warmed up, no forced GC, results kept alive; batches of ${timing.sampleMs} ms, a round is the fastest of ${timing.samples}, ${timing.rounds} rounds interleaved within each row). Ratios, not absolute times: each operation's time divided by the yardstick's time on the same payload in the same round, the median over the rounds; the spread column shows how far the rounds of a row disagreed.`,
    "",
    ...(status.length > 0 ? ["Subjects:", "", ...status, ""] : []),
    ...(checks.length > 0 ? ["### Targets", "", checkSummary(checks), ""] : []),
    ...sections.flatMap((section) => [section.markdown, ""]),
  ];
  if (withMemory) {
    context.progress(`memory (${memoryEvents.toLocaleString("en")} events)`);
    const left = TOTAL_BUDGET_MS - (Date.now() - started);
    parts.push(memorySection(Math.max(20_000, left)), "");
  }
  const markdown = `${parts.join("\n").trimEnd()}\n`;
  if (out !== undefined) writeFileSync(out, markdown);
  process.stdout.write(markdown);
  context.progress(out === undefined ? "done" : `done; written to ${out}`);
}

await main();
