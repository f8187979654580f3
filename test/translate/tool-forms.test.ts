/**
 * Issue 30's acceptance for tools: for every recorded stream, translating the stream and translating the
 * same whole response (the stream accumulated) agree on the tools called and their inputs, toward every
 * protocol; a custom (free-form) tool call of a responses client round-trips through messages and
 * generative as a custom tool call with its input intact, whole and streamed, its stream cut anywhere
 * (inside an escape, between the halves of a surrogate pair).
 */
import { describe, expect, test } from "vitest";
import {
  accumulate,
  createStreamTranslator,
  type Protocol,
  protocols,
  replay,
  type TranslateOptions,
  translateRequest,
  translateResponse,
} from "../../src/index";
import { recordedEvents, wiredFixtures } from "../helpers/fixtures";
import { translateEvents } from "../helpers/translate";

type Call = { name: string; input: unknown; custom?: true; namespace?: string };

const parsed = (text: unknown): unknown => {
  if (typeof text !== "string") return text;
  try {
    return JSON.parse(text === "" ? "{}" : text);
  } catch {
    return { unparsed: text };
  }
};

type Json = Record<string, unknown>;
/** The objects of the list at `key` of `value` (none when it is not one). */
const list = (value: unknown, key: string): Json[] => {
  const found = (value as Json | undefined)?.[key];
  return Array.isArray(found) ? (found as Json[]) : [];
};
const field = (value: unknown, key: string): Json | undefined =>
  (value as Json | undefined)?.[key] as Json | undefined;

/** The tools a whole response of `protocol` calls, and their inputs, in order. */
function callsOf(protocol: Protocol, body: unknown): Call[] {
  const calls: Call[] = [];
  switch (protocol) {
    case "chat":
      for (const choice of list(body, "choices"))
        for (const call of list(field(choice, "message"), "tool_calls")) {
          const custom = field(call, "custom");
          const fn = field(call, "function");
          if (custom !== undefined)
            calls.push({ name: String(custom.name), input: custom.input, custom: true });
          else calls.push({ name: String(fn?.name), input: parsed(fn?.arguments) });
        }
      break;
    case "messages":
      for (const block of list(body, "content"))
        if (block.type === "tool_use") calls.push({ name: String(block.name), input: block.input });
      break;
    case "generative":
      for (const candidate of list(body, "candidates"))
        for (const part of list(field(candidate, "content"), "parts")) {
          const call = field(part, "functionCall");
          if (call !== undefined) calls.push({ name: String(call.name), input: call.args ?? {} });
        }
      break;
    case "responses":
      for (const item of list(body, "output")) {
        const namespace = typeof item.namespace === "string" ? { namespace: item.namespace } : {};
        if (item.type === "function_call")
          calls.push({ name: String(item.name), input: parsed(item.arguments), ...namespace });
        else if (item.type === "custom_tool_call")
          calls.push({ name: String(item.name), input: item.input, custom: true, ...namespace });
      }
      break;
  }
  return calls;
}

/** The whole response a recorded stream accumulates to; `undefined` for a stream that ends with an error. */
function wholeOf(protocol: Protocol, path: string): unknown {
  try {
    return accumulate(protocol, recordedEvents(path) as never);
  } catch {
    return undefined;
  }
}

describe("stream and whole response agree on tool calls (every recorded stream, every target)", () => {
  const streams = wiredFixtures("stream");
  test("the recorded streams include tool calls of every protocol", () => {
    const withCalls = new Set(
      streams
        .filter((entry) => callsOf(entry.protocol, wholeOf(entry.protocol, entry.path) ?? {}).length > 0)
        .map((entry) => entry.protocol),
    );
    expect([...withCalls].sort()).toEqual([...protocols].sort());
  });
  for (const from of protocols) {
    const own = streams.filter((entry) => entry.protocol === from);
    for (const to of protocols.filter((protocol) => protocol !== from)) {
      test(`${from} → ${to} (${own.length} streams)`, () => {
        for (const entry of own) {
          const events = recordedEvents(entry.path);
          const whole = wholeOf(from, entry.path);
          if (whole === undefined) continue;
          const expected = callsOf(to, translateResponse(from, to, whole as never).value);
          const streamed = callsOf(to, accumulate(to, translateEvents(from, to, events).out as never));
          expect(streamed, entry.path).toEqual(expected);
        }
      });
    }
  }
});

// ─── A custom tool call of a responses client, through messages and generative ────────────────────

/** A patch with what JSON escapes: quotes, backslashes, a newline, a tab, a non-BMP character. */
const PATCH =
  '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const s = "a\\\\b";\n+const s = "a\\tb 🎉";\n*** End Patch';

