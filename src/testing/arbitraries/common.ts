/**
 * What every protocol's arbitraries share: the `bias` toward hard cases, text that is hard to carry
 * (unicode of every UTF-8 width, empty, huge), explicit zeros, and text cut into stream pieces.
 */
import fc from "fast-check";
import type { ReachFact } from "./types";

/** The hard cases a `bias` can ask for. */
export const hardCases = ["tools", "images", "thinking", "unicode", "empty", "zeros", "huge"] as const;
/** A hard case an arbitrary can lean toward, one of `hardCases`. */
export type HardCase = (typeof hardCases)[number];

/**
 * Toward which hard cases generation leans: `true` for all of them, a list for some, `false` or
 * absent for the plain mix (which still reaches each case now and then).
 */
export type Bias = boolean | readonly HardCase[];

/** A bias with every case spelled out. */
export type Hard = Readonly<Record<HardCase, boolean>> & { readonly any: boolean };

export function resolveBias(bias: Bias | undefined): Hard {
  if (bias !== undefined && typeof bias !== "boolean" && !Array.isArray(bias)) {
    throw new TypeError(`bias must be a boolean or a list of ${hardCases.join(", ")}; got ${String(bias)}.`);
  }
  const chosen = new Set<string>(
    bias === true ? hardCases : bias === false || bias === undefined ? [] : bias,
  );
  for (const name of chosen) {
    if (!(hardCases as readonly string[]).includes(name)) {
      throw new TypeError(`Unknown hard case ${JSON.stringify(name)}: use one of ${hardCases.join(", ")}.`);
    }
  }
  const has = (name: HardCase) => chosen.has(name);
  return {
    tools: has("tools"),
    images: has("images"),
    thinking: has("thinking"),
    unicode: has("unicode"),
    empty: has("empty"),
    zeros: has("zeros"),
    huge: has("huge"),
    any: chosen.size > 0,
  };
}

/**
 * `make()`, built on first use and the same in every other way: some fast-check arbitraries (`webUrl`,
 * `unit: "binary"`) take most of a second to build, which every importer of the toolkit would pay.
 */
export function lazy<T>(make: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  let built: fc.Arbitrary<T> | undefined;
  const get = (): fc.Arbitrary<T> => {
    built ??= make();
    return built;
  };
  class Lazy extends fc.Arbitrary<T> {
    generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T> {
      return get().generate(random, biasFactor);
    }
    canShrinkWithoutContext(value: unknown): value is T {
      return get().canShrinkWithoutContext(value);
    }
    shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
      return get().shrink(value, context);
    }
  }
  return new Lazy();
}

/** Any one character (code point) at all. */
export const anyCharacter: fc.Arbitrary<string> = lazy(() =>
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);

/** Characters that break naive byte and string handling: 2-, 3- and 4-byte UTF-8, joiners, separators. */
const awkwardCharacters = [
  "é",
  "€",
  "歌",
  "😀",
  "👩‍👩‍👧",
  "e\u0301",
  "\u2028",
  "\u202e",
  "\ufeff",
  "\u0000",
  "\r",
  "\n",
  '"',
  "\\",
] as const;

const unicodeText = lazy(() =>
  fc.string({
    unit: fc.oneof(fc.constantFrom(...awkwardCharacters), anyCharacter),
    minLength: 1,
    maxLength: 16,
  }),
);

/** Well over the 64 KiB a reader usually gets at once, so the text always arrives in several chunks. */
const hugeText = fc
  .string({ unit: fc.constantFrom("a", " ", "é", "😀", "\n"), minLength: 1, maxLength: 8 })
  .map((unit) => unit.repeat(Math.ceil(70_000 / unit.length)));

/**
 * Text of a payload under `hard`: the plain mix, or leaning toward unicode, empty strings and huge
 * text as asked. `minLength` 1 keeps it non-blank-able (an empty string is never chosen then).
 */
export function textFor(hard: Hard, options: { nonEmpty?: boolean } = {}): fc.Arbitrary<string> {
  const plain = options.nonEmpty
    ? fc.string({ minLength: 1, maxLength: 12 }).filter((text) => text.trim() === text && text !== "")
    : fc.string({ maxLength: 12 });
  const choices: fc.WeightedArbitrary<string>[] = [{ weight: 2, arbitrary: plain }];
  if (hard.unicode) choices.push({ weight: 3, arbitrary: unicodeText.filter(nonBlank(options.nonEmpty)) });
  if (hard.empty && !options.nonEmpty) choices.push({ weight: 2, arbitrary: fc.constant("") });
  if (hard.huge) choices.push({ weight: 1, arbitrary: hugeText.filter(nonBlank(options.nonEmpty)) });
  return choices.length === 1 ? plain : fc.oneof(...choices);
}

