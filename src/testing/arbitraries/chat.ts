/**
 * Arbitraries for the chat wire format, written against the wire shapes (not produced by our encoders):
 * requests with every role and part kind, responses, and hand-written chunk streams split at odd places;
 * the hard cases a `bias` asks for; and what the laws must know of chat streams and usage.
 */
import fc from "fast-check";
import { chatGrammar } from "../grammar";
import {
  givenFact,
  givenKeysArb,
  type Hard,
  isRecord,
  leaning,
  pieces,
  someNode,
  sometimes,
  textFacts,
  textFor,
  zeroOr,
} from "./common";
import type { ProtocolArbitraries, UsageTotals } from "./types";

const textArb = fc.string({ maxLength: 12 });
const idArb = fc.oneof(fc.constant(""), fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/));
const argumentsArb = fc.oneof(
  fc.constant("{}"),
  fc.constant('{"a":1,'),
  fc.constant(""),
  fc.constant("[1]"),
  fc
    .dictionary(fc.stringMatching(/^[a-z]{1,4}$/), fc.oneof(fc.integer(), textArb, fc.boolean()), {
      maxKeys: 3,
    })
    .map((value) => JSON.stringify(value)),
);
const cacheArb = fc.option(
  fc.record(
    { type: fc.constant("ephemeral"), ttl: fc.option(fc.constant("5m"), { nil: undefined }) },
    { requiredKeys: ["type"] },
  ),
  { nil: undefined },
);

const textPartArb = fc.record(
  { type: fc.constant("text" as const), text: textArb, cache_control: cacheArb },
  { requiredKeys: ["type", "text"] },
);
const contentPartArb = fc.oneof(
  textPartArb,
  fc.record({
    type: fc.constant("image_url" as const),
    image_url: fc.record(
      {
        url: fc.constantFrom(
          "https://ex.com/a.png",
          "data:image/png;base64,iVBO",
          "data:image/gif;base64,R0lG",
          "not a url",
        ),
        detail: fc.constantFrom("low", "high", "auto"),
      },
      { requiredKeys: ["url"] },
    ),
  }),
  fc.record({
    type: fc.constant("input_audio" as const),
    input_audio: fc.record({ data: fc.constant("UklG"), format: fc.constantFrom("wav", "mp3", "flac") }),
  }),
  fc.record({
    type: fc.constant("file" as const),
    file: fc.record(
      {
        file_data: fc.constantFrom("data:application/pdf;base64,JVBER", "plain"),
        file_id: fc.constant("file-1"),
        filename: fc.constant("a.pdf"),
      },
      { requiredKeys: [] },
    ),
  }),
);

const toolCallArb = fc.record({
  id: idArb,
  type: fc.constant("function" as const),
  function: fc.record({ name: fc.stringMatching(/^[a-z_]{1,6}$/), arguments: argumentsArb }),
});

const contentArb = fc.oneof(textArb, fc.array(textPartArb, { maxLength: 3 }));

export const chatMessageArb = fc.oneof(
  fc.record({ role: fc.constantFrom("system" as const, "developer" as const), content: contentArb }),
  fc.record(
    {
      role: fc.constant("user" as const),
      content: fc.oneof(textArb, fc.array(contentPartArb, { maxLength: 4 })),
      name: fc.option(textArb, { nil: undefined }),
    },
    { requiredKeys: ["role", "content"] },
  ),
  fc.record(
    {
      role: fc.constant("assistant" as const),
      content: fc.oneof(
        fc.constant(null),
        textArb,
        fc.array(
          fc.oneof(textPartArb, fc.record({ type: fc.constant("refusal" as const), refusal: textArb })),
          { maxLength: 2 },
        ),
      ),
      reasoning_content: fc.option(textArb, { nil: undefined }),
      refusal: fc.option(textArb, { nil: null }),
      tool_calls: fc.array(toolCallArb, { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ["role"] },
  ),
  fc.record({ role: fc.constant("tool" as const), tool_call_id: idArb, content: contentArb }),
  fc.record({
    role: fc.constant("function" as const),
    name: textArb,
    content: fc.option(textArb, { nil: null }),
  }),
);

/** A message that neither makes nor answers a tool call. */
const plainMessageArb = chatMessageArb.filter(
  (message) => message.role !== "tool" && !(message.role === "assistant" && "tool_calls" in message),
);

/**
 * An assistant turn with tool calls (unique, non-empty ids) and one `tool` message per call right after
 * it, as real histories have them.
 */
const toolExchangeArb = fc
  .record({
    assistant: fc.record(
      {
        content: fc.oneof(fc.constant(null), textArb),
        reasoning_content: textArb,
      },
      { requiredKeys: ["content"] },
    ),
    calls: fc.uniqueArray(toolCallArb, {
      minLength: 1,
      maxLength: 3,
      selector: (call) => call.id,
    }),
    results: fc.array(contentArb, { minLength: 3, maxLength: 3 }),
    reversed: fc.boolean(),
  })
  .map(({ assistant, calls, results, reversed }) => {
    const named = calls.map((call, index) => ({ ...call, id: call.id === "" ? `Call_${index}` : call.id }));
    const answers = named.map((call, index) => ({
      role: "tool" as const,
      tool_call_id: call.id,
      content: results[index] ?? "",
    }));
    return [
      { role: "assistant" as const, ...assistant, tool_calls: named },
      ...(reversed ? answers.reverse() : answers),
    ];
  });

/** Mostly well-paired histories; a small share of arbitrary message lists (orphan calls and results). */
const chatMessagesArb = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .array(
        fc.oneof({ weight: 3, arbitrary: plainMessageArb.map((message) => [message]) }, toolExchangeArb),
        {
          minLength: 1,
          maxLength: 4,
        },
      )
      .map((exchanges) => exchanges.flat()),
  },
  { weight: 1, arbitrary: fc.array(chatMessageArb, { minLength: 1, maxLength: 6 }) },
);

