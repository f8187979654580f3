import { describe, expect, test } from "vitest";
import type * as common from "../../../src/common/model";
import { decodeGenerativeError, encodeGenerativeError } from "../../../src/protocols/generative/error";
import * as generative from "../../../src/protocols/generative/schema";
import { fixtures, readJsonFixture } from "../../helpers/fixtures";

describe("decodeGenerativeError", () => {
  test("an AI Studio bad key (400 INVALID_ARGUMENT + API_KEY_INVALID) is an authentication error, 401 (E1, E3)", () => {
    const entry = fixtures("error", "generative").find((item) =>
      item.path.endsWith("gemini-400-api-key-invalid.json"),
    )!;
    expect(decodeGenerativeError({ status: 400, body: readJsonFixture(entry) })).toEqual({
      status: 401,
      kind: "authentication",
      message: "API key not valid. Please pass a valid API key.",
      code: "INVALID_ARGUMENT",
      // The status name is not the kind's: a target reports it; `details` has no common slot.
      codeSource: "/error/status",
      unread: ["/error/details"],
    });
  });

  test("maps by HTTP status first, keeping the canonical status name as the code", () => {
    const kind = (status: number, name: string) =>
      decodeGenerativeError({ status, body: { error: { code: status, message: "m", status: name } } });
    expect(kind(400, "FAILED_PRECONDITION")).toEqual({
      status: 400,
      kind: "invalid_request",
      message: "m",
      code: "FAILED_PRECONDITION",
    });
    expect(kind(403, "PERMISSION_DENIED").kind).toBe("permission");
    expect(kind(404, "NOT_FOUND").kind).toBe("not_found");
    expect(kind(429, "RESOURCE_EXHAUSTED").kind).toBe("rate_limit");
    expect(kind(500, "INTERNAL").kind).toBe("server");
    expect(kind(503, "UNAVAILABLE").kind).toBe("overloaded");
    expect(kind(504, "DEADLINE_EXCEEDED").kind).toBe("timeout");
  });

  test("a mid-stream error on an HTTP 200 maps by its own code and status", () => {
    expect(
      decodeGenerativeError({
        status: 200,
        body: { error: { code: 503, message: "busy", status: "UNAVAILABLE" } },
      }),
    ).toMatchObject({
      status: 503,
      kind: "overloaded",
    });
  });

  test("an HTML page, plain text, a JSON array and garbage all decode without throwing (E4)", () => {
    expect(
      decodeGenerativeError({ status: 404, body: "<!DOCTYPE html><title>Error 404 (Not Found)!!1</title>" }),
    ).toEqual({
      status: 404,
      kind: "not_found",
      message: "Error 404 (Not Found)!!1",
    });
    expect(
      decodeGenerativeError({
        status: 500,
        body: '[{"error":{"code":500,"message":"boom","status":"INTERNAL"}}]',
      }).message,
    ).toBe("boom");
    expect(decodeGenerativeError({ status: 502, body: null })).toEqual({
      status: 502,
      kind: "server",
      message: "Upstream error (HTTP 502).",
    });
    expect(decodeGenerativeError({ status: 0, body: 42 }).status).toBeGreaterThanOrEqual(400);
    expect(decodeGenerativeError({ status: 400, body: "x".repeat(10_000) }).message).toHaveLength(2048);
  });
});

describe("encodeGenerativeError", () => {
  const info = (status: number, kind: common.ErrorKind, code?: string): common.ErrorInfo => ({
    status,
    kind,
    message: "m",
    ...(code === undefined ? {} : { code }),
  });

  test("529 overloaded becomes 503 UNAVAILABLE (E3)", () => {
    expect(encodeGenerativeError(info(529, "overloaded"))).toEqual({
      status: 503,
      body: { error: { code: 503, message: "m", status: "UNAVAILABLE" } },
    });
  });

  test("each kind gets its canonical status name; a generative code meaning the same is kept", () => {
    expect(encodeGenerativeError(info(401, "authentication")).body.error.status).toBe("UNAUTHENTICATED");
    expect(encodeGenerativeError(info(429, "rate_limit", "rate_limit_exceeded")).body.error.status).toBe(
      "RESOURCE_EXHAUSTED",
    );
    expect(encodeGenerativeError(info(400, "invalid_request", "FAILED_PRECONDITION")).body.error.status).toBe(
      "FAILED_PRECONDITION",
    );
    expect(encodeGenerativeError(info(413, "request_too_large"))).toMatchObject({
      status: 400,
      body: { error: { status: "INVALID_ARGUMENT" } },
    });
  });

  test.each(fixtures("error", "generative").map((entry) => [entry.path, entry] as const))(
    "decoding and re-encoding %s gives a body of the generative error shape",
    (_, entry) => {
      const encoded = encodeGenerativeError(
        decodeGenerativeError({ status: entry.http_status, body: readJsonFixture(entry) }),
      );
      expect(generative.errorBody.safeParse(encoded.body).success).toBe(true);
      expect(encoded.body.error.message).toBe(
        (readJsonFixture(entry) as { error: { message: string } }).error.message,
      );
    },
  );
});
