/** `assertLaws`: the results of `checkTranslator` as one assertion for any test runner. */
import type { LawResult } from "./types";

/** Beyond this many characters the input is cut (the whole stays in the result's `counterexample`). */
const INPUT_ROOM = 4000;

/** The options that run one failed law again from its seed. */
function replayOptions(result: LawResult): string {
  const where =
    result.from === undefined
      ? ""
      : result.to === undefined
        ? `, protocols: [${JSON.stringify(result.from)}]`
        : `, pairs: [[${JSON.stringify(result.from)}, ${JSON.stringify(result.to)}]]`;
  return `{ seed: ${result.seed}, laws: [${JSON.stringify(result.law)}]${where} }`;
}

/** Beyond this width a value is laid out over several lines, one member a line. */
const WIDTH = 96;

/** `value` as JSON, each object or array on one line when it fits in the width, else one member a line. */
function layout(value: unknown, indent: string): string {
  const flat = JSON.stringify(value) ?? String(value);
  if (typeof value !== "object" || value === null || indent.length + flat.length <= WIDTH) return flat;
  const inner = `${indent}  `;
  const lines = Array.isArray(value)
    ? value.map((item) => `${inner}${layout(item ?? null, inner)}`)
    : Object.entries(value)
        .filter(([, child]) => child !== undefined)
        .map(([key, child]) => `${inner}${JSON.stringify(key)}: ${layout(child, inner)}`);
  return Array.isArray(value) ? `[\n${lines.join(",\n")}\n${indent}]` : `{\n${lines.join(",\n")}\n${indent}}`;
}

/** The shrunk input, laid out under its label. */
function inputOf(value: unknown): string {
  const text = layout(value, "   ");
  return text.length > INPUT_ROOM
    ? `${text.slice(0, INPUT_ROOM)}\n   … (${text.length - INPUT_ROOM} characters more: the whole input is the result's counterexample)`
    : text;
}

/** One failed law: what, why (each field at fault with its pointer), seed and path, the shrunk input, how to replay it. */
function describeFailure(result: LawResult, index: number): string {
  const pair =
    result.from === undefined
      ? ""
      : result.to === undefined
        ? `, ${result.from}`
        : `, ${result.from} → ${result.to}`;
  const lines = [`${index + 1}. ${result.law} (${result.subject}${pair})`];
  lines.push(...(result.message ?? `${result.statement}: failed`).split("\n").map((line) => `   ${line}`));
  if (result.counterexample !== undefined || result.path !== undefined) {
    lines.push(`   input (shrunk): ${inputOf(result.counterexample)}`);
  }
  lines.push(`   replay: checkTranslator(translator, ${replayOptions(result)})`);
  return lines.join("\n");
}

/**
 * Throws unless every law held. The Error's message gives, for each failed law, its name and pair, why
 * it failed (each field at fault with its JSON pointer), the seed and path that replay it, and the
 * shrunk input (the results themselves stay with the caller: test runners print an Error's `cause` after
 * its message, and the message says it all). Any test runner shows it as it is.
 * @example
 * test("my translator keeps the laws", async () => {
 *   assertLaws(await checkTranslator(myTranslator, { pairs: [["chat", "messages"]], seed: 1, numRuns: 200 }));
 * });
 */
export function assertLaws(results: readonly LawResult[]): void {
  if (!Array.isArray(results)) {
    throw new TypeError(
      "assertLaws needs the array of results checkTranslator resolves to (await it first).",
    );
  }
  const failed = results.filter((result) => !result.ok);
  if (failed.length === 0) return;
  throw new Error(
    `${failed.length} of ${results.length} law${results.length === 1 ? "" : "s"} failed:\n\n${failed.map(describeFailure).join("\n\n")}`,
  );
}
