/**
 * The built package where gateways run: Node 22, 24 and 26, Bun, Deno and Cloudflare's workerd, each
 * installed from the npm registry into a cache folder (once). The package is packed, installed into a
 * throwaway project, and on each runtime:
 *
 * - the probe (scripts/runtimes/probe.mjs) translates every fixture of test/fixtures in every
 *   direction — requests, responses, errors, each stream through `pipeThrough(createTranslateStream())`
 *   and event by event, `replay` and `accumulate` — and input around the nesting limit; its digest
 *   must equal the one Node 20 (this process's node) computes, and Node 20 with code generation
 *   forbidden (the compiled-validation fallback workerd imposes) must give the same;
 * - the example gateway (examples/node-gateway.mjs on Node; examples/web-gateway.ts by `Bun.serve`,
 *   `Deno.serve`, and as a Workers module on workerd) serves clients of every protocol in front of a
 *   scripted upstream of every protocol, answering what it answers on Node 20 (timestamps aside).
 *
 *   tsx scripts/runtimes.ts [--only node26,bun,…]     (needs `npm run build` first; CI runs it)
 *
 * GP_CACHE: the cache folder (default ~/.cache/gateway-protocols, or under XDG_CACHE_HOME; outside the
 * repository, so that `npm ci` keeps it); the runtimes go to runtimes/, the project to runtimes/project/.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, transform } from "esbuild";
import { startUpstream } from "../test/examples/upstream";
import { cacheDir, pack } from "./consumer-types";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

type Kind = "node" | "bun" | "deno" | "workerd";
type Runtime = { name: string; kind: Kind; spec: string; bin: string };

/** The registry package of each runtime for this platform; the path of its binary inside it. */
function runtimesFor(platform: NodeJS.Platform, arch: string): Runtime[] {
  const x64 = arch === "x64";
  if ((platform !== "linux" && platform !== "darwin") || (!x64 && arch !== "arm64")) {
    throw new Error(`scripts/runtimes.ts knows no runtime packages for ${platform}-${arch}`);
  }
  const node = `node-${platform}-${arch}`;
  const bun = `@oven/bun-${platform}-${x64 ? "x64" : "aarch64"}`;
  const deno = `@deno/${platform}-${x64 ? "x64" : "arm64"}${platform === "linux" ? "-glibc" : ""}`;
  const workerd = `@cloudflare/workerd-${platform}-${x64 ? "64" : "arm64"}`;
  return [
    { name: "node22", kind: "node", spec: `${node}@22`, bin: "bin/node" },
    { name: "node24", kind: "node", spec: `${node}@24`, bin: "bin/node" },
    { name: "node26", kind: "node", spec: `${node}@26`, bin: "bin/node" },
    { name: "bun", kind: "bun", spec: `${bun}@1`, bin: "bin/bun" },
    { name: "deno", kind: "deno", spec: `${deno}@2`, bin: "deno" },
    { name: "workerd", kind: "workerd", spec: `${workerd}@1`, bin: "bin/workerd" },
  ];
}

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs a command to its end (or `timeout` ms), collecting its output. */
function exec(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
) {
  return new Promise<Run>((done) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeout ?? 300_000,
        maxBuffer: 1 << 28,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        done({ code, stdout, stderr: error !== null && stderr === "" ? error.message : stderr });
      },
    );
  });
}

/** A free loopback port (workerd is told its port rather than choosing one). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** A server process: its base URL once it is ready, and how to stop it. */
type Server = { url: string; stop(): void; output(): string };

