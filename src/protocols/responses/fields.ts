/**
 * Field helpers of the responses folder: which values say nothing, the fields of a node outside the
 * ones a converter reads (kept for responses itself, reported as dropped for the others).
 */
import { type Loss, loss } from "../../common/loss";
import { at } from "../../common/pointer";

export type Raw = Record<string, unknown>;

/** A value that says nothing: absent, `null`, `""`, `[]` or `{}` (the API echoes such defaults everywhere). */
export function isBlank(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") {
    for (const key in value) if (Object.hasOwn(value, key)) return false;
    return true;
  }
  return false;
}

/**
 * The fields `keys` of `node` as a new object. Plain assignment is the fast path; a `__proto__` key
 * takes `Object.fromEntries`, which makes it an own field instead of touching the prototype.
 */
export function pick(node: object, keys: readonly string[]): Raw {
  const source = node as Raw;
  const out: Raw = {};
  for (const key of keys) {
    if (key === "__proto__") return Object.fromEntries(keys.map((name) => [name, source[name]]));
    out[key] = source[key];
  }
  return out;
}

/** The own fields of `node` outside `held`, or `undefined` when there are none. */
export function rest(node: object, held: ReadonlySet<string>): Raw | undefined {
  let keys: string[] | undefined;
  for (const key in node) {
    if (held.has(key) || !Object.hasOwn(node, key)) continue;
    if (keys === undefined) keys = [];
    keys.push(key);
  }
  return keys === undefined ? undefined : pick(node, keys);
}

/**
 * The fields of `node` outside `held` (kept whole, for responses itself), each non-blank one reported
 * as dropped unless it is in `silent`. `what` names the node in the message ("a function_call item").
 */
export function keepRest(
  node: object,
  held: ReadonlySet<string>,
  source: string,
  what: string,
  losses: Loss[],
  silent?: ReadonlySet<string>,
): Raw | undefined {
  const kept = rest(node, held);
  if (kept === undefined) return undefined;
  for (const key in kept) {
    if (silent?.has(key) === true || isBlank(kept[key])) continue;
    losses.push(
      loss(
        at(source, key),
        "dropped",
        `\`${key}\` of ${what} has no equivalent in the target and was dropped.`,
      ),
    );
  }
  return kept;
}

/** `value` without `key` (a copy), for shells that hold everything but what a part carries. */
export function without(value: object, keys: readonly string[]): Raw {
  const out: Raw = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key) || keys.includes(key)) continue;
    if (key === "__proto__")
      return Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)));
    out[key] = (value as Raw)[key];
  }
  return out;
}
