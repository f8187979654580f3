/**
 * `identifyRequest`: which protocol and operation an incoming HTTP request is, which model the path
 * names, whose token it carries and which model-list format it wants.
 * Paths are those of the chat-completions, messages and generative-content APIs, the gateway's model
 * lists and embeddings, and the asynchronous music API (`/music/…`).
 */
import type { ErrorInfo, Protocol } from "../common/model";
import type { ListFormat } from "../models/format";
import { type ErrorShape, renderError } from "./errors";
import { type HeadersLike, headerReader } from "./headers";

/**
 * What a request is for. Chat-compatible family (`chat` errors): `chat.completions`, `embeddings`,
 * `images.generations`, `rerank`. Responses: `responses` (its error body is the chat-style envelope). Messages: `messages`, and `messages.count_tokens`
 * (`POST /v1/messages/count_tokens`: the messages request body, answered with `{input_tokens}`). Generative:
 * `generateContent`, `streamGenerateContent`, `countTokens` (`{contents}` or `{generateContentRequest}`,
 * answered with `{totalTokens}`), `embedContent`, `batchEmbedContents`. Responses also
 * `responses.input_tokens` (`POST /v1/responses/input_tokens`: a responses request body, answered with
 * `{object: "response.input_tokens", input_tokens}`), `responses.compact` (`POST /v1/responses/compact`: a
 * responses request body, answered with `{object: "response.compaction", output}`) and
 * `responses.websocket` (`GET /v1/responses`, upgraded to a WebSocket: Responses over WebSocket, whose
 * client sends `response.create` messages and gets the stream events as messages). Model listing
 * (any protocol, see `listFormat`): `models.list`, `models.retrieve`. Music (music errors):
 * `music.audios`, `music.tasks`, `music.lyrics`, `music.upload`, `music.persona.list` (GET),
 * `music.persona.create` (POST), `music.voices`, `music.style`, `music.mashup-lyrics`, `music.wav`,
 * `music.mp4`, `music.midi`, `music.timing`, `music.vox`.
 */
export type Operation =
  | "chat.completions"
  | "embeddings"
  | "responses"
  | "images.generations"
  | "rerank"
  | "messages"
  | "messages.count_tokens"
  | "countTokens"
  | "responses.input_tokens"
  | "responses.compact"
  | "responses.websocket"
  | "generateContent"
  | "streamGenerateContent"
  | "embedContent"
  | "batchEmbedContents"
  | "models.list"
  | "models.retrieve"
  | "music.audios"
  | "music.tasks"
  | "music.lyrics"
  | "music.upload"
  | "music.persona.list"
  | "music.persona.create"
  | "music.voices"
  | "music.style"
  | "music.mashup-lyrics"
  | "music.wav"
  | "music.mp4"
  | "music.midi"
  | "music.timing"
  | "music.vox";

/** An incoming HTTP request as `identifyRequest` reads it: method, target and headers. */
export type IdentifyInput = {
  readonly method: string;
  /** The request target: path plus query string (an absolute URL is accepted too). */
  readonly path: string;
  readonly headers?: HeadersLike | undefined;
};

/** What `identifyRequest` makes of a request it routes: protocol, operation, model, token, list format. */
export type Identified = {
  /** The client protocol; absent for endpoints outside the four (images, rerank, music). */
  protocol?: Protocol;
  operation: Operation;
  /** The model the path names (generative methods, models.retrieve), percent-decoded. */
  model?: string;
  /** Known from the path for generative methods; chat and messages carry it in the body. */
  stream?: boolean;
  /** `streamGenerateContent` only: `sse` with `?alt=sse`, otherwise a JSON array. */
  streamFormat?: "sse" | "json";
  token?: string;
  /** models.list / models.retrieve: the format of the answer. */
  listFormat?: ListFormat;
};

/**
 * An answer the gateway gives without forwarding: 400, 401, 404, or 405 for a known path called with
 * another method, which also carries the `Allow` header HTTP requires with a 405.
 */
export type IdentifyError = {
  status: number;
  body: unknown;
  headers?: { allow: string };
};

/** `identifyRequest`'s answer: the request identified, or the error to answer it with. */
export type IdentifyResult = Identified | { error: IdentifyError };

/** Where a route accepts its token, in precedence order. */
type Credential = "bearer" | "x-api-key" | "x-alt-api-key" | "x-goog-api-key" | "query-key";

