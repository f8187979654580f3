/**
 * Arbitraries for the messages wire format, written against the wire shapes (not produced by our
 * encoders): requests whose tool calls pair with their results, responses with every block kind, error
 * bodies, and hand-written event streams with deltas split at odd places.
 */
import fc from "fast-check";

const textArb = fc.string({ maxLength: 12 });
const wordArb = fc.stringMatching(/^[a-z]{1,6}$/);
const idArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/);
const cacheArb = fc.record(
  { type: fc.constant("ephemeral" as const), ttl: fc.constantFrom("5m" as const, "1h" as const) },
  { requiredKeys: ["type"] },
);
const inputArb = fc.dictionary(wordArb, fc.oneof(fc.integer(), textArb, fc.boolean(), fc.constant(null)), {
  maxKeys: 3,
});

const textBlockArb = fc.record(
  { type: fc.constant("text" as const), text: textArb, cache_control: cacheArb },
  { requiredKeys: ["type", "text"] },
);
const imageBlockArb = fc.record({
  type: fc.constant("image" as const),
  source: fc.oneof(
    fc.record({
      type: fc.constant("base64" as const),
      media_type: fc.constantFrom(
        "image/png" as const,
        "image/jpeg" as const,
        "image/gif" as const,
        "image/webp" as const,
      ),
      data: fc.constantFrom("iVBO", "R0lG", "/9j/"),
    }),
    fc.record({
      type: fc.constant("url" as const),
      url: fc.constantFrom("https://ex.com/a.png", "https://ex.com/b"),
    }),
    fc.record({ type: fc.constant("file" as const), file_id: idArb }),
  ),
});
const documentBlockArb = fc.record(
  {
    type: fc.constant("document" as const),
    source: fc.oneof(
      fc.record({
        type: fc.constant("base64" as const),
        media_type: fc.constant("application/pdf" as const),
        data: fc.constant("JVBER"),
      }),
      fc.record({
        type: fc.constant("text" as const),
        media_type: fc.constant("text/plain" as const),
        data: textArb,
      }),
      fc.record({ type: fc.constant("url" as const), url: fc.constant("https://ex.com/a.pdf") }),
      fc.record({
        type: fc.constant("content" as const),
        content: fc.oneof(textArb, fc.array(textBlockArb, { maxLength: 2 })),
      }),
    ),
    title: fc.option(textArb, { nil: null }),
    context: textArb,
    citations: fc.record({ enabled: fc.boolean() }),
  },
  { requiredKeys: ["type", "source"] },
);
const userBlockArb = fc.oneof(
  { weight: 4, arbitrary: textBlockArb },
  { weight: 1, arbitrary: imageBlockArb },
  { weight: 1, arbitrary: documentBlockArb },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("search_result" as const),
      source: textArb,
      title: textArb,
      content: fc.array(textBlockArb, { maxLength: 2 }),
    }),
  },
);
const thinkingArb = fc.oneof(
  fc.record({
    type: fc.constant("thinking" as const),
    thinking: textArb,
    signature: fc.base64String({ maxLength: 12 }),
  }),
  fc.record({ type: fc.constant("redacted_thinking" as const), data: fc.base64String({ maxLength: 12 }) }),
);