const toolArb = fc.oneof(
  fc.record({
    type: fc.constant("function" as const),
    function: fc.record(
      {
        name: fc.stringMatching(/^[a-z_]{1,6}$/),
        description: textArb,
        parameters: fc.constant({ type: "object", properties: { a: { type: "string" } } }),
        strict: fc.boolean(),
      },
      { requiredKeys: ["name"] },
    ),
  }),
  fc.record({ type: fc.constant("custom"), custom: fc.record({ name: textArb }) }),
);

const wordArb = fc.stringMatching(/^[a-z]{1,6}$/);
const objectArgumentsArb = fc
  .dictionary(wordArb, fc.oneof(fc.integer(), textArb, fc.boolean()), { maxKeys: 3 })
  .map((value) => JSON.stringify(value));

/**
 * The everyday request: a conversation of text and tool calls with JSON-object arguments, a few
 * settings every protocol has. Most real traffic looks like this, and it is what round trips can keep.
 */
const sayArb = fc
  .string({ minLength: 1, maxLength: 12 })
  .filter((text) => text.trim() === text && text !== "");
const sayContentArb = fc.oneof(
  sayArb,
  fc.array(
    sayArb.map((text) => ({ type: "text" as const, text })),
    { minLength: 1, maxLength: 2 },
  ),
);
const everydayToolsArb = fc
  .record({
    content: fc.oneof(fc.constant(null), sayArb),
    calls: fc.uniqueArray(
      fc.record({
        id: fc.stringMatching(/^call_[A-Za-z0-9]{1,6}$/),
        name: wordArb,
        arguments: objectArgumentsArb,
      }),
      { minLength: 1, maxLength: 3, selector: (call) => call.id },
    ),
    results: fc.array(sayArb, { minLength: 3, maxLength: 3 }),
  })
  .map(({ content, calls, results }) => [
    {
      role: "assistant" as const,
      content,
      tool_calls: calls.map(({ id, name, arguments: args }) => ({
        id,
        type: "function" as const,
        function: { name, arguments: args },
      })),
    },
    ...calls.map((call, index) => ({
      role: "tool" as const,
      tool_call_id: call.id,
      content: results[index] ?? "",
    })),
  ]);
const assistantTextArb = fc.record({ role: fc.constant("assistant" as const), content: sayArb });

/** One or two user messages, then the assistant's answer: text, tool calls with their results, or both. */
const everydayExchangeArb = fc
  .tuple(
    fc.array(fc.record({ role: fc.constant("user" as const), content: sayContentArb }), {
      minLength: 1,
      maxLength: 2,
    }),
    fc.oneof(
      assistantTextArb.map((message) => [message]),
      everydayToolsArb,
      fc.tuple(everydayToolsArb, assistantTextArb).map(([tools, text]) => [...tools, text]),
    ),
    fc.boolean(),
  )
  .map(([users, answer, answered]) => (answered ? [...users, ...answer] : users));

