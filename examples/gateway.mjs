// @ts-check
/**
 * A translating gateway as a Web-standard handler, `(request: Request) => Promise<Response>`: every
 * client protocol the library knows in front, one upstream of any of them behind. Hosts:
 * node-gateway.mjs (node:http) and web-gateway.ts (edge runtimes).
 *
 * Per request: identifyRequest (protocol, operation, model) → models.route (served natively, by
 * translation, or refused in the client's shape) → translateRequest → the upstream → translateResponse,
 * translateEventStream (streams, ending honestly) or translateError (the upstream's errors in the
 * client's shape, with its retry delay). Headers cross by the library's rules both ways
 * (gateway.upstreamHeaders: the client's beta and version headers reach an upstream of its own
 * protocol; gateway.clientHeaders: retry-after, request ids and rate limits come back in the client's
 * conventions). Usage is reported once per request (`onUsage`): from the response, or from the stream
 * as it passes. Token counts (messages count_tokens, generative countTokens, responses input_tokens)
 * go to the upstream's own count endpoint, or are estimated, and said to be, where it has none.
 * Nothing here names a client protocol but for what the Responses API keeps beyond one request: stored
 * turns for `previous_response_id` (a `ResponseStore`, in memory by default), `/v1/responses/compact`
 * and Responses over WebSocket (`openResponsesSocket`, each `response.create` message a turn served like
 * a streamed POST). In front of a responses upstream these go to the upstream as they came (it stores
 * and compacts), but for a WebSocket's `store: false` turns, which the connection keeps. Every other
 * protocol the library adds is served as is.
 */
import {
  errors,
  gateway,
  identifyRequest,
  models,
  protocols,
  responses,
  sse,
  TranslationError,
  translateError,
  translateEventStream,
  translateRequest,
  translateResponse,
  usageOf,
} from "gateway-protocols";

/**
 * @typedef {import("gateway-protocols").Protocol} Protocol
 * @typedef {import("gateway-protocols").Loss} Loss
 * @typedef {import("gateway-protocols").Usage} Usage
 * @typedef {{ from: string; to: string; model: string; operation: string; stream: boolean }} Exchange
 * @typedef {{
 *   upstreamUrl: string;             // base URL, e.g. http://127.0.0.1:9000
 *   upstreamProtocol: string;        // one of the library's protocol ids
 *   upstreamKey?: string | undefined;
 *   upstreamModel?: string | undefined; // the model sent upstream (default: the client's)
 *   maxTokens?: number | undefined;  // output budget toward messages when the client sets none (default: defaultMaxTokens)
 *   onLoss?: ((loss: Loss, from: string, to: string) => void) | undefined;
 *   onUsage?: ((usage: Usage, exchange: Exchange) => void) | undefined;
 *   fetch?: typeof fetch | undefined;
 *   now?: (() => number) | undefined; // milliseconds since the epoch (default Date.now), for rate-limit resets
 *   store?: ResponseStore | undefined; // stored turns for previous_response_id (default: memoryStore())
 * }} GatewayConfig
 */

/**
 * Where the gateway keeps the turns a later `previous_response_id` continues, for upstreams that do not
 * keep them (any but a responses one, which keeps all but a WebSocket's `store: false` turns): under
 * each answer's id, the conversation up to and including it (`responses.historyOf`). `persist: false` is a request that said `store: false`: the HTTP gateway keeps
 * nothing of it; a WebSocket keeps it for its own connection only (openResponsesSocket). Any key-value
 * database fits behind these three calls, which may return promises.
 * @typedef {{
 *   get(id: string): unknown[] | undefined | Promise<unknown[] | undefined>;
 *   set(id: string, items: unknown[], options: { persist: boolean }): void | Promise<void>;
 *   delete(id: string): void | Promise<void>;
 * }} ResponseStore
 */

/**
 * A ResponseStore in this process's memory: the most recent `limit` conversations that asked to be
 * stored (`store` not false), the oldest forgotten first.
 * @param {number} [limit]
 * @returns {ResponseStore}
 */
export function memoryStore(limit = 10_000) {
  /** @type {Map<string, unknown[]>} */
  const turns = new Map();
  return {
    get: (id) => turns.get(id),
    set(id, items, { persist }) {
      if (!persist) return;
      turns.delete(id);
      turns.set(id, items);
      if (turns.size > limit) turns.delete(/** @type {string} */ (turns.keys().next().value));
    },
    delete(id) {
      turns.delete(id);
    },
  };
}

