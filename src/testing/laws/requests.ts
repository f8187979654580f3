/** The request laws: valid output, identity, determinism, round trip, honest losses, explicit zeros. */
import fc from "fast-check";
import type { Protocol } from "../../index";
import { adapters } from "../../protocols/index";
import { entryOf } from "../arbitraries/index";
import { normalize } from "../normalize";
import { without } from "../pointer";
import {
  check,
  describeThrown,
  firstDifference,
  isToolPairing,
  isTranslationErrorLike,
  law,
  lawInputs,
  lossCovers,
  lossResolves,
  type RunOptions,
  translateOptions,
  withShiftedClock,
} from "./support";
import type { Law, Translator } from "./types";

type RequestTranslator = Required<Pick<Translator, "translateRequest">>;
type Result = ReturnType<RequestTranslator["translateRequest"]>;

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

export function requestLaws(
  translator: RequestTranslator,
  from: Protocol,
  to: Protocol,
  options: RunOptions,
): Law[] {
  const pair = { subject: "request" as const, from, to };
  const requests = lawInputs((hard) => entryOf(from).request(hard));
  const laws: Law[] = [
    law(
      {
        ...pair,
        law: "valid-output",
        statement: `a ${from} request translated to ${to} parses with the ${to} request schema`,
      },
      requests,
      (body) => {
        const { value } = translatePaired(translator, from, to, body);
        const parsed = adapters[to].schemas.request.safeParse(value);
        check(
          parsed.success,
          () => `the output does not parse: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`,
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
        const first = JSON.stringify(translatePaired(translator, from, to, body));
        const second = JSON.stringify(translatePaired(translator, from, to, body));
        check(
          second === first,
          () => `a second call differs: ${firstDifference(JSON.parse(second), JSON.parse(first))}`,
        );
        const later = JSON.stringify(withShiftedClock(() => translatePaired(translator, from, to, body)));
        check(
          later === first,
          () => `a call a year later differs: ${firstDifference(JSON.parse(later), JSON.parse(first))}`,
        );
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
        for (const entry of translatePaired(translator, from, to, body).losses) {
          check(
            lossResolves(body, entry),
            () => `the ${entry.kind} loss "${entry.path}" does not resolve in the input`,
          );
        }
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
        check(thrown !== undefined, () => `strict did not throw, with ${losses.length} losses reported`);
        check(
          isTranslationErrorLike(thrown),
          () => `strict threw ${describeThrown(thrown)}, not a TranslationError`,
        );
        const difference = thrown.losses === undefined ? undefined : firstDifference(thrown.losses, losses);
        check(
          difference === undefined,
          () => `the error's losses differ from the reported ones: ${difference}`,
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
        for (const pointer of given) {
          const absent = translator.translateRequest(from, to, without(body, pointer), translateOptions);
          const reported = kept.losses.some((entry) => lossCovers(entry, pointer));
          check(
            reported || JSON.stringify(kept.value) !== JSON.stringify(absent.value),
            () => `${pointer} was translated as if it were absent, and no loss names it`,
          );
        }
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
          check(result.losses.length === 0, () => `losses reported: ${JSON.stringify(result.losses)}`);
        },
        options,
      ),
    );
  } else {
    laws.push(
      law(
        {
          ...pair,
          law: "round-trip",
          statement: `a ${from} request sent to ${to} and back without a loss either way comes back equal`,
        },
        requests,
        (body) => {
          const there = translatePaired(translator, from, to, body);
          // A protocol that carries the model and stream flag in the URL gets them from `there`, as a gateway passes them on.
          const back = translatePaired(translator, to, from, there.value, {
            ...(there.model === undefined ? {} : { model: there.model }),
            ...(there.stream === undefined ? {} : { stream: there.stream }),
          });
          fc.pre(there.losses.length === 0 && back.losses.length === 0);
          const difference = firstDifference(normalize(back.value), normalize(body));
          check(difference === undefined, () => `the request came back different at ${difference}`);
        },
        options,
      ),
    );
  }
  return laws;
}
