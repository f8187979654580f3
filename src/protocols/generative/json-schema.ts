/**
 * JSON Schema ⇄ the generative `Schema` (an OpenAPI 3.0 subset): one converter for function
 * parameters and `responseSchema`, with local `$ref` inlining and a keyword allow-list, and
 * its inverse for decoding. Every keyword the target cannot take is a loss.
 * @see https://ai.google.dev/api/caching#Schema
 */
import { isObject, type JsonObject } from "../../common/json";
import { at, resolvePointer } from "../../common/pointer";

/**
 * What the subset would not say of a schema: where, and dropped or approximated. Not a translation loss:
 * such a schema goes whole as JSON Schema instead (`exactSubset`), so nothing is lost.
 */
export type Unsaid = {
  readonly path: string;
  readonly how: "dropped" | "approximated";
  readonly message: string;
};

const note = (path: string, how: Unsaid["how"], message: string): Unsaid => ({ path, how, message });

/** Nesting deeper than this is not converted: the schema is sent raw as JSON Schema instead. */
export const MAX_SCHEMA_DEPTH = 64;

/** Kept as they are (the documented allow-list; `type`, `format`, `enum`, `anyOf` ... are rewritten below). */
const KEPT = new Set([
  "title",
  "description",
  "nullable",
  "pattern",
  "example",
  "default",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "minProperties",
  "maxProperties",
  "propertyOrdering",
]);
const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array"]);
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ["enum", "date-time"],
  number: ["float", "double"],
  integer: ["int32", "int64"],
};

/** Thrown inside the converter when a schema cannot be expressed structurally (cyclic or foreign refs, depth). */
class Unconvertible {
  constructor(readonly reason: string) {}
}

export type SchemaConversion = {
  /** The generative Schema, or `undefined` when `raw` is set. */
  readonly schema: JsonObject | undefined;
  /** True when the schema must travel as raw JSON Schema (`parametersJsonSchema` / `responseJsonSchema`). */
  readonly raw: boolean;
  readonly losses: Unsaid[];
};

/**
 * JSON Schema → generative Schema. Local refs are inlined; a schema with a recursive or non-local
 * `$ref`, a `false` schema, or nesting beyond {@link MAX_SCHEMA_DEPTH} cannot be expressed, so the
 * caller sends it unchanged as raw JSON Schema instead (`raw: true`, no loss: nothing is dropped).
 * @example
 * toGenerativeSchema({ type: ["string", "null"], format: "uri" }, "/p").schema
 * // => { type: "string", nullable: true }   (losses: /p/format dropped)
 */
export function toGenerativeSchema(input: unknown, source: string): SchemaConversion {
  const losses: Unsaid[] = [];
  try {
    const schema = convert(input, source, { root: input, rootSource: source, refs: [], losses }, 0);
    // An empty root is "no parameters" (a parameter-less tool); any other needs its type as a member does.
    if (Object.keys(schema).length > 0 && !isTyped(schema)) throw new Unconvertible("no type");
    return { schema, raw: false, losses: uniqueByPath(losses) };
  } catch (error) {
    if (error instanceof Unconvertible) return { schema: undefined, raw: true, losses: [] };
    throw error;
  }
}

/**
 * `schema` in the generative Schema subset when the subset says all of it — nothing dropped or
 * rewritten with a loss, every node typed (Gemini requires `type` there) — else `undefined`: the schema
 * then goes unchanged as JSON Schema (`parametersJsonSchema`, `responseJsonSchema`), which Gemini takes
 * whole. The subset form is kept where it suffices: every Gemini surface (Vertex, Live) reads it.
 */
export function exactSubset(schema: unknown, source: string): JsonObject | undefined {
  const converted = toGenerativeSchema(schema, source);
  if (converted.raw || converted.schema === undefined || converted.losses.length > 0) return undefined;
  return typedEverywhere(converted.schema, 0) ? converted.schema : undefined;
}

function typedEverywhere(node: JsonObject, depth: number): boolean {
  if (depth > MAX_SCHEMA_DEPTH) return false;
  if (node.type === undefined && !Array.isArray(node.anyOf)) return false;
  if (isObject(node.properties))
    for (const member of Object.values(node.properties))
      if (!isObject(member) || !typedEverywhere(member, depth + 1)) return false;
  if (isObject(node.items) && !typedEverywhere(node.items, depth + 1)) return false;
  if (Array.isArray(node.anyOf))
    for (const member of node.anyOf)
      if (!isObject(member) || !typedEverywhere(member, depth + 1)) return false;
  return true;
}

