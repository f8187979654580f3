/**
 * gateway-protocols/testing: realistic payload generators (fast-check arbitraries) for every wire shape,
 * the bytes of an SSE body and every way to cut them, a schema check for any test runner, and the
 * translation laws, runnable against any translator with this library's signatures.
 * Needs `fast-check` (an optional peer dependency); the main entry never loads it.
 * @module
 */

export { type Bias, type HardCase, hardCases } from "./arbitraries/common";
export { arbitraries, protocolArbitraries } from "./arbitraries/index";
export { type MusicRule, musicRules } from "./arbitraries/music";
export type { GivenValues, ProtocolArbitraries, ReachFact, UsageTotals } from "./arbitraries/types";
export { assertValid, type PayloadKind } from "./assert-valid";
export { type CutPlan, cutBytes, type LineEnd, sseBytes } from "./bytes";
export {
  assertLaws,
  type CheckOptions,
  checkTranslator,
  type Law,
  type LawName,
  type LawResult,
  lawNames,
  type ReportedLoss,
  type Subject,
  type Translator,
  translatorLaws,
} from "./laws/index";
export { normalize } from "./normalize";
