/**
 * Writes docs/conversions.md, the conversion matrix: for each (from, to) pair of protocols, every loss
 * the translator can report, its kind and where it comes from — read from the source with the
 * TypeScript compiler API, not written by hand.
 *
 *   tsx scripts/conversions.ts [out]     (default: docs/conversions.md; `npm run docs`)
 *
 * How it reads the code:
 * - A loss site is a call of `loss(path, kind, message)` (src/common/loss.ts), or an object literal
 *   with `path`, `kind` and `message` whose kind is a loss kind.
 * - Its kind and message are evaluated as far as the code allows: literals, template literals (each
 *   `${…}` whose value is not known becomes a placeholder ‹name›), conditionals, `const`s, a `const`
 *   object indexed by a key, and parameters: when a kind or message depends on a parameter of a
 *   function (a helper such as `dropped(losses, message)` or `keepStopSequences(…, target)`), the
 *   site is read once per call of that function, with the call's arguments, and belongs where that
 *   call is. A kind read through a variable (a finish-reason map returning `{ loss: "approximated" }`)
 *   is marked computed.
 * - Which pair a site belongs to comes from a reference graph over src/ (top-level declarations; an
 *   edge for every name a declaration uses): the protocol table in src/protocols/index.ts names each
 *   adapter, and a site reachable from protocol A's `decodeRequest` / `decodeResponse` /
 *   `streamDecoder` is a loss of every A → X pair, one reachable from B's `encodeRequest` /
 *   `encodeResponse` / `streamEncoder` a loss of every X → B pair. Sites the generic core reaches
 *   (`translateRequest`, `translateResponse`, `createStreamTranslator`) without an adapter belong to
 *   every pair. A new protocol in the table appears here without a change to this script.
 *
 * test/docs/conversions.test.ts regenerates the document and compares it with the file, and checks
 * that every loss the fixture walk observes matches a documented site of its pair.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

export const lossKinds = ["dropped", "clamped", "synthesized", "approximated"] as const;
export type Kind = (typeof lossKinds)[number];

export const sections = ["request", "response", "stream"] as const;
export type Section = (typeof sections)[number];

/** A message as read from the code: literal text and placeholders for values known only at run time. */
export type Text = readonly (string | { readonly hole: string })[];

/** One documented loss: its kinds, its message, its codes and every place in src/ it comes from. */
export type Row = {
  readonly kinds: readonly Kind[];
  /** The kind is not a literal at the site: the kinds are every value the expression can hold. */
  readonly computed: boolean;
  readonly text: Text;
  /**
   * Its `code`s: the site's own, or derived from its pointer (`cache_control.dropped`); `‹name›.kind`
   * where the pointer's last field is known only at run time (the field of the input it names).
   */
  readonly codes: readonly string[];
  readonly where: readonly string[];
};

export type Side = { readonly title: string; readonly rows: readonly Row[] };

export type Pair = {
  readonly from: string;
  readonly to: string;
  readonly sections: Readonly<Record<Section, readonly Side[]>>;
};

export type Matrix = {
  readonly protocols: readonly string[];
  readonly pairs: readonly Pair[];
  readonly embeddings: readonly Side[];
  /** Protocol folders under src/protocols/ that the table does not list yet. */
  readonly unwired: readonly string[];
  /** Sites no entry point reaches (dead code, or reached in a way this script does not follow). */
  readonly unreached: readonly Row[];
};

/** The members of an adapter whose losses reach the caller, by section and side. */
const members: Readonly<Record<Section, { decode: string; encode: string }>> = {
  request: { decode: "decodeRequest", encode: "encodeRequest" },
  response: { decode: "decodeResponse", encode: "encodeResponse" },
  stream: { decode: "streamDecoder", encode: "streamEncoder" },
};

/** The generic core's entry point of each section: what it reaches outside the adapters is in every pair. */
const coreRoots: Readonly<Record<Section, { file: string; name: string }>> = {
  request: { file: "translate.ts", name: "translateRequest" },
  response: { file: "translate.ts", name: "translateResponse" },
  stream: { file: "stream/translator.ts", name: "createStreamTranslator" },
};

const embeddingsRoots: readonly { section: string; file: string; name: string }[] = [
  { section: "Request", file: "embeddings/request.ts", name: "translateEmbeddingsRequest" },
  { section: "Response", file: "embeddings/response.ts", name: "translateEmbeddingsResponse" },
];

const defaultRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

// ---------------------------------------------------------------------------------------------------
// The program and the reference graph

type FunctionLike = ts.SignatureDeclaration & { readonly body?: ts.Node | undefined };

type Site = {
  readonly node: ts.Node;
  readonly kind: ts.Expression;
  readonly message: ts.Expression;
  readonly path: ts.Expression | undefined;
  readonly code: ts.Expression | undefined;
};

type Calls = { readonly calls: ts.CallExpression[]; escapes: boolean };

class Analysis {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  readonly src: string;
  readonly files: readonly ts.SourceFile[];
  /** Unit (a top-level declaration) → the units it refers to. */
  readonly edges = new Map<ts.Node, Set<ts.Node>>();
  /** Function → its calls (by name) and whether it is also used as a value. */
  readonly calls = new Map<ts.Node, Calls>();
  readonly sites: Site[] = [];
  lossFunction: ts.Node | undefined;