/** A `$ref` target used twice reports its losses once. */
function uniqueByPath(losses: readonly Unsaid[]): Unsaid[] {
  const seen = new Set<string>();
  const unique: Unsaid[] = [];
  for (const entry of losses) {
    if (seen.has(entry.path)) continue;
    seen.add(entry.path);
    unique.push(entry);
  }
  return unique;
}

/** `node` without its keys set to `undefined`: `node` itself (built by the converter) when it has none. */
function withoutUndefined(node: JsonObject): JsonObject {
  for (const key in node) {
    if (node[key] === undefined)
      return Object.fromEntries(Object.entries(node).filter(([, value]) => value !== undefined));
  }
  return node;
}

type Context = { root: unknown; rootSource: string; refs: readonly string[]; losses: Unsaid[] };

/**
 * A converted node with the `type` generative's Schema requires: given, or `anyOf` instead (Gemini: a
 * type "must be specified when not using one_of or any_of"), or told by `properties` / `items`.
 * @see https://ai.google.dev/api/caching#Schema
 */
function isTyped(node: JsonObject): boolean {
  if (node.type !== undefined || node.anyOf !== undefined) return true;
  if (isObject(node.properties)) node.type = "object";
  else if (node.items !== undefined) node.type = "array";
  return node.type !== undefined;
}

/**
 * A member schema: converted, and typed. A member of any type (`true`, `{}`, a description alone) has
 * no generative form: the whole schema travels as JSON Schema instead, which Gemini takes.
 */
function member(node: unknown, path: string, context: Context, depth: number): JsonObject {
  const converted = convert(node, path, context, depth);
  if (!isTyped(converted)) throw new Unconvertible("a member of any type");
  return converted;
}

/** One schema node as it is converted: the generative node, its `anyOf` members, whether `null` is allowed, the given types. */
type Draft = {
  readonly out: JsonObject;
  readonly members: JsonObject[];
  nullable: boolean;
  typeList: string[] | undefined;
};

/** A JSON Schema node → a generative Schema node: keyword by keyword, then its types, members and format. */
function convert(node: unknown, path: string, context: Context, depth: number): JsonObject {
  if (depth > MAX_SCHEMA_DEPTH) throw new Unconvertible("too deep");
  if (node === true) return {};
  if (!isObject(node)) throw new Unconvertible("not a schema object");
  const ref = node.$ref;
  if (ref !== undefined) return inlineRef(node, ref, path, context, depth);

  const draft: Draft = { out: {}, members: [], nullable: false, typeList: undefined };
  for (const [key, value] of Object.entries(node))
    convertKeyword(draft, node, key, value, at(path, key), context, depth);
  if (draft.typeList !== undefined) applyTypeList(draft, draft.typeList, path, context);
  applyMembers(draft, path, context);
  if (draft.nullable) draft.out.nullable = true;
  return checkedFormat(draft.out, node.format, path, context);
}

/** One keyword of `node` into `draft`, by its own handler; a keyword generative cannot take is a note. */
function convertKeyword(
  draft: Draft,
  node: JsonObject,
  key: string,
  value: unknown,
  here: string,
  context: Context,
  depth: number,
): void {
  switch (key) {
    case "type":
      draft.typeList = typeListOf(value, here, context);
      return;
    case "properties":
      convertProperties(draft.out, value, here, context, depth);
      return;
    case "items":
      convertItems(draft.out, value, here, context, depth);
      return;
    case "required":
      if (Array.isArray(value)) draft.out.required = value.filter((entry) => typeof entry === "string");
      return;
    case "anyOf":
    case "oneOf":
      convertAlternatives(draft, key, value, here, context, depth);
      return;
    case "allOf":
      convertAllOf(draft.out, value, here, context, depth);
      return;
    case "enum":
    case "const":
      convertEnumOrConst(draft, node, key, value, here, context);
      return;
    case "format":
      if (typeof value === "string" && draft.out.format === undefined) draft.out.format = value;
      return;
    case "nullable":
      if (value === true) draft.nullable = true;
      return;
    case "$defs":
    case "definitions":
      return; // inlined where referenced
    case "additionalProperties":
      context.losses.push(additionalPropertiesNote(value, here));
      return;
    default:
      keepOrDrop(draft.out, key, value, here, context);
  }
}

