import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import {
  chat,
  type Loss,
  messages,
  protocols,
  translateError,
  translateEventStream,
  translateRequest,
  translateResponse,
} from "../../src/index";
import { fixturesDir } from "../helpers/fixtures";

// The built command line (npm test builds it first), run as a user runs it: a subprocess.
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: Record<string, string> };
const bin = join(root, pkg.bin["gateway-protocols"] ?? "");
const fixture = (path: string) => join(fixturesDir, path);
const json = (path: string): unknown => JSON.parse(readFileSync(fixture(path), "utf8"));

function run(args: string[], input?: string): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    input: input ?? "",
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "" },
  });
}

/** The stderr lines the CLI prints for these losses. */
const lossLines = (losses: readonly Loss[]) =>
  losses.map((loss) => `loss ${loss.kind} ${loss.path || "/"}: ${loss.message}`);
const lines = (text: string) => text.split("\n").filter((line) => line !== "");

describe("gateway-protocols translate", () => {
  test("a request: the translation on stdout as one line of JSON, each loss on stderr, exit 0", () => {
    const path = "messages/request/anthropic-cache-control.json";
    const expected = translateRequest("messages", "generative", json(path));
    expect(expected.losses.length).toBeGreaterThan(0);
    const out = run(["translate", "--from", "messages", "--to", "generative", fixture(path)]);
    expect(out.status).toBe(0);
    expect(lines(out.stdout)).toHaveLength(1);
    expect(out.stdout).not.toContain("\u001b");
    expect(JSON.parse(out.stdout)).toEqual(expected.value);
    expect(lines(out.stderr)).toEqual(lossLines(expected.losses));
  });

  test("reads stdin when the file is - or absent", () => {
    const path = "chat/request/openai-tool-choice-named.json";
    const text = readFileSync(fixture(path), "utf8");
    const expected = translateRequest("chat", "messages", json(path)).value;
    for (const args of [["-"], []]) {
      const out = run(["translate", "--from", "chat", "--to", "messages", ...args], text);
      expect(out.status).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual(expected);
    }
  });

  test("--strict: a loss is exit 1 with the losses on stderr and nothing on stdout", () => {
    const path = "messages/request/anthropic-cache-control.json";
    const { losses } = translateRequest("messages", "generative", json(path));
    const out = run(["translate", "--from", "messages", "--to", "generative", "--strict", fixture(path)]);
    expect(out.status).toBe(1);
    expect(out.stdout).toBe("");
    expect(lines(out.stderr).slice(0, -1)).toEqual(lossLines(losses));
    expect(lines(out.stderr).at(-1)).toMatch(/^error: strict mode/);
  });

  test("--strict without a loss is exit 0", () => {
    const body = JSON.stringify({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "hi" }] });
    const out = run(["translate", "--from", "messages", "--to", "chat", "--strict"], body);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual(translateRequest("messages", "chat", JSON.parse(body)).value);
    expect(out.stderr).toBe("");
  });

  test("a body that fails the schema is exit 2, one line per issue with its JSON pointer", () => {
    const out = run(["translate", "--from", "chat", "--to", "messages"], JSON.stringify({ messages: "hi" }));
    expect(out.status).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(/^issue \/model: /m);
    expect(out.stderr).toMatch(/^issue \/messages: /m);
    expect(out.stderr).toMatch(/^error: Invalid chat request/m);
  });

  test("input that is not JSON is exit 2", () => {
    const out = run(["translate", "--from", "chat", "--to", "messages"], "{nope");
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/^error: the input is not JSON/);
  });

  test("an unknown protocol id is exit 2 with an error naming the valid ones", () => {
    const out = run(["translate", "--from", "openai", "--to", "messages"], "{}");
    expect(out.status).toBe(2);
    expect(out.stderr).toContain(`unknown protocol "openai" for --from: use one of ${protocols.join(", ")}.`);
  });

  test("a generative request needs --model for a body-carried target", () => {
    const path = "generative/request/gemini-system-instruction.json";
    const without = run(["translate", "--from", "generative", "--to", "chat", fixture(path)]);
    expect(without.status).toBe(2);
    expect(without.stderr).toContain("Model name not specified");
    const expected = translateRequest("generative", "chat", json(path), { model: "gemini-x", stream: true });
    const out = run([
      "translate",
      "--from",
      "generative",
      "--to",
      "chat",
      "--model",
      "gemini-x",
      "--stream",
      fixture(path),
    ]);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual(expected.value);
    expect(JSON.parse(out.stdout)).toMatchObject({ model: "gemini-x", stream: true });
  });

  test("--kind response", () => {
    const path = "messages/response/anthropic-thinking.json";
    const expected = translateResponse("messages", "chat", json(path));
    const out = run(["translate", "--kind", "response", "--from", "messages", "--to", "chat", fixture(path)]);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual(expected.value);
    expect(lines(out.stderr)).toEqual(lossLines(expected.losses));
  });

  test("--kind error prints {status, body}; --status is required", () => {
    const path = "generative/error/vertex-429-quota-exceeded.json";
    const expected = translateError("generative", "messages", { status: 429, body: json(path) });
    const out = run([
      "translate",
      "--kind",
      "error",
      "--status",
      "429",
      "--from",
      "generative",
      "--to",
      "messages",
      fixture(path),
    ]);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ status: expected.status, body: expected.body });
    // The fields of the body that do not arrive (Vertex `details`) are losses like any other.
    expect(expected.losses.map((loss) => loss.path)).toEqual(["/error/details"]);
    expect(lines(out.stderr)).toEqual(lossLines(expected.losses));
    expect(expected.status).toBe(429);
    const missing = run([
      "translate",
      "--kind",
      "error",
      "--from",
      "generative",
      "--to",
      "messages",
      fixture(path),
    ]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("--status");
  });

  test("an unknown --kind or option is exit 2", () => {
    expect(run(["translate", "--from", "chat", "--to", "messages", "--kind", "stream"], "{}").status).toBe(2);
    const unknown = run(["translate", "--from", "chat", "--to", "messages", "--frm", "x"], "{}");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("--frm");
  });
});

