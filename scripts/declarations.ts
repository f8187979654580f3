/**
 * Repairs the bundled type declarations tsup writes to dist/ (its rollup-plugin-dts): a namespace
 * (`export * as errors`) whose members come from a shared declaration chunk is written with each
 * imported member as a value, `declare const errors_ErrorKind: typeof ErrorKind;`, since the plugin
 * cannot see in one chunk that a name imported from another is a type. A consumer with
 * `skipLibCheck: false` then gets "'ErrorKind' only refers to a type, but is being used as a value",
 * and `errors.ErrorKind` does not resolve as a type with it either. Each such declaration becomes an
 * import of the same binding under the member's name, which carries every meaning the binding has
 * (type, value, generic type): `import { a as errors_ErrorKind } from './format-….js';`.
 * Run by `npm run build` after tsup; a second run changes nothing. scripts/consumer-types.ts checks
 * the result as a consumer compiles it.
 *
 *   tsx scripts/declarations.ts [distDir]     (default: dist/)
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

type Binding = { module: string; imported: string };

/** The declaration text with every `declare const x: typeof <imported binding>;` made an import. */
export function repairDeclarations(
  text: string,
  fileName = "index.d.ts",
): { text: string; repaired: number } {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const imported = new Map<string, Binding>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (statement.importClause?.isTypeOnly || bindings === undefined || !ts.isNamedImports(bindings))
      continue;
    for (const element of bindings.elements) {
      if (element.isTypeOnly) continue;
      imported.set(element.name.text, {
        module: statement.moduleSpecifier.text,
        imported: (element.propertyName ?? element.name).text,
      });
    }
  }
  const edits: { start: number; end: number; text: string }[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const [declaration, ...more] = statement.declarationList.declarations;
    if (declaration === undefined || more.length > 0 || !ts.isIdentifier(declaration.name)) continue;
    const type = declaration.type;
    if (type === undefined || !ts.isTypeQueryNode(type) || !ts.isIdentifier(type.exprName)) continue;
    const binding = imported.get(type.exprName.text);
    if (binding === undefined || type.typeArguments !== undefined) continue;
    edits.push({
      start: statement.getStart(source),
      end: statement.getEnd(),
      text: `import { ${binding.imported} as ${declaration.name.text} } from '${binding.module}';`,
    });
  }
  let out = text;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { text: out, repaired: edits.length };
}

/** Repairs every .d.ts and .d.cts file of `dist` in place; the number of declarations repaired. */
export function repairDist(dist: string): number {
  let total = 0;
  for (const file of readdirSync(dist)) {
    if (!file.endsWith(".d.ts") && !file.endsWith(".d.cts")) continue;
    const path = join(dist, file);
    const { text, repaired } = repairDeclarations(readFileSync(path, "utf8"), file);
    if (repaired > 0) writeFileSync(path, text);
    total += repaired;
  }
  return total;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const dist = resolve(process.argv[2] ?? join(root, "dist"));
  const repaired = repairDist(dist);
  console.log(`declarations: ${repaired} namespace member${repaired === 1 ? "" : "s"} imported as such`);
}
