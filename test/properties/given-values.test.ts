/**
 * Pinned examples of the "given values are given" law (DESIGN rule 5): explicit 0, false and "" survive
 * each translation listed. The law itself, over generated requests for every pair, runs in the protocol
 * suite (test/protocol-suite.ts, `explicit-zeros`).
 */
import { describe, expect, test } from "vitest";
import type { chat, generative, messages, Protocol } from "../../src/index";
import { translateRequest } from "../../src/index";

const options = { model: "m", idPrefix: "gp", created: 1_700_000_000 };

describe("given values are given", () => {
  const cases: {
    from: Protocol;
    body: Record<string, unknown>;
    expectations: Partial<Record<Protocol, (v: never) => unknown>>;
  }[] = [
    {
      from: "chat",
      body: {
        model: "m",
        messages: [{ role: "user", content: "x" }],
        temperature: 0,
        max_completion_tokens: 1,
        user: "",
        seed: 0,
        presence_penalty: 0,
        frequency_penalty: 0,
        logprobs: false,
        top_logprobs: 0,
      },
      expectations: {
        chat: () => [],
        messages: (v: messages.Request) => [v.temperature, v.metadata?.user_id],
        generative: (v: generative.Request) => [
          v.generationConfig?.temperature,
          v.generationConfig?.seed,
          v.generationConfig?.presencePenalty,
          v.generationConfig?.frequencyPenalty,
          v.generationConfig?.responseLogprobs,
          v.generationConfig?.logprobs,
        ],
      },
    },
    {
      // `top_p` alone: beside `temperature` messages drops it (research P2).
      from: "chat",
      body: { model: "m", messages: [{ role: "user", content: "x" }], top_p: 0 },
      expectations: {
        chat: () => [],
        messages: (v: messages.Request) => [v.top_p],
        generative: (v: generative.Request) => [v.generationConfig?.topP],
      },
    },
    {
      from: "messages",
      body: {
        model: "m",
        max_tokens: 1,
        messages: [{ role: "user", content: "x" }],
        temperature: 0,
        top_k: 0,
        metadata: { user_id: "" },
      },
      expectations: {
        chat: (v: chat.Request) => [v.temperature, v.user],
        messages: () => [],
        generative: (v: generative.Request) => [v.generationConfig?.temperature, v.generationConfig?.topK],
      },
    },
    {
      from: "messages",
      body: { model: "m", max_tokens: 1, messages: [{ role: "user", content: "x" }], top_p: 0 },
      expectations: {
        chat: (v: chat.Request) => [v.top_p],
        messages: () => [],
        generative: (v: generative.Request) => [v.generationConfig?.topP],
      },
    },
    {
      from: "generative",
      body: {
        contents: [{ role: "user", parts: [{ text: "x" }] }],
        generationConfig: {
          temperature: 0,
          topP: 0,
          topK: 0,
          seed: 0,
          presencePenalty: 0,
          frequencyPenalty: 0,
          responseLogprobs: false,
          logprobs: 0,
        },
      },
      expectations: {
        chat: (v: chat.Request) => [
          v.temperature,
          v.top_p,
          v.seed,
          v.presence_penalty,
          v.frequency_penalty,
          v.logprobs,
          v.top_logprobs,
        ],
        // messages takes `temperature` or `top_p`, not both (research P2), and has no seed or penalties.
        messages: (v: messages.Request) => [v.temperature, v.top_k],
        generative: () => [],
      },
    },
  ];
  test.each(
    cases.flatMap((c) =>
      Object.entries(c.expectations)
        .filter(([to]) => to !== c.from)
        .map(([to, expectation]) => [c.from, to as Protocol, c.body, expectation] as const),
    ),
  )("explicit 0, false and empty string survive %s → %s", (from, to, body, expectation) => {
    const { value } = translateRequest(from, to, body, options);
    const seen = expectation(value as never) as unknown[];
    expect(seen.length).toBeGreaterThan(0);
    for (const item of seen) expect([0, "", false]).toContain(item);
  });
});

/**
 * Found by the testing toolkit (its round-trip law shrank to the first two): a thinking setting with
 * neither an effort nor a budget — switched off, dynamic, or adaptive — reached chat as nothing, with
 * no loss reported (DESIGN rules 2 and 5; the messages target reports them). Each is now a loss at
 * the setting's own pointer.
 */
describe("a thinking setting without effort or budget, sent to chat, is reported", () => {
  const generativeThinking = "/generationConfig/thinkingConfig";
  const generative = (thinkingConfig: object) => ({
    contents: [{ role: "user", parts: [{ text: "!" }] }],
    generationConfig: { thinkingConfig },
  });
  const messages = (thinking: object) => ({
    model: "m",
    max_tokens: 10,
    messages: [{ role: "user", content: "x" }],
    thinking,
  });
  test.each([
    [
      "generative",
      "thinkingBudget: 0 (off)",
      generative({ thinkingBudget: 0, includeThoughts: true }),
      "/generationConfig/thinkingConfig/thinkingBudget",
    ],
    [
      "generative",
      "thinkingBudget: -1 (dynamic)",
      generative({ thinkingBudget: -1, includeThoughts: true }),
      "/generationConfig/thinkingConfig",
    ],
    ["messages", 'thinking { type: "disabled" }', messages({ type: "disabled" }), "/thinking"],
    ["messages", 'thinking { type: "adaptive" }', messages({ type: "adaptive" }), "/thinking"],
  ] as const)("%s %s → chat", (from, _, body, path) => {
    const { value, losses } = translateRequest(from, "chat", body, options);
    expect((value as chat.Request).reasoning_effort).toBeUndefined();
    // OpenAI's chat returns no thoughts either, so asking for them is a loss of its own.
    const asked =
      from === "generative" ? [{ path: `${generativeThinking}/includeThoughts`, kind: "dropped" }] : [];
    expect(losses.map(({ path, kind }) => ({ path, kind }))).toEqual([...asked, { path, kind: "dropped" }]);
  });
});
