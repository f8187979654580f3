/**
 * The package as a strict TypeScript consumer gets it: `npm pack` (dist/ as built), the tarball
 * installed into a throwaway project beside zod, fast-check and @types/node, and one ESM file (.mts)
 * and one CommonJS file (.cts) that name every public export of every entry point — each namespace
 * member, each type (`errors.ErrorKind`, `models.ChatList`, `chat.Request` …), each schema's
 * PascalCase type checked equal to `z.output` of the schema — and import the JSON Schemas. They are
 * type-checked with `skipLibCheck: false` (the shipped .d.ts/.d.cts are checked too) under each
 * TypeScript version and `moduleResolution` of the matrix, and run with node (the JSON Schemas load
 * through the package's `exports`, by `import … with { type: "json" }` and by `require`).
 * CI runs it (.ci/run); test/package-types.full.test.ts too.
 *
 *   tsx scripts/consumer-types.ts            (needs `npm run build` first)
 *
 * GP_CACHE: the folder for the throwaway project (default ~/.cache/gateway-protocols, or under
 * XDG_CACHE_HOME).
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The TypeScript versions a consumer may compile with: npm range per column. */
export const typescripts: Readonly<Record<string, string>> = {
  "5.9": "~5.9.0",
  "6.0": "~6.0.0",
  "7.0": "~7.0.0",
};

/** `moduleResolution` settings, each with the `module` it goes with and the ambient types of such a project. */
export const resolutions: Readonly<Record<string, Record<string, unknown>>> = {
  // A bundled web or edge project: DOM types, no Node.
  bundler: { module: "preserve", moduleResolution: "bundler", lib: ["ES2022", "DOM"], types: [] },
  // Node projects: Node's types, no DOM.
  node16: { module: "node16", moduleResolution: "node16", lib: ["ES2022"], types: ["node"] },
  nodenext: { module: "nodenext", moduleResolution: "nodenext", lib: ["ES2022"], types: ["node"] },
};

/** The options every configuration shares: as strict as consumers get, and the library's own .d.ts checked. */
const strict = {
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  resolveJsonModule: true,
  target: "ES2022",
};

/** The entry points of package.json "exports" and the source each is built from. */
const entries: Readonly<Record<string, string>> = {
  "gateway-protocols": "src/index.ts",
  "gateway-protocols/embeddings": "src/embeddings/index.ts",
  "gateway-protocols/music": "src/music/index.ts",
  "gateway-protocols/sse": "src/stream/sse.ts",
  "gateway-protocols/testing": "src/testing/index.ts",
};

/** One public name: `chat.Request` of `gateway-protocols`, a value, a type or both. */
export type PublicName = {
  entry: string;
  path: string[];
  value: boolean;
  type: boolean;
  /** Type parameters without a default (a use must supply them). */
  required: number;
};

/** Every export of every entry, namespace members included, read from the sources by the compiler. */
export function publicNames(): PublicName[] {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const files = Object.values(entries).map((file) => join(root, file));
  const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const out: PublicName[] = [];
  const walk = (entry: string, module: ts.Symbol, path: string[]): void => {
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const first = symbol.declarations?.[0];
      if (first === undefined) continue;
      const at = [...path, exported.name];
      if (ts.isSourceFile(first)) {
        out.push({ entry, path: at, value: true, type: false, required: 0 });
        walk(entry, symbol, at);
        continue;
      }
      const parameters =
        ts.isTypeAliasDeclaration(first) || ts.isInterfaceDeclaration(first) || ts.isClassDeclaration(first)
          ? (first.typeParameters ?? [])
          : [];
      out.push({
        entry,
        path: at,
        value: (symbol.flags & ts.SymbolFlags.Value) !== 0,
        type: (symbol.flags & ts.SymbolFlags.Type) !== 0,
        required: parameters.filter((parameter) => parameter.default === undefined).length,
      });
    }
  };
  for (const [entry, file] of Object.entries(entries)) {
    const source = program.getSourceFile(join(root, file));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${file} is not a module of the program`);
    walk(entry, module, []);
  }
  return out;
}

/** `chat.request` → `Request`: the name API.md gives a schema's inferred type. */
const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/** The public schemas (zod values) by entry and path, read from the built package. */
async function schemaPaths(names: PublicName[]): Promise<Set<string>> {
  const schemas = new Set<string>();
  const loaded = new Map<string, Record<string, unknown>>();
  for (const name of names) {
    if (!name.value) continue;
    let module = loaded.get(name.entry);
    if (module === undefined) {
      const file = join(
        root,
        "dist",
        `${name.entry === "gateway-protocols" ? "index" : name.entry.split("/")[1]}.js`,
      );
      module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      loaded.set(name.entry, module);
    }
    let value: unknown = module;
    for (const key of name.path) value = (value as Record<string, unknown> | undefined)?.[key];
    if (typeof value === "object" && value !== null && "_zod" in value) {
      schemas.add(`${name.entry}#${name.path.join(".")}`);
    }
  }
  return schemas;
}

