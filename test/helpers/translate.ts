/** Drives a stream translator over a whole event list, as a gateway would. */
import { createStreamTranslator, type Loss, type Protocol, type TranslateOptions } from "../../src/index";

/** Every event `from` → `to` (end() included) and every loss reported on the way. */
export function translateEvents(
  from: Protocol,
  to: Protocol,
  events: readonly unknown[],
  options?: TranslateOptions,
): { out: unknown[]; losses: Loss[] } {
  const translator = createStreamTranslator(from, to, options);
  const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
  return { out, losses: translator.losses };
}
