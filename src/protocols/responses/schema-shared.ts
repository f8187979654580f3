/**
 * Building blocks of the responses-protocol schemas: open vendor enums, open tagged unions (a known
 * `type` is checked, any other is kept) and the small shapes several items share.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
import { z } from "zod/v4";
import { registerOpenUnion } from "../../common/accepts";
import { canCompile, compiled, validates } from "../../common/zod-fast";

/** A vendor enum: every string passes on the wire; the type lists the known values. */
export function openEnum<const T extends readonly [string, ...string[]]>(
  _known: T,
): z.ZodType<T[number] | (string & {})> {
  return z.string() as unknown as z.ZodType<T[number] | (string & {})>;
}

/** An item, part, tool or event of a kind this library does not model: kept as it came. */
export type UnknownKind = { type: string; [key: string]: unknown };

/** A loose object whose `type` is a literal or an enum of literals: one member of an open union. */
export type Tagged = z.ZodObject<{ type: z.ZodLiteral<string> | z.ZodEnum }, z.core.$loose>;

/** The discriminated union of an open union's known members. */
export type KnownOf<Options extends readonly Tagged[]> = z.ZodDiscriminatedUnion<[...Options]>;

/**
 * The schema type of `openUnion(options)`. Each schema file states its unions' parsed types as aliases
 * (`export type Tool = z.output<KnownOf<typeof toolKinds>> | UnknownKind`) and annotates the const
 * with them: the emitted `.d.ts` then names the alias wherever a union is embedded, instead of writing
 * the union out each time (which made the responses declarations about 1 MB).
 */
export type OpenSchema<Options extends readonly Tagged[]> = z.ZodType<
  z.output<KnownOf<Options>> | UnknownKind,
  z.input<KnownOf<Options>> | UnknownKind
>;

/** The schema type of `openItemUnion(options, {message, reference})`. */
export type OpenItemSchema<
  Options extends readonly Tagged[],
  Message extends z.ZodType,
  Reference extends z.ZodType,
> = z.ZodType<
  z.output<KnownOf<Options>> | z.output<Message> | z.output<Reference> | UnknownKind,
  z.input<KnownOf<Options>> | z.input<Message> | z.input<Reference> | UnknownKind
>;

/** The `type` values a member of an open union answers to. */
function tagsOf(option: Tagged): string[] {
  const tag = option.shape.type;
  if (tag instanceof z.ZodLiteral) return [...tag.values].map(String);
  return tag.options.map(String);
}

/** The `type` values the members of an open union answer to: the kinds it checks rather than keeps. */
export function typesOf(options: readonly Tagged[]): ReadonlySet<string> {
  return new Set(options.flatMap(tagsOf));
}

/**
 * A check that answers `true` only where `schema.safeParse` succeeds, without building the parsed value
 * (the refinements below discard it): `z.compile`'s validator where `new Function` is allowed, else
 * never `true` (the caller then parses).
 */
function fastAccepts(schema: z.ZodType): (value: unknown) => boolean {
  if (!canCompile()) return () => false;
  const fast = compiled(schema);
  if (fast === schema) return () => false;
  return (value) => validates(fast, value);
}

/** Reports `schema`'s issues for `value` at their own paths, unless `schema` accepts it. */
function check(
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

/**
 * An open tagged union: a known `type` must match its schema (its own issues are reported, with their
 * paths), any other `type` is accepted as a loose object so new kinds pass through.
 */
export function openUnion<const Options extends readonly [Tagged, ...Tagged[]]>(options: Options) {
  const known = z.discriminatedUnion("type", options as unknown as [Tagged, ...Tagged[]]);
  const names = typesOf(options);
  let accepts: ((value: unknown) => boolean) | undefined;
  const schema = z.looseObject({ type: z.string() }).superRefine((value, context) => {
    if (!names.has(value.type)) return;
    accepts ??= fastAccepts(known);
    check(known, accepts, value, context);
  });
  registerOpenUnion(schema, names, known);
  return schema as unknown as OpenSchema<Options>;
}

/**
 * `openUnion` for input items, where `type` may be absent (or null): such an item is a message when it
 * has a `role` (EasyInputMessage) and an item reference otherwise, and is checked as one.
 */
export function openItemUnion<
  const Options extends readonly [Tagged, ...Tagged[]],
  Message extends z.ZodType,
  Reference extends z.ZodType,
>(options: Options, untyped: { message: Message; reference: Reference }) {
  const known = z.discriminatedUnion("type", options as unknown as [Tagged, ...Tagged[]]);
  const names = typesOf(options);
  let acceptsKnown: ((value: unknown) => boolean) | undefined;
  let acceptsMessage: ((value: unknown) => boolean) | undefined;
  let acceptsReference: ((value: unknown) => boolean) | undefined;
  const schema = z.looseObject({ type: z.string().nullable().optional() }).superRefine((value, context) => {
    if (typeof value.type === "string") {
      if (!names.has(value.type)) return;
      acceptsKnown ??= fastAccepts(known);
      check(known, acceptsKnown, value, context);
    } else if ("role" in value) {
      acceptsMessage ??= fastAccepts(untyped.message);
      check(untyped.message, acceptsMessage, value, context);
    } else {
      acceptsReference ??= fastAccepts(untyped.reference);
      check(untyped.reference, acceptsReference, value, context);
    }
  });
  return schema as unknown as OpenItemSchema<Options, Message, Reference>;
}

export const nonNegativeInt = z.number().int().min(0);

/** Item status: `in_progress`, `completed`, `incomplete` (built-in calls add `searching`, `failed` …). */
export const itemStatus = openEnum(["in_progress", "completed", "incomplete"]);
export type ItemStatus = z.infer<typeof itemStatus>;

/** Who issued a tool call: the model directly, or a `program` item (programmatic tool calling). */
export const caller = z.looseObject({
  type: openEnum(["direct", "program"]),
  caller_id: z.string().optional(),
});
export type Caller = z.infer<typeof caller>;

/** Marks a prompt-caching breakpoint on an input part. */
export const promptCacheBreakpoint = z.looseObject({ mode: openEnum(["explicit"]) });
export type PromptCacheBreakpoint = z.infer<typeof promptCacheBreakpoint>;
