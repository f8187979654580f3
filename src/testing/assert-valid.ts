/** `assertValid`: a schema check for any test runner, whose error lists each issue with its JSON pointer. */
import type { Protocol } from "../index";
import { adapters } from "../protocols/index";
import { entryOf } from "./arbitraries/index";
import { pointerOf } from "./pointer";

/** Which wire shape `assertValid` checks a value against. */
export type PayloadKind = "request" | "response" | "streamEvent" | "errorBody";

const schemaKeys = {
  request: "request",
  response: "response",
  streamEvent: "event",
  errorBody: "errorBody",
} as const;

/**
 * Throws unless `value` parses with the `protocol` schema of `kind`; the Error lists each issue on its
 * own line, as a JSON pointer and the schema's message (the zod issues are its `cause`).
 * @example
 * assertValid("chat", "request", { model: "m" });
 * // throws Error: Invalid chat request (1 issue):
 * //   /messages: Invalid input: expected array, received undefined
 */
export function assertValid(protocol: Protocol, kind: PayloadKind, value: unknown): void {
  entryOf(protocol);
  if (!Object.hasOwn(schemaKeys, kind)) {
    throw new TypeError(
      `Unknown kind ${JSON.stringify(kind)}: use one of ${Object.keys(schemaKeys).join(", ")}.`,
    );
  }
  const result = adapters[protocol].schemas[schemaKeys[kind]].safeParse(value);
  if (result.success) return;
  const issues = result.error.issues;
  const lines = issues.map((issue) => `  ${pointerOf(issue.path) || "(the whole value)"}: ${issue.message}`);
  throw new Error(
    `Invalid ${protocol} ${kind} (${issues.length} issue${issues.length === 1 ? "" : "s"}):\n${lines.join("\n")}`,
    { cause: issues },
  );
}
