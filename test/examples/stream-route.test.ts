/**
 * The README's gateway route (examples/stream-route.mjs, which it points at) on loopback: a messages
 * upstream that kills the connection mid-stream (`socket.destroy()`), the route in front of it, and the
 * official chat-completions SDK reading through it. The client gets its own error, not a
 * complete-looking answer; the gateway keeps serving.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chatStreamRoute } from "../../examples/stream-route.mjs";
import type { Loss } from "../../src/index";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const event = (type: string, data: object): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const HEAD = [
  event("message_start", {
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  }),
  event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
  event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "The answer is" } }),
];
const TAIL = [
  event("content_block_delta", { index: 0, delta: { type: "text_delta", text: " 42." } }),
  event("content_block_stop", { index: 0 }),
  event("message_delta", {
    delta: { stop_reason: "end_turn", stop_sequence: null },
    usage: { output_tokens: 6 },
  }),
  event("message_stop", {}),
];

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

let upstream: Server;
let gateway: Server;
let client: OpenAI;
const losses: Loss[] = [];

beforeAll(async () => {
  // The model name picks the upstream's behaviour: `reset` sends half the stream, then kills the socket.
  upstream = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const reset = (JSON.parse(text) as { model: string }).model === "reset";
    res.writeHead(200, { "content-type": "text/event-stream" });
    if (reset) res.write(HEAD.join(""), () => res.socket?.destroy());
    else res.end([...HEAD, ...TAIL].join(""));
  });
  const upstreamUrl = await listen(upstream);
  const route = chatStreamRoute({
    upstreamUrl,
    upstreamKey: "sk-up",
    onLoss: (loss: Loss) => losses.push(loss),
  });
  gateway = createServer((req, res) => void route(req, res));
  client = new OpenAI({ apiKey: "sk-test", baseURL: `${await listen(gateway)}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await new Promise((resolve) => gateway?.close(resolve));
  await new Promise((resolve) => upstream?.close(resolve));
});

async function read(model: string): Promise<string> {
  let text = "";
  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: "user", content: "What is the answer?" }],
    stream: true,
  });
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
  return text;
}

describe("the README's node:http route in front of an upstream that resets mid-stream", () => {
  test("the whole stream reads as the complete answer", async () => {
    expect(await read("whole")).toBe("The answer is 42.");
  });

  test("a reset mid-stream is the client's own error, with everything received before it", async () => {
    const before = losses.length;
    let seen = "";
    const failure = await (async () => {
      const stream = await client.chat.completions.create({
        model: "reset",
        messages: [{ role: "user", content: "What is the answer?" }],
        stream: true,
      });
      for await (const chunk of stream) seen += chunk.choices[0]?.delta?.content ?? "";
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(seen).toBe("The answer is");
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toMatch(
      /The upstream messages stream failed before its finish \(the upstream connection failed: .+\): the answer is incomplete\./,
    );
    // The route heard the loss through onLoss: an error event made up at the event that never came.
    expect(losses.slice(before)).toEqual([
      expect.objectContaining({ path: `/${HEAD.length}`, kind: "synthesized" }),
    ]);
  });

  test("the gateway keeps serving after the reset", async () => {
    expect(await read("whole")).toBe("The answer is 42.");
  });

  test("the README points at the route's file, which the package ships", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme).toContain("](examples/stream-route.mjs)");
    const files = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { files: string[] }).files;
    expect(files).toContain("examples");
  });
});