const clientRequest = {
  model: "gpt-5.5",
  max_output_tokens: 1000,
  input: [
    { type: "message", role: "user", content: [{ type: "input_text", text: "fix it" }] },
    { type: "custom_tool_call", call_id: "call_1", name: "apply_patch", input: PATCH },
    { type: "custom_tool_call_output", call_id: "call_1", output: "Done" },
  ],
  tools: [
    {
      type: "custom",
      name: "apply_patch",
      description: "Apply a patch",
      format: { type: "grammar", syntax: "lark", definition: "start: /.+/s" },
    },
    {
      type: "namespace",
      name: "agents",
      description: "Sub-agents",
      tools: [{ type: "function", name: "spawn", parameters: { type: "object", properties: {} } }],
    },
  ],
} as const;

/** Every cut of `text` into two pieces, and into single characters (code units). */
function cuts(text: string): string[][] {
  const all: string[][] = [];
  for (let at = 0; at <= text.length; at++) all.push([text.slice(0, at), text.slice(at)]);
  all.push(text.split(""));
  return all;
}

describe("a custom tool call round-trips responses → messages → responses", () => {
  const options: TranslateOptions = { request: clientRequest, created: 1 };

  test("the request: a function of one string parameter `input`, the grammar a loss, and back a custom tool", () => {
    const there = translateRequest("responses", "messages", clientRequest);
    const tool = there.value.tools?.find(
      (candidate) => "name" in candidate && candidate.name === "apply_patch",
    );
    expect(tool).toMatchObject({
      name: "apply_patch",
      input_schema: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
    });
    expect(there.value.tools?.map((candidate) => ("name" in candidate ? candidate.name : ""))).toEqual([
      "apply_patch",
      "agents__spawn",
    ]);
    const call = there.value.messages.flatMap((message) =>
      typeof message.content === "string" ? [] : message.content,
    )[1];
    expect(call).toMatchObject({ type: "tool_use", name: "apply_patch", input: { input: PATCH } });
    // The namespace's function omits `strict`: strict where its schema allows on responses only.
    expect(there.losses.map((loss) => [loss.path, loss.code])).toEqual([
      ["/tools/1/tools/0", "tool.strict.approximated"],
      ["/tools/0/format", "tool.format.dropped"],
      ["/tools/1/description", "namespace.description.dropped"],
    ]);
    const back = translateRequest("messages", "responses", there.value);
    expect(back.value.tools?.[0]).toMatchObject({ type: "custom", name: "apply_patch" });
    expect(back.value.input).toContainEqual(
      expect.objectContaining({ type: "custom_tool_call", name: "apply_patch", input: PATCH }),
    );
  });

  test("a whole messages response calling it comes back a custom_tool_call with the patch", () => {
    const upstream = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-6",
      content: [
        { type: "tool_use", id: "toolu_1", name: "apply_patch", input: { input: PATCH } },
        { type: "tool_use", id: "toolu_2", name: "agents__spawn", input: {} },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const { value, losses } = translateResponse("messages", "responses", upstream as never, options);
    expect(callsOf("responses", value)).toEqual([
      { name: "apply_patch", input: PATCH, custom: true },
      { name: "spawn", input: {}, namespace: "agents" },
    ]);
    expect(losses).toEqual([]);
  });

  test("a messages stream calling it, its JSON cut anywhere, comes back a custom_tool_call with the patch", () => {
    const json = JSON.stringify({ input: PATCH });
    for (const pieces of cuts(json)) {
      const events = [
        {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "claude-sonnet-4-6",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 0 },
          },
        },
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "toolu_1", name: "apply_patch", input: {} },
        },
        ...pieces.map((partial_json) => ({
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json },
        })),
        { type: "content_block_stop", index: 0 },
        {
          type: "message_delta",
          delta: { stop_reason: "tool_use", stop_sequence: null },
          usage: { output_tokens: 5 },
        },
        { type: "message_stop" },
      ];
      const { out, losses } = translateEvents("messages", "responses", events, options);
      expect(callsOf("responses", accumulate("responses", out as never)), JSON.stringify(pieces)).toEqual([
        { name: "apply_patch", input: PATCH, custom: true },
      ]);
      expect(losses).toEqual([]);
    }
  });
});

