/** The chat protocol plugged into the adapter table (src/protocols/index.ts). */
import { requestRefusals } from "../../common/refusals";
import type { ProtocolAdapter } from "../adapter";
import { DIALECTS } from "./dialect";
import { decodeChatError, encodeChatError } from "./error";
import { openaiHeaders } from "./headers";
import { decodeChatRequest, encodeChatRequest } from "./request";
import { decodeChatResponse, encodeChatResponse } from "./response";
import * as chat from "./schema";
import { chatStreamDecoder } from "./stream-decode";
import { chatEventFormatter, chatStreamEncoder } from "./stream-encode";
import { clientTools } from "./tools";

export const chatAdapter: ProtocolAdapter<chat.Request, chat.Response, chat.StreamEvent, chat.ErrorBody> = {
  headers: openaiHeaders,
  schemas: {
    request: chat.request,
    response: chat.response,
    event: chat.streamEvent,
    errorBody: chat.errorBody,
  },
  requestInfo: (body) => ({ model: body.model, stream: body.stream === true }),
  withModel: (body, model) => ({ ...body, model }),
  decodeRequest: decodeChatRequest,
  requestRefusals: (body, options) =>
    requestRefusals(decodeChatRequest(body, options).value, { calls: true, results: false }),
  // Custom (free-form) tools where the dialect has them (OpenAI); no namespaces, no tool search.
  toolForms: (options) => ({
    freeform: DIALECTS[options.chatDialect].customTools,
    namespace: false,
    search: false,
  }),
  clientTools,
  encodeRequest: encodeChatRequest,
  decodeResponse: decodeChatResponse,
  encodeResponse: encodeChatResponse,
  decodeError: decodeChatError,
  encodeError: encodeChatError,
  streamDecoder: chatStreamDecoder,
  streamEncoder: chatStreamEncoder,
  sseEventName: () => undefined,
  parseEventData: (data) => (data.trim() === chat.DONE ? chat.DONE : (JSON.parse(data) as unknown)),
  deltaStrings: [
    ["choices", 0, "delta", "content"],
    ["choices", 0, "delta", "reasoning_content"],
    ["choices", 0, "delta", "tool_calls", 0, "function", "arguments"],
    ["obfuscation"],
  ],
  eventFormatter: chatEventFormatter,
};
