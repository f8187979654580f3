/**
 * Issue 13 ("Real traffic"), the non-stream items of its Why list, one pinned test each: what real
 * providers send and accept parses and translates (carried, or reported as a loss, never a 400), turn
 * control keeps its meaning or says it did not, and every loss points at the field it is about.
 */

import { describe, expect, test } from "vitest";
import { wrapCarried } from "../../src/common/carrier";
import { resolvePointer } from "../../src/common/pointer";
import { chat, generative, messages, protocols, translateRequest, translateResponse } from "../../src/index";
import { generativeModel, readJsonFixture, wiredFixtures } from "../helpers/fixtures";

const kinds = (losses: readonly { path: string; kind: string }[]) =>
  losses.map(({ path, kind }) => ({ path, kind }));

const messagesResponse = (content: unknown[], stopReason: string) => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-opus-4-8",
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
});

const chatResponse = (message: Record<string, unknown>, finishReason: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finishReason }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
});

describe("valid real payloads are not rejected", () => {
  test('a vLLM response with "annotations": null translates (nulls say nothing and cost no loss)', () => {
    const body = chatResponse(
      {
        content: "Paris",
        refusal: null,
        annotations: null,
        audio: null,
        function_call: null,
        tool_calls: [],
        reasoning: "The capital of France.",
      },
      "stop",
    );
    expect(chat.response.safeParse(body).success).toBe(true);
    const { value, losses } = translateResponse("chat", "messages", body);
    expect(value.content).toEqual([
      {
        type: "thinking",
        thinking: "The capital of France.",
        signature: wrapCarried({ origin: "chat", entries: [{ reasoning: {} }] }),
      },
      { type: "text", text: "Paris" },
    ]);
    expect(losses).toEqual([]);
  });

  test("a Mistral response whose content is an array with a thinking chunk becomes thinking + text", () => {
    const body = chatResponse(
      {
        content: [
          { type: "thinking", thinking: [{ type: "text", text: "17 * 23 = 391" }], closed: true },
          { type: "text", text: "391" },
        ],
        tool_calls: null,
      },
      "stop",
    );
    const { value, losses } = translateResponse("chat", "messages", body);
    expect(value.content).toEqual([
      {
        type: "thinking",
        thinking: "17 * 23 = 391",
        signature: wrapCarried({ origin: "chat", entries: [{ reasoning: {} }] }),
      },
      { type: "text", text: "391" },
    ]);
    expect(losses).toEqual([]);
    const back = translateResponse("chat", "generative", body);
    expect(back.value.candidates?.[0]?.content?.parts).toEqual([
      { text: "17 * 23 = 391", thought: true },
      { text: "391" },
    ]);
  });

  test("a messages mcp_toolset tool (no name) with mcp_servers parses and is reported when dropped", () => {
    const body = {
      model: "claude-opus-4-8",
      max_tokens: 100,
      messages: [{ role: "user", content: "What tools do you have?" }],
      mcp_servers: [
        { type: "url", url: "https://example-server.modelcontextprotocol.io/sse", name: "example-mcp" },
      ],
      tools: [{ type: "mcp_toolset", mcp_server_name: "example-mcp" }],
    };
    expect(messages.request.safeParse(body).success).toBe(true);
    const { value, losses } = translateRequest("messages", "chat", body);
    expect(value.tools).toBeUndefined();
    expect(kinds(losses)).toEqual([
      { path: "/mcp_servers", kind: "dropped" },
      { path: "/tools/0", kind: "dropped" },
    ]);
  });

  test("an OpenAI custom tool call in the history is carried, and its tool result answers it", () => {
    const body = {
      model: "gpt-5",
      messages: [
        { role: "user", content: "Fix the typo." },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "custom", custom: { name: "apply_patch", input: "*** Begin Patch" } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "Done." },
      ],
    };
    const { value, losses } = translateRequest("chat", "messages", body, { maxTokens: 64 });
    expect(value.messages).toEqual([
      { role: "user", content: "Fix the typo." },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "call_1", name: "apply_patch", input: { input: "*** Begin Patch" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "Done." }] },
    ]);
    expect(kinds(losses)).toEqual([{ path: "/messages/1/tool_calls/0/custom/input", kind: "approximated" }]);
    const same = translateRequest("chat", "generative", body);
    expect(same.value.contents[1]?.parts).toEqual([
      { functionCall: { id: "call_1", name: "apply_patch", args: { input: "*** Begin Patch" } } },
    ]);
  });

  test("a messages request with a system turn mid-conversation parses; chat takes the turn in its place, generative hoists it with a loss (issue 30)", () => {
    const body = {
      model: "claude-opus-4-8",
      max_tokens: 100,
      system: "You are a coding assistant.",
      messages: [
        { role: "user", content: "Update this project." },
        { role: "assistant", content: "On it." },
        { role: "system", content: "Follow the project README." },
        { role: "user", content: "Go." },
      ],
    };
    expect(messages.request.safeParse(body).success).toBe(true);
    const { value, losses } = translateRequest("messages", "chat", body);
    expect(value.messages).toEqual([
      { role: "system", content: "You are a coding assistant." },
      { role: "user", content: "Update this project." },
      { role: "assistant", content: "On it." },
      { role: "system", content: "Follow the project README." },
      { role: "user", content: "Go." },
    ]);
    expect(losses).toEqual([]);
    const toGenerative = translateRequest("messages", "generative", body);
    expect(toGenerative.value.systemInstruction?.parts).toEqual([
      { text: "You are a coding assistant." },
      { text: "Follow the project README." },
    ]);
    expect(kinds(toGenerative.losses)).toEqual([{ path: "/messages/2", kind: "approximated" }]);
  });

  test('a generative history turn {"role":"model"} with no parts parses and translates', () => {
    const body = {
      contents: [
        { role: "user", parts: [{ text: "Hi" }] },
        { role: "model" },
        { role: "user", parts: [{ text: "Again" }] },
      ],
    };
    expect(generative.request.safeParse(body).success).toBe(true);
    const toChat = translateRequest("generative", "chat", body, { model: "gemini-2.5-flash" });
    expect(toChat.value.messages).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "" },
      { role: "user", content: "Again" },
    ]);
    expect(toChat.losses).toEqual([]);
    const toMessages = translateRequest("generative", "messages", body, {
      model: "gemini-2.5-flash",
      maxTokens: 64,
    });
    expect(kinds(toMessages.losses)).toEqual([{ path: "/contents/1", kind: "dropped" }]);
  });
});

