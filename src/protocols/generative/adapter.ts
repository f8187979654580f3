/** The generative protocol plugged into the translation core (src/protocols/adapter.ts). */
import type { ProtocolAdapter } from "../adapter";
import { decodeGenerativeError, encodeGenerativeError } from "./error";
import { decodeGenerativeRequest, encodeGenerativeRequest, generativeRequestInfo } from "./request";
import { decodeGenerativeResponse, encodeGenerativeResponse } from "./response";
import * as generative from "./schema";
import { generativeStreamDecoder, generativeStreamEncoder } from "./stream";

export const generativeAdapter: ProtocolAdapter<
  generative.Request,
  generative.Response,
  generative.StreamEvent,
  generative.ErrorBody
> = {
  schemas: {
    request: generative.request,
    response: generative.response,
    event: generative.streamEvent,
    errorBody: generative.errorBody,
  },
  requestInfo: generativeRequestInfo,
  decodeRequest: decodeGenerativeRequest,
  encodeRequest: encodeGenerativeRequest,
  decodeResponse: decodeGenerativeResponse,
  encodeResponse: encodeGenerativeResponse,
  decodeError: decodeGenerativeError,
  encodeError: encodeGenerativeError,
  streamDecoder: (options) =>
    generativeStreamDecoder(options) as ReturnType<
      ProtocolAdapter<unknown, unknown, generative.StreamEvent, unknown>["streamDecoder"]
    >,
  streamEncoder: (options) =>
    generativeStreamEncoder(options) as ReturnType<
      ProtocolAdapter<unknown, unknown, generative.StreamEvent, unknown>["streamEncoder"]
    >,
  // Generative SSE events carry no `event:` line.
  sseEventName: () => undefined,
  parseEventData: (data) => JSON.parse(data),
  deltaStrings: [["candidates", 0, "content", "parts", 0, "text"]],
  formatEventData: (event) => JSON.stringify(event),
};
