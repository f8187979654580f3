/**
 * Totality under depth and width, for every pair and every translate function: a valid payload with a
 * deep or wide value put under an unknown key of one of its objects (loose schemas keep it). Input
 * nested deeper than the limit (512 levels of objects and arrays) is a TranslationError 400 that names
 * the limit, on every runtime alike (scripts/runtimes.ts compares the runtimes); input within it is
 * never refused for its depth and translates to output JSON can write; no input makes anything throw
 * but a TranslationError. The fast tier goes to 10,000 levels and 5,000 wide, the thorough one to
 * 100,000 levels and 50,000 wide (100 runs per property).
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import {
  accumulate,
  createStreamTranslator,
  type Protocol,
  protocols,
  replay,
  TranslationError,
  translateError,
  translateEventStream,
  translateRequest,
  translateResponse,
} from "../../src/index";
import { type Hard, resolveBias } from "../../src/testing/arbitraries/common";
import { entryOf } from "../../src/testing/arbitraries/index";
import { sseBytes } from "../../src/testing/index";
import { runs, thorough } from "../helpers/tier";

const LIMIT = 512;
const options = { model: "m", idPrefix: "gp", created: 1_700_000_000 } as const;

type Shape = "object" | "array" | "mixed";
/** What goes in: a value `depth` containers deep, or `width` wide (one or two levels). */
type Insert =
  | { kind: "deep"; depth: number; shape: Shape }
  | { kind: "wide"; width: number; shape: "numbers" | "keys" | "objects" };

/** The containers an insert adds (the value's own nesting). */
const nestingOf = (insert: Insert): number =>
  insert.kind === "deep" ? insert.depth : insert.shape === "objects" ? 2 : 1;

/** The value itself, built by a loop (never by recursion, which the depths here would overflow). */
function built(insert: Insert): unknown {
  if (insert.kind === "wide") {
    const indices = Array.from({ length: insert.width }, (_, index) => index);
    if (insert.shape === "numbers") return indices.map((index) => index / 7);
    if (insert.shape === "objects") return indices.map((index) => ({ i: index }));
    return Object.fromEntries(indices.map((index) => [`k${index}`, index]));
  }
  let node: unknown = "leaf";
  for (let level = 0; level < insert.depth; level++) {
    node = insert.shape === "array" || (insert.shape === "mixed" && level % 2 === 1) ? [node] : { n: node };
  }
  return node;
}

/** The JSON text of `built(insert)`, by repetition (JSON.stringify overflows on the deepest ones). */
function builtText(insert: Insert): string {
  if (insert.kind === "wide") return JSON.stringify(built(insert));
  let open = "";
  let close = "";
  for (let level = insert.depth - 1; level >= 0; level--) {
    const array = insert.shape === "array" || (insert.shape === "mixed" && level % 2 === 1);
    open += array ? "[" : '{"n":';
    close = (array ? "]" : "}") + close;
  }
  return `${open}"leaf"${close}`;
}

const insertArb: fc.Arbitrary<Insert> = fc.oneof(
  fc.record({
    kind: fc.constant("deep" as const),
    depth: fc.oneof(
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: LIMIT - 12, max: LIMIT + 4 }),
      fc.constantFrom(2_000, 6_000, 10_000, ...(thorough ? [100_000] : [])),
    ),
    shape: fc.constantFrom<Shape>("object", "array", "mixed"),
  }),
  fc.record({
    kind: fc.constant("wide" as const),
    width: fc.integer({ min: 1_000, max: thorough ? 50_000 : 5_000 }),
    shape: fc.constantFrom("numbers" as const, "keys" as const, "objects" as const),
  }),
);

/** The nesting of a (shallow, generated) payload: the outermost object or array counts 1. */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}

const MARK = "\u0000inserted\u0000";

/**
 * A copy of `base` (sharing no object between two places, as generated values may) whose `at`-th
 * object (depth-first, modulo the count) gets `value` under the key `x_inserted`; the nesting of that
 * object (the root is 1), 0 when there is none.
 */
function placed(base: unknown, at: number, value: unknown): { value: unknown; host: number } {
  const copy: unknown = JSON.parse(JSON.stringify(base));
  const hosts: { node: Record<string, unknown>; depth: number }[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (typeof node !== "object" || node === null) return;
    if (!Array.isArray(node)) hosts.push({ node: node as Record<string, unknown>, depth });
    for (const child of Object.values(node)) walk(child, depth + 1);
  };
  walk(copy, 1);
  const host = hosts[at % hosts.length];
  if (host === undefined) return { value: copy, host: 0 };
  host.node.x_inserted = value;
  return { value: copy, host: host.depth };
}

