/**
 * A recording proxy between an agent and what it calls (the example gateway, or an upstream
 * directly): every request as the agent sent it (method, path, headers without credentials, body)
 * and the status and headers it got back. Bodies of answers pass through as they arrive (streams
 * stay streams).
 */
import { request } from "node:http";
import { listen, readBody } from "./http.mjs";
import { redact } from "./upstream.mjs";

/** @param {string} target base URL, e.g. http://127.0.0.1:8787 */
export async function startRecorder(target) {
  const base = new URL(target);
  /** @type {{ method: string; path: string; headers: Record<string, string>; body: unknown; status?: number; responseHeaders?: Record<string, string> }[]} */
  const exchanges = [];
  const server = await listen(async (req, res) => {
    const raw = await readBody(req);
    let body;
    try {
      body = raw.length === 0 ? undefined : JSON.parse(raw.toString("utf8"));
    } catch {
      body = raw.toString("utf8");
    }
    const exchange = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: redact(req.headers),
      body,
    };
    exchanges.push(exchange);
    await new Promise((resolve) => {
      const upstream = request(
        {
          host: base.hostname,
          port: base.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: base.host, "content-length": String(raw.length) },
        },
        (answer) => {
          exchange.status = answer.statusCode;
          exchange.responseHeaders = redact(answer.headers);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on("end", resolve);
          answer.on("error", resolve);
        },
      );
      upstream.on("error", (error) => {
        exchange.status = 502;
        if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `recorder: ${error.message}` } }));
        resolve(undefined);
      });
      res.on("close", () => upstream.destroy());
      upstream.end(raw);
    });
  });
  return { ...server, exchanges };
}
