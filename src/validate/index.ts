/**
 * The one place input is checked: a protocol schema's quick accept-check, then zod's own verdict and
 * issues where it says no; and `guarded`, which turns a converter's crash on unvalidated input into
 * the caller's 400.
 */
import { invalidInput, nestedTooDeepInput, TranslationError } from "../common/errors";
import { NESTING_LIMIT, nestedTooDeep } from "../common/json";
import type { Protocol } from "../common/model";
import type { ResolvedOptions } from "../common/options";
import type { ProtocolAdapter } from "../protocols/adapter";
import { type Accepts, acceptsRoot } from "./accepts";
import { compiled, validates } from "./zod-fast";

type AnyAdapter = ProtocolAdapter<unknown, unknown, unknown, unknown>;

type Schema = AnyAdapter["schemas"]["request"];

/** An adapter schema's checks: a quick check that builds nothing, then zod's verdict and issues where it says no. */
type Checker = { readonly accepts: Accepts; readonly schema: Schema; fast: Schema | undefined };

const checkers = new WeakMap<Schema, Checker>();

function checkerOf(schema: Schema): Checker {
  let checker = checkers.get(schema);
  if (checker === undefined) {
    checker = { accepts: acceptsRoot(schema), schema, fast: undefined };
    checkers.set(schema, checker);
  }
  return checker;
}

/**
 * Checks `body` against the schema and returns it unchanged; a body nested deeper than `NESTING_LIMIT`
 * is refused before anything else reads it. The schemas are loose objects without
 * transforms or defaults, so a successful parse outputs a deep copy of its input: checking without
 * building that copy and translating the input itself gives the same translation. `accepts` (src/accepts.ts:
 * generated straight-line code, or closures without `new Function`; no output built) answers `true`
 * only where the schema accepts; any other body gets zod's own answer:
 * `z.compile`'s assert-only validator where the runtime allows `new Function` (built on first use), the
 * schema itself where it does not (edge runtimes, `z.config({ jitless: true })`). Only a rejected body
 * is parsed, for the runtime's issues.
 */
function check(checker: Checker, label: string, body: unknown): unknown {
  // First, so that nothing after it (zod, the converters, JSON.stringify) meets deeper input or a cycle.
  const deep = nestedTooDeep(body);
  if (deep !== undefined) throw nestedTooDeepInput(label, deep, NESTING_LIMIT);
  if (checker.accepts(body)) return body;
  checker.fast ??= compiled(checker.schema);
  if (validates(checker.fast, body)) return body;
  const result = checker.schema.safeParse(body);
  if (!result.success) throw invalidInput(label, result.error.issues);
  return body;
}

/** Validates `body` with `schema` when asked; the one place input is checked. */
export function validated(
  adapter: AnyAdapter,
  kind: "request" | "response" | "event",
  protocol: Protocol,
  body: unknown,
  options: ResolvedOptions,
): unknown {
  if (!options.validate) return body;
  return check(checkerOf(adapter.schemas[kind]), `${protocol} ${kind}`, body);
}

const unchecked = (body: unknown): unknown => body;

/** `validated` with its schema looked up once, for a caller that validates many bodies (stream events). */
export function validator(
  adapter: AnyAdapter,
  kind: "request" | "response" | "event",
  protocol: Protocol,
  options: ResolvedOptions,
): (body: unknown) => unknown {
  if (!options.validate) return unchecked;
  const checker = checkerOf(adapter.schemas[kind]);
  const label = `${protocol} ${kind}`;
  return (body) => check(checker, label, body);
}

/**
 * Runs a converter on input that may not have been validated: anything but a TranslationError that it
 * throws means the input did not have the shape the converter needs, which is the caller's 400.
 */
export function guarded<T>(protocol: Protocol, kind: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof TranslationError) throw error;
    if (error instanceof RangeError || error instanceof TypeError) {
      throw new TranslationError(
        `Invalid ${protocol} ${kind}: it does not have the shape the ${protocol} protocol defines (${error.message}). Validate it or pass a well-formed body.`,
      );
    }
    throw error;
  }
}
