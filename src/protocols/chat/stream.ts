/** The chat stream reducers: chunks → common stream parts, and back. */
export { type ChatDecodeState, chatStreamDecoder } from "./stream-decode";
export { type ChatEncodeState, chatDeltaFormatter, chatStreamEncoder } from "./stream-encode";
