/**
 * A scripted upstream for the example gateway: a node:http server that answers each protocol's
 * endpoint with recorded fixtures from test/fixtures. The model a request names picks the scenario
 * (`text`, `tool`, `rate-limit`, `bad-request`, `reset`); `reset` sends half of a stream and then
 * resets the connection. `retry-<convention>-<id>` answers its first request with a 429 that says
 * when to retry in one provider's convention (RETRY_CONVENTIONS) and the next with the text answer.
 * It counts tokens where its protocol can (messages count_tokens, generative countTokens, responses
 * input_tokens), and, like the messages API, refuses a beta field sent without its `anthropic-beta`
 * value. Every answer names its request (`x-request-id`, messages `request-id`).
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

export type Received = {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
  /** When it arrived (ms, performance.now()). */
  at: number;
};

/** The tokens every count answers (a scripted figure, the same whichever the protocol). */
export const COUNTED_TOKENS = 42;

/** The request id every answer carries, in its protocol's header. */
export const UPSTREAM_REQUEST_ID = "req_upstream_1";

/**
 * How each provider says when to retry a 429, as `retry-<name>-…` models ask: OpenAI's and Anthropic's
 * headers (seconds, or milliseconds), and Gemini's `RetryInfo` detail in the body. The delay is 1 s
 * (`retry-after-ms` 1200 ms, so that a client that rounds to seconds shows).
 */
export const RETRY_CONVENTIONS = {
  "after-seconds": { delayMs: 1000, headers: { "retry-after": "1" }, retryInfo: undefined },
  "after-ms": {
    delayMs: 1200,
    headers: { "retry-after-ms": "1200", "retry-after": "2" },
    retryInfo: undefined,
  },
  "retry-info": { delayMs: 1000, headers: {}, retryInfo: "1s" },
} as const;
export type RetryConvention = keyof typeof RETRY_CONVENTIONS;

/** The conventions a provider of each protocol uses. */
export const PROVIDER_CONVENTIONS: Record<UpstreamProtocol, RetryConvention[]> = {
  chat: ["after-ms", "after-seconds"],
  responses: ["after-ms", "after-seconds"],
  messages: ["after-seconds"],
  generative: ["retry-info"],
};

/** A 429 body of the protocol, with Gemini's `RetryInfo` detail when the convention has one. */
function rateLimitBody(protocol: UpstreamProtocol, retryInfo: string | undefined): unknown {
  if (protocol === "generative")
    return {
      error: {
        code: 429,
        message: "Resource has been exhausted (e.g. check quota).",
        status: "RESOURCE_EXHAUSTED",
        details:
          retryInfo === undefined
            ? []
            : [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: retryInfo }],
      },
    };
  if (protocol === "messages") return MESSAGES_RATE_LIMIT;
  return {
    error: { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" },
  };
}

type Route = { protocol: UpstreamProtocol; model?: string; stream?: boolean; count?: boolean };

function where(path: string): Route | undefined {
  if (path === "/v1/chat/completions") return { protocol: "chat" };
  if (path === "/v1/messages") return { protocol: "messages" };
  if (path === "/v1/messages/count_tokens") return { protocol: "messages", count: true };
  if (path === "/v1/responses") return { protocol: "responses" };
  if (path === "/v1/responses/input_tokens") return { protocol: "responses", count: true };
  const method = /^\/v1beta\/models\/(.+):(generateContent|streamGenerateContent|countTokens)$/.exec(path);
  if (method === null) return undefined;
  return {
    protocol: "generative",
    model: decodeURIComponent(method[1] ?? ""),
    stream: method[2] === "streamGenerateContent",
    count: method[2] === "countTokens",
  };
}

const requestIdHeader = (protocol: UpstreamProtocol): Record<string, string> =>
  protocol === "messages" ? { "request-id": UPSTREAM_REQUEST_ID } : { "x-request-id": UPSTREAM_REQUEST_ID };

/** Beta fields of a messages body and the `anthropic-beta` value each needs (research/2026-surface.md). */
const BETA_FIELDS: Record<string, string> = { context_management: "context-management-2025-06-27" };

/**
 * `text` with the answer's id made this request's own (`<id>_<n>`): a real service never answers twice
 * with one id, and what a gateway stores under an answer's id needs them apart. The id is the first
 * `id` (generative: `responseId`) the text carries.
 */
function withOwnId(protocol: UpstreamProtocol, text: string, n: number): string {
  const found = (protocol === "generative" ? /"responseId":\s*"([^"]+)"/ : /"id":\s*"([^"]+)"/).exec(text);
  return found?.[1] === undefined ? text : text.replaceAll(found[1], `${found[1]}_${n}`);
}

/** `uniqueIds`: every answer gets an id of its own (withOwnId); otherwise fixtures go as recorded. */
export async function startUpstream({ uniqueIds = false }: { uniqueIds?: boolean } = {}): Promise<{
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
    received.push({ path: url.pathname + url.search, headers: req.headers, body, at: performance.now() });
    if (route === undefined) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"no such path"}');
      return;
    }
    const ids = requestIdHeader(route.protocol);
    if (route.protocol === "messages") {
      const betas = String(req.headers["anthropic-beta"] ?? "").split(/\s*,\s*/);
      const refused = Object.keys(BETA_FIELDS).find(
        (field) => body[field] !== undefined && !betas.includes(BETA_FIELDS[field] ?? ""),
      );
      if (refused !== undefined) {
        const error = {
          type: "error",
          error: { type: "invalid_request_error", message: `${refused}: Extra inputs are not permitted` },
        };
        res.writeHead(400, { ...ids, "content-type": "application/json" }).end(JSON.stringify(error));
        return;
      }
    }
    if (route.count === true) {
      const answer =
        route.protocol === "generative"
          ? { totalTokens: COUNTED_TOKENS }
          : route.protocol === "responses"
            ? { object: "response.input_tokens", input_tokens: COUNTED_TOKENS }
            : { input_tokens: COUNTED_TOKENS };
      res.writeHead(200, { ...ids, "content-type": "application/json" }).end(JSON.stringify(answer));
      return;
    }
    const model = route.model ?? String(body.model);
    const stream = route.stream ?? body.stream === true;
    const retry = /^retry-(after-seconds|after-ms|retry-info)-/.exec(model);
    if (retry !== null) {
      const convention = RETRY_CONVENTIONS[retry[1] as RetryConvention];
      const earlier = received.filter(
        (request) => (request.body.model ?? where(request.path.split("?")[0] ?? "")?.model) === model,
      );
      if (earlier.length === 1) {
        const answer = JSON.stringify(rateLimitBody(route.protocol, convention.retryInfo));
        res.writeHead(429, { ...ids, ...convention.headers, "content-type": "application/json" }).end(answer);
        return;
      }
    }
    const scenario = (["text", "tool", "rate-limit", "bad-request", "reset"] as const).find((name) =>
      model.startsWith(name),
    );
    if (scenario === "rate-limit" || scenario === "bad-request") {
      const { status, text } = errorAnswer(route.protocol, scenario);
      res.writeHead(status, { "content-type": "application/json" }).end(text);
      return;
    }
    const [whole, streamed] = ANSWERS[route.protocol][scenario === "tool" ? "tool" : "text"];
    const own = (text: string): string =>
      uniqueIds ? withOwnId(route.protocol, text, received.length) : text;
    if (!stream) {
      res.writeHead(200, { ...ids, "content-type": "application/json" }).end(own(fixtureText(whole)));
      return;
    }
    const sse = own(fixtureText(streamed));
    res.writeHead(200, { ...ids, "content-type": "text/event-stream" });
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