/** What translateEventStream makes of these bytes, in one piece. */
async function translateBytes(
  from: "chat" | "messages",
  to: "chat" | "messages" | "generative",
  bytes: Buffer,
) {
  const body = new Blob([new Uint8Array(bytes)]).stream();
  return Buffer.from(await new Response(translateEventStream(from, to, body)).arrayBuffer()).toString("utf8");
}

describe("gateway-protocols stream", () => {
  test("an SSE body on stdin comes out translated on stdout, byte for byte what translateEventStream gives", async () => {
    const bytes = readFileSync(fixture("messages/stream/anthropic-tool-use-json.sse"));
    const expected = await translateBytes("messages", "chat", bytes);
    const out = run(["stream", "--from", "messages", "--to", "chat"], bytes.toString("utf8"));
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(expected);
    expect(out.stdout).toMatch(/data: \[DONE\]\n\n$/);
    for (const line of lines(out.stderr))
      expect(line).toMatch(/^loss (dropped|clamped|synthesized|approximated) \/\S*: /);
  });

  test("--strict stops at the first loss: exit 1 and the loss on stderr", () => {
    const bytes = readFileSync(fixture("chat/stream/openai-content-logprobs.sse"), "utf8");
    const out = run(["stream", "--from", "chat", "--to", "messages", "--strict"], bytes);
    expect(out.status).toBe(1);
    // The loss points into the event it came from (the first of the body); the output ends with messages'
    // own error event, carrying the strict failure's message.
    expect(out.stderr).toMatch(/^loss dropped \/0\/choices\/0\/logprobs: /m);
    expect(out.stdout).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"invalid_request_error","message":"Translation would lose information: /,
    );
    expect(out.stdout).not.toContain("message_stop");
  });

  test("each event is written as soon as it arrives, before stdin ends", async () => {
    const child = spawn(process.execPath, [bin, "stream", "--from", "messages", "--to", "chat"], {
      cwd: root,
    });
    const text = readFileSync(fixture("messages/stream/anthropic-text-short.sse"), "utf8");
    const firstDelta = text.indexOf("content_block_delta");
    const head = text.slice(0, text.indexOf("\n\n", firstDelta) + 2);
    let stdout = "";
    const sawDelta = new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
        if (stdout.includes('"delta":{"content"')) resolve();
      });
    });
    child.stdin.write(head);
    await sawDelta; // stdin is still open: the delta came out on its own
    expect(stdout).not.toContain("[DONE]");
    const exit = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.end(text.slice(head.length));
    expect(await exit).toBe(0);
    expect(stdout).toContain("data: [DONE]");
  });

  test("an unknown protocol id is exit 2 with the valid ones", () => {
    const out = run(["stream", "--from", "messages", "--to", "gemini"], "");
    expect(out.status).toBe(2);
    expect(out.stderr).toContain(`use one of ${protocols.join(", ")}`);
  });
});

