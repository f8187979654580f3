import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  target: "es2022",
  sourcemap: true,
  clean: true,
  treeshake: true,
  dts: { compilerOptions: { ignoreDeprecations: "6.0" } },
});
