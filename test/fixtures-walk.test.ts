import { describe, expect, test } from "vitest";
import {
  accumulate,
  chat,
  createStreamTranslator,
  generative,
  messages,
  responses,
  translateError,
  translateRequest,
  translateResponse,
} from "../src/index";
import { protocols } from "../src/protocols/index";
import {
  type FixtureEntry,
  type FixtureProtocol,
  fixtureIndex,
  fixtureProtocols,
  fixtures,
  generativeModel,
  readJsonFixture,
  streamEvents,
} from "./helpers/fixtures";
import { grammars } from "./helpers/grammar";

type Schema = { safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } } };
type Schemas = { request: Schema; response: Schema; event: Schema; errorBody: Schema };

const schemas: Record<FixtureProtocol, Schemas> = {
  chat: {
    request: chat.request,
    response: chat.response,
    event: chat.streamEvent,
    errorBody: chat.errorBody,
  },
  messages: {
    request: messages.request,
    response: messages.response,
    event: messages.streamEvent,
    errorBody: messages.errorBody,
  },
  generative: {
    request: generative.request,
    response: generative.response,
    event: generative.streamEvent,
    errorBody: generative.errorBody,
  },
  responses: {
    request: responses.request,
    response: responses.response,
    event: responses.streamEvent,
    errorBody: responses.errorBody,
  },
};

function issuesOf(result: { success: boolean; error?: { issues: unknown[] } }): unknown[] {
  return result.success ? [] : (result.error?.issues ?? []);
}

describe("the fixture index", () => {
  test("lists 284 recorded payloads across the four protocols", () => {
    expect(fixtureIndex).toHaveLength(284);
    expect(new Set(fixtureProtocols)).toEqual(new Set(["chat", "messages", "generative", "responses"]));
  });
});

describe.each(fixtureProtocols)("every recorded %s payload parses with its schema", (protocol) => {
  test.each(fixtures("request", protocol).map((entry) => [entry.path, entry] as const))(
    "request %s",
    (_, entry) => {
      expect(issuesOf(schemas[protocol].request.safeParse(readJsonFixture(entry)))).toEqual([]);
    },
  );
  test.each(fixtures("response", protocol).map((entry) => [entry.path, entry] as const))(
    "response %s",
    (_, entry) => {
      expect(issuesOf(schemas[protocol].response.safeParse(readJsonFixture(entry)))).toEqual([]);
    },
  );
  test.each(fixtures("error", protocol).map((entry) => [entry.path, entry] as const))(
    "error body %s",
    (_, entry) => {
      expect(issuesOf(schemas[protocol].errorBody.safeParse(readJsonFixture(entry)))).toEqual([]);
    },
  );
  test.each(fixtures("stream", protocol).map((entry) => [entry.path, entry] as const))(
    "every event of stream %s",
    (_, entry) => {
      const events = streamEvents(entry);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(issuesOf(schemas[protocol].event.safeParse(event))).toEqual([]);
    },
  );
});

/**
 * What a gateway would have stored for a responses request that continues an earlier response
 * (`previous_response_id`, `conversation`): the user turn that began it and the calls its function
 * outputs answer. The library keeps no state, so a translation needs it in `options.history`.
 */
function storedHistory(entry: FixtureEntry, body: unknown): unknown[] | undefined {
  if (entry.protocol !== "responses") return undefined;
  const request = body as { previous_response_id?: unknown; conversation?: unknown; input?: unknown };
  if (typeof request.previous_response_id !== "string" && request.conversation == null) return undefined;
  const input = Array.isArray(request.input) ? (request.input as { type?: string; call_id?: string }[]) : [];
  const calls = input
    .filter((item) => item.type === "function_call_output")
    .map((item) => ({ type: "function_call", call_id: item.call_id, name: "tool", arguments: "{}" }));
  return [{ role: "user", content: "Earlier question" }, ...calls];
}

describe.each(protocols)("every recorded %s payload translates to every protocol", (from) => {
  const options = { idPrefix: "gp", created: 1_700_000_000 };
  for (const to of protocols) {
    test.each(fixtures("request", from).map((entry) => [entry.path, entry] as const))(
      `request %s → ${to} parses with the ${to} schema`,
      (_, entry) => {
        const body = readJsonFixture(entry);
        const url = { model: generativeModel(entry), stream: entry.url.includes(":streamGenerateContent") };
        const history = from === to ? undefined : storedHistory(entry, body);
        if (history !== undefined) {
          // Stateless: without the stored items the request is refused, naming the option that carries them.
          expect(() => translateRequest(from, to, body, { ...options, ...url })).toThrow(/options\.history/);
        }
        const result = translateRequest(from, to, body, { ...options, ...url, history });
        expect(issuesOf(schemas[to].request.safeParse(result.value))).toEqual([]);
        if (from === to) expect(result.losses).toEqual([]);
        expect(result.model).not.toBe("");
      },
    );
    test.each(fixtures("response", from).map((entry) => [entry.path, entry] as const))(
      `response %s → ${to} parses with the ${to} schema`,
      (_, entry) => {
        const result = translateResponse(from, to, readJsonFixture(entry), options);
        expect(issuesOf(schemas[to].response.safeParse(result.value))).toEqual([]);
      },
    );
    test.each(fixtures("error", from).map((entry) => [entry.path, entry] as const))(
      `error %s → ${to} parses with the ${to} error schema`,
      (_, entry) => {
        const result = translateError(from, to, { status: entry.http_status, body: readJsonFixture(entry) });
        expect(issuesOf(schemas[to].errorBody.safeParse(result.body))).toEqual([]);
        expect(result.status).toBeGreaterThanOrEqual(400);
      },
    );
    test.each(fixtures("stream", from).map((entry) => [entry.path, entry] as const))(
      `stream %s → ${to}: every event parses and the sequence follows the ${to} grammar`,
      (_, entry) => {
        const translator = createStreamTranslator(from, to, options);
        const out: unknown[] = [];
        for (const event of streamEvents(entry)) out.push(...translator.push(event as never));
        out.push(...translator.end());
        for (const event of out) expect(issuesOf(schemas[to].event.safeParse(event))).toEqual([]);
        if (from !== to) expect(grammars[to](out)).toEqual([]);
      },
    );
  }
  test.each(fixtures("stream", from).map((entry) => [entry.path, entry] as const))(
    "stream %s accumulates to a response that parses",
    (_, entry) => {
      const events = streamEvents(entry);
      const hasError = events.some(
        (event) =>
          typeof event === "object" &&
          event !== null &&
          ("error" in event || (event as { type?: unknown }).type === "error"),
      );
      if (hasError) {
        expect(() => accumulate(from, events as never)).toThrow(/error/i);
      } else {
        expect(issuesOf(schemas[from].response.safeParse(accumulate(from, events as never)))).toEqual([]);
      }
    },
  );
});