const everydayRequestArb = fc
  .record(
    {
      model: textArb,
      system: fc.option(sayArb, { nil: undefined }),
      exchanges: fc.array(everydayExchangeArb, { minLength: 1, maxLength: 4 }),
      stream: fc.boolean(),
      temperature: fc.double({ min: 0, max: 1, noNaN: true }),
      max_completion_tokens: fc.integer({ min: 1, max: 100_000 }),
      stop: fc.array(
        sayArb.filter((stop) => stop.trim() !== ""),
        { minLength: 1, maxLength: 4 },
      ),
      tools: fc.uniqueArray(
        fc.record({
          type: fc.constant("function" as const),
          function: fc.record(
            {
              name: wordArb,
              description: sayArb,
              parameters: fc.constant({ type: "object", properties: { a: { type: "string" } } }),
            },
            { requiredKeys: ["name", "parameters"] },
          ),
        }),
        { minLength: 1, maxLength: 3, selector: (tool) => tool.function.name },
      ),
      tool_choice: fc.constantFrom("auto" as const, "none" as const, "required" as const),
    },
    { requiredKeys: ["model", "exchanges", "max_completion_tokens"] },
  )
  // `tool_choice` is only allowed beside tools.
  .map(({ system, exchanges, tool_choice, ...rest }) => ({
    ...rest,
    ...(rest.tools === undefined || rest.tools.length === 0 ? {} : { tool_choice }),
    messages: [
      ...(system === undefined ? [] : [{ role: "system" as const, content: system }]),
      ...exchanges.flat(),
    ],
  }));