function nonBlank(required: boolean | undefined): (text: string) => boolean {
  return (text) => !required || (text.trim() === text && text !== "");
}

/** A number setting: the given range, leaning toward an explicit 0 under `zeros`. */
export function zeroOr<T>(hard: Hard, zero: T, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return hard.zeros
    ? fc.oneof({ weight: 3, arbitrary: fc.constant(zero) }, { weight: 1, arbitrary })
    : arbitrary;
}

/** The plain mix, or mostly the hard cases when some are asked for (the plain mix stays in the blend). */
export function leaning<A, B>(
  hard: Hard,
  plain: fc.Arbitrary<A>,
  hardArb: fc.Arbitrary<B>,
): fc.Arbitrary<A | B> {
  return hard.any
    ? fc.oneof<[fc.WeightedArbitrary<A | B>, fc.WeightedArbitrary<A | B>]>(
        { weight: 1, arbitrary: plain },
        { weight: 3, arbitrary: hardArb },
      )
    : plain;
}

/** `arbitrary` or `undefined`: present nine times in ten when its hard case is `asked` for, else one in four. */
export function sometimes<T>(arbitrary: fc.Arbitrary<T>, asked: boolean): fc.Arbitrary<T | undefined> {
  return fc.oneof(
    { weight: asked ? 1 : 3, arbitrary: fc.constant(undefined) },
    { weight: asked ? 9 : 1, arbitrary },
  );
}

/** Cuts `text` at the given (arbitrary) points: the pieces a stream might carry, empty ones included. */
export function pieces(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
  const out: string[] = [];
  let start = 0;
  for (const point of points) {
    out.push(text.slice(start, point));
    start = point;
  }
  out.push(text.slice(start));
  return out;
}

/** Whether `value` is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `test` holds for some node of `value` (depth first), given the node and the key it sits under. */
export function someNode(
  value: unknown,
  test: (node: unknown, key: string | undefined) => boolean,
  key?: string,
): boolean {
  if (test(value, key)) return true;
  if (Array.isArray(value)) return value.some((child) => someNode(child, test));
  if (isRecord(value)) return Object.entries(value).some(([name, child]) => someNode(child, test, name));
  return false;
}

/**
 * What every kind of payload can hold whatever its protocol: hard text. `plainUnicode` when the plain
 * mix of that kind already holds text beyond ASCII.
 */
export function textFacts(plainUnicode: boolean): readonly ReachFact[] {
  const beyondAscii = (value: unknown) =>
    someNode(value, (node) => typeof node === "string" && /[^ -~\t\n\r]/.test(node));
  return [
    plainUnicode
      ? { name: "text beyond printable ASCII", bias: "unicode", holds: beyondAscii }
      : { name: "text beyond printable ASCII", bias: "unicode", plain: false, holds: beyondAscii },
    {
      name: "a character of four UTF-8 bytes",
      bias: "unicode",
      plain: false,
      holds: (value) =>
        someNode(value, (node) => typeof node === "string" && /[\u{10000}-\u{10ffff}]/u.test(node)),
    },
    { name: "an empty string", bias: "empty", holds: (value) => someNode(value, (node) => node === "") },
    {
      name: "a string over 64 KiB",
      bias: "huge",
      plain: false,
      holds: (value) => someNode(value, (node) => typeof node === "string" && node.length > 65_536),
    },
  ];
}

/** A member `key` given as `value` (0, false, "") somewhere in the payload. */
export function givenFact(name: string, key: string, value: unknown, plain = true): ReachFact {
  const holds = (payload: unknown) => someNode(payload, (node, at) => at === key && node === value);
  return plain ? { name, bias: "zeros", holds } : { name, bias: "zeros", plain: false, holds };
}

/**
 * Some of `keys` (never none), in their order, shrinking toward all of them: a request that breaks
 * the explicit-zeros law shrinks to the one holding every setting, so the failure names each one
 * taken for absent rather than the last left.
 */
export function givenKeysArb<K extends string>(keys: readonly K[]): fc.Arbitrary<K[]> {
  return fc
    .subarray([...keys], { maxLength: keys.length - 1 })
    .map((left) => keys.filter((key) => !left.includes(key)));
}
