import fc from "fast-check";

// One place sets how hard the laws are pushed; CI gets the same count as a developer.
fc.configureGlobal({ numRuns: Number(process.env.FC_NUM_RUNS ?? 200) });
