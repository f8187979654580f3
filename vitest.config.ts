import { defineConfig } from "vitest/config";
import { thorough } from "./test/helpers/tier";

// `*.full.test.ts` files (the package, the CLI, the type checks of the README and the declarations)
// need the complete build and run only in the thorough tier: `npm run test:full`.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: thorough ? [] : ["test/**/*.full.test.ts"],
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
    // The thorough tier's properties run 10,000 inputs each: minutes, not seconds, on a loaded machine.
    testTimeout: thorough ? 1_800_000 : 60_000,
    pool: "threads",
    // The library is imported once per worker, not once per file: most of a run was module loading.
    isolate: false,
  },
});
