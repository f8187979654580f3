// @ts-check
/**
 * A translating gateway as a Web-standard handler, `(request: Request) => Promise<Response>`: every
 * client protocol the library knows in front, one upstream of any of them behind. Hosts:
 * node-gateway.mjs (node:http) and web-gateway.ts (edge runtimes).
 *
 * Per request: identifyRequest (protocol, operation, model) → models.route (served natively, by
 * translation, or refused in the client's shape) → translateRequest → the upstream → translateResponse,
 * translateEventStream (streams, ending honestly) or translateError (the upstream's errors in the
 * client's shape). Nothing here names a client protocol: a protocol the library adds is served as is.
 */
import {
  errors,
  identifyRequest,
  models,
  protocols,
  sse,
  TranslationError,
  translateError,
  translateEventStream,
  translateRequest,
  translateResponse,
} from "gateway-protocols";

/**
 * @typedef {import("gateway-protocols").Protocol} Protocol
 * @typedef {import("gateway-protocols").Loss} Loss
 * @typedef {{
 *   upstreamUrl: string;             // base URL, e.g. http://127.0.0.1:9000
 *   upstreamProtocol: string;        // one of the library's protocol ids
 *   upstreamKey?: string | undefined;
 *   upstreamModel?: string | undefined; // the model sent upstream (default: the client's)
 *   onLoss?: ((loss: Loss, from: string, to: string) => void) | undefined;
 *   fetch?: typeof fetch | undefined;
 * }} GatewayConfig
 */

/**
 * How to call an upstream that speaks each protocol: the path of its generation endpoint and its
 * headers (credential; messages: the version header, the client's as given, spec section 5). This is
 * the upstream's HTTP API, which a pure library leaves to the caller.
 * @type {Record<string, { path(model: string, stream: boolean): string; headers(key: string, client: Headers): Record<string, string> }>}
 */
