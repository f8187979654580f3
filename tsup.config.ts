import { defineConfig } from "tsup";

export default defineConfig([
  {
    // The library: the main entry and the subpaths a bundler can take without the rest.
    entry: {
      index: "src/index.ts",
      embeddings: "src/embeddings/index.ts",
      music: "src/music/index.ts",
      sse: "src/stream/sse.ts",
      // The toolkit: only it imports fast-check (an optional peer, never bundled).
      testing: "src/testing/index.ts",
    },
    format: ["esm", "cjs"],
    target: "es2022",
    sourcemap: true,
    // The command line is built beside it at the same time: cleaning must not race it away.
    clean: ["!cli.js"],
    treeshake: true,
    // CommonJS too: one copy of shared code (TranslationError) whichever entries a program requires;
    // the toolkit reuses the library's chunks rather than carrying a copy.
    splitting: true,
    dts: { compilerOptions: { ignoreDeprecations: "6.0" } },
  },
  {
    // The command line: ESM only, importing the library by its package name (never a copy of it).
    entry: { cli: "bin/cli.ts" },
    format: ["esm"],
    target: "es2022",
    platform: "node",
    external: ["gateway-protocols"],
    banner: { js: "#!/usr/bin/env node" },
  },
]);
