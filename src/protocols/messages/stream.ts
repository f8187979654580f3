/** The messages stream reducers: events ↔ common stream parts. */
export { type MessagesDecodeState, messagesStreamDecoder } from "./stream-decode";
export { formatMessagesDelta, type MessagesEncodeState, messagesStreamEncoder } from "./stream-encode";
