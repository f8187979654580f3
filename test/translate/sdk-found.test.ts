import { describe, expect, test } from "vitest";
import { createStreamTranslator, type Protocol, translateResponse } from "../../src/index";

// Bugs the AI SDK providers exposed (test/sdk/ai-sdk.test.ts), pinned without the SDKs.
function run(from: Protocol, to: Protocol, events: unknown[]): unknown[] {
  const translator = createStreamTranslator(from, to);
  const out = events.flatMap((event) => translator.push(event as never));
  return [...out, ...translator.end()];
}

describe("found by driving the AI SDK providers", () => {
  test("a chat refusal reaches generative with finishReason SAFETY, whole and streamed (research F3)", () => {
    const whole = translateResponse("chat", "generative", {
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "g",
      choices: [
        { index: 0, finish_reason: "stop", message: { role: "assistant", content: null, refusal: "No." } },
      ],
    });
    expect(whole.value.candidates?.[0]?.finishReason).toBe("SAFETY");
    const chunk = (delta: object, finish: string | null) => ({
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "g",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const streamed = run("chat", "generative", [
      chunk({ role: "assistant", refusal: "No." }, null),
      chunk({}, "stop"),
      "[DONE]",
    ]);
    const last = streamed.at(-1) as { candidates: { finishReason: string }[] };
    expect(last.candidates[0]?.finishReason).toBe("SAFETY");
  });

  test("a messages tool_use whose input stays empty reaches chat with arguments {} (research X6)", () => {
    const out = run("messages", "chat", [
      {
        type: "message_start",
        message: {
          id: "m",
          type: "message",
          role: "assistant",
          model: "c",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "t", name: "now", input: {} },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { output_tokens: 3 },
      },
      { type: "message_stop" },
    ]);
    const args = out
      .flatMap((event) =>
        typeof event === "object" && event !== null && "choices" in event
          ? (event as { choices: { delta: { tool_calls?: { function: { arguments?: string } }[] } }[] })
              .choices
          : [],
      )
      .flatMap((choice) => choice.delta.tool_calls ?? [])
      .map((call) => call.function.arguments ?? "")
      .join("");
    expect(args).toBe("{}");
  });

  test("a chat error chunk that carries usage after a finish reaches messages as an error event, not a normal stop (X10)", () => {
    const base = { id: "g", object: "chat.completion.chunk", created: 1, model: "m" };
    const out = run("chat", "messages", [
      { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "hi" }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: "length" }] },
      {
        ...base,
        error: { code: 400, message: "Token limit reached" },
        choices: [{ index: 0, delta: { content: "" }, finish_reason: null }],
        usage: { prompt_tokens: 4, completion_tokens: 1, total_tokens: 5 },
      },
      "[DONE]",
    ]);
    const types = out.map((event) => (event as { type: string }).type);
    expect(types.at(-1)).toBe("error");
    expect(types).not.toContain("message_stop");
  });
});
