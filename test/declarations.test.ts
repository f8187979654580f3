/**
 * scripts/declarations.ts, which repairs the bundled .d.ts: a namespace member imported from another
 * declaration chunk, written by the bundler as `declare const ns_X: typeof X`, becomes an import of
 * the same binding. Checked by compiling a consumer of such a bundle with `skipLibCheck: false`,
 * before and after; the packed package is checked in every configuration by scripts/consumer-types.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, test } from "vitest";
import { repairDeclarations } from "../scripts/declarations";

// The shape rollup-plugin-dts writes: a shared chunk exporting a type, a generic type, a class and a
// function under short names, and an entry whose namespace re-exports them.
const chunk = `type Kind = "a" | "b";
type Box<T> = { value: T };
declare class Failure extends Error { readonly status: number }
declare function render(kind: Kind): string;
export { type Kind as a, type Box as b, Failure as c, render as r };
`;
const entry = `import { a as Kind, b as Box, c as Failure, r as render } from './chunk.js';

declare const errors_Kind: typeof Kind;
declare const errors_Box: typeof Box;
declare const errors_Failure: typeof Failure;
declare const errors_render: typeof render;
declare const errors_local: typeof local;
declare function local(): void;
declare namespace errors {
  export { errors_Kind as Kind, errors_Box as Box, errors_Failure as Failure, errors_render as render, errors_local as local };
}
export { errors };
`;
const consumer = `import { errors } from "./entry.js";
const kind: errors.Kind = "a";
const box: errors.Box<number> = { value: 1 };
const failure: errors.Failure = new errors.Failure();
export const used = [kind, box, failure.status, errors.render(kind), errors.local()];
`;

const dir = mkdtempSync(join(tmpdir(), "declarations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The diagnostics of compiling `consumer` against the two declaration files, as a strict consumer does. */
function compile(entryText: string): string[] {
  writeFileSync(join(dir, "chunk.d.ts"), chunk);
  writeFileSync(join(dir, "entry.d.ts"), entryText);
  writeFileSync(join(dir, "consumer.ts"), consumer);
  const program = ts.createProgram([join(dir, "consumer.ts")], {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

describe("scripts/declarations.ts", () => {
  test("as bundled, a consumer with skipLibCheck: false fails on the namespace's imported types", () => {
    const errors = compile(entry);
    expect(errors).toEqual(
      expect.arrayContaining([
        "'Kind' only refers to a type, but is being used as a value here.",
        "'Box' only refers to a type, but is being used as a value here.",
      ]),
    );
  });

  test("repaired, the same consumer compiles: types, a generic type, a class and a function resolve", () => {
    const { text, repaired } = repairDeclarations(entry);
    expect(repaired).toBe(4);
    expect(text).toContain("import { a as errors_Kind } from './chunk.js';");
    expect(text).toContain("import { c as errors_Failure } from './chunk.js';");
    // A member declared in the same file is the bundler's to write: left as it is.
    expect(text).toContain("declare const errors_local: typeof local;");
    expect(compile(text)).toEqual([]);
  });

  test("a second run changes nothing", () => {
    const once = repairDeclarations(entry).text;
    expect(repairDeclarations(once)).toEqual({ text: once, repaired: 0 });
  });
});
