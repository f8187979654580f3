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

// ─── Issue 30's acceptance: what each target loses of each agent's request, and why ────────────────

/** The upstream model a gateway asks for in each protocol (options.targetModel): current models. */
const TARGET_MODEL: Record<Protocol, string> = {
  chat: "gpt-5.5",
  messages: "claude-sonnet-4-6",
  generative: "gemini-3.1-pro-preview",
  responses: "gpt-5.5",
};

/**
 * Every loss left, by code, with why the target has no place for it. A code not here fails the test
 * below: a new loss of an agent's request needs a reason, or a fix.
 */
const WHY: Record<string, string> = {
  "cache_control.dropped":
    "generative has no per-request cache hint (its cache is cachedContent, made beforehand); chat and responses take them as prompt_cache_breakpoint",
  "client_metadata.dropped":
    "Codex's own responses field: no other protocol has request metadata of that kind",
  "content.approximated":
    "chat tool messages take text only (a picture moves to a user message after them); generative has only systemInstruction for a system turn",
  "messages.approximated":
    "generative has only systemInstruction: a system turn mid-conversation moves there",
  "content.synthesized":
    "Gemini 3 requires a thought signature on a replayed call: the documented skip value",
  "input.synthesized": "Gemini 3 requires a thought signature on a replayed call: the documented skip value",
  "context_management.dropped":
    "Anthropic's context editing (clear_thinking) has no equivalent in chat, generative or responses",
  "defer_loading.dropped":
    "chat and generative have no tool search: a deferred tool is offered from the start",
  "id.dropped": "responses item ids name stored items; other protocols have no item ids",
  "status.dropped": "an item's status is responses' own",
  "max_tokens.synthesized": "the messages API requires max_tokens; the agent gave none",
  "media.detail.dropped": "image detail (original) has no messages or generative field",
  "output.approximated": "chat tool messages take text only: the picture moves to a user message after them",
  "output_config.dropped":
    "an effort set by a system turn mid-conversation has no place in any other protocol",
  "parallel_tool_calls.dropped": "generative has no switch for parallel calls",
  "parts.approximated":
    "a JSON function response goes to messages and responses as its JSON text (they take text)",
  "prompt_cache_key.dropped":
    "messages caches by cache_control breakpoints and generative by cachedContent, neither by a key",
  "verbosity.dropped": "messages and generative have no verbosity setting",
  "reasoning.include.dropped": "OpenAI's chat returns no reasoning text or summary to ask for",
  "temperature.dropped": "the messages API rejects temperature with extended thinking",
  "topP.dropped": "the messages API rejects top_p with extended thinking",
  "topK.dropped": "OpenAI's chat and responses have no top_k; messages rejects it with extended thinking",
  "thinking.foreign": "reasoning state validates only at the provider that issued it",
  "thinking.signature.foreign": "a signature validates only at the provider that issued it",
  "thinkingConfig.dropped":
    "the messages API requires the last tool-use turn to start with its own thinking block, which a Gemini turn cannot give: thinking goes off",
  "effort.dropped":
    "the messages API requires the last tool-use turn to start with its own thinking block, which an OpenAI turn cannot give: thinking goes off",
  "tool.format.dropped": "messages and generative have no grammar-constrained (free-form) tools",
  "tools.dropped": "chat has no web search tool",
  "tools.approximated": "each target's own web search tool, with its default settings",
  "user_id.dropped": "generative has no end-user field",
};

