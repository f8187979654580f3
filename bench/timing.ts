/**
 * The timing loop: calibrate a batch size until one batch takes a target time, discard a warm-up
 * batch, then take several batches and keep the median time per call. Every result goes into a
 * sink the optimiser cannot see through, so no call can be optimised away.
 */

export type Measurement = {
  /** Median nanoseconds per call. */
  readonly ns: number;
  /** Calls per batch. */
  readonly batch: number;
  /** Batches kept (the median is taken over these). */
  readonly samples: number;
  /** (max - min) / median over the kept batches, as a rough spread. */
  readonly spread: number;
};

export type TimingOptions = {
  /** Wall time one batch should take, in milliseconds. */
  readonly sampleMs: number;
  /** Batches to keep. */
  readonly samples: number;
};

export const defaultTiming: TimingOptions = { sampleMs: 20, samples: 9 };
export const quickTiming: TimingOptions = { sampleMs: 5, samples: 5 };

const sink: unknown[] = new Array(64);
let sinkAt = 0;

/** Keeps a result reachable, so the work that produced it cannot be skipped. */
export function consume(value: unknown): void {
  sink[sinkAt] = value;
  sinkAt = (sinkAt + 1) & 63;
}

const collect = (globalThis as { gc?: () => void }).gc;

/** Runs a full garbage collection when node was started with --expose-gc; otherwise does nothing. */
export function collectGarbage(): void {
  if (collect !== undefined) collect();
}

function summarize(perCall: number[], batch: number): Measurement {
  const sorted = [...perCall].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  const spread = median > 0 ? ((sorted[sorted.length - 1] ?? 0) - (sorted[0] ?? 0)) / median : 0;
  return { ns: median, batch, samples: sorted.length, spread };
}

const MAX_BATCH = 1 << 22;

/** Times a synchronous call. */
export function measure(run: () => unknown, options: TimingOptions = defaultTiming): Measurement {
  const target = options.sampleMs * 1e6;
  const batchTime = (batch: number): number => {
    const start = process.hrtime.bigint();
    for (let index = 0; index < batch; index++) consume(run());
    return Number(process.hrtime.bigint() - start);
  };
  collectGarbage();
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
  const perCall: number[] = [];
  for (let sample = 0; sample < options.samples; sample++) perCall.push(batchTime(batch) / batch);
  return summarize(perCall, batch);
}

/** Times an asynchronous call (awaited one at a time). */
export async function measureAsync(
  run: () => Promise<unknown>,
  options: TimingOptions = defaultTiming,
): Promise<Measurement> {
  const target = options.sampleMs * 1e6;
  const batchTime = async (batch: number): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let index = 0; index < batch; index++) consume(await run());
    return Number(process.hrtime.bigint() - start);
  };
  collectGarbage();
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
  const perCall: number[] = [];
  for (let sample = 0; sample < options.samples; sample++) perCall.push((await batchTime(batch)) / batch);
  return summarize(perCall, batch);
}
