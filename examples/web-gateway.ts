/**
 * The translating gateway as a Web-standard `fetch(request) => Response` handler, for edge runtimes
 * and any server that speaks Request/Response. The same gateway as node-gateway.mjs, configured by
 * the runtime's environment bindings (UPSTREAM_URL, UPSTREAM_PROTOCOL, UPSTREAM_KEY, UPSTREAM_MODEL,
 * MAX_TOKENS). Losses and each request's usage go to the runtime's log.
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
  readonly MAX_TOKENS?: string | undefined;
};

const SETTINGS = [
  "UPSTREAM_URL",
  "UPSTREAM_PROTOCOL",
  "UPSTREAM_KEY",
  "UPSTREAM_MODEL",
  "MAX_TOKENS",
] as const;

let built: { settings: string; handle: (request: Request) => Promise<Response> } | undefined;

/**
 * The handler, built once: again only when a setting's value changes. Keyed by the values, not by the
 * environment object, since Deno's `Deno.env.toObject()` makes a new object on every call.
 */
export function handlerFor(env: GatewayEnv): (request: Request) => Promise<Response> {
  const settings = JSON.stringify(SETTINGS.map((name) => env[name] ?? null));
  if (built === undefined || built.settings !== settings) {
    const handle = createGateway({
      upstreamUrl: env.UPSTREAM_URL ?? "",
      upstreamProtocol: env.UPSTREAM_PROTOCOL ?? "",
      upstreamKey: env.UPSTREAM_KEY,
      upstreamModel: env.UPSTREAM_MODEL || undefined,
      maxTokens: env.MAX_TOKENS ? Number(env.MAX_TOKENS) : undefined,
      onLoss: (loss, from, to) =>
        console.warn(`loss ${from}→${to} ${loss.kind} ${loss.path || "/"} (${loss.code}): ${loss.message}`),
      onUsage: (usage, { from, to, model, stream }) =>
        console.warn(
          `usage ${from}→${to} ${model} ${stream ? "stream" : "whole"} ${Object.entries(usage)
            .map(([name, count]) => `${name}=${count}`)
            .join(" ")}`,
        ),
    });
    built = { settings, handle };
  }
  return built.handle;
}

export default {
  fetch(request: Request, env: GatewayEnv): Promise<Response> {
    return handlerFor(env)(request);
  },
};
