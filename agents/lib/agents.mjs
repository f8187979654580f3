/**
 * The three coding agents as installed by agents/package.json, each run non-interactively in a
 * throwaway HOME and scratch working directory, pointed at one base URL, with telemetry, update
 * checks and plugin syncs off, and the egress guard as their proxy for anything else.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PROMPT } from "./script.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const modules = join(here, "..", "node_modules");
const require = createRequire(join(here, "..", "package.json"));

/** @param {string} name */
const versionOf = (name) => JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")).version;

/**
 * Claude Code ships its binary in a platform package; its postinstall only copies it over a
 * placeholder, so the harness runs the platform binary itself (installed with --ignore-scripts).
 */
function claudeBinary() {
  const suffix = `${platform()}-${arch()}`;
  try {
    return require.resolve(`@anthropic-ai/claude-code-${suffix}/claude`);
  } catch {
    return require.resolve(`@anthropic-ai/claude-code-${suffix}-musl/claude`);
  }
}

/**
 * @typedef {{
 *   name: string; protocol: "messages" | "responses" | "generative"; package: string;
 *   version(): string;
 *   prepare(home: string, baseUrl: string): { command: string; args: string[]; env: Record<string, string> };
 * }} Agent
 */

/** @type {Record<string, Agent>} */
export const AGENTS = {
  "claude-code": {
    name: "Claude Code",
    protocol: "messages",
    package: "@anthropic-ai/claude-code",
    version: () => versionOf("@anthropic-ai/claude-code"),
    prepare: (_home, baseUrl) => ({
      command: claudeBinary(),
      args: ["-p", PROMPT, "--allowedTools", "Read", "--max-turns", "4", "--output-format", "text"],
      env: {
        IS_SANDBOX: "1",
        ANTHROPIC_BASE_URL: baseUrl,
        ANTHROPIC_API_KEY: "sk-ant-agent-harness",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
      },
    }),
  },
  codex: {
    name: "Codex CLI",
    protocol: "responses",
    package: "@openai/codex",
    version: () => versionOf("@openai/codex"),
    prepare(home, baseUrl) {
      const codexHome = join(home, ".codex");
      mkdirSync(codexHome, { recursive: true });
      // A custom provider speaks only the Responses wire API. Plugins off: their startup sync
      // reaches GitHub and ChatGPT. No retries: a refused or broken turn shows as it is.
      writeFileSync(
        join(codexHome, "config.toml"),
        [
          'model = "gpt-5.5-codex"',
          'model_provider = "harness"',
          "check_for_update_on_startup = false",
          "",
          "[features]",
          "plugins = false",
          "remote_plugin = false",
          "",
          "[analytics]",
          "enabled = false",
          "",
          "[model_providers.harness]",
          'name = "agent harness"',
          `base_url = "${baseUrl}/v1"`,
          'env_key = "HARNESS_API_KEY"',
          'wire_api = "responses"',
          "request_max_retries = 0",
          "stream_max_retries = 0",
          "",
        ].join("\n"),
      );
      return {
        command: process.execPath,
        args: [
          join(modules, "@openai", "codex", "bin", "codex.js"),
          "exec",
          "--skip-git-repo-check",
          "--sandbox",
          "read-only",
          PROMPT,
        ],
        env: { CODEX_HOME: codexHome, HARNESS_API_KEY: "sk-agent-harness" },
      };
    },
  },
  "gemini-cli": {
    name: "Gemini CLI",
    protocol: "generative",
    package: "@google/gemini-cli",
    version: () => versionOf("@google/gemini-cli"),
    prepare(home, baseUrl) {
      mkdirSync(join(home, ".gemini"), { recursive: true });
      writeFileSync(
        join(home, ".gemini", "settings.json"),
        `${JSON.stringify(
          {
            security: { auth: { selectedType: "gemini-api-key" } },
            privacy: { usageStatisticsEnabled: false },
            telemetry: { enabled: false },
            general: { disableAutoUpdate: true, disableUpdateNag: true },
          },
          null,
          2,
        )}\n`,
      );
      return {
        command: process.execPath,
        args: [
          join(modules, "@google", "gemini-cli", "bundle", "gemini.js"),
          "-p",
          PROMPT,
          "-m",
          "gemini-3.1-pro-preview",
        ],
        env: {
          GEMINI_API_KEY: "agent-harness-key",
          GOOGLE_GEMINI_BASE_URL: baseUrl,
          GEMINI_CLI_TRUST_WORKSPACE: "true",
        },
      };
    },
  },
};

/**
 * Runs an agent to its end or its timeout, in its own process group (killed whole on timeout).
 * @param {{ command: string; args: string[]; env: Record<string, string> }} launch
 * @param {{ cwd: string; home: string; proxy: string; timeoutMs: number }} options
 * @returns {Promise<{ code: number | null; signal: string | null; timedOut: boolean; stdout: string; stderr: string; ms: number }>}
 */
export function runAgent(launch, { cwd, home, proxy, timeoutMs }) {
  const tmp = join(home, "tmp");
  mkdirSync(tmp, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    TMPDIR: tmp,
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    HTTPS_PROXY: proxy,
    HTTP_PROXY: proxy,
    https_proxy: proxy,
    http_proxy: proxy,
    NO_PROXY: "127.0.0.1,localhost,::1",
    no_proxy: "127.0.0.1,localhost,::1",
    ...launch.env,
  };
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(launch.command, launch.args, {
      cwd,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on("error", (error) => {
      stderr += `\nspawn error: ${error.message}`;
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // Whatever the agent left running in its group goes with it.
      killGroup(child.pid);
      resolve({ code, signal, timedOut, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** @param {number | undefined} pid */
export function killGroup(pid) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {}
}
