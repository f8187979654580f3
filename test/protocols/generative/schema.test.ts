import { describe, expect, test } from "vitest";
import * as generative from "../../../src/protocols/generative/schema";
import { fixtures, readJsonFixture, streamEvents } from "../../helpers/fixtures";

const issues = (result: { success: boolean; error?: { issues: unknown[] } }) =>
  result.success ? [] : (result.error?.issues ?? []);

const pointers = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : (result.error?.issues ?? []).map((issue) => `/${issue.path.join("/")}`);

const minimal = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };

describe("every recorded generative payload parses", () => {
  test.each(fixtures("request", "generative").map((entry) => [entry.path, entry] as const))(
    "request %s",
    (_, entry) => {
      expect(issues(generative.request.safeParse(readJsonFixture(entry)))).toEqual([]);
    },
  );
  test.each(fixtures("response", "generative").map((entry) => [entry.path, entry] as const))(
    "response %s",
    (_, entry) => {
      expect(issues(generative.response.safeParse(readJsonFixture(entry)))).toEqual([]);
    },
  );
  test.each(fixtures("error", "generative").map((entry) => [entry.path, entry] as const))(
    "error %s",
    (_, entry) => {
      expect(issues(generative.errorBody.safeParse(readJsonFixture(entry)))).toEqual([]);
    },
  );
  test.each(fixtures("stream", "generative").map((entry) => [entry.path, entry] as const))(
    "stream %s",
    (_, entry) => {
      for (const event of streamEvents(entry))
        expect(issues(generative.streamEvent.safeParse(event))).toEqual([]);
    },
  );
});

describe("the request schema rejects what the API rejects", () => {
  test("rejects the role assistant, pointing at the role", () => {
    const body = {
      contents: [
        { role: "user", parts: [{ text: "a" }] },
        { role: "assistant", parts: [{ text: "b" }] },
      ],
    };
    expect(pointers(generative.request.safeParse(body))).toEqual(["/contents/1/role"]);
  });

  test("rejects six stop sequences, pointing at stopSequences", () => {
    const body = { ...minimal, generationConfig: { stopSequences: ["a", "b", "c", "d", "e", "f"] } };
    expect(pointers(generative.request.safeParse(body))).toEqual(["/generationConfig/stopSequences"]);
  });

  test("accepts five stop sequences", () => {
    const body = { ...minimal, generationConfig: { stopSequences: ["a", "b", "c", "d", "e"] } };
    expect(generative.request.safeParse(body).success).toBe(true);
  });

  test("rejects a temperature above 2 and an empty contents array", () => {
    expect(
      pointers(generative.request.safeParse({ ...minimal, generationConfig: { temperature: 2.5 } })),
    ).toEqual(["/generationConfig/temperature"]);
    expect(pointers(generative.request.safeParse({ contents: [] }))).toEqual(["/contents"]);
  });

  test("rejects a functionResponse whose response is not an object", () => {
    const body = {
      contents: [{ role: "user", parts: [{ functionResponse: { name: "f", response: "text" } }] }],
    };
    expect(pointers(generative.request.safeParse(body))).toEqual([
      "/contents/0/parts/0/functionResponse/response",
    ]);
  });

  test("accepts a turn without a role, as the API does", () => {
    expect(generative.request.safeParse({ contents: [{ parts: [{ text: "hi" }] }] }).success).toBe(true);
  });

  test("accepts snake_case thinking fields and checks their types", () => {
    const good = {
      ...minimal,
      generationConfig: { thinkingConfig: { thinking_budget: 0, include_thoughts: true } },
    };
    const bad = { ...minimal, generationConfig: { thinkingConfig: { thinking_budget: "0" } } };
    expect(generative.request.safeParse(good).success).toBe(true);
    expect(pointers(generative.request.safeParse(bad))).toEqual([
      "/generationConfig/thinkingConfig/thinking_budget",
    ]);
  });
});

describe("unknown fields survive a parse", () => {
  test("in a request, a part and a response", () => {
    const body = {
      ...minimal,
      futureField: { a: 1 },
      contents: [{ role: "user", parts: [{ text: "x", extra: 2 }] }],
    };
    expect(generative.request.parse(body)).toEqual(body);
    const response = {
      candidates: [{ content: { parts: [{ text: "y" }] }, newMeta: [1] }],
      serverTiming: "x",
    };
    expect(generative.response.parse(response)).toEqual(response);
  });

  test("a finish reason the schema has never seen is accepted", () => {
    expect(generative.response.safeParse({ candidates: [{ finishReason: "SOMETHING_NEW" }] }).success).toBe(
      true,
    );
  });
});

describe("stream events", () => {
  test("a mid-stream error parses as the error shape", () => {
    const event = { error: { code: 503, message: "Overloaded", status: "UNAVAILABLE" } };
    const parsed = generative.streamEvent.parse(event);
    expect("error" in parsed && parsed.error).toEqual(event.error);
  });
});
