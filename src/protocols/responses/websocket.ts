/**
 * Responses over WebSocket (`GET /v1/responses`, upgraded): the client sends `response.create`
 * messages — a responses request body with `type` — one turn at a time, and gets the turn's stream
 * events as messages, the same objects as SSE (`sse.createDataStream` splits a translated SSE body
 * into them). A failure is an `error` envelope with the HTTP-style `status`.
 * @see https://platform.openai.com/docs/guides/websocket-mode
 */
import { z } from "zod/v4";
import type * as common from "../../common/model";
import { decodeResponsesError, errorObjectOf } from "./error";
import { type ErrorObject, type Request, request } from "./schema";

/**
 * A client message that starts a turn: `type: "response.create"` and the request body's fields
 * (`stream`, `stream_options` and `background` belong to HTTP and are refused).
 */
export const websocketCreateEvent = z.looseObject({ type: z.literal("response.create") });
/**
 * A client message that starts a turn: `type: "response.create"` and the request body's fields. The type
 * `websocketCreateEvent` parses to.
 */
export type WebsocketCreateEvent = z.infer<typeof websocketCreateEvent>;

/** The WebSocket error envelope: `{type: "error", status, error: {type, code, message, param}}`. */
export const websocketErrorEvent = z.looseObject({
  type: z.literal("error"),
  status: z.number().int(),
  error: z.looseObject({
    type: z.string().nullable().optional(),
    code: z.string(),
    message: z.string(),
    param: z.string().nullable().optional(),
  }),
});
/**
 * The WebSocket error envelope: `{type: "error", status, error: {type, code, message, param}}`. The type
 * `websocketErrorEvent` parses to.
 */
export type WebsocketErrorEvent = z.infer<typeof websocketErrorEvent>;

/** Fields of an HTTP request that a WebSocket `response.create` must not carry. */
const HTTP_ONLY = ["stream", "stream_options", "background"] as const;

/**
 * The error envelope for a status and a responses error body's inner object (or a common error's
 * parts): what a gateway sends when a turn fails before its stream starts.
 * @example
 * websocketError(400, { code: "previous_response_not_found", message: "Previous response with id 'resp_1' not found.", param: "previous_response_id" });
 * // => { type: "error", status: 400, error: { type: "invalid_request_error", code: "previous_response_not_found", … } }
 */
export function websocketError(
  status: number,
  error: Partial<ErrorObject> & { message: string },
): WebsocketErrorEvent {
  const info: common.ErrorInfo = decodeResponsesError({ status, body: { error } });
  const inner = errorObjectOf(info);
  return {
    type: "error",
    status: info.status,
    error: {
      type: typeof error.type === "string" ? error.type : inner.type,
      code: typeof error.code === "string" ? error.code : String(error.code ?? inner.code),
      message: error.message,
      param: typeof error.param === "string" ? error.param : null,
    },
  };
}

const invalid = (message: string, param?: string): { error: WebsocketErrorEvent } => ({
  error: websocketError(400, {
    type: "invalid_request_error",
    code: "invalid_request_error",
    message,
    ...(param === undefined ? {} : { param }),
  }),
});

/**
 * A client's WebSocket message (its text, or the parsed value) → the responses request it asks for,
 * streamed (`stream: true`, `type` removed), or the error envelope to answer it with: a message that
 * is not JSON, not `response.create`, carries an HTTP-only field, or is not a valid request.
 * @example
 * requestOfMessage('{"type":"response.create","model":"m","input":"Hi"}');
 * // => { request: { model: "m", input: "Hi", stream: true } }
 */
export function requestOfMessage(message: unknown): { request: Request } | { error: WebsocketErrorEvent } {
  let value = message;
  if (typeof message === "string") {
    try {
      value = JSON.parse(message);
    } catch {
      return invalid("The message is not JSON: send a `response.create` event as one JSON object.");
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return invalid("The message is not a JSON object: send a `response.create` event.");
  const { type, ...body } = value as Record<string, unknown>;
  if (type !== "response.create")
    return invalid(
      `Unknown event type ${JSON.stringify(type ?? null)}: the client sends \`response.create\`.`,
      "type",
    );
  for (const field of HTTP_ONLY)
    if (body[field] !== undefined)
      return invalid(
        `\`${field}\` belongs to HTTP requests and must not be sent in a WebSocket \`response.create\`.`,
        field,
      );
  const parsed = request.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".");
    return invalid(
      `Invalid request: ${path === undefined || path === "" ? "" : `${path}: `}${issue?.message ?? "not a responses request"}.`,
      path === "" ? undefined : path,
    );
  }
  // The body as it came (unknown fields kept), streamed: a turn's answer is its events.
  return { request: { ...(body as Request), stream: true } };
}