/** A user turn, or an assistant turn with tool calls followed by the user turn holding their results. */
const exchangeArb = fc.oneof(
  fc
    .record({
      role: fc.constantFrom("user" as const, "assistant" as const),
      content: fc.oneof(textArb, fc.array(userBlockArb, { minLength: 1, maxLength: 3 })),
    })
    .map((message) => [
      message.role === "assistant" && typeof message.content !== "string"
        ? { role: message.role, content: message.content.filter((block) => block.type === "text") }
        : message,
    ]),
  fc
    .record({
      thinking: fc.array(thinkingArb, { maxLength: 1 }),
      text: fc.array(textBlockArb, { maxLength: 1 }),
      calls: fc.uniqueArray(fc.record({ id: idArb, name: wordArb, input: inputArb }), {
        minLength: 1,
        maxLength: 3,
        selector: (call) => call.id,
      }),
      results: fc.array(
        fc.record(
          {
            content: fc.oneof(textArb, fc.array(fc.oneof(textBlockArb, imageBlockArb), { maxLength: 2 })),
            is_error: fc.boolean(),
            cache_control: cacheArb,
          },
          { requiredKeys: [] },
        ),
        { minLength: 3, maxLength: 3 },
      ),
      after: fc.array(textBlockArb, { maxLength: 1 }),
      // A small share of histories lose their last result: orphan calls must be reported, not hidden.
      orphan: fc.oneof(
        { weight: 19, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    })
    .map(({ thinking, text, calls, results, after, orphan }) => [
      {
        role: "assistant" as const,
        content: [...thinking, ...text, ...calls.map((call) => ({ type: "tool_use" as const, ...call }))],
      },
      {
        role: "user" as const,
        content: [
          ...calls.slice(0, orphan ? -1 : undefined).map((call, index) => ({
            type: "tool_result" as const,
            tool_use_id: call.id,
            ...results[index],
          })),
          ...after,
        ],
      },
    ]),
);

const customToolArb = fc.record(
  {
    name: wordArb,
    description: textArb,
    input_schema: fc.constantFrom(
      { type: "object" as const },
      {
        type: "object" as const,
        properties: { a: { type: "string" } },
        required: ["a"],
        additionalProperties: false,
      },
    ),
    cache_control: cacheArb,
  },
  { requiredKeys: ["name", "input_schema"] },
);
const serverToolArb = fc.constantFrom(
  { type: "web_search_20250305", name: "web_search", max_uses: 3 },
  { type: "bash_20250124", name: "bash" },
  { type: "code_execution_20250825", name: "code_execution" },
);

/**
 * The everyday request: alternating turns of non-blank text and tool calls with their results, a few
 * settings every protocol has. Most real traffic looks like this, and it is what round trips can keep.
 */
const sayArb = fc.string({ minLength: 1, maxLength: 12 }).filter((text) => text.trim() !== "");
const sayBlocksArb = fc.array(
  sayArb.map((text) => ({ type: "text" as const, text })),
  { minLength: 1, maxLength: 2 },
);
const everydayExchangeArb = fc.oneof(
  fc.tuple(fc.oneof(sayArb, sayBlocksArb), fc.oneof(sayArb, sayBlocksArb)).map(([question, answer]) => [
    { role: "user" as const, content: question },
    { role: "assistant" as const, content: answer },
  ]),
  fc
    .record({
      question: fc.oneof(sayArb, sayBlocksArb),
      text: fc.array(sayArb, { maxLength: 1 }),
      calls: fc.uniqueArray(
        fc.record({ id: fc.stringMatching(/^toolu_[A-Za-z0-9]{1,6}$/), name: wordArb, input: inputArb }),
        {
          minLength: 1,
          maxLength: 3,
          selector: (call) => call.id,
        },
      ),
      results: fc.array(sayArb, { minLength: 3, maxLength: 3 }),
    })
    .map(({ question, text, calls, results }) => [
      { role: "user" as const, content: question },
      {
        role: "assistant" as const,
        content: [
          ...text.map((say) => ({ type: "text" as const, text: say })),
          ...calls.map((call) => ({ type: "tool_use" as const, ...call })),
        ],
      },
      {
        role: "user" as const,
        content: calls.map((call, index) => ({
          type: "tool_result" as const,
          tool_use_id: call.id,
          content: results[index] ?? "",
        })),
      },
    ]),
);

const everydayRequestArb = fc
  .record(
    {
      model: textArb,
      max_tokens: fc.integer({ min: 1, max: 100_000 }),
      exchanges: fc.array(everydayExchangeArb, { minLength: 1, maxLength: 3 }),
      system: sayArb,
      sampling: fc.oneof(
        fc.record({ temperature: fc.double({ min: 0, max: 1, noNaN: true }) }),
        fc.record({ top_p: fc.double({ min: 0, max: 1, noNaN: true }) }),
        fc.constant({}),
      ),
      stream: fc.boolean(),
      stop_sequences: fc.array(sayArb, { maxLength: 4 }),
      tools: fc.uniqueArray(
        fc.record(
          {
            name: wordArb,
            description: sayArb,
            input_schema: fc.constant({ type: "object" as const, properties: { a: { type: "string" } } }),
          },
          { requiredKeys: ["name", "input_schema"] },
        ),
        { minLength: 1, maxLength: 3, selector: (tool) => tool.name },
      ),
      tool_choice: fc.oneof(
        fc.record(
          { type: fc.constantFrom("auto" as const, "any" as const), disable_parallel_tool_use: fc.boolean() },
          { requiredKeys: ["type"] },
        ),
        fc.record({ type: fc.constant("none" as const) }),
      ),
      metadata: fc.record({ user_id: wordArb }),
    },
    { requiredKeys: ["model", "max_tokens", "exchanges"] },
  )
  // `tool_choice` goes with tools.
  .map(({ exchanges, sampling, tool_choice, ...rest }) => ({
    ...rest,
    ...sampling,
    ...(rest.tools === undefined ? {} : { tool_choice }),
    messages: exchanges.flat(),
  }));

const anyRequestArb = fc.record(
  {
    model: textArb,
    max_tokens: fc.integer({ min: 1, max: 100_000 }),
    messages: fc.array(exchangeArb, { minLength: 1, maxLength: 4 }).map((exchanges) => exchanges.flat()),
    system: fc.oneof(textArb, fc.array(textBlockArb, { maxLength: 3 })),
    temperature: fc.double({ min: 0, max: 1, noNaN: true }),
    top_p: fc.double({ min: 0, max: 1, noNaN: true }),
    top_k: fc.nat({ max: 500 }),
    stream: fc.boolean(),
    stop_sequences: fc.array(textArb, { maxLength: 6 }),
    tools: fc.array(
      fc.oneof({ weight: 3, arbitrary: customToolArb }, { weight: 1, arbitrary: serverToolArb }),
      { maxLength: 3 },
    ),
    tool_choice: fc.oneof(
      fc.record(
        { type: fc.constantFrom("auto" as const, "any" as const), disable_parallel_tool_use: fc.boolean() },
        { requiredKeys: ["type"] },
      ),
      fc.record({ type: fc.constant("tool" as const), name: wordArb }),
      fc.record({ type: fc.constant("none" as const) }),
    ),
    thinking: fc.oneof(
      fc.record({
        type: fc.constant("enabled" as const),
        budget_tokens: fc.integer({ min: 1024, max: 40_000 }),
      }),
      fc.record({ type: fc.constantFrom("disabled" as const, "adaptive" as const) }),
    ),
    metadata: fc.record({ user_id: fc.oneof(textArb, fc.constant("a@b.co")) }),
    output_config: fc.record(
      {
        effort: fc.constantFrom("low", "medium", "high"),
        format: fc.record({
          type: fc.constant("json_schema"),
          schema: fc.constant({ type: "object", properties: { a: { type: "string" } } }),
        }),
      },
      { requiredKeys: [] },
    ),
    service_tier: fc.constantFrom("auto", "standard_only"),
  },
  { requiredKeys: ["model", "max_tokens", "messages"] },
);

export const messagesRequestArb = fc.oneof(anyRequestArb, everydayRequestArb);

const usageArb = fc.record(
  {
    input_tokens: fc.nat({ max: 100_000 }),
    output_tokens: fc.nat({ max: 100_000 }),
    cache_creation_input_tokens: fc.option(fc.nat({ max: 100_000 }), { nil: null }),
    cache_read_input_tokens: fc.option(fc.nat({ max: 100_000 }), { nil: null }),
    output_tokens_details: fc.record({ thinking_tokens: fc.nat({ max: 1000 }) }),
    server_tool_use: fc.record({ web_search_requests: fc.nat({ max: 5 }) }),
    service_tier: fc.constantFrom("standard", "priority", "batch"),
  },
  { requiredKeys: ["input_tokens", "output_tokens"] },
);

const responseBlockArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ type: fc.constant("text" as const), text: textArb }) },
  { weight: 1, arbitrary: thinkingArb },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant("tool_use" as const),
      id: idArb,
      name: wordArb,
      input: inputArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("server_tool_use" as const),
      id: idArb,
      name: fc.constant("web_search"),
      input: inputArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("web_search_tool_result" as const),
      tool_use_id: idArb,
      content: fc.constant([]),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("compaction"), content: textArb }) },
);