/** The losses of each captured request toward each other protocol, as `code path`. */
const EXPECTED: Record<string, Partial<Record<Protocol, string[]>>> = {
  "claude-code-1.json": {
    chat: [
      "context_management.dropped /context_management",
      "output_config.dropped /messages/1/output_config",
      "defer_loading.dropped /tools/10/defer_loading",
    ],
    generative: [
      "context_management.dropped /context_management",
      "output_config.dropped /messages/1/output_config",
      "cache_control.dropped /system/1/cache_control",
      "cache_control.dropped /system/2/cache_control",
      "cache_control.dropped /messages/1/content/0/cache_control",
      "content.approximated /messages/1/content/0",
      "user_id.dropped /metadata/user_id",
      "defer_loading.dropped /tools/10/defer_loading",
    ],
    responses: [
      "context_management.dropped /context_management",
      "output_config.dropped /messages/1/output_config",
    ],
  },
  "claude-code-2.json": {
    chat: [
      "context_management.dropped /context_management",
      "output_config.dropped /messages/1/output_config",
      "thinking.signature.foreign /messages/2/content/0/signature",
      "content.approximated /messages/3/content/1/content/0",
      "defer_loading.dropped /tools/10/defer_loading",
    ],
    generative: [
      "context_management.dropped /context_management",
      "output_config.dropped /messages/1/output_config",
      "cache_control.dropped /system/1/cache_control",
      "cache_control.dropped /system/2/cache_control",
      "messages.approximated /messages/1",
      "thinking.foreign /messages/2/content/0",
      "cache_control.dropped /messages/3/content/1/cache_control",
      "content.synthesized /messages/2/content/1",
      "user_id.dropped /metadata/user_id",
      "defer_loading.dropped /tools/10/defer_loading",
    ],
    responses: [
      "context_management.dropped /context_management",
      "output_config.dropped /messages/1/output_config",
      "thinking.foreign /messages/2/content/0",
    ],
  },
  "codex-1.json": {
    chat: [
      "client_metadata.dropped /client_metadata",
      "id.dropped /input/0/id",
      "id.dropped /input/1/id",
      "id.dropped /input/2/id",
      "id.dropped /input/3/id",
      "tools.dropped /tools/9",
    ],
    messages: [
      "client_metadata.dropped /client_metadata",
      "id.dropped /input/0/id",
      "id.dropped /input/1/id",
      "id.dropped /input/2/id",
      "id.dropped /input/3/id",
      "tool.format.dropped /tools/3/format",
      "max_tokens.synthesized /max_tokens",
      "tools.approximated /tools/9",
      "prompt_cache_key.dropped /prompt_cache_key",
      "verbosity.dropped /text/verbosity",
    ],
    generative: [
      "client_metadata.dropped /client_metadata",
      "id.dropped /input/0/id",
      "id.dropped /input/1/id",
      "id.dropped /input/2/id",
      "id.dropped /input/3/id",
      "tool.format.dropped /tools/3/format",
      "parallel_tool_calls.dropped /parallel_tool_calls",
      "prompt_cache_key.dropped /prompt_cache_key",
      "verbosity.dropped /text/verbosity",
      "tools.approximated /tools/9",
    ],
  },
  "codex-2.json": {
    chat: [
      "client_metadata.dropped /client_metadata",
      "id.dropped /input/0/id",
      "id.dropped /input/1/id",
      "id.dropped /input/2/id",
      "id.dropped /input/3/id",
      "id.dropped /input/4/id",
      "status.dropped /input/5/status",
      "id.dropped /input/5/id",
      "status.dropped /input/6/status",
      "id.dropped /input/6/id",
      "id.dropped /input/7/id",
      "id.dropped /input/8/id",
      "thinking.signature.foreign /input/4/encrypted_content",
      "output.approximated /input/8/output/0",
      "tools.dropped /tools/9",
    ],
    messages: [
      "client_metadata.dropped /client_metadata",
      "id.dropped /input/0/id",
      "id.dropped /input/1/id",
      "id.dropped /input/2/id",
      "id.dropped /input/3/id",
      "id.dropped /input/4/id",
      "status.dropped /input/5/status",
      "id.dropped /input/5/id",
      "status.dropped /input/6/status",
      "id.dropped /input/6/id",
      "id.dropped /input/7/id",
      "id.dropped /input/8/id",
      "tool.format.dropped /tools/3/format",
      "thinking.foreign /input/4",
      "media.detail.dropped /input/8/output/0",
      "max_tokens.synthesized /max_tokens",
      "effort.dropped /reasoning/effort",
      "tools.approximated /tools/9",
      "prompt_cache_key.dropped /prompt_cache_key",
      "verbosity.dropped /text/verbosity",
    ],
    generative: [
      "client_metadata.dropped /client_metadata",
      "id.dropped /input/0/id",
      "id.dropped /input/1/id",
      "id.dropped /input/2/id",
      "id.dropped /input/3/id",
      "id.dropped /input/4/id",
      "status.dropped /input/5/status",
      "id.dropped /input/5/id",
      "status.dropped /input/6/status",
      "id.dropped /input/6/id",
      "id.dropped /input/7/id",
      "id.dropped /input/8/id",
      "tool.format.dropped /tools/3/format",
      "thinking.foreign /input/4",
      "media.detail.dropped /input/8/output/0",
      "input.synthesized /input/5",
      "parallel_tool_calls.dropped /parallel_tool_calls",
      "prompt_cache_key.dropped /prompt_cache_key",
      "verbosity.dropped /text/verbosity",
      "tools.approximated /tools/9",
    ],
  },
  "gemini-cli-1.json": {
    chat: [
      "topK.dropped /generationConfig/topK",
      "reasoning.include.dropped /generationConfig/thinkingConfig/includeThoughts",
    ],
    messages: [
      "max_tokens.synthesized /max_tokens",
      "temperature.dropped /generationConfig/temperature",
      "topP.dropped /generationConfig/topP",
      "topK.dropped /generationConfig/topK",
    ],
    responses: ["topK.dropped /generationConfig/topK"],
  },
  "gemini-cli-2.json": {
    chat: [
      "thinking.signature.foreign /contents/1/parts/0/thoughtSignature",
      "topK.dropped /generationConfig/topK",
      "reasoning.include.dropped /generationConfig/thinkingConfig/includeThoughts",
    ],
    messages: [
      "thinking.signature.foreign /contents/1/parts/0/thoughtSignature",
      "parts.approximated /contents/2/parts/0",
      "parts.approximated /contents/2/parts/1",
      "max_tokens.synthesized /max_tokens",
      "thinkingConfig.dropped /generationConfig/thinkingConfig",
      "topP.dropped /generationConfig/topP",
    ],
    responses: [
      "thinking.signature.foreign /contents/1/parts/0/thoughtSignature",
      "parts.approximated /contents/2/parts/0",
      "parts.approximated /contents/2/parts/1",
      "topK.dropped /generationConfig/topK",
    ],
  },
};

describe("what each target loses of each agent's request (issue 30)", () => {
  const lossesOf = (request: Captured, to: Protocol) =>
    translateRequest(request.protocol, to, request.body, {
      ...pathOptions(request),
      targetModel: TARGET_MODEL[to],
    }).losses;

  for (const request of captured)
    for (const to of protocols.filter((protocol) => protocol !== request.protocol))
      test(`${request.file} → ${to}`, () => {
        const losses = lossesOf(request, to);
        expect(losses.map((loss) => `${loss.code} ${loss.path}`)).toEqual(EXPECTED[request.file]?.[to]);
        const unexplained = losses.filter((loss) => WHY[loss.code ?? ""] === undefined);
        expect(unexplained, "a loss without a reason in WHY").toEqual([]);
      });

  test("every reason is of a loss that happens", () => {
    const happening = new Set(
      Object.values(EXPECTED).flatMap((targets) =>
        Object.values(targets).flatMap((list) => (list ?? []).map((entry) => entry.split(" ")[0])),
      ),
    );
    expect(Object.keys(WHY).filter((code) => !happening.has(code))).toEqual([]);
  });
});
