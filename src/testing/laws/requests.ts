/** The request laws: valid output, identity, determinism, round trip, honest losses, explicit zeros. */
import fc from "fast-check";
import type { Protocol } from "../../index";
import { translateRequest } from "../../translate";
import { entryOf } from "../arbitraries/index";
import { normalize } from "../normalize";
import { valueAt, without } from "../pointer";
import {
  check,
  describeThrown,
  firstDifference,
  isToolPairing,
  isTranslationErrorLike,
  LawBroken,
  law,
  lawInputs,
  listed,
  lossCovers,
  lossResolves,
  type RunOptions,
  refusalsOf,
  runDifference,
  schemaProblems,
  shown,
  translateOptions,
  unpairedAsGiven,
  unresolved,
  withShiftedClock,
} from "./support";
import type { Law, Translator } from "./types";

type RequestTranslator = Required<Pick<Translator, "translateRequest">>;
type Result = ReturnType<RequestTranslator["translateRequest"]>;

/** This library's own request translator, for a way back the translator is not checked on. */
const library: RequestTranslator = { translateRequest };

/** Translates, skipping the run when the translator refuses an unpaired tool history (see isToolPairing). */
function translatePaired(
  translator: RequestTranslator,
  from: Protocol,
  to: Protocol,
  body: unknown,
  url: { model?: string; stream?: boolean } = {},
): Result {
  try {
    return translator.translateRequest(from, to, body, { ...translateOptions, ...url });
  } catch (error) {
    fc.pre(!isToolPairing(error));
    throw error;
  }
}

/**
 * The request laws of one pair. `wayBack` says who translates `to` → `from` for the round trip: the
 * translator itself when that pair is checked too, else this library's `translateRequest` (said in the
 * law's statement), so that a translator checked on one direction is never called on the other.
 */
