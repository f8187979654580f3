/**
 * The responses API's HTTP headers: those of OpenAI's APIs (`Authorization: Bearer`, `OpenAI-Beta`,
 * `x-request-id`, the `x-ratelimit-*` family), written here again because a protocol folder imports
 * no other (DESIGN.md).
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 * @see https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers
 */
import type { HeaderConvention } from "../adapter";

export const responsesHeaders: HeaderConvention = {
  // `api-key`: Azure OpenAI's key header; organization and project pick the account the key bills.
  credentials: ["authorization", "api-key", "openai-organization", "openai-project"],
  request: ["openai-beta", "idempotency-key", "x-client-request-id"],
  requestPrefixes: ["openai-", "x-stainless-"],
  requestId: "x-request-id",
  retryAfterMs: true,
  shouldRetry: "x-should-retry",
  rateLimits: {
    headers: {
      requests: {
        limit: "x-ratelimit-limit-requests",
        remaining: "x-ratelimit-remaining-requests",
        reset: "x-ratelimit-reset-requests",
      },
      tokens: {
        limit: "x-ratelimit-limit-tokens",
        remaining: "x-ratelimit-remaining-tokens",
        reset: "x-ratelimit-reset-tokens",
      },
    },
    reset: "duration",
  },
  response: ["openai-processing-ms", "openai-version"],
  responsePrefixes: ["x-ratelimit-"],
  private: ["openai-organization", "openai-project"],
};
