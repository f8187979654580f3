/**
 * The README's TypeScript blocks type-check as a user's program would: each block is written to a file
 * inside the repository, with a small prelude declaring the names it assumes (an upstream body, a `send`
 * function …), and compiled with the project's strict options, "gateway-protocols" and its subpaths
 * resolving to the sources. Any diagnostic fails the test. (test/readme.test.ts runs the examples.)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, test } from "vitest";
import { entries, root } from "./exports";

/**
 * The free names README blocks assume, each with what a user's program would have there. A block
 * gets the declarations of the names it uses and does not declare itself.
 */
const assumed: Readonly<Record<string, string>> = {
  body: "declare const body: unknown;",
  upstreamBody: "declare const upstreamBody: unknown;",
  upstreamErrorBody: "declare const upstreamErrorBody: unknown;",
  upstreamData:
    "/** Each SSE `data:` payload of an upstream stream, as text. */ declare const upstreamData: string[];",
  upstreamUrl: "declare const upstreamUrl: string;",
  claudeCodeBody: "declare const claudeCodeBody: unknown;",
  claudeThinkingStream: "declare const claudeThinkingStream: __gp.messages.StreamEvent[];",
  storedHistory: "declare const storedHistory: unknown[];",
  store: "declare const store: Map<unknown, unknown[]>;",
  request: "declare const request: __gp.responses.Request;",
  answer: "declare const answer: __gp.responses.Response;",
  send: "declare function send(event: unknown): void;",
  log: "declare function log(loss: __gp.Loss): void;",
};

type Block = { index: number; line: number; code: string };

function tsBlocks(): Block[] {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match, index) => ({
    index,
    line: readme.slice(0, match.index).split("\n").length + 1,
    code: match[1] ?? "",
  }));
}

/** Whether a block declares or imports `name` itself. */
function declares(code: string, name: string): boolean {
  const word = `\\b${name}\\b`;
  return (
    new RegExp(`\\b(?:const|let|var|function|class|type|interface)\\s+${name}\\b`).test(code) ||
    new RegExp(`import\\s*(?:type\\s*)?\\{[^}]*${word}[^}]*\\}`).test(code) ||
    new RegExp(`import\\s+(?:\\*\\s+as\\s+)?${name}\\b`).test(code)
  );
}

function preludeOf(code: string): string {
  const lines = ['import type * as __gp from "gateway-protocols";'];
  for (const [name, declaration] of Object.entries(assumed)) {
    if (new RegExp(`\\b${name}\\b`).test(code) && !declares(code, name)) lines.push(declaration);
  }
  return `${lines.join("\n")}\n`;
}

const blocks = tsBlocks();
mkdirSync(join(root, ".scratch"), { recursive: true });
const dir = mkdtempSync(join(root, ".scratch", "readme-types-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every diagnostic of the blocks, as `README.md block N (line L): message`. */
function diagnostics(): string[] {
  const files = new Map<string, Block & { preludeLines: number }>();
  for (const block of blocks) {
    const prelude = preludeOf(block.code);
    const file = join(dir, `block-${block.index}.ts`);
    // `export {}` makes each block a module of its own: names never clash across blocks.
    writeFileSync(file, `${prelude}${block.code}\nexport {};\n`);
    files.set(file, { ...block, preludeLines: prelude.split("\n").length - 1 });
  }
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const paths: Record<string, string[]> = {};
  for (const [specifier, file] of Object.entries(entries)) paths[specifier] = [join(root, file)];
  const program = ts.createProgram([...files.keys()], { ...options, noEmit: true, paths });
  const out: string[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName;
    const block = file === undefined ? undefined : files.get(file);
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (block === undefined || diagnostic.file === undefined || diagnostic.start === undefined) {
      out.push(`${file === undefined ? "(program)" : relative(root, file)}: ${text}`);
      continue;
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const inBlock = line - block.preludeLines;
    const where = inBlock < 0 ? "its prelude" : `line ${block.line + inBlock}`;
    out.push(`README.md block ${block.index} (${where}): ${text}`);
  }
  return out;
}

describe("README TypeScript blocks", () => {
  test("there are blocks to check, one per section with an example at least", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    for (const block of blocks) expect(block.code).toMatch(/from "gateway-protocols(\/\w+)?"/);
  });

  test("sections come in the order of the public API: ids, schemas, translation, streams, music, gateway, testing, command line", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    const order = [
      "Validate payloads",
      "Translate",
      "Conversations: the upstream's model, reasoning state, tool ids",
      "Streams",
      "Music requests",
      "Gateway helpers",
      "The responses protocol",
      "Property-test your gateway",
      "Command line",
      "A translating gateway to run",
    ];
    expect(headings.filter((heading) => order.includes(heading ?? ""))).toEqual(order);
  });

  test("type-check with the project's strict options", () => {
    const found = diagnostics();
    expect(found, found.join("\n")).toEqual([]);
  });

  test("a block with a type error is caught (the check is not vacuous)", () => {
    const file = join(dir, "broken.ts");
    writeFileSync(
      file,
      'import { translateRequest } from "gateway-protocols";\nconst n: number = translateRequest("chat", "messages", {}).model;\nexport {};\n',
    );
    const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const program = ts.createProgram([file], { ...options, noEmit: true });
    const messages = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    expect(messages.join("\n")).toMatch(/Type 'string' is not assignable to type 'number'/);
  });
});
