import { describe, expect, test } from "vitest";
import { gateway, type Protocol, protocols } from "../../src/index";

const { upstreamHeaders, clientHeaders, retryAfterOf } = gateway;

// What a client of each protocol sends besides its body (names as its SDK writes them).
const CLAUDE_CODE = {
  Host: "127.0.0.1:8787",
  "Content-Type": "application/json",
  "Content-Length": "1234",
  "X-Api-Key": "sk-client",
  Authorization: "Bearer sk-client",
  "anthropic-version": "2023-06-01",
  "anthropic-beta": "claude-code-20250219,context-management-2025-06-27",
  "anthropic-dangerous-direct-browser-access": "true",
  "x-stainless-retry-count": "0",
  "Idempotency-Key": "idem-1",
  "User-Agent": "claude-cli/2.1",
  Cookie: "session=1",
  Connection: "keep-alive",
  "Accept-Encoding": "gzip",
};

const OPENAI_CLIENT = {
  authorization: "Bearer sk-client",
  "openai-organization": "org-client",
  "openai-project": "proj-client",
  "openai-beta": "assistants=v2",
  "x-stainless-timeout": "600",
  "idempotency-key": "idem-2",
  "x-client-request-id": "client-7",
};

const GEMINI_CLIENT = {
  "x-goog-api-key": "sk-client",
  "x-goog-user-project": "billing-project",
  "x-goog-api-client": "google-genai-sdk/2.32.0 gl-node/20",
  "x-server-timeout": "60",
};

const ALL_CLIENT_HEADERS = { ...CLAUDE_CODE, ...OPENAI_CLIENT, ...GEMINI_CLIENT, "x-alt-api-key": "sk-c" };
const CREDENTIALS = [
  "authorization",
  "x-api-key",
  "x-goog-api-key",
  "x-alt-api-key",
  "x-goog-user-project",
  "openai-organization",
  "openai-project",
  "api-key",
  "cookie",
  "proxy-authorization",
];

describe("upstreamHeaders: what of the client's request goes upstream", () => {
  test("messages → messages: the beta and version headers as given, no credential, nothing HTTP manages", () => {
    expect(upstreamHeaders("messages", "messages", CLAUDE_CODE)).toEqual({
      "anthropic-version": "2023-06-01",
      "anthropic-beta": "claude-code-20250219,context-management-2025-06-27",
      "anthropic-dangerous-direct-browser-access": "true",
      "x-stainless-retry-count": "0",
      "idempotency-key": "idem-1",
    });
  });

  test("a Headers instance reads the same as a plain object in any case", () => {
    expect(upstreamHeaders("messages", "messages", new Headers(CLAUDE_CODE))).toEqual(
      upstreamHeaders("messages", "messages", CLAUDE_CODE),
    );
  });

  test("a repeated header (node's array) goes as one, its values joined", () => {
    expect(
      upstreamHeaders("messages", "messages", { "anthropic-beta": ["a-2025-01-01", "b-2025-02-02"] }),
    ).toEqual({ "anthropic-beta": "a-2025-01-01, b-2025-02-02", "anthropic-version": "2023-06-01" });
  });

  test("the spec's x-proto-version is the version header; without one the default is sent", () => {
    expect(upstreamHeaders("messages", "messages", { "x-proto-version": "2023-01-01" })).toEqual({
      "anthropic-version": "2023-01-01",
    });
    expect(upstreamHeaders("messages", "messages", {})).toEqual({ "anthropic-version": "2023-06-01" });
  });

  test("chat and responses → their own protocol: openai-beta, idempotency and SDK headers, not the account", () => {
    for (const protocol of ["chat", "responses"] as const)
      expect(upstreamHeaders(protocol, protocol, OPENAI_CLIENT)).toEqual({
        "openai-beta": "assistants=v2",
        "x-stainless-timeout": "600",
        "idempotency-key": "idem-2",
        "x-client-request-id": "client-7",
      });
  });

  test("generative → generative: the client identification and deadline, not the key or billing project", () => {
    expect(upstreamHeaders("generative", "generative", GEMINI_CLIENT)).toEqual({
      "x-goog-api-client": "google-genai-sdk/2.32.0 gl-node/20",
      "x-server-timeout": "60",
    });
  });

  test("across protocols only what both understand; messages gets the version its translation is written for", () => {
    expect(upstreamHeaders("chat", "messages", OPENAI_CLIENT)).toEqual({
      "idempotency-key": "idem-2",
      "anthropic-version": "2023-06-01",
    });
    // A messages client's beta header means nothing to a chat upstream (and its version is not the client's).
    expect(upstreamHeaders("messages", "chat", CLAUDE_CODE)).toEqual({ "idempotency-key": "idem-1" });
    expect(upstreamHeaders("generative", "messages", { ...GEMINI_CLIENT, "anthropic-version": "x" })).toEqual(
      {
        "anthropic-version": "2023-06-01",
      },
    );
    expect(upstreamHeaders("chat", "responses", OPENAI_CLIENT)).toEqual({
      "openai-beta": "assistants=v2",
      "idempotency-key": "idem-2",
      "x-client-request-id": "client-7",
    });
  });

  test.each(protocols.flatMap((from) => protocols.map((to) => [from, to] as const)))(
    "%s → %s: no credential of any protocol ever passes",
    (from, to) => {
      const out = upstreamHeaders(from, to, ALL_CLIENT_HEADERS);
      for (const name of CREDENTIALS) expect(out).not.toHaveProperty(name);
      for (const name of ["host", "content-length", "content-type", "connection", "accept-encoding"])
        expect(out).not.toHaveProperty(name);
    },
  );

  test("an unknown protocol id is a TypeError naming the valid ones", () => {
    expect(() => upstreamHeaders("nope" as Protocol, "chat", {})).toThrow(TypeError);
  });
});

