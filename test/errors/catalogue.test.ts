import { describe, expect, test } from "vitest";
import { errors, protocols, TranslationError } from "../../src/index";
import { assertValid } from "../../src/testing/index";

// The gateway's own errors (spec section 7), rendered in each client protocol's shape.
const catalogue: [string, errors.ErrorInfo, number, string | RegExp][] = [
  ["model not specified", errors.modelNotSpecified(), 400, /^Model name not specified/],
  ["no access to a model", errors.noAccessToModel("gpt-x"), 403, "This token has no access to model gpt-x"],
  ["no access to any model", errors.noAccessToAnyModels(), 403, "This token has no access to any models"],
  ["no valid upstream", errors.noValidUpstream(), 503, "No valid upstream service"],
  ["invalid token", errors.invalidToken(), 401, /token/i],
  ["insufficient quota", errors.insufficientQuota(), 402, /balance or quota/i],
  ["wrong path", errors.pathNotFound("/v2/chat"), 404, /\/v2\/chat/],
  ["rate limited", errors.rateLimited(), 429, /rate limit/i],
  ["upstream failed", errors.upstreamFailed(), 500, /upstream/i],
];

/** The human-readable message of an error body, whatever its protocol: the string under its `message` key. */
function messageOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  for (const [key, value] of Object.entries(body)) {
    if (key === "message" && typeof value === "string") return value;
    const inner = messageOf(value);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

describe.each(catalogue)("%s", (_, error, status, text) => {
  test.each(protocols)("renders in the %s shape with the spec's status and text", (protocol) => {
    const rendered = errors.render(protocol, error);
    expect(rendered.status).toBe(status);
    assertValid(protocol, "errorBody", rendered.body);
    const message = messageOf(rendered.body) ?? "";
    if (typeof text === "string") expect(message).toBe(text);
    else expect(message).toMatch(text);
  });
});

describe("TranslationError.toErrorBody", () => {
  test.each(protocols)("renders invalid input as a 400 in the %s shape, naming the field", (protocol) => {
    let thrown: unknown;
    try {
      throw new TranslationError("Invalid chat request: /temperature: Too big: expected number to be <=2");
    } catch (error) {
      thrown = error;
    }
    const rendered = (thrown as TranslationError).toErrorBody(protocol);
    expect(rendered.status).toBe(400);
    assertValid(protocol, "errorBody", rendered.body);
    expect(messageOf(rendered.body)).toContain("/temperature");
  });
});
