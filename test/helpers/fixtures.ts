import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Protocol } from "../../src/index";
import { protocols } from "../../src/protocols/index";

export type { Protocol };

/**
 * A protocol with recorded fixtures. A protocol may have fixtures before it is wired into the library
 * (as responses had, issue 15); today every one is, so this is `Protocol`.
 */
export type FixtureProtocol = Protocol;

export type FixtureEntry = {
  path: string;
  protocol: FixtureProtocol;
  kind: "request" | "response" | "stream" | "error";
  provider: string;
  scenario: string;
  http_status: number;
  content_type: string;
  url: string;
};

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

export const fixtureIndex: FixtureEntry[] = JSON.parse(readFileSync(join(fixturesDir, "index.json"), "utf8"));

export function fixtures(kind: FixtureEntry["kind"], protocol?: FixtureProtocol): FixtureEntry[] {
  return fixtureIndex.filter(
    (entry) => entry.kind === kind && (protocol === undefined || entry.protocol === protocol),
  );
}

/** Every protocol the fixture index holds, wired into the library or not. */
export const fixtureProtocols: readonly FixtureProtocol[] = [
  ...new Set(fixtureIndex.map((entry) => entry.protocol)),
];

export type WiredEntry = FixtureEntry & { protocol: Protocol };

/** Whether the library translates the entry's protocol (it is in `protocols`, src/protocols/index.ts). */
export function isWired(entry: FixtureEntry): entry is WiredEntry {
  return (protocols as readonly string[]).includes(entry.protocol);
}

/** The fixtures of protocols the library translates: what the translation walks iterate over. */
export function wiredFixtures(kind: FixtureEntry["kind"]): WiredEntry[] {
  return fixtures(kind).filter(isWired);
}

export function readFixture(entry: FixtureEntry): string {
  return readFileSync(join(fixturesDir, entry.path), "utf8");
}

export function readJsonFixture(entry: FixtureEntry): unknown {
  return JSON.parse(readFixture(entry));
}

/**
 * The `data:` payloads of an SSE body, by a deliberately plain reading (not our parser): events are
 * separated by blank lines, data lines joined with "\n".
 */
export function sseDataPayloads(body: string): string[] {
  const payloads: string[] = [];
  let data: string[] = [];
  for (const line of body.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length > 0) payloads.push(data.join("\n"));
      data = [];
    } else if (line.startsWith("data:")) {
      data.push(line.slice(5).replace(/^ /, ""));
    }
  }
  if (data.length > 0) payloads.push(data.join("\n"));
  return payloads;
}

/** The parsed events of a stream fixture (`[DONE]` stays the string "[DONE]"). */
export function streamEvents(entry: FixtureEntry): unknown[] {
  return sseDataPayloads(readFixture(entry)).map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

/** The parsed events of the stream fixture at `path` (relative to test/fixtures). */
export function recordedEvents(path: string): unknown[] {
  const entry = fixtureIndex.find((item) => item.path === path);
  if (entry === undefined) throw new Error(`no fixture ${path} in test/fixtures/index.json`);
  return streamEvents(entry);
}

/** The model id of a generative request fixture, from its URL (`/models/{model}:method`). */
export function generativeModel(entry: FixtureEntry): string | undefined {
  const match = /\/models\/([^?]+):[A-Za-z]+/.exec(entry.url);
  return match?.[1];
}

/**
 * What a gateway would have stored for a recorded responses request that continues an earlier
 * response (`previous_response_id`, `conversation`): the user turn that began it and the calls its
 * function outputs answer. The library keeps no state, so a translation needs it in `options.history`;
 * `undefined` for any other request.
 */
export function storedHistory(entry: FixtureEntry, body: unknown): unknown[] | undefined {
  if (entry.protocol !== "responses") return undefined;
  const request = body as { previous_response_id?: unknown; conversation?: unknown; input?: unknown };
  if (typeof request.previous_response_id !== "string" && request.conversation == null) return undefined;
  const input = Array.isArray(request.input) ? (request.input as { type?: string; call_id?: string }[]) : [];
  const calls = input
    .filter((item) => item.type === "function_call_output")
    .map((item) => ({ type: "function_call", call_id: item.call_id, name: "tool", arguments: "{}" }));
  return [{ role: "user", content: "Earlier question" }, ...calls];
}
