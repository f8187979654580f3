/** The responses protocol plugged into the adapter table (src/protocols/index.ts). */
import { requestRefusals } from "../../common/refusals";
import type { ProtocolAdapter } from "../adapter";
import { decodeResponsesError, encodeResponsesError } from "./error";
import { responsesHeaders } from "./headers";
import { decodeResponsesRequest, encodeResponsesRequest, responsesRequestInfo } from "./request";
import { decodeResponsesResponse, encodeResponsesResponse } from "./response";
import {
  DONE,
  type ErrorBody,
  errorBody,
  type Request,
  type Response,
  request,
  response,
  type StreamEvent,
  streamEvent,
} from "./schema";
import {
  type ResponsesDecodeState,
  responsesPassThroughError,
  responsesStreamDecoder,
} from "./stream-decode";
import { responsesEventFormatter, responsesStreamEncoder } from "./stream-encode";
import { clientTools } from "./tools";

type Adapter = ProtocolAdapter<Request, Response, StreamEvent, ErrorBody>;

const ALL_FORMS = { freeform: true, namespace: true, search: true } as const;

export const responsesAdapter: Adapter = {
  headers: responsesHeaders,
  schemas: { request, response, event: streamEvent, errorBody },
  requestInfo: responsesRequestInfo,
  withModel: (body, model) => ({ ...body, model }),
  decodeRequest: decodeResponsesRequest,
  requestRefusals: (body, options) =>
    requestRefusals(decodeResponsesRequest(body, options).value, { calls: true, results: true }),
  // Custom (free-form) tools, namespaces and the client's tool search are all responses' own.
  toolForms: () => ALL_FORMS,
  clientTools,
  encodeRequest: encodeResponsesRequest,
  decodeResponse: decodeResponsesResponse,
  encodeResponse: encodeResponsesResponse,
  decodeError: decodeResponsesError,
  encodeError: encodeResponsesError,
  streamDecoder: (options) => responsesStreamDecoder(options) as ReturnType<Adapter["streamDecoder"]>,
  streamEncoder: (options) => responsesStreamEncoder(options) as ReturnType<Adapter["streamEncoder"]>,
  passThroughError: (error, state, events) =>
    responsesPassThroughError(error, state as ResponsesDecodeState, events),
  // responses SSE names each event by its type (`event: response.output_text.delta`).
  sseEventName: (event) => (event === DONE ? undefined : event.type),
  // OpenRouter ends its responses streams with `data: [DONE]` (recorded).
  parseEventData: (data) => (data.trim() === DONE ? DONE : (JSON.parse(data) as unknown)),
  deltaStrings: [["delta"], ["obfuscation"], ["sequence_number"]],
  eventFormatter: responsesEventFormatter,
};
