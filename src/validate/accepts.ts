import type { z } from "zod/v4";
import { isObject } from "../common/json";
import { canCompile, compiled, validates } from "./zod-fast";

/** A check that answers `true` only where the schema it was built from accepts the value. */
export type Accepts = (value: unknown) => boolean;

type Def = {
  type: string;
  checks?: readonly { _zod: { def: Record<string, unknown> } }[];
  [key: string]: unknown;
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * Open unions (a refinement the walker cannot read) registered by their schema file: a value is accepted
 * when its `type` is a string and either not a known name, or the known schema accepts it.
 */
const openUnions = new WeakMap<z.ZodType, { names: ReadonlySet<string>; known: z.ZodType }>();

/** Registers `schema` as an open union over `known` (see messages/schema.ts `openUnion`). */
export function registerOpenUnion(schema: z.ZodType, names: ReadonlySet<string>, known: z.ZodType): void {
  openUnions.set(schema, { names, known });
}

/**
 * Refined schemas (`base.superRefine(…)`) registered with a plain predicate that holds only where the
 * refinement adds no issue: accepted when `base` accepts the value and the predicate holds. Without it a
 * refinement hands the whole subtree to zod (a responses request: 1.8 µs instead of a few dozen ns).
 */
const refinements = new WeakMap<z.ZodType, { base: z.ZodType; holds: (value: unknown) => boolean }>();

/** Registers `schema` as `base` refined by a check that passes wherever `holds` (see open-union.ts `refined`). */
export function registerRefinement(
  schema: z.ZodType,
  base: z.ZodType,
  holds: (value: unknown) => boolean,
): void {
  refinements.set(schema, { base, holds });
}

/** The known names and schema of an open union, for readers other than the walker (the JSON Schema build). */
export function openUnionOf(
  schema: z.ZodType,
): { readonly names: ReadonlySet<string>; readonly known: z.ZodType } | undefined {
  return openUnions.get(schema);
}

/**
 * Whether zod wants `key in object` for a shape entry: an absent key passes only where the entry is
 * optional in and out (`.optional()`); elsewhere the key must be there even if the entry would take
 * `undefined` (`z.unknown()`). Entries whose check already rejects `undefined` need no extra test.
 */
function needsPresence(schema: z.ZodType): boolean {
  const internals = (schema as unknown as { _zod: { optin?: string; optout?: string } })._zod;
  if (internals.optin === "optional" && internals.optout === "optional") return false;
  const type = defOf(schema).type;
  return !["string", "number", "boolean", "object", "array", "record", "literal", "enum"].includes(type);
}

/**
 * Enough for zod's `isPlainObject` (a record's test) to hold: no constructor, one that is not a
 * function, or `Object` itself.
 */
const plain = (value: object): boolean => {
  const ctor: unknown = (value as { constructor?: unknown }).constructor;
  return typeof ctor !== "function" || ctor === Object;
};

/** zod's own check of a subtree the walker does not model: compiled where `new Function` is allowed. */
function delegate(schema: z.ZodType): Accepts {
  const fast = compiled(schema);
  return (value) => validates(fast, value);
}

type NumberBounds = {
  integer: boolean;
  min: number;
  minInclusive: boolean;
  max: number;
  maxInclusive: boolean;
};

/** A number's checks, or `undefined` when one of them is not modelled. */
function numberBounds(def: Def): NumberBounds | undefined {
  let integer = false;
  let min = Number.NEGATIVE_INFINITY;
  let minInclusive = true;
  let max = Number.POSITIVE_INFINITY;
  let maxInclusive = true;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.when !== undefined) return undefined;
    if (c.check === "number_format" && c.format === "safeint") integer = true;
    else if (c.check === "greater_than" && typeof c.value === "number" && min === Number.NEGATIVE_INFINITY) {
      min = c.value;
      minInclusive = c.inclusive === true;
    } else if (c.check === "less_than" && typeof c.value === "number" && max === Number.POSITIVE_INFINITY) {
      max = c.value;
      maxInclusive = c.inclusive === true;
    } else return undefined;
  }
  return { integer, min, minInclusive, max, maxInclusive };
}

function numberChecks(def: Def): Accepts | undefined {
  const bounds = numberBounds(def);
  if (bounds === undefined) return undefined;
  const { integer, min, minInclusive, max, maxInclusive } = bounds;
  return (value) =>
    typeof value === "number" &&
    Number.isFinite(value) &&
    (!integer || Number.isSafeInteger(value)) &&
    (minInclusive ? value >= min : value > min) &&
    (maxInclusive ? value <= max : value < max);
}

