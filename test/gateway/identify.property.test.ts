import fc from "fast-check";
import { expect, test } from "vitest";
import { identifyRequest } from "../../src/gateway/identify";

const headerName = fc.oneof(
  fc.constantFrom(
    "authorization",
    "Authorization",
    "x-api-key",
    "X-Proto-Version",
    "x-goog-api-key",
    "x-alt-api-key",
  ),
  fc.string(),
);
const headerValue = fc.oneof(fc.string(), fc.array(fc.string()), fc.constant(undefined), fc.integer());
const path = fc.oneof(
  fc.string(),
  fc
    .tuple(fc.constantFrom("/v1/models/", "/v1beta/models/", "/v1/", "/music/", "/models"), fc.string())
    .map(([prefix, rest]) => prefix + rest),
);

test("identifyRequest never throws and always answers an operation or an error with a status", () => {
  fc.assert(
    fc.property(fc.string(), path, fc.dictionary(headerName, headerValue), (method, target, headers) => {
      const out = identifyRequest({ method, path: target, headers });
      if ("error" in out) expect([400, 401, 404, 405]).toContain(out.error.status);
      else expect(typeof out.operation).toBe("string");
    }),
  );
});

test("identifyRequest never throws on values of the wrong type", () => {
  fc.assert(
    fc.property(fc.anything(), fc.anything(), fc.anything(), (method, target, headers) => {
      const out = identifyRequest({ method, path: target, headers } as never);
      expect(out).toBeTypeOf("object");
    }),
  );
});

test("a generative method path gives back the model exactly as written before the last colon", () => {
  const id = fc
    .stringMatching(/^[a-zA-Z0-9._\-/:]{1,30}$/)
    .filter((s) => !s.startsWith("/") && !s.includes("//"));
  fc.assert(
    fc.property(id, (model) => {
      const out = identifyRequest({
        method: "POST",
        path: `/v1beta/models/${model}:generateContent`,
        headers: { authorization: "Bearer sk-1" },
      });
      expect(out).toMatchObject({ operation: "generateContent", model });
    }),
  );
});
