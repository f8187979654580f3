/**
 * The main job, on real payloads: translate every recorded request, response, error and stream in
 * test/fixtures between every pair of protocols (streams both as events and as SSE bytes through
 * translateEventStream) and show what each translation lost.
 *
 *   npm run demo                  the summary: per pair and per kind, losses by kind, rejections
 *   npm run demo -- --verbose     then every translation, grouped by payload, with each of its losses
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createStreamTranslator,
  type Loss,
  type LossKind,
  type Protocol,
  protocols,
  sse,
  TranslationError,
  translateError,
  translateEventStream,
  translateRequest,
  translateResponse,
} from "../src/index";

type Entry = { path: string; protocol: Protocol; kind: string; url: string; http_status: number };
type Kind = "request" | "response" | "error" | "stream events" | "stream bytes";
type Outcome = { losses: readonly Loss[]; rejected?: string; detail?: string };
type Row = { from: Protocol; to: Protocol; kind: Kind; path: string; outcome: Outcome };

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures");
// The payloads of every protocol the library has (the fixtures may hold one still being added).
const index: Entry[] = (JSON.parse(readFileSync(join(root, "index.json"), "utf8")) as Entry[]).filter(
  (entry) => (protocols as readonly string[]).includes(entry.protocol),
);
const verbose = process.argv.includes("--verbose");
const options = { idPrefix: "gp", created: 1_700_000_000 };
const LOSS_KINDS: readonly LossKind[] = ["dropped", "clamped", "synthesized", "approximated"];

/** The data payloads of an SSE body, parsed (`[DONE]` stays a string). */
function dataPayloads(body: string): unknown[] {
  const parser = sse.createParser();
  return [...parser.feed(body), ...parser.end()].map((message) =>
    message.data === "[DONE]" ? message.data : JSON.parse(message.data),
  );
}

/** A paragraph broken into lines of at most 100 characters, at spaces. */
function paragraph(text: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line].join("\n");
}

function attempt(run: () => Outcome): Outcome {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof TranslationError)) throw error;
    return { losses: [], rejected: error.message };
  }
}

/** A stream through the event-level translator: its output events and losses. */
function viaEvents(from: Protocol, to: Protocol, text: string): { events: unknown[]; outcome: Outcome } {
  const events: unknown[] = [];
  const outcome = attempt(() => {
    const translator = createStreamTranslator(from, to, options);
    for (const event of dataPayloads(text)) events.push(...translator.push(event as never));
    events.push(...translator.end());
    return { losses: translator.losses, detail: `${events.length} ${to} events` };
  });
  return { events, outcome };
}

/** The same stream as bytes through translateEventStream (losses arrive through onLoss). */
async function viaBytes(from: Protocol, to: Protocol, text: string, expected: unknown[]): Promise<Outcome> {
  const losses: Loss[] = [];
  // onLoss is a byte stream's only channel for losses (API.md); the options type may not name it yet.
  const byteOptions = { ...options, onLoss: (loss: Loss) => losses.push(loss) };
  try {
    const body = new Blob([text]).stream();
    const out = await new Response(translateEventStream(from, to, body, byteOptions)).text();
    const events = dataPayloads(out);
    const same = JSON.stringify(events) === JSON.stringify(expected);
    const bytes = Buffer.byteLength(out);
    return {
      losses,
      detail: `${events.length} ${to} events, ${bytes} bytes, ${same ? "the same events as the event path" : "NOT the events of the event path"}`,
    };
  } catch (error) {
    if (!(error instanceof TranslationError)) throw error;
    return { losses, rejected: error.message };
  }
}

