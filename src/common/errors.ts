import { render } from "../errors";
import type { Loss } from "./loss";
import type { ErrorInfo, Protocol } from "./model";

export type Issue = {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
};

/**
 * The one error class the library throws: invalid input (zod issues) or, in strict mode, losses.
 * It carries data; `toErrorBody(protocol)` renders it in that protocol's error shape.
 */
export class TranslationError extends Error {
  override readonly name = "TranslationError";
  readonly status: number;
  readonly issues: readonly unknown[];
  readonly losses: readonly Loss[];

  constructor(
    message: string,
    init: { status?: number; issues?: readonly unknown[]; losses?: readonly Loss[] } = {},
  ) {
    super(message);
    this.status = init.status ?? 400;
    this.issues = init.issues ?? [];
    this.losses = init.losses ?? [];
  }

  static isInstance(value: unknown): value is TranslationError {
    return value instanceof TranslationError;
  }

  toErrorBody(protocol: Protocol): { status: number; body: unknown } {
    const error: ErrorInfo = { status: this.status, kind: "invalid_request", message: this.message };
    return render(protocol, error);
  }
}

/** `/messages/0/role` from a zod issue path. */
export function issuePointer(path: readonly PropertyKey[]): string {
  let pointer = "";
  for (const token of path) pointer += `/${String(token).replaceAll("~", "~0").replaceAll("/", "~1")}`;
  return pointer;
}

/** A TranslationError for input that failed its schema: the message names each field and what was expected. */
export function invalidInput(what: string, issues: readonly Issue[]): TranslationError {
  const shown = issues
    .slice(0, 5)
    .map((issue) => `${issuePointer(issue.path) || "/"}: ${issue.message}`)
    .join("; ");
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : "";
  return new TranslationError(`Invalid ${what}: ${shown}${more}`, { issues });
}

/**
 * A TranslationError for input nested deeper than the library takes (`limit` levels of objects and
 * arrays): the message names the limit and where the input passes it.
 */
export function nestedTooDeepInput(
  what: string,
  path: readonly PropertyKey[],
  limit: number,
): TranslationError {
  const pointer = `${issuePointer(path.slice(0, 8))}${path.length > 8 ? "/…" : ""} (level ${path.length + 1})`;
  const message = `objects and arrays are nested more than ${limit} deep; the library takes at most ${limit} levels (the same on every runtime)`;
  return new TranslationError(`Invalid ${what}: ${pointer}: ${message}.`, {
    issues: [{ code: "too_big", path, message }],
  });
}

/** A TranslationError for strict mode: the message lists the losses. */
export function strictLosses(losses: readonly Loss[]): TranslationError {
  const shown = losses
    .slice(0, 5)
    .map((entry) => `${entry.path} (${entry.kind}): ${entry.message}`)
    .join("; ");
  const more = losses.length > 5 ? ` (and ${losses.length - 5} more)` : "";
  return new TranslationError(`Translation would lose information: ${shown}${more}`, { losses });
}