describe("gateway-protocols validate", () => {
  test.each([
    ["chat", "request", "chat/request/openai-json-schema.json"],
    ["messages", "response", "messages/response/anthropic-web-search.json"],
    ["generative", "error", "generative/error/gemini-404-model-not-found.json"],
    ["chat", "stream", "chat/stream/openai-tool-call.sse"],
    ["generative", "stream", "generative/stream/gemini-thinking.sse"],
  ])("a valid %s %s (%s) is exit 0", (protocol, kind, path) => {
    const out = run(["validate", "--protocol", protocol, "--kind", kind, fixture(path)]);
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(new RegExp(`^valid ${protocol} ${kind}`));
    expect(out.stderr).toBe("");
  });

  test("one stream event with --kind event", () => {
    const event = { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } };
    expect(messages.streamEvent.safeParse(event).success).toBe(true);
    const out = run(["validate", "--protocol", "messages", "--kind", "event"], JSON.stringify(event));
    expect(out.status).toBe(0);
  });

  test("an invalid payload is exit 1, one issue per line with its pointer", () => {
    const body = { model: "m", messages: [{ role: "wizard", content: "hi" }] };
    expect(chat.request.safeParse(body).success).toBe(false);
    const out = run(["validate", "--protocol", "chat", "--kind", "request"], JSON.stringify(body));
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/^issue \/messages\/0(\/role)?: /m);
    expect(out.stderr).toMatch(/^error: invalid chat request\.$/m);
  });

  test("a stream with a bad event names the event", () => {
    const body = 'data: {"choices":[]}\n\ndata: {"choices": 3}\n\ndata: [DONE]\n\n';
    const out = run(["validate", "--protocol", "chat", "--kind", "stream"], body);
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/^event 2:\nissue /m);
    expect(out.stderr).toContain("1 event(s) do not match");
  });

  test("usage mistakes are exit 2", () => {
    expect(run(["validate", "--protocol", "chat"], "{}").status).toBe(2);
    expect(run(["validate", "--protocol", "nope", "--kind", "request"], "{}").status).toBe(2);
    expect(run(["validate", "--protocol", "chat", "--kind", "request", "/no/such/file.json"]).status).toBe(2);
  });
});

describe("gateway-protocols music validate", () => {
  test("a valid request prints it with its defaults filled in", () => {
    const out = run(["music", "validate"], JSON.stringify({ prompt: "a happy song" }));
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      prompt: "a happy song",
      model: "chirp-v4",
      action: "generate",
      async: false,
    });
  });

  test("an invalid one is exit 1 with the gateway's error body on stderr", () => {
    const out = run(["music", "validate", "-"], JSON.stringify({ model: "chirp-v4" }));
    expect(out.status).toBe(1);
    expect(out.stdout).toBe("");
    const [body] = lines(out.stderr);
    expect(JSON.parse(body ?? "")).toMatchObject({ success: false, error: "prompt_empty" });
  });
});

describe("gateway-protocols --help", () => {
  test.each([
    [["--help"], "Usage: gateway-protocols <command>"],
    [["help"], "Usage: gateway-protocols <command>"],
    [[], "Usage: gateway-protocols <command>"],
    [["translate", "--help"], "Usage: gateway-protocols translate"],
    [["help", "translate"], "Usage: gateway-protocols translate"],
    [["stream", "-h"], "Usage: gateway-protocols stream"],
    [["validate", "--help"], "Usage: gateway-protocols validate"],
  ])("%j prints its usage with the protocol ids, exit 0", (args, first) => {
    const out = run(args);
    expect(out.status).toBe(0);
    expect(out.stdout.startsWith(first)).toBe(true);
    expect(out.stdout).toContain(protocols.join(", "));
  });

  test("music validate --help prints its usage, exit 0", () => {
    const out = run(["music", "validate", "--help"]);
    expect(out.status).toBe(0);
    expect(out.stdout.startsWith("Usage: gateway-protocols music validate")).toBe(true);
  });

  test("an unknown command is exit 2", () => {
    const out = run(["translat"]);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('unknown command "translat"');
  });

  test("--version prints the package's version", () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(run(["--version"]).stdout).toBe(`${version}\n`);
  });
});
