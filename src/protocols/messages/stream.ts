/** The messages stream reducers: events ↔ common stream parts. */
export { type MessagesDecodeState, messagesStreamDecoder } from "./stream-decode";
export { type MessagesEncodeState, messagesStreamEncoder } from "./stream-encode";