const alias = (entry: string): string =>
  entry === "gateway-protocols" ? "gp" : `gp_${entry.split("/")[1] as string}`;

/**
 * The consumer's program, for ESM (`import * as`) or CommonJS (`import = require`): every name used
 * as what it is, each schema's type compared with the schema's output both ways, a few calls.
 */
export function consumerSource(
  names: PublicName[],
  schemas: ReadonlySet<string>,
  format: "esm" | "cjs",
  jsonImport: boolean,
): string {
  const lines: string[] = [
    "// Generated by scripts/consumer-types.ts: every public name of the package, as a consumer writes it.",
  ];
  for (const entry of Object.keys(entries)) {
    lines.push(
      format === "esm"
        ? `import * as ${alias(entry)} from "${entry}";`
        : `import ${alias(entry)} = require("${entry}");`,
    );
  }
  lines.push('import type * as z from "zod/v4";');
  if (jsonImport) {
    lines.push(
      format === "esm"
        ? 'import chatRequestSchema from "gateway-protocols/schemas/chat.request.json" with { type: "json" };'
        : 'import chatRequestSchema = require("gateway-protocols/schemas/chat.request.json");',
    );
  }
  lines.push(
    "type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
    "const values: unknown[] = [];",
  );
  let index = 0;
  const names_ = new Set(names.map((name) => `${name.entry}#${name.path.join(".")}`));
  for (const name of names) {
    const ref = `${alias(name.entry)}.${name.path.join(".")}`;
    if (name.value) lines.push(`values.push(${ref});`);
    if (name.type) {
      const args = name.required > 0 ? `<${Array(name.required).fill("never").join(", ")}>` : "";
      lines.push(`export type T${index++} = ${ref}${args};`);
    }
    const key = `${name.entry}#${name.path.join(".")}`;
    if (schemas.has(key)) {
      const typeName = [...name.path.slice(0, -1), pascal(name.path.at(-1) as string)].join(".");
      // A schema without its PascalCase type beside it is reported by the compiler at this line.
      const typeRef = names_.has(`${name.entry}#${typeName}`)
        ? `${alias(name.entry)}.${typeName}`
        : `${alias(name.entry)}.${typeName} /* missing: the type of ${name.path.join(".")} */`;
      lines.push(`export const S${index++}: Same<${typeRef}, z.output<typeof ${ref}>> = true;`);
    }
  }
  // A few calls as users write them: results typed by the protocols named.
  lines.push(
    'const request: gp.chat.Request = { model: "m", messages: [{ role: "user", content: "hi" }] };',
    'const out = gp.translateRequest("chat", "messages", request);',
    "const body: gp.messages.Request = out.value;",
    "const kind: gp.errors.ErrorKind = gp.errors.upstreamFailed().kind;",
    "const info: gp.errors.ErrorInfo = gp.errors.rateLimited();",
    'const list: gp.models.ChatList = gp.models.chatList.parse({ object: "list", data: [] });',
    'const loss: gp.Loss | undefined = gp.translateResponse("messages", "chat", {}).losses[0];',
    "const error: gp.TranslationError = new gp.TranslationError('x');",
    `export const used = [values, body, kind, info, list, loss, error${jsonImport ? ", chatRequestSchema.$schema" : ""}];`,
  );
  return `${lines.join("\n")}\n`;
}

