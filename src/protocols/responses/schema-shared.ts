/**
 * Building blocks of the responses-protocol schemas: open vendor enums, open tagged unions (a known
 * `type` is checked, any other is kept) and the small shapes several items share.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
import { z } from "zod/v4";
import {
  acceptCheck,
  checkMember,
  fastAccepts,
  openEnum,
  openUnion as openUnionOf,
  refined,
  type UnknownKind,
} from "../../validate/open-union";

export { openEnum, type UnknownKind };

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
 * An open tagged union: a known `type` must match its schema (its own issues are reported, with their
 * paths), any other `type` is accepted as a loose object so new kinds pass through.
 */
export function openUnion<const Options extends readonly [Tagged, ...Tagged[]]>(options: Options) {
  const known = z.discriminatedUnion("type", options as unknown as [Tagged, ...Tagged[]]);
  return openUnionOf(typesOf(options), known) as unknown as OpenSchema<Options>;
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
  // The accept-check's side of the refinement: the same three cases, each asked of its schema's own
  // accept-check (true only where that schema accepts), so a valid item costs no zod call.
  const quickKnown = acceptCheck(known);
  const quickMessage = acceptCheck(untyped.message);
  const quickReference = acceptCheck(untyped.reference);
  const schema = refined(
    z.looseObject({ type: z.string().nullable().optional() }),
    (value, context) => {
      if (typeof value.type === "string") {
        if (!names.has(value.type)) return;
        acceptsKnown ??= fastAccepts(known);
        checkMember(known, acceptsKnown, value, context);
      } else if ("role" in value) {
        acceptsMessage ??= fastAccepts(untyped.message);
        checkMember(untyped.message, acceptsMessage, value, context);
      } else {
        acceptsReference ??= fastAccepts(untyped.reference);
        checkMember(untyped.reference, acceptsReference, value, context);
      }
    },
    (value) =>
      typeof value.type === "string"
        ? !names.has(value.type) || quickKnown(value)
        : "role" in value
          ? quickMessage(value)
          : quickReference(value),
  );
  return schema as unknown as OpenItemSchema<Options, Message, Reference>;
}

export const nonNegativeInt = z.number().int().min(0);

/** Item status: `in_progress`, `completed`, `incomplete` (built-in calls add `searching`, `failed` …). */
export const itemStatus = openEnum(["in_progress", "completed", "incomplete"]);
/**
 * Item status: `in_progress`, `completed`, `incomplete` (built-in calls add `searching`, `failed` …). The
 * type `itemStatus` parses to.
 */
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
