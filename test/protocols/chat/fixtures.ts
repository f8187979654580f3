/** Loads this protocol's recorded fixtures (test/fixtures/index.json) for the chat tests. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "../../fixtures");

type Entry = { path: string; protocol: string; kind: string; http_status?: number };

export const chatFixtures: readonly Entry[] = (
  JSON.parse(readFileSync(join(root, "index.json"), "utf8")) as Entry[]
).filter((entry) => entry.protocol === "chat");

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(join(root, path), "utf8"));
}

/** The `data:` payloads of an .sse fixture, `[DONE]` kept as the string. */
export function readSseData(path: string): string[] {
  const text = readFileSync(join(root, path), "utf8");
  const out: string[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
    if (data.length > 0) out.push(data.join("\n"));
  }
  return out;
}

export function readSseEvents(path: string): unknown[] {
  return readSseData(path).map((data) => (data === "[DONE]" ? "[DONE]" : (JSON.parse(data) as unknown)));
}