/** `type`: a name or a list of names (applied after all keywords); anything else is dropped. */
function typeListOf(value: unknown, here: string, context: Context): string[] | undefined {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((entry) => typeof entry === "string")) return value;
  context.losses.push(note(here, "dropped", "A `type` that is not a string or list of strings was dropped."));
  return undefined;
}

/** `properties`: each one a typed member schema; an empty map is left out. */
function convertProperties(
  out: JsonObject,
  value: unknown,
  here: string,
  context: Context,
  depth: number,
): void {
  if (!isObject(value)) return;
  const entries = Object.entries(value).map(
    ([name, sub]) => [name, member(sub, at(here, name), context, depth + 1)] as const,
  );
  if (entries.length > 0) out.properties = Object.fromEntries(entries);
}

/** `items`: one typed member schema; tuple `items` (a list) are dropped. */
function convertItems(out: JsonObject, value: unknown, here: string, context: Context, depth: number): void {
  if (isObject(value) || value === true) out.items = member(value, here, context, depth + 1);
  else
    context.losses.push(
      note(here, "dropped", "Tuple `items` have no generative equivalent and were dropped."),
    );
}

/**
 * `anyOf` / `oneOf`: a `{type: "null"}` member makes the node nullable, the others become `anyOf`
 * members; `oneOf` is approximated as `anyOf`.
 */
function convertAlternatives(
  draft: Draft,
  key: "anyOf" | "oneOf",
  value: unknown,
  here: string,
  context: Context,
  depth: number,
): void {
  if (!Array.isArray(value)) return;
  value.forEach((member, index) => {
    if (isObject(member) && member.type === "null" && Object.keys(member).length === 1) draft.nullable = true;
    else draft.members.push(convert(member, at(here, index), context, depth + 1));
  });
  if (key === "oneOf") {
    context.losses.push(
      note(
        here,
        "approximated",
        "`oneOf` was sent as `anyOf`: generative does not check that only one member matches.",
      ),
    );
  }
}

/** `allOf`: its members merged into the node, approximated. */
function convertAllOf(out: JsonObject, value: unknown, here: string, context: Context, depth: number): void {
  if (!Array.isArray(value)) return;
  for (const [index, member] of value.entries())
    mergeInto(out, convert(member, at(here, index), context, depth + 1));
  context.losses.push(note(here, "approximated", "`allOf` members were merged into one schema."));
}

/** `enum` / `const` (a one-value enum): string values; a `null` value makes the node nullable; `const` beside `enum` is dropped. */
function convertEnumOrConst(
  draft: Draft,
  node: JsonObject,
  key: "enum" | "const",
  value: unknown,
  here: string,
  context: Context,
): void {
  if (key === "const" && node.enum !== undefined) {
    context.losses.push(note(here, "dropped", "`const` beside `enum` was dropped."));
    return;
  }
  draft.nullable = encodeEnum(key === "const" ? [value] : value, here, draft.out, context) || draft.nullable;
}

/** `additionalProperties`: `false` is dropped; a map's value schema is dropped, the map kept as an object. */
function additionalPropertiesNote(value: unknown, here: string): Unsaid {
  return value === false
    ? note(here, "dropped", "`additionalProperties: false` has no generative equivalent and was dropped.")
    : note(
        here,
        "approximated",
        "A map (`additionalProperties`) became a plain object: its values' schema was dropped.",
      );
}

/** Any other keyword: kept when on the allow-list, else dropped. */
function keepOrDrop(out: JsonObject, key: string, value: unknown, here: string, context: Context): void {
  if (KEPT.has(key)) out[key] = value;
  else
    context.losses.push(
      note(
        here,
        "dropped",
        `The JSON Schema keyword \`${key}\` is not supported by generative and was dropped.`,
      ),
    );
}

/**
 * The given types: one JSON type is the node's `type`, several become `anyOf` members before the
 * others, `null` makes the node nullable; a type generative cannot express is dropped.
 */
function applyTypeList(draft: Draft, typeList: string[], path: string, context: Context): void {
  const types = typeList.filter((type) => JSON_TYPES.has(type));
  if (typeList.includes("null")) draft.nullable = true;
  if (types.length === 1) draft.out.type = types[0];
  else if (types.length > 1) draft.members.unshift(...types.map((type) => ({ type })));
  if (types.length === 0 || types.length !== typeList.filter((type) => type !== "null").length) {
    context.losses.push(
      note(
        `${path}/type`,
        "dropped",
        "A type generative cannot express (`null` alone or unknown) was dropped.",
      ),
    );
  }
}

