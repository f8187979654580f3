/**
 * The egress guard: an HTTP(S) proxy on loopback that every agent is given (HTTPS_PROXY,
 * HTTP_PROXY; loopback is NO_PROXY) and that refuses every request at once, logging the host. An
 * agent that tries to reach anything but the gateway shows up here instead of hanging on a blocked
 * host; a run that saw any attempt says so.
 */
import { listen } from "./http.mjs";

export async function startEgressGuard() {
  /** @type {string[]} */
  const attempts = [];
  const guard = await listen((req, res) => {
    attempts.push(`${req.method} ${req.url}`);
    res.writeHead(403, { "content-type": "text/plain" });
    res.end("blocked by the agent test harness: no network beyond loopback\n");
  });
  guard.server.on("connect", (req, socket) => {
    attempts.push(`CONNECT ${req.url}`);
    socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
  });
  return { ...guard, attempts };
}