describe("turn control keeps its meaning or says it did not", () => {
  test("pause_turn becomes a stop with an approximated loss at /stop_reason", () => {
    const body = messagesResponse([{ type: "text", text: "Searching..." }], "pause_turn");
    const { value, losses } = translateResponse("messages", "chat", body, { created: 1 });
    expect(value.choices[0]?.finish_reason).toBe("stop");
    expect(kinds(losses)).toEqual([{ path: "/stop_reason", kind: "approximated" }]);
  });

  test("refusal and model_context_window_exceeded are approximations at /stop_reason", () => {
    const refusal = translateResponse("messages", "chat", messagesResponse([], "refusal"), { created: 1 });
    expect(refusal.value.choices[0]?.finish_reason).toBe("content_filter");
    expect(kinds(refusal.losses)).toEqual([{ path: "/stop_reason", kind: "approximated" }]);
    const window = translateResponse(
      "messages",
      "chat",
      messagesResponse([{ type: "text", text: "a" }], "model_context_window_exceeded"),
      { created: 1 },
    );
    expect(window.value.choices[0]?.finish_reason).toBe("length");
    expect(kinds(window.losses)).toEqual([{ path: "/stop_reason", kind: "approximated" }]);
    const toGenerative = translateResponse("messages", "generative", messagesResponse([], "pause_turn"));
    expect(toGenerative.value.candidates?.[0]?.finishReason).toBe("STOP");
    expect(kinds(toGenerative.losses)).toEqual([{ path: "/stop_reason", kind: "approximated" }]);
  });

  test("MALFORMED_FUNCTION_CALL maps to a plain stop with the loss at /candidates/0/finishReason", () => {
    const body = {
      candidates: [{ index: 0, content: { role: "model" }, finishReason: "MALFORMED_FUNCTION_CALL" }],
      responseId: "r1",
      modelVersion: "gemini-2.5-flash",
    };
    const toChat = translateResponse("generative", "chat", body, { created: 1 });
    expect(toChat.value.choices[0]?.finish_reason).toBe("stop");
    expect(kinds(toChat.losses)).toEqual([{ path: "/candidates/0/finishReason", kind: "approximated" }]);
    const toMessages = translateResponse("generative", "messages", body);
    expect(toMessages.value.stop_reason).toBe("end_turn");
    expect(kinds(toMessages.losses)).toEqual([
      { path: "/candidates/0/finishReason", kind: "approximated" },
      { path: "/usage", kind: "synthesized" },
    ]);
  });

  test("a finish reason never claims tool use without a tool call", () => {
    const body = chatResponse({ content: "Let me check.", tool_calls: [] }, "tool_calls");
    const { value, losses } = translateResponse("chat", "messages", body);
    expect(value.content).toEqual([{ type: "text", text: "Let me check." }]);
    expect(value.stop_reason).toBe("end_turn");
    expect(kinds(losses)).toEqual([{ path: "/choices/0/finish_reason", kind: "approximated" }]);
    const toChat = translateResponse(
      "messages",
      "chat",
      messagesResponse([{ type: "text", text: "x" }], "tool_use"),
      { created: 1 },
    );
    expect(toChat.value.choices[0]?.finish_reason).toBe("stop");
    expect(kinds(toChat.losses)).toEqual([{ path: "/stop_reason", kind: "approximated" }]);
  });

  test("a custom tool call in a chat response becomes a tool_use block, so tool_use is true", () => {
    const body = chatResponse(
      {
        content: null,
        tool_calls: [{ id: "call_9", type: "custom", custom: { name: "apply_patch", input: "diff" } }],
      },
      "tool_calls",
    );
    const { value, losses } = translateResponse("chat", "messages", body);
    expect(value.content).toEqual([
      { type: "tool_use", id: "call_9", name: "apply_patch", input: { input: "diff" } },
    ]);
    expect(value.stop_reason).toBe("tool_use");
    expect(kinds(losses)).toEqual([
      { path: "/choices/0/message/tool_calls/0/custom/input", kind: "approximated" },
    ]);
  });
});