/** An array's length bounds, or `undefined` when one of its checks is not modelled. */
function lengthBounds(def: Def): { min: number; max: number } | undefined {
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  for (const check of def.checks ?? []) {
    // A length check's `when` (run only on values with a length) holds for every array.
    const c = check._zod.def;
    if (c.check === "min_length" && typeof c.minimum === "number") min = Math.max(min, c.minimum);
    else if (c.check === "max_length" && typeof c.maximum === "number") max = Math.min(max, c.maximum);
    else return undefined;
  }
  return { min, max };
}

function objectAccepts(def: Def, build: (schema: z.ZodType) => Accepts): Accepts | undefined {
  const catchall = def.catchall as z.ZodType | undefined;
  if (catchall !== undefined && defOf(catchall).type !== "unknown") return undefined;
  const shape = def.shape as Record<string, z.ZodType>;
  const keys = Object.keys(shape);
  const checks = keys.map((key) => build(shape[key] as z.ZodType));
  const present = keys.map((key) => needsPresence(shape[key] as z.ZodType));
  const count = keys.length;
  return (value) => {
    if (!isObject(value)) return false;
    for (let at = 0; at < count; at++) {
      const key = keys[at] as string;
      if (present[at] === true && !(key in value)) return false;
      if (!(checks[at] as Accepts)(value[key])) return false;
    }
    return true;
  };
}

function recordAccepts(def: Def, build: (schema: z.ZodType) => Accepts): Accepts | undefined {
  const key = defOf(def.keyType as z.ZodType);
  if (key.type !== "string" || (key.checks?.length ?? 0) > 0) return undefined;
  const item = build(def.valueType as z.ZodType);
  return (value) => {
    if (!isObject(value)) return false;
    if (!plain(value)) return false;
    for (const name of Reflect.ownKeys(value)) {
      if (typeof name !== "string") return false;
      if (!item(value[name])) return false;
    }
    return true;
  };
}

/** The walker's check for one schema node, or `undefined` where it does not model the node. */
function modelled(schema: z.ZodType, build: (schema: z.ZodType) => Accepts): Accepts | undefined {
  const open = openUnions.get(schema);
  if (open !== undefined) {
    const known = build(open.known);
    return (value) =>
      isObject(value) && typeof value.type === "string" && (!open.names.has(value.type) || known(value));
  }
  const refinement = refinements.get(schema);
  if (refinement !== undefined) {
    const base = build(refinement.base);
    const holds = refinement.holds;
    return (value) => base(value) && holds(value);
  }
  const def = defOf(schema);
  const checked = (def.checks?.length ?? 0) > 0;
  switch (def.type) {
    case "unknown":
    case "any":
      return checked ? undefined : () => true;
    case "string":
      return checked ? undefined : (value) => typeof value === "string";
    case "boolean":
      return checked ? undefined : (value) => typeof value === "boolean";
    case "number":
      return numberChecks(def);
    case "literal":
    case "enum": {
      const values =
        def.type === "literal" ? (def.values as unknown[]) : Object.values(def.entries as object);
      if (checked || !values.every((entry) => typeof entry === "string")) return undefined;
      const set = new Set(values);
      return (value) => typeof value === "string" && set.has(value);
    }
    case "optional": {
      if (checked) return undefined;
      const inner = build(def.innerType as z.ZodType);
      return (value) => value === undefined || inner(value);
    }
    case "nullable": {
      if (checked) return undefined;
      const inner = build(def.innerType as z.ZodType);
      return (value) => value === null || inner(value);
    }
    case "array": {
      const bounds = lengthBounds(def);
      if (bounds === undefined) return undefined;
      const item = build(def.element as z.ZodType);
      const { min, max } = bounds;
      return (value) => {
        if (!Array.isArray(value) || value.length < min || value.length > max) return false;
        for (let at = 0; at < value.length; at++) if (!item(value[at])) return false;
        return true;
      };
    }
    case "object":
      return checked ? undefined : objectAccepts(def, build);
    case "record":
      return checked ? undefined : recordAccepts(def, build);
    case "union": {
      // A discriminated union's options carry distinct literal tags, so "some option accepts" is its set too.
      const tagged = def.discriminator !== undefined;
      if (checked || (!tagged && def.inclusive === false)) return undefined;
      const options = (def.options as z.ZodType[]).map(build);
      return (value) => {
        for (const option of options) if (option(value)) return true;
        return false;
      };
    }
    default:
      return undefined;
  }
}

