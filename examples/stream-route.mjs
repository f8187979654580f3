// @ts-check
/**
 * One gateway route on node:http: chat clients stream from a messages upstream. The README points at
 * this file; test/examples/stream-route.test.ts runs it on loopback against an upstream that
 * resets the connection mid-stream. After `npm run build`:
 *
 *   UPSTREAM_URL=https://api.anthropic.com UPSTREAM_KEY=sk-… node examples/stream-route.mjs
 */
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import {
  gateway,
  TranslationError,
  translateError,
  translateEventStream,
  translateRequest,
} from "gateway-protocols";

/**
 * `POST /v1/chat/completions` with `stream: true`, answered by a messages upstream.
 * @param {{
 *   upstreamUrl: string;
 *   upstreamKey: string;
 *   onLoss?: (loss: import("gateway-protocols").Loss) => void;
 *   onUsage?: (usage: import("gateway-protocols").Usage) => void;
 * }} config
 * @returns {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => Promise<void>}
 */
export function chatStreamRoute({ upstreamUrl, upstreamKey, onLoss, onUsage }) {
  return async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    let request;
    try {
      // messages requires max_tokens: the budget when the client sets none (Claude 4.x models allow 32,000).
      request = translateRequest("chat", "messages", JSON.parse(text), { maxTokens: 32000, onLoss });
    } catch (error) {
      // Not JSON, or not a chat request: a 400 in the chat error shape.
      const { status, body } = (
        error instanceof TranslationError ? error : new TranslationError(String(error))
      ).toErrorBody("chat");
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    let upstream;
    try {
      upstream = await fetch(`${upstreamUrl}/v1/messages`, {
        method: "POST",
        headers: {
          // What of the client's headers a messages upstream understands (here: idempotency keys), and
          // the version header the translation is written for; never the client's credentials.
          ...gateway.upstreamHeaders("chat", "messages", req.headers),
          "content-type": "application/json",
          "x-api-key": upstreamKey,
        },
        body: JSON.stringify({ ...request.value, stream: true }),
      });
    } catch (error) {
      const body = { error: { message: `The upstream is unreachable: ${error}`, type: "server_error" } };
      res.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    if (!upstream.ok || upstream.body === null) {
      // In chat's shape, with the upstream's retry delay as `retry-after` / `retry-after-ms` (the SDK waits that long).
      const error = translateError("messages", "chat", {
        status: upstream.status,
        body: await upstream.text(),
        headers: upstream.headers,
      });
      res
        .writeHead(error.status, { ...error.headers, "content-type": "application/json" })
        .end(JSON.stringify(error.body));
      return;
    }
    res.writeHead(200, {
      // The request id and rate limits in chat's names (`x-request-id`, `x-ratelimit-*`).
      ...gateway.clientHeaders("messages", "chat", upstream.headers, { now: Date.now() }),
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
    });
    // The translated stream never errors: an upstream that resets or stops early ends it with chat's
    // own error event (`data: {"error": …}`), which the client's SDK raises as its error. Its usage
    // reaches onUsage once, when it ends (cut off too: what arrived), for billing.
    const stream = translateEventStream("messages", "chat", upstream.body, {
      created: Math.floor(Date.now() / 1000),
      onLoss,
      onUsage,
    });
    try {
      // Backpressure both ways; a client that goes away cancels the upstream request.
      await pipeline(Readable.fromWeb(/** @type {import("node:stream/web").ReadableStream} */ (stream)), res);
    } catch {
      // The client closed the connection: nothing is left to send it.
    }
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const route = chatStreamRoute({
    upstreamUrl: process.env.UPSTREAM_URL ?? "https://api.anthropic.com",
    upstreamKey: process.env.UPSTREAM_KEY ?? "",
    onLoss: (loss) => console.error(`loss ${loss.code} ${loss.path}: ${loss.message}`),
    onUsage: (usage) => console.error(`usage ${JSON.stringify(usage)}`),
  });
  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url === "/v1/chat/completions") void route(req, res);
    else res.writeHead(404).end();
  });
  server.listen(Number(process.env.PORT ?? 8788), "127.0.0.1", () => {
    const address = server.address();
    console.log(
      `listening on http://127.0.0.1:${typeof address === "object" && address ? address.port : ""}`,
    );
  });
}
