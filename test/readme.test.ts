import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import {
  type chat,
  createStreamTranslator,
  embeddings,
  errors,
  identifyRequest,
  models,
  music,
  responses,
  translateError,
  translateRequest,
} from "../src/index";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The `js` code blocks of a README section, as written. */
function codeBlocks(section: string): string[] {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const start = readme.indexOf(`\n## ${section}\n`);
  const end = readme.indexOf("\n## ", start + 1);
  expect(start).toBeGreaterThan(-1);
  return [...readme.slice(start, end === -1 ? undefined : end).matchAll(/\n```js\n([\s\S]*?)\n```/g)].map(
    (match) => match[1] ?? "",
  );
}

/** The `text` block of a README section (what a command prints), as written. */
function reportBlock(section: string): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const start = readme.indexOf(`\n## ${section}\n`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end).match(/\n```text\n([\s\S]*?)\n```/)?.[1] ?? "";
}

/** Runs a README block as a user would: an ES module importing the built package (npm test builds it). */
async function runBlock(code: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", code], {
    cwd: root,
    encoding: "utf8",
  });
  return stdout;
}

// The README's examples, run as written, with the results their comments promise.
describe("README examples", () => {
  test("translate a request: system hoisted, temperature clamped, max_tokens synthesized", () => {
    const { value, losses, model, stream } = translateRequest("chat", "messages", {
      model: "claude-sonnet-4-5",
      temperature: 1.5,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
    });
    expect(value.system).toBe("Be brief.");
    expect(value.temperature).toBe(1);
    expect(value.max_tokens).toBe(4096);
    expect(model).toBe("claude-sonnet-4-5");
    expect(stream).toBe(false);
    expect(losses.map((entry) => [entry.path, entry.kind]).sort()).toEqual([
      ["/max_tokens", "synthesized"],
      ["/temperature", "clamped"],
    ]);
  });

  test("chat-compatible upstreams: the deepseek dialect", () => {
    const claudeCodeBody = {
      model: "deepseek-v4",
      max_tokens: 2000,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [
        { role: "user", content: "List the files." },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ls", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "a.txt" }] },
      ],
    };
    const { value, losses } = translateRequest("messages", "chat", claudeCodeBody, {
      chatDialect: "deepseek",
    });
    expect(value.max_tokens).toBe(2000);
    expect(value.max_completion_tokens).toBeUndefined();
    expect(value.thinking).toEqual({ type: "enabled" });
    expect(value.reasoning_effort).toBe("low");
    expect(value.messages[1]).toMatchObject({ role: "assistant", reasoning_content: "" });
    expect(losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/messages/1", "synthesized"],
      ["/thinking/budget_tokens", "approximated"],
    ]);
  });

  test("chat-compatible upstreams: a thinking stream toward OpenRouter keeps its signature", () => {
    const claudeThinkingStream = [
      {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Let me" } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQB" } },
    ];
    const toOpenRouter = createStreamTranslator("messages", "chat", {
      chatDialect: "openrouter",
      created: Math.floor(Date.now() / 1000), // messages streams carry no creation time
    });
    const deltas = claudeThinkingStream
      .flatMap((event) => toOpenRouter.push(event as never))
      .map((chunk) => (typeof chunk === "string" ? chunk : (chunk as chat.Chunk).choices[0]?.delta));
    const entry = { format: "anthropic-claude-v1", index: 0 };
    expect(deltas.slice(1)).toEqual([
      { reasoning: "Let me", reasoning_details: [{ type: "reasoning.text", text: "Let me", ...entry }] },
      { reasoning_details: [{ type: "reasoning.text", signature: "EqQB", ...entry }] },
    ]);
    expect(toOpenRouter.losses).toEqual([]);
  });

  test("translate an error: 529 overloaded becomes a 503 for chat clients", () => {
    const result = translateError("messages", "chat", {
      status: 529,
      body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    });
    expect(result.status).toBe(503);
    expect(result.body.error.message).toBe("Overloaded");
  });

  test("the responses protocol: a stored history serves a request that continues a response", () => {
    const store = new Map<string | null | undefined, unknown[]>();
    const request: responses.Request = { model: "gpt-x", instructions: "Be brief.", input: "What is 2+2?" };
    const answer = {
      id: "resp_1",
      object: "response" as const,
      created_at: 1,
      status: "completed",
      model: "gpt-x",
      output: [
        {
          type: "message" as const,
          id: "msg_1",
          role: "assistant" as const,
          status: "completed",
          content: [{ type: "output_text" as const, text: "4", annotations: [] }],
        },
      ],
    };
    store.set(answer.id, responses.historyOf(request, answer, store.get(request.previous_response_id)));
    const next = { model: "claude-sonnet-4-5", previous_response_id: answer.id, input: "And 3+3?" };
    expect(() => translateRequest("responses", "messages", next)).toThrow(/options\.history/);
    const { value } = translateRequest("responses", "messages", next, {
      history: store.get(next.previous_response_id),
    });
    expect(value.messages.map((message) => [message.role, JSON.stringify(message.content)])).toEqual([
      ["user", '"What is 2+2?"'],
      ["assistant", '[{"type":"text","text":"4"}]'],
      ["user", '[{"type":"text","text":"And 3+3?"}]'],
    ]);
  });

  test("validate a music request: defaults filled", () => {
    expect(music.validateAudioRequest({ prompt: "lofi beat" })).toEqual({
      ok: true,
      value: { prompt: "lofi beat", model: "chirp-v4", action: "generate", async: false },
    });
  });

  test("gateway helpers: identify a request, render a catalogue error, encode an embedding", () => {
    expect(
      identifyRequest({
        method: "POST",
        path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
        headers: { "x-goog-api-key": "sk-1" },
      }),
    ).toEqual({
      protocol: "generative",
      operation: "streamGenerateContent",
      model: "gemini-2.5-flash",
      stream: true,
      streamFormat: "sse",
      token: "sk-1",
    });
    expect(errors.render("messages", errors.noAccessToModel("gpt-x"))).toEqual({
      status: 403,
      body: {
        type: "error",
        error: { type: "permission_error", message: "This token has no access to model gpt-x" },
      },
    });
    expect(embeddings.encodeBase64([1, -2])).toBe("AACAPwAAAMA=");
  });

  test("which upstream serves a request: native, translated, refused with a 400", () => {
    const request = identifyRequest({
      method: "POST",
      path: "/v1/chat/completions",
      headers: { authorization: "Bearer sk-1" },
    });
    if ("error" in request) throw new Error("expected a route");
    expect(models.route(request, { id: "m", supported_endpoint_types: ["msg", "std"] })).toEqual({
      upstream: "chat",
      translate: false,
    });
    expect(models.route(request, { id: "m", supported_endpoint_types: ["gen", "msg"] })).toEqual({
      upstream: "generative",
      translate: true,
    });
    expect(
      models.route(
        { protocol: "chat", operation: "embeddings" },
        { id: "gpt-x", supported_endpoint_types: ["std"] },
      ),
    ).toEqual({
      error: {
        status: 400,
        body: {
          error: {
            message: expect.stringMatching(/^The model 'gpt-x' does not support POST \/v1\/embeddings \(/),
            type: "invalid_request_error",
            param: "model",
            code: "unsupported_endpoint",
          },
        },
      },
    });
  });

  test("a known path with another method is a 405 with its Allow header", () => {
    expect(identifyRequest({ method: "GET", path: "/v1/chat/completions", headers: {} })).toMatchObject({
      error: { status: 405, headers: { allow: "POST" } },
    });
  });
});

