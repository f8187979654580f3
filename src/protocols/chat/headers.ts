/**
 * The chat-completions API's HTTP headers: `Authorization: Bearer`, `OpenAI-Beta`, request ids and the
 * `x-ratelimit-*` family.
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 * @see https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers
 */
import type { HeaderConvention } from "../adapter";

/** OpenAI's rate-limit headers; `reset` is a duration (`1s`, `6m0s`). */
const openaiRateLimits: NonNullable<HeaderConvention["rateLimits"]> = {
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
};

/** The headers of OpenAI's APIs (chat completions and responses share them). */
export const openaiHeaders: HeaderConvention = {
  // `api-key`: Azure OpenAI's key header; organization and project pick the account the key bills.
  credentials: ["authorization", "api-key", "openai-organization", "openai-project"],
  request: ["openai-beta", "idempotency-key", "x-client-request-id"],
  requestPrefixes: ["openai-", "x-stainless-"],
  requestId: "x-request-id",
  retryAfterMs: true,
  shouldRetry: "x-should-retry",
  rateLimits: openaiRateLimits,
  response: ["openai-processing-ms", "openai-version"],
  responsePrefixes: ["x-ratelimit-"],
  private: ["openai-organization", "openai-project"],
};