const anyRequestArb = fc.record(
  {
    model: textArb,
    messages: chatMessagesArb,
    stream: fc.boolean(),
    stream_options: fc.record({ include_usage: fc.boolean() }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    top_p: fc.double({ min: 0, max: 1, noNaN: true }),
    max_tokens: fc.nat(),
    max_completion_tokens: fc.nat(),
    n: fc.integer({ min: 1, max: 4 }),
    seed: fc.integer(),
    stop: fc.oneof(textArb, fc.array(textArb, { maxLength: 6 })),
    presence_penalty: fc.double({ min: -2, max: 2, noNaN: true }),
    logprobs: fc.boolean(),
    top_logprobs: fc.nat({ max: 20 }),
    logit_bias: fc.constant({ "50256": -100 }),
    user: textArb,
    // OpenAI's tiers, and Groq's `on_demand`.
    service_tier: fc.constantFrom("auto", "default", "flex", "scale", "priority", "on_demand"),
    reasoning_effort: fc.constantFrom("minimal", "low", "medium", "high", "vendor-x"),
    parallel_tool_calls: fc.boolean(),
    tools: fc.array(toolArb, { maxLength: 3 }),
    tool_choice: fc.oneof(
      fc.constantFrom("auto", "none", "required", "vendor"),
      fc.record({ type: fc.constant("function"), function: fc.record({ name: textArb }) }),
      fc.record({
        type: fc.constant("allowed_tools"),
        allowed_tools: fc.record({
          mode: fc.constantFrom("auto", "required"),
          tools: fc.constant([{ type: "function", function: { name: "a" } }]),
        }),
      }),
    ),
    response_format: fc.oneof(
      fc.constant({ type: "text" }),
      fc.constant({ type: "json_object" }),
      fc.record({
        type: fc.constant("json_schema"),
        json_schema: fc.record({
          name: textArb,
          schema: fc.constant({ type: "object" }),
          strict: fc.option(fc.boolean(), { nil: null }),
        }),
      }),
    ),
    provider: fc.constant({ order: ["x"] }),
  },
  { requiredKeys: ["model", "messages"] },
);

export const chatRequestArb = fc.oneof(anyRequestArb, everydayRequestArb);

const usageArb = fc.record(
  {
    prompt_tokens: fc.nat(),
    completion_tokens: fc.nat(),
    total_tokens: fc.nat(),
    prompt_tokens_details: fc.option(
      fc.record({ cached_tokens: fc.nat(), cache_write_tokens: fc.nat() }, { requiredKeys: [] }),
      { nil: null },
    ),
    completion_tokens_details: fc.record({ reasoning_tokens: fc.nat() }),
  },
  { requiredKeys: [] },
);

const finishArb = fc.constantFrom(
  "stop",
  "length",
  "tool_calls",
  "content_filter",
  "function_call",
  "vendor_reason",
  null,
);

export const chatResponseArb = fc.record(
  {
    id: textArb,
    object: fc.constant("chat.completion"),
    created: fc.nat(),
    model: textArb,
    choices: fc.array(
      fc.record({
        index: fc.nat({ max: 3 }),
        finish_reason: finishArb,
        message: fc.record(
          {
            role: fc.constant("assistant"),
            content: fc.option(textArb, { nil: null }),
            refusal: fc.option(textArb, { nil: null }),
            reasoning_content: fc.option(textArb, { nil: null }),
            tool_calls: fc.array(toolCallArb, { maxLength: 3 }),
            annotations: fc.array(
              fc.record({ type: fc.constant("url_citation"), url_citation: fc.record({ url: textArb }) }),
              { maxLength: 1 },
            ),
          },
          { requiredKeys: ["role"] },
        ),
      }),
      { maxLength: 3 },
    ),
    usage: fc.option(usageArb, { nil: null }),
    system_fingerprint: fc.option(textArb, { nil: null }),
  },
  { requiredKeys: ["id", "object", "created", "model", "choices"] },
);

const deltaArb = fc.record(
  {
    role: fc.constant("assistant"),
    content: fc.option(textArb, { nil: null }),
    reasoning_content: fc.option(textArb, { nil: null }),
    refusal: fc.option(textArb, { nil: null }),
    tool_calls: fc.array(
      fc.record(
        {
          index: fc.nat({ max: 2 }),
          id: fc.option(idArb, { nil: null }),
          type: fc.constant("function"),
          function: fc.record(
            { name: fc.stringMatching(/^[a-z]{1,4}$/), arguments: fc.string({ maxLength: 4 }) },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: [] },
);

export const chatChunkArb = fc.record(
  {
    id: textArb,
    object: fc.constant("chat.completion.chunk"),
    created: fc.nat(),
    model: textArb,
    choices: fc.array(
      fc.record(
        { index: fc.nat({ max: 1 }), delta: deltaArb, finish_reason: finishArb },
        { requiredKeys: ["index", "delta"] },
      ),
      { maxLength: 2 },
    ),
    usage: fc.option(usageArb, { nil: null }),
  },
  { requiredKeys: ["choices"] },
);

/** A hand-written stream: arbitrary chunks, maybe an error object, maybe DONE at the end. */
export const chatStreamArb = fc
  .tuple(
    fc.array(chatChunkArb, { maxLength: 8 }),
    fc.option(
      fc.record({
        error: fc.record({
          message: textArb,
          type: textArb,
          code: fc.oneof(textArb, fc.integer(), fc.constant(null)),
        }),
      }),
      { nil: undefined },
    ),
    fc.boolean(),
  )
  .map(([chunks, error, done]) => [
    ...chunks,
    ...(error === undefined ? [] : [error]),
    ...(done ? ["[DONE]" as const] : []),
  ]);

export const chatErrorBodyArb = fc.record({
  error: fc.record({
    message: textArb,
    type: fc.option(textArb, { nil: null }),
    param: fc.option(textArb, { nil: null }),
    code: fc.oneof(textArb, fc.integer(), fc.constant(null)),
  }),
});

// ─── Hard cases ──────────────────────────────────────────────────────────────────────────────────

const imagePartArb = fc.record({
  type: fc.constant("image_url" as const),
  image_url: fc.record(
    {
      url: fc.constantFrom(
        "https://ex.com/a.png",
        "data:image/png;base64,iVBORw0KGgo=",
        "data:image/jpeg;base64,/9j/4AAQ",
      ),
      detail: fc.constantFrom("low", "high", "auto"),
    },
    { requiredKeys: ["url"] },
  ),
});

/** Settings given as `0`, `false` or `""`: each means something other than leaving it out. */
const zeroSettings = {
  temperature: 0,
  top_p: 0,
  seed: 0,
  presence_penalty: 0,
  frequency_penalty: 0,
  logprobs: false,
  top_logprobs: 0,
  user: "",
} as const;

const zeroSettingsArb = fc.record(
  Object.fromEntries(Object.entries(zeroSettings).map(([key, value]) => [key, fc.constant(value)])),
  { requiredKeys: [] },
);

/** Calls with JSON-object arguments and unique ids; two or more (parallel) when tools are asked for. */
function callsArb(hard: Hard, text: fc.Arbitrary<string>) {
  return fc.uniqueArray(
    fc.record({
      id: fc.stringMatching(/^call_[A-Za-z0-9]{1,8}$/),
      name: wordArb,
      arguments: fc
        .dictionary(wordArb, fc.oneof(fc.integer(), text, fc.boolean(), fc.constant(0)), { maxKeys: 3 })
        .map((value) => JSON.stringify(value)),
    }),
    { minLength: hard.tools ? 2 : 1, maxLength: hard.tools ? 4 : 1, selector: (call) => call.id },
  );
}

/** A conversation built around the hard cases asked for: images, parallel calls, reasoning, zeros. */
function hardRequestArb(hard: Hard) {
  const say = textFor(hard, { nonEmpty: true });
  const text = textFor(hard);
  const user = hard.images
    ? fc
        .tuple(say, fc.array(imagePartArb, { minLength: 1, maxLength: 2 }))
        .map(([words, images]) => ({ role: "user", content: [{ type: "text", text: words }, ...images] }))
    : say.map((words) => ({ role: "user", content: words }));
  const exchange = fc
    .record({
      calls: sometimes(callsArb(hard, text), hard.tools),
      reasoning: sometimes(text, hard.thinking),
      content: fc.oneof(fc.constant(null), text),
      results: fc.array(text, { minLength: 4, maxLength: 4 }),
    })
    .map(({ calls, reasoning, content, results }) => [
      {
        role: "assistant",
        content: calls === undefined && content === null ? "" : content,
        ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
        ...(calls === undefined
          ? {}
          : {
              tool_calls: calls.map(({ id, name, arguments: args }) => ({
                id,
                type: "function",
                function: { name, arguments: args },
              })),
            }),
      },
      ...(calls ?? []).map((call, index) => ({
        role: "tool",
        tool_call_id: call.id,
        content: results[index] ?? "",
      })),
    ]);
  return fc
    .record({
      model: fc.constantFrom("gpt-4o", "m"),
      system: fc.option(say, { nil: undefined }),
      turns: fc.array(fc.tuple(user, exchange), { minLength: 1, maxLength: 3 }),
      last: user,
      settings: hard.zeros
        ? zeroSettingsArb
        : fc.record(
            { temperature: fc.double({ min: 0, max: 2, noNaN: true }), max_completion_tokens: fc.nat() },
            { requiredKeys: [] },
          ),
      stream: fc.boolean(),
    })
    .map(({ model, system, turns, last, settings, stream }) => {
      const messages = [
        ...(system === undefined ? [] : [{ role: "system", content: system }]),
        ...turns.flatMap(([question, answer]) => [question, ...answer]),
        last,
      ];
      const names = [
        ...new Set(
          messages.flatMap((message) =>
            "tool_calls" in message && Array.isArray(message.tool_calls)
              ? message.tool_calls.map((call: { function: { name: string } }) => call.function.name)
              : [],
          ),
        ),
      ];
      return {
        model,
        messages,
        ...settings,
        ...(stream ? { stream } : {}),
        ...(names.length === 0
          ? {}
          : {
              tools: names.map((name) => ({
                type: "function",
                function: { name, parameters: { type: "object", properties: {} } },
              })),
            }),
      };
    });
}

const usageFiguresArb = (hard: Hard) =>
  fc
    .record({
      prompt: zeroOr(hard, 0, fc.nat(10_000)),
      completion: zeroOr(hard, 0, fc.nat(10_000)),
      cached: zeroOr(hard, 0, fc.nat(10_000)),
      reasoning: zeroOr(hard, 0, fc.nat(10_000)),
    })
    .map(({ prompt, completion, cached, reasoning }) => ({
      prompt_tokens: prompt + cached,
      completion_tokens: completion + reasoning,
      total_tokens: prompt + cached + completion + reasoning,
      prompt_tokens_details: { cached_tokens: cached },
      completion_tokens_details: { reasoning_tokens: reasoning },
    }));

/** One finished answer built around the hard cases: parallel calls, reasoning, unicode, huge text, zeros. */
function hardResponseArb(hard: Hard) {
  const text = textFor(hard);
  return fc
    .record({
      id: fc.stringMatching(/^chatcmpl-[A-Za-z0-9]{1,8}$/),
      created: zeroOr(hard, 0, fc.nat()),
      content: fc.option(text, { nil: null }),
      reasoning: sometimes(text, hard.thinking),
      calls: sometimes(callsArb(hard, text), hard.tools),
      finish: fc.constantFrom("stop", "length", "content_filter"),
      usage: usageFiguresArb(hard),
    })
    .map(({ id, created, content, reasoning, calls, finish, usage }) => ({
      id,
      object: "chat.completion",
      created,
      model: "gpt-4o",
      choices: [
        {
          index: 0,
          finish_reason: calls === undefined ? finish : "tool_calls",
          message: {
            role: "assistant",
            content,
            ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
            ...(calls === undefined
              ? {}
              : {
                  tool_calls: calls.map(({ id: callId, name, arguments: args }) => ({
                    id: callId,
                    type: "function",
                    function: { name, arguments: args },
                  })),
                }),
          },
        },
      ],
      usage,
    }));
}

// ─── Streams ─────────────────────────────────────────────────────────────────────────────────────

/** The figures every chat usage object has (required by the API), when the wire arbitrary left them out. */
const figures = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/**
 * One finished choice at index 0; `content` always present and usage with its figures, as in every chat
 * response (both required by the API). A stream carries choice 0 only, and every well-formed stream ends
 * with a finish reason.
 */
const replayableResponseArb = chatResponseArb
  .filter((body) => body.choices.length > 0 && body.choices[0]?.finish_reason != null)
  .map((body) => {
    const [first] = body.choices;
    const message = first?.message ?? { role: "assistant" };
    const usage = body.usage == null ? body.usage : { ...figures, ...body.usage };
    return {
      ...body,
      choices: [{ ...first, index: 0, message: { ...message, content: message.content ?? null } }],
      ...(usage === undefined ? {} : { usage }),
    };
  });

const streamTextArb = fc.string({
  unit: fc.constantFrom("a", " ", "é", "😀", "\n", '"', "\\"),
  maxLength: 12,
});
const cutsArb = fc.array(fc.nat(), { maxLength: 3 });

/**
 * How a chat-compatible upstream writes a reasoning or text piece: `reasoning_content` (DeepSeek,
 * Qwen), `reasoning` (vLLM, Ollama), Mistral's content chunks, an audio answer's transcript (OpenAI).
 */
const reasoningStyleArb = fc.constantFrom("reasoning_content", "reasoning", "mistral");
const textStyleArb = fc.constantFrom("content", "mistral", "audio");

function reasoningDelta(style: string, piece: string): object {
  if (style === "mistral")
    return { content: [{ type: "thinking", thinking: [{ type: "text", text: piece }] }] };
  return { [style]: piece };
}

function textDelta(style: string, piece: string): object {
  if (style === "mistral") return { content: [{ type: "text", text: piece }] };
  return style === "audio" ? { audio: { transcript: piece, data: "UklG" } } : { content: piece };
}

/**
 * A chat stream as a real upstream sends it: role chunk, reasoning then text pieces (in
 * any dialect's fields), tool calls whose arguments are split at odd places, a finish chunk, maybe a
 * trailing usage chunk, `[DONE]`.
 */
function grammaticalStreamArb(hard: Hard) {
  const text = hard.any ? fc.oneof(streamTextArb, textFor(hard)) : streamTextArb;
  return fc
    .record({
      reasoning: fc.tuple(text, cutsArb),
      text: fc.tuple(text, cutsArb),
      reasoningStyle: reasoningStyleArb,
      textStyle: textStyleArb,
      calls: fc.array(
        fc.record({
          name: fc.stringMatching(/^[a-z]{1,4}$/),
          args: fc.dictionary(fc.stringMatching(/^[a-z]{1,3}$/), fc.oneof(fc.integer(), text), {
            maxKeys: 2,
          }),
          cuts: cutsArb,
        }),
        { minLength: hard.tools ? 2 : 0, maxLength: hard.tools ? 3 : 2 },
      ),
      finish: fc.constantFrom("stop", "length", "tool_calls", "content_filter"),
      usage: fc.option(fc.record({ prompt_tokens: fc.nat(99), completion_tokens: fc.nat(99) }), {
        nil: undefined,
      }),
    })
    .map(({ reasoning, text: answer, reasoningStyle, textStyle, calls, finish, usage }) => {
      const head = { id: "c1", object: "chat.completion.chunk", created: 7, model: "g" };
      const chunk = (delta: object, finish_reason: string | null = null) => ({
        ...head,
        choices: [{ index: 0, delta, finish_reason }],
      });
      const events: unknown[] = [chunk({ role: "assistant", content: "" })];
      for (const piece of pieces(...reasoning))
        if (piece !== "") events.push(chunk(reasoningDelta(reasoningStyle, piece)));
      for (const piece of pieces(...answer))
        if (piece !== "") events.push(chunk(textDelta(textStyle, piece)));
      calls.forEach((call, index) => {
        events.push(
          chunk({
            tool_calls: [
              { index, id: `call_${index}`, type: "function", function: { name: call.name, arguments: "" } },
            ],
          }),
        );
        for (const piece of pieces(JSON.stringify(call.args), call.cuts))
          if (piece !== "") events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      });
      events.push(chunk({}, calls.length > 0 ? "tool_calls" : finish));
      if (usage !== undefined)
        events.push({
          ...head,
          choices: [],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        });
      events.push("[DONE]");
      return events;
    });
}

const formatArb = fc.constantFrom("anthropic-claude-v1", "google-gemini-v1", "unknown", undefined);

/**
 * An OpenRouter stream: reasoning entries (text pieces, then maybe a signature entry; or one encrypted
 * entry), each repeated in `reasoning` as OpenRouter does, then text and the finish. For the stream laws
 * in the openrouter dialect, whose whole responses keep every entry.
 */
export const openRouterStreamArb = fc
  .record({
    entries: fc.array(
      fc.oneof(
        fc.record({
          kind: fc.constant("text" as const),
          text: fc.tuple(streamTextArb, cutsArb),
          signature: fc.option(fc.stringMatching(/^[A-Za-z0-9+/]{1,12}$/), { nil: undefined }),
          format: formatArb,
        }),
        fc.record({
          kind: fc.constant("encrypted" as const),
          data: fc.stringMatching(/^[A-Za-z0-9+/]{1,12}$/),
          format: formatArb,
        }),
      ),
      { maxLength: 3 },
    ),
    text: fc.tuple(streamTextArb, cutsArb),
  })
  .map(({ entries, text }) => {
    const head = { id: "gen-1", object: "chat.completion.chunk", created: 7, model: "or" };
    const chunk = (delta: object, finish_reason: string | null = null) => ({
      ...head,
      choices: [{ index: 0, delta, finish_reason }],
    });
    const events: unknown[] = [
      chunk({ role: "assistant", content: "", reasoning: null, reasoning_details: [] }),
    ];
    entries.forEach((entry, index) => {
      const format = entry.format === undefined ? {} : { format: entry.format };
      if (entry.kind === "encrypted") {
        events.push(
          chunk({ reasoning_details: [{ type: "reasoning.encrypted", data: entry.data, ...format, index }] }),
        );
        return;
      }
      // OpenRouter opens a block with an empty entry (test/fixtures/chat/stream/openrouter-reasoning.sse).
      events.push(
        chunk({
          reasoning: null,
          reasoning_details: [{ type: "reasoning.text", text: "", ...format, index }],
        }),
      );
      for (const piece of pieces(...entry.text))
        events.push(
          chunk({
            reasoning: piece,
            reasoning_details: [{ type: "reasoning.text", text: piece, ...format, index }],
          }),
        );
      if (entry.signature !== undefined)
        events.push(
          chunk({
            reasoning: null,
            reasoning_details: [{ type: "reasoning.text", signature: entry.signature, ...format, index }],
          }),
        );
    });
    for (const piece of pieces(...text))
      events.push(chunk({ content: piece, reasoning: null, reasoning_details: [] }));
    events.push(chunk({ content: "" }, "stop"));
    events.push("[DONE]");
    return events;
  });

// ─── What the laws read ──────────────────────────────────────────────────────────────────────────

const givenValuesArb = givenKeysArb(Object.keys(zeroSettings) as (keyof typeof zeroSettings)[]).map(
  (keys) => ({
    body: {
      model: "m",
      messages: [{ role: "user", content: "x" }],
      ...Object.fromEntries(keys.map((key) => [key, zeroSettings[key]])),
    },
    given: keys.map((key) => `/${key}`),
  }),
);

const num = (value: unknown): number => (typeof value === "number" ? value : 0);
const obj = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

function usageOf(body: unknown): UsageTotals | undefined {
  const usage = obj(body).usage;
  if (usage == null) return undefined;
  const figures = obj(usage);
  const prompt = obj(figures.prompt_tokens_details);
  const completion = obj(figures.completion_tokens_details);
  // Details that exceed their whole (cached > prompt) make a usage self-contradictory.
  const contradiction =
    num(prompt.cached_tokens) + num(prompt.cache_write_tokens) > num(figures.prompt_tokens)
      ? `/usage/prompt_tokens_details (${num(prompt.cached_tokens) + num(prompt.cache_write_tokens)} cached) exceeds /usage/prompt_tokens (${num(figures.prompt_tokens)})`
      : num(completion.reasoning_tokens) > num(figures.completion_tokens)
        ? `/usage/completion_tokens_details/reasoning_tokens (${num(completion.reasoning_tokens)}) exceeds /usage/completion_tokens (${num(figures.completion_tokens)})`
        : undefined;
  return {
    ...(contradiction === undefined ? {} : { contradiction }),
    input: num(figures.prompt_tokens),
    output: num(figures.completion_tokens),
    total: num(figures.total_tokens),
    fields: {
      input: ["/usage/prompt_tokens"],
      output: ["/usage/completion_tokens"],
      total: "/usage/total_tokens",
    },
  };
}

const toolCallsOf = (node: unknown) =>
  isRecord(node) && Array.isArray(node.tool_calls) ? node.tool_calls : [];

const reach = {
  request: [
    {
      name: "parallel tool calls",
      bias: "tools",
      holds: (body: unknown) => someNode(body, (node) => toolCallsOf(node).length >= 2),
    },
    {
      name: "an image",
      bias: "images",
      holds: (body: unknown) => someNode(body, (node) => isRecord(node) && node.type === "image_url"),
    },
    {
      name: "reasoning in an assistant turn",
      bias: "thinking",
      holds: (body: unknown) =>
        someNode(body, (node, key) => key === "reasoning_content" && typeof node === "string" && node !== ""),
    },
    givenFact("an explicit temperature: 0", "temperature", 0),
    givenFact("an explicit seed: 0", "seed", 0, false),
    ...textFacts(false),
  ],
  response: [
    {
      name: "parallel tool calls",
      bias: "tools",
      holds: (body: unknown) => someNode(body, (node) => toolCallsOf(node).length >= 2),
    },
    {
      name: "reasoning",
      bias: "thinking",
      holds: (body: unknown) =>
        someNode(body, (node, key) => key === "reasoning_content" && typeof node === "string" && node !== ""),
    },
    givenFact("a usage figure of 0", "completion_tokens", 0, false),
    ...textFacts(false),
  ],
  stream: [
    {
      name: "a second tool call (parallel)",
      bias: "tools",
      holds: (events: unknown) =>
        someNode(events, (node) => toolCallsOf(node).some((call) => obj(call).index === 1)),
    },
    {
      name: "a reasoning delta",
      bias: "thinking",
      holds: (events: unknown) =>
        someNode(
          events,
          (node, key) => key === "reasoning_content" && typeof node === "string" && node !== "",
        ),
    },
    {
      name: "a usage chunk",
      holds: (events: unknown) => someNode(events, (node) => isRecord(node) && isRecord(node.usage)),
    },
  ],
  errorBody: [
    { name: "a numeric code", holds: (body: unknown) => typeof obj(obj(body).error).code === "number" },
    { name: "a null code", holds: (body: unknown) => obj(obj(body).error).code === null },
  ],
} as const;

/** Choice 0 gave its finish reason before `[DONE]` or an error chunk ended the stream. */
function chatFinished(events: readonly unknown[]): boolean {
  for (const event of events) {
    if (event === "[DONE]" || obj(event).error !== undefined) return false;
    const choices = obj(event).choices;
    if (!Array.isArray(choices)) continue;
    for (const choice of choices) {
      const reason = obj(choice).finish_reason;
      if (obj(choice).index === 0 && typeof reason === "string" && reason !== "") return true;
    }
  }
  return false;
}

export const chatArbitraries: ProtocolArbitraries = {
  reach,
  request: (hard) => leaning(hard, chatRequestArb, hardRequestArb(hard)),
  response: (hard) => leaning(hard, chatResponseArb, hardResponseArb(hard)),
  replayableResponse: (hard) => leaning(hard, replayableResponseArb, hardResponseArb(hard)),
  stream: grammaticalStreamArb,
  rawStream: () => chatStreamArb,
  errorBody: () => chatErrorBodyArb,
  givenValues: () => givenValuesArb,
  finished: chatFinished,
  texts: (event) => {
    const choices = obj(event).choices;
    const first = Array.isArray(choices) ? choices.find((choice) => obj(choice).index === 0) : undefined;
    const delta = obj(obj(first).delta);
    const content = delta.content;
    // Mistral's text chunks, and an audio answer's transcript, are answer text too.
    const texts =
      typeof content === "string"
        ? [content]
        : Array.isArray(content)
          ? content.map((part) => (obj(part).type === "text" ? String(obj(part).text ?? "") : ""))
          : [];
    const transcript = obj(delta.audio).transcript;
    return typeof transcript === "string" ? [...texts, transcript] : texts;
  },
  usage: usageOf,
  grammar: chatGrammar,
};
