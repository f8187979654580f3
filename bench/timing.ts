/**
 * The timing loop, measuring steady state: calibrate a batch size until one batch takes a target time
 * (the calibration batches are the warm-up), then take several batches and keep the median time per
 * call. No garbage collection is forced between batches: a forced `gc()` lets V8 drop the hidden
 * classes of short-lived objects and the optimised code that relies on them, so every batch would
 * start half cold and rows would move with JIT luck. Every result goes into a sink the optimiser
 * cannot see through, and the last ones stay reachable, so no call can be optimised away.
 *
 * A measurement is taken `rounds` times; the rounds of the cells of one row are interleaved by the
 * caller where it can (see `timeRow` in context.ts), so each ratio is taken within one round and the
 * spread of a ratio over the rounds is the run-to-run spread a reader should expect.
 *
 * `cold: true` brings the forced collection back, before every batch: the GC-pressure rows.
 */

export type TimingOptions = {
  /** Wall time one batch should take, in milliseconds. */
  readonly sampleMs: number;
  /**
   * Batches per round. The round's time is the fastest of them: on cores shared with other work, a
   * slower batch is one that was interrupted, and every batch includes its share of minor GCs.
   */
  readonly samples: number;
  /** Rounds per measurement (each ratio is reported as the median over rounds, with its spread). */
  readonly rounds: number;
};

export const defaultTiming: TimingOptions = { sampleMs: 10, samples: 5, rounds: 3 };
export const quickTiming: TimingOptions = { sampleMs: 4, samples: 3, rounds: 2 };

const sink: unknown[] = new Array(64);
let sinkAt = 0;

/** Keeps a result reachable, so the work that produced it cannot be skipped. */
export function consume(value: unknown): void {
  sink[sinkAt] = value;
  sinkAt = (sinkAt + 1) & 63;
}

const collect = (globalThis as { gc?: () => void }).gc;

/** Whether `cold` measurements can force a collection (node started with --expose-gc). */
export const canCollect = collect !== undefined;

/** Runs a full garbage collection when node was started with --expose-gc; otherwise does nothing. */
export function collectGarbage(): void {
  if (collect !== undefined) collect();
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const MAX_BATCH = 1 << 22;

/** A synchronous operation ready to be timed: calibrated once, then sampled round after round. */
export type Timer = {
  /** One round: the nanoseconds per call of the fastest of `samples` batches. */
  round(): number;
};

/** Calibrates `run` (which doubles as its warm-up) and returns a timer for its rounds. */
export function timer(run: () => unknown, options: TimingOptions, cold = false): Timer {
  const target = options.sampleMs * 1e6;
  const batchTime = (batch: number): number => {
    if (cold) collectGarbage();
    const start = process.hrtime.bigint();
    for (let index = 0; index < batch; index++) consume(run());
    return Number(process.hrtime.bigint() - start);
  };
  let batch = 1;
  let elapsed = batchTime(batch);
  while (elapsed < target && batch < MAX_BATCH) {
    batch =
      elapsed <= 0
        ? batch * 10
        : Math.min(MAX_BATCH, Math.max(batch * 2, Math.ceil((batch * target) / elapsed)));
    elapsed = batchTime(batch);
  }
  batchTime(batch); // warm-up at the final batch size
  return {
    round() {
      const perCall: number[] = [];
      for (let sample = 0; sample < options.samples; sample++) perCall.push(batchTime(batch) / batch);
      return Math.min(...perCall);
    },
  };
}

/** The asynchronous twin of `Timer`. */
export type AsyncTimer = { round(): Promise<number> };

/** Calibrates an asynchronous `run` (awaited one call at a time, the calibration its warm-up). */
export async function asyncTimer(run: () => Promise<unknown>, options: TimingOptions): Promise<AsyncTimer> {
  const target = options.sampleMs * 1e6;
  const batchTime = async (batch: number): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let index = 0; index < batch; index++) consume(await run());
    return Number(process.hrtime.bigint() - start);
  };
  let batch = 1;
  let elapsed = await batchTime(batch);
  while (elapsed < target && batch < MAX_BATCH) {
    batch =
      elapsed <= 0
        ? batch * 10
        : Math.min(MAX_BATCH, Math.max(batch * 2, Math.ceil((batch * target) / elapsed)));
    elapsed = await batchTime(batch);
  }
  await batchTime(batch);
  return {
    async round() {
      const perCall: number[] = [];
      for (let sample = 0; sample < options.samples; sample++) perCall.push((await batchTime(batch)) / batch);
      return Math.min(...perCall);
    },
  };
}