export const messagesResponseArb = fc.record(
  {
    id: idArb,
    type: fc.constant("message" as const),
    role: fc.constant("assistant" as const),
    model: textArb,
    content: fc.array(responseBlockArb, { maxLength: 5 }),
    stop_reason: fc.constantFrom(
      "end_turn",
      "max_tokens",
      "stop_sequence",
      "tool_use",
      "pause_turn",
      "refusal",
      "model_context_window_exceeded",
      "mystery",
    ),
    stop_sequence: fc.option(textArb, { nil: null }),
    usage: usageArb,
    container: fc.record({ id: idArb, expires_at: fc.constant("2026-01-01T00:00:00Z") }),
  },
  { requiredKeys: ["id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"] },
);

export const messagesErrorBodyArb = fc.record(
  {
    type: fc.constant("error" as const),
    error: fc.record({
      type: fc.constantFrom(
        "invalid_request_error",
        "authentication_error",
        "rate_limit_error",
        "api_error",
        "overloaded_error",
        "new_error",
      ),
      message: textArb,
    }),
    request_id: idArb,
  },
  { requiredKeys: ["type", "error"] },
);

/** Cuts `text` into pieces at the given (arbitrary) points. */
function pieces(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
  const out: string[] = [];
  let start = 0;
  for (const point of points) {
    out.push(text.slice(start, point));
    start = point;
  }
  out.push(text.slice(start));
  return out;
}

