/**
 * Open tagged unions, for protocols whose blocks, items or events a vendor keeps adding: a member with
 * a known `type` must match its schema (its own issues are reported, at their paths); any other `type`
 * is accepted as a loose object, so a new kind passes through instead of failing a whole body.
 */
import { z } from "zod/v4";
import { acceptsRoot, registerOpenUnion, registerRefinement } from "./accepts";
import { canCompile, compiled, validates } from "./zod-fast";

/** A member of a kind this library does not model: kept as it came. */
export type UnknownKind = { type: string; [key: string]: unknown };

/**
 * A check that answers `true` only where `schema.safeParse` succeeds, without building the parsed value
 * (an open union's refinement discards it): `z.compile`'s validator where `new Function` is allowed,
 * else never `true` (the caller then parses).
 */
export function fastAccepts(schema: z.ZodType): (value: unknown) => boolean {
  if (!canCompile()) return () => false;
  const fast = compiled(schema);
  if (fast === schema) return () => false;
  return (value) => validates(fast, value);
}

/** Reports `schema`'s issues for `value` at their own paths, unless `accepts` (or `schema`) takes it. */
export function checkMember(
  schema: z.ZodType,
  accepts: (value: unknown) => boolean,
  value: unknown,
  context: z.core.$RefinementCtx,
): void {
  if (accepts(value)) return;
  const result = schema.safeParse(value);
  if (result.success) return;
  for (const issue of result.error.issues)
    context.addIssue({ code: "custom", path: issue.path, message: issue.message });
}

/** The open union of the members `known` checks, whose `type`s are `knownTypes`. */
export function openUnion<Known extends z.ZodType>(knownTypes: Iterable<string>, known: Known) {
  const names: ReadonlySet<string> = new Set(knownTypes);
  let accepts: ((value: unknown) => boolean) | undefined;
  const schema = z.looseObject({ type: z.string() }).superRefine((value, context) => {
    if (!names.has(value.type)) return;
    accepts ??= fastAccepts(known);
    checkMember(known, accepts, value, context);
  });
  registerOpenUnion(schema, names, known);
  return schema as unknown as z.ZodType<z.output<Known> | UnknownKind, z.input<Known> | UnknownKind>;
}

/** A vendor enum: every string passes on the wire; the type lists the known values. */
export function openEnum<const T extends readonly [string, ...string[]]>(
  _known: T,
): z.ZodType<T[number] | (string & {})> {
  return z.string() as unknown as z.ZodType<T[number] | (string & {})>;
}

/**
 * `base.superRefine(refine)`, with `holds` — a plain predicate on a value `base` accepts, true only where
 * `refine` adds no issue — registered for the accept-check, which cannot read a refinement and would
 * otherwise hand the whole schema to zod.
 */
export function refined<Base extends z.ZodType>(
  base: Base,
  refine: (value: z.output<Base>, context: z.core.$RefinementCtx<z.output<Base>>) => void,
  holds: (value: z.output<Base>) => boolean,
): Base {
  const schema = base.superRefine(refine) as Base;
  registerRefinement(schema, base, holds as (value: unknown) => boolean);
  return schema;
}

/**
 * The accept-check of `schema` (built on first use): `true` only where `schema` accepts the value,
 * building nothing; `false` means "ask zod". For the `holds` predicates of `refined`.
 */
export function acceptCheck(schema: z.ZodType): (value: unknown) => boolean {
  let check: ((value: unknown) => boolean) | undefined;
  return (value) => {
    check ??= acceptsRoot(schema);
    return check(value);
  };
}
