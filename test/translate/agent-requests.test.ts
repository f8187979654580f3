/**
 * The requests the three coding agents really send (test/fixtures/agents: Claude Code, Codex CLI and
 * Gemini CLI, the first and the second turn of a tool task, captured by `npm run test:agents --
 * --capture`), each translated to every other protocol. Each result is a valid request of the target
 * and every loss points at a field of the input (a synthesized one at the object it was added to). The losses are listed in the test names and in the
 * assertion messages: issue 30's acceptance ("no loss of anything the target accepts") reads them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { at, parsePointer, resolvePointer } from "../../src/common/pointer";
import {
  chat,
  generative,
  type Loss,
  messages,
  type Protocol,
  protocols,
  responses,
  translateRequest,
} from "../../src/index";
import { fixturesDir } from "../helpers/fixtures";

type Captured = {
  file: string;
  agent: string;
  version: string;
  protocol: Protocol;
  turn: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
};

const dir = join(fixturesDir, "agents");
const captured: Captured[] = readdirSync(dir)
  .filter((file) => file.endsWith(".json"))
  .sort()
  .map((file) => ({ file, ...JSON.parse(readFileSync(join(dir, file), "utf8")) }));

const requestSchemas = {
  chat: chat.request,
  messages: messages.request,
  generative: generative.request,
  responses: responses.request,
};

/** The model and stream flag a generative request carries in its path. */
function pathOptions(request: Captured): { model?: string; stream?: boolean } {
  const match = /\/models\/([^:?]+):(\w+)/.exec(request.path);
  if (request.protocol !== "generative" || match === null) return {};
  return { model: decodeURIComponent(match[1] ?? ""), stream: match[2] === "streamGenerateContent" };
}

const translate = (request: Captured, to: Protocol) =>
  translateRequest(request.protocol, to, request.body, pathOptions(request));

/** A loss path resolves in the input; for a synthesized value (absent by definition), its parent does. */
function resolves(input: unknown, loss: Loss): boolean {
  if (resolvePointer(input, loss.path).found) return true;
  if (loss.kind !== "synthesized") return false;
  const parent = parsePointer(loss.path).slice(0, -1);
  return resolvePointer(input, at("", ...parent)).found;
}

const listed = (losses: readonly Loss[]) =>
  losses.map((loss) => `  ${loss.kind} ${loss.path || "/"}: ${loss.message}`).join("\n");

describe("the captured agent requests", () => {
  test("are the first and second turn of each of the three agents, without credentials", () => {
    expect(captured.map((request) => request.file)).toEqual([
      "claude-code-1.json",
      "claude-code-2.json",
      "codex-1.json",
      "codex-2.json",
      "gemini-cli-1.json",
      "gemini-cli-2.json",
    ]);
    expect(captured.map((request) => [request.agent, request.protocol])).toEqual([
      ["Claude Code", "messages"],
      ["Claude Code", "messages"],
      ["Codex CLI", "responses"],
      ["Codex CLI", "responses"],
      ["Gemini CLI", "generative"],
      ["Gemini CLI", "generative"],
    ]);
    for (const request of captured) {
      for (const name of ["authorization", "x-api-key", "x-goog-api-key"]) {
        expect([undefined, "<redacted>"], `${request.file} ${name}`).toContain(request.headers[name]);
      }
      expect(requestSchemas[request.protocol].safeParse(request.body).success, request.file).toBe(true);
    }
  });

  test("the second turns answer the first turn's two parallel calls, a picture among the results", () => {
    for (const request of captured.filter((candidate) => candidate.turn === 2)) {
      const text = JSON.stringify(request.body);
      expect(text, request.file).toContain("NOTE-7F3A-42");
      expect(text, request.file).toContain("iVBORw0KGgo");
    }
  });
});

for (const request of captured) {
  describe(`${request.file} (${request.agent} ${request.version}, ${request.protocol})`, () => {
    for (const to of protocols.filter((protocol) => protocol !== request.protocol)) {
      // Translated once at collection so that the test name can say how many losses there are.
      let summary: string;
      try {
        summary = `${translate(request, to).losses.length} losses`;
      } catch (error) {
        summary = `throws: ${(error as Error).message.slice(0, 80)}`;
      }
      test(`→ ${to}: ${summary}`, () => {
        const { value, losses } = translate(request, to);
        const report = `${request.file} → ${to}, ${losses.length} losses:\n${listed(losses)}`;
        const parsed = requestSchemas[to].safeParse(value);
        expect(parsed.success ? [] : parsed.error.issues, `not a valid ${to} request\n${report}`).toEqual([]);
        const unresolved = losses.filter((loss) => !resolves(request.body, loss));
        expect(unresolved, `losses that point at nothing in the input\n${report}`).toEqual([]);
      });
    }
  });
}
