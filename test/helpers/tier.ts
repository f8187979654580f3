/**
 * The two test tiers. `npm test` is the fast loop (fixed seed, property runs sized to finish in about
 * a minute); `npm run test:full` is the thorough tier (10,000 runs per property, the package, the CLI
 * and the README's type checks). `FC_SEED` and `FC_NUM_RUNS` override the seed and the run count.
 */

/** True in the thorough tier (`npm run test:full`, or `TEST_TIER=full`). */
export const thorough = process.env.TEST_TIER === "full" || process.env.npm_lifecycle_event === "test:full";

/** The seed every property uses unless it names its own: fixed, so a run can be replayed. */
export const seed = Number(process.env.FC_SEED ?? 20_261_128);

/** Runs per property unless a test asks for its own count (see `runs`). */
export const numRuns = Number(process.env.FC_NUM_RUNS ?? (thorough ? 10_000 : 50));

/** A property's own run count: `full` in the thorough tier, a twentieth of it (at least `floor`) in the fast one. */
export function runs(full: number, floor = 10): number {
  return thorough ? full : Math.max(floor, Math.round(full / 20));
}
