/**
 * `checkTranslator`: every law against any object with this library's function signatures, one result
 * per law and protocol or pair; `translatorLaws` gives the same laws unrun, one test each.
 */
import { type Protocol, protocols } from "../../index";
import { entryOf } from "../arbitraries/index";
import { requestLaws } from "./requests";
import { errorLaws, responseLaws } from "./responses";
import { chunkingLaw, commutationLaw, honestEndLaw, replayLaw, streamLaws } from "./streams";
import type { RunOptions } from "./support";
import { accumulateTotalityLaw, totalityLaws } from "./totality";
import { type CheckOptions, type Law, type LawResult, lawNames, type Translator } from "./types";

const members = [
  "translateRequest",
  "translateResponse",
  "translateError",
  "createStreamTranslator",
  "translateEventStream",
  "accumulate",
  "replay",
] as const;

/** `translator` narrowed to the members it has (as functions). */
function has<K extends (typeof members)[number]>(
  translator: Translator,
  ...names: K[]
): translator is Translator & Required<Pick<Translator, K>> {
  return names.every((name) => typeof translator[name] === "function");
}

/**
 * The laws `checkTranslator` runs, unrun: one per law and protocol or pair, for the members
 * `translator` has. Useful to give each law its own test.
 * @example
 * for (const law of translatorLaws(myTranslator, { protocols: ["chat", "messages"] }))
 *   test(law.statement, async () => assertLaws([await law.check()]));
 */
export function translatorLaws(translator: Translator, options: CheckOptions = {}): Law[] {
  if (
    typeof translator !== "object" ||
    translator === null ||
    !members.some((name) => has(translator, name))
  ) {
    throw new TypeError(`checkTranslator needs an object with at least one of ${members.join(", ")}.`);
  }
  const chosen = options.protocols ?? protocols;
  const pairs = options.pairs ?? chosen.flatMap((from) => chosen.map((to) => [from, to] as const));
  for (const [from, to] of pairs) {
    entryOf(from);
    entryOf(to);
  }
  const sources = [...new Set(pairs.map(([from]) => from))];
  for (const name of options.laws ?? []) {
    if (!(lawNames as readonly string[]).includes(name)) {
      throw new TypeError(`Unknown law ${JSON.stringify(name)}: use one of ${lawNames.join(", ")}.`);
    }
  }
  const run: RunOptions = {
    ...(options.numRuns === undefined ? {} : { numRuns: options.numRuns }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  };
  // A law that needs the way back uses the translator for it only where that direction is checked too.
  const checked = new Set(pairs.map(([from, to]) => `${from} ${to}`));
  const laws: Law[] = [];
  for (const [from, to] of pairs) {
    const wayBack = checked.has(`${to} ${from}`) ? "translator" : "library";
    if (has(translator, "translateRequest")) laws.push(...requestLaws(translator, from, to, run, wayBack));
    if (has(translator, "translateResponse")) laws.push(...responseLaws(translator, from, to, run));
    if (has(translator, "translateError")) laws.push(...errorLaws(translator, from, to, run));
    if (has(translator, "createStreamTranslator")) {
      laws.push(...streamLaws(translator, from, to, run));
      if (from !== to) laws.push(honestEndLaw(translator, from, to, run));
    }
    if (has(translator, "createStreamTranslator", "accumulate", "translateResponse"))
      laws.push(commutationLaw(translator, from, to, run));
    if (has(translator, "translateEventStream")) laws.push(chunkingLaw(translator, from, to, run));
    laws.push(...totalityLaws(translator, from, to, run));
  }
  for (const from of sources) {
    if (has(translator, "accumulate")) laws.push(accumulateTotalityLaw(translator, from, run));
    if (has(translator, "accumulate", "replay")) laws.push(replayLaw(translator, from, run));
  }
  const wanted = options.laws === undefined ? undefined : new Set<string>(options.laws);
  return wanted === undefined ? laws : laws.filter((entry) => wanted.has(entry.law));
}

/**
 * Runs every law against `translator` (any object with some of this library's functions) and answers
 * one result per law and protocol or pair, with fast-check's shrunk counterexample where one fails. A
 * law whose functions the translator lacks is not run and not in the results. With `pairs`, only those
 * directions are called: a law that needs the way back (round-trip) takes it through this library's own
 * `translateRequest` when the reverse pair is not checked too, and its statement says so.
 * @example
 * const results = await checkTranslator({ translateRequest: myTranslate }, { pairs: [["chat", "messages"]] });
 * assertLaws(results); // throws, naming each failed law's fields, seed, path and shrunk input
 */
export async function checkTranslator(
  translator: Translator,
  options: CheckOptions = {},
): Promise<LawResult[]> {
  const results: LawResult[] = [];
  for (const entry of translatorLaws(translator, options)) results.push(await entry.check());
  return results;
}

export { assertLaws } from "./assert";
export type { CheckOptions, Law, LawName, LawResult, ReportedLoss, Subject, Translator } from "./types";
export { lawNames } from "./types";
export type { Protocol };
