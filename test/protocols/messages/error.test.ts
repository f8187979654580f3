import { describe, expect, test } from "vitest";
import { decodeMessagesError, encodeMessagesError } from "../../../src/protocols/messages/error";
import * as messages from "../../../src/protocols/messages/schema";
import { fixtures, readJsonFixture } from "../../helpers/fixtures";

describe("decodeMessagesError", () => {
  test("fixture error bodies keep their message and type", () => {
    for (const entry of fixtures("error", "messages")) {
      const body = readJsonFixture(entry) as { error: { type: string; message: string } };
      const info = decodeMessagesError({ status: entry.http_status, body });
      expect(info).toMatchObject({
        status: entry.http_status,
        message: body.error.message,
        code: body.error.type,
      });
    }
  });

  test.each([
    [400, "invalid_request_error", "invalid_request"],
    [401, "authentication_error", "authentication"],
    [403, "permission_error", "permission"],
    [404, "not_found_error", "not_found"],
    [413, "request_too_large", "request_too_large"],
    [429, "rate_limit_error", "rate_limit"],
    [500, "api_error", "server"],
    [529, "overloaded_error", "overloaded"],
  ])("HTTP %i %s → %s", (status, type, kind) => {
    expect(decodeMessagesError({ status, body: { type: "error", error: { type, message: "m" } } })).toEqual({
      status,
      kind,
      message: "m",
      code: type,
    });
  });

  test("a mid-stream error (HTTP 200) takes its status from the type", () => {
    expect(
      decodeMessagesError({
        status: 200,
        body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      }),
    ).toEqual({
      status: 529,
      kind: "overloaded",
      message: "Overloaded",
      code: "overloaded_error",
    });
  });

  test("non-JSON, HTML, arrays and garbage never throw", () => {
    expect(
      decodeMessagesError({ status: 404, body: "<!DOCTYPE html><title>Error 404 (Not Found)!!1</title>" }),
    ).toEqual({
      status: 404,
      kind: "not_found",
      message: "Error 404 (Not Found)!!1",
    });
    expect(decodeMessagesError({ status: 500, body: '[{"error":{"message":"boom"}}]' })).toMatchObject({
      kind: "server",
      message: "boom",
    });
    expect(decodeMessagesError({ status: 502, body: null })).toMatchObject({
      kind: "server",
      message: "Upstream error (HTTP 502)",
    });
    expect(decodeMessagesError({ status: 418, body: 42 })).toMatchObject({ kind: "invalid_request" });
    expect(decodeMessagesError({ status: 400, body: "x".repeat(10_000) }).message.length).toBe(2048);
  });
});

describe("encodeMessagesError", () => {
  test.each([
    ["invalid_request", 400, 400, "invalid_request_error"],
    ["authentication", 400, 401, "authentication_error"],
    ["permission", 403, 403, "permission_error"],
    ["not_found", 404, 404, "not_found_error"],
    ["request_too_large", 413, 413, "request_too_large"],
    ["rate_limit", 429, 429, "rate_limit_error"],
    ["payment", 402, 402, "invalid_request_error"],
    ["server", 500, 500, "api_error"],
    ["timeout", 504, 504, "api_error"],
    ["overloaded", 503, 529, "overloaded_error"],
  ] as const)("%s (HTTP %i) → HTTP %i %s", (kind, status, expectedStatus, type) => {
    const result = encodeMessagesError({ status, kind, message: "m" });
    expect(result).toEqual({
      status: expectedStatus,
      body: { type: "error", error: { type, message: "m" } },
    });
    expect(messages.errorBody.safeParse(result.body).success).toBe(true);
  });
});
