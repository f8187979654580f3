/** The chat stream reducers: chunks → common stream parts, and back. */
export { type ChatDecodeState, chatStreamDecoder } from "./stream-decode";
export { type ChatEncodeState, chatStreamEncoder } from "./stream-encode";
