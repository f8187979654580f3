/**
 * The oracle of the fused response paths' differential tests: a response translated by
 * `translateResponse` (which takes the fused path when it handles the body) against the same body
 * through the hub, as bytes — the value and losses, or the error's class, message and fields.
 */
import { expect } from "vitest";
import type { Protocol } from "../../src/common/model";
import { resolveOptions, type TranslateOptions } from "../../src/common/options";
import type { FusedResponse } from "../../src/fused/index";
import { translateResponse } from "../../src/index";
import { adapters } from "../../src/protocols";
import { hubResponse } from "../../src/translate";
import { validated } from "../../src/validate";

/** What a translation gives, as bytes: the result, or the error's class, message and fields. */
export function outcome(run: () => unknown): string {
  try {
    return JSON.stringify(run());
  } catch (error) {
    const e = error as Error & { status?: unknown; issues?: unknown; losses?: unknown };
    return `THROW ${e.name}: ${e.message} ${JSON.stringify([e.status, e.issues, e.losses])}`;
  }
}

/** The hub's result for `body`, validated first as `translateResponse` does. */
export function viaHub(from: Protocol, to: Protocol, body: unknown, options: TranslateOptions): unknown {
  const resolved = resolveOptions(options);
  return hubResponse(from, to, validated(adapters[from], "response", from, body, resolved), resolved);
}

/**
 * A checker for one pair: `agrees(body)` expects the same outcome both ways under every option set,
 * and counts in `taken()` the translations the fused path itself gave (on a body the schema accepts).
 */
export function differential(
  from: Protocol,
  to: Protocol,
  path: FusedResponse,
  optionSets: readonly TranslateOptions[],
): { agrees: (body: unknown) => void; taken: () => number } {
  let taken = 0;
  const schema = adapters[from].schemas.response;
  return {
    agrees(body) {
      const valid = schema.safeParse(body).success;
      for (const options of optionSets) {
        if ((valid || options.validate === false) && path(body, resolveOptions(options)) !== undefined)
          taken++;
        expect(outcome(() => translateResponse(from, to, body, options))).toBe(
          outcome(() => viaHub(from, to, body, options)),
        );
      }
    },
    taken: () => taken,
  };
}
