/** translateError's retry signals: the delay from any convention, reaching the client in its own; the classification. */
import { describe, expect, test } from "vitest";
import { createStreamTranslator, type Protocol, protocols, translateError } from "../../src/index";

// A Gemini 429 as the API sends it: the delay is a `RetryInfo` detail, beside the quota facts.
const GEMINI_429 = {
  error: {
    code: 429,
    message: "You exceeded your current quota, please check your plan and billing details.",
    status: "RESOURCE_EXHAUSTED",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        violations: [
          { quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests" },
        ],
      },
      {
        "@type": "type.googleapis.com/google.rpc.Help",
        links: [{ url: "https://ai.google.dev/gemini-api/docs/rate-limits" }],
      },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "17s" },
    ],
  },
};

const RATE_LIMIT_BODY: Record<Protocol, unknown> = {
  chat: {
    error: { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" },
  },
  responses: { error: { message: "Rate limit reached", type: "rate_limit_error", param: null, code: null } },
  messages: { type: "error", error: { type: "rate_limit_error", message: "Rate limited" } },
  generative: { error: { code: 429, message: "Resource exhausted", status: "RESOURCE_EXHAUSTED" } },
};

describe("Gemini's RetryInfo becomes the client's retry-after", () => {
  test.each(["chat", "messages", "responses"] as const)("generative → %s", (to) => {
    const out = translateError("generative", to, { status: 429, body: GEMINI_429 });
    expect(out.status).toBe(429);
    expect(out.headers).toEqual({ "retry-after": "17", "retry-after-ms": "17000" });
    expect(out.retryable).toBe(true);
    // The delay arrived: no loss points at it (the other details are dropped, each at its own pointer;
    // the responses encoder does not report unread error fields yet).
    expect(out.losses.map((loss) => loss.path)).toEqual(
      to === "responses" ? [] : ["/error/details/0", "/error/details/1"],
    );
  });

  test("generative → generative: the body as it came, and the delay as a header too", () => {
    const out = translateError("generative", "generative", { status: 429, body: GEMINI_429 });
    expect(out.body).toBe(GEMINI_429);
    expect(out.headers).toEqual({ "retry-after": "17" });
    expect(out.losses).toEqual([]);
  });

  test("a fractional delay rounds up for retry-after, keeps its milliseconds for retry-after-ms", () => {
    const body = {
      error: {
        ...GEMINI_429.error,
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.25s" }],
      },
    };
    expect(translateError("generative", "chat", { status: 429, body }).headers).toEqual({
      "retry-after": "1",
      "retry-after-ms": "250",
    });
  });

  test("mid-stream, where no header can carry it, the delay is a dropped field", () => {
    const translator = createStreamTranslator("generative", "chat");
    translator.push(GEMINI_429 as never);
    translator.end();
    expect(translator.losses.map((loss) => loss.path)).toContain("/0/error/details/2");
  });
});

describe("a delay in headers reaches every client", () => {
  test.each(protocols.flatMap((from) => protocols.map((to) => [from, to] as const)))(
    "%s → %s: retry-after-ms 1500",
    (from, to) => {
      const out = translateError(from, to, {
        status: 429,
        body: RATE_LIMIT_BODY[from],
        headers: { "retry-after-ms": "1500" },
      });
      expect(out.status).toBe(429);
      expect(out.retryable).toBe(true);
      expect(out.kind).toBe("rate_limit");
      expect(out.fault).toBe("account");
      if (from === to) expect(out.headers).toEqual({ "retry-after-ms": "1500" });
      else if (to === "generative") {
        expect(out.headers).toEqual({ "retry-after": "2" });
        // A generative client reads the delay in the body as well, as Gemini writes it.
        expect(out.body).toMatchObject({
          error: { details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1.5s" }] },
        });
      } else expect(out.headers).toEqual({ "retry-after": "2", "retry-after-ms": "1500" });
    },
  );
});

describe("classification: retryable, kind, whose fault", () => {
  const cases: [number, Protocol, unknown, boolean, string, string][] = [
    [
      400,
      "messages",
      { type: "error", error: { type: "invalid_request_error", message: "bad" } },
      false,
      "invalid_request",
      "request",
    ],
    [
      401,
      "chat",
      { error: { message: "bad key", type: "invalid_request_error", code: "invalid_api_key" } },
      false,
      "authentication",
      "account",
    ],
    [
      402,
      "chat",
      { error: { message: "quota", type: "insufficient_quota", code: "insufficient_quota" } },
      false,
      "payment",
      "account",
    ],
    [429, "messages", RATE_LIMIT_BODY.messages, true, "rate_limit", "account"],
    [
      500,
      "generative",
      { error: { code: 500, message: "boom", status: "INTERNAL" } },
      true,
      "server",
      "upstream",
    ],
    [
      529,
      "messages",
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      true,
      "overloaded",
      "upstream",
    ],
    [504, "generative", "<html><title>Gateway Timeout</title></html>", true, "timeout", "upstream"],
  ];
  test.each(cases)("%d from %s", (status, from, body, retryable, kind, fault) => {
    const out = translateError(from, "chat", { status, body });
    expect({ retryable: out.retryable, kind: out.kind, fault: out.fault }).toEqual({
      retryable,
      kind,
      fault,
    });
  });

  test("the upstream's x-should-retry decides where its protocol sends one", () => {
    const body = RATE_LIMIT_BODY.messages;
    expect(
      translateError("messages", "chat", { status: 429, body, headers: { "x-should-retry": "false" } })
        .retryable,
    ).toBe(false);
    expect(
      translateError("messages", "chat", {
        status: 400,
        body: { type: "error", error: { type: "invalid_request_error", message: "x" } },
        headers: { "x-should-retry": "true" },
      }).retryable,
    ).toBe(true);
  });
});
