/** Gateway helpers: request identification and the error bodies it answers with. */
export { type ErrorShape, renderError } from "./errors";
export type { HeadersLike } from "./headers";
export {
  type Identified,
  type IdentifyError,
  type IdentifyInput,
  type IdentifyResult,
  identifyRequest,
  type Operation,
} from "./identify";
