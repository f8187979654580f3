/** Small node:http helpers shared by the scripted upstreams, the recorder and the egress guard. */
import { createServer } from "node:http";

/** @param {import("node:http").IncomingMessage} req @returns {Promise<Buffer>} */
export async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** @param {import("node:http").ServerResponse} res @param {number} status @param {unknown} body @param {Record<string, string>} [headers] */
export function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/**
 * Writes SSE messages with a pause between them, so that a client reads them as separate chunks
 * the way a real service sends them.
 * @param {import("node:http").ServerResponse} res
 * @param {{ event?: string; data: string }[]} messages
 * @param {string} [newline] "\n" (OpenAI, Anthropic) or "\r\n" (Gemini)
 */
export async function sendSse(res, messages, newline = "\n") {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const message of messages) {
    const event = message.event === undefined ? "" : `event: ${message.event}${newline}`;
    res.write(`${event}data: ${message.data}${newline}${newline}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  res.end();
}

/**
 * A server on a free loopback port.
 * @param {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => unknown} handler
 */
export async function listen(handler) {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `harness error: ${error?.stack ?? error}` } }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

/** Splits a string in `parts` pieces of about equal length (deltas of a stream). @param {string} text @param {number} parts */
export function pieces(text, parts) {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out.length === 0 ? [""] : out;
}
