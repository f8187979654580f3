/**
 * Arbitraries for the messages wire format, written against the wire shapes (not produced by our
 * encoders): requests whose tool calls pair with their results, responses with every block kind, error
 * bodies, and hand-written event streams with deltas split at odd places; the hard cases a `bias` asks
 * for; and what the laws must know of messages streams and usage.
 */
import fc from "fast-check";
import { messagesGrammar } from "../grammar";
import {
  givenFact,
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

const streamBlockArb = (text: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.record({
      kind: fc.constant("text" as const),
      text,
      cuts: fc.array(fc.nat(), { maxLength: 3 }),
    }),
    fc.record({
      kind: fc.constant("thinking" as const),
      text,
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

type Ending = "complete" | "cut" | "error";

/** A hand-written event stream: deltas split at odd places, pings anywhere, ending as `endings` allow. */
const handStreamArb = (text: fc.Arbitrary<string>, endings: readonly Ending[]) =>
  fc
    .record({
      id: idArb,
      model: textArb,
      usage: fc.record({ input_tokens: fc.nat({ max: 1000 }), output_tokens: fc.nat({ max: 5 }) }),
      blocks: fc.array(streamBlockArb(text), { maxLength: 4 }),
      stop: fc.constantFrom("end_turn", "tool_use", "max_tokens", "pause_turn"),
      output: fc.nat({ max: 1000 }),
      ending: fc.constantFrom(...endings),
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

/** Any stream the hand-written arbitrary makes: complete, cut off, or ending in an error event. */
export const messagesStreamArb = handStreamArb(textArb, ["complete", "cut", "error"]);

// ─── Hard cases ──────────────────────────────────────────────────────────────────────────────────

const signatureArb = fc.base64String({ minLength: 4, maxLength: 16 });

/** A conversation built around the hard cases asked for: images, parallel calls, signed thinking, zeros. */
function hardRequestArb(hard: Hard) {
  const say = textFor(hard, { nonEmpty: true });
  const text = textFor(hard);
  const question = hard.images
    ? fc
        .tuple(say, fc.array(imageBlockArb, { minLength: 1, maxLength: 2 }))
        .map(([words, images]) => [...images, { type: "text", text: words }])
    : say.map((words) => [{ type: "text", text: words }]);
  const answer = fc
    .record({
      thinking: sometimes(fc.record({ thinking: text, signature: signatureArb }), hard.thinking),
      text: fc.option(say, { nil: undefined }),
      calls: fc.uniqueArray(
        fc.record({ id: fc.stringMatching(/^toolu_[A-Za-z0-9]{1,8}$/), name: wordArb, input: inputArb }),
        {
          minLength: hard.tools ? 2 : 0,
          maxLength: hard.tools ? 4 : 1,
          selector: (call) => call.id,
        },
      ),
      results: fc.array(text, { minLength: 4, maxLength: 4 }),
    })
    .map(({ thinking, text: words, calls, results }) => {
      const content = [
        ...(thinking === undefined ? [] : [{ type: "thinking", ...thinking }]),
        ...(words === undefined ? [] : [{ type: "text", text: words }]),
        ...calls.map((call) => ({ type: "tool_use", ...call })),
      ];
      return {
        assistant: content.length === 0 ? [{ type: "text", text: "ok" }] : content,
        results: calls.map((call, index) => ({
          type: "tool_result",
          tool_use_id: call.id,
          content: results[index] ?? "",
        })),
      };
    });
  return fc
    .record({
      model: fc.constantFrom("claude-sonnet-4-5", "m"),
      system: fc.option(say, { nil: undefined }),
      turns: fc.array(fc.tuple(question, answer), { maxLength: 3 }),
      last: question,
      max_tokens: fc.integer({ min: 1, max: 100_000 }),
      sampling: hard.zeros
        ? fc.oneof(
            { weight: 3, arbitrary: fc.constant({ temperature: 0 }) },
            { weight: 1, arbitrary: fc.constant({ top_p: 0 }) },
          )
        : fc.oneof(fc.record({ temperature: fc.double({ min: 0, max: 1, noNaN: true }) }), fc.constant({})),
      extra: hard.zeros
        ? fc.record({ top_k: fc.constant(0), metadata: fc.constant({ user_id: "" }) }, { requiredKeys: [] })
        : fc.constant({}),
      thinking: sometimes(fc.integer({ min: 1024, max: 8000 }), hard.thinking),
    })
    .map(({ model, system, turns, last, max_tokens, sampling, extra, thinking }) => {
      const messages: { role: string; content: unknown[] }[] = [];
      for (const [ask, { assistant, results }] of turns) {
        // A user turn that answers tool calls holds their results first, then the next question.
        const previous = messages.at(-1);
        if (previous?.role === "user") previous.content.push(...ask);
        else messages.push({ role: "user", content: [...ask] });
        messages.push({ role: "assistant", content: assistant });
        if (results.length > 0) messages.push({ role: "user", content: results });
      }
      const previous = messages.at(-1);
      if (previous?.role === "user") previous.content.push(...last);
      else messages.push({ role: "user", content: last });
      const names = [
        ...new Set(
          messages.flatMap((message) =>
            message.content.flatMap((block) =>
              isRecord(block) && block.type === "tool_use" ? [String(block.name)] : [],
            ),
          ),
        ),
      ];
      return {
        model,
        max_tokens: thinking === undefined ? max_tokens : thinking + max_tokens,
        messages,
        ...(system === undefined ? {} : { system }),
        ...(thinking === undefined ? sampling : {}),
        ...extra,
        ...(thinking === undefined ? {} : { thinking: { type: "enabled", budget_tokens: thinking } }),
        ...(names.length === 0
          ? {}
          : { tools: names.map((name) => ({ name, input_schema: { type: "object", properties: {} } })) }),
      };
    });
}

/** One answer built around the hard cases: signed thinking, parallel calls, unicode, huge text, zeros. */
function hardResponseArb(hard: Hard) {
  const text = textFor(hard);
  return fc
    .record({
      id: fc.stringMatching(/^msg_[A-Za-z0-9]{1,8}$/),
      thinking: sometimes(fc.record({ thinking: text, signature: signatureArb }), hard.thinking),
      text: fc.option(text, { nil: undefined }),
      calls: fc.uniqueArray(
        fc.record({ id: fc.stringMatching(/^toolu_[A-Za-z0-9]{1,8}$/), name: wordArb, input: inputArb }),
        {
          minLength: hard.tools ? 2 : 0,
          maxLength: hard.tools ? 4 : 1,
          selector: (call) => call.id,
        },
      ),
      stop: fc.constantFrom("end_turn", "max_tokens", "stop_sequence"),
      usage: fc.record({
        input_tokens: zeroOr(hard, 0, fc.nat(10_000)),
        output_tokens: zeroOr(hard, 0, fc.nat(10_000)),
        cache_read_input_tokens: zeroOr(hard, 0, fc.nat(10_000)),
        cache_creation_input_tokens: zeroOr(hard, 0, fc.nat(10_000)),
      }),
    })
    .map(({ id, thinking, text: words, calls, stop, usage }) => ({
      id,
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [
        ...(thinking === undefined ? [] : [{ type: "thinking", ...thinking }]),
        ...(words === undefined ? [] : [{ type: "text", text: words }]),
        ...calls.map((call) => ({ type: "tool_use", ...call })),
      ],
      stop_reason: calls.length > 0 ? "tool_use" : stop,
      stop_sequence: null,
      usage,
    }));
}

// ─── What the laws read ──────────────────────────────────────────────────────────────────────────

// Each shrinks toward the setting given, so a failure shrinks to the request that holds them all.
const givenValuesArb = fc
  .record({
    sampling: fc.constantFrom("temperature", "top_p"),
    top_k: fc.boolean().map((left) => !left),
    user: fc.boolean().map((left) => !left),
  })
  .map(({ sampling, top_k, user }) => ({
    body: {
      model: "m",
      max_tokens: 1,
      messages: [{ role: "user", content: "x" }],
      // messages takes `temperature` or `top_p`, not both.
      [sampling]: 0,
      ...(top_k ? { top_k: 0 } : {}),
      ...(user ? { metadata: { user_id: "" } } : {}),
    },
    given: [`/${sampling}`, ...(top_k ? ["/top_k"] : []), ...(user ? ["/metadata/user_id"] : [])],
  }));

const num = (value: unknown): number => (typeof value === "number" ? value : 0);
const obj = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

function usageOf(body: unknown): UsageTotals | undefined {
  const usage = obj(body).usage;
  if (usage == null) return undefined;
  const figures = obj(usage);
  // A thinking count above the whole output makes a source self-contradictory.
  const thinking = num(obj(figures.output_tokens_details).thinking_tokens);
  const contradiction =
    thinking > num(figures.output_tokens)
      ? `/usage/output_tokens_details/thinking_tokens (${thinking}) exceeds /usage/output_tokens (${num(figures.output_tokens)})`
      : undefined;
  const inputs = ["input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"];
  return {
    ...(contradiction === undefined ? {} : { contradiction }),
    input: inputs.reduce((sum, key) => sum + num(figures[key]), 0),
    output: num(figures.output_tokens),
    fields: {
      input: inputs.filter((key) => key === "input_tokens" || key in figures).map((key) => `/usage/${key}`),
      output: ["/usage/output_tokens"],
    },
  };
}

/** messages puts foreign thinking first in a whole response; a stream cannot move it back. */
function thinkingFirst(body: unknown): boolean {
  const content = obj(body).content;
  const blocks = Array.isArray(content) ? content.map(obj) : [];
  const first = blocks.findIndex((block) => block.type !== "thinking" && block.type !== "redacted_thinking");
  return first === -1 || !blocks.slice(first).some((block) => block.type === "thinking");
}

/** Blocks of `type` in one content list of the payload, at most. */
const mostBlocks = (value: unknown, type: string): number => {
  let most = 0;
  someNode(value, (node) => {
    if (Array.isArray(node)) most = Math.max(most, node.filter((block) => obj(block).type === type).length);
    return false;
  });
  return most;
};
const signedThinking = (value: unknown) =>
  someNode(
    value,
    (node) =>
      isRecord(node) &&
      node.type === "thinking" &&
      typeof node.signature === "string" &&
      node.signature !== "",
  );

const reach = {
  request: [
    {
      name: "parallel tool calls",
      bias: "tools",
      holds: (body: unknown) => mostBlocks(body, "tool_use") >= 2,
    },
    { name: "an image", bias: "images", holds: (body: unknown) => mostBlocks(body, "image") >= 1 },
    { name: "thinking with a signature", bias: "thinking", holds: signedThinking },
    givenFact("an explicit temperature: 0", "temperature", 0),
    givenFact("an explicit top_k: 0", "top_k", 0),
    ...textFacts(false),
  ],
  response: [
    {
      name: "parallel tool calls",
      bias: "tools",
      holds: (body: unknown) => mostBlocks(body, "tool_use") >= 2,
    },
    { name: "thinking with a signature", bias: "thinking", holds: signedThinking },
    givenFact("a usage figure of 0", "output_tokens", 0),
    ...textFacts(false),
  ],
  stream: [
    {
      name: "two tool calls",
      bias: "tools",
      holds: (events: unknown) =>
        (Array.isArray(events) ? events : []).filter(
          (event) => obj(obj(event).content_block).type === "tool_use",
        ).length >= 2,
    },
    {
      name: "a signature delta",
      bias: "thinking",
      holds: (events: unknown) =>
        someNode(events, (node) => isRecord(node) && node.type === "signature_delta"),
    },
    {
      name: "a ping",
      holds: (events: unknown) => someNode(events, (node) => isRecord(node) && node.type === "ping"),
    },
    {
      name: "a stream cut off before message_stop",
      holds: (events: unknown) => !someNode(events, (node) => isRecord(node) && node.type === "message_stop"),
    },
  ],
  errorBody: [
    {
      name: "an overloaded error",
      holds: (body: unknown) => obj(obj(body).error).type === "overloaded_error",
    },
    {
      name: "an error type of the future",
      holds: (body: unknown) => obj(obj(body).error).type === "new_error",
    },
  ],
} as const;

export const messagesArbitraries: ProtocolArbitraries = {
  reach,
  request: (hard) => leaning(hard, messagesRequestArb, hardRequestArb(hard)),
  response: (hard) => leaning(hard, messagesResponseArb, hardResponseArb(hard)),
  // A messages response holds one message already (its stop reason is never null here).
  replayableResponse: (hard) => leaning(hard, messagesResponseArb, hardResponseArb(hard)),
  stream: (hard) =>
    hard.any
      ? handStreamArb(fc.oneof(textArb, textFor(hard)), ["complete", "cut"])
      : messagesStreamArb.filter((events) => !events.some((event) => obj(event).type === "error")),
  rawStream: () => messagesStreamArb,
  errorBody: () => messagesErrorBodyArb,
  givenValues: () => givenValuesArb,
  // A stop reason is held until message_stop: a stream cut between them ends with an error event.
  finished: (events) => {
    let reason = false;
    for (const event of events) {
      const type = obj(event).type;
      if (type === "error") return false;
      const stop = obj(obj(event).delta).stop_reason;
      if (type === "message_delta" && typeof stop === "string" && stop !== "") reason = true;
      if (type === "message_stop") return reason;
    }
    return false;
  },
  texts: (event) => {
    const delta = obj(obj(event).delta);
    return obj(event).type === "content_block_delta" &&
      delta.type === "text_delta" &&
      typeof delta.text === "string"
      ? [delta.text]
      : [];
  },
  usage: usageOf,
  grammar: messagesGrammar,
  streamable: thinkingFirst,
};