const CHAT_CREDENTIALS: readonly Credential[] = ["bearer"];
const MESSAGES_CREDENTIALS: readonly Credential[] = ["bearer", "x-api-key"];
const GENERATIVE_CREDENTIALS: readonly Credential[] = [
  "bearer",
  "x-alt-api-key",
  "x-goog-api-key",
  "query-key",
];
// `/v1/models` answers messages-style clients (x-api-key) and the generative SDK's `apiVersion: "v1"` (x-goog-api-key).
const V1_MODELS_CREDENTIALS: readonly Credential[] = [
  "bearer",
  "x-api-key",
  "x-alt-api-key",
  "x-goog-api-key",
  "query-key",
];

type Route = {
  readonly protocol?: Protocol;
  readonly operation: Operation;
  readonly shape: ErrorShape;
  readonly credentials: readonly Credential[];
  readonly model?: string;
  readonly stream?: boolean;
  readonly streamFormat?: "sse" | "json";
  /** Which listing family, when the route is a model list or retrieve. */
  readonly listing?: "v1" | "v1beta";
};

const FIXED_ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  [
    "POST /v1/chat/completions",
    { protocol: "chat", operation: "chat.completions", shape: "chat", credentials: CHAT_CREDENTIALS },
  ],
  [
    "POST /v1/embeddings",
    { protocol: "chat", operation: "embeddings", shape: "chat", credentials: CHAT_CREDENTIALS },
  ],
  [
    "POST /v1/messages",
    { protocol: "messages", operation: "messages", shape: "messages", credentials: MESSAGES_CREDENTIALS },
  ],
  [
    "POST /v1/messages/count_tokens",
    {
      protocol: "messages",
      operation: "messages.count_tokens",
      shape: "messages",
      credentials: MESSAGES_CREDENTIALS,
    },
  ],
  [
    "POST /v1/responses",
    { protocol: "responses", operation: "responses", shape: "responses", credentials: CHAT_CREDENTIALS },
  ],
  [
    "POST /v1/responses/input_tokens",
    {
      protocol: "responses",
      operation: "responses.input_tokens",
      shape: "responses",
      credentials: CHAT_CREDENTIALS,
    },
  ],
  [
    "POST /v1/responses/compact",
    {
      protocol: "responses",
      operation: "responses.compact",
      shape: "responses",
      credentials: CHAT_CREDENTIALS,
    },
  ],
  // Responses over WebSocket: the client opens `GET /v1/responses` with an upgrade, then sends
  // `response.create` messages (responses.requestOfMessage).
  [
    "GET /v1/responses",
    {
      protocol: "responses",
      operation: "responses.websocket",
      shape: "responses",
      credentials: CHAT_CREDENTIALS,
    },
  ],
  [
    "POST /v1/images/generations",
    { operation: "images.generations", shape: "chat", credentials: CHAT_CREDENTIALS },
  ],
  ["POST /v1/rerank", { operation: "rerank", shape: "chat", credentials: CHAT_CREDENTIALS }],
  [
    "GET /v1/models",
    { operation: "models.list", shape: "chat", credentials: V1_MODELS_CREDENTIALS, listing: "v1" },
  ],
  // Spec 4.1: `/models` is rewritten to `/v1/models` for clients whose base lacks `/v1`.
  [
    "GET /models",
    { operation: "models.list", shape: "chat", credentials: V1_MODELS_CREDENTIALS, listing: "v1" },
  ],
  [
    "GET /v1beta/models",
    {
      protocol: "generative",
      operation: "models.list",
      shape: "generative",
      credentials: GENERATIVE_CREDENTIALS,
      listing: "v1beta",
    },
  ],
  ...musicRoutes(),
]);

function musicRoutes(): [string, Route][] {
  const music = (method: string, segment: string, operation: Operation): [string, Route] => [
    `${method} /music/${segment}`,
    { operation, shape: "music", credentials: CHAT_CREDENTIALS },
  ];
  return [
    music("POST", "audios", "music.audios"),
    music("POST", "tasks", "music.tasks"),
    music("POST", "lyrics", "music.lyrics"),
    music("POST", "upload", "music.upload"),
    music("GET", "persona", "music.persona.list"),
    music("POST", "persona", "music.persona.create"),
    music("POST", "voices", "music.voices"),
    music("POST", "style", "music.style"),
    music("POST", "mashup-lyrics", "music.mashup-lyrics"),
    music("POST", "wav", "music.wav"),
    music("POST", "mp4", "music.mp4"),
    music("POST", "midi", "music.midi"),
    music("POST", "timing", "music.timing"),
    music("POST", "vox", "music.vox"),
  ];
}

