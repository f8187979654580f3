/**
 * How the command line writes: plain JSON when the output is piped, indented and coloured JSON on a
 * terminal; one line per loss or issue on stderr.
 */
import type { Loss } from "gateway-protocols";

export type Sink = { write(text: string): unknown; readonly isTTY?: boolean };

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function colours(sink: Sink): boolean {
  return sink.isTTY === true && (process.env.NO_COLOR ?? "") === "" && process.env.TERM !== "dumb";
}

const paint = (code: number) => (text: string) => `\u001b[${code}m${text}\u001b[39m`;
export const red = paint(31);
export const green = paint(32);
export const yellow = paint(33);
const magenta = paint(35);
const cyan = paint(36);

/** JSON text coloured by token: keys, strings, numbers, literals. */
function colourJson(text: string): string {
  return text.replace(
    /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g,
    (match, string: string | undefined, colon: string | undefined, number: string | undefined) => {
      if (string !== undefined) return colon !== undefined ? `${cyan(string)}${colon}` : green(string);
      if (number !== undefined) return yellow(number);
      return magenta(match);
    },
  );
}

/** One JSON value: compact when piped (one line, for the next program), indented on a terminal. */
export function writeJson(sink: Sink, value: unknown): void {
  if (sink.isTTY !== true) {
    sink.write(`${JSON.stringify(value)}\n`);
    return;
  }
  const text = JSON.stringify(value, null, 2);
  sink.write(`${colours(sink) ? colourJson(text) : text}\n`);
}

/** `loss dropped /messages/0/cache_control: message`, one line per loss. */
export function writeLoss(sink: Sink, loss: Loss): void {
  const kind = colours(sink) ? yellow(loss.kind) : loss.kind;
  sink.write(`loss ${kind} ${loss.path === "" ? "/" : loss.path}: ${loss.message}\n`);
}

/** `error: message`, red on a terminal. */
export function writeError(sink: Sink, message: string): void {
  sink.write(`${colours(sink) ? red("error") : "error"}: ${message}\n`);
}

/** A zod issue's path as a JSON pointer (`/messages/0/role`; `/` for the root). */
export function pointer(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "/";
  return path.map((token) => `/${String(token).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** `issue /messages/0/role: Invalid input`, one line per zod issue. */
export function writeIssues(sink: Sink, issues: readonly unknown[]): void {
  for (const issue of issues) {
    const { path, message } = (issue ?? {}) as { path?: readonly PropertyKey[]; message?: string };
    sink.write(`issue ${pointer(path ?? [])}: ${message ?? JSON.stringify(issue)}\n`);
  }
}
