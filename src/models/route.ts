/**
 * The gateway routing rule: which upstream serves a request for a model, from the request's
 * identity and the model's `supported_endpoint_types`. The client's own protocol when the model
 * supports it (no conversion), else a translation to a protocol it supports, else an error in the
 * client's shape.
 */
import type { ErrorInfo, Protocol } from "../common/model";
import { renderError } from "../gateway/errors";
import { endpointTypes, protocols } from "../protocols";

/** The endpoint type of a protocol's entry point (spec 4.1), from the table's `endpointTypes`. */
function typeOf(protocol: string): string | undefined {
  return (protocols as readonly string[]).includes(protocol)
    ? endpointTypes[protocol as Protocol]
    : undefined;
}

/**
 * What an operation of `identifyRequest` needs: a generation endpoint of a protocol (served natively
 * or by translation), or one endpoint type that nothing translates to (`prefix`: every type starting so).
 */
type Need =
  | { readonly generate: Protocol; readonly endpoint: string }
  | {
      readonly type: string;
      readonly prefix?: boolean;
      /** The client's body shape differs from the upstream endpoint's (generative embedContent). */
      readonly translate: boolean;
      readonly endpoint: string;
    };

const NEEDS: ReadonlyMap<string, Need> = new Map<string, Need>([
  ["chat.completions", { generate: "chat", endpoint: "POST /v1/chat/completions" }],
  ["messages", { generate: "messages", endpoint: "POST /v1/messages" }],
  ["generateContent", { generate: "generative", endpoint: "POST /v1beta/models/{model}:generateContent" }],
  [
    "streamGenerateContent",
    { generate: "generative", endpoint: "POST /v1beta/models/{model}:streamGenerateContent" },
  ],
  ["responses", { generate: "responses", endpoint: "POST /v1/responses" }],
  // Counting follows generation: natively where the model speaks the client's protocol, else translated
  // (the gateway forwards the count to the upstream's own endpoint, or estimates where it has none).
  ["messages.count_tokens", { generate: "messages", endpoint: "POST /v1/messages/count_tokens" }],
  ["countTokens", { generate: "generative", endpoint: "POST /v1beta/models/{model}:countTokens" }],
  ["responses.input_tokens", { generate: "responses", endpoint: "POST /v1/responses/input_tokens" }],
  // Compaction is the upstream's own summary: natively, or the gateway answers that it has none.
  ["responses.compact", { generate: "responses", endpoint: "POST /v1/responses/compact" }],
  // A WebSocket's turns are responses requests, each served as one.
  ["responses.websocket", { generate: "responses", endpoint: "GET /v1/responses (WebSocket)" }],
  ["embeddings", { type: "embeddings", translate: false, endpoint: "POST /v1/embeddings" }],
  [
    "embedContent",
    { type: "embeddings", translate: true, endpoint: "POST /v1beta/models/{model}:embedContent" },
  ],
  [
    "batchEmbedContents",
    { type: "embeddings", translate: true, endpoint: "POST /v1beta/models/{model}:batchEmbedContents" },
  ],
  [
    "images.generations",
    { type: "image-generation", translate: false, endpoint: "POST /v1/images/generations" },
  ],
  ["rerank", { type: "x-rerank", translate: false, endpoint: "POST /v1/rerank" }],
]);

/** The music operations (`music.audios`, `music.tasks`, ...) need an endpoint type `music-*`. */
const MUSIC: Need = { type: "music-", prefix: true, translate: false, endpoint: "the music API" };

/** The identity of a request as `identifyRequest` gives it (only these two fields are read). */
export type RouteRequest = { readonly protocol?: Protocol | undefined; readonly operation: string };

/** The upstream of a routed request, or the error to answer the client with. */
export type RouteResult =
  | {
      /**
       * A protocol id for generation requests (`chat`, `messages`, `generative`, `responses`);
       * otherwise the endpoint type that serves the request (`embeddings`, `image-generation`,
       * `x-rerank`, the model's `music-*` type).
       */
      upstream: Protocol | "embeddings" | string;
      /** `false`: forward the body as it is; `true`: translate it to `upstream` first. */
      translate: boolean;
    }
  | { error: { status: number; body: unknown } };

/**
 * The endpoint type of a protocol's entry point: `chat` → `std`, `messages` → `msg`,
 * `generative` → `gen`, `responses` → `std-response`.
 */
