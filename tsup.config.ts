import { defineConfig } from "tsup";

export default defineConfig({
  // The toolkit is a second entry; shared code goes to a common chunk, so `testing` reuses the library
  // rather than carrying a copy, and only `testing` imports fast-check (an optional peer, never bundled).
  entry: { index: "src/index.ts", testing: "src/testing/index.ts" },
  splitting: true,
  format: ["esm", "cjs"],
  target: "es2022",
  sourcemap: true,
  clean: true,
  treeshake: true,
  dts: { compilerOptions: { ignoreDeprecations: "6.0" } },
});