const rows: Row[] = [];
for (const entry of index) {
  const text = readFileSync(join(root, entry.path), "utf8");
  const from = entry.protocol;
  for (const to of protocols) {
    if (to === from) continue;
    const add = (kind: Kind, outcome: Outcome) => rows.push({ from, to, kind, path: entry.path, outcome });
    if (entry.kind === "request") {
      const model = /\/models\/([^?]+):[A-Za-z]+/.exec(entry.url)?.[1];
      const stream = entry.url.includes(":streamGenerateContent");
      add(
        "request",
        attempt(() => translateRequest(from, to, JSON.parse(text), { ...options, model, stream })),
      );
    } else if (entry.kind === "response") {
      add(
        "response",
        attempt(() => translateResponse(from, to, JSON.parse(text), options)),
      );
    } else if (entry.kind === "stream") {
      const { events, outcome } = viaEvents(from, to, text);
      add("stream events", outcome);
      add("stream bytes", await viaBytes(from, to, text, events));
    } else {
      const result = translateError(from, to, { status: entry.http_status, body: JSON.parse(text) });
      // API.md: translateError reports the body's fields that did not arrive (none where it does not yet).
      const losses = (result as { losses?: readonly Loss[] }).losses ?? [];
      add("error", {
        losses,
        detail: `HTTP ${entry.http_status} → ${result.status} ${JSON.stringify(result.body)}`,
      });
    }
  }
}

// ─── Summary ──────────────────────────────────────────────────────────────────────────────────────

type Totals = {
  translations: number;
  clean: number;
  rejected: number;
  root: number;
  bytesSame: number;
  bytes: number;
} & Record<LossKind, number>;
function totalsOf(selected: readonly Row[]): Totals {
  const totals: Totals = {
    translations: 0,
    clean: 0,
    rejected: 0,
    root: 0,
    bytesSame: 0,
    bytes: 0,
    dropped: 0,
    clamped: 0,
    synthesized: 0,
    approximated: 0,
  };
  for (const { kind, outcome } of selected) {
    // A stream counts once, by its event path; the byte path is checked against it.
    if (kind === "stream bytes") {
      totals.bytes++;
      if (outcome.detail?.endsWith("the same events as the event path") === true) totals.bytesSame++;
      continue;
    }
    totals.translations++;
    if (outcome.rejected !== undefined) totals.rejected++;
    else if (outcome.losses.length === 0) totals.clean++;
    for (const loss of outcome.losses) {
      totals[loss.kind]++;
      if (loss.path === "") totals.root++;
    }
  }
  return totals;
}

const HEAD = ["translations", "lost nothing", ...LOSS_KINDS, 'at "/"', "rejected", "bytes = events"];
function table(title: string, groups: [string, readonly Row[]][]): void {
  const width = Math.max(title.length, ...groups.map(([label]) => label.length));
  const line = (label: string, cells: readonly string[]) =>
    console.log(
      `${label.padEnd(width)}  ${cells.map((cell, at) => cell.padStart((HEAD[at] ?? "").length)).join("  ")}`.trimEnd(),
    );
  line(title, HEAD);
  for (const [label, selected] of groups) {
    const totals = totalsOf(selected);
    const counts = [
      totals.translations,
      totals.clean,
      ...LOSS_KINDS.map((kind) => totals[kind]),
      totals.root,
      totals.rejected,
    ];
    line(label, [...counts.map(String), totals.bytes === 0 ? "" : `${totals.bytesSame}/${totals.bytes}`]);
  }
  console.log();
}

const pairs = protocols.flatMap((from) =>
  protocols.filter((to) => to !== from).map((to) => [from, to] as const),
);
const fixtureKinds = ["request", "response", "stream", "error"] as const;
const count = (kind: string) => index.filter((entry) => entry.kind === kind).length;
console.log(
  `${paragraph(
    `${index.length} recorded payloads (test/fixtures: ${fixtureKinds.map((kind) => `${count(kind)} ${kind}s`).join(", ")}), each translated to the other ${protocols.length - 1} protocols. ` +
      'Streams go through createStreamTranslator (events) and through translateEventStream (SSE bytes); "bytes = events" counts the streams whose byte output holds the same events.',
  )}\n`,
);
table(
  "from → to",
  pairs.map(([from, to]) => [`${from} → ${to}`, rows.filter((row) => row.from === from && row.to === to)]),
);
table(
  "kind",
  fixtureKinds.map((kind) => [kind, rows.filter((row) => row.kind.split(" ")[0] === kind)]),
);
const all = totalsOf(rows);
console.log(
  paragraph(
    `${all.translations} translations: ${all.clean} lost nothing, ${LOSS_KINDS.reduce((sum, kind) => sum + all[kind], 0)} losses reported in the rest, ${all.rejected} rejected with a TranslationError; ` +
      `${all.bytesSame} of ${all.bytes} streams gave the same events as bytes.`,
  ),
);

