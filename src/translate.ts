import { type Accepts, acceptsRoot } from "./common/accepts";
import { invalidInput, strictLosses, TranslationError } from "./common/errors";
import type { Loss } from "./common/loss";
import type { Protocol } from "./common/model";
import { type ResolvedOptions, resolveOptions, type TranslateOptions } from "./common/options";
import { compiled, validates } from "./common/zod-fast";
import { adapters } from "./protocols";
import type { ProtocolAdapter } from "./protocols/adapter";
import type { ErrorBodyOf, RequestOf, ResponseOf } from "./protocols/types";

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
 * Checks `body` against the schema and returns it unchanged. The schemas are loose objects without
 * transforms or defaults, so a successful parse outputs a deep copy of its input: checking without
 * building that copy and translating the input itself gives the same translation. `accepts` (src/accepts.ts:
 * generated straight-line code, or closures without `new Function`; no output built) answers `true`
 * only where the schema accepts; any other body gets zod's own answer:
 * `z.compile`'s assert-only validator where the runtime allows `new Function` (built on first use), the
 * schema itself where it does not (edge runtimes, `z.config({ jitless: true })`). Only a rejected body
 * is parsed, for the runtime's issues.
 */
function check(checker: Checker, label: string, body: unknown): unknown {
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

function finish<T>(value: T, losses: Loss[], options: ResolvedOptions): { value: T; losses: Loss[] } {
  if (options.strict && losses.length > 0) throw strictLosses(losses);
  return { value, losses };
}

/** Translates a request body from one protocol to another; every loss is reported with a pointer into `body`. */
export function translateRequest<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  body: unknown,
  options?: TranslateOptions,
): { value: RequestOf<To>; losses: Loss[]; model: string; stream: boolean } {
  const resolved = resolveOptions(options);
  const source = adapters[from];
  const input = validated(source, "request", from, body, resolved);
  return guarded(from, "request", () => {
    if (from === (to as Protocol)) {
      const info = source.requestInfo(input, resolved);
      return { value: input as RequestOf<To>, losses: [], model: info.model, stream: info.stream };
    }
    const decoded = source.decodeRequest(input, resolved);
    if (from === "generative" && resolved.model === undefined) {
      // The model of a generative request is in its URL; a body-carried target cannot do without it.
      throw new TranslationError(
        "Model name not specified: a generative request carries its model in the URL (/models/{model}:generateContent); pass it as options.model.",
        { issues: [{ code: "model_not_specified", path: ["model"], message: "options.model is required" }] },
      );
    }
    const encoded = adapters[to].encodeRequest(decoded.value, resolved);
    const { value, losses } = finish(
      encoded.value as RequestOf<To>,
      [...decoded.losses, ...encoded.losses],
      resolved,
    );
    return { value, losses, model: decoded.value.model, stream: decoded.value.stream };
  });
}

/** Translates a whole (non-streamed) response body from one protocol to another. */
export function translateResponse<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  body: unknown,
  options?: TranslateOptions,
): { value: ResponseOf<To>; losses: Loss[] } {
  const resolved = resolveOptions(options);
  const source = adapters[from];
  const input = validated(source, "response", from, body, resolved);
  return guarded(from, "response", () => {
    if (from === (to as Protocol)) return { value: input as ResponseOf<To>, losses: [] };
    const decoded = source.decodeResponse(input, resolved);
    const encoded = adapters[to].encodeResponse(decoded.value, resolved);
    return finish(encoded.value as ResponseOf<To>, [...decoded.losses, ...encoded.losses], resolved);
  });
}

/**
 * Translates an upstream error (any status, any body: JSON or not, known shape or not) into the
 * target protocol's error status and body. Never throws.
 */
export function translateError<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  error: { status: number; body: unknown },
): { status: number; body: ErrorBodyOf<To> } {
  const source = adapters[from];
  if (from === (to as Protocol) && source.schemas.errorBody.safeParse(error.body).success) {
    return { status: error.status, body: error.body as ErrorBodyOf<To> };
  }
  const info = source.decodeError(error);
  return adapters[to].encodeError(info) as { status: number; body: ErrorBodyOf<To> };
}
