/**
 * Totality: on arbitrary JSON — payloads of every protocol with one node replaced by anything, other
 * protocols' payloads, plain JSON — a translator returns or throws a TranslationError-like error (status 4xx or 5xx), never a
 * TypeError or anything else; an error translation never throws and always answers an error status.
 */
import fc from "fast-check";
import { type Protocol, protocols } from "../../index";
import { entryOf } from "../arbitraries/index";
import { anyStreamArb } from "../arbitraries/streams";
import {
  check,
  describeThrown,
  isTranslationErrorLike,
  law,
  lawInputs,
  type RunOptions,
  translateOptions,
} from "./support";
import type { Law, Translator } from "./types";

/** `value` with its `index`-th node (in depth-first order, modulo the node count) replaced by `replacement`. */
export function corrupt(value: unknown, index: number, replacement: unknown): unknown {
  let remaining = index % countNodes(value);
  const walk = (node: unknown): unknown => {
    if (remaining === 0) {
      remaining = -1;
      return replacement;
    }
    remaining--;
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node === "object" && node !== null) {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]));
    }
    return node;
  };
  return walk(value);
}

function countNodes(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, child) => sum + countNodes(child), 0);
  if (typeof value === "object" && value !== null) {
    return 1 + Object.values(value).reduce((sum: number, child) => sum + countNodes(child), 0);
  }
  return 1;
}

/** Payloads near the real shapes but broken: one node replaced by arbitrary JSON (or a hostile key). */
function corrupted(arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const replacement = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(JSON.parse('{"__proto__":{"polluted":1}}') as unknown, {
      constructor: { prototype: {} },
    }),
  );
  return fc
    .tuple(arbitrary, fc.nat(), replacement)
    .map(([value, index, node]) => corrupt(value, index, node));
}

/** Arbitrary JSON for a `from` payload: its own kind broken, other protocols' payloads, plain JSON. */
function hostile(
  own: fc.Arbitrary<unknown>,
  others: readonly fc.Arbitrary<unknown>[],
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: corrupted(own) },
    { weight: 1, arbitrary: fc.oneof(...others) },
    { weight: 1, arbitrary: fc.jsonValue() },
  );
}

/** Runs `run`: passes when it returns or throws a TranslationError-like error, and leaves Object.prototype alone. */
function total(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    check(
      isTranslationErrorLike(error),
      () => `threw ${describeThrown(error)} instead of a TranslationError`,
    );
  }
  // A `__proto__` key in the input must never reach Object.prototype.
  const polluted = Object.keys(Object.prototype);
  check(polluted.length === 0, () => `Object.prototype gained ${polluted.join(", ")}`);
}

export function totalityLaws(
  translator: Translator,
  from: Protocol,
  to: Protocol,
  options: RunOptions,
): Law[] {
  const pair = { law: "totality" as const, from, to };
  const laws: Law[] = [];
  const translateRequest = translator.translateRequest?.bind(translator);
  const translateResponse = translator.translateResponse?.bind(translator);
  const translateError = translator.translateError?.bind(translator);
  const createStreamTranslator = translator.createStreamTranslator?.bind(translator);
  if (translateRequest !== undefined) {
    laws.push(
      law(
        {
          ...pair,
          subject: "request",
          statement: `translating arbitrary JSON as a ${from} request to ${to} returns or throws a TranslationError`,
        },
        fc.record({
          body: hostile(
            lawInputs((hard) => entryOf(from).request(hard)),
            protocols.map((other) => lawInputs((hard) => entryOf(other).request(hard))),
          ),
          validate: fc.boolean(),
        }),
        ({ body, validate }) =>
          total(() => translateRequest(from, to, body, { ...translateOptions, validate })),
        options,
      ),
    );
  }
  if (translateResponse !== undefined) {
    laws.push(
      law(
        {
          ...pair,
          subject: "response",
          statement: `translating arbitrary JSON as a ${from} response to ${to} returns or throws a TranslationError`,
        },
        fc.record({
          body: hostile(
            lawInputs((hard) => entryOf(from).response(hard)),
            protocols.map((other) => lawInputs((hard) => entryOf(other).response(hard))),
          ),
          validate: fc.boolean(),
        }),
        ({ body, validate }) =>
          total(() => translateResponse(from, to, body, { ...translateOptions, validate })),
        options,
      ),
    );
  }
  if (translateError !== undefined) {
    laws.push(
      law(
        {
          ...pair,
          subject: "error",
          statement: `translating any status and JSON as a ${from} error to ${to} never throws and answers an error status${from === to ? " (or the status given, with the body as given)" : ""}`,
        },
        fc.record({
          status: fc.integer({ min: 0, max: 999 }),
          body: fc.oneof(
            hostile(
              entryOf(from).errorBody(),
              protocols.map((other) => entryOf(other).errorBody()),
            ),
            fc.string(),
          ),
        }),
        (error) => {
          let result: { status: number; body: unknown };
          try {
            result = translateError(from, to, error);
          } catch (thrown) {
            throw new Error(`threw ${describeThrown(thrown)}`);
          }
          // Same-protocol translation is the identity: a body of the protocol's shape comes back with its status.
          const given = from === to && result.status === error.status && result.body === error.body;
          check(
            given || (result.status >= 400 && result.status < 600),
            () => `status ${result.status} is not an error status`,
          );
        },
        options,
      ),
    );
  }
  if (createStreamTranslator !== undefined) {
    laws.push(
      law(
        {
          ...pair,
          subject: "stream",
          statement: `a ${from} → ${to} stream translator fed arbitrary events returns or throws a TranslationError`,
        },
        hostileStreams(from),
        (events) =>
          total(() => {
            const stream = createStreamTranslator(from, to, translateOptions);
            for (const event of events) stream.push(event as never);
            stream.end();
          }),
        options,
      ),
    );
  }
  return laws;
}

function hostileStreams(protocol: Protocol): fc.Arbitrary<unknown[]> {
  return fc.oneof(
    corrupted(lawInputs((hard) => anyStreamArb(protocol, entryOf(protocol), hard))).map((value) =>
      Array.isArray(value) ? value : [value],
    ),
    fc.array(fc.jsonValue(), { maxLength: 6 }),
  );
}

export function accumulateTotalityLaw(
  translator: Required<Pick<Translator, "accumulate">>,
  protocol: Protocol,
  options: RunOptions,
): Law {
  return law(
    {
      law: "totality",
      subject: "accumulate",
      from: protocol,
      statement: `accumulating arbitrary events as a ${protocol} stream returns or throws a TranslationError`,
    },
    hostileStreams(protocol),
    (events) => total(() => translator.accumulate(protocol, events as never[], translateOptions)),
    options,
  );
}