describe("clientHeaders: what of the upstream's answer goes back", () => {
  const ANTHROPIC_429 = {
    "retry-after": "2",
    "request-id": "req_011",
    "x-should-retry": "true",
    "anthropic-organization-id": "org-upstream",
    "anthropic-ratelimit-requests-limit": "50",
    "anthropic-ratelimit-requests-remaining": "0",
    "anthropic-ratelimit-requests-reset": "2026-01-01T00:00:30Z",
    "anthropic-ratelimit-tokens-limit": "40000",
    "anthropic-ratelimit-tokens-remaining": "1200",
    "anthropic-ratelimit-tokens-reset": "2026-01-01T00:01:00Z",
    "anthropic-ratelimit-input-tokens-remaining": "1000",
    "content-type": "application/json",
    "content-length": "99",
  };
  const OPENAI_429 = {
    "retry-after-ms": "1500",
    "retry-after": "2",
    "x-request-id": "req_abc",
    "x-should-retry": "false",
    "openai-organization": "org-upstream",
    "openai-processing-ms": "12",
    "x-ratelimit-limit-requests": "500",
    "x-ratelimit-remaining-requests": "0",
    "x-ratelimit-reset-requests": "1m30s",
    "x-ratelimit-limit-tokens": "30000",
    "x-ratelimit-remaining-tokens": "29000",
    "x-ratelimit-reset-tokens": "20ms",
  };
  const NOW = Date.parse("2026-01-01T00:00:00Z");

  test("messages → chat: retry in both conventions, the request id and rate limits in OpenAI's names", () => {
    expect(clientHeaders("messages", "chat", ANTHROPIC_429, { now: NOW })).toEqual({
      "retry-after": "2",
      "retry-after-ms": "2000",
      "x-should-retry": "true",
      "x-request-id": "req_011",
      "x-ratelimit-limit-requests": "50",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "30s",
      "x-ratelimit-limit-tokens": "40000",
      "x-ratelimit-remaining-tokens": "1200",
      "x-ratelimit-reset-tokens": "1m0s",
    });
  });

  test("without a clock a reset cannot change convention and is left out", () => {
    const out = clientHeaders("messages", "responses", ANTHROPIC_429);
    expect(out["x-ratelimit-remaining-requests"]).toBe("0");
    expect(out).not.toHaveProperty("x-ratelimit-reset-requests");
  });

  test("chat → messages: retry-after-ms wins, rounded up to whole seconds for retry-after", () => {
    expect(clientHeaders("chat", "messages", OPENAI_429, { now: NOW })).toEqual({
      "retry-after": "2",
      "retry-after-ms": "1500",
      "x-should-retry": "false",
      "request-id": "req_abc",
      "anthropic-ratelimit-requests-limit": "500",
      "anthropic-ratelimit-requests-remaining": "0",
      "anthropic-ratelimit-requests-reset": "2026-01-01T00:01:30.000Z",
      "anthropic-ratelimit-tokens-limit": "30000",
      "anthropic-ratelimit-tokens-remaining": "29000",
      "anthropic-ratelimit-tokens-reset": "2026-01-01T00:00:00.020Z",
    });
  });

  test("a generative client gets retry-after and the request id under the common name (its API has neither)", () => {
    expect(clientHeaders("messages", "generative", ANTHROPIC_429)).toEqual({
      "retry-after": "2",
      "x-request-id": "req_011",
    });
  });

  test("the same protocol passes its own headers as given, never the upstream's organization", () => {
    expect(clientHeaders("chat", "chat", OPENAI_429)).toEqual({
      "retry-after-ms": "1500",
      "retry-after": "2",
      "x-request-id": "req_abc",
      "x-should-retry": "false",
      "openai-processing-ms": "12",
      "x-ratelimit-limit-requests": "500",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "1m30s",
      "x-ratelimit-limit-tokens": "30000",
      "x-ratelimit-remaining-tokens": "29000",
      "x-ratelimit-reset-tokens": "20ms",
    });
    const anthropic = clientHeaders("messages", "messages", ANTHROPIC_429);
    expect(anthropic).not.toHaveProperty("anthropic-organization-id");
    expect(anthropic["anthropic-ratelimit-input-tokens-remaining"]).toBe("1000");
    expect(anthropic["request-id"]).toBe("req_011");
  });

  test("retry-after as an HTTP date is passed as written (no clock turns it into a delay)", () => {
    const date = "Wed, 21 Oct 2026 07:28:00 GMT";
    expect(retryAfterOf({ "Retry-After": date })).toEqual({ date });
    expect(clientHeaders("messages", "chat", { "retry-after": date })).toEqual({ "retry-after": date });
    expect(retryAfterOf({ "retry-after": "soon" })).toBeUndefined();
  });
});
