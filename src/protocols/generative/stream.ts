/** The generative stream reducers (pure): chunks → common stream parts, and back. */
export { type GenerativeDecodeState, generativeStreamDecoder } from "./stream-decode";
export {
  type GenerativeEncodeState,
  generativeDeltaFormatter,
  generativeStreamEncoder,
} from "./stream-encode";
