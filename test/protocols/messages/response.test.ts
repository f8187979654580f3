import { describe, expect, test } from "vitest";
import { wrapCarried } from "../../../src/common/carrier";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import { decodeMessagesResponse, encodeMessagesResponse } from "../../../src/protocols/messages/response";
import * as messages from "../../../src/protocols/messages/schema";
import { fixtures, readJsonFixture } from "../../helpers/fixtures";

const options = resolveOptions({ idPrefix: "gp" });
const body = (overrides: object) => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-x",
  content: [{ type: "text", text: "hi" }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: {
    input_tokens: 3,
    cache_creation_input_tokens: 200,
    cache_read_input_tokens: 1000,
    output_tokens: 50,
  },
  ...overrides,
});
const decode = (value: unknown) => decodeMessagesResponse(messages.response.parse(value), options);
const encode = (value: common.Response) => {
  const result = encodeMessagesResponse(value, options);
  expect(messages.response.safeParse(result.value).success).toBe(true);
  return { value: result.value, losses: result.losses.map((entry) => [entry.path, entry.kind]) };
};

describe("decodeMessagesResponse", () => {
  test("usage is normalised: input includes cache reads and writes", () => {
    const { value, losses } = decode(body({}));
    expect(losses).toEqual([]);
    expect(value).toEqual({
      id: "msg_1",
      model: "claude-x",
      choices: [
        {
          index: 0,
          parts: [{ type: "text", text: "hi", source: "/content/0" }],
          finishReason: "stop",
          finishReasonSource: "/stop_reason",
          rawFinishReason: "end_turn",
          extra: { origin: "messages", raw: {} },
          source: "",
        },
      ],
      usage: {
        inputTokens: 1203,
        outputTokens: 50,
        cacheReadTokens: 1000,
        cacheWriteTokens: 200,
        extra: { origin: "messages", raw: {} },
        source: "/usage",
      },
    });
  });

  test("stop sequence, thinking tokens and server blocks", () => {
    const search = { type: "web_search_tool_result", tool_use_id: "s", content: [] };
    const { value } = decode(
      body({
        content: [{ type: "server_tool_use", id: "s", name: "web_search", input: { query: "q" } }, search],
        stop_reason: "stop_sequence",
        stop_sequence: "END",
        usage: { input_tokens: 1, output_tokens: 5, output_tokens_details: { thinking_tokens: 3 } },
      }),
    );
    const choice = value.choices[0];
    expect(choice).toMatchObject({ finishReason: "stop-sequence", stopSequence: "END" });
    expect(choice?.parts[0]).toMatchObject({
      type: "opaque",
      origin: "messages",
      label: "server_tool_use block",
    });
    expect(choice?.parts[1]).toMatchObject({ type: "opaque", origin: "messages", raw: search });
    expect(value.usage?.reasoningTokens).toBe(3);
  });

  test("a json_tool_call answer (response format emulation) comes back as text with a natural stop", () => {
    const { value } = decode(
      body({
        content: [{ type: "tool_use", id: "t", name: "json_tool_call", input: { a: 1 } }],
        stop_reason: "tool_use",
      }),
    );
    expect(value.choices[0]).toMatchObject({
      parts: [{ type: "text", text: '{"a":1}' }],
      finishReason: "stop",
    });
  });

  test("unknown top-level and usage fields are dropped with their pointer and kept as extra", () => {
    const { value, losses } = decode(
      body({
        container: { id: "c", expires_at: "x" },
        usage: { input_tokens: 1, output_tokens: 1, service_tier: "standard" },
      }),
    );
    expect(losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/container", "dropped"],
      ["/usage/service_tier", "dropped"],
    ]);
    expect(value.extra).toEqual({ origin: "messages", raw: { container: { id: "c", expires_at: "x" } } });
  });

  test("every fixture response decodes and re-encodes to itself", () => {
    for (const entry of fixtures("response", "messages")) {
      const input = messages.response.parse(readJsonFixture(entry));
      const decoded = decodeMessagesResponse(input, options).value;
      expect(encodeMessagesResponse(decoded, options).value).toEqual(input);
    }
  });
});

describe("encodeMessagesResponse", () => {
  const choice = (parts: common.Part[], extra: Partial<common.Choice> = {}): common.Choice => ({
    index: 0,
    parts,
    source: "/choices/0",
    ...extra,
  });

  test("parts in their order, foreign reasoning marked with its origin in the signature, tool calls make tool_use", () => {
    const { value, losses } = encode({
      id: "r1",
      model: "g",
      choices: [
        choice(
          [
            { type: "text", text: "A", source: "/p/0" },
            { type: "tool-call", name: "f", arguments: { q: 1 }, source: "/p/1" },
            { type: "reasoning", text: "hm", origin: "chat", source: "/p/2" },
          ],
          { finishReason: "stop" },
        ),
      ],
      usage: { inputTokens: 20, outputTokens: 5, cacheReadTokens: 8, source: "/usage" },
    });
    expect(value).toEqual({
      id: "r1",
      type: "message",
      role: "assistant",
      model: "g",
      content: [
        { type: "text", text: "A" },
        { type: "tool_use", id: "gp_r1_0", name: "f", input: { q: 1 } },
        // Chat's reasoning goes home to chat, in its place (issue 29, messages/carrier.ts).
        {
          type: "thinking",
          thinking: "hm",
          signature: wrapCarried({ origin: "chat", entries: [{ reasoning: {} }] }),
        },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: 12,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 8,
        output_tokens: 5,
      },
    });
    expect(losses).toEqual([]);
  });

  test("extra choices are dropped; an unknown finish is approximated as end_turn", () => {
    const { value, losses } = encode({
      choices: [
        choice([], { finishReason: "other", rawFinishReason: "LANGUAGE" }),
        { index: 1, parts: [], source: "/candidates/1" },
      ],
    });
    expect(value).toMatchObject({
      // No id in the response: one derived from what it carries (common/digest.ts).
      id: expect.stringMatching(/^gp_msg_[0-9a-z]{11}$/),
      stop_reason: "end_turn",
      usage: { input_tokens: 0, output_tokens: 0 },
    });
    expect(losses).toEqual([
      ["/candidates/1", "dropped"],
      ["/choices/0", "approximated"],
      ["/usage", "synthesized"],
    ]);
  });

  test("a refusal part becomes text with stop_reason refusal; a blocked prompt is a refusal", () => {
    expect(
      encode({
        choices: [choice([{ type: "refusal", text: "No.", source: "/r" }], { finishReason: "stop" })],
      }).value,
    ).toMatchObject({
      content: [{ type: "text", text: "No." }],
      stop_reason: "refusal",
    });
    const blocked = encode({ choices: [], promptBlocked: { reason: "SAFETY", source: "/promptFeedback" } });
    expect(blocked.value).toMatchObject({ content: [], stop_reason: "refusal" });
    expect(blocked.losses).toContainEqual(["/promptFeedback", "approximated"]);
  });

  test("malformed argument text becomes _raw, never a throw", () => {
    const { value, losses } = encode({
      choices: [
        choice([{ type: "tool-call", id: "c", name: "f", argumentsText: "{oops", source: "/p" }], {
          finishReason: "tool-calls",
        }),
      ],
      usage: { inputTokens: 1, outputTokens: 1, source: "/usage" },
    });
    expect(value.content).toEqual([{ type: "tool_use", id: "c", name: "f", input: { _raw: "{oops" } }]);
    expect(losses).toEqual([["/p", "approximated"]]);
  });
});
