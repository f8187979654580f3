/**
 * The translating gateway as a Web-standard `fetch(request) => Response` handler, for edge runtimes
 * and any server that speaks Request/Response. The same gateway as node-gateway.mjs, configured by
 * the runtime's environment bindings (UPSTREAM_URL, UPSTREAM_PROTOCOL, UPSTREAM_KEY, UPSTREAM_MODEL).
 *
 *   Workers-style module:  export { default } from "./web-gateway";
 *   Deno:                  Deno.serve((request) => gateway.fetch(request, Deno.env.toObject()));
 *   Bun:                   Bun.serve({ fetch: (request) => gateway.fetch(request, process.env) });
 *
 * No node: imports, no Node streams: only fetch, Request, Response and Web Streams.
 */
import { createGateway } from "./gateway.mjs";

export type GatewayEnv = {
  readonly UPSTREAM_URL?: string | undefined;
  readonly UPSTREAM_PROTOCOL?: string | undefined;
  readonly UPSTREAM_KEY?: string | undefined;
  readonly UPSTREAM_MODEL?: string | undefined;
};

let built: { env: GatewayEnv; handle: (request: Request) => Promise<Response> } | undefined;

/** The handler for an environment, built once per environment object (runtimes pass the same one). */
function handlerFor(env: GatewayEnv): (request: Request) => Promise<Response> {
  if (built === undefined || built.env !== env) {
    const handle = createGateway({
      upstreamUrl: env.UPSTREAM_URL ?? "",
      upstreamProtocol: env.UPSTREAM_PROTOCOL ?? "",
      upstreamKey: env.UPSTREAM_KEY,
      upstreamModel: env.UPSTREAM_MODEL || undefined,
      onLoss: (loss, from, to) =>
        console.warn(`loss ${from}→${to} ${loss.kind} ${loss.path || "/"}: ${loss.message}`),
    });
    built = { env, handle };
  }
  return built.handle;
}

export default {
  fetch(request: Request, env: GatewayEnv): Promise<Response> {
    return handlerFor(env)(request);
  },
};
