/**
 * examples/web-gateway.ts (as JavaScript: scripts/runtimes.ts strips its types) served by Bun (`Bun.serve`) or Deno (`Deno.serve`) on a free loopback port,
 * configured by the environment as the example says; prints `listening on http://127.0.0.1:PORT`.
 */
import gateway from "./web-gateway.js";

const g = /** @type {Record<string, any>} */ (globalThis);
if (g.Bun !== undefined) {
  const env = g.process.env;
  const server = g.Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => gateway.fetch(request, env),
  });
  console.log(`listening on http://127.0.0.1:${server.port}`);
} else if (g.Deno !== undefined) {
  const env = g.Deno.env.toObject();
  g.Deno.serve(
    {
      port: 0,
      hostname: "127.0.0.1",
      onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}`),
    },
    (request) => gateway.fetch(request, env),
  );
} else {
  throw new Error("serve-web.mjs runs on Bun or Deno");
}