/** A generated check's pieces: hoisted functions, and the constants they call. */
type Unit = {
  readonly functions: string[];
  readonly constants: unknown[];
  readonly names: Map<z.ZodType, string>;
  locals: number;
};

/** How many times each schema node is reached from the root: a node reached twice becomes one function. */
function uses(schema: z.ZodType, counts: Map<z.ZodType, number>): void {
  const seen = counts.get(schema) ?? 0;
  counts.set(schema, seen + 1);
  if (seen > 0 || openUnions.has(schema)) return;
  const refinement = refinements.get(schema);
  if (refinement !== undefined) {
    uses(refinement.base, counts);
    return;
  }
  const def = defOf(schema);
  const children: unknown[] =
    def.type === "object"
      ? Object.values(def.shape as object)
      : def.type === "union"
        ? (def.options as unknown[])
        : [def.innerType, def.element, def.valueType];
  for (const child of children) if (child !== undefined) uses(child as z.ZodType, counts);
}

/**
 * Statements that `return false` unless the value in `name` passes `schema`, with literal property
 * names (monomorphic loads) and no closures or output; a node the generator does not inline is called
 * as a constant (the closure walker's check).
 */
function emit(
  schema: z.ZodType,
  name: string,
  unit: Unit,
  counts: Map<z.ZodType, number>,
  hoist: boolean,
): string {
  if (hoist || (counts.get(schema) ?? 0) > 1)
    return `if (!${hoisted(schema, unit, counts)}(${name})) return false;`;
  return inline(schema, name, unit, counts);
}

/** The name of a function (generated once) that checks `schema`. */
function hoisted(schema: z.ZodType, unit: Unit, counts: Map<z.ZodType, number>): string {
  const own = unit.names.get(schema);
  if (own !== undefined) return own;
  const fn = `f${unit.names.size}`;
  unit.names.set(schema, fn);
  unit.functions.push(`function ${fn}(v) {\n${inline(schema, "v", unit, counts)}\nreturn true;\n}`);
  return fn;
}

