import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type Protocol, protocols, translateResponse } from "../../src/index";
import { responseArbs as arbs } from "../arbitraries/bodies";

type Json = Record<string, unknown>;
const num = (value: unknown): number => (typeof value === "number" ? value : 0);
const obj = (value: unknown): Json => (typeof value === "object" && value !== null ? (value as Json) : {});

/** Total prompt tokens (cached included) and total output tokens (reasoning included), as each protocol counts them. */
const totals: Record<
  Protocol,
  (body: Json) => { input: number; output: number; total?: number } | undefined
> = {
  chat: (body) => {
    const usage = obj(body.usage);
    if (body.usage == null) return undefined;
    return {
      input: num(usage.prompt_tokens),
      output: num(usage.completion_tokens),
      total: num(usage.total_tokens),
    };
  },
  messages: (body) => {
    if (body.usage == null) return undefined;
    const usage = obj(body.usage);
    return {
      input:
        num(usage.input_tokens) + num(usage.cache_read_input_tokens) + num(usage.cache_creation_input_tokens),
      output: num(usage.output_tokens),
    };
  },
  responses: (body) => {
    if (body.usage == null) return undefined;
    const usage = obj(body.usage);
    return {
      input: num(usage.input_tokens),
      output: num(usage.output_tokens),
      total: num(usage.total_tokens),
    };
  },
  generative: (body) => {
    if (body.usageMetadata == null) return undefined;
    const usage = obj(body.usageMetadata);
    return {
      input: num(usage.promptTokenCount) + num(usage.toolUsePromptTokenCount),
      output: num(usage.candidatesTokenCount) + num(usage.thoughtsTokenCount),
      total: num(usage.totalTokenCount),
    };
  },
};

/** Details that exceed their whole (cached > prompt, reasoning > output) make a source self-contradictory. */
function partsFit(protocol: Protocol, body: Json): boolean {
  if (protocol === "chat") {
    const usage = obj(body.usage);
    const prompt = obj(usage.prompt_tokens_details);
    const completion = obj(usage.completion_tokens_details);
    return (
      num(prompt.cached_tokens) + num(prompt.cache_write_tokens) <= num(usage.prompt_tokens) &&
      num(completion.reasoning_tokens) <= num(usage.completion_tokens)
    );
  }
  if (protocol === "messages") {
    const usage = obj(body.usage);
    return num(obj(usage.output_tokens_details).thinking_tokens) <= num(usage.output_tokens);
  }
  if (protocol === "responses") {
    const usage = obj(body.usage);
    return (
      num(obj(usage.input_tokens_details).cached_tokens) <= num(usage.input_tokens) &&
      num(obj(usage.output_tokens_details).reasoning_tokens) <= num(usage.output_tokens)
    );
  }
  const usage = obj(body.usageMetadata);
  return num(usage.cachedContentTokenCount) <= num(usage.promptTokenCount);
}

const pairs = protocols.flatMap((from) =>
  protocols.filter((to) => to !== from).map((to) => [from, to] as const),
);

describe.each(pairs)("usage %s → %s", (from, to) => {
  test("input and output token totals are carried exactly, and the target's total adds up", () => {
    fc.assert(
      fc.property(arbs[from], (body) => {
        const source = totals[from](obj(body));
        // A source whose own total does not add up has no single right answer; such inputs are skipped.
        fc.pre(
          source === undefined || source.total === undefined || source.total === source.input + source.output,
        );
        fc.pre(partsFit(from, obj(body)));
        const target = totals[to](obj(translateResponse(from, to, body, { created: 1 }).value));
        if (source === undefined) return;
        expect(target).toBeDefined();
        expect(target?.input).toBe(source.input);
        expect(target?.output).toBe(source.output);
        if (target?.total !== undefined) expect(target.total).toBe(target.input + target.output);
      }),
    );
  });
});
