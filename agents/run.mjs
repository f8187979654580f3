#!/usr/bin/env node
/**
 * npm run test:agents: the real coding agents through examples/node-gateway.mjs against a scripted
 * upstream of every protocol (lib/upstreams), over the two-turn tool task of lib/script.mjs. One
 * cell per agent × upstream protocol, plus one control per agent talking straight to a scripted
 * upstream of its own protocol (no gateway: the upstream's checks must pass the agent's own traffic).
 * Prints a table (cell, pass/fail, the first refused request with the upstream's reason, whether
 * the reasoning state came home) and exits non-zero when any cell fails.
 *
 *   node agents/run.mjs [--only=<agent>[:<upstream>],...] [--capture] [--timeout=<seconds>]
 *
 * --capture writes each agent's first and second task request, as the control cell recorded them,
 * to test/fixtures/agents/<agent>-<turn>.json. Logs of every cell: agents/.out/<cell>/.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AGENTS, killGroup, runAgent } from "./lib/agents.mjs";
import { startEgressGuard } from "./lib/egress.mjs";
import { makePng } from "./lib/png.mjs";
import { startRecorder } from "./lib/recorder.mjs";
import { DONE_TOKEN, NOTE_TEXT, plannedCalls } from "./lib/script.mjs";
import { startUpstream, UPSTREAMS } from "./lib/upstream.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const out = join(here, ".out");
const args = process.argv.slice(2);
const flag = (name) => args.find((arg) => arg.startsWith(`--${name}`))?.split("=")[1];
const capture = args.includes("--capture");
const timeoutMs = Number(flag("timeout") ?? 180) * 1000;
const only = flag("only")?.split(",");

if (!existsSync(join(root, "dist", "index.js"))) {
  console.error(
    "agents: the library is not built: run `npm run build` first (the example gateway imports dist/).",
  );
  process.exit(2);
}
for (const agent of Object.values(AGENTS)) {
  if (!existsSync(join(here, "node_modules", agent.package))) {
    console.error(
      `agents: ${agent.package} is not installed: run \`npm --prefix agents ci --ignore-scripts\`.`,
    );
    process.exit(2);
  }
}

const PROTOCOLS = ["messages", "chat", "generative", "responses"];
/** @type {{ agent: string; upstream: string; direct: boolean; rateLimitOnce: boolean }[]} */
const cells = [];
for (const agent of Object.keys(AGENTS)) {
  cells.push({ agent, upstream: AGENTS[agent].protocol, direct: true, rateLimitOnce: false });
  for (const upstream of PROTOCOLS) {
    // The 429 cell: Claude Code retries (Codex does not retry a 429: that is the agent).
    cells.push({
      agent,
      upstream,
      direct: false,
      rateLimitOnce: agent === "claude-code" && upstream === "chat",
    });
  }
}
const selected = cells.filter(
  (cell) =>
    only === undefined ||
    only.some((pick) => {
      const [agent, upstream] = pick.split(":");
      return (
        agent === cell.agent &&
        (upstream === undefined || upstream === cell.upstream || (upstream === "direct" && cell.direct))
      );
    }),
);

const cellName = (cell) => `${cell.agent}-${cell.direct ? "direct" : `via-gateway-${cell.upstream}`}`;

/** The example gateway as a user runs it, on a free port. */
function startGateway(env) {
  const child = spawn(process.execPath, [join(root, "examples", "node-gateway.mjs")], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout);
      if (match !== null) resolve({ url: match[1], stop: () => killGroup(child.pid), stderr: () => stderr });
    });
    child.on("exit", (code) => reject(new Error(`the gateway exited (${code}): ${stderr}`)));
  });
}

/** The task requests an agent sent, as recorded: [turn 1, turn 2]. */
function taskRequests(agentKey, exchanges) {
  const wire = UPSTREAMS[AGENTS[agentKey].protocol];
  const turns = [];
  for (const exchange of exchanges) {
    if (typeof exchange.body !== "object" || exchange.body === null) continue;
    const url = new URL(exchange.path, "http://agent");
    const route = wire.route(exchange.method, url.pathname, url.searchParams);
    if (route?.op !== "generate") continue;
    const view = wire.view(exchange.body, route);
    if (plannedCalls(view.tools, "/") === undefined) continue;
    const turn = view.results.length === 0 ? 0 : 1;
    if (turns[turn] === undefined && (turn === 0 || turns[0] !== undefined)) turns[turn] = exchange;
  }
  return turns;
}

