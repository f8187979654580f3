/** What every suite receives, how one operation becomes a Cell, and the target checks they report. */
import { type Absent, type Cell, roundRatios } from "./report";
import type { Ours, Peer } from "./subjects";
import { asyncTimer, median, type TimingOptions, timer } from "./timing";

export type Context = {
  readonly ours: Ours;
  /**
   * Ours again, generating no code (zod's plain parsers and the library's closure checks, as workerd and
   * edge runtimes impose), or why it did not load.
   */
  readonly plain: { readonly ours?: Ours; readonly problem?: string };
  /** Why parts of ours are missing (the import errors), for the notes. */
  readonly oursProblem: string | undefined;
  readonly peers: readonly Peer[];
  readonly timing: TimingOptions;
  progress(message: string): void;
};

/** One target of the performance issue, checked on one row. `met` is undefined when a side is missing. */
export type Check = { readonly target: string; readonly row: string; readonly met: boolean | undefined };

export type Section = { readonly markdown: string; readonly checks: readonly Check[] };

export const arrow = (from: string, to: string): string => `${from}→${to}`;

export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n")[0] ?? "";
  return line.length > 140 ? `${line.slice(0, 140)}…` : line;
}

/** The Cell for one of our functions that did not load. */
export function missing(context: Context, what: string): Absent {
  const why = context.oursProblem === undefined ? "" : ` (${context.oursProblem})`;
  return { kind: "missing", why: `ours: \`${what}\` is not available yet${why}` };
}

/** One operation of a row, checked and ready to be timed, or the Cell saying why it cannot be. */
export type Job = { readonly kind: "job"; readonly all: () => unknown; readonly cold: boolean } | Absent;

/**
 * Checks `run` once on every input (so a failure names how many inputs throw and the first message),
 * and returns the job of one call that processes all of them. `cold` forces a collection before every
 * batch (the GC-pressure rows).
 */
export function job<T>(
  label: string,
  inputs: readonly T[],
  run: (input: T, at: number) => unknown,
  cold = false,
): Job {
  const failures: string[] = [];
  inputs.forEach((input, at) => {
    try {
      run(input, at);
    } catch (error) {
      failures.push(firstLine(error));
    }
  });
  if (failures.length > 0) {
    const count =
      inputs.length > 1 ? `${failures.length}/${inputs.length} inputs throw, first: ` : "throws: ";
    return { kind: "error", why: `${label} ${count}${failures[0]}` };
  }
  const all = (): unknown => {
    let last: unknown;
    for (let at = 0; at < inputs.length; at++) last = run(inputs[at] as T, at);
    return last;
  };
  return { kind: "job", all, cold };
}

/**
 * Times the jobs of one row: each is calibrated (its warm-up), then the rounds are interleaved —
 * round 1 of every job, then round 2 of every job… — so a ratio between two cells of the row is taken
 * within one round and drifts of the machine (other developers share the cores) hit both alike.
 */
export function timeRow(context: Context, jobs: readonly Job[]): Cell[] {
  const timers = jobs.map((entry) =>
    entry.kind === "job" ? timer(entry.all, context.timing, entry.cold) : undefined,
  );
  const runs: number[][] = jobs.map(() => []);
  for (let round = 0; round < context.timing.rounds; round++)
    timers.forEach((each, at) => {
      if (each !== undefined) runs[at]?.push(each.round());
    });
  return jobs.map((entry, at) => {
    if (entry.kind !== "job") return entry;
    const mine = runs[at] ?? [];
    return { kind: "time", ns: median(mine), runs: mine };
  });
}

/** One operation timed alone (its rounds back to back). */
export function timeAll<T>(
  context: Context,
  label: string,
  inputs: readonly T[],
  run: (input: T, at: number) => unknown,
): Cell {
  return timeRow(context, [job(label, inputs, run)])[0] ?? { kind: "missing", why: label };
}

/** An asynchronous operation of a row (awaited one call at a time), checked and ready to be timed. */
export type AsyncJob = { readonly kind: "async"; readonly all: () => Promise<unknown> } | Absent;

/** The asynchronous twin of `job`: `run` is awaited once on every input first, so a failure is named. */
export async function asyncJob<T>(
  label: string,
  inputs: readonly T[],
  run: (input: T) => Promise<unknown>,
): Promise<AsyncJob> {
  const failures: string[] = [];
  for (const input of inputs) {
    try {
      await run(input);
    } catch (error) {
      failures.push(firstLine(error));
    }
  }
  if (failures.length > 0) {
    const count =
      inputs.length > 1 ? `${failures.length}/${inputs.length} inputs throw, first: ` : "throws: ";
    return { kind: "error", why: `${label} ${count}${failures[0]}` };
  }
  const all = async (): Promise<unknown> => {
    let last: unknown;
    for (const input of inputs) last = await run(input);
    return last;
  };
  return { kind: "async", all };
}

/**
 * `timeRow` for a row with asynchronous cells: synchronous and asynchronous jobs alike take their
 * rounds interleaved (round 1 of every job, then round 2…), so a ratio to the row's yardstick is taken
 * within one round, as in the synchronous rows.
 */
export async function timeRowAsync(context: Context, jobs: readonly (Job | AsyncJob)[]): Promise<Cell[]> {
  const timers: ({ round(): number | Promise<number> } | undefined)[] = [];
  for (const entry of jobs) {
    if (entry.kind === "job") timers.push(timer(entry.all, context.timing, entry.cold));
    else if (entry.kind === "async") timers.push(await asyncTimer(entry.all, context.timing));
    else timers.push(undefined);
  }
  const runs: number[][] = jobs.map(() => []);
  for (let round = 0; round < context.timing.rounds; round++)
    for (let at = 0; at < timers.length; at++) {
      const each = timers[at];
      if (each !== undefined) runs[at]?.push(await each.round());
    }
  return jobs.map((entry, at): Cell => {
    if (entry.kind !== "job" && entry.kind !== "async") return entry;
    const mine = runs[at] ?? [];
    return { kind: "time", ns: median(mine), runs: mine };
  });
}

/** The asynchronous twin of `timeAll`. */
export async function timeAllAsync<T>(
  context: Context,
  label: string,
  inputs: readonly T[],
  run: (input: T) => Promise<unknown>,
): Promise<Cell> {
  const [cell] = await timeRowAsync(context, [await asyncJob(label, inputs, run)]);
  return cell ?? { kind: "missing", why: label };
}

/**
 * `cell` ÷ `base` as the tables print it: the median of the per-round ratios (report.ts), so that a
 * verdict and the figure shown beside it never disagree; undefined when either is missing.
 */
function shownRatio(cell: Cell, base: Cell): number | undefined {
  if (cell.kind !== "time" || base.kind !== "time") return undefined;
  return median(roundRatios(cell, base));
}

/** The fastest of the peers' cells that were measured, as a ratio to the row's `base`, or undefined. */
export function fastest(cells: readonly Cell[], base: Cell): number | undefined {
  let best: number | undefined;
  for (const cell of cells) {
    const each = shownRatio(cell, base);
    if (each !== undefined && (best === undefined || each < best)) best = each;
  }
  return best;
}

/** `ours` ÷ `base` (as shown) no more than `limit`; undefined when a side is missing. */
export function atMost(ours: Cell, limit: number | undefined, base: Cell): boolean | undefined {
  const mine = shownRatio(ours, base);
  if (mine === undefined || limit === undefined) return undefined;
  return mine <= limit;
}