// ─── Notes ────────────────────────────────────────────────────────────────────────────────────────

const eventLosses = rows
  .filter((row) => row.kind === "stream events")
  .reduce((sum, row) => sum + row.outcome.losses.length, 0);
const byteLosses = rows
  .filter((row) => row.kind === "stream bytes")
  .reduce((sum, row) => sum + row.outcome.losses.length, 0);
console.log(
  `\n${paragraph(
    byteLosses === eventLosses
      ? `The byte path reported its ${byteLosses} losses through options.onLoss, as the event path did.`
      : `The byte path reported ${byteLosses} losses through options.onLoss; the event path reported ${eventLosses}${byteLosses === 0 ? " (this build does not call onLoss yet)" : ""}.`,
  )}`,
);
const rootLosses = rows
  .filter((row) => row.kind !== "stream bytes")
  .flatMap((row) => row.outcome.losses.filter((loss) => loss.path === "").map((loss) => ({ row, loss })));
const fromStreams = rootLosses.filter(({ row }) => row.kind === "stream events");
const elsewhere = [
  ...new Set(rootLosses.filter(({ row }) => row.kind !== "stream events").map(({ loss }) => loss.message)),
];
console.log(
  `\n${paragraph(
    rootLosses.length === 0
      ? 'Every loss names its place: none points at "/" (a stream\'s losses point into the event they came from, `/<event>/…`).'
      : `Losses at "/" (${rootLosses.length}), a pointer the translator should give: ${fromStreams.length} from streams` +
          (elsewhere.length > 0 ? `; outside streams: "${elsewhere.join('", "')}".` : "."),
  )}`,
);

const allLosses = rows.flatMap((row) => row.outcome.losses);
const codes = new Map<string, number>();
for (const loss of allLosses) codes.set(loss.code, (codes.get(loss.code) ?? 0) + 1);
const top = [...codes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5);
console.log(
  `\n${paragraph(
    `Every loss carries a code to count it by: ${codes.size} distinct codes (docs/conversions.md lists them); the most frequent: ${top.map(([code, count]) => `${code} ${count}`).join(", ")}.`,
  )}`,
);

// ─── Details ──────────────────────────────────────────────────────────────────────────────────────

if (!verbose) {
  console.log("\nEvery translation with its losses: npm run demo -- --verbose");
} else {
  // Grouped by recorded payload: its path, then one line per translation and one per loss under it.
  let current = "";
  for (const row of rows) {
    if (row.path !== current) {
      current = row.path;
      console.log(`\n${row.path}`);
    }
    const { outcome } = row;
    const how = row.kind.startsWith("stream") ? ` (${row.kind.slice(7)})` : "";
    const lost =
      row.kind === "stream bytes"
        ? `${outcome.losses.length} loss(es) through onLoss`
        : outcome.losses.length === 0
          ? "nothing lost"
          : `${outcome.losses.length} loss(es)`;
    const result =
      outcome.rejected !== undefined
        ? `REJECTED: ${outcome.rejected}`
        : `${lost}${outcome.detail === undefined ? "" : `; ${outcome.detail}`}`;
    console.log(`  → ${row.to}${how}: ${result}`);
    for (const loss of outcome.losses)
      console.log(`      ${loss.kind.padEnd(12)} ${loss.path || "/"}  ${loss.code}  ${loss.message}`);
  }
}
