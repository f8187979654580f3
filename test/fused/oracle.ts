/**
 * The oracle of the fused paths' differential tests: a body translated by `translateRequest` or
 * `translateResponse` (which take the fused path when it handles the body) against the same body
 * through the hub, as bytes — the value and losses (and a request's model and stream), or the error's
 * class, message and fields.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { responseSets } from "../../bench/corpus";
import type { Protocol } from "../../src/common/model";
import { resolveOptions, type TranslateOptions } from "../../src/common/options";
import type { FusedRequest, FusedResponse } from "../../src/fused/index";
import { translateRequest, translateResponse } from "../../src/index";
import { adapters } from "../../src/protocols";
import { arbitraries } from "../../src/testing/index";
import { hubRequest, hubResponse } from "../../src/translate";
import { validated } from "../../src/validate";
import { rare } from "./generative-shapes";

/** What a translation gives, as bytes: the result, or the error's class, message and fields. */
export function outcome(run: () => unknown): string {
  try {
    return JSON.stringify(run());
  } catch (error) {
    const e = error as Error & { status?: unknown; issues?: unknown; losses?: unknown };
    return `THROW ${e.name}: ${e.message} ${JSON.stringify([e.status, e.issues, e.losses])}`;
  }
}

type Kind = "request" | "response";

/** The hub's result for `body`, validated first as `translateRequest` / `translateResponse` do. */
export function viaHub(
  kind: Kind,
  from: Protocol,
  to: Protocol,
  body: unknown,
  options: TranslateOptions,
): unknown {
  const resolved = resolveOptions(options);
  const valid = validated(adapters[from], kind, from, body, resolved);
  return kind === "request" ? hubRequest(from, to, valid, resolved) : hubResponse(from, to, valid, resolved);
}

/**
 * A checker for one pair: `agrees(body)` expects the same outcome both ways under every option set,
 * and counts in `taken()` the translations the fused path itself gave (on a body the schema accepts,
 * or under `validate: false`, as the public functions call it).
 */
export function differential(
  kind: Kind,
  from: Protocol,
  to: Protocol,
  path: FusedRequest | FusedResponse,
  optionSets: readonly TranslateOptions[],
): {
  agrees: (body: unknown) => void;
  taken: () => number;
  /** `agrees` on `numRuns` bodies of `arbitrary`; the share of their translations the fused path gave. */
  share: (arbitrary: fc.Arbitrary<unknown>, numRuns: number) => number;
} {
  let taken = 0;
  const schema = adapters[from].schemas[kind];
  const translate = kind === "request" ? translateRequest : translateResponse;
  const checker = {
    agrees(body: unknown): void {
      const valid = schema.safeParse(body).success;
      for (const options of optionSets) {
        if ((valid || options.validate === false) && path(body, resolveOptions(options)) !== undefined)
          taken++;
        expect(outcome(() => translate(from, to, body as never, options))).toBe(
          outcome(() => viaHub(kind, from, to, body, options)),
        );
      }
    },
    taken: () => taken,
    share(arbitrary: fc.Arbitrary<unknown>, numRuns: number): number {
      const before = taken;
      fc.assert(fc.property(arbitrary, checker.agrees), { numRuns });
      return (taken - before) / (numRuns * optionSets.length);
    },
  };
  return checker;
}

/** The toolkit's responses of `from`: plain, biased, and biased toward tools, thinking and edge values. */
export const toolkitResponses = (from: Protocol): fc.Arbitrary<unknown> =>
  fc.oneof(
    arbitraries.response(from),
    arbitraries.response(from, true),
    arbitraries.response(from, ["tools", "thinking", "unicode", "empty", "zeros"]),
  );

/** `agrees` on each of the bench's response bodies of `from`; returns its generated text + 3 tool calls body. */
export function benchResponses(from: Protocol, agrees: (body: unknown) => void): unknown {
  const sets = responseSets(from);
  for (const set of sets) for (const body of set.bodies) agrees(body);
  const generated = sets.filter((set) => set.name === "text + 3 tool calls");
  expect(generated.length).toBe(1);
  expect(generated[0]?.bodies.length).toBe(1);
  return generated[0]?.bodies[0];
}

/** The record without its undefined fields (an absent field, as JSON has it), for the shape generators. */
export function strip(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out;
}

/** A short string, now and then one at the edges: empty, a space, or a key that needs escaping in a pointer. */
export const word: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "a/b", "~0") },
);

/**
 * Now and then a field of no known meaning, for the shape generators: its key one of `keys` (needing
 * escaping in a pointer or not), its value blank or not.
 */
export const unknownFieldsOf = (...keys: string[]): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        fc.constantFrom(...keys),
        fc.constantFrom<unknown>(null, "", [], "v", 1, { k: 1 }),
        { maxKeys: 2 },
      ),
    },
  );

/** Fields of no known meaning on a node, now and then: keys from `keys` (needing escaping or not), values blank or not. */
export const oddFieldsOf = (...keys: string[]): fc.Arbitrary<Record<string, unknown>> =>
  rare<Record<string, unknown>>(
    fc.constant({}),
    fc.dictionary(fc.constantFrom(...keys), fc.constantFrom<unknown>(null, "", [], "v", 0, { k: 1 }), {
      minKeys: 1,
      maxKeys: 2,
    }),
  );

/** A short text, now and then an edge one: empty, a newline, or a key that needs escaping in a pointer. */
export const say: fc.Arbitrary<string> = fc.oneof(
  { weight: 9, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom("", "\n", "a/b", "~1") },
);
