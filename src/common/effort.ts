/**
 * The one table between a reasoning effort (chat `reasoning_effort`, responses `reasoning.effort`,
 * messages `output_config.effort`, a Gemini 3 thinking level) and a thinking budget in tokens (messages
 * `thinking.budget_tokens`, generative `thinkingBudget`), both ways, for every target: Google's
 * documented mapping of OpenAI efforts to Gemini budgets (low 1,024, medium 8,192, high 24,576), with
 * the levels above and below it. A level is not a token count: a translation through this table is
 * an approximation, and said.
 * @see https://ai.google.dev/gemini-api/docs/openai#thinking
 */

/** Effort → thinking budget (tokens). A target clamps it to its own range. */
export const BUDGET_BY_EFFORT: Readonly<Record<string, number>> = {
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
  max: 32768,
};

/** The budget an effort stands for (`undefined`: an effort the table does not know). */
export function budgetForEffort(effort: string): number | undefined {
  return BUDGET_BY_EFFORT[effort.toLowerCase()];
}

/** A thinking budget → the effort whose budget it is nearest from below: ≤1,024 low, ≤8,192 medium, above high. */
export function effortForBudget(budget: number): "low" | "medium" | "high" {
  if (budget <= (BUDGET_BY_EFFORT.low ?? 1024)) return "low";
  if (budget <= (BUDGET_BY_EFFORT.medium ?? 8192)) return "medium";
  return "high";
}