const streamBlockArb = fc.oneof(
  fc.record({
    kind: fc.constant("text" as const),
    text: textArb,
    cuts: fc.array(fc.nat(), { maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant("thinking" as const),
    text: textArb,
    cuts: fc.array(fc.nat(), { maxLength: 3 }),
    signature: fc.base64String({ maxLength: 8 }),
  }),
  fc.record({
    kind: fc.constant("tool" as const),
    id: idArb,
    name: wordArb,
    input: inputArb,
    cuts: fc.array(fc.nat(), { maxLength: 4 }),
  }),
);

/** A hand-written event stream: deltas split at odd places, pings anywhere, optionally cut off or ending in an error. */
export const messagesStreamArb = fc
  .record({
    id: idArb,
    model: textArb,
    usage: fc.record({ input_tokens: fc.nat({ max: 1000 }), output_tokens: fc.nat({ max: 5 }) }),
    blocks: fc.array(streamBlockArb, { maxLength: 4 }),
    stop: fc.constantFrom("end_turn", "tool_use", "max_tokens", "pause_turn"),
    output: fc.nat({ max: 1000 }),
    ending: fc.constantFrom("complete", "cut", "error"),
    ping: fc.boolean(),
  })
  .map(({ id, model, usage, blocks, stop, output, ending, ping }) => {
    const events: unknown[] = [
      {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
      },
    ];
    if (ping) events.push({ type: "ping" });
    blocks.forEach((block, index) => {
      if (block.kind === "text") {
        events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
        for (const text of pieces(block.text, block.cuts))
          events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
      } else if (block.kind === "thinking") {
        events.push({
          type: "content_block_start",
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        });
        for (const thinking of pieces(block.text, block.cuts))
          events.push({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking } });
        events.push({
          type: "content_block_delta",
          index,
          delta: { type: "signature_delta", signature: block.signature },
        });
      } else {
        events.push({
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        });
        for (const partial_json of pieces(JSON.stringify(block.input), block.cuts)) {
          events.push({
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json },
          });
        }
      }
      events.push({ type: "content_block_stop", index });
    });
    if (ending === "error") {
      events.push({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    } else if (ending === "complete") {
      events.push({
        type: "message_delta",
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: output },
      });
      events.push({ type: "message_stop" });
    }
    return events;
  });
