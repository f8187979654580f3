/** The generative protocol plugged into the translation core (src/protocols/adapter.ts). */
import { requestRefusals } from "../../common/refusals";
import type { ProtocolAdapter } from "../adapter";
import { decodeGenerativeError, encodeGenerativeError } from "./error";
import { generativeHeaders } from "./headers";
import { createJsonArrayParser, startsJsonArray } from "./json-array";
import { decodeGenerativeRequest, encodeGenerativeRequest, generativeRequestInfo } from "./request";
import { decodeGenerativeResponse, encodeGenerativeResponse } from "./response";
import * as generative from "./schema";
import { generativeStreamDecoder } from "./stream-decode";
import { generativeEventFormatter, generativeStreamEncoder } from "./stream-encode";

export const generativeAdapter: ProtocolAdapter<
  generative.Request,
  generative.Response,
  generative.StreamEvent,
  generative.ErrorBody
> = {
  headers: generativeHeaders,
  schemas: {
    request: generative.request,
    response: generative.response,
    event: generative.streamEvent,
    errorBody: generative.errorBody,
  },
  requestInfo: generativeRequestInfo,
  // The model is in the URL (`translateRequest`'s `model`), not the body.
  withModel: (body) => body,
  decodeRequest: decodeGenerativeRequest,
  requestRefusals: (body, options) =>
    requestRefusals(decodeGenerativeRequest(body, options).value, {
      calls: false,
      results: true,
      userFirst: "/contents",
    }),
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
  eventFormatter: generativeEventFormatter,
  // `:streamGenerateContent` without `alt=sse` sends one JSON array.
  alternateFraming: { detect: startsJsonArray, create: () => createJsonArrayParser() },
};
