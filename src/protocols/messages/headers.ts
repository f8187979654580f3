/**
 * The messages API's HTTP headers: `x-api-key`, `anthropic-version` (the spec's `x-proto-version`),
 * `anthropic-beta`, `request-id` and the `anthropic-ratelimit-*` family.
 * @see https://docs.anthropic.com/en/api/versioning
 * @see https://docs.anthropic.com/en/api/rate-limits#response-headers
 */
import type { HeaderConvention, RateLimitField } from "../adapter";

const family = (metric: string): Record<RateLimitField, string> => ({
  limit: `anthropic-ratelimit-${metric}-limit`,
  remaining: `anthropic-ratelimit-${metric}-remaining`,
  reset: `anthropic-ratelimit-${metric}-reset`,
});

export const messagesHeaders: HeaderConvention = {
  credentials: ["x-api-key", "authorization"],
  // Beta fields of the body need their `anthropic-beta` value (research/2026-surface.md).
  request: ["anthropic-version", "anthropic-beta", "idempotency-key"],
  requestPrefixes: ["anthropic-", "x-stainless-"],
  version: { name: "anthropic-version", aliases: ["x-proto-version"], value: "2023-06-01" },
  requestId: "request-id",
  retryAfterMs: true,
  shouldRetry: "x-should-retry",
  rateLimits: {
    headers: {
      requests: family("requests"),
      tokens: family("tokens"),
      "input-tokens": family("input-tokens"),
      "output-tokens": family("output-tokens"),
    },
    reset: "timestamp",
  },
  response: [],
  responsePrefixes: ["anthropic-ratelimit-", "anthropic-priority-"],
  private: ["anthropic-organization-id", "anthropic-workspace-id"],
};