export function requestLaws(
  translator: RequestTranslator,
  from: Protocol,
  to: Protocol,
  options: RunOptions,
  wayBack: "translator" | "library" = "translator",
): Law[] {
  const pair = { subject: "request" as const, from, to };
  const requests = lawInputs((hard) => entryOf(from).request(hard));
  const laws: Law[] = [
    law(
      {
        ...pair,
        law: "valid-output",
        statement: `a ${from} request translated to ${to} parses with the ${to} request schema and holds nothing the ${to} service refuses (a tool call without its result, a result answering no call, a first turn it does not take)`,
      },
      requests,
      (body) => {
        fc.pre(!unpairedAsGiven(from, to, body));
        const { value } = translatePaired(translator, from, to, body);
        const problems = schemaProblems(to, "request", value);
        check(problems === undefined, () => `the output does not parse: ${problems}`);
        const refusals = refusalsOf(to, value) ?? [];
        check(
          refusals.length === 0,
          () =>
            `the ${to} service would refuse the output: ${refusals.map((refusal) => `${refusal.path || "(the whole value)"}: ${refusal.message}`).join("; ")}`,
        );
      },
      options,
    ),
    law(
      {
        ...pair,
        law: "determinism",
        statement: `translating a ${from} request to ${to} gives the same bytes twice, and after the clock moves`,
      },
      requests,
      (body) => {
        const first = translatePaired(translator, from, to, body);
        const second = runDifference(translatePaired(translator, from, to, body), first);
        check(second === undefined, () => `a second call differs: ${second}`);
        const later = runDifference(
          withShiftedClock(() => translatePaired(translator, from, to, body)),
          first,
        );
        check(later === undefined, () => `a call a year later differs: ${later}`);
      },
      options,
    ),
    law(
      {
        ...pair,
        law: "loss-paths",
        statement: `every loss of a ${from} → ${to} request points into the input`,
      },
      requests,
      (body) => {
        const astray = translatePaired(translator, from, to, body).losses.filter(
          (entry) => !lossResolves(body, entry),
        );
        check(astray.length === 0, () => unresolved(astray, "the input"));
      },
      options,
    ),
    law(
      {
        ...pair,
        law: "strict-iff-losses",
        statement: `translating a ${from} request to ${to} with strict throws exactly when losses are reported`,
      },
      requests,
      (body) => {
        const { losses } = translatePaired(translator, from, to, body);
        let thrown: unknown;
        try {
          translator.translateRequest(from, to, body, { ...translateOptions, strict: true });
        } catch (error) {
          thrown = error;
        }
        if (losses.length === 0) {
          check(thrown === undefined, () => `strict threw ${describeThrown(thrown)} with no loss reported`);
          return;
        }
        check(
          thrown !== undefined,
          () =>
            `strict did not throw, with ${losses.length} losses reported (at ${listed(losses.map((entry) => entry.path))})`,
        );
        check(
          isTranslationErrorLike(thrown),
          () => `strict threw ${describeThrown(thrown)}, not a TranslationError`,
        );
        const difference = thrown.losses === undefined ? undefined : firstDifference(thrown.losses, losses);
        check(
          difference === undefined,
          () => `the error's losses differ from the reported ones at ${difference}`,
        );
      },
      options,
    ),
    law(
      {
        ...pair,
        law: "explicit-zeros",
        statement: `an explicit 0, false or "" in a ${from} request reaches ${to} or is reported, never taken for absent`,
      },
      entryOf(from).givenValues(),
      ({ body, given }) => {
        const kept = translator.translateRequest(from, to, body, translateOptions);
        const output = JSON.stringify(kept.value);
        const absent = given.filter((pointer) => {
          if (kept.losses.some((entry) => lossCovers(entry, pointer))) return false;
          const left = translator.translateRequest(from, to, without(body, pointer), translateOptions);
          return JSON.stringify(left.value) === output;
        });
        check(absent.length === 0, () => {
          const named = listed(absent.map((pointer) => `${pointer} (${shown(valueAt(body, pointer))})`));
          return absent.length === 1
            ? `${named} was translated as if it were absent, and no loss names it`
            : `${absent.length} given values were translated as if they were absent, and no loss names them: ${named}`;
        });
      },
      options,
    ),
  ];
  if (from === to) {
    laws.push(
      law(
        {
          ...pair,
          law: "identity",
          statement: `translating a ${from} request to itself gives it back and reports nothing`,
        },
        requests,
        (body) => {
          const result = translatePaired(translator, from, to, body);
          const difference = firstDifference(result.value, body);
          check(difference === undefined, () => `the output differs from the input at ${difference}`);
          check(
            result.losses.length === 0,
            () => `losses reported at ${listed(result.losses.map((entry) => entry.path))}`,
          );
        },
        options,
      ),
    );
  } else {
    const back = wayBack === "translator" ? translator : library;
    const by =
      wayBack === "translator"
        ? ""
        : ` (the way back by gateway-protocols' own translateRequest: ${to} → ${from} is not among the pairs checked)`;
    laws.push(
      law(
        {
          ...pair,
          law: "round-trip",
          statement: `a ${from} request sent to ${to} and back without a loss either way comes back equal${by}`,
        },
        requests,
        (body) => {
          fc.pre(!unpairedAsGiven(from, to, body));
          const there = translatePaired(translator, from, to, body);
          fc.pre(there.losses.length === 0);
          // A protocol that carries the model and stream flag in the URL gets them from `there`, as a gateway passes them on.
          let again: Result;
          try {
            again = back.translateRequest(to, from, there.value, {
              ...translateOptions,
              ...(there.model === undefined ? {} : { model: there.model }),
              ...(there.stream === undefined ? {} : { stream: there.stream }),
            });
          } catch (error) {
            throw new LawBroken(
              `the way back${wayBack === "library" ? " (gateway-protocols' translateRequest)" : ""} refused the ${to} output: ${describeThrown(error)}`,
            );
          }
          fc.pre(again.losses.length === 0);
          const difference = firstDifference(normalize(again.value), normalize(body));
          check(difference === undefined, () => `the request came back different at ${difference}`);
        },
        options,
      ),
    );
  }
  return laws;
}