/**
 * The `anyOf` members: one member is merged into the node (its own keywords win), several become
 * `anyOf` (a `type` beside them is dropped; each member must be typed).
 */
function applyMembers(draft: Draft, path: string, context: Context): void {
  const { out, members } = draft;
  if (members.length === 1) {
    const [only] = members;
    for (const [key, value] of Object.entries(only ?? {})) if (out[key] === undefined) out[key] = value;
  } else if (members.length > 1) {
    if (out.type !== undefined) {
      context.losses.push(
        note(
          `${path}/type`,
          "approximated",
          "`type` beside `anyOf` was dropped: generative takes one or the other.",
        ),
      );
      out.type = undefined;
    }
    if (!members.every(isTyped)) throw new Unconvertible("a member of any type");
    out.anyOf = members;
  }
}

/** The node, its given `format` dropped when generative does not allow it for the node's type. */
function checkedFormat(out: JsonObject, format: unknown, path: string, context: Context): JsonObject {
  if (typeof format === "string" && out.format === format) {
    const allowed = typeof out.type === "string" ? FORMATS[out.type] : undefined;
    if (allowed === undefined || !allowed.includes(format)) {
      context.losses.push(
        note(
          `${path}/format`,
          "dropped",
          `The format "${format}" is not supported by generative and was dropped.`,
        ),
      );
      return withoutUndefined({ ...out, format: undefined });
    }
  }
  return withoutUndefined(out);
}

/** Stringifies enum values (generative enums are strings) and returns whether `null` was among them. */
function encodeEnum(value: unknown, path: string, out: JsonObject, context: Context): boolean {
  if (!Array.isArray(value)) return false;
  const values = value.filter((entry) => entry !== null);
  const kinds = new Set(values.map((entry) => typeof entry));
  if (
    kinds.size > 1 ||
    (kinds.size === 1 && !["string", "number", "boolean"].includes([...kinds][0] ?? ""))
  ) {
    context.losses.push(
      note(
        path,
        "dropped",
        "An enum of mixed or non-scalar values has no generative equivalent and was dropped.",
      ),
    );
    return false;
  }
  out.enum = values.map((entry) => String(entry));
  if (!kinds.has("string") && values.length > 0) {
    out.format = "enum"; // non-string enums travel as strings with format "enum" (wins over a given format)
    if (out.type === undefined) out.type = kinds.has("boolean") ? "boolean" : "number";
  }
  return values.length !== value.length;
}

function inlineRef(
  node: JsonObject,
  ref: unknown,
  path: string,
  context: Context,
  depth: number,
): JsonObject {
  if (typeof ref !== "string" || !ref.startsWith("#")) throw new Unconvertible("non-local $ref");
  if (context.refs.includes(ref)) throw new Unconvertible("recursive $ref");
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    throw new Unconvertible("malformed $ref");
  }
  const target = resolvePointer(context.root, pointer);
  if (!target.found) throw new Unconvertible("unresolved $ref");
  const inner = { ...context, refs: [...context.refs, ref] };
  const resolved = convert(target.value, context.rootSource + pointer, inner, depth + 1);
  const siblings = Object.fromEntries(Object.entries(node).filter(([key]) => key !== "$ref"));
  const own = Object.keys(siblings).length > 0 ? convert(siblings, path, inner, depth + 1) : {};
  return { ...resolved, ...own };
}

function mergeInto(out: JsonObject, member: JsonObject): void {
  for (const [key, value] of Object.entries(member)) {
    if (key === "properties" && isObject(value)) {
      out.properties = { ...(isObject(out.properties) ? out.properties : {}), ...value };
    } else if (key === "required" && Array.isArray(value)) {
      const before = Array.isArray(out.required) ? out.required : [];
      out.required = [...before, ...value.filter((name) => !before.includes(name))];
    } else if (out[key] === undefined) {
      out[key] = value;
    }
  }
}

// ─── Inverse ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Generative Schema → JSON Schema: upper-case types become lower case, `nullable` becomes a `null`
 * type member, `format: "enum"` is removed (numeric enum values become numbers again).
 * @example
 * fromGenerativeSchema({ type: "OBJECT", properties: { a: { type: "STRING", nullable: true } } })
 * // => { type: "object", properties: { a: { type: ["string", "null"] } } }
 */