  constructor(root: string) {
    this.src = join(root, "src");
    const rootNames = listTs(this.src);
    this.program = ts.createProgram({
      rootNames,
      options: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: [],
        // Only src/ is read: no lib and no packages (zod's types alone would triple the time), so
        // names from outside src/ stay unresolved, which is all this needs.
        noLib: true,
        noResolve: true,
      },
    });
    this.checker = this.program.getTypeChecker();
    this.files = this.program
      .getSourceFiles()
      .filter((file) => !file.isDeclarationFile && isInside(this.src, file.fileName));
    const lossFile = this.files.find((file) => this.rel(file) === "common/loss.ts");
    lossFile?.forEachChild((statement) => {
      if (ts.isFunctionDeclaration(statement) && statement.name?.text === "loss")
        this.lossFunction = statement;
    });
    if (this.lossFunction === undefined) throw new Error("src/common/loss.ts no longer declares `loss`.");
    for (const file of this.files) this.walk(file);
  }

  rel(file: ts.SourceFile): string {
    return relative(this.src, file.fileName).split(sep).join("/");
  }

  /** The declaration a name refers to (through imports and re-exports), if it is in src/. */
  declarationOf(node: ts.Node): ts.Declaration | undefined {
    const parent = node.parent;
    let symbol =
      parent !== undefined && ts.isShorthandPropertyAssignment(parent) && parent.name === node
        ? this.checker.getShorthandAssignmentValueSymbol(parent)
        : this.checker.getSymbolAtLocation(node);
    if (symbol === undefined) return undefined;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (declaration === undefined || !isInside(this.src, declaration.getSourceFile().fileName))
      return undefined;
    return declaration;
  }

  private walk(file: ts.SourceFile): void {
    const visit = (node: ts.Node, unit: ts.Node): void => {
      if (ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
      if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
      if (ts.isCallExpression(node) || ts.isObjectLiteralExpression(node)) this.recordSite(node);
      if (ts.isIdentifier(node)) this.reference(node, unit);
      else if (
        ts.isPropertyAccessExpression(node) &&
        ts.isIdentifier(node.name) &&
        this.isNamespace(node.expression)
      ) {
        this.reference(node.name, unit);
        visit(node.expression, unit);
        return;
      }
      node.forEachChild((child) => visit(child, unit));
    };
    for (const statement of file.statements) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) visit(declaration, declaration);
      } else {
        visit(statement, statement);
      }
    }
  }

  private isNamespace(expression: ts.Expression): boolean {
    if (!ts.isIdentifier(expression)) return false;
    const symbol = this.checker.getSymbolAtLocation(expression);
    return symbol !== undefined && (symbol.flags & ts.SymbolFlags.Alias) !== 0 && isNamespaceImport(symbol);
  }

  private reference(name: ts.Identifier, unit: ts.Node): void {
    const parent = name.parent;
    // A declaration's own name, a property name, an object key: not a reference.
    if (
      (ts.isPropertyAccessExpression(parent) &&
        parent.name === name &&
        !this.isNamespace(parent.expression)) ||
      ((ts.isPropertyAssignment(parent) ||
        ts.isMethodDeclaration(parent) ||
        ts.isPropertyDeclaration(parent) ||
        ts.isFunctionDeclaration(parent) ||
        ts.isVariableDeclaration(parent) ||
        ts.isParameter(parent) ||
        ts.isClassDeclaration(parent) ||
        ts.isBindingElement(parent)) &&
        parent.name === name)
    ) {
      return;
    }
    const declaration = this.declarationOf(name);
    if (declaration === undefined) return;
    const target = unitOf(declaration);
    if (target !== undefined && target !== unit) {
      const set = this.edges.get(unit) ?? new Set<ts.Node>();
      this.edges.set(unit, set);
      set.add(target);
    }
    const fn = functionOf(declaration);
    if (fn === undefined) return;
    const entry = this.calls.get(fn) ?? { calls: [], escapes: false };
    this.calls.set(fn, entry);
    const callee = ts.isPropertyAccessExpression(parent) && parent.name === name ? parent : name;
    const call = callee.parent;
    if (ts.isCallExpression(call) && call.expression === callee) entry.calls.push(call);
    else entry.escapes = true;
  }

  private recordSite(node: ts.CallExpression | ts.ObjectLiteralExpression): void {
    if (ts.isCallExpression(node)) {
      const [path, kind, message, code] = node.arguments;
      if (kind === undefined || message === undefined) return;
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
      if (!ts.isIdentifier(callee) || this.declarationOf(callee) !== this.lossFunction) return;
      this.sites.push({ node, kind, message, path, code });
      return;
    }
    const property = (key: string): ts.Expression | undefined => {
      for (const member of node.properties) {
        if (ts.isPropertyAssignment(member) && propertyName(member.name) === key) return member.initializer;
      }
      return undefined;
    };
    const kind = property("kind");
    const message = property("message");
    if (kind === undefined || message === undefined || property("path") === undefined) return;
    if (!ts.isStringLiteralLike(kind) || !(lossKinds as readonly string[]).includes(kind.text)) return;
    this.sites.push({ node, kind, message, path: property("path"), code: property("code") });
  }

  /** Every unit reachable from `start`, never entering `stop`. */
  reach(start: Iterable<ts.Node>, stop: (unit: ts.Node) => boolean): Set<ts.Node> {
    const seen = new Set<ts.Node>();
    const queue = [...start];
    while (queue.length > 0) {
      const unit = queue.pop() as ts.Node;
      if (seen.has(unit) || stop(unit)) continue;
      seen.add(unit);
      for (const next of this.edges.get(unit) ?? []) queue.push(next);
    }
    return seen;
  }

  /** The units an expression refers to (an adapter member's value). */
  referencedUnits(node: ts.Node): ts.Node[] {
    const units: ts.Node[] = [];
    const visit = (child: ts.Node): void => {
      if (ts.isTypeNode(child)) return;
      if (ts.isIdentifier(child)) {
        const declaration = this.declarationOf(child);
        const unit = declaration === undefined ? undefined : unitOf(declaration);
        if (unit !== undefined) units.push(unit);
      }
      child.forEachChild(visit);
    };
    visit(node);
    return units;
  }

  // -------------------------------------------------------------------------------------------------
  // Evaluating a site's kind and message

  /** A site read once per chain of calls that give its parameters values. */
  variants(site: Site): Variant[] {
    return this.expand(site, new Map(), site.node, [], 0);
  }

  private expand(
    site: Site,
    env: ReadonlyMap<ts.ParameterDeclaration, ts.Expression>,
    anchor: ts.Node,
    via: readonly ts.Node[],
    depth: number,
  ): Variant[] {
    const free: ts.ParameterDeclaration[] = [];
    const texts = this.text(site.message, env, free, new Set()) ?? [[{ hole: holeName(site.message) }]];
    const kinds = this.kinds(site.kind, env, free, new Set());
    const codes = this.codes(site, env, free, kinds.values);
    const here = texts.map((text) => ({
      text,
      kinds: kinds.values,
      computed: kinds.computed,
      codes,
      anchor,
      via,
    }));
    // The first parameter whose function is called by name (a handler in a table or a callback is
    // not: its parameters stay placeholders); four calls deep at most (recursive functions).
    const param = free.find((entry) => (this.calls.get(entry.parent)?.calls.length ?? 0) > 0);
    if (param === undefined || depth >= 4) return here;
    const fn = param.parent as FunctionLike;
    const known = this.calls.get(fn) as Calls;
    const out: Variant[] = [];
    for (const call of known.calls) {
      const bound = new Map(env);
      fn.parameters.forEach((parameter, index) => {
        const argument = call.arguments[index] ?? parameter.initializer;
        if (argument !== undefined && !ts.isSpreadElement(argument)) bound.set(parameter, argument);
      });
      out.push(...this.expand(site, bound, call, [fn, ...via], depth + 1));
    }
    if (known.escapes) out.push(...here);
    return out;
  }

  /**
   * A site's codes: its own (`loss(…, code)`), else derived from its pointer as `codeOf` does
   * (src/common/loss.ts): the last field name and the kind. A pointer's parameters follow the
   * variant's bindings but never start one of their own (they are runtime pointers, not texts).
   */
  private codes(
    site: Site,
    env: ReadonlyMap<ts.ParameterDeclaration, ts.Expression>,
    free: ts.ParameterDeclaration[],
    kinds: readonly Kind[],
  ): string[] {
    if (site.code !== undefined) {
      const texts = this.text(site.code, env, free, new Set()) ?? [[{ hole: holeName(site.code) }]];
      return union(texts.map(renderText), []);
    }
    const paths = site.path === undefined ? [[{ hole: "path" }]] : this.pathTexts(site.path, env);
    const fields = union(paths.map(lastField), []);
    return fields.flatMap((field) => kinds.map((kind) => `${field}.${kind}`));
  }

  /** The texts a pointer expression can be: `at(base, "a", i)` and templates read as far as they go. */
  private pathTexts(node: ts.Expression, env: ReadonlyMap<ts.ParameterDeclaration, ts.Expression>): Text[] {
    const expression = unwrap(node);
    const scratch: ts.ParameterDeclaration[] = [];
    if (
      ts.isCallExpression(expression) &&
      ts.isIdentifier(expression.expression) &&
      expression.expression.text === "at" &&
      expression.arguments.length > 0
    ) {
      let texts = this.pathTexts(expression.arguments[0] as ts.Expression, env);
      for (const token of expression.arguments.slice(1)) {
        const values = this.text(token, env, scratch, new Set()) ?? [[{ hole: holeName(token) }]];
        // `at` puts a "/" before each token.
        const tokens = values.length * texts.length > 64 ? [[{ hole: holeName(token) }]] : values;
        texts = product(
          texts,
          tokens.map((text) => ["/", ...text]),
        ).map(normalise);
      }
      return texts;
    }
    if (
      ts.isBinaryExpression(expression) &&
      (expression.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
        expression.operatorToken.kind === ts.SyntaxKind.BarBarToken)
    ) {
      return [...this.pathTexts(expression.left, env), ...this.pathTexts(expression.right, env)];
    }
    if (ts.isConditionalExpression(expression)) {
      return [...this.pathTexts(expression.whenTrue, env), ...this.pathTexts(expression.whenFalse, env)];
    }
    if (ts.isIdentifier(expression)) {
      const declaration = this.declarationOf(expression);
      if (declaration !== undefined && ts.isParameter(declaration)) {
        const bound = env.get(declaration);
        if (bound !== undefined) return this.pathTexts(bound, new Map());
      }
    }
    return this.text(expression, env, scratch, new Set()) ?? [[{ hole: holeName(expression) }]];
  }

  private resolveValue(
    expression: ts.Identifier,
    env: ReadonlyMap<ts.ParameterDeclaration, ts.Expression>,
    free: ts.ParameterDeclaration[],
  ): ts.Expression | undefined {
    const declaration = this.declarationOf(expression);
    if (declaration === undefined) return undefined;
    if (ts.isParameter(declaration)) {
      const bound = env.get(declaration);
      if (bound === undefined && !free.includes(declaration)) free.push(declaration);
      return bound;
    }
    if (
      ts.isVariableDeclaration(declaration) &&
      declaration.initializer !== undefined &&
      ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const
    ) {
      return declaration.initializer;
    }
    return undefined;
  }

  /** The texts an expression can be, or undefined when it is not known before run time. */
  text(
    node: ts.Expression,
    env: ReadonlyMap<ts.ParameterDeclaration, ts.Expression>,
    free: ts.ParameterDeclaration[],
    seen: Set<ts.Node>,
  ): Text[] | undefined {
    const expression = unwrap(node);
    if (seen.has(expression)) return undefined;
    const inner = new Set(seen).add(expression);
    const orHole = (part: ts.Expression): Text[] =>
      this.text(part, env, free, inner) ?? [[{ hole: holeName(part) }]];
    if (ts.isStringLiteralLike(expression) || ts.isNumericLiteral(expression)) return [[expression.text]];
    if (ts.isTemplateExpression(expression)) {
      let texts: Text[] = [[expression.head.text]];
      for (const span of expression.templateSpans) {
        const values = orHole(span.expression);
        texts = product(
          texts,
          values.length * texts.length > 64 ? [[{ hole: holeName(span.expression) }]] : values,
        );
        texts = texts.map((text) => [...text, span.literal.text]);
      }
      return texts.map(normalise);
    }
    if (ts.isConditionalExpression(expression)) {
      const whenTrue = this.text(expression.whenTrue, env, free, inner);
      const whenFalse = this.text(expression.whenFalse, env, free, inner);
      if (whenTrue === undefined && whenFalse === undefined) return undefined;
      return [...(whenTrue ?? orHole(expression.whenTrue)), ...(whenFalse ?? orHole(expression.whenFalse))];
    }
    if (ts.isBinaryExpression(expression) && expression.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = this.text(expression.left, env, free, inner);
      const right = this.text(expression.right, env, free, inner);
      if (left === undefined && right === undefined) return undefined;
      return product(left ?? orHole(expression.left), right ?? orHole(expression.right)).map(normalise);
    }
    if (ts.isIdentifier(expression)) {
      const value = this.resolveValue(expression, env, free);
      return value === undefined ? undefined : this.text(value, env, free, inner);
    }
    // A property of a `const` object literal: `CODE_EXECUTION.type`.
    if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
      const declaration = this.declarationOf(expression.expression);
      if (declaration === undefined || ts.isParameter(declaration)) return undefined;
      const table = this.resolveValue(expression.expression, env, free);
      const object = table === undefined ? undefined : unwrap(table);
      if (object === undefined || !ts.isObjectLiteralExpression(object)) return undefined;
      const entry = object.properties
        .filter(ts.isPropertyAssignment)
        .find((member) => propertyName(member.name) === expression.name.text);
      return entry === undefined ? undefined : this.text(entry.initializer, env, free, inner);
    }
    if (ts.isElementAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
      const table = this.resolveValue(expression.expression, env, free);
      const object = table === undefined ? undefined : unwrap(table);
      if (object === undefined || !ts.isObjectLiteralExpression(object)) return undefined;
      const keys = this.text(expression.argumentExpression, env, free, inner);
      const entries = object.properties.filter(ts.isPropertyAssignment);
      const chosen = entries.filter((entry) =>
        keys?.some((key) => key.length === 1 && key[0] === propertyName(entry.name)),
      );
      const out: Text[] = [];
      for (const entry of chosen.length > 0 ? chosen : entries) {
        const value = this.text(entry.initializer, env, free, inner);
        if (value === undefined) return undefined;
        out.push(...value);
      }
      return out;
    }
    return undefined;
  }

  /** The loss kinds an expression can hold, and whether they were computed rather than written. */
  kinds(
    node: ts.Expression,
    env: ReadonlyMap<ts.ParameterDeclaration, ts.Expression>,
    free: ts.ParameterDeclaration[],
    seen: Set<ts.Node>,
  ): { values: Kind[]; computed: boolean } {
    const expression = unwrap(node);
    const inner = new Set(seen).add(expression);
    const literal = (value: string): Kind[] =>
      (lossKinds as readonly string[]).includes(value) ? [value as Kind] : [];
    if (ts.isStringLiteralLike(expression)) return { values: literal(expression.text), computed: false };
    if (!seen.has(expression)) {
      if (ts.isConditionalExpression(expression)) {
        const a = this.kinds(expression.whenTrue, env, free, inner);
        const b = this.kinds(expression.whenFalse, env, free, inner);
        return { values: union(a.values, b.values), computed: a.computed || b.computed };
      }
      if (ts.isIdentifier(expression)) {
        const declaration = this.declarationOf(expression);
        const value = this.resolveValue(expression, env, free);
        if (value !== undefined) {
          const resolved = this.kinds(value, env, free, inner);
          return {
            values: resolved.values,
            computed: resolved.computed || !ts.isParameter(declaration as ts.Node),
          };
        }
        if (declaration !== undefined && ts.isParameter(declaration) && !env.has(declaration)) {
          return { values: this.typeKinds(expression), computed: true };
        }
      }
      // `mapped.loss`, where `const mapped = f(…)`: every `loss` of the objects `f` returns.
      if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
        const value = this.resolveValue(expression.expression, env, free);
        const call = value === undefined ? undefined : unwrap(value);
        if (call !== undefined && ts.isCallExpression(call)) {
          const callee = this.declarationOf(
            ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression,
          );
          const fn = callee === undefined ? undefined : functionOf(callee);
          if (fn !== undefined) {
            const values: Kind[] = [];
            for (const returned of returnedExpressions(fn)) {
              const object = unwrap(returned);
              if (!ts.isObjectLiteralExpression(object)) continue;
              for (const member of object.properties) {
                if (ts.isPropertyAssignment(member) && propertyName(member.name) === expression.name.text) {
                  values.push(...this.kinds(member.initializer, new Map(), [], inner).values);
                }
              }
            }
            if (values.length > 0) return { values: union(values, []), computed: true };
          }
        }
      }
    }
    return { values: this.typeKinds(expression), computed: true };
  }

  /** The loss kinds of an expression's type (a union of literals), else every kind. */
  private typeKinds(expression: ts.Expression): Kind[] {
    const type = this.checker.getTypeAtLocation(expression);
    const parts = type.isUnion() ? type.types : [type];
    const values: Kind[] = [];
    for (const part of parts) {
      if (part.isStringLiteral() && (lossKinds as readonly string[]).includes(part.value)) {
        values.push(part.value as Kind);
      }
    }
    return values.length > 0 ? union(values, []) : [...lossKinds];
  }

  /** `file.ts: outer › inner` for a node. */
  where(node: ts.Node, via: readonly ts.Node[]): string {
    const names: string[] = [];
    for (let at: ts.Node | undefined = node; at !== undefined; at = at.parent) {
      const name = functionName(at);
      if (name !== undefined) names.unshift(name);
    }
    // A table of functions (`const handlers = { text: () => … }`): its name first.
    const unit = unitOf(node);
    if (unit !== undefined && ts.isVariableDeclaration(unit) && functionOf(unit) === undefined) {
      const name = propertyName(unit.name);
      if (name !== undefined) names.unshift(name);
    }
    const outer = names[0] ?? "(module)";
    const inner = names.length > 1 ? ` › ${names[names.length - 1]}` : "";
    const helpers = via.map((fn) => {
      const name = functionName(fn) ?? "(anonymous)";
      const file = this.rel(fn.getSourceFile());
      return file === this.rel(node.getSourceFile()) ? name : `${name} (${file})`;
    });
    return [`${this.rel(node.getSourceFile())}: ${outer}${inner}`, ...helpers].join(" → ");
  }
}

