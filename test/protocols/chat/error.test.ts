import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { decodeChatError, encodeChatError } from "../../../src/protocols/chat/error";
import * as chat from "../../../src/protocols/chat/schema";
import { chatFixtures, readJson } from "./fixtures";

describe("decodeChatError", () => {
  test.each(
    chatFixtures
      .filter((entry) => entry.kind === "error")
      .map((entry) => [entry.path, entry.http_status ?? 0] as const),
  )("decodes fixture %s keeping its message and status", (path, status) => {
    const body = readJson(path) as { error: { message: string } };
    const info = decodeChatError({ status, body });
    expect(info.status).toBe(status);
    expect(info.message).toBe(body.error.message);
  });

  test("maps by status first and keeps the source's code", () => {
    expect(
      decodeChatError({
        status: 429,
        body: {
          error: {
            message: "Rate limit reached",
            type: "requests",
            param: null,
            code: "rate_limit_exceeded",
          },
        },
      }),
    ).toEqual({
      status: 429,
      kind: "rate_limit",
      message: "Rate limit reached",
      code: "rate_limit_exceeded",
      // Chat's own name for the kind says no more than the kind; the type this table does not know is
      // a field that does not arrive anywhere.
      unread: ["/error/type"],
    });
    expect(
      decodeChatError({
        status: 401,
        body: { error: { message: "bad key", type: "invalid_request_error", code: "invalid_api_key" } },
      }).kind,
    ).toBe("authentication");
    expect(decodeChatError({ status: 503, body: {} }).kind).toBe("overloaded");
  });

  test("a mid-stream error with a numeric code takes that code as its status", () => {
    expect(
      decodeChatError({ status: 200, body: { error: { code: 400, message: "Token limit reached" } } }),
    ).toEqual({
      status: 400,
      kind: "invalid_request",
      message: "Token limit reached",
      code: "400",
    });
  });

  test("a non-JSON body keeps the page title as the message, and a one-element array is unwrapped", () => {
    expect(
      decodeChatError({ status: 404, body: "<!DOCTYPE html><title>Error 404 (Not Found)!!1</title>" })
        .message,
    ).toBe("Error 404 (Not Found)!!1");
    expect(decodeChatError({ status: 500, body: [{ error: { message: "x" } }] }).message).toBe("x");
  });

  test("never throws on any status and body", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1, max: 1000 }), fc.jsonValue(), (status, body) => {
        const info = decodeChatError({ status, body });
        expect(typeof info.message).toBe("string");
        expect(chat.errorBody.safeParse(encodeChatError(info).body).success).toBe(true);
      }),
    );
  });
});

describe("encodeChatError", () => {
  test("renders the chat shape, puts the source type in code and turns 529 into 503", () => {
    expect(
      encodeChatError({ status: 529, kind: "overloaded", message: "Overloaded", code: "overloaded_error" }),
    ).toEqual({
      status: 503,
      body: { error: { message: "Overloaded", type: "server_error", param: null, code: "overloaded_error" } },
    });
    expect(encodeChatError({ status: 404, kind: "not_found", message: "Error 404 (Not Found)!!1" })).toEqual({
      status: 404,
      body: {
        error: {
          message: "Error 404 (Not Found)!!1",
          type: "invalid_request_error",
          param: null,
          code: "not_found",
        },
      },
    });
    expect(
      encodeChatError({ status: 400, kind: "invalid_request", message: "m", param: "model" }).body.error,
    ).toEqual({
      message: "m",
      type: "invalid_request_error",
      param: "model",
      code: null,
    });
  });
});