/** Starts `command` and waits for `listening on <url>` on its output, or for `url` to answer. */
async function serve(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; url?: string },
): Promise<Server> {
  const child: ChildProcess = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: "pipe" });
  let output = "";
  const stop = () => {
    if (child.exitCode === null && child.pid !== undefined) child.kill("SIGKILL");
  };
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${command} did not start in 30 s:\n${output}`)), 30_000);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        done(match[1]);
      }
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`${command} exited (${code}) before serving:\n${output}`));
    });
    if (options.url !== undefined) {
      const poll = async (): Promise<void> => {
        for (let attempt = 0; attempt < 300 && child.exitCode === null; attempt++) {
          try {
            await fetch(`${options.url}/v1/models`);
            clearTimeout(timer);
            done(options.url as string);
            return;
          } catch {
            await new Promise((wait) => setTimeout(wait, 100));
          }
        }
      };
      void poll();
    }
  });
  child.removeAllListeners("exit");
  return { url, stop, output: () => output };
}

/** The corpus the probe runs over: every fixture of test/fixtures with its text. */
function corpus(): {
  fixtures: { path: string; protocol: string; kind: string; http_status: number; text: string }[];
} {
  const dir = join(root, "test", "fixtures");
  const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8")) as {
    path: string;
    protocol: string;
    kind: string;
    http_status: number;
  }[];
  return {
    fixtures: index.map((entry) => ({
      path: entry.path,
      protocol: entry.protocol,
      kind: entry.kind,
      http_status: entry.http_status,
      text: readFileSync(join(dir, entry.path), "utf8"),
    })),
  };
}

type ProbeAnswer = {
  runtime: string;
  codegen: boolean;
  digest: string;
  count: number;
  cases: Record<string, string>;
};

/** The workerd configuration serving one Workers module on `port`, with text bindings, outbound to loopback. */
function workerdConfig(module: string, port: number, bindings: Record<string, string>): string {
  const texts = Object.entries(bindings)
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(", ");
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed ${JSON.stringify(module)})],
  compatibilityDate = "2025-09-01",
  bindings = [${texts}],
  globalOutbound = "loopback",
);
`;
}

/** Bundles `entry` of the project (resolving "gateway-protocols" to the installed package) as one Workers module. */
async function bundle(project: string, entry: string, out: string): Promise<void> {
  await build({
    absWorkingDir: project,
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    target: "es2022",
    logLevel: "silent",
  });
}

/** Starts workerd serving `module` (a bundled Workers module in `project`). */
async function serveWorkerd(
  binary: string,
  project: string,
  module: string,
  bindings: Record<string, string>,
): Promise<Server> {
  const port = await freePort();
  const config = `${module}.capnp`;
  writeFileSync(join(project, config), workerdConfig(module, port, bindings));
  return serve(binary, ["serve", config, "--experimental"], {
    cwd: project,
    env: process.env,
    url: `http://127.0.0.1:${port}`,
  });
}

// ─── The example gateway ──────────────────────────────────────────────────────────────────────────

const protocols = ["chat", "messages", "generative", "responses"] as const;