type Variant = {
  readonly text: Text;
  readonly kinds: readonly Kind[];
  readonly computed: boolean;
  readonly codes: readonly string[];
  readonly anchor: ts.Node;
  readonly via: readonly ts.Node[];
};

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTs(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out.sort();
}

function isInside(dir: string, file: string): boolean {
  const path = relative(dir, resolve(file));
  return path !== "" && !path.startsWith("..") && !path.startsWith(sep);
}

function isNamespaceImport(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((declaration) => ts.isNamespaceImport(declaration));
}

/** The top-level declaration a node belongs to: a variable of a top-level statement, or the statement. */
function unitOf(node: ts.Node): ts.Node | undefined {
  for (let at: ts.Node | undefined = node; at !== undefined; at = at.parent) {
    if (
      ts.isVariableDeclaration(at) &&
      ts.isVariableStatement(at.parent.parent) &&
      ts.isSourceFile(at.parent.parent.parent)
    ) {
      return at;
    }
    if (at.parent !== undefined && ts.isSourceFile(at.parent)) return at;
  }
  return undefined;
}

/** The function a declaration names (`function f`, `const f = () => …`), if it is one. */
function functionOf(declaration: ts.Node): FunctionLike | undefined {
  if (ts.isFunctionDeclaration(declaration)) return declaration;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined) {
    const value = unwrap(declaration.initializer);
    if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return value;
  }
  return undefined;
}

