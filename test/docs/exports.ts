/**
 * The public declarations of the package, as the TypeScript compiler sees them from its entry points,
 * with the doc comment each carries. Used by test/docs/tsdoc.full.test.ts.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The package's entry points ("exports" of package.json) and the source file each is built from. */
export const entries: Readonly<Record<string, string>> = {
  "gateway-protocols": "src/index.ts",
  "gateway-protocols/embeddings": "src/embeddings/index.ts",
  "gateway-protocols/music": "src/music/index.ts",
  "gateway-protocols/sse": "src/stream/sse.ts",
  "gateway-protocols/testing": "src/testing/index.ts",
};

export type PublicDeclaration = {
  /** How a user reaches it: `gateway-protocols/testing#arbitraries`, `gateway-protocols#chat.request`. */
  name: string;
  /** Where it is declared, `src/…:line`. */
  where: string;
  /** The doc comment's text and tags, as written ("" when it has none). */
  doc: string;
};

function docOf(node: ts.Node): string {
  return ts
    .getJSDocCommentsAndTags(node)
    .map((doc) => doc.getText())
    .join("\n");
}

/** The declaration node whose leading comment documents it (a variable's statement, not its name). */
function documented(declaration: ts.Declaration): ts.Node {
  if (ts.isVariableDeclaration(declaration)) return declaration.parent.parent;
  return declaration;
}

/**
 * Every export of every entry point, namespace members included (`export * as chat` gives
 * `chat.request`, `chat.Request`, …), each once per name a user can write.
 */
export function publicDeclarations(): PublicDeclaration[] {
  const configPath = join(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const files = Object.values(entries).map((file) => join(root, file));
  const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const out: PublicDeclaration[] = [];

  const walk = (moduleSymbol: ts.Symbol, prefix: string, seen: Set<ts.Symbol>): void => {
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const name = `${prefix}${exported.name}`;
      const declarations = symbol.declarations ?? [];
      const first = declarations[0];
      if (first === undefined) continue;
      if (ts.isSourceFile(first)) {
        // A namespace (`export * as chat from "./protocols/chat"`): its members, and the file's own comment.
        const statement = first.statements[0];
        const fileDoc = statement === undefined ? "" : leadingDoc(first, statement);
        out.push({ name, where: whereOf(first, first), doc: fileDoc });
        if (seen.has(symbol)) continue;
        walk(symbol, `${name}.`, new Set([...seen, symbol]));
        continue;
      }
      const doc = declarations.map((declaration) => docOf(documented(declaration))).join("\n");
      out.push({ name, where: whereOf(first.getSourceFile(), first), doc });
    }
  };

  for (const [entry, file] of Object.entries(entries)) {
    const source = program.getSourceFile(join(root, file));
    if (source === undefined) throw new Error(`${file} is not in the program`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`${file} is not a module`);
    walk(moduleSymbol, `${entry}#`, new Set([moduleSymbol]));
  }
  return out;
}

/** The first `/** … *\/` comment of a file, when it comes before its first statement (a file overview). */
function leadingDoc(source: ts.SourceFile, statement: ts.Statement): string {
  const text = source.getFullText();
  const ranges = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
  return ranges
    .map((range) => text.slice(range.pos, range.end))
    .filter((comment) => comment.startsWith("/**"))
    .join("\n");
}

function whereOf(source: ts.SourceFile, node: ts.Node): string {
  const position = ts.isSourceFile(node) ? 0 : node.getStart();
  const { line } = source.getLineAndCharacterOfPosition(position);
  return `${relative(root, source.fileName)}:${line + 1}`;
}

/** Every comment (`//` and `/* *\/`) of the built type declarations in dist/, with the file it is in. */
export function declarationComments(dist: string, files: string[]): Array<{ file: string; comment: string }> {
  const out: Array<{ file: string; comment: string }> = [];
  for (const file of files) {
    const text = readFileSync(join(dist, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const seen = new Set<number>();
    const collect = (ranges: ts.CommentRange[] | undefined): void => {
      for (const range of ranges ?? []) {
        if (seen.has(range.pos)) continue;
        seen.add(range.pos);
        out.push({ file, comment: text.slice(range.pos, range.end) });
      }
    };
    const visit = (node: ts.Node): void => {
      collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
      collect(ts.getTrailingCommentRanges(text, node.getEnd()));
      for (const child of node.getChildren(source)) visit(child);
    };
    visit(source);
  }
  return out;
}