const UPSTREAMS = {
  chat: {
    path: () => "/v1/chat/completions",
    headers: (key) => ({ authorization: `Bearer ${key}` }),
  },
  messages: {
    path: () => "/v1/messages",
    headers: (key, client) => ({
      "x-api-key": key,
      "anthropic-version": client.get("anthropic-version") ?? client.get("x-proto-version") ?? "2023-06-01",
    }),
  },
  generative: {
    path: (model, stream) =>
      `/v1beta/models/${model.split("/").map(encodeURIComponent).join("/")}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
    headers: (key) => ({ "x-goog-api-key": key }),
  },
  responses: {
    path: () => "/v1/responses",
    headers: (key) => ({ authorization: `Bearer ${key}` }),
  },
};

/** @param {number} status @param {unknown} body @param {Record<string, string>} [headers] */
function json(status, body, headers = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** An error of the gateway's own in the client's shape. @param {Protocol | undefined} client @param {number} status @param {string} message */
function fail(client, status, message) {
  const kind = status === 400 ? "invalid_request" : status === 404 ? "not_found" : "server";
  const { body } = errors.render(client ?? "chat", { status, kind, message });
  return json(status, body);
}

/**
 * An SSE body as one JSON array of its data payloads: generative's `:streamGenerateContent` answers
 * that way unless the client asks `?alt=sse`.
 * @param {ReadableStream<Uint8Array>} stream
 */
function jsonArrayOf(stream) {
  const parser = sse.createParser();
  const encoder = new TextEncoder();
  let opened = false;
  /** @param {{ data: string }[]} messages */
  const elements = (messages) =>
    messages.map((message) => {
      const text = `${opened ? "," : "["}${message.data}`;
      opened = true;
      return text;
    });
  return stream.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        const text = elements(parser.feed(chunk)).join("");
        if (text !== "") controller.enqueue(encoder.encode(text));
      },
      flush(controller) {
        controller.enqueue(encoder.encode(`${elements(parser.end()).join("")}${opened ? "]" : "[]"}`));
      },
    }),
  );
}

/** @param {unknown} value @returns {value is Protocol} */
const isProtocol = (value) => protocols.some((id) => id === value);

/**
 * The request's path with its model replaced, for a request forwarded unchanged:
 * `/v1beta/models/{model}:method` carries the model in the path.
 * @param {URL} url @param {string | undefined} model
 */
function passThroughPath(url, model) {
  const at = url.pathname.indexOf("/models/");
  const colon = url.pathname.lastIndexOf(":");
  if (model === undefined || at === -1 || colon < at) return url.pathname + url.search;
  const encoded = model.split("/").map(encodeURIComponent).join("/");
  return `${url.pathname.slice(0, at + 8)}${encoded}${url.pathname.slice(colon)}${url.search}`;
}

/** @param {GatewayConfig} config @returns {(request: Request) => Promise<Response>} */
export function createGateway(config) {
  const upstream = config.upstreamProtocol;
  const call = UPSTREAMS[upstream];
  if (!isProtocol(upstream) || call === undefined) {
    throw new TypeError(
      `UPSTREAM_PROTOCOL ${JSON.stringify(upstream)} is not one of the protocols: use one of ${protocols.join(", ")}.`,
    );
  }
  if (!/^https?:\/\//.test(config.upstreamUrl ?? "")) {
    throw new TypeError(
      `UPSTREAM_URL must be an http(s) base URL, e.g. http://127.0.0.1:9000 (got ${JSON.stringify(config.upstreamUrl)}).`,
    );
  }
  const base = config.upstreamUrl.replace(/\/+$/, "");
  const upstreamFetch = config.fetch ?? fetch;
  // The catalog: every model is served by the one upstream, so its endpoint type is the upstream's.
  const endpointTypes = [models.endpointTypeOf(upstream)];
  const listed =
    config.upstreamModel === undefined
      ? []
      : [{ id: config.upstreamModel, owned_by: upstream, supported_endpoint_types: endpointTypes }];
  /** @param {string} from @param {string} to */
  const report = (from, to) => (/** @type {Loss} */ loss) => config.onLoss?.(loss, from, to);

  return async function handle(request) {
    const url = new URL(request.url);
    const identified = identifyRequest({
      method: request.method,
      path: url.pathname + url.search,
      headers: request.headers,
    });
    if ("error" in identified) {
      return json(identified.error.status, identified.error.body, identified.error.headers ?? {});
    }
    // A real gateway checks identified.token here (models.checkAccess); this example takes any token.
    const client = identified.protocol;
    if (identified.operation === "models.list") {
      return json(200, models.formatList(identified.listFormat ?? "chat", listed));
    }
    if (identified.operation === "models.retrieve") {
      const entry = listed.find((model) => model.id === identified.model);
      if (entry !== undefined) return json(200, models.formatModel(entry));
      if ((identified.listFormat ?? "chat") === "chat")
        return json(200, models.notFound(identified.model ?? ""));
      return fail(client, 404, `The model '${identified.model}' does not exist`);
    }

    /** @type {Record<string, unknown>} */
    let body;
    try {
      body = JSON.parse(await request.text());
    } catch (error) {
      return fail(client, 400, `The request body is not JSON: ${/** @type {Error} */ (error).message}`);
    }
    const model = identified.model ?? (typeof body?.model === "string" ? body.model : "");
    const routed = models.route(identified, { id: model, supported_endpoint_types: endpointTypes });
    if ("error" in routed) return json(routed.error.status, routed.error.body);

    const signal = request.signal;
    const send = (/** @type {string} */ path, /** @type {unknown} */ payload) =>
      upstreamFetch(`${base}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...call.headers(config.upstreamKey ?? "", request.headers),
        },
        body: JSON.stringify(payload),
        signal,
      });

    if (!routed.translate) {
      // Native: the client speaks the upstream's protocol, so the request goes as it came.
      const payload =
        config.upstreamModel !== undefined && typeof body?.model === "string"
          ? { ...body, model: config.upstreamModel }
          : body;
      let response;
      try {
        response = await send(passThroughPath(url, config.upstreamModel), payload);
      } catch (error) {
        return fail(client, 502, `The upstream is unreachable: ${/** @type {Error} */ (error).message}`);
      }
      const headers = { "content-type": response.headers.get("content-type") ?? "application/json" };
      // A stream goes through as it came, watched: one the upstream cuts or resets ends with the
      // client's own error event rather than a truncated answer (the same protocol on both sides).
      const sse = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
      const answer =
        sse && response.ok && response.body !== null
          ? translateEventStream(upstream, upstream, response.body, { onLoss: report(upstream, upstream) })
          : response.body;
      return new Response(answer, { status: response.status, headers });
    }

    const target = routed.upstream;
    if (client === undefined || !isProtocol(target)) {
      return fail(client, 501, `This example gateway does not translate ${identified.operation} requests.`);
    }
    /** @type {{ value: unknown; model: string; stream: boolean }} */
    let translated;
    try {
      const result = translateRequest(client, target, body, {
        model: identified.model,
        stream: identified.stream,
      });
      result.losses.forEach(report(client, target));
      translated = result;
    } catch (error) {
      if (error instanceof TranslationError) {
        const rendered = error.toErrorBody(client);
        return json(rendered.status, rendered.body);
      }
      throw error;
    }
    const upstreamModel = config.upstreamModel ?? translated.model;
    const value = /** @type {Record<string, unknown>} */ (translated.value);
    const payload = typeof value.model === "string" ? { ...value, model: upstreamModel } : value;
    let response;
    try {
      response = await send(call.path(upstreamModel, translated.stream), payload);
    } catch (error) {
      return fail(client, 502, `The upstream is unreachable: ${/** @type {Error} */ (error).message}`);
    }

    if (!response.ok) {
      const text = await response.text();
      /** @type {unknown} */
      let errorBody = text;
      try {
        errorBody = JSON.parse(text);
      } catch {}
      // The error body's fields the client's shape cannot hold are losses too.
      const error = translateError(
        target,
        client,
        { status: response.status, body: errorBody },
        { onLoss: report(target, client) },
      );
      return json(error.status, error.body);
    }
    const options = { model: upstreamModel, created: Math.floor(Date.now() / 1000) };
    if (translated.stream && response.body !== null) {
      // The library ends the stream honestly: an upstream cut short or reset ends with the client's
      // error event, and the output never errors. A byte stream's losses arrive through onLoss.
      const streamOptions = { ...options, onLoss: report(target, client) };
      const stream = translateEventStream(target, client, response.body, streamOptions);
      if (identified.streamFormat === "json") {
        return new Response(jsonArrayOf(stream), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      }
      return new Response(stream, {
        status: 200,
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      });
    }
    try {
      const result = translateResponse(target, client, await response.json(), options);
      result.losses.forEach(report(target, client));
      return json(200, result.value);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return fail(client, 502, `The upstream's ${target} response could not be read: ${message}`);
    }
  };
}
