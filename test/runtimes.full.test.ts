/**
 * The packed package on Node 22, 24 and 26, Bun, Deno and workerd (scripts/runtimes.ts, in the
 * thorough tier CI runs): every fixture translated in every direction and every stream through `pipeThrough`, input
 * around the nesting limit, byte for byte what Node 20 gives (and Node 20 without code generation,
 * as workerd runs it); the example gateway served by each answers what it answers on Node 20.
 * Installs the runtimes from the npm registry into ~/.cache/gateway-protocols on first use.
 */
import { describe, expect, test } from "vitest";
import { allSame, checkRuntimes, describe as line } from "../scripts/runtimes";

describe("the packed package where gateways run", () => {
  test(
    "every runtime gives Node 20's answers, and serves the example gateway",
    async () => {
      const { reference, results } = await checkRuntimes();
      expect(reference.count).toBeGreaterThan(1_000);
      expect(results.map((result) => result.name).sort()).toEqual(
        ["bun", "deno", "node20-nocodegen", "node22", "node24", "node26", "workerd"].sort(),
      );
      expect(allSame(results), results.map(line).join("\n")).toBe(true);
      // Where code generation is forbidden, the library ran on its plain parsers.
      expect(results.find((result) => result.name === "workerd")?.codegen).toBe(false);
      expect(results.find((result) => result.name === "node20-nocodegen")?.codegen).toBe(false);
      for (const result of results.filter((entry) => entry.name !== "node20-nocodegen")) {
        expect(result.gateway, result.name).toMatchObject({ answers: 96, same: 96 });
      }
    },
    20 * 60_000,
  );
});