async function runCell(cell, guard) {
  const name = cellName(cell);
  const dir = join(out, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // HOME and the working directory live outside the repository: an agent started inside a git
  // checkout reads its status and history into the prompt.
  const scratch = join(scratchRoot, name);
  const home = join(scratch, "home");
  const work = join(scratch, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "notes.txt"), NOTE_TEXT);
  writeFileSync(join(work, "pixel.png"), makePng());

  const upstream = await startUpstream({
    protocol: cell.upstream,
    workdir: work,
    seed: name,
    rateLimitOnce: cell.rateLimitOnce,
  });
  let gateway;
  try {
    if (!cell.direct) {
      gateway = await startGateway({
        UPSTREAM_URL: upstream.url,
        UPSTREAM_PROTOCOL: cell.upstream,
        UPSTREAM_KEY: "sk-upstream-harness",
        UPSTREAM_MODEL: UPSTREAMS[cell.upstream].model,
      });
    }
    const recorder = await startRecorder(gateway?.url ?? upstream.url);
    const egressBefore = guard.attempts.length;
    const agent = AGENTS[cell.agent];
    const run = await runAgent(agent.prepare(home, recorder.url), {
      cwd: work,
      home,
      proxy: guard.url,
      timeoutMs,
    });
    const egress = guard.attempts.slice(egressBefore);
    await recorder.close();
    const state = upstream.state;
    writeFileSync(
      join(dir, "upstream.json"),
      `${JSON.stringify(state, (_key, value) => (value instanceof Set || value instanceof Map ? [...value] : value), 2)}\n`,
    );
    writeFileSync(join(dir, "client.json"), `${JSON.stringify(recorder.exchanges, null, 2)}\n`);
    writeFileSync(join(dir, "agent.stdout"), run.stdout);
    writeFileSync(join(dir, "agent.stderr"), run.stderr);
    if (gateway !== undefined) writeFileSync(join(dir, "gateway.stderr"), gateway.stderr());
    return {
      cell,
      name,
      run,
      state,
      egress,
      exchanges: recorder.exchanges,
      losses: gateway?.stderr().match(/^loss /gm)?.length ?? 0,
    };
  } finally {
    gateway?.stop();
    await upstream.close();
  }
}

/** The cell's verdict: every check, each failed one with why. */
function judge(result) {
  const { run, state, egress, cell } = result;
  const failures = [];
  const turn1 = state.task.turns.find((turn) => turn.n === 1);
  const turn2 = state.task.turns.find((turn) => turn.n === 2);
  if (state.refused !== undefined) failures.push(`request ${state.refused.n} refused`);
  if (run.timedOut) failures.push(`agent timed out after ${Math.round(run.ms / 1000)} s`);
  else if (run.code !== 0) failures.push(`agent exited ${run.code ?? run.signal}`);
  if (turn1 === undefined) failures.push("turn 1 never reached the upstream");
  else if (turn2 === undefined) failures.push("turn 2 never reached the upstream");
  else {
    if (turn2.results < 2) failures.push(`turn 2 carried ${turn2.results} of 2 tool results`);
    if (!turn2.note) failures.push("the note's text did not arrive");
    if (!turn2.image) failures.push("the picture did not arrive");
  }
  if (state.task.back === "lost") failures.push(`reasoning state (${turn1.reasoning}) did not come home`);
  if (turn2 !== undefined && !run.stdout.includes(DONE_TOKEN))
    failures.push("the final answer did not reach the agent's output");
  if (cell.rateLimitOnce && !state.rateLimited) failures.push("the scripted 429 was never sent");
  if (egress.length > 0) failures.push(`tried to reach ${egress.join(", ")}`);
  return failures;
}

function reasoningCell(state) {
  const turn1 = state.task.turns.find((turn) => turn.n === 1);
  const turn2 = state.task.turns.find((turn) => turn.n === 2);
  if (state.protocol === "chat") return "n/a (chat has none)";
  if (turn1 === undefined) return "-";
  if (turn1.reasoning === "none") return "not asked";
  if (state.task.back === undefined) return `${turn1.reasoning}: issued, no turn 2`;
  return `${turn1.reasoning}: ${state.task.back}${turn2 === undefined ? " (turn 2 refused)" : ""}`;
}