describe("losses point at the field they are about", () => {
  test("citations dropped from chat are reported at annotations, not content", () => {
    const body = chatResponse(
      {
        content: "See the docs.",
        annotations: [
          {
            type: "url_citation",
            url_citation: { url: "https://example.com", title: "Docs", start_index: 0, end_index: 3 },
          },
        ],
      },
      "stop",
    );
    const { losses } = translateResponse("chat", "messages", body);
    expect(kinds(losses)).toEqual([{ path: "/choices/0/message/annotations", kind: "dropped" }]);
    const fromMessages = translateResponse(
      "messages",
      "chat",
      messagesResponse(
        [
          {
            type: "text",
            text: "cited",
            citations: [
              {
                type: "char_location",
                cited_text: "c",
                document_index: 0,
                start_char_index: 0,
                end_char_index: 1,
              },
            ],
          },
        ],
        "end_turn",
      ),
      { created: 1 },
    );
    expect(kinds(fromMessages.losses)).toEqual([{ path: "/content/0/citations", kind: "dropped" }]);
  });
});

describe("mappings that exist are made", () => {
  test("generative codeExecution ↔ messages code_execution", () => {
    const fromGenerative = translateRequest(
      "generative",
      "messages",
      { contents: [{ role: "user", parts: [{ text: "Compute 2**10" }] }], tools: [{ codeExecution: {} }] },
      { model: "gemini-2.5-flash", maxTokens: 64 },
    );
    expect(fromGenerative.value.tools).toEqual([{ type: "code_execution_20250825", name: "code_execution" }]);
    expect(kinds(fromGenerative.losses)).toEqual([{ path: "/tools/0/codeExecution", kind: "approximated" }]);
    const fromMessages = translateRequest("messages", "generative", {
      model: "claude-opus-4-8",
      max_tokens: 64,
      messages: [{ role: "user", content: "Compute 2**10" }],
      tools: [{ type: "code_execution_20250825", name: "code_execution" }],
    });
    expect(fromMessages.value.tools).toEqual([{ codeExecution: {} }]);
    expect(kinds(fromMessages.losses)).toEqual([{ path: "/tools/0", kind: "approximated" }]);
  });

  test("OpenRouter reasoning.max_tokens is a thinking budget", () => {
    const { value, losses } = translateRequest("chat", "messages", {
      model: "anthropic/claude-sonnet-4.5",
      max_tokens: 8000,
      messages: [{ role: "user", content: "Think." }],
      reasoning: { max_tokens: 2000 },
    });
    expect(value.thinking).toEqual({ type: "enabled", budget_tokens: 2000 });
    expect(losses).toEqual([]);
    const back = translateRequest(
      "messages",
      "chat",
      {
        model: "anthropic/claude-sonnet-4.5",
        max_tokens: 8000,
        thinking: { type: "enabled", budget_tokens: 3000 },
        messages: [{ role: "user", content: "Think." }],
      },
      { chatDialect: "openrouter" },
    );
    expect(back.value).toMatchObject({ max_tokens: 8000, reasoning: { max_tokens: 3000 } });
    expect(back.losses).toEqual([]);
  });
});

