// @ts-check
/**
 * A translating gateway on node:http. After `npm run build`:
 *
 *   UPSTREAM_URL=https://api.example.com UPSTREAM_PROTOCOL=messages UPSTREAM_KEY=sk-... \
 *     node examples/node-gateway.mjs
 *
 * Environment: PORT (default 8787; 0 picks a free one), UPSTREAM_URL (base URL), UPSTREAM_PROTOCOL
 * (one of the library's protocol ids), UPSTREAM_KEY, UPSTREAM_MODEL (optional: the model sent
 * upstream, and the one the model lists show), MAX_TOKENS (optional: the output budget toward a
 * messages upstream when a client sets none; default per model family, gateway.mjs defaultMaxTokens).
 * Clients of every protocol the library knows call it at http://127.0.0.1:PORT (/v1/chat/completions,
 * /v1/messages and /v1/messages/count_tokens, /v1beta/models/{model}:generateContent,
 * :streamGenerateContent and :countTokens, /v1/responses, /v1/responses/input_tokens and
 * /v1/responses/compact, /v1/models, /v1beta/models), and Responses over WebSocket at
 * ws://127.0.0.1:PORT/v1/responses when the `ws` package is installed (`npm i ws`). A responses
 * request's `previous_response_id` is served from the turns the gateway stored in memory (by the
 * upstream itself when it speaks responses, but for a WebSocket's `store: false` turns). Each loss
 * and each request's usage is a line on stderr:
 *
 *   loss chat→messages dropped /logprobs (logprobs.dropped): …
 *   usage chat→messages claude-sonnet-4-5 stream input=1200 cachedRead=1024 cacheWrite=0 output=80 reasoning=0 total=1280
 */
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGateway, memoryStore, openResponsesSocket } from "./gateway.mjs";

const env = process.env;
// Stored turns for previous_response_id, shared by HTTP requests and WebSocket connections.
const store = memoryStore();
let handle;
try {
  handle = createGateway({
    store,
    upstreamUrl: env.UPSTREAM_URL ?? "",
    upstreamProtocol: env.UPSTREAM_PROTOCOL ?? "",
    upstreamKey: env.UPSTREAM_KEY,
    upstreamModel: env.UPSTREAM_MODEL || undefined,
    maxTokens: env.MAX_TOKENS ? Number(env.MAX_TOKENS) : undefined,
    onLoss: (loss, from, to) =>
      console.error(`loss ${from}→${to} ${loss.kind} ${loss.path || "/"} (${loss.code}): ${loss.message}`),
    onUsage: (usage, { from, to, model, stream }) =>
      console.error(
        `usage ${from}→${to} ${model} ${stream ? "stream" : "whole"} ${Object.entries(usage)
          .map(([name, count]) => `${name}=${count}`)
          .join(" ")}`,
      ),
  });
} catch (error) {
  console.error(`error: ${/** @type {Error} */ (error).message}`);
  process.exit(2);
}

/** node's request as a Web Request; its signal aborts the upstream call when the client goes away. @param {import("node:http").IncomingMessage} req @param {AbortSignal} signal */
function toRequest(req, signal) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    signal,
    ...(hasBody
      ? { body: /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(req)), duplex: "half" }
      : {}),
  });
}

const server = createServer(async (req, res) => {
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  let response;
  try {
    response = await handle(toRequest(req, abort.signal));
  } catch (error) {
    console.error(`error: ${/** @type {Error} */ (error).stack}`);
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "Internal gateway error", type: "server_error" } }));
    return;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  // Bytes go out as they arrive. If the client leaves, or the body fails, the pipeline closes both
  // ends: the server keeps running either way.
  try {
    await pipeline(
      Readable.fromWeb(/** @type {import("node:stream/web").ReadableStream} */ (response.body)),
      res,
    );
  } catch (error) {
    console.error(`stream closed early: ${/** @type {Error} */ (error).message}`);
  }
});

/**
 * Responses over WebSocket: `GET /v1/responses` upgraded by the `ws` package (node:http cannot serve
 * WebSockets itself). Without `ws` installed, upgrades are refused and HTTP is served as before.
 */
const ws = await import("ws").catch(() => undefined);
if (ws !== undefined) {
  const sockets = new ws.WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    if (new URL(req.url ?? "/", "http://gateway").pathname.replace(/\/+$/, "") !== "/v1/responses") {
      socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n");
      return;
    }
    sockets.handleUpgrade(req, socket, head, (client) => {
      /** @type {Record<string, string>} */
      const headers = {};
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
      const session = openResponsesSocket(handle, {
        url: `http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`,
        headers,
        store,
      });
      // One turn at a time: a message waits for the turn before it to end.
      let queue = Promise.resolve();
      client.on("message", (data) => {
        const text = data.toString("utf8");
        queue = queue.then(async () => {
          try {
            for await (const message of session.turn(text)) {
              if (client.readyState !== client.OPEN) return;
              client.send(message);
            }
          } catch (error) {
            console.error(`websocket turn failed: ${/** @type {Error} */ (error).stack}`);
            client.close(1011, "internal gateway error");
          }
        });
      });
    });
  });
}

const port = Number(env.PORT ?? 8787);
server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  const bound = typeof address === "object" && address !== null ? address.port : port;
  console.log(`listening on http://127.0.0.1:${bound}`);
});
