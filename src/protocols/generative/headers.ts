/**
 * The generative-content API's HTTP headers: `x-goog-api-key` (the spec's `x-alt-api-key`), the
 * client identification `x-goog-api-client` and the server-side deadline `x-server-timeout`. Its
 * answers carry no request id and no rate-limit headers; a 429 says when to retry in the body
 * (`RetryInfo`, error.ts).
 * @see https://ai.google.dev/gemini-api/docs/partner-integration
 */
import type { HeaderConvention } from "../adapter";

export const generativeHeaders: HeaderConvention = {
  // `x-goog-user-project` picks the project the call bills.
  credentials: ["x-goog-api-key", "x-alt-api-key", "x-goog-user-project", "authorization"],
  request: ["x-goog-api-client", "x-server-timeout"],
  requestPrefixes: ["x-goog-"],
  retryAfterMs: false,
  response: [],
  responsePrefixes: [],
  private: [],
};
