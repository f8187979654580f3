import { numRuns, seed, thorough } from "./helpers/tier";

/** Prints, once per run, what replays it. */
export default function setup(): void {
  console.log(
    `fast-check: seed ${seed}, ${numRuns} runs per property (${thorough ? "thorough" : "fast"} tier; FC_SEED and FC_NUM_RUNS override them)`,
  );
}