function pad(text, width) {
  const value = String(text);
  return value.length > width ? `${value.slice(0, width - 1)}…` : value.padEnd(width);
}

const scratchRoot = mkdtempSync(join(tmpdir(), "gateway-protocols-agents-"));
const guard = await startEgressGuard();
const results = [];
try {
  for (const cell of selected) {
    process.stderr.write(`agents: ${cellName(cell)} …`);
    const result = await runCell(cell, guard);
    result.failures = judge(result);
    results.push(result);
    process.stderr.write(
      ` ${result.failures.length === 0 ? "pass" : "FAIL"} (${Math.round(result.run.ms / 1000)} s)\n`,
    );
  }
} finally {
  await guard.close();
  rmSync(scratchRoot, { recursive: true, force: true });
}

const header = ["cell", "result", "first refused request (upstream's reason)", "reasoning home", "notes"];
const widths = [34, 6, 80, 36, 90];
const lines = [header.map((text, i) => pad(text, widths[i])).join(" | ")];
lines.push(widths.map((width) => "-".repeat(width)).join("-|-"));
for (const result of results) {
  const { state, run } = result;
  const refused =
    state.refused === undefined
      ? "none"
      : `#${state.refused.n} ${state.refused.status}: ${state.refused.reason}`;
  const notes = [];
  if (result.cell.direct) notes.push("control, no gateway");
  if (result.cell.rateLimitOnce) {
    const retried = state.requests.some((request) => request.kind.startsWith("task") && request.n > 1);
    const header429 = result.exchanges.find((exchange) => exchange.status === 429);
    notes.push(
      `429 sent; ${retried ? "agent retried" : "no retry"}; retry-after at client: ${header429?.responseHeaders?.["retry-after"] ?? "no"}`,
    );
  }
  if (result.losses > 0) notes.push(`${result.losses} losses`);
  notes.push(`${state.requests.length} upstream requests`);
  if (result.failures.length > 0 && state.refused === undefined) notes.push(result.failures.join("; "));
  lines.push(
    [
      pad(result.name, widths[0]),
      pad(result.failures.length === 0 ? "pass" : "FAIL", widths[1]),
      pad(refused, widths[2]),
      pad(reasoningCell(state), widths[3]),
      pad(`${notes.join("; ")} (${Math.round(run.ms / 1000)} s)`, widths[4]),
    ].join(" | "),
  );
}
console.log(lines.join("\n"));
console.log("");
for (const result of results.filter((r) => r.failures.length > 0)) {
  console.log(`${result.name}: ${result.failures.join("; ")}`);
  if (result.state.refused !== undefined)
    console.log(`  refused: ${result.state.refused.status} ${result.state.refused.reason}`);
  console.log(`  logs: ${join("agents", ".out", result.name)}`);
}

writeFileSync(
  join(out, "report.json"),
  `${JSON.stringify(
    results.map((result) => ({
      cell: result.name,
      pass: result.failures.length === 0,
      failures: result.failures,
      refused: result.state.refused ?? null,
      reasoning: reasoningCell(result.state),
      turns: result.state.task.turns,
      egress: result.egress,
      losses: result.losses,
      agentExit: result.run.code,
      seconds: Math.round(result.run.ms / 1000),
    })),
    null,
    2,
  )}\n`,
);

if (capture) {
  const fixtures = join(root, "test", "fixtures", "agents");
  mkdirSync(fixtures, { recursive: true });
  const date = new Date().toISOString().slice(0, 10);
  for (const result of results.filter((r) => r.cell.direct)) {
    const agent = AGENTS[result.cell.agent];
    const turns = taskRequests(result.cell.agent, result.exchanges);
    for (const [index, exchange] of turns.entries()) {
      if (exchange === undefined) continue;
      const file = join(fixtures, `${result.cell.agent}-${index + 1}.json`);
      const fixture = {
        agent: agent.name,
        package: agent.package,
        version: agent.version(),
        protocol: agent.protocol,
        turn: index + 1,
        captured: date,
        method: exchange.method,
        path: exchange.path,
        headers: exchange.headers,
        body: exchange.body,
      };
      writeFileSync(file, `${JSON.stringify(fixture, null, 2)}\n`);
      console.log(`captured ${file.slice(root.length + 1)}`);
    }
  }
}

const passed = results.filter((result) => result.failures.length === 0).length;
console.log(`\nagents: ${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