export function fromGenerativeSchema(input: unknown): JsonObject {
  return isObject(input) ? invert(input, 0) : {};
}

function invert(node: JsonObject, depth: number): JsonObject {
  if (depth > MAX_SCHEMA_DEPTH) return node;
  const out: JsonObject = {};
  let type: string | undefined;
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case "type":
        if (typeof value === "string" && value !== "TYPE_UNSPECIFIED") type = value.toLowerCase();
        break;
      case "nullable":
      case "format":
        break; // handled below
      case "properties":
        out.properties = isObject(value)
          ? Object.fromEntries(
              Object.entries(value).map(
                ([name, sub]) => [name, isObject(sub) ? invert(sub, depth + 1) : sub] as const,
              ),
            )
          : value;
        break;
      case "items":
        out.items = isObject(value) ? invert(value, depth + 1) : value;
        break;
      case "anyOf":
        out.anyOf = Array.isArray(value)
          ? value.map((member) => (isObject(member) ? invert(member, depth + 1) : member))
          : value;
        break;
      default:
        out[key] = value;
    }
  }
  const format = node.format;
  if (typeof format === "string" && format !== "enum") out.format = format;
  if (format === "enum" && Array.isArray(out.enum) && (type === "integer" || type === "number")) {
    const numbers = out.enum.map((entry) =>
      typeof entry === "string" && entry.trim() !== "" ? Number(entry) : Number.NaN,
    );
    if (numbers.every((entry) => Number.isFinite(entry))) out.enum = numbers;
  }
  if (format === "enum" && Array.isArray(out.enum) && type === "boolean") {
    out.enum = out.enum.map((entry) => (entry === "true" ? true : entry === "false" ? false : entry));
  }
  if (node.nullable === true) {
    if (type !== undefined) out.type = [type, "null"];
    else if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: "null" }];
  } else if (type !== undefined) {
    out.type = type;
  }
  return out;
}

const TYPE_NAMES = new Set(["OBJECT", "STRING", "INTEGER", "NUMBER", "BOOLEAN", "ARRAY", "NULL"]);
/** Keywords whose value is a schema. */
const SCHEMA_KEYS = new Set(["items", "additionalProperties", "not", "if", "then", "else", "contains"]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);

const lowerName = (name: unknown): unknown =>
  typeof name === "string" && TYPE_NAMES.has(name) ? name.toLowerCase() : name;

/**
 * A JSON Schema with the OpenAPI type names Gemini also takes (`OBJECT`, `STRING` …, as Gemini CLI
 * writes its `responseJsonSchema`) in JSON Schema's lower case, which every other protocol requires; the
 * same schema (the same object) when it has none.
 * @example
 * lowerTypeNames({ type: "OBJECT", properties: { a: { type: ["STRING", "NULL"] } } })
 * // => { type: "object", properties: { a: { type: ["string", "null"] } } }
 */
export function lowerTypeNames(schema: JsonObject, depth = 0): JsonObject {
  if (depth > MAX_SCHEMA_DEPTH) return schema;
  let out: JsonObject | undefined;
  const set = (key: string, value: unknown): void => {
    out ??= { ...schema };
    out[key] = value;
  };
  for (const key in schema) {
    if (!Object.hasOwn(schema, key)) continue;
    const value = schema[key];
    if (key === "type") {
      if (typeof value === "string" && TYPE_NAMES.has(value)) set(key, value.toLowerCase());
      else if (Array.isArray(value) && value.some((name) => lowerName(name) !== name))
        set(key, value.map(lowerName));
    } else if (SCHEMA_KEYS.has(key) && isObject(value)) {
      const lowered = lowerTypeNames(value, depth + 1);
      if (lowered !== value) set(key, lowered);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      const lowered = value.map((member) => (isObject(member) ? lowerTypeNames(member, depth + 1) : member));
      if (lowered.some((member, index) => member !== value[index])) set(key, lowered);
    } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      let map: JsonObject | undefined;
      for (const name in value) {
        const member = value[name];
        if (!Object.hasOwn(value, name) || !isObject(member)) continue;
        const lowered = lowerTypeNames(member, depth + 1);
        if (lowered === member) continue;
        map ??= { ...value };
        map[name] = lowered;
      }
      if (map !== undefined) set(key, map);
    }
  }
  return out ?? schema;
}