/** Runs `command` and returns its output; a failure throws with the output it gave. */
function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(" ")} failed:\n${failed.stdout ?? ""}${failed.stderr ?? failed.message}`,
    );
  }
}

/** Packs the built package (dist/ and schemas/ as they are: no rebuild) into `into`; the tarball's path. */
export function pack(into: string): string {
  if (!existsSync(join(root, "dist", "index.d.ts")) || !existsSync(join(root, "schemas", "index.json"))) {
    throw new Error("dist/ or schemas/ is missing: run `npm run build` first");
  }
  mkdirSync(into, { recursive: true });
  const out = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", into], root);
  const [{ filename }] = JSON.parse(out) as [{ filename: string }];
  return join(into, filename);
}

/**
 * The folder for what these checks install (runtimes, compilers, throwaway projects): `GP_CACHE`, else
 * gateway-protocols/ in the user's cache folder (outside the repository, so `npm ci` keeps it).
 */
export function cacheDir(given?: string): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return resolve(given ?? process.env.GP_CACHE ?? join(base, "gateway-protocols"));
}

const installedVersion = (name: string): string =>
  (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string })
    .version;

export type CellResult = { typescript: string; version: string; resolution: string; errors: string[] };

export type ConsumerResult = {
  cells: CellResult[];
  /** What node printed running the consumer's JSON Schema imports: `esm`/`cjs` → schema title. */
  runtime: Record<string, string>;
  names: number;
  schemas: number;
};

/** The whole check; `extra` is appended to both consumer files (a test's deliberate error). */
export async function checkConsumer(
  options: { cache?: string; extra?: string; log?: (line: string) => void } = {},
): Promise<ConsumerResult> {
  const log = options.log ?? (() => undefined);
  const project = join(cacheDir(options.cache), "consumer");
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  const tarball = pack(project);
  writeFileSync(join(project, "package.json"), '{ "name": "consumer", "private": true }\n');
  const specs = [
    tarball,
    `zod@${installedVersion("zod")}`,
    `fast-check@${installedVersion("fast-check")}`,
    "@types/node@20",
    ...Object.entries(typescripts).map(
      ([column, range]) => `ts${column.replace(".", "")}@npm:typescript@${range}`,
    ),
  ];
  const started = Date.now();
  run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", ...specs],
    project,
  );
  log(
    `installed the tarball and ${specs.length - 1} packages in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const names = publicNames();
  const schemas = await schemaPaths(names);
  const extra = options.extra ?? "";
  for (const [resolution, settings] of Object.entries(resolutions)) {
    const dir = join(project, resolution);
    mkdirSync(dir, { recursive: true });
    // node16 has no import attributes: its ESM file reaches the JSON Schemas by require only (the .cts).
    const json = resolution !== "node16";
    writeFileSync(join(dir, "esm.mts"), consumerSource(names, schemas, "esm", json) + extra);
    writeFileSync(join(dir, "cjs.cts"), consumerSource(names, schemas, "cjs", true) + extra);
    writeFileSync(
      join(dir, "tsconfig.json"),
      `${JSON.stringify({ compilerOptions: { ...strict, ...settings }, files: ["esm.mts", "cjs.cts"] }, null, 2)}\n`,
    );
  }

  // Each cell is one compiler process; as many at once as the machine has cores.
  const jobs: (() => Promise<CellResult>)[] = [];
  for (const column of Object.keys(typescripts)) {
    const compiler = join(project, "node_modules", `ts${column.replace(".", "")}`);
    const version = (JSON.parse(readFileSync(join(compiler, "package.json"), "utf8")) as { version: string })
      .version;
    for (const resolution of Object.keys(resolutions)) {
      jobs.push(async () => {
        const dir = join(project, resolution);
        const tsc = [join(compiler, "bin", "tsc"), "-p", "tsconfig.json", "--pretty", "false"];
        const output = await new Promise<string | undefined>((done) =>
          execFile(process.execPath, tsc, { cwd: dir, encoding: "utf8" }, (error, stdout, stderr) =>
            done(error === null ? undefined : `${stdout}${stderr}` || error.message),
          ),
        );
        let errors: string[] = [];
        if (output !== undefined) {
          errors = output.split("\n").filter((line) => /error TS\d+/.test(line));
          if (errors.length === 0) errors = [output];
        }
        log(
          `TypeScript ${version}, ${resolution}: ${errors.length === 0 ? "ok" : `${errors.length} errors`}`,
        );
        return { typescript: column, version, resolution, errors };
      });
    }
  }
  const cells: CellResult[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const at = next++;
      cells[at] = await (jobs[at] as () => Promise<CellResult>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), jobs.length) }, worker));

  // The JSON Schemas at run time, through the installed package's exports.
  writeFileSync(
    join(project, "schemas.mjs"),
    'import schema from "gateway-protocols/schemas/chat.request.json" with { type: "json" };\nconsole.log(schema.title);\n',
  );
  writeFileSync(
    join(project, "schemas.cjs"),
    'console.log(require("gateway-protocols/schemas/chat.request.json").title);\n',
  );
  const runtime: Record<string, string> = {};
  for (const [format, file] of [
    ["esm", "schemas.mjs"],
    ["cjs", "schemas.cjs"],
  ] as const) {
    try {
      runtime[format] = run(process.execPath, [file], project).trim();
    } catch (error) {
      runtime[format] = `failed: ${(error as Error).message.split("\n").slice(0, 3).join(" ")}`;
    }
  }
  log(`JSON Schemas at run time: import → ${runtime.esm}; require → ${runtime.cjs}`);
  return { cells, runtime, names: names.length, schemas: schemas.size };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const result = await checkConsumer({ log: (line) => console.log(line) });
  const expected = (
    createRequire(import.meta.url)(join(root, "schemas", "chat.request.json")) as { title: string }
  ).title;
  const failed = result.cells.filter((cell) => cell.errors.length > 0);
  for (const cell of failed) {
    console.log(
      `\nTypeScript ${cell.version}, ${cell.resolution}:\n  ${cell.errors.slice(0, 40).join("\n  ")}`,
    );
  }
  const runtimeOk = result.runtime.esm === expected && result.runtime.cjs === expected;
  console.log(
    `consumer types: ${result.names} public names, ${result.schemas} schemas; ${result.cells.length - failed.length} of ${result.cells.length} configurations compile; JSON Schemas load: ${runtimeOk ? "yes" : "no"} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  if (failed.length > 0 || !runtimeOk) process.exit(1);
}