/**
 * A translated SSE body passed on as it is, with its final response (a terminal event's `response`)
 * handed to `onFinal` before the bytes that carry it go on: what is stored is stored before the client
 * can name it.
 * @param {ReadableStream<Uint8Array>} body @param {(response: any) => unknown} onFinal
 */
function tapFinal(body, onFinal) {
  const parser = sse.createParser();
  return body.pipeThrough(
    new TransformStream({
      async transform(chunk, controller) {
        for (const message of parser.feed(chunk)) {
          try {
            const event = JSON.parse(message.data);
            if (event?.type === "response.completed" || event?.type === "response.incomplete")
              await onFinal(event.response);
          } catch {
            // Not an event of the answer (a [DONE]): nothing to store.
          }
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * A responses SSE body whose request the gateway sent without its `previous_response_id` (the
 * conversation it named went as the input instead: openResponsesSocket's `store: false` turns): every
 * event's response names `previous` again, as the service's answer to the client's request would.
 * @param {ReadableStream<Uint8Array>} body @param {string} previous
 */
function namingPrevious(body, previous) {
  const parser = sse.createParser();
  const encoder = new TextEncoder();
  /** @param {import("gateway-protocols").sse.SseMessage[]} messages */
  const rewrite = (messages) =>
    messages
      .map((message) => {
        try {
          const event = JSON.parse(message.data);
          if (event?.response !== null && typeof event?.response === "object") {
            event.response.previous_response_id = previous;
            return sse.format({ ...message, data: JSON.stringify(event) });
          }
        } catch {
          // Not an event of the answer (a [DONE]): as it came.
        }
        return sse.format(message);
      })
      .join("");
  /** @param {string} text @param {TransformStreamDefaultController<Uint8Array>} controller */
  const send = (text, controller) => {
    if (text !== "") controller.enqueue(encoder.encode(text));
  };
  return body.pipeThrough(
    new TransformStream({
      transform: (chunk, controller) => send(rewrite(parser.feed(chunk)), controller),
      flush: (controller) => send(rewrite(parser.end()), controller),
    }),
  );
}

/**
 * How to call an upstream that speaks each protocol: the path of its generation endpoint, of its token
 * count (none: chat has no such endpoint) and its credential header. Every other header comes from
 * gateway.upstreamHeaders. This is the upstream's HTTP API, which a pure library leaves to the caller.
 * @type {Record<string, { path(model: string, stream: boolean): string; countPath?: (model: string) => string; credential(key: string): Record<string, string> }>}
 */
const UPSTREAMS = {
  chat: {
    path: () => "/v1/chat/completions",
    credential: (key) => ({ authorization: `Bearer ${key}` }),
  },
  messages: {
    path: () => "/v1/messages",
    countPath: () => "/v1/messages/count_tokens",
    credential: (key) => ({ "x-api-key": key }),
  },
  generative: {
    path: (model, stream) =>
      `/v1beta/models/${modelPath(model)}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
    countPath: (model) => `/v1beta/models/${modelPath(model)}:countTokens`,
    credential: (key) => ({ "x-goog-api-key": key }),
  },
  responses: {
    path: () => "/v1/responses",
    countPath: () => "/v1/responses/input_tokens",
    credential: (key) => ({ authorization: `Bearer ${key}` }),
  },
};

/** @param {string} model */
const modelPath = (model) => model.split("/").map(encodeURIComponent).join("/");

/**
 * The output budget a messages upstream gets when the client's request names none (Codex and Gemini CLI
 * send none; messages requires one). The library's fallback, 4096, cuts an agent's long answers and
 * tool calls (a whole file in one write call), so the example asks for what Claude Code itself asks
 * (32,000) from the models that allow it, and each older model's own maximum otherwise. A budget only
 * bounds the answer: the upstream bills the tokens generated, not the budget. `MAX_TOKENS` overrides.
 * @param {string} model
 */
export function defaultMaxTokens(model) {
  const id = model.toLowerCase();
  if (/claude-3-(opus|sonnet|haiku)|claude-(2|instant)/.test(id)) return 4096;
  if (/claude-3-5/.test(id)) return 8192;
  // Claude 3.7 and 4.x allow 32,000 or more (Opus 4 and 4.1: 32,000; the others 64,000).
  if (/claude/.test(id)) return 32000;
  // Another model behind a messages-compatible API: a budget such services accept.
  return 8192;
}

/** @param {number} status @param {unknown} body @param {Record<string, string>} [headers] */
function json(status, body, headers = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "content-type": "application/json" },
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
  return `${url.pathname.slice(0, at + 8)}${modelPath(model)}${url.pathname.slice(colon)}${url.search}`;
}

/** The three token-count operations, by the client protocol each belongs to. */
const COUNTS = new Set(["messages.count_tokens", "countTokens", "responses.input_tokens"]);

/**
 * A token count's body as the client protocol's generation request (the shape translateRequest reads):
 * generative sends `{contents}` or `{generateContentRequest}`; messages count_tokens has no max_tokens,
 * which only the translation needs (nothing is generated).
 * @param {Protocol} client @param {Record<string, unknown>} body
 */
function countRequestOf(client, body) {
  if (client === "generative") {
    const wrapped = /** @type {Record<string, unknown> | undefined} */ (body.generateContentRequest);
    if (wrapped !== undefined) {
      const { model: _model, ...request } = wrapped;
      return request;
    }
    return body;
  }
  if (client === "messages") return { max_tokens: 1, ...body };
  return body;
}

/**
 * What an upstream's count endpoint takes, from the translated generation request: the fields it
 * counts (the count endpoints refuse generation settings such as `max_tokens` or `stream`).
 * @param {Protocol} upstream @param {Record<string, unknown>} request @param {string} model
 */
function countQuestion(upstream, request, model) {
  if (upstream === "generative") {
    const { generationConfig: _config, ...counted } = request;
    return { generateContentRequest: { ...counted, model: `models/${model}` } };
  }
  const fields =
    upstream === "messages"
      ? ["model", "messages", "system", "tools", "tool_choice", "thinking"]
      : [
          "model",
          "input",
          "instructions",
          "tools",
          "tool_choice",
          "reasoning",
          "text",
          "previous_response_id",
        ];
  return Object.fromEntries(Object.entries(request).filter(([key]) => fields.includes(key)));
}

/**
 * A count in the client protocol's answer shape.
 * @param {Protocol} client @param {number} tokens
 */
function countAnswer(client, tokens) {
  if (client === "generative") return { totalTokens: tokens };
  if (client === "responses") return { object: "response.input_tokens", input_tokens: tokens };
  return { input_tokens: tokens };
}

/**
 * The tokens an upstream's count answer gives, read from its protocol's answer shape.
 * @param {Protocol} upstream @param {Record<string, unknown>} body
 */
function countOf(upstream, body) {
  const value = upstream === "generative" ? body.totalTokens : body.input_tokens;
  return typeof value === "number" ? value : undefined;
}

/**
 * A rough count of a request's tokens, for an upstream that cannot count them (chat): a quarter of
 * the characters of its text. Said to be an estimate wherever it is answered.
 * @param {unknown} request
 */
function estimateTokens(request) {
  let characters = 0;
  /** @param {unknown} node */
  const walk = (node) => {
    if (typeof node === "string") characters += node.length;
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object") Object.values(node).forEach(walk);
  };
  walk(request);
  return Math.ceil(characters / 4);
}

/**
 * The error a responses client gets for a `previous_response_id` the gateway has no turns for (the
 * service's own code and words).
 * @param {string} id
 */
const previousNotFound = (id) =>
  json(400, {
    error: {
      message: `Previous response with id '${id}' not found.`,
      type: "invalid_request_error",
      param: "previous_response_id",
      code: "previous_response_not_found",
    },
  });

/**
 * The gateway's handler. `context.store` stands in for the configured store for one call (a WebSocket's
 * turns keep their own: openResponsesSocket).
 * @typedef {(request: Request, context?: { store?: ResponseStore | undefined }) => Promise<Response>} Handler
 */

/** @param {GatewayConfig} config @returns {Handler} */
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
  if (config.maxTokens !== undefined && !(Number.isInteger(config.maxTokens) && config.maxTokens > 0)) {
    throw new TypeError(`MAX_TOKENS must be a positive integer (got ${JSON.stringify(config.maxTokens)}).`);
  }
  const base = config.upstreamUrl.replace(/\/+$/, "");
  const upstreamFetch = config.fetch ?? fetch;
  const turns = config.store ?? memoryStore();
  const now = config.now ?? Date.now;
  // The catalog: every model is served by the one upstream, so its endpoint type is the upstream's.
  const endpointTypes = [models.endpointTypeOf(upstream)];
  const listed =
    config.upstreamModel === undefined
      ? []
      : [{ id: config.upstreamModel, owned_by: upstream, supported_endpoint_types: endpointTypes }];
  /** @param {string} from @param {string} to */
  const report = (from, to) => (/** @type {Loss} */ loss) => config.onLoss?.(loss, from, to);

  return async function handle(request, context = {}) {
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
    if (identified.operation === "responses.websocket") {
      // The host answers the upgrade (node-gateway.mjs); a plain GET has nothing to be served.
      const message =
        "GET /v1/responses is Responses over WebSocket: open a WebSocket (Upgrade: websocket) and send response.create messages.";
      return json(
        426,
        { error: { message, type: "invalid_request_error", param: null, code: "upgrade_required" } },
        { upgrade: "websocket" },
      );
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
    const counting = COUNTS.has(identified.operation);
    if (identified.operation === "responses.compact") {
      if (typeof body?.model !== "string")
        return json(400, {
          error: {
            message: "Missing required parameter: 'model'.",
            type: "invalid_request_error",
            param: "model",
            code: "missing_required_parameter",
          },
        });
      if (routed.translate)
        return json(501, {
          error: {
            message: `This gateway cannot compact a conversation: compaction is a summary the model writes, and the ${upstream} upstream behind this example has no compaction endpoint (the example does not ask the model for a summary). Start a new response with the full input (or your own summary of it) instead.`,
            type: "server_error",
            param: null,
            code: "compaction_unsupported",
          },
        });
    }

    const signal = request.signal;
    /** @param {string} from @param {string} path @param {unknown} payload */
    const send = (from, path, payload) =>
      upstreamFetch(`${base}${path}`, {
        method: "POST",
        headers: {
          ...gateway.upstreamHeaders(/** @type {Protocol} */ (from), upstream, request.headers),
          ...call.credential(config.upstreamKey ?? ""),
          "content-type": "application/json",
        },
        body: JSON.stringify(payload),
        signal,
      });
    /** @param {string} to @param {Response} response */
    const answerHeaders = (to, response) =>
      gateway.clientHeaders(upstream, /** @type {Protocol} */ (to), response.headers, { now: now() });
    /** @param {string} from @param {string} to @param {string} upstreamModel @param {boolean} stream */
    const bill = (from, to, upstreamModel, stream) => (/** @type {Usage} */ usage) =>
      config.onUsage?.(usage, { from, to, model: upstreamModel, operation: identified.operation, stream });
    /** The upstream's error in the client's shape, with its retry delay and request id. @param {string} to @param {Response} response */
    const upstreamError = async (to, response) => {
      const text = await response.text();
      /** @type {unknown} */
      let errorBody = text;
      try {
        errorBody = JSON.parse(text);
      } catch {}
      // The error body's fields the client's shape cannot hold are losses too.
      const error = translateError(
        upstream,
        /** @type {Protocol} */ (to),
        { status: response.status, body: errorBody, headers: response.headers },
        { onLoss: report(upstream, to), now: now() },
      );
      return json(error.status, error.body, error.headers);
    };

    if (!routed.translate) {
      // Native: the client speaks the upstream's protocol, so the request goes as it came.
      const upstreamModel = config.upstreamModel ?? model;
      let payload =
        config.upstreamModel !== undefined && typeof body?.model === "string"
          ? { ...body, model: config.upstreamModel }
          : body;
      // A WebSocket's turns (context.store): the upstream keeps what it was asked to store and is
      // named by previous_response_id as it came; a `store: false` turn it was asked not to keep, so
      // the connection keeps it, and a turn that continues it sends its conversation as the input.
      const local = identified.operation === "responses" ? context.store : undefined;
      /** @type {unknown[] | undefined} */
      let kept;
      const previous = body?.previous_response_id;
      if (local !== undefined && typeof previous === "string") {
        kept = await local.get(previous);
        if (kept !== undefined) {
          const { previous_response_id: _continued, ...rest } = payload;
          const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input;
          payload = { ...rest, input: [...kept, ...(Array.isArray(input) ? input : [])] };
        }
      }
      const keep =
        local !== undefined && body?.store === false
          ? (/** @type {any} */ answer) =>
              local.set(answer.id, responses.historyOf(/** @type {any} */ (body), answer, kept), {
                persist: false,
              })
          : undefined;
      let response;
      try {
        response = await send(upstream, passThroughPath(url, config.upstreamModel), payload);
      } catch (error) {
        return fail(client, 502, `The upstream is unreachable: ${/** @type {Error} */ (error).message}`);
      }
      // The same protocol: the error body as it came, with a retry delay only its body said (Gemini's RetryInfo) as retry-after.
      if (!response.ok) return upstreamError(upstream, response);
      const headers = {
        ...answerHeaders(upstream, response),
        "content-type": response.headers.get("content-type") ?? "application/json",
      };
      const sse = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
      const streamed = response.ok && response.body !== null && (sse || identified.stream === true);
      if (streamed && response.body !== null) {
        // A stream goes through as it came, watched: one the upstream cuts or resets ends with the
        // client's own error event rather than a truncated answer, and its usage is billed as it passes.
        const answer = translateEventStream(upstream, upstream, response.body, {
          onLoss: report(upstream, upstream),
          onUsage: bill(upstream, upstream, upstreamModel, true),
        });
        const named = kept === undefined ? answer : namingPrevious(answer, /** @type {string} */ (previous));
        return new Response(keep === undefined ? named : tapFinal(named, keep), {
          status: response.status,
          headers,
        });
      }
      let text = await response.text();
      if (response.ok && !counting) {
        try {
          const parsed = JSON.parse(text);
          const usage = usageOf(upstream, parsed);
          if (usage !== undefined) bill(upstream, upstream, upstreamModel, false)(usage);
          if (kept !== undefined) text = JSON.stringify({ ...parsed, previous_response_id: previous });
          await keep?.(parsed);
        } catch {
          // Not the protocol's response: the client gets it as it came, unbilled.
        }
      }
      return new Response(text, { status: response.status, headers });
    }

    const target = routed.upstream;
    if (client === undefined || !isProtocol(target)) {
      return fail(client, 501, `This example gateway does not translate ${identified.operation} requests.`);
    }
    // A responses request that continues an earlier one: the upstream keeps no turns, the gateway does.
    const store = context.store ?? turns;
    /** @type {unknown[] | undefined} */
    let history;
    const continues =
      identified.operation === "responses" || identified.operation === "responses.input_tokens";
    const previous = continues ? body?.previous_response_id : undefined;
    if (typeof previous === "string") {
      history = await store.get(previous);
      if (history === undefined) return previousNotFound(previous);
    }
    /** Stores an answer's turns under its id, for the request that continues it. */
    const remember =
      identified.operation === "responses"
        ? (/** @type {any} */ answer) =>
            store.set(answer.id, responses.historyOf(/** @type {any} */ (body), answer, history), {
              persist: body?.store !== false,
            })
        : undefined;
    /** @type {{ value: unknown; model: string; stream: boolean }} */
    let translated;
    const upstreamModelOf = (/** @type {string} */ model) => config.upstreamModel ?? model;
    try {
      const result = translateRequest(client, target, counting ? countRequestOf(client, body) : body, {
        model: identified.model,
        stream: counting ? false : identified.stream,
        maxTokens: config.maxTokens ?? defaultMaxTokens(upstreamModelOf(model)),
        // The upstream's model: its rules (Gemini 3's thought signatures, thinking levels) apply.
        targetModel: config.upstreamModel,
        history,
      });
      if (!counting) result.losses.forEach(report(client, target));
      translated = result;
    } catch (error) {
      if (error instanceof TranslationError) {
        const rendered = error.toErrorBody(client);
        return json(rendered.status, rendered.body);
      }
      throw error;
    }
    // The translated body already names the upstream's model (targetModel).
    const upstreamModel = translated.model;
    const payload = /** @type {Record<string, unknown>} */ (translated.value);

    if (counting) {
      if (call.countPath === undefined) {
        // The upstream cannot count: an estimate, said to be one in the body and in a header.
        return json(
          200,
          { ...countAnswer(client, estimateTokens(payload)), estimate: true },
          { "x-token-count": "estimate" },
        );
      }
      let response;
      try {
        response = await send(
          client,
          call.countPath(upstreamModel),
          countQuestion(target, payload, upstreamModel),
        );
      } catch (error) {
        return fail(client, 502, `The upstream is unreachable: ${/** @type {Error} */ (error).message}`);
      }
      if (!response.ok) return upstreamError(client, response);
      const tokens = countOf(target, await response.json());
      if (tokens === undefined)
        return fail(client, 502, `The upstream's ${target} token count could not be read.`);
      return json(200, countAnswer(client, tokens), answerHeaders(client, response));
    }

    let response;
    try {
      response = await send(client, call.path(upstreamModel, translated.stream), payload);
    } catch (error) {
      return fail(client, 502, `The upstream is unreachable: ${/** @type {Error} */ (error).message}`);
    }
    if (!response.ok) return upstreamError(client, response);
    const headers = answerHeaders(client, response);
    // The client's request: a responses answer echoes its configuration (instructions, tools, …).
    const options = { model: upstreamModel, created: Math.floor(now() / 1000), request: body };
    if (translated.stream && response.body !== null) {
      // The library ends the stream honestly: an upstream cut short or reset ends with the client's
      // error event, and the output never errors. A byte stream's losses arrive through onLoss, its
      // usage through onUsage when it ends.
      const streamOptions = {
        ...options,
        onLoss: report(target, client),
        onUsage: bill(target, client, upstreamModel, true),
      };
      const translatedStream = translateEventStream(target, client, response.body, streamOptions);
      const stream = remember === undefined ? translatedStream : tapFinal(translatedStream, remember);
      if (identified.streamFormat === "json") {
        return new Response(jsonArrayOf(stream), {
          status: 200,
          headers: { ...headers, "content-type": "application/json" },
        });
      }
      return new Response(stream, {
        status: 200,
        headers: { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache" },
      });
    }
    try {
      const upstreamBody = await response.json();
      const result = translateResponse(target, client, upstreamBody, options);
      result.losses.forEach(report(target, client));
      await remember?.(result.value);
      const usage = usageOf(target, upstreamBody);
      if (usage !== undefined) bill(target, client, upstreamModel, false)(usage);
      return json(200, result.value, headers);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return fail(client, 502, `The upstream's ${target} response could not be read: ${message}`);
    }
  };
}

/**
 * Responses over WebSocket on one connection: each client message is a turn — a `response.create`
 * event served as a streamed `POST /v1/responses` through `handle` — answered with the turn's stream
 * events, one message each (the same events as SSE), or one `error` envelope. Turns run one at a
 * time. The connection keeps its own turns, `store: false` ones too, so a turn continues the one
 * before it on the same socket (toward a responses upstream, which was asked not to store it, with the
 * kept conversation as the input); a `store: false` turn is not found from another connection (the
 * service's `previous_response_not_found`), and a continuation that fails forgets the turn it named.
 * @param {Handler} handle
 * @param {{ url: string; headers: HeadersInit; store?: ResponseStore | undefined }} connection
 *   the upgrade request's URL and headers (its credential), and the store the HTTP gateway uses
 * @returns {{ turn(message: string): AsyncGenerator<string> }}
 */
export function openResponsesSocket(handle, { url, headers, store }) {
  /** @type {Map<string, unknown[]>} */
  const local = new Map();
  /** @type {ResponseStore} */
  const session = {
    get: async (id) => local.get(id) ?? (await store?.get(id)),
    async set(id, items, options) {
      local.set(id, items);
      await store?.set(id, items, options);
    },
    delete(id) {
      local.delete(id);
    },
  };
  const endpoint = new URL("/v1/responses", url).href;
  const requestHeaders = new Headers(headers);
  requestHeaders.set("content-type", "application/json");
  for (const name of [
    "upgrade",
    "connection",
    "sec-websocket-key",
    "sec-websocket-version",
    "sec-websocket-extensions",
    "content-length",
  ])
    requestHeaders.delete(name);
  return {
    async *turn(message) {
      const asked = responses.requestOfMessage(message);
      if ("error" in asked) {
        yield JSON.stringify(asked.error);
        return;
      }
      const previous = asked.request.previous_response_id;
      const forget = () => {
        if (typeof previous === "string") session.delete(previous);
      };
      const response = await handle(
        new Request(endpoint, {
          method: "POST",
          headers: requestHeaders,
          body: JSON.stringify(asked.request),
        }),
        { store: session },
      );
      if (!response.ok || response.body === null) {
        /** @type {any} */
        let body;
        try {
          body = await response.json();
        } catch {
          body = { error: { message: `The gateway answered HTTP ${response.status}.` } };
        }
        forget();
        yield JSON.stringify(
          responses.websocketError(response.status, body?.error ?? { message: String(body) }),
        );
        return;
      }
      const reader = response.body.pipeThrough(sse.createDataStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        // A turn that fails ends the chain it continued, as the service's does.
        if (value.includes('"response.failed"') || value.includes('"error"')) {
          const type = JSON.parse(value)?.type;
          if (type === "response.failed" || type === "error") forget();
        }
        yield value;
      }
    },
  };
}