describe("README: Property-test your gateway", () => {
  const [check, ...rest] = codeBlocks("Property-test your gateway");
  const [generators] = [
    ...readFileSync(join(root, "docs", "testing.md"), "utf8").matchAll(/\n```js\n([\s\S]*?)\n```/g),
  ].map((match) => match[1] ?? "");

  test("has the runnable example, and docs/testing.md the generators' one", () => {
    expect(check).toContain("checkTranslator(");
    expect(check).toContain("assertLaws(results)");
    expect(generators).toContain("cutBytes(");
    expect(rest).toEqual([]);
  });

  test("assertLaws on checkTranslator's results prints the report the README shows", async () => {
    let printed = "";
    try {
      await runBlock(check ?? "");
    } catch (error) {
      printed = String((error as { stderr?: unknown }).stderr ?? error);
    }
    const shown = reportBlock("Property-test your gateway").split("\n");
    expect(shown.length).toBeGreaterThan(10);
    // Every line the README shows is printed, in order ("…" stands for lines left out).
    let at = 0;
    const lines = printed.split("\n");
    for (const line of shown) {
      if (line.trim() === "…") continue;
      const found = lines.indexOf(line, at);
      expect(
        found,
        `the README's line ${JSON.stringify(line)} is not printed (after line ${at})`,
      ).toBeGreaterThan(-1);
      at = found + 1;
    }
  });

  test("the generators example runs to the end (its assertions hold)", async () => {
    expect(await runBlock(generators ?? "")).toBe("");
  });
});