function inline(schema: z.ZodType, name: string, unit: Unit, counts: Map<z.ZodType, number>): string {
  const local = (): string => `x${unit.locals++}`;
  const constant = (): string => {
    unit.constants.push(accepts(schema));
    return `if (!c${unit.constants.length - 1}(${name})) return false;`;
  };
  const open = openUnions.get(schema);
  if (open !== undefined) {
    const tag = local();
    const cases = openCases(open.known, open.names);
    if (cases !== undefined) {
      // One switch on the tag: a known name is checked by its option (or refused where the known
      // union has none for it, as its own switch would); any other name is accepted.
      const lines = [
        `if (typeof ${name} !== "object" || ${name} === null || Array.isArray(${name})) return false;`,
        `const ${tag} = ${name}.type;`,
        `if (typeof ${tag} !== "string") return false;`,
        `switch (${tag}) {`,
      ];
      for (const [value, option] of cases)
        lines.push(
          option === undefined
            ? `case ${JSON.stringify(value)}: return false;`
            : `case ${JSON.stringify(value)}: if (!${hoisted(option, unit, counts)}(${name})) return false; break;`,
        );
      lines.push("}");
      return lines.join("\n");
    }
    unit.constants.push(open.names);
    const names = `c${unit.constants.length - 1}`;
    return [
      `if (typeof ${name} !== "object" || ${name} === null || Array.isArray(${name})) return false;`,
      `const ${tag} = ${name}.type;`,
      `if (typeof ${tag} !== "string") return false;`,
      `if (${names}.has(${tag}) && !${hoisted(open.known, unit, counts)}(${name})) return false;`,
    ].join("\n");
  }
  const refinement = refinements.get(schema);
  if (refinement !== undefined) {
    const base = emit(refinement.base, name, unit, counts, false);
    unit.constants.push(refinement.holds);
    return `${base}\nif (!c${unit.constants.length - 1}(${name})) return false;`;
  }
  const def = defOf(schema);
  const checked = (def.checks?.length ?? 0) > 0;
  switch (def.type) {
    case "unknown":
    case "any":
      return checked ? constant() : "";
    case "string":
      return checked ? constant() : `if (typeof ${name} !== "string") return false;`;
    case "boolean":
      return checked ? constant() : `if (typeof ${name} !== "boolean") return false;`;
    case "literal":
    case "enum": {
      const values =
        def.type === "literal" ? (def.values as unknown[]) : Object.values(def.entries as object);
      if (
        checked ||
        values.length === 0 ||
        values.length > 8 ||
        !values.every((entry) => typeof entry === "string")
      )
        return constant();
      return `if (${values.map((entry) => `${name} !== ${JSON.stringify(entry)}`).join(" && ")}) return false;`;
    }
    case "number": {
      const bounds = numberBounds(def);
      if (bounds === undefined) return constant();
      const tests = [`typeof ${name} !== "number"`, `!Number.isFinite(${name})`];
      if (bounds.integer) tests.push(`!Number.isSafeInteger(${name})`);
      if (bounds.min !== Number.NEGATIVE_INFINITY)
        tests.push(`${name} ${bounds.minInclusive ? "<" : "<="} ${bounds.min}`);
      if (bounds.max !== Number.POSITIVE_INFINITY)
        tests.push(`${name} ${bounds.maxInclusive ? ">" : ">="} ${bounds.max}`);
      return `if (${tests.join(" || ")}) return false;`;
    }
    case "optional":
    case "nullable": {
      if (checked) return constant();
      const skip = def.type === "optional" ? "undefined" : "null";
      return `if (${name} !== ${skip}) {\n${emit(def.innerType as z.ZodType, name, unit, counts, false)}\n}`;
    }
    case "object": {
      const catchall = def.catchall as z.ZodType | undefined;
      if (checked || (catchall !== undefined && defOf(catchall).type !== "unknown")) return constant();
      const lines = [
        `if (typeof ${name} !== "object" || ${name} === null || Array.isArray(${name})) return false;`,
      ];
      for (const [key, child] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        if (needsPresence(child)) lines.push(`if (!(${JSON.stringify(key)} in ${name})) return false;`);
        if (trivial(child)) continue;
        const field = local();
        lines.push(
          `const ${field} = ${name}[${JSON.stringify(key)}];`,
          emit(child, field, unit, counts, false),
        );
      }
      return lines.join("\n");
    }
    case "array": {
      const bounds = lengthBounds(def);
      if (bounds === undefined) return constant();
      const index = local();
      const lines = [`if (!Array.isArray(${name})) return false;`];
      if (bounds.min > 0) lines.push(`if (${name}.length < ${bounds.min}) return false;`);
      if (bounds.max !== Number.POSITIVE_INFINITY)
        lines.push(`if (${name}.length > ${bounds.max}) return false;`);
      const element = def.element as z.ZodType;
      if (!trivial(element)) {
        const item = local();
        lines.push(
          `for (let ${index} = 0; ${index} < ${name}.length; ${index}++) {`,
          `const ${item} = ${name}[${index}];`,
          emit(element, item, unit, counts, defOf(element).type === "object"),
          "}",
        );
      }
      return lines.join("\n");
    }
    case "record": {
      const key = defOf(def.keyType as z.ZodType);
      if (checked || key.type !== "string" || (key.checks?.length ?? 0) > 0) return constant();
      const ctor = local();
      const lines = [
        `if (typeof ${name} !== "object" || ${name} === null || Array.isArray(${name})) return false;`,
        `const ${ctor} = ${name}.constructor;`,
        `if (typeof ${ctor} === "function" && ${ctor} !== Object) return false;`,
        `if (Object.getOwnPropertySymbols(${name}).length > 0) return false;`,
      ];
      const value = def.valueType as z.ZodType;
      if (!trivial(value)) {
        // for-in reaches every own enumerable string key (and inherited ones: a stricter check).
        const key = local();
        const item = local();
        lines.push(
          `for (const ${key} in ${name}) {`,
          `const ${item} = ${name}[${key}];`,
          emit(value, item, unit, counts, false),
          "}",
        );
      }
      return lines.join("\n");
    }
    case "union": {
      const tagged = def.discriminator !== undefined;
      if (checked || (!tagged && def.inclusive === false)) return constant();
      const cases = tagged ? tagCases(def) : undefined;
      if (cases !== undefined) {
        // The option whose tag matches is the only one zod tries; no match here is zod's to judge.
        const tag = local();
        const lines = [
          `if (typeof ${name} !== "object" || ${name} === null || Array.isArray(${name})) return false;`,
          `const ${tag} = ${name}[${JSON.stringify(def.discriminator)}];`,
          `switch (${tag}) {`,
        ];
        for (const [value, option] of cases)
          lines.push(
            `case ${JSON.stringify(value)}: if (!${hoisted(option, unit, counts)}(${name})) return false; break;`,
          );
        lines.push("default: return false;", "}");
        return lines.join("\n");
      }
      const options = (def.options as z.ZodType[]).map(
        (option) => `${hoisted(option, unit, counts)}(${name})`,
      );
      return `if (!(${options.join(" || ")})) return false;`;
    }
    default:
      return constant();
  }
}

