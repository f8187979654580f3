/** Starts examples/node-gateway.mjs as a user runs it: a child process on loopback (PORT=0: a free port). */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export type Gateway = { url: string; child: ChildProcess; stderr: () => string };

/** Starts the example and waits for its `listening on` line. */
export function startGateway(env: Record<string, string>): Promise<Gateway> {
  const child = spawn(process.execPath, [join(root, "examples", "node-gateway.mjs")], {
    cwd: root,
    env: { ...process.env, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout);
      if (match?.[1] !== undefined) resolve({ url: match[1], child, stderr: () => stderr });
    });
    child.on("exit", (code) => reject(new Error(`the gateway exited (${code}): ${stderr}`)));
  });
}
