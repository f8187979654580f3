import type * as chat from "./chat/schema";
import type * as generative from "./generative/schema";
import type * as messages from "./messages/schema";

/** Wire types by protocol id, for the generic signatures of the public functions. */
type Wire = {
  chat: {
    request: chat.Request;
    response: chat.Response;
    event: chat.StreamEvent;
    errorBody: chat.ErrorBody;
  };
  messages: {
    request: messages.Request;
    response: messages.Response;
    event: messages.StreamEvent;
    errorBody: messages.ErrorBody;
  };
  generative: {
    request: generative.Request;
    response: generative.Response;
    event: generative.StreamEvent;
    errorBody: generative.ErrorBody;
  };
};

export type RequestOf<P extends keyof Wire> = Wire[P]["request"];
export type ResponseOf<P extends keyof Wire> = Wire[P]["response"];
export type EventOf<P extends keyof Wire> = Wire[P]["event"];
export type ErrorBodyOf<P extends keyof Wire> = Wire[P]["errorBody"];