/** A tagged union's options by their one string tag each, or `undefined` when an option has another tag. */
function tagCases(def: Def): [string, z.ZodType][] | undefined {
  const cases: [string, z.ZodType][] = [];
  const seen = new Set<string>();
  for (const option of def.options as z.ZodType[]) {
    const optionDef = defOf(option);
    if (optionDef.type !== "object" || openUnions.has(option)) return undefined;
    const tag = (optionDef.shape as Record<string, z.ZodType>)[def.discriminator as string];
    if (tag === undefined) return undefined;
    const tagDef = defOf(tag);
    const values = tagDef.values as unknown[] | undefined;
    if (tagDef.type !== "literal" || (tagDef.checks?.length ?? 0) > 0 || values?.length !== 1)
      return undefined;
    const value = values[0];
    if (typeof value !== "string" || seen.has(value)) return undefined;
    seen.add(value);
    cases.push([value, option]);
  }
  return cases;
}

/**
 * An open union's known names with the option of `known` (a union tagged by `type`) that checks each,
 * `undefined` for a name no option is tagged with; `undefined` when `known` is not such a union.
 */
function openCases(
  known: z.ZodType,
  names: ReadonlySet<string>,
): [string, z.ZodType | undefined][] | undefined {
  if (openUnions.has(known) || refinements.has(known)) return undefined;
  const def = defOf(known);
  if (def.type !== "union" || def.discriminator !== "type" || (def.checks?.length ?? 0) > 0) return undefined;
  const tagged = tagCases(def);
  if (tagged === undefined) return undefined;
  const options = new Map(tagged);
  return [...names].map((value): [string, z.ZodType | undefined] => [value, options.get(value)]);
}

/** A node that accepts every value (no statements to emit). */
function trivial(schema: z.ZodType): boolean {
  if (openUnions.has(schema)) return false;
  const def = defOf(schema);
  if ((def.checks?.length ?? 0) > 0) return false;
  if (def.type === "unknown" || def.type === "any") return true;
  return def.type === "optional" && trivial(def.innerType as z.ZodType);
}

/** `accepts` as generated code where the runtime allows `new Function`; `undefined` where it does not. */
function generated(schema: z.ZodType): Accepts | undefined {
  if (!canCompile()) return undefined;
  const counts = new Map<z.ZodType, number>();
  uses(schema, counts);
  const unit: Unit = { functions: [], constants: [], names: new Map(), locals: 0 };
  const body = emit(schema, "input", unit, counts, false);
  const constants = unit.constants.map((_, at) => `c${at}`);
  const code = `${unit.functions.join("\n")}\nreturn (input) => {\n${body}\nreturn true;\n};`;
  try {
    const factory = new Function(...constants, code) as (...values: unknown[]) => Accepts;
    return factory(...unit.constants);
  } catch {
    return undefined;
  }
}

const roots = new WeakMap<z.ZodType, Accepts>();

/** `accepts` for a root schema: generated code where allowed, else the closure walker. */
export function acceptsRoot(schema: z.ZodType): Accepts {
  let check = roots.get(schema);
  if (check === undefined) {
    check = generated(schema) ?? accepts(schema);
    roots.set(schema, check);
  }
  return check;
}
const built = new WeakMap<z.ZodType, Accepts>();

/**
 * A check of `schema` made of plain closures, with no output built and no generated code: it answers
 * `true` only where `schema` accepts the value (the subset of zod it models — loose objects, optional,
 * nullable, strings, finite numbers with integer and range checks, booleans, string literals and enums,
 * arrays with length bounds, string-keyed records, unions — is checked as zod checks it; any other
 * subtree is handed to zod itself). A `false` is only a "not shown here": callers ask zod for the verdict.
 */
export function accepts(schema: z.ZodType): Accepts {
  const cached = built.get(schema);
  if (cached !== undefined) return cached;
  // The schemas are acyclic (no z.lazy), so building depth is bounded by the schema, not by input.
  const check = modelled(schema, accepts) ?? delegate(schema);
  built.set(schema, check);
  return check;
}
