/**
 * A scripted upstream for the example gateway: a node:http server that answers each protocol's
 * endpoint with recorded fixtures from test/fixtures. The model a request names picks the scenario
 * (`text`, `tool`, `rate-limit`, `bad-request`, `reset`); `reset` sends half of a stream and then
 * resets the connection.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type FixtureEntry, fixtureIndex, readFixture } from "../helpers/fixtures";

export type UpstreamProtocol = "chat" | "messages" | "generative" | "responses";
export type Scenario = "text" | "tool" | "rate-limit" | "bad-request" | "reset";

type Answers = {
  text: [string, string];
  tool: [string, string];
  "rate-limit": string;
  "bad-request": string;
};

// Per protocol: [whole response, stream] for text and tool calls, and error bodies.
export const ANSWERS: Record<UpstreamProtocol, Answers> = {
  chat: {
    text: ["chat/response/openai-text.json", "chat/stream/openai-text.sse"],
    tool: ["chat/response/openai-tool-call.json", "chat/stream/openai-tool-call.sse"],
    "rate-limit": "chat/error/openrouter-429-upstream-rate-limit.json",
    "bad-request": "chat/error/openai-400-unsupported-parameter.json",
  },
  messages: {
    text: ["messages/response/anthropic-text.json", "messages/stream/anthropic-text-short.sse"],
    tool: [
      "messages/response/anthropic-tool-use-with-thinking.json",
      "messages/stream/anthropic-tool-use-json.sse",
    ],
    // No recorded messages 429 is in the fixtures; this is the documented error shape, written here.
    "rate-limit": "",
    "bad-request": "messages/error/anthropic-400-invalid-request.json",
  },
  generative: {
    text: ["generative/response/gemini-text.json", "generative/stream/gemini-text.sse"],
    tool: [
      "generative/response/gemini-function-call.json",
      "generative/stream/gemini-function-call-thought-signature.sse",
    ],
    "rate-limit": "generative/error/vertex-429-quota-exceeded.json",
    "bad-request": "generative/error/vertex-400-user-location.json",
  },
  responses: {
    text: ["responses/response/openai-text.json", "responses/stream/openai-text.sse"],
    tool: [
      "responses/response/openai-function-call.json",
      "responses/stream/openai-function-call-reasoning.sse",
    ],
    "rate-limit": "responses/error/openai-429-insufficient-quota.json",
    "bad-request": "responses/error/openai-400-unsupported-parameter.json",
  },
};

export const MESSAGES_RATE_LIMIT = {
  type: "error",
  error: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit." },
};

function entry(path: string): FixtureEntry {
  const found = fixtureIndex.find((candidate) => candidate.path === path);
  if (found === undefined) throw new Error(`no fixture ${path}`);
  return found;
}

export const fixtureText = (path: string): string => readFixture(entry(path));

/** The error an upstream of `protocol` answers for a scenario: status and body text. */
export function errorAnswer(protocol: UpstreamProtocol, scenario: "rate-limit" | "bad-request") {
  const path = ANSWERS[protocol][scenario];
  if (path === "") return { status: 429, text: JSON.stringify(MESSAGES_RATE_LIMIT) };
  return { status: entry(path).http_status, text: fixtureText(path) };
}

export type Received = { path: string; headers: IncomingMessage["headers"]; body: Record<string, unknown> };

function where(path: string): { protocol: UpstreamProtocol; model?: string; stream?: boolean } | undefined {
  if (path === "/v1/chat/completions") return { protocol: "chat" };
  if (path === "/v1/messages") return { protocol: "messages" };
  if (path === "/v1/responses") return { protocol: "responses" };
  const method = /^\/v1beta\/models\/(.+):(generateContent|streamGenerateContent)$/.exec(path);
  if (method === null) return undefined;
  return {
    protocol: "generative",
    model: decodeURIComponent(method[1] ?? ""),
    stream: method[2] === "streamGenerateContent",
  };
}

export async function startUpstream(): Promise<{
  url: string;
  received: Received[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://upstream");
    const route = where(url.pathname);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
    received.push({ path: url.pathname + url.search, headers: req.headers, body });
    if (route === undefined) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"no such path"}');
      return;
    }
    const model = route.model ?? String(body.model);
    const stream = route.stream ?? body.stream === true;
    const scenario = (["text", "tool", "rate-limit", "bad-request", "reset"] as const).find((name) =>
      model.startsWith(name),
    );
    if (scenario === "rate-limit" || scenario === "bad-request") {
      const { status, text } = errorAnswer(route.protocol, scenario);
      res.writeHead(status, { "content-type": "application/json" }).end(text);
      return;
    }
    const [whole, streamed] = ANSWERS[route.protocol][scenario === "tool" ? "tool" : "text"];
    if (!stream) {
      res.writeHead(200, { "content-type": "application/json" }).end(fixtureText(whole));
      return;
    }
    const sse = fixtureText(streamed);
    res.writeHead(200, { "content-type": "text/event-stream" });
    if (scenario === "reset") {
      // Half of the stream, cut inside an event, then a reset connection.
      res.write(sse.slice(0, Math.floor(sse.length / 2)), () => res.socket?.resetAndDestroy());
      return;
    }
    res.end(sse);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
