import { describe, expect, test } from "vitest";
import {
  chat,
  errors,
  generative,
  messages,
  type Protocol,
  protocols,
  responses,
  TranslationError,
} from "../../src/index";

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
const schemas = {
  chat: chat.errorBody,
  messages: messages.errorBody,
  generative: generative.errorBody,
  responses: responses.errorBody,
};
const messageOf: Record<Protocol, (body: never) => string> = {
  chat: (body: chat.ErrorBody) => body.error.message,
  messages: (body: messages.ErrorBody) => body.error.message,
  generative: (body: generative.ErrorBody) => String(body.error.message),
  responses: (body: responses.ErrorBody) => body.error.message,
};

describe.each(catalogue)("%s", (_, error, status, text) => {
  test.each(protocols)("renders in the %s shape with the spec's status and text", (protocol) => {
    const rendered = errors.render(protocol, error);
    expect(rendered.status).toBe(status);
    expect(schemas[protocol].safeParse(rendered.body).success).toBe(true);
    const message = messageOf[protocol](rendered.body as never);
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
    expect(schemas[protocol].safeParse(rendered.body).success).toBe(true);
    expect(messageOf[protocol](rendered.body as never)).toContain("/temperature");
  });
});