describe("every loss of a recorded payload's translation points into it", () => {
  for (const entry of [...wiredFixtures("request"), ...wiredFixtures("response")]) {
    for (const to of protocols.filter((protocol) => protocol !== entry.protocol)) {
      test(`${entry.path} → ${to}`, () => {
        const body = readJsonFixture(entry);
        // A request that continues a stored response needs its items (here: none the losses point into).
        const continues =
          entry.protocol === "responses" &&
          ((body as { previous_response_id?: unknown }).previous_response_id != null ||
            (body as { conversation?: unknown }).conversation != null);
        const history = continues ? [{ role: "user", content: "Earlier" }, ...calledBy(body)] : undefined;
        const { losses } =
          entry.kind === "request"
            ? translateRequest(entry.protocol, to, body, {
                model: generativeModel(entry),
                maxTokens: 64,
                history,
              })
            : translateResponse(entry.protocol, to, body);
        for (const item of losses) {
          expect(item.path).not.toBe("");

          // A synthesized value may stand for a field the input lacks (`/max_tokens`); anything else was in it.
          if (item.kind !== "synthesized")
            // Losses about items of options.history point into it (`/history/…`).
            expect(
              resolvePointer(item.path.startsWith("/history/") ? { history } : body, item.path).found,
              item.path,
            ).toBe(true);
        }
      });
    }
  }
});

/** The function calls the outputs of a responses request answer, as a stored history holds them. */
function calledBy(body: unknown): unknown[] {
  const input = (body as { input?: unknown }).input;
  if (!Array.isArray(input)) return [];
  return input
    .filter((item) => (item as { type?: unknown }).type === "function_call_output")
    .map((item) => ({
      type: "function_call",
      call_id: (item as { call_id: string }).call_id,
      name: "tool",
      arguments: "{}",
    }));
}