describe("a custom tool call round-trips responses → generative → responses", () => {
  const options: TranslateOptions = { request: clientRequest, created: 1 };

  test("the request: a declaration of one string parameter, the call's args {input}; back a custom tool call", () => {
    const there = translateRequest("responses", "generative", clientRequest);
    const declarations = there.value.tools?.[0]?.functionDeclarations ?? [];
    expect(declarations.map((declaration) => declaration.name)).toEqual(["apply_patch", "agents__spawn"]);
    const parts = (there.value.contents ?? []).flatMap((content) => content.parts ?? []);
    expect(parts).toContainEqual(
      expect.objectContaining({
        functionCall: expect.objectContaining({ name: "apply_patch", args: { input: PATCH } }),
      }),
    );
    const back = translateRequest("generative", "responses", there.value, { model: "gemini-3-pro" });
    expect(back.value.tools?.[0]).toMatchObject({ type: "custom", name: "apply_patch" });
    expect(back.value.input).toContainEqual(
      expect.objectContaining({ type: "custom_tool_call", name: "apply_patch", input: PATCH }),
    );
  });

  test("a generative answer calling it, whole and streamed, comes back a custom_tool_call with the patch", () => {
    const candidate = {
      content: {
        role: "model",
        parts: [
          { functionCall: { id: "fc1", name: "apply_patch", args: { input: PATCH } } },
          { functionCall: { id: "fc2", name: "agents__spawn", args: {} } },
        ],
      },
      finishReason: "STOP",
    };
    const body = {
      candidates: [candidate],
      modelVersion: "gemini-3-pro",
      responseId: "r1",
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    };
    const whole = translateResponse("generative", "responses", body as never, options);
    const expected = [
      { name: "apply_patch", input: PATCH, custom: true },
      { name: "spawn", input: {}, namespace: "agents" },
    ];
    expect(callsOf("responses", whole.value)).toEqual(expected);
    expect(whole.losses).toEqual([]);
    const translator = createStreamTranslator("generative", "responses", options);
    const out = [...translator.push(body as never), ...translator.end()];
    expect(callsOf("responses", accumulate("responses", out as never))).toEqual(expected);
    expect(translator.losses).toEqual([]);
  });

  test("arguments not of the {input} shape pass as their JSON text, said", () => {
    const body = {
      candidates: [
        {
          content: {
            role: "model",
            parts: [{ functionCall: { id: "fc1", name: "apply_patch", args: { patch: "x" } } }],
          },
          finishReason: "STOP",
        },
      ],
    };
    const { value, losses } = translateResponse("generative", "responses", body as never, options);
    expect(callsOf("responses", value)).toEqual([
      { name: "apply_patch", input: '{"patch":"x"}', custom: true },
    ]);
    expect(losses.map((loss) => loss.code)).toEqual(["tool_call.freeform.unwrapped"]);
  });
});

describe("a custom tool call toward chat", () => {
  test("OpenAI chat has custom tools: a responses custom call reaches a chat client as a custom tool call", () => {
    const events = recordedEvents("responses/stream/openai-function-call-2025-03.sse");
    expect(events.length).toBeGreaterThan(0);
    const chatRequest = {
      model: "gpt-5.5",
      messages: [{ role: "user", content: "fix it" }],
      tools: [{ type: "custom", custom: { name: "apply_patch" } }],
    };
    const there = translateRequest("chat", "responses", chatRequest);
    expect(there.value.tools).toEqual([{ type: "custom", name: "apply_patch" }]);
    const upstream = {
      id: "resp_1",
      object: "response",
      created_at: 1,
      status: "completed",
      model: "gpt-5.5",
      output: [
        {
          id: "ctc_1",
          type: "custom_tool_call",
          status: "completed",
          call_id: "call_1",
          name: "apply_patch",
          input: PATCH,
        },
      ],
    };
    const whole = translateResponse("responses", "chat", upstream as never, { request: chatRequest });
    expect(callsOf("chat", whole.value)).toEqual([{ name: "apply_patch", input: PATCH, custom: true }]);
  });

  test("streamed: the custom call reaches a chat client as delta.tool_calls[].custom pieces, and a client without custom tools as {input}", () => {
    const chatRequest = {
      model: "gpt-5.5",
      messages: [{ role: "user", content: "fix it" }],
      tools: [{ type: "custom", custom: { name: "apply_patch" } }],
    };
    const upstream = {
      id: "resp_1",
      object: "response",
      created_at: 1,
      status: "completed",
      model: "gpt-5.5",
      output: [
        {
          id: "ctc_1",
          type: "custom_tool_call",
          status: "completed",
          call_id: "call_1",
          name: "apply_patch",
          input: PATCH,
        },
      ],
    };
    const events = replay("responses", upstream as never);
    const { out, losses } = translateEvents("responses", "chat", events, { request: chatRequest });
    const pieces = out.flatMap((chunk) =>
      list(list(chunk, "choices")[0] ? field(list(chunk, "choices")[0], "delta") : undefined, "tool_calls"),
    );
    expect(pieces.some((piece) => field(piece, "custom") !== undefined)).toBe(true);
    expect(pieces.some((piece) => field(piece, "function") !== undefined)).toBe(false);
    expect(callsOf("chat", accumulate("chat", out as never))).toEqual([
      { name: "apply_patch", input: PATCH, custom: true },
    ]);
    expect(losses).toEqual([]);
    // A compatible dialect has no custom tools: the call comes as a function call of {"input": text}.
    const compatible = translateEvents("responses", "chat", events, { chatDialect: "compatible" });
    expect(callsOf("chat", accumulate("chat", compatible.out as never))).toEqual([
      { name: "apply_patch", input: { input: PATCH } },
    ]);
    expect(compatible.losses.map((loss) => loss.code)).toEqual(["tool_call.freeform.approximated"]);
  });
});