const GENERATIVE_METHODS: ReadonlyMap<string, Operation> = new Map<string, Operation>([
  ["generateContent", "generateContent"],
  ["streamGenerateContent", "streamGenerateContent"],
  ["countTokens", "countTokens"],
  ["embedContent", "embedContent"],
  ["batchEmbedContents", "batchEmbedContents"],
]);

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Path and query of a request target; an absolute URL loses its origin, a fragment is ignored. */
function splitTarget(target: string): { pathname: string; query: URLSearchParams } {
  let rest = target;
  const hash = rest.indexOf("#");
  if (hash !== -1) rest = rest.slice(0, hash);
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?]*/.exec(rest);
  if (scheme !== null) rest = rest.slice(scheme[0].length);
  const mark = rest.indexOf("?");
  let pathname = mark === -1 ? rest : rest.slice(0, mark);
  const query = new URLSearchParams(mark === -1 ? "" : rest.slice(mark + 1));
  if (!pathname.startsWith("/")) pathname = `/${pathname}`;
  if (pathname.length > 1 && pathname.endsWith("/")) pathname = pathname.slice(0, -1);
  return { pathname, query };
}

/** The error shape of a path nobody routes, guessed from its prefix. */
function shapeOfPath(pathname: string): ErrorShape {
  if (pathname === "/v1beta" || pathname.startsWith("/v1beta/")) return "generative";
  if (pathname === "/v1/messages" || pathname.startsWith("/v1/messages/")) return "messages";
  if (pathname === "/music" || pathname.startsWith("/music/")) return "music";
  return "chat";
}

type Routed = { route: Route } | { error: ErrorInfo; shape: ErrorShape } | undefined;

/** `{model}:{method}` after `/models/`: the model runs to the LAST colon (ids may hold dots, slashes, colons). */
function generativeMethodRoute(rest: string, query: URLSearchParams): Routed {
  const colon = rest.lastIndexOf(":");
  if (colon === -1) return undefined;
  const operation = GENERATIVE_METHODS.get(rest.slice(colon + 1));
  if (operation === undefined) return undefined;
  const model = decodeSegment(rest.slice(0, colon));
  if (model === "") {
    const error: ErrorInfo = {
      status: 400,
      kind: "invalid_request",
      message:
        "Model name not specified: put the model id in the path, `/v1beta/models/{model}:generateContent`.",
    };
    return { error, shape: "generative" };
  }
  const streaming = operation === "streamGenerateContent";
  return {
    route: {
      protocol: "generative",
      operation,
      shape: "generative",
      credentials: GENERATIVE_CREDENTIALS,
      model,
      ...(operation === "generateContent" || streaming ? { stream: streaming } : {}),
      ...(streaming ? { streamFormat: query.get("alt") === "sse" ? "sse" : "json" } : {}),
    },
  };
}

function route(method: string, pathname: string, query: URLSearchParams): Routed {
  const fixed = FIXED_ROUTES.get(`${method} ${pathname}`);
  if (fixed !== undefined) return { route: fixed };
  for (const [prefix, listing] of [
    ["/v1/models/", "v1"],
    ["/v1beta/models/", "v1beta"],
  ] as const) {
    if (!pathname.startsWith(prefix)) continue;
    const rest = pathname.slice(prefix.length);
    if (rest === "") return undefined;
    // The generative SDK calls `/v1/models/{model}:generateContent` by default, so both prefixes take methods.
    if (method === "POST") return generativeMethodRoute(rest, query);
    if (method !== "GET") return undefined;
    // `GET …/{model}:generateContent` is a generative method called with the wrong verb, not a model id.
    if (GENERATIVE_METHODS.has(rest.slice(rest.lastIndexOf(":") + 1)) && rest.includes(":")) return undefined;
    const generative = listing === "v1beta";
    return {
      route: {
        ...(generative ? { protocol: "generative" as const } : {}),
        operation: "models.retrieve",
        shape: generative ? "generative" : "chat",
        credentials: generative ? GENERATIVE_CREDENTIALS : V1_MODELS_CREDENTIALS,
        model: decodeSegment(rest),
        listing,
      },
    };
  }
  return undefined;
}

/** The methods other than `method` that route this path, for a 405; empty when none does. */
function allowedMethods(method: string, pathname: string, query: URLSearchParams): string[] {
  // A POST to `/models/{model}:{word}` names a generative method: an unknown one is not found, not a wrong verb.
  if (method === "POST" && /^\/v1(beta)?\/models\/.+:/.test(pathname)) return [];
  return ["GET", "POST"].filter((other) => other !== method && route(other, pathname, query) !== undefined);
}

function bearer(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const match = /^bearer\s+(\S+)$/i.exec(value);
  return match?.[1];
}