/** The client requests sent to each gateway: each protocol's text and tool answers, whole and streamed, an upstream 429 and a reset stream. */
function clientRequests(): { name: string; path: string; body: unknown }[] {
  const out: { name: string; path: string; body: unknown }[] = [];
  for (const client of protocols) {
    for (const [scenario, stream] of [
      ["text", false],
      ["text", true],
      ["tool", false],
      ["tool", true],
      ["rate-limit", false],
      ["reset", true],
    ] as const) {
      const model = `${scenario}-model`;
      const name = `${client} ${scenario}${stream ? " stream" : ""}`;
      if (client === "chat") {
        out.push({
          name,
          path: "/v1/chat/completions",
          body: { model, messages: [{ role: "user", content: "hi" }], ...(stream ? { stream } : {}) },
        });
      } else if (client === "messages") {
        out.push({
          name,
          path: "/v1/messages",
          body: {
            model,
            max_tokens: 64,
            messages: [{ role: "user", content: "hi" }],
            ...(stream ? { stream } : {}),
          },
        });
      } else if (client === "generative") {
        out.push({
          name,
          path: `/v1beta/models/${model}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
          body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
        });
      } else {
        out.push({
          name,
          path: "/v1/responses",
          body: { model, input: "hi", ...(stream ? { stream } : {}) },
        });
      }
    }
  }
  return out;
}

/** An answer without what the clock writes (the example stamps translated answers with the time). */
const timeless = (text: string): string => text.replace(/"(created|created_at|completed_at)":\d+/g, '"$1":0');

/**
 * How a stream ends: with an error event (the client protocol's: `error` in a data payload, a
 * messages `error` event, a responses `response.failed`), or otherwise (the last payload's type).
 */
function ending(body: string): string {
  const payloads = [...body.matchAll(/^data: ?(.*)$/gm)].map((match) => match[1] ?? "");
  const last = payloads.at(-1) ?? "";
  try {
    const event = JSON.parse(last) as { type?: string; error?: unknown };
    if (event.error !== undefined || event.type === "error" || event.type === "response.failed") {
      return "ends with an error event";
    }
    return `ends with ${event.type ?? Object.keys(event).join(",")}`;
  } catch {
    return `ends with ${last.slice(0, 40)}`;
  }
}

/**
 * Every client request through the gateway at `url`: `name → status content-type body`. A stream the
 * upstream resets is compared by how it ends: how much arrived before the reset, and the runtime's
 * words for the failure, vary from run to run and runtime to runtime.
 */
async function exchange(url: string): Promise<Record<string, string>> {
  const answers: Record<string, string> = {};
  for (const request of clientRequests()) {
    try {
      const response = await fetch(`${url}${request.path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: "Bearer sk-client",
          "x-api-key": "sk-client",
        },
        body: JSON.stringify(request.body),
      });
      const text = await response.text();
      const body = request.name.endsWith("reset stream") ? ending(text) : timeless(text);
      answers[request.name] = `${response.status} ${response.headers.get("content-type")} ${body}`;
    } catch (error) {
      answers[request.name] = `failed: ${(error as Error).message}`;
    }
  }
  return answers;
}

// ─── The matrix ───────────────────────────────────────────────────────────────────────────────────

export type RuntimeResult = {
  name: string;
  version: string;
  codegen: boolean | undefined;
  probe: { digest: string; count: number; same: boolean; differing: string[] } | { error: string };
  gateway: { answers: number; same: number; differing: string[] } | { error: string };
  seconds: number;
};

export async function checkRuntimes(
  options: { cache?: string; only?: string[]; log?: (line: string) => void } = {},
): Promise<{ reference: { version: string; digest: string; count: number }; results: RuntimeResult[] }> {
  const log = options.log ?? (() => undefined);
  const home = join(cacheDir(options.cache), "runtimes");
  mkdirSync(home, { recursive: true });
  const runtimes = runtimesFor(process.platform, process.arch).filter(
    (runtime) => options.only === undefined || options.only.includes(runtime.name),
  );

  // The runtimes, installed once (npm aliases, no install scripts: the platform packages hold the binaries).
  const binary = (runtime: Runtime) => join(home, "node_modules", runtime.name, runtime.bin);
  const missing = runtimes.filter((runtime) => !existsSync(binary(runtime)));
  if (missing.length > 0) {
    if (!existsSync(join(home, "package.json")))
      writeFileSync(join(home, "package.json"), '{ "private": true }\n');
    const started = Date.now();
    const specs = missing.map((runtime) => `${runtime.name}@npm:${runtime.spec}`);
    const installed = await exec(
      "npm",
      ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", ...specs],
      { cwd: home },
    );
    if (installed.code !== 0) throw new Error(`npm install ${specs.join(" ")} failed:\n${installed.stderr}`);
    log(`installed ${specs.join(", ")} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }

  // The throwaway project: the packed package, zod, and the probe and example files beside them.
  const project = join(home, "project");
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  const tarball = pack(project);
  writeFileSync(
    join(project, "package.json"),
    '{ "name": "runtimes-project", "private": true, "type": "module" }\n',
  );
  const zod = (
    JSON.parse(readFileSync(join(root, "node_modules", "zod", "package.json"), "utf8")) as { version: string }
  ).version;
  const installed = await exec(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", tarball, `zod@${zod}`],
    { cwd: project },
  );
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stderr}`);
  for (const file of ["probe.mjs", "probe-cli.mjs", "probe-worker.mjs", "serve-web.mjs"]) {
    cpSync(join(root, "scripts", "runtimes", file), join(project, file));
  }
  for (const file of ["gateway.mjs", "node-gateway.mjs", "web-gateway.ts"]) {
    cpSync(join(root, "examples", file), join(project, file));
  }
  writeFileSync(join(project, "corpus.json"), JSON.stringify(corpus()));
  await bundle(project, "probe-worker.mjs", "probe-worker.js");
  await bundle(project, "web-gateway.ts", "gateway-worker.js");
  // Deno strips no types under node_modules (where the cache is): Bun and Deno serve the example as
  // JavaScript, types stripped, importing gateway.mjs and the package as it does.
  const stripped = await transform(readFileSync(join(project, "web-gateway.ts"), "utf8"), { loader: "ts" });
  writeFileSync(join(project, "web-gateway.js"), stripped.code);

  const upstream = await startUpstream();
  const quiet = {
    ...process.env,
    DENO_NO_UPDATE_CHECK: "1",
    DENO_DIR: join(home, "deno-dir"),
    NO_COLOR: "1",
  };

  /** The probe on a runtime of the command line: `command args… probe-cli.mjs corpus.json`. */
  const probeCli = async (command: string, args: string[]): Promise<ProbeAnswer> => {
    const run = await exec(command, [...args, "probe-cli.mjs", "corpus.json"], { cwd: project, env: quiet });
    if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr.slice(0, 2000)}`);
    return JSON.parse(run.stdout) as ProbeAnswer;
  };

  /** The gateway on each upstream protocol, served by `start`: every client request's answer. */
  const gatewayAnswers = async (start: (env: Record<string, string>) => Promise<Server>) => {
    const answers: Record<string, string> = {};
    for (const upstreamProtocol of protocols) {
      const env = {
        UPSTREAM_URL: upstream.url,
        UPSTREAM_PROTOCOL: upstreamProtocol,
        UPSTREAM_KEY: "sk-upstream",
        PORT: "0",
      };
      const server = await start(env);
      try {
        for (const [name, answer] of Object.entries(await exchange(server.url))) {
          answers[`${upstreamProtocol} upstream, ${name} client`] = answer;
        }
      } finally {
        server.stop();
      }
    }
    return answers;
  };

  const nodeGateway = (node: string) => (env: Record<string, string>) =>
    serve(node, ["node-gateway.mjs"], { cwd: project, env: { ...quiet, ...env } });

  try {
    // Node 20, this process's node: the reference.
    const started = Date.now();
    const reference = await probeCli(process.execPath, []);
    const referenceAnswers = await gatewayAnswers(nodeGateway(process.execPath));
    log(
      `node ${process.versions.node} (reference): ${reference.count} cases, digest ${reference.digest.slice(0, 16)}, ${Object.keys(referenceAnswers).length} gateway answers (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    // The reference itself answers as the scripted upstream says: 429 for the rate limit, else 200
    // (a reset stream too: it ends with an error event, its status sent already).
    const wrong = Object.entries(referenceAnswers).filter(
      ([name, answer]) => !answer.startsWith(name.endsWith("rate-limit client") ? "429 " : "200 "),
    );
    if (wrong.length > 0) {
      throw new Error(
        `the reference gateway answered wrongly:\n${wrong.map(([name, answer]) => `${name}: ${answer.slice(0, 300)}`).join("\n")}`,
      );
    }
    const resets = Object.entries(referenceAnswers).filter(([name]) => name.endsWith("reset stream client"));
    if (!resets.every(([, answer]) => answer.endsWith("ends with an error event"))) {
      throw new Error(`a reset stream did not end with an error event: ${JSON.stringify(resets)}`);
    }

    const compare = (answer: ProbeAnswer) => ({
      digest: answer.digest,
      count: answer.count,
      same: answer.digest === reference.digest,
      differing: Object.keys({ ...reference.cases, ...answer.cases })
        .filter((id) => reference.cases[id] !== answer.cases[id])
        .slice(0, 20),
    });
    const compareGateway = (answers: Record<string, string>) => {
      const differing = Object.keys(referenceAnswers).filter(
        (name) => answers[name] !== referenceAnswers[name],
      );
      return {
        answers: Object.keys(answers).length,
        same: Object.keys(referenceAnswers).length - differing.length,
        differing: differing.map((name) => `${name}: ${(answers[name] ?? "(none)").slice(0, 300)}`),
      };
    };

    type Job = () => Promise<RuntimeResult>;
    const jobs: Job[] = [];
    // Node 20 again, with code generation from strings forbidden: the plain parsers workerd imposes.
    jobs.push(async () => {
      const begun = Date.now();
      const answer = await probeCli(process.execPath, ["--disallow-code-generation-from-strings"]).catch(
        (error: Error) => error,
      );
      return {
        name: "node20-nocodegen",
        version: process.versions.node,
        codegen: answer instanceof Error ? undefined : answer.codegen,
        probe: answer instanceof Error ? { error: answer.message } : compare(answer),
        gateway: { answers: 0, same: 0, differing: [] },
        seconds: (Date.now() - begun) / 1000,
      };
    });
    for (const runtime of runtimes) {
      jobs.push(async () => {
        const begun = Date.now();
        const bin = binary(runtime);
        let answer: ProbeAnswer | Error;
        let start: (env: Record<string, string>) => Promise<Server>;
        if (runtime.kind === "workerd") {
          answer = await (async () => {
            const server = await serveWorkerd(bin, project, "probe-worker.js", {});
            try {
              const response = await fetch(server.url, {
                method: "POST",
                body: readFileSync(join(project, "corpus.json")),
              });
              const text = await response.text();
              if (!response.ok)
                throw new Error(`${response.status}: ${text.slice(0, 2000)}\n${server.output()}`);
              return JSON.parse(text) as ProbeAnswer;
            } finally {
              server.stop();
            }
          })().catch((error: Error) => error);
          start = (env) => serveWorkerd(bin, project, "gateway-worker.js", env);
        } else if (runtime.kind === "node") {
          answer = await probeCli(bin, []).catch((error: Error) => error);
          start = nodeGateway(bin);
        } else {
          const args = runtime.kind === "deno" ? ["run", "--allow-read", "--allow-env", "--allow-net"] : [];
          answer = await probeCli(bin, args).catch((error: Error) => error);
          start = (env) =>
            serve(bin, [...args, "serve-web.mjs"], { cwd: project, env: { ...quiet, ...env } });
        }
        // `v24.1.0`, `1.2.3`, `deno 2.9.6 (stable, …)`, `workerd 2026-11-17`: the number.
        const version = (await exec(bin, ["--version"], { cwd: project })).stdout
          .split("\n")[0]
          ?.replace(/^(v|deno |workerd )/, "")
          .replace(/ \(.*$/, "")
          .trim();
        const gateway = await gatewayAnswers(start)
          .then(compareGateway)
          .catch((error: Error) => ({ error: error.message.slice(0, 2000) }));
        return {
          name: runtime.name,
          version: version ?? "?",
          codegen: answer instanceof Error ? undefined : answer.codegen,
          probe: answer instanceof Error ? { error: answer.message.slice(0, 3000) } : compare(answer),
          gateway,
          seconds: (Date.now() - begun) / 1000,
        };
      });
    }
    const results: RuntimeResult[] = new Array(jobs.length);
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const at = next++;
        const result = await (jobs[at] as Job)();
        results[at] = result;
        log(describe(result));
      }
    };
    await Promise.all(Array.from({ length: Math.min(availableParallelism(), jobs.length) }, worker));
    return {
      reference: { version: process.versions.node, digest: reference.digest, count: reference.count },
      results,
    };
  } finally {
    await upstream.close();
  }
}

/** One line of the report. */
export function describe(result: RuntimeResult): string {
  const probe =
    "error" in result.probe
      ? `probe FAILED: ${result.probe.error}`
      : `probe ${result.probe.same ? "identical" : "DIFFERENT"} (${result.probe.count} cases${result.probe.same ? "" : `; ${result.probe.differing.join("; ")}`})`;
  const gateway =
    "error" in result.gateway
      ? `gateway FAILED: ${result.gateway.error}`
      : result.gateway.answers === 0
        ? "gateway not served"
        : `gateway ${result.gateway.same}/${result.gateway.answers} answers identical${result.gateway.differing.length > 0 ? `:\n    ${result.gateway.differing.join("\n    ")}` : ""}`;
  const codegen =
    result.codegen === undefined ? "" : result.codegen ? ", codegen allowed" : ", codegen forbidden";
  return `${result.name} ${result.version}${codegen}: ${probe}; ${gateway} (${result.seconds.toFixed(0)} s)`;
}

/** Whether every runtime gave Node 20's answers. */
export function allSame(results: RuntimeResult[]): boolean {
  return results.every(
    (result) =>
      !("error" in result.probe) &&
      result.probe.same &&
      !("error" in result.gateway) &&
      result.gateway.differing.length === 0,
  );
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const at = process.argv.indexOf("--only");
  const only = at === -1 ? undefined : (process.argv[at + 1] ?? "").split(",");
  const { results } = await checkRuntimes({ only, log: (line) => console.log(line) });
  const ok = allSame(results);
  console.log(
    `runtimes: ${results.length} checked against node ${process.versions.node}: ${ok ? "all identical" : "DIFFERENCES"} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  if (!ok) process.exit(1);
}
