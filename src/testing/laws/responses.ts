/** The response and error-body laws: valid output, identity, determinism, honest losses, usage carried. */
import fc from "fast-check";
import type { Protocol } from "../../index";
import { entryOf } from "../arbitraries/index";
import type { UsageTotals } from "../arbitraries/types";
import {
  check,
  describeThrown,
  firstDifference,
  isTranslationErrorLike,
  law,
  lawInputs,
  listed,
  lossResolves,
  type RunOptions,
  runDifference,
  schemaProblems,
  translateOptions,
  unresolved,
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
        const problems = schemaProblems(to, "response", translate(body).value);
        check(problems === undefined, () => `the output does not parse: ${problems}`);
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
        const first = translate(body);
        const second = runDifference(translate(body), first);
        check(second === undefined, () => `a second call differs: ${second}`);
        const later = runDifference(
          withShiftedClock(() => translate(body)),
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
        statement: `every loss of a ${from} → ${to} response points into the input`,
      },
      responses,
      (body) => {
        const astray = translate(body).losses.filter((entry) => !lossResolves(body, entry));
        check(astray.length === 0, () => unresolved(astray, "the input"));
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
          check(
            result.losses.length === 0,
            () => `losses reported at ${listed(result.losses.map((entry) => entry.path))}`,
          );
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
          // A source whose own figures do not add up has no single right answer.
          fc.pre(
            before?.contradiction === undefined &&
              (before?.total === undefined || before.total === before.input + before.output),
          );
          const after = target(translate(body).value);
          if (before === undefined) return;
          check(
            after !== undefined,
            () => `the usage was lost (the ${from} response has ${JSON.stringify(before)})`,
          );
          const problems = usageProblems(before, after, from);
          check(problems.length === 0, () => problems.join("; "));
        },
        options,
      ),
    );
  }
  return laws;
}

/**
 * Each way the usage of a translated response departs from its source's, naming the fields: the input
 * and output totals carried exactly, and a total that adds them up.
 */
function usageProblems(before: UsageTotals, after: UsageTotals, from: Protocol): string[] {
  const fields = (side: UsageTotals, key: "input" | "output") =>
    side.fields === undefined ? `its ${key} tokens` : side.fields[key].join(" + ");
  const problems: string[] = [];
  if (after.contradiction !== undefined)
    problems.push(`the usage contradicts itself: ${after.contradiction}`);
  for (const key of ["input", "output"] as const) {
    if (after[key] !== before[key]) {
      problems.push(
        `${fields(after, key)} = ${after[key]}, not the ${before[key]} ${key} tokens of the ${from} response (${fields(before, key)})`,
      );
    }
  }
  if (after.total !== undefined && after.total !== after.input + after.output) {
    problems.push(
      `${after.fields?.total ?? "the total"} = ${after.total} is not input + output (${fields(after, "input")} + ${fields(after, "output")} = ${after.input} + ${after.output} = ${after.input + after.output})`,
    );
  }
  return problems;
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
        const problems = schemaProblems(to, "errorBody", result.body);
        check(problems === undefined, () => `the body does not parse: ${problems}`);
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
        const first = translator.translateError(from, to, error);
        const second = runDifference(translator.translateError(from, to, error), first);
        check(second === undefined, () => `a second call differs: ${second}`);
        const later = runDifference(
          withShiftedClock(() => translator.translateError(from, to, error)),
          first,
        );
        check(later === undefined, () => `a call a year later differs: ${later}`);
      },
      options,
    ),
    law(
      { ...pair, law: "loss-paths", statement: `every loss of a ${from} → ${to} error points into its body` },
      errors,
      (error) => {
        const losses = translator.translateError(from, to, error).losses ?? [];
        const astray = losses.filter((entry) => !lossResolves(error.body, entry));
        check(astray.length === 0, () => unresolved(astray, "the body"));
      },
      options,
    ),
  ];
}