function findToken(
  credentials: readonly Credential[],
  header: (name: string) => string | undefined,
  query: URLSearchParams,
): { token: string; credential: Credential } | undefined {
  for (const credential of credentials) {
    let token: string | undefined;
    if (credential === "bearer") token = bearer(header("authorization"));
    else if (credential === "query-key") token = query.get("key")?.trim() || undefined;
    else token = header(credential);
    if (token !== undefined) return { token, credential };
  }
  return undefined;
}

function missingToken(shape: ErrorShape): ErrorInfo {
  const where =
    shape === "messages"
      ? "`x-api-key` or `Authorization: Bearer <API_KEY>`"
      : shape === "generative"
        ? "`x-goog-api-key` (or `x-alt-api-key`, or `Authorization: Bearer <API_KEY>`)"
        : "`Authorization: Bearer <API_KEY>`";
  return {
    status: 401,
    kind: "authentication",
    message: `Invalid or missing token: send it in ${where}.`,
    code: "invalid_api_key",
  };
}

/**
 * Identifies an incoming request: protocol, operation, model (from the path), stream flag (generative),
 * token, and for model listing the answer's format. Never throws: an unknown path gives a 404, a known
 * path called with another method a 405 (with `headers.allow`, e.g. `POST`), a route without a token
 * a 401, each with a body in the client protocol's error shape.
 *
 * Tokens, in precedence order, where the route accepts them: `Authorization: Bearer`, `x-api-key`
 * (`/v1/messages`, `/v1/models`), `x-alt-api-key` and `x-goog-api-key` (generative paths and
 * `/v1/models`), and generative's `?key=` query parameter (same places: the generative REST API
 * documents it). List format on `/v1/models` and `/models`: `x-api-key` plus `x-proto-version` (or
 * the messages SDK's `anthropic-version`) → messages; a generative credential → generative; else chat.
 * `/v1beta/models` is always generative.
 *
 * @example
 * identifyRequest({ method: "POST", path: "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
 *   headers: { "x-goog-api-key": "sk-1" } });
 * // => { protocol: "generative", operation: "streamGenerateContent", model: "gemini-2.5-pro",
 * //      stream: true, streamFormat: "sse", token: "sk-1" }
 */
export function identifyRequest(request: IdentifyInput): IdentifyResult {
  const input: Partial<IdentifyInput> = request !== null && typeof request === "object" ? request : {};
  const method = typeof input.method === "string" ? input.method.trim().toUpperCase() : "";
  const { pathname, query } = splitTarget(typeof input.path === "string" ? input.path : "");
  const routed = route(method, pathname, query);
  if (routed === undefined) {
    const allow = allowedMethods(method, pathname, query);
    if (allow.length > 0) {
      const error: ErrorInfo = {
        status: 405,
        kind: "invalid_request",
        message: `Method ${method} is not allowed on ${pathname}: use ${allow.join(" or ")}.`,
        code: "method_not_allowed",
      };
      return {
        error: { ...renderError(shapeOfPath(pathname), error), headers: { allow: allow.join(", ") } },
      };
    }
    const error: ErrorInfo = {
      status: 404,
      kind: "not_found",
      message: `Invalid URL (${method} ${pathname}): use the documented paths.`,
      code: "not_found",
    };
    return { error: renderError(shapeOfPath(pathname), error) };
  }
  if ("error" in routed) return { error: renderError(routed.shape, routed.error) };
  const { route: found } = routed;
  const header = headerReader(input.headers);
  const credential = findToken(found.credentials, header, query);
  let protocol = found.protocol;
  let listFormat: ListFormat | undefined;
  if (found.listing === "v1beta") listFormat = "generative";
  else if (found.listing === "v1") {
    const version = header("x-proto-version") ?? header("anthropic-version");
    if (header("x-api-key") !== undefined && version !== undefined) listFormat = "messages";
    else if (
      credential !== undefined &&
      credential.credential !== "bearer" &&
      credential.credential !== "x-api-key"
    )
      listFormat = "generative";
    else listFormat = "chat";
    protocol = listFormat;
  }
  if (credential === undefined) {
    return { error: renderError(protocol ?? found.shape, missingToken(protocol ?? found.shape)) };
  }
  return {
    ...(protocol !== undefined ? { protocol } : {}),
    operation: found.operation,
    ...(found.model !== undefined ? { model: found.model } : {}),
    ...(found.stream !== undefined ? { stream: found.stream } : {}),
    ...(found.streamFormat !== undefined ? { streamFormat: found.streamFormat } : {}),
    token: credential.token,
    ...(listFormat !== undefined ? { listFormat } : {}),
  };
}