function functionName(node: ts.Node): string | undefined {
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node)) {
    return node.name === undefined ? undefined : propertyName(node.name);
  }
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
    let parent = node.parent;
    while (
      ts.isParenthesizedExpression(parent) ||
      ts.isAsExpression(parent) ||
      ts.isSatisfiesExpression(parent)
    ) {
      parent = parent.parent;
    }
    if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return propertyName(parent.name);
  }
  if (ts.isClassDeclaration(node)) return node.name?.text;
  return undefined;
}

function propertyName(name: ts.Node): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isPrivateIdentifier(name)) return name.text;
  return undefined;
}

function unwrap(expression: ts.Expression): ts.Expression {
  let at = expression;
  while (
    ts.isParenthesizedExpression(at) ||
    ts.isAsExpression(at) ||
    ts.isSatisfiesExpression(at) ||
    ts.isNonNullExpression(at) ||
    ts.isTypeAssertionExpression(at)
  ) {
    at = at.expression;
  }
  return at;
}

/** Every expression a function returns (not those of functions inside it). */
function returnedExpressions(fn: FunctionLike): ts.Expression[] {
  const body = fn.body;
  if (body === undefined) return [];
  if (!ts.isBlock(body)) return [body as ts.Expression];
  const out: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isReturnStatement(node) && node.expression !== undefined) out.push(node.expression);
    node.forEachChild(visit);
  };
  body.forEachChild(visit);
  return out;
}

