/**
 * `options.targetModel` (issue 29): the model the upstream will be asked for, when it is not the one
 * the client named. The translated request names it, and the target's model-dependent rules follow it.
 */
import { describe, expect, test } from "vitest";
import { type generative, type Protocol, translateRequest } from "../../src/index";

const toolTurns = {
  model: "claude-sonnet-4-5",
  max_tokens: 1000,
  messages: [
    { role: "user", content: "List the files." },
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "ls", input: {} }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.txt" }] },
  ],
};

describe("targetModel", () => {
  test("a Claude Code turn toward a Gemini 3 upstream gets Gemini 3's signature rule", () => {
    const { value, model, losses } = translateRequest("messages", "generative", toolTurns, {
      targetModel: "gemini-3-pro-preview",
    });
    expect(model).toBe("gemini-3-pro-preview");
    const call = (value as generative.Request).contents[1]?.parts?.[0];
    expect(call).toMatchObject({
      functionCall: { name: "ls" },
      thoughtSignature: "skip_thought_signature_validator",
    });
    expect(losses).toContainEqual(
      expect.objectContaining({ path: "/messages/1/content/0", kind: "synthesized" }),
    );
  });

  test("without it, the client's model decides: a Claude model name gets no Gemini 3 rule", () => {
    const { value, model } = translateRequest("messages", "generative", toolTurns);
    expect(model).toBe("claude-sonnet-4-5");
    expect((value as generative.Request).contents[1]?.parts?.[0]?.thoughtSignature).toBeUndefined();
  });

  test("Gemini 3 thinking levels follow the target model, not the client's", () => {
    const body = { model: "gpt-5-codex", input: "hi", reasoning: { effort: "low" } };
    const config = (targetModel: string) =>
      (translateRequest("responses", "generative", body, { targetModel }).value as generative.Request)
        .generationConfig?.thinkingConfig;
    expect(config("gemini-3-flash")).toMatchObject({ thinkingLevel: "low" });
    expect(config("gemini-3-flash")).not.toHaveProperty("thinkingBudget");
    expect(config("gemini-2.5-flash")).toMatchObject({ thinkingBudget: expect.any(Number) });
  });

  test.each(["chat", "messages", "responses"] as const)("the translated %s body names it", (to) => {
    const result = translateRequest(
      "generative",
      to,
      { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
      {
        model: "gemini-2.5-pro",
        targetModel: "upstream-model-1",
      },
    );
    expect(result.model).toBe("upstream-model-1");
    expect((result.value as { model: string }).model).toBe("upstream-model-1");
  });

  test.each([
    ["chat", { model: "a", messages: [{ role: "user", content: "hi" }] }],
    ["messages", { model: "a", max_tokens: 5, messages: [{ role: "user", content: "hi" }] }],
    ["responses", { model: "a", input: "hi" }],
  ] as const)(
    "a same-protocol %s request is passed on asking for it, otherwise unchanged",
    (protocol, body) => {
      const result = translateRequest(protocol as Protocol, protocol as Protocol, body, { targetModel: "b" });
      expect(result.value).toEqual({ ...body, model: "b" });
      expect(result.model).toBe("b");
      expect(result.losses).toEqual([]);
    },
  );

  test("a same-protocol generative request keeps its body: the model goes in the URL", () => {
    const body = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
    const result = translateRequest("generative", "generative", body, { model: "a", targetModel: "b" });
    expect(result.value).toBe(body);
    expect(result.model).toBe("b");
  });
});