export function endpointTypeOf(protocol: Protocol): string {
  const type = typeOf(protocol);
  if (type === undefined || !(protocols as readonly string[]).includes(protocol)) {
    throw new TypeError(
      `Unknown protocol ${JSON.stringify(protocol)}: use one of ${protocols.map((id) => JSON.stringify(id)).join(", ")}.`,
    );
  }
  return type;
}

function protocolOfType(type: string): Protocol | undefined {
  for (const protocol of protocols) if (endpointTypes[protocol] === type) return protocol;
  return undefined;
}

function needOf(operation: string): Need {
  if (operation.startsWith("music.")) return MUSIC;
  const need = NEEDS.get(operation);
  if (need !== undefined) return need;
  throw new TypeError(
    operation === "models.list" || operation === "models.retrieve"
      ? `route: ${operation} is answered by the gateway itself (models.formatList / formatModel), not by a model's upstream.`
      : `route: unknown operation ${JSON.stringify(operation)}; pass identifyRequest's result (one of ${[...NEEDS.keys(), "music.*"].join(", ")}).`,
  );
}

/**
 * Which upstream serves `request` (an `identifyRequest` result) for the model `entry`.
 *
 * - A generation request (chat completions, messages, generateContent, responses), and a token count
 *   (messages count_tokens, generative countTokens, responses input_tokens), goes to the
 *   client's own protocol when the model's `supported_endpoint_types` include its type (`std`,
 *   `msg`, `gen`, `std-response`): `{ upstream: <client protocol>, translate: false }` — "a protocol
 *   that the client supports natively is not converted". Otherwise to the first protocol in the
 *   model's own order of `supported_endpoint_types` that this library translates:
 *   `{ upstream, translate: true }`.
 * - Embeddings need `embeddings` (a generative `embedContent` is translated to it), images
 *   `image-generation`, rerank `x-rerank`, music a `music-*` type; these are
 *   never served by another endpoint type.
 * - A model without a fitting endpoint type is refused with HTTP **400** in the client's error shape
 *   (chat `invalid_request_error` with `param: "model"` and `code: "unsupported_endpoint"`,
 *   messages `invalid_request_error`, generative `INVALID_ARGUMENT`, music `{success:false}`): the
 *   request names a model that cannot serve this endpoint, which the client fixes by choosing
 *   another model — not a wrong path (404) and nothing a retry cures (503).
 *
 * Throws a TypeError for `models.list` / `models.retrieve` (no model's upstream answers them) and for
 * an operation `identifyRequest` does not produce.
 *
 * @example
 * route({ protocol: "chat", operation: "chat.completions" }, { id: "m", supported_endpoint_types: ["msg", "std"] });
 * // => { upstream: "chat", translate: false }
 * route({ protocol: "chat", operation: "chat.completions" }, { id: "m", supported_endpoint_types: ["gen", "msg"] });
 * // => { upstream: "generative", translate: true }
 */
export function route(
  request: RouteRequest,
  entry: { readonly id: string; readonly supported_endpoint_types: readonly string[] },
): RouteResult {
  const need = needOf(request.operation);
  const types = entry.supported_endpoint_types;
  if ("generate" in need) {
    const client = request.protocol ?? need.generate;
    const own = typeOf(client);
    if (own !== undefined && types.includes(own)) return { upstream: client, translate: false };
    // Translating needs this library to know both sides.
    if ((protocols as readonly string[]).includes(client)) {
      for (const type of types) {
        const upstream = protocolOfType(type);
        if (upstream !== undefined) return { upstream, translate: true };
      }
    }
    return refuse(request, entry, need.endpoint, own ?? client);
  }
  const found = types.find((type) =>
    need.prefix === true ? type.startsWith(need.type) : type === need.type,
  );
  if (found !== undefined) return { upstream: found, translate: need.translate };
  return refuse(request, entry, need.endpoint, need.prefix === true ? `${need.type}*` : need.type);
}

function refuse(
  request: RouteRequest,
  entry: { readonly id: string; readonly supported_endpoint_types: readonly string[] },
  endpoint: string,
  wanted: string,
): { error: { status: number; body: unknown } } {
  const listed =
    entry.supported_endpoint_types.length === 0 ? "none" : entry.supported_endpoint_types.join(", ");
  const info: ErrorInfo = {
    status: 400,
    kind: "invalid_request",
    message: `The model '${entry.id}' does not support ${endpoint} (its endpoint types: ${listed}; this endpoint needs ${wanted}): use a model whose supported_endpoint_types include it.`,
    code: "unsupported_endpoint",
    param: "model",
  };
  const shape = request.protocol ?? (request.operation.startsWith("music.") ? "music" : "chat");
  return { error: renderError(shape, info) };
}
