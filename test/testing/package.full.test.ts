/**
 * `gateway-protocols/testing` as users load it: from the built package (npm test builds it first, see
 * the "pretest" script), from ESM and from CommonJS; and the main entry never loads fast-check.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import { protocols } from "../../src/index";
import { lawNames } from "../../src/testing/index";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const run = async (args: string[], cwd = root): Promise<string> =>
  (await promisify(execFile)(process.execPath, args, { cwd, encoding: "utf8", maxBuffer: 1 << 24 })).stdout;

/** Few runs per law: the point is that every law runs from the built files, on every pair. */
const probe = (load: string) => `
  ${load}
  checkTranslator(library, { numRuns: 3 }).then((results) => {
    const pairs = new Set(results.map((result) => result.from + ">" + (result.to ?? "")));
    console.log(JSON.stringify({
      laws: [...new Set(results.map((result) => result.law))].sort(),
      pairs: pairs.size,
      count: results.length,
      failed: results.filter((result) => !result.ok),
    }));
  });
`;

describe("the built testing entry", () => {
  test("checkTranslator(library) holds for every law and pair, from ESM and from CommonJS alike", async () => {
    const [esm, cjs] = await Promise.all([
      run([
        "--input-type=module",
        "-e",
        probe(
          'import { checkTranslator } from "gateway-protocols/testing"; import * as library from "gateway-protocols";',
        ),
      ]),
      run([
        "-e",
        probe(
          'const { checkTranslator } = require("gateway-protocols/testing"); const library = require("gateway-protocols");',
        ),
      ]),
    ]);
    const fromEsm = JSON.parse(esm);
    expect(fromEsm.failed).toEqual([]);
    expect(fromEsm.laws).toEqual([...lawNames].sort());
    // Every (from, to) pair, same-protocol ones included, and each protocol on its own (replay, accumulate).
    expect(fromEsm.pairs).toBe(protocols.length ** 2 + protocols.length);
    expect(fromEsm.count).toBeGreaterThan(200);
    expect(JSON.parse(cjs)).toEqual(fromEsm);
  });
});

describe("the main entry and fast-check", () => {
  test("require('gateway-protocols') leaves fast-check unloaded, and the testing entry loads it", async () => {
    const loaded = (entry: string) =>
      run([
        "-e",
        `require(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(require.cache).some((file) => file.includes("fast-check"))));`,
      ]);
    expect(JSON.parse(await loaded("gateway-protocols"))).toBe(false);
    expect(JSON.parse(await loaded("gateway-protocols/testing"))).toBe(true);
  });

  describe("where fast-check is not installed (it is an optional peer)", () => {
    // The built package and its one dependency, zod, without fast-check beside them.
    const home = mkdtempSync(join(tmpdir(), "gateway-protocols-"));
    const project = join(home, "node_modules", "gateway-protocols");
    cpSync(join(root, "dist"), join(project, "dist"), { recursive: true });
    cpSync(join(root, "package.json"), join(project, "package.json"));
    symlinkSync(join(root, "node_modules", "zod"), join(home, "node_modules", "zod"), "dir");
    afterAll(() => rmSync(home, { recursive: true, force: true }));

    test("nothing above the temporary directory provides fast-check (the premise of the tests below)", () => {
      // Node looks for packages in every node_modules up to the root: a stray /tmp/node_modules
      // with fast-check in it would make the last test fail for a reason this names.
      const lookedIn = createRequire(join(project, "index.js")).resolve.paths("fast-check") ?? [];
      expect(lookedIn.filter((folder) => existsSync(join(folder, "fast-check")))).toEqual([]);
    });

    test("the main entry works from ESM and CommonJS", async () => {
      const use =
        'm.translateRequest("chat", "messages", { model: "x", messages: [{ role: "user", content: "hi" }] }).value.max_tokens';
      expect(
        await run(
          ["--input-type=module", "-e", `import * as m from "gateway-protocols"; console.log(${use});`],
          home,
        ),
      ).toBe("4096\n");
      expect(await run(["-e", `const m = require("gateway-protocols"); console.log(${use});`], home)).toBe(
        "4096\n",
      );
    });

    test("the testing entry says that fast-check is missing", async () => {
      await expect(run(["-e", 'require("gateway-protocols/testing")'], home)).rejects.toThrow(/fast-check/);
    });
  });
});