/** A readable placeholder for a value known only at run time: `key`, `part.label`, `sequence`. */
function holeName(node: ts.Expression): string {
  const expression = unwrap(node);
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) {
    const inner = unwrap(expression.expression);
    const head = ts.isIdentifier(inner)
      ? inner.text
      : ts.isPropertyAccessExpression(inner)
        ? inner.name.text
        : holeName(inner);
    return `${head}.${expression.name.text}`;
  }
  if (ts.isCallExpression(expression) && expression.arguments.length > 0) {
    return holeName(expression.arguments[0] as ts.Expression);
  }
  if (
    ts.isBinaryExpression(expression) &&
    (expression.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
      expression.operatorToken.kind === ts.SyntaxKind.BarBarToken)
  ) {
    return holeName(expression.left);
  }
  if (ts.isConditionalExpression(expression)) return holeName(expression.whenTrue);
  return expression.getText().replace(/\s+/g, " ");
}

/** A placeholder that stands for an array index or an event's position, which a code never holds. */
const INDEX_HOLE = /^(index|position|ordinal|turn|i|n|at|offset|entry|count|number)$/i;

/**
 * The last field name of a pointer's text, as `codeOf` (src/common/loss.ts) takes it: indices and
 * index placeholders skipped; `‹name›` where it is known only at run time; `event` where it has none.
 */
export function lastField(text: Text): string {
  const segments: (string | { hole: string })[][] = [[]];
  for (const part of text) {
    if (typeof part !== "string") {
      (segments[segments.length - 1] as (string | { hole: string })[]).push(part);
      continue;
    }
    const pieces = part.split("/");
    pieces.forEach((piece, index) => {
      if (index > 0) segments.push([]);
      if (piece !== "") (segments[segments.length - 1] as (string | { hole: string })[]).push(piece);
    });
  }
  for (let index = segments.length - 1; index >= 0; index--) {
    const segment = segments[index] as (string | { hole: string })[];
    if (segment.length === 0) continue;
    if (segment.length === 1 && typeof segment[0] === "string") {
      if (/^\d+$/.test(segment[0])) continue;
      return segment[0].replaceAll("~1", "/").replaceAll("~0", "~");
    }
    // `${max + offset}` and the like: an index computed at run time.
    if (segment.every((part) => typeof part !== "string" || /^[\d\s+-]*$/.test(part)) && segment.length > 1)
      continue;
    if (segment.length === 1 && typeof segment[0] !== "string") {
      const hole = (segment[0] as { hole: string }).hole;
      if (INDEX_HOLE.test(hole.split(".").pop() ?? hole)) continue;
      return `‹${hole}›`;
    }
    return renderText(segment);
  }
  return "event";
}

function product(left: readonly Text[], right: readonly Text[]): Text[] {
  const out: Text[] = [];
  for (const a of left) for (const b of right) out.push([...a, ...b]);
  return out;
}

