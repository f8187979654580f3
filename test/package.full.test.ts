import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

// The built package (npm test builds it first: see the "pretest" script), loaded as users load it.
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const probe = `
  const m = MODULE;
  const out = m.translateRequest("chat", "messages", { model: "x", messages: [{ role: "user", content: "hi" }] });
  console.log(JSON.stringify({ keys: Object.keys(m).sort(), max: out.value.max_tokens, parsed: m.chat.request.safeParse({}).success }));
`;

function run(args: string[]): { keys: string[]; max: number; parsed: boolean } {
  return JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }));
}

describe("the built package", () => {
  test("require('gateway-protocols') works from CommonJS", () => {
    const result = run(["-e", probe.replace("MODULE", 'require("gateway-protocols")')]);
    expect(result.max).toBe(4096);
    expect(result.parsed).toBe(false);
    expect(result.keys).toEqual(
      expect.arrayContaining(["translateRequest", "chat", "messages", "generative", "sse"]),
    );
  });
  test("import from 'gateway-protocols' works from ESM with the same surface", () => {
    const esm = run([
      "--input-type=module",
      "-e",
      `import * as m0 from "gateway-protocols"; ${probe.replace("MODULE", "m0")}`,
    ]);
    const cjs = run(["-e", probe.replace("MODULE", 'require("gateway-protocols")')]);
    expect(esm).toEqual(cjs);
  });
  test("works where code generation from strings is forbidden (edge runtimes): the plain parsers stand in", () => {
    const strict = run([
      "--disallow-code-generation-from-strings",
      "-e",
      probe.replace("MODULE", 'require("gateway-protocols")'),
    ]);
    const normal = run(["-e", probe.replace("MODULE", 'require("gateway-protocols")')]);
    expect(strict).toEqual(normal);
  });

  // One TranslationError class whichever entries a program loads (both formats split shared code into chunks).
  const subpaths = `
    let same = false;
    try { sse.createParser({ maxLineLength: 4 }).feed("data: 123456\\n"); } catch (error) { same = error instanceof m.TranslationError; }
    console.log(JSON.stringify({ same, music: music.validateAudioRequest === m.music.validateAudioRequest,
      dims: e.defaultDimensions === m.embeddings.defaultDimensions }));`;
  test("the subpaths load from CommonJS and share the main entry's code", () => {
    const load =
      'const m = require("gateway-protocols"), sse = require("gateway-protocols/sse"), music = require("gateway-protocols/music"), e = require("gateway-protocols/embeddings");';
    const out = execFileSync(process.execPath, ["-e", load + subpaths], { cwd: root, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({ same: true, music: true, dims: true });
  });
  test("the subpaths load from ESM and share the main entry's code", () => {
    const load =
      'import * as m from "gateway-protocols"; import * as sse from "gateway-protocols/sse"; import * as music from "gateway-protocols/music"; import * as e from "gateway-protocols/embeddings";';
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", load + subpaths], {
      cwd: root,
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({ same: true, music: true, dims: true });
  });

  test("npm pack ships dist, the command line, schemas/*.json, the license and changelog, nothing of src or test", () => {
    // --ignore-scripts: the listing of what is built, without prepack rebuilding dist under the other tests.
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const files: string[] = JSON.parse(out)[0].files.map((file: { path: string }) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "package.json",
        "dist/cli.js",
        "dist/index.js",
        "dist/index.cjs",
        "dist/music.js",
        "dist/sse.cjs",
        "schemas/index.json",
        "schemas/chat.request.json",
        "schemas/messages.streamEvent.json",
        "schemas/generative.errorBody.json",
      ]),
    );
    expect(files.filter((file) => !/^(dist|schemas)\//.test(file)).sort()).toEqual([
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      "examples/gateway.mjs",
      "examples/node-gateway.mjs",
      "examples/stream-route.mjs",
      "examples/web-gateway.ts",
      "package.json",
    ]);
  });

  test("the examples run from an installed package, as the README tells npm users", async () => {
    // The packed files in a project's node_modules; `gateway-protocols` resolves to the package itself.
    const project = mkdtempSync(join(tmpdir(), "gp-examples-"));
    try {
      const packed = execFileSync(
        "npm",
        ["pack", "--json", "--ignore-scripts", "--pack-destination", project],
        {
          cwd: root,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        },
      );
      const tarball = join(project, JSON.parse(packed)[0].filename);
      const installed = join(project, "node_modules", "gateway-protocols");
      mkdirSync(installed, { recursive: true });
      execFileSync("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"]);
      symlinkSync(join(root, "node_modules", "zod"), join(project, "node_modules", "zod"), "dir");
      const child = spawn(process.execPath, [join(installed, "examples", "node-gateway.mjs")], {
        cwd: project,
        env: { ...process.env, PORT: "0", UPSTREAM_URL: "http://127.0.0.1:9", UPSTREAM_PROTOCOL: "chat" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout?.on("data", (chunk: Buffer) => {
          out += chunk.toString("utf8");
          if (out.includes("\n")) resolve(out.trim());
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      child.kill();
      expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
