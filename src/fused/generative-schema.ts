/**
 * A tool's JSON Schema as the generative function declaration's `parameters`, for the plain schemas
 * the hub's converter (protocols/generative/json-schema.ts) maps without a loss: `type` (one JSON
 * type), `properties`, `items`, `required` (names), `enum` (strings) and the keywords it keeps as they
 * are, nested at most as deep as it converts, and `additionalProperties` (its loss reported into the
 * caller's list, as the converter reports it). The result is what the converter builds — its keys in
 * the schema's order with `type` last — and then what the declaration takes (nothing for a schema that
 * says only "an object"). Anything else — another keyword, a `$ref`, a `null` type, a format, a
 * non-string enum — is `undefined`, and the path hands the body to the hub.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { at } from "../common/pointer";

/** The converter's depth limit (deeper schemas travel raw). */
const MAX_DEPTH = 64;
const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array"]);
/** The keywords the converter keeps as they are. */
const KEPT = new Set([
  "title",
  "description",
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

type Schema = Record<string, unknown>;

function convert(node: unknown, path: string, depth: number, losses: Loss[]): Schema | undefined {
  if (depth > MAX_DEPTH || !isObject(node)) return undefined;
  const out: Schema = {};
  let type: string | undefined;
  for (const key in node) {
    const value = node[key];
    switch (key) {
      case "type":
        if (typeof value !== "string" || !JSON_TYPES.has(value)) return undefined;
        type = value;
        break;
      case "properties": {
        if (!isObject(value)) return undefined;
        let properties: Schema | undefined;
        for (const name in value) {
          if (name === "__proto__") return undefined;
          const sub = convert(value[name], at(path, "properties", name), depth + 1, losses);
          if (sub === undefined) return undefined;
          properties ??= {};
          properties[name] = sub;
        }
        if (properties !== undefined) out.properties = properties;
        break;
      }
      case "items": {
        const sub = convert(value, `${path}/items`, depth + 1, losses);
        if (sub === undefined) return undefined;
        out.items = sub;
        break;
      }
      case "required":
      case "enum":
        if (!Array.isArray(value)) return undefined;
        for (const entry of value) if (typeof entry !== "string") return undefined;
        out[key] = value.slice();
        break;
      case "additionalProperties":
        // The converter's one loss of a plain schema: generative objects take any property.
        losses.push(
          value === false
            ? loss(
                `${path}/additionalProperties`,
                "dropped",
                "`additionalProperties: false` has no generative equivalent and was dropped.",
              )
            : loss(
                `${path}/additionalProperties`,
                "approximated",
                "A map (`additionalProperties`) became a plain object: its values' schema was dropped.",
              ),
        );
        break;
      default:
        if (!KEPT.has(key) || value === undefined) return undefined;
        out[key] = value;
    }
  }
  if (type !== undefined) out.type = type;
  return out;
}

/**
 * The declaration's `parameters` for a tool's schema at `path`: `null` when it takes none (an object
 * schema with nothing else), the converted schema, or `undefined` for the hub (the losses it reported
 * then count for nothing: the caller drops its result).
 */
export function generativeParameters(
  schema: unknown,
  path: string,
  losses: Loss[],
): Schema | null | undefined {
  const converted = convert(schema, path, 0, losses);
  if (converted === undefined) return undefined;
  let count = 0;
  for (const _ in converted) count++;
  if (count === 0 || (count === 1 && converted.type === "object")) return null;
  return converted.type === undefined && isObject(converted.properties)
    ? { type: "object", ...converted }
    : converted;
}
