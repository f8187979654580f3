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
 * :streamGenerateContent and :countTokens, /v1/responses and /v1/responses/input_tokens, /v1/models,
 * /v1beta/models). Each loss and each request's usage is a line on stderr:
 *
 *   loss chat→messages dropped /logprobs (logprobs.dropped): …
 *   usage chat→messages claude-sonnet-4-5 stream input=1200 cachedRead=1024 cacheWrite=0 output=80 reasoning=0 total=1280
 */
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGateway } from "./gateway.mjs";

const env = process.env;
let handle;
try {
  handle = createGateway({
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

const port = Number(env.PORT ?? 8787);
server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  const bound = typeof address === "object" && address !== null ? address.port : port;
  console.log(`listening on http://127.0.0.1:${bound}`);
});
