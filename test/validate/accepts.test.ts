import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { z } from "zod/v4";
import { adapters, protocols } from "../../src/protocols";
import { accepts, acceptsRoot } from "../../src/validate/accepts";
import { fixtures, readJsonFixture, streamEvents } from "../helpers/fixtures";

type Kind = "request" | "response" | "event" | "errorBody";

function bodies(protocol: (typeof protocols)[number], kind: Kind): unknown[] {
  if (kind === "event") return fixtures("stream", protocol).flatMap(streamEvents);
  if (kind === "errorBody") return fixtures("error", protocol).map(readJsonFixture);
  return fixtures(kind, protocol).map(readJsonFixture);
}

const cases = protocols.flatMap((protocol) =>
  (["request", "response", "event", "errorBody"] as const).map((kind) => ({
    name: `${protocol} ${kind}`,
    schema: adapters[protocol].schemas[kind] as z.ZodType,
    bodies: bodies(protocol, kind),
  })),
);

/** Values that sit on the edges of what the schemas take. */
const odd = fc.constantFrom<unknown>(
  undefined,
  null,
  "",
  "text",
  "function",
  "custom",
  "user",
  "model",
  "[DONE]",
  "text_delta",
  "server_tool_use",
  0,
  -1,
  1.5,
  3,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 60,
  true,
  [],
  [1],
  {},
  { type: "text" },
  { type: "not-a-kind" },
  { constructor: () => 0 },
  { [Symbol("key")]: 1 },
);

/** One edit of `value` at a random path: a replaced value, a removed key or element, an added one. */
function mutate(value: unknown, steps: readonly number[], replacement: unknown): unknown {
  const [step, ...rest] = steps;
  if (step === undefined) return replacement;
  if (Array.isArray(value)) {
    if (value.length === 0) return [replacement];
    const at = step % (value.length + 1);
    if (at === value.length) return [...value, replacement];
    if (rest.length === 0 && step % 5 === 0) return value.filter((_, index) => index !== at);
    return value.map((item, index) => (index === at ? mutate(item, rest, replacement) : item));
  }
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value);
    if (keys.length === 0) return replacement;
    const key = keys[step % keys.length] as string;
    const entries = Object.entries(value);
    if (rest.length === 0 && step % 5 === 0)
      return Object.fromEntries(entries.filter(([name]) => name !== key));
    return Object.fromEntries(
      entries.map(([name, item]) => [name, name === key ? mutate(item, rest, replacement) : item]),
    );
  }
  return replacement;
}

describe("the quick schema check (accepts)", () => {
  test.each(cases)("accepts every $name fixture the schema accepts", ({ schema, bodies }) => {
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      const zod = schema.safeParse(body).success;
      expect(acceptsRoot(schema)(body)).toBe(zod);
      expect(accepts(schema)(body)).toBe(zod);
    }
  });

  test.each(cases)("never accepts an edited $name body the schema rejects", ({ schema, bodies }) => {
    const generated = acceptsRoot(schema);
    const walked = accepts(schema);
    fc.assert(
      fc.property(
        fc.constantFrom(...bodies),
        fc.array(fc.nat(), { maxLength: 8 }),
        odd,
        (body, steps, replacement) => {
          const edited = mutate(body, steps, replacement);
          const zod = schema.safeParse(edited).success;
          if (!zod) {
            expect(generated(edited)).toBe(false);
            expect(walked(edited)).toBe(false);
          }
        },
      ),
    );
  });

  test("rejects an absent key whose schema takes undefined but is not optional", () => {
    const block = {
      type: "content_block_start",
      index: 0,
      content_block: { type: "server_tool_use", id: "s", name: "web_search" },
    };
    const schema = adapters.messages.schemas.event as z.ZodType;
    expect(schema.safeParse(block).success).toBe(false);
    expect(acceptsRoot(schema)(block)).toBe(false);
    expect(accepts(schema)(block)).toBe(false);
  });

  test("rejects a record with a symbol key or a foreign constructor, as zod does", () => {
    const schema = adapters.generative.schemas.request as z.ZodType;
    const call = (args: unknown) => ({
      contents: [{ role: "model", parts: [{ functionCall: { name: "f", args } }] }],
    });
    expect(acceptsRoot(schema)(call({ a: 1 }))).toBe(true);
    for (const args of [{ [Symbol("s")]: 1 }, new (class Args {})()]) {
      expect(schema.safeParse(call(args)).success).toBe(false);
      expect(acceptsRoot(schema)(call(args))).toBe(false);
      expect(accepts(schema)(call(args))).toBe(false);
    }
  });
});
