import fc from "fast-check";
import { numRuns, seed } from "./helpers/tier";

// One place sets how hard the laws are pushed and from which seed (test/helpers/tier.ts).
fc.configureGlobal({ numRuns, seed });
