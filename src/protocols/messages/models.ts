/** What depends on the messages model a request is for. */

/**
 * Claude models from before structured outputs (`output_config.format`): Claude 3 and 3.x, Sonnet 4 and
 * Opus 4 (dated `-20250514`, or `-4-0`). Every later model takes the format natively.
 * @see https://docs.claude.com/en/docs/build-with-claude/structured-outputs
 */
const BEFORE_STRUCTURED_OUTPUTS = /^claude-(?:3|(?:sonnet|opus)-4(?:-0)?(?:-\d{8})?$)/;

/**
 * How a JSON response format goes to `model` when `jsonMode` is not given: natively, except on the
 * models that predate structured outputs, where a forced tool emulates it.
 */
export function jsonModeFor(model: string): "tool" | "native" {
  return BEFORE_STRUCTURED_OUTPUTS.test(model) ? "tool" : "native";
}
