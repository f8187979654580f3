/** The messages protocol plugged into the translator (see `ProtocolAdapter`). */
import { requestRefusals } from "../../common/refusals";
import type { ProtocolAdapter } from "../adapter";
import { decodeMessagesError, encodeMessagesError } from "./error";
import { messagesHeaders } from "./headers";
import { decodeMessagesRequest, encodeMessagesRequest, messagesRequestInfo } from "./request";
import { decodeMessagesResponse, encodeMessagesResponse } from "./response";
import type { ErrorBody, Request, Response, StreamEvent } from "./schema";
import { errorBody, request, response, streamEvent } from "./schema";
import { messagesStreamDecoder } from "./stream-decode";
import { messagesEventFormatter, messagesStreamEncoder } from "./stream-encode";

export const messagesAdapter: ProtocolAdapter<Request, Response, StreamEvent, ErrorBody> = {
  headers: messagesHeaders,
  schemas: { request, response, event: streamEvent, errorBody },
  requestInfo: (body) => messagesRequestInfo(body),
  withModel: (body, model) => ({ ...body, model }),
  decodeRequest: decodeMessagesRequest,
  requestRefusals: (body, options) =>
    requestRefusals(decodeMessagesRequest(body, options).value, {
      calls: true,
      results: true,
      userFirst: "/messages",
    }),
  encodeRequest: encodeMessagesRequest,
  decodeResponse: decodeMessagesResponse,
  encodeResponse: encodeMessagesResponse,
  decodeError: decodeMessagesError,
  encodeError: encodeMessagesError,
  streamDecoder: (options) =>
    messagesStreamDecoder(options) as ReturnType<
      ProtocolAdapter<Request, Response, StreamEvent, ErrorBody>["streamDecoder"]
    >,
  streamEncoder: (options) =>
    messagesStreamEncoder(options) as ReturnType<
      ProtocolAdapter<Request, Response, StreamEvent, ErrorBody>["streamEncoder"]
    >,
  sseEventName: (event) => event.type,
  parseEventData: (data) => JSON.parse(data),
  deltaStrings: [
    ["delta", "text"],
    ["delta", "partial_json"],
    ["delta", "thinking"],
  ],
  eventFormatter: messagesEventFormatter,
};