/** Adjacent strings joined, empty strings gone. */
function normalise(text: Text): Text {
  const out: (string | { hole: string })[] = [];
  for (const part of text) {
    const last = out[out.length - 1];
    if (typeof part === "string") {
      if (part === "") continue;
      if (typeof last === "string") out[out.length - 1] = last + part;
      else out.push(part);
    } else {
      out.push(part);
    }
  }
  return out;
}

function union<T>(a: readonly T[], b: readonly T[]): T[] {
  return [...new Set([...a, ...b])];
}

// ---------------------------------------------------------------------------------------------------
// The matrix

/** The protocols of the table in src/protocols/index.ts, each with its adapter's members. */
function protocolTable(
  analysis: Analysis,
): { id: string; adapter: ts.Node; members: Map<string, ts.Node> }[] {
  const file = analysis.files.find((source) => analysis.rel(source) === "protocols/index.ts");
  let table: ts.ObjectLiteralExpression | undefined;
  file?.forEachChild(function find(node): void {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === "table") {
      const value = node.initializer === undefined ? undefined : unwrap(node.initializer);
      if (value !== undefined && ts.isObjectLiteralExpression(value)) table = value;
    }
    node.forEachChild(find);
  });
  if (table === undefined)
    throw new Error("src/protocols/index.ts has no `const table = { … }` of adapters.");
  const out: { id: string; adapter: ts.Node; members: Map<string, ts.Node> }[] = [];
  for (const entry of table.properties) {
    const id = entry.name === undefined ? undefined : propertyName(entry.name);
    const reference = ts.isPropertyAssignment(entry)
      ? unwrap(entry.initializer)
      : ts.isShorthandPropertyAssignment(entry)
        ? entry.name
        : undefined;
    if (id === undefined || reference === undefined)
      throw new Error(`Unreadable protocol table entry: ${entry.getText()}`);
    const declaration = analysis.declarationOf(reference);
    const adapter = declaration === undefined ? undefined : adapterObject(declaration);
    if (declaration === undefined || adapter === undefined) {
      throw new Error(
        `The ${id} adapter is not an object literal this script can read: ${reference.getText()}`,
      );
    }
    const members = new Map<string, ts.Node>();
    for (const member of adapter.properties) {
      const name = member.name === undefined ? undefined : propertyName(member.name);
      if (name === undefined) continue;
      if (ts.isPropertyAssignment(member)) members.set(name, member.initializer);
      else if (ts.isShorthandPropertyAssignment(member)) members.set(name, member.name);
      else if (ts.isMethodDeclaration(member)) members.set(name, member);
    }
    out.push({ id, adapter: unitOf(declaration) ?? declaration, members });
  }
  return out;
}

/** The object literal an adapter is declared with (`const a: Adapter = { … }`, or `make({ … })`). */
function adapterObject(declaration: ts.Node): ts.ObjectLiteralExpression | undefined {
  if (!ts.isVariableDeclaration(declaration) || declaration.initializer === undefined) return undefined;
  const value = unwrap(declaration.initializer);
  if (ts.isObjectLiteralExpression(value)) return value;
  if (ts.isCallExpression(value)) {
    const object = value.arguments.map(unwrap).find(ts.isObjectLiteralExpression);
    if (object !== undefined) return object;
  }
  return undefined;
}

function rowKey(kinds: readonly Kind[], text: Text): string {
  return `${kinds.join(",")}\u0000${renderText(text)}`;
}

