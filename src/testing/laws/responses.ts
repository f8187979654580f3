/** The response and error-body laws: valid output, identity, determinism, honest losses, usage carried. */
import fc from "fast-check";
import type { Protocol } from "../../index";
import { adapters } from "../../protocols/index";
import { entryOf } from "../arbitraries/index";
import {
  check,
  describeThrown,
  firstDifference,
  isTranslationErrorLike,
  law,
  lawInputs,
  lossResolves,
  type RunOptions,
  translateOptions,
  withShiftedClock,
} from "./support";
import type { Law, Translator } from "./types";

export function responseLaws(
  translator: Required<Pick<Translator, "translateResponse">>,
  from: Protocol,
  to: Protocol,
  options: RunOptions,
): Law[] {
  const pair = { subject: "response" as const, from, to };
  const responses = lawInputs((hard) => entryOf(from).response(hard));
  const translate = (body: unknown) => translator.translateResponse(from, to, body, translateOptions);
  const laws: Law[] = [
    law(
      {
        ...pair,
        law: "valid-output",
        statement: `a ${from} response translated to ${to} parses with the ${to} response schema`,
      },
      responses,
      (body) => {
        const parsed = adapters[to].schemas.response.safeParse(translate(body).value);
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
        statement: `translating a ${from} response to ${to} gives the same bytes twice, and after the clock moves`,
      },
      responses,
      (body) => {
        const first = JSON.stringify(translate(body));
        const second = JSON.stringify(translate(body));
        check(
          second === first,
          () => `a second call differs: ${firstDifference(JSON.parse(second), JSON.parse(first))}`,
        );
        const later = JSON.stringify(withShiftedClock(() => translate(body)));
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
        statement: `every loss of a ${from} → ${to} response points into the input`,
      },
      responses,
      (body) => {
        for (const entry of translate(body).losses) {
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
        statement: `translating a ${from} response to ${to} with strict throws exactly when losses are reported`,
      },
      responses,
      (body) => {
        const { losses } = translate(body);
        let thrown: unknown;
        try {
          translator.translateResponse(from, to, body, { ...translateOptions, strict: true });
        } catch (error) {
          thrown = error;
        }
        if (losses.length === 0) {
          check(thrown === undefined, () => `strict threw ${describeThrown(thrown)} with no loss reported`);
        } else {
          check(
            isTranslationErrorLike(thrown),
            () => `strict gave ${describeThrown(thrown)} with ${losses.length} losses reported`,
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
          statement: `translating a ${from} response to itself gives it back and reports nothing`,
        },
        responses,
        (body) => {
          const result = translate(body);
          const difference = firstDifference(result.value, body);
          check(difference === undefined, () => `the output differs from the input at ${difference}`);
          check(result.losses.length === 0, () => `losses reported: ${JSON.stringify(result.losses)}`);
        },
        options,
      ),
    );
  }
  const source = entryOf(from).usage;
  const target = entryOf(to).usage;
  if (from !== to && source !== undefined && target !== undefined) {
    laws.push(
      law(
        {
          ...pair,
          law: "usage",
          statement: `input and output token totals of a ${from} response reach ${to} exactly, and its total adds up`,
        },
        responses,
        (body) => {
          const before = source(body);
          // A source whose own total does not add up has no single right answer.
          fc.pre(before?.total === undefined || before.total === before.input + before.output);
          const after = target(translate(body).value);
          if (before === undefined) return;
          check(after !== undefined, () => "the usage was lost");
          check(
            after.input === before.input && after.output === before.output,
            () => `usage ${JSON.stringify(after)} instead of ${JSON.stringify(before)}`,
          );
          check(
            after.total === undefined || after.total === after.input + after.output,
            () => `the total ${after.total} is not input + output (${after.input} + ${after.output})`,
          );
        },
        options,
      ),
    );
  }
  return laws;
}

const statuses = fc.constantFrom(400, 401, 403, 404, 408, 413, 429, 500, 502, 503, 504, 529);

export function errorLaws(
  translator: Required<Pick<Translator, "translateError">>,
  from: Protocol,
  to: Protocol,
  options: RunOptions,
): Law[] {
  const pair = { subject: "error" as const, from, to };
  const errors = fc.record({ status: statuses, body: entryOf(from).errorBody() });
  return [
    law(
      {
        ...pair,
        law: "valid-output",
        statement: `a ${from} error translated to ${to} has an error status and parses with the ${to} error schema`,
      },
      errors,
      (error) => {
        const result = translator.translateError(from, to, error);
        check(
          result.status >= 400 && result.status < 600,
          () => `status ${result.status} is not an error status`,
        );
        const parsed = adapters[to].schemas.errorBody.safeParse(result.body);
        check(
          parsed.success,
          () => `the body does not parse: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`,
        );
      },
      options,
    ),
    law(
      {
        ...pair,
        law: "determinism",
        statement: `translating a ${from} error to ${to} gives the same bytes twice, and after the clock moves`,
      },
      errors,
      (error) => {
        const first = JSON.stringify(translator.translateError(from, to, error));
        check(
          JSON.stringify(translator.translateError(from, to, error)) === first,
          () => "a second call differs",
        );
        const later = JSON.stringify(withShiftedClock(() => translator.translateError(from, to, error)));
        check(later === first, () => "a call a year later differs");
      },
      options,
    ),
    law(
      { ...pair, law: "loss-paths", statement: `every loss of a ${from} → ${to} error points into its body` },
      errors,
      (error) => {
        for (const entry of translator.translateError(from, to, error).losses ?? []) {
          check(
            lossResolves(error.body, entry),
            () => `the ${entry.kind} loss "${entry.path}" does not resolve in the body`,
          );
        }
      },
      options,
    ),
  ];
}