/** `base` with the insert placed in it, and the nesting of the whole. */
function inserted(base: unknown, at: number, insert: Insert): { value: unknown; nesting: number } {
  const { value, host } = placed(base, at, built(insert));
  return { value, nesting: host === 0 ? depthOf(base) : Math.max(depthOf(base), host + nestingOf(insert)) };
}

/**
 * Runs `run` and checks the contract: a TranslationError (4xx/5xx, never a stack overflow in disguise)
 * or a result; past the limit, a 400 naming it; within it, never a refusal for depth, and a result
 * JSON can write.
 */
function contract(nesting: number, run: () => unknown): void {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    if (!(error instanceof TranslationError)) throw error;
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.message).not.toMatch(/call stack/i);
    if (nesting > LIMIT) {
      expect(error.status).toBe(400);
      expect(error.message).toContain(`at most ${LIMIT} levels`);
    } else {
      expect(error.message).not.toContain(`at most ${LIMIT} levels`);
    }
    return;
  }
  expect(nesting, "input nested past the limit was not refused").toBeLessThanOrEqual(LIMIT);
  expect(() => JSON.stringify(result)).not.toThrow();
}

const pairs = protocols.flatMap((from) => protocols.map((to) => [from, to] as const));
const numRuns = runs(100, 6);
/** Everyday payloads and ones leaning toward the hard cases, as the laws draw them. */
const baseOf = <T>(make: (hard: Hard) => fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.oneof(make(resolveBias(false)), make(resolveBias(true)));
const requestArb = (p: Protocol) => baseOf((hard) => entryOf(p).request(hard));
const responseArb = (p: Protocol) => baseOf((hard) => entryOf(p).response(hard));
const streamArb = (p: Protocol) => baseOf((hard) => entryOf(p).stream(hard));

describe.each(pairs)("%s → %s under deep and wide input", (from, to) => {
  test.prop([requestArb(from), fc.nat(), insertArb], { numRuns })("translateRequest", (base, at, insert) => {
    const { value, nesting } = inserted(base, at, insert);
    contract(nesting, () => translateRequest(from, to, value, options));
  });

  test.prop([responseArb(from), fc.nat(), insertArb], { numRuns })(
    "translateResponse",
    (base, at, insert) => {
      const { value, nesting } = inserted(base, at, insert);
      contract(nesting, () => translateResponse(from, to, value, options));
    },
  );

  test.prop([streamArb(from), fc.nat(), fc.nat(), insertArb], { numRuns })(
    "createStreamTranslator: the event that passes the limit is refused, the others translate",
    (events, which, at, insert) => {
      const objects = events.flatMap((event, index) => (typeof event === "object" ? [index] : []));
      const target = objects[which % Math.max(1, objects.length)];
      const translator = createStreamTranslator(from, to, options);
      for (const [index, event] of events.entries()) {
        if (index !== target) {
          contract(depthOf(event), () => translator.push(event as never));
          continue;
        }
        const { value, nesting } = inserted(event, at, insert);
        contract(nesting, () => translator.push(value as never));
      }
      contract(0, () => translator.end());
    },
  );

  test.prop([streamArb(from), fc.nat(), fc.nat(), insertArb], { numRuns })(
    "translateEventStream: never errors; an event past the limit ends the output with the target's error event naming it",
    async (events, which, at, insert) => {
      // An event after the protocol's finish may go unread (the output has ended): the insert goes at or before it.
      let finish = events.findIndex((_, index) => entryOf(from).finished(events.slice(0, index + 1)));
      if (finish === -1) finish = events.length - 1;
      const objects = events.flatMap((event, index) =>
        typeof event === "object" && index <= finish ? [index] : [],
      );
      const target = objects[which % Math.max(1, objects.length)];
      let nesting = 0;
      const withMark = events.map((event, index) => {
        if (index !== target) return event;
        const { value, host } = placed(event, at, MARK);
        nesting = host === 0 ? depthOf(event) : Math.max(depthOf(event), host + nestingOf(insert));
        return value;
      });
      const body = new TextDecoder()
        .decode(sseBytes(from, withMark))
        .replace(JSON.stringify(MARK), () => builtText(insert));
      const input = new Blob([body]).stream();
      const output = await new Response(translateEventStream(from, to, input, options)).text();
      if (target !== undefined && nesting > LIMIT) expect(output).toContain(`at most ${LIMIT} levels`);
      else expect(output).not.toContain(`at most ${LIMIT} levels`);
    },
  );
});

describe.each(protocols)(
  "%s: accumulate, replay and translateError under deep and wide input",
  (protocol) => {
    test.prop([streamArb(protocol), fc.nat(), fc.nat(), insertArb], { numRuns })(
      "accumulate",
      (events, which, at, insert) => {
        const objects = events.flatMap((event, index) => (typeof event === "object" ? [index] : []));
        const target = objects[which % Math.max(1, objects.length)];
        let nesting = Math.max(0, ...events.map(depthOf));
        const withInsert = events.map((event, index) => {
          if (index !== target) return event;
          const result = inserted(event, at, insert);
          nesting = Math.max(nesting, result.nesting);
          return result.value;
        });
        contract(nesting, () => accumulate(protocol, withInsert as never));
      },
    );

    test.prop([baseOf((hard) => entryOf(protocol).replayableResponse(hard)), fc.nat(), insertArb], {
      numRuns,
    })("replay", (base, at, insert) => {
      const { value, nesting } = inserted(base, at, insert);
      contract(nesting, () => replay(protocol, value as never));
    });

    test.prop([entryOf(protocol).errorBody(), fc.nat(), insertArb, fc.constantFrom(...protocols)], {
      numRuns,
    })(
      "translateError answers every body with an error JSON can write, passing on none past the limit",
      (base, at, insert, to) => {
        const { value } = inserted(base, at, insert);
        const result = translateError(protocol, to, { status: 400, body: value });
        expect(result.status).toBeGreaterThanOrEqual(400);
        expect(() => JSON.stringify(result.body)).not.toThrow();
      },
    );
  },
);

describe("pinned examples", () => {
  const deepInput = (depth: number) => built({ kind: "deep", depth, shape: "object" });
  test("a 10,000-deep tool input in a messages or generative response toward chat is a 400 naming the limit", () => {
    const responses = {
      messages: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "m",
        content: [{ type: "tool_use", id: "t1", name: "f", input: deepInput(10_000) }],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      generative: {
        candidates: [
          {
            content: { role: "model", parts: [{ functionCall: { name: "f", args: deepInput(10_000) } }] },
            finishReason: "STOP",
          },
        ],
      },
    } as const;
    for (const [from, body] of Object.entries(responses)) {
      expect(() => translateResponse(from as Protocol, "chat", body)).toThrow(
        /content\/0\/input|functionCall\/args/,
      );
      try {
        translateResponse(from as Protocol, "chat", body);
      } catch (error) {
        expect(error).toBeInstanceOf(TranslationError);
        expect((error as TranslationError).status).toBe(400);
        expect((error as TranslationError).message).toContain("at most 512 levels");
        expect((error as TranslationError).issues).toEqual([
          expect.objectContaining({ code: "too_big", path: expect.any(Array) }),
        ]);
      }
    }
  });

  test("512 levels are taken, 513 are not: the outermost object counts 1", () => {
    // The request is level 1, `tools` 2, the tool 3, `function` 4, `parameters` 5: 507 more below it.
    const body = (below: number) => ({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      tools: [{ type: "function", function: { name: "f", parameters: deepInput(below) } }],
    });
    expect(translateRequest("chat", "messages", body(508)).value.tools).toHaveLength(1);
    expect(() => translateRequest("chat", "messages", body(509))).toThrow(
      "Invalid chat request: /tools/0/function/parameters/n/n/n/n/… (level 513): objects and arrays are nested more than 512 deep",
    );
  });

  test("a cycle in a hand-made body is refused the same way, not a stack overflow", () => {
    const body: Record<string, unknown> = { model: "m", messages: [{ role: "user", content: "x" }] };
    body.metadata = body;
    expect(() => translateRequest("chat", "messages", body)).toThrow(/at most 512 levels/);
  });

  test("tool-call arguments text nested past the limit is not read as an object: a loss, not a crash", () => {
    const text = `${'{"n":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    const response = {
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: text } }],
          },
          finish_reason: "tool_calls",
        },
      ],
    };
    const result = translateResponse("chat", "generative", response, options);
    expect(result.value.candidates?.[0]?.content?.parts?.[0]?.functionCall?.args).toEqual({});
    expect(result.losses.map((loss) => loss.path)).toContain("/choices/0/message/tool_calls/0");
  });
});