function collect(
  entries: readonly { variant: Variant; where: string }[],
  keep: (variant: Variant) => boolean,
): Row[] {
  const rows = new Map<
    string,
    { kinds: Kind[]; computed: boolean; text: Text; codes: Set<string>; where: Set<string> }
  >();
  for (const { variant, where } of entries) {
    if (!keep(variant)) continue;
    const kinds = lossKinds.filter((kind) => variant.kinds.includes(kind));
    const key = rowKey(kinds, variant.text);
    const row = rows.get(key);
    if (row === undefined) {
      rows.set(key, {
        kinds,
        computed: variant.computed,
        text: variant.text,
        codes: new Set(variant.codes),
        where: new Set([where]),
      });
    } else {
      row.where.add(where);
      for (const code of variant.codes) row.codes.add(code);
      row.computed ||= variant.computed;
    }
  }
  return [...rows.values()]
    .map((row) => ({
      kinds: row.kinds,
      computed: row.computed,
      text: row.text,
      codes: [...row.codes].sort(compare),
      where: [...row.where].sort(),
    }))
    .sort(
      (a, b) =>
        lossKinds.indexOf(a.kinds[0] as Kind) - lossKinds.indexOf(b.kinds[0] as Kind) ||
        compare(renderText(a.text), renderText(b.text)) ||
        compare(a.kinds.join(), b.kinds.join()),
    );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads the source under `root` (the package directory) into the matrix. */
export function analyze(root: string = defaultRoot): Matrix {
  const analysis = new Analysis(root);
  const table = protocolTable(analysis);
  const ids = table.map((entry) => entry.id);
  const tableFile = "protocols/index.ts";
  const adapters = new Set(table.map((entry) => entry.adapter));
  // The walk stops at the adapters, the table and the public index.
  const stop = (unit: ts.Node): boolean => {
    const file = analysis.rel(unit.getSourceFile());
    return adapters.has(unit) || file === tableFile || file === "index.ts";
  };

  const protocolDirs = readdirSync(join(analysis.src, "protocols"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const unwired = protocolDirs.filter((dir) => !ids.includes(dir));
  const inUnwired = (node: ts.Node): boolean =>
    unwired.some((dir) => analysis.rel(node.getSourceFile()).startsWith(`protocols/${dir}/`));

  const entries = analysis.sites
    .filter((site) => !inUnwired(site.node))
    .flatMap((site) =>
      analysis
        .variants(site)
        .map((variant) => ({ variant, where: analysis.where(variant.anchor, variant.via) })),
    );
  const reached = new Set<Variant>();
  /** Whether a variant's anchor is in `units` or inside one of `inline` (an adapter member's own code). */
  const within = (units: Set<ts.Node>, inline: readonly ts.Node[]) => (variant: Variant) => {
    const unit = unitOf(variant.anchor);
    const hit =
      (unit !== undefined && units.has(unit)) ||
      inline.some(
        (node) =>
          variant.anchor.pos >= node.pos &&
          variant.anchor.end <= node.end &&
          variant.anchor.getSourceFile() === node.getSourceFile(),
      );
    if (hit) reached.add(variant);
    return hit;
  };
  const sideRows = (roots: readonly ts.Node[], inline: readonly ts.Node[]): Row[] =>
    collect(entries, within(analysis.reach(roots, stop), inline));

  const sidesOf = (entry: (typeof table)[number], member: string): Row[] => {
    const node = entry.members.get(member);
    if (node === undefined) throw new Error(`The ${entry.id} adapter has no \`${member}\`.`);
    return sideRows(analysis.referencedUnits(node), [node]);
  };
  const decode = new Map<string, Record<Section, Row[]>>();
  const encode = new Map<string, Record<Section, Row[]>>();
  for (const entry of table) {
    const read = {} as Record<Section, Row[]>;
    const write = {} as Record<Section, Row[]>;
    for (const section of sections) {
      read[section] = sidesOf(entry, members[section].decode);
      write[section] = sidesOf(entry, members[section].encode);
    }
    decode.set(entry.id, read);
    encode.set(entry.id, write);
  }
  const core = {} as Record<Section, Row[]>;
  for (const section of sections) core[section] = sideRows([topLevel(analysis, coreRoots[section])], []);

  const pairs: Pair[] = [];
  for (const from of ids) {
    for (const to of ids) {
      if (from === to) continue;
      const bySection = {} as Record<Section, Side[]>;
      for (const section of sections) {
        const sides: Side[] = [
          { title: `Reading ${from}`, rows: decode.get(from)?.[section] ?? [] },
          { title: `Writing ${to}`, rows: encode.get(to)?.[section] ?? [] },
        ];
        if (core[section].length > 0)
          sides.push({ title: "Either side (the translation core)", rows: core[section] });
        bySection[section] = sides;
      }
      pairs.push({ from, to, sections: bySection });
    }
  }

  const embeddings = embeddingsRoots.map((root) => ({
    title: root.section,
    rows: sideRows([topLevel(analysis, root)], []),
  }));
  // What every other member of an adapter reaches is not reported to callers, and not unreached.
  for (const entry of table) {
    for (const [name, node] of entry.members) {
      if (Object.values(members).some((member) => member.decode === name || member.encode === name)) continue;
      sideRows(analysis.referencedUnits(node), [node]);
    }
  }
  const unreached = collect(entries, (variant) => !reached.has(variant));
  return { protocols: ids, pairs, embeddings, unwired, unreached };
}

function topLevel(analysis: Analysis, root: { file: string; name: string }): ts.Node {
  const file = analysis.files.find((source) => analysis.rel(source) === root.file);
  const found = file?.statements.find(
    (statement) => ts.isFunctionDeclaration(statement) && statement.name?.text === root.name,
  );
  if (found === undefined) throw new Error(`src/${root.file} no longer declares function ${root.name}.`);
  return found;
}

// ---------------------------------------------------------------------------------------------------
// Rendering

export function renderText(text: Text): string {
  return text.map((part) => (typeof part === "string" ? part : `‹${part.hole}›`)).join("");
}

/** A message template as a pattern: placeholders match anything. */
export function messagePattern(text: Text): RegExp {
  const source = text
    .map((part) => (typeof part === "string" ? part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : "[\\s\\S]*?"))
    .join("");
  return new RegExp(`^${source}$`);
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/\n/g, " ");
}

function kindCell(row: Row): string {
  return `${row.kinds.join(" or ")}${row.computed ? " (computed)" : ""}`;
}

function codeCell(row: Row): string {
  return row.codes.map((code) => `\`${code}\``).join(", ");
}

function table(rows: readonly Row[]): string[] {
  if (rows.length === 0) return ["No losses.", ""];
  return [
    "| Kind | Code | Message | Where |",
    "| --- | --- | --- | --- |",
    ...rows.map(
      (row) =>
        `| ${kindCell(row)} | ${cell(codeCell(row))} | ${cell(renderText(row.text))} | ${cell(row.where.join("; "))} |`,
    ),
    "",
  ];
}

/** Every code of the matrix, each with the messages it stands for: literal ones first, then patterns. */
export function codeIndex(matrix: Matrix): { code: string; kinds: Kind[]; texts: string[] }[] {
  const all = [
    ...matrix.pairs.flatMap(pairRows),
    ...matrix.embeddings.flatMap((side) => side.rows),
    ...matrix.unreached,
  ];
  const index = new Map<string, { kinds: Set<Kind>; texts: Set<string> }>();
  for (const row of all) {
    for (const code of row.codes) {
      const entry = index.get(code) ?? { kinds: new Set(), texts: new Set() };
      for (const kind of row.kinds)
        if (code.endsWith(`.${kind}`) || !code.includes("‹")) entry.kinds.add(kind);
      entry.texts.add(renderText(row.text));
      index.set(code, entry);
    }
  }
  const patterned = (code: string) => code.startsWith("‹");
  return [...index.entries()]
    .map(([code, entry]) => ({
      code,
      kinds: lossKinds.filter((kind) => entry.kinds.has(kind)),
      texts: [...entry.texts].sort(compare),
    }))
    .sort((a, b) => Number(patterned(a.code)) - Number(patterned(b.code)) || compare(a.code, b.code));
}

function codeTable(matrix: Matrix): string[] {
  return [
    "| Code | Messages |",
    "| --- | --- |",
    ...codeIndex(matrix).map(
      (entry) =>
        `| \`${cell(entry.code)}\` | ${cell(entry.texts.slice(0, 3).join(" · "))}${entry.texts.length > 3 ? ` (and ${entry.texts.length - 3} more)` : ""} |`,
    ),
    "",
  ];
}

function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

const sectionTitles: Readonly<Record<Section, string>> = {
  request: "Request",
  response: "Response",
  stream: "Stream",
};

function pairRows(pair: Pair): Row[] {
  return sections.flatMap((section) => pair.sections[section].flatMap((side) => side.rows));
}

/** The markdown document. */
export function render(matrix: Matrix): string {
  const lines: string[] = [
    "# Conversion matrix",
    "",
    "<!-- Generated by `npm run docs` (scripts/conversions.ts) from the source; do not edit by hand.",
    "     test/docs/conversions.test.ts fails when this file and the code disagree. -->",
    "",
    "What the translator can report for each pair of protocols: every `Loss` it may return, with its",
    "kind and the reason in its own words. Every loss a translation reports also carries a JSON pointer",
    "(`path`) into the input, which this table leaves out: it depends on the payload.",
    "",
    "The kinds:",
    "",
    "- **dropped**: a piece of the input has no place in the target and is not in the output.",
    "- **clamped**: a value was changed to fit the target's range or type (rounded, capped).",
    "- **synthesized**: the output holds something the input did not give (a required field, an id, a",
    "  default, an error event for a stream cut short).",
    "- **approximated**: the input is carried in a close but not identical form (a finish reason mapped",
    "  to the nearest one, a refusal sent as text).",
    "",
    "How to read it:",
    "",
    "- A translation from A to B decodes A into the common model, then encodes the common model as B; there is no other path.",
    "  So each pair lists the losses of *reading A* (the same for every target) and those of *writing B*",
    "  (the same for every source), for requests, whole responses and streams. Some of them happen only",
    "  when the input holds the piece in question, or with some options (`chatDialect`, ...).",
    "- `‹name›` in a message stands for a value from the payload (a field name, a type, a value).",
    "- *Where* is the file under `src/` and the function the loss comes from; `a → b` means `b` reports",
    "  it when called from `a`. A kind marked *computed* is not written at the site: the kinds listed are",
    "  every value the expression can hold.",
    "- A translation from a protocol to itself passes the payload through unchanged and reports no loss.",
    "  Translating an error (`translateError`) reports none either: it maps the status and message.",
    "- Loss messages are written for people; they may be reworded in any release. Match on `code`,",
    "  `kind` and `path`, not on `message`. [Loss codes](#loss-codes) lists every code.",
    "",
    "## Summary",
    "",
    "Distinct losses each pair can report, by kind (a loss whose kind is computed counts under each kind",
    "it can take).",
    "",
    `| From → to | ${lossKinds.join(" | ")} | all |`,
    `| --- | ${lossKinds.map(() => "---:").join(" | ")} | ---: |`,
  ];
  for (const pair of matrix.pairs) {
    const rows = pairRows(pair);
    const title = `${pair.from} → ${pair.to}`;
    const counts = lossKinds.map((kind) => rows.filter((row) => row.kinds.includes(kind)).length);
    lines.push(`| [${title}](#${anchor(title)}) | ${counts.join(" | ")} | ${rows.length} |`);
  }
  lines.push("");
  if (matrix.unwired.length > 0) {
    lines.push(
      `Protocol folders not in the protocol table yet (their losses appear once they are): ${matrix.unwired.map((dir) => `\`${dir}\``).join(", ")}.`,
      "",
    );
  }
  for (const pair of matrix.pairs) {
    lines.push(`## ${pair.from} → ${pair.to}`, "");
    for (const section of sections) {
      lines.push(`### ${sectionTitles[section]}: ${pair.from} → ${pair.to}`, "");
      for (const side of pair.sections[section]) {
        lines.push(`#### ${side.title} (${section})`, "", ...table(side.rows));
      }
    }
  }
  lines.push(
    "## Loss codes",
    "",
    "Every loss carries a `code` to count it by: stable across versions, free of array indices, and",
    "independent of the message. Most codes are derived from the loss's pointer (`codeOf` in",
    "src/common/loss.ts): the last field name of `path` (array indices skipped) and the kind —",
    "`/messages/2/content/0/cache_control` → `cache_control.dropped`; a pointer that ends at an element",
    "names its list (`/tools/3` → `tools.dropped`). Where the pointer does not say what was lost (a whole",
    "stream event, an element of a list whose kinds differ), the site gives its own code",
    "(`thinking.signature.foreign`, `block.dropped`). A code written `‹name›.kind` below is derived from a",
    "pointer known only at run time: its first part is the input's own field name there (an unknown",
    "field dropped by name: `x_groq.dropped`, `service_tier.dropped`).",
    "",
    ...codeTable(matrix),
    "## Embeddings",
    "",
    "`translateEmbeddingsRequest` and `translateEmbeddingsResponse` translate between the chat-style and",
    "the generative embeddings endpoints (messages has none); *Where* names the direction",
    "(`chatToGenerative`, `generativeToChat`).",
    "",
  );
  for (const side of matrix.embeddings) lines.push(`### ${side.title}: embeddings`, "", ...table(side.rows));
  if (matrix.unreached.length > 0) {
    lines.push(
      "## Not reached by any translation",
      "",
      "Loss sites in `src/` that no entry point above reaches (as far as this reading of the code can tell).",
      "",
      ...table(matrix.unreached),
    );
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** Every loss a translation from `from` to `to` may report in `section`, as rows. */
export function rowsOf(matrix: Matrix, from: string, to: string, section: Section): Row[] {
  const pair = matrix.pairs.find((entry) => entry.from === from && entry.to === to);
  return pair === undefined ? [] : pair.sections[section].flatMap((side) => side.rows);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const out = resolve(process.argv[2] ?? join(defaultRoot, "docs", "conversions.md"));
  const started = performance.now();
  const text = render(analyze());
  writeFileSync(out, text);
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`${relative(process.cwd(), out)}: ${text.split("\n").length} lines (${ms} ms)\n`);
}
