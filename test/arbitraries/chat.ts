/**
 * Arbitraries for the chat wire format, written against the wire shapes (not produced by our encoders):
 * requests with every role and part kind, responses, and hand-written chunk streams split at odd places.
 */
import fc from "fast-check";

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
