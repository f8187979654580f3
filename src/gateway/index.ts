/** Gateway helpers: request identification, the error bodies it answers with, and the header rules. */
export { type ErrorShape, renderError } from "./errors";
export {
  type ClientHeaderOptions,
  clientHeaders,
  type RetryAfter,
  retryAfterOf,
  upstreamHeaders,
} from "./header-rules";
export type { HeadersLike } from "./headers";
export {
  type Identified,
  type IdentifyError,
  type IdentifyInput,
  type IdentifyResult,
  identifyRequest,
  type Operation,
} from "./identify";
