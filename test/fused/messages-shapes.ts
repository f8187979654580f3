/**
 * What the differential tests of the fused paths from messages share: a generator of the shapes those
 * paths take — text, images, tools, tool calls and results (paired exchanges among them, so that the
 * hub's pairing rule holds), thinking blocks, sampling fields, `thinking` and `metadata` — with the
 * edge values that must send a body back to the hub or make it report a loss (nulls, extra fields,
 * `cache_control`, error results, values out of a target's ranges, many stop sequences, schemas a
 * target cannot take as they are, unpaired or reordered results).
 */
import fc from "fast-check";

const text = fc.oneof(
  { weight: 12, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "hi ", " hi", "\t\n", "a/b~c") },
);
/**
 * Now and then one odd field on a node: a `cache_control` (which the fused path reports as the hub
 * does, or declines when it is not an object), one the hub reports otherwise, or a null.
 */
const oddity = fc.oneof(
  { weight: 24, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { cache_control: { type: "ephemeral" } },
      { cache_control: { type: "ephemeral", ttl: "1h" } },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { cache_control: null },
      { cache_control: "x" },
      { citations: null },
      { extra: 1 },
      { type: null },
    ),
  },
);
const withOddity = <T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.tuple(arbitrary, oddity).map(([value, odd]) => (odd === undefined ? value : { ...value, ...odd }));

const textBlock = withOddity(text.map((value) => ({ type: "text", text: value })));
const imageBlock = withOddity(
  fc.oneof(
    fc.record({
      type: fc.constant("image"),
      source: fc.record({
        type: fc.constant("base64"),
        media_type: fc.constantFrom("image/png", "image/jpeg"),
        data: fc.constantFrom("iVBORw0KGgo=", "AAAA"),
      }),
    }),
    fc.record({
      type: fc.constant("image"),
      source: fc.record({ type: fc.constant("url"), url: fc.constantFrom("https://x.test/a.png", "") }),
    }),
  ),
);
const json = fc.dictionary(
  fc.constantFrom("city", "q", "n", "a/b"),
  fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean()),
  { maxKeys: 3 },
);
const toolUse = withOddity(
  fc.record({
    type: fc.constant("tool_use"),
    id: fc.constantFrom("toolu_1", "toolu_2", ""),
    name: fc.constantFrom("get_weather", "run_sql"),
    input: fc.oneof({ weight: 9, arbitrary: json }, { weight: 1, arbitrary: fc.constantFrom("s", 1, null) }),
  }),
);
const toolResult = withOddity(
  fc.record(
    {
      type: fc.constant("tool_result"),
      tool_use_id: fc.constantFrom("toolu_1", "toolu_2"),
      content: fc.oneof(text, fc.array(textBlock, { maxLength: 3 }), fc.array(imageBlock, { maxLength: 1 })),
      is_error: fc.boolean(),
    },
    { requiredKeys: ["type", "tool_use_id"] },
  ),
);
const userMessage = fc.record({
  role: fc.constant("user"),
  content: fc.oneof(
    { weight: 3, arbitrary: text },
    {
      weight: 2,
      arbitrary: fc.array(fc.oneof({ weight: 3, arbitrary: textBlock }, imageBlock, toolResult), {
        maxLength: 4,
      }),
    },
  ),
});
const assistantMessage = fc.record({
  role: fc.constant("assistant"),
  content: fc.oneof(
    { weight: 3, arbitrary: text },
    { weight: 2, arbitrary: fc.array(fc.oneof(textBlock, toolUse), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.constant([{ type: "thinking", thinking: "hm", signature: "s" }]),
    },
  ),
});
const otherMessage = fc.constantFrom<Record<string, unknown>>(
  { role: "system", content: "late" },
  { role: "user", content: "x", name: "n" },
  {
    role: "user",
    content: [{ type: "document", source: { type: "text", media_type: "text/plain", data: "d" } }],
  },
);
const message = fc.oneof(
  { weight: 10, arbitrary: userMessage },
  { weight: 10, arbitrary: assistantMessage },
  { weight: 1, arbitrary: otherMessage },
);
/** Schemas a converter takes as they are, with a loss, or not at all. */
const inputSchema = fc.constantFrom<Record<string, unknown>>(
  { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  { type: "object" },
  { type: "object", properties: {} },
  {
    type: "object",
    description: "d",
    properties: {
      unit: { type: "string", enum: ["c", "f"] },
      days: { type: "integer", minimum: 1, maximum: 7 },
      tags: { type: "array", items: { type: "string" } },
      "a/b": {
        type: "object",
        properties: { x: { type: "number" } },
        additionalProperties: { type: "string" },
      },
    },
    additionalProperties: false,
  },
  { properties: { q: { type: "string" } } },
  { type: "object", properties: { at: { type: "string", format: "date-time" } } },
  { type: "object", properties: { n: { type: ["number", "null"] } } },
  { type: "object", properties: { e: { enum: [1, 2] } } },
  { type: "object", properties: { r: { $ref: "#/$defs/x" } }, $defs: { x: { type: "string" } } },
);
const tool = withOddity(
  fc.record(
    {
      type: fc.constant("custom"),
      name: fc.constantFrom("get_weather", "run_sql"),
      description: text,
      input_schema: inputSchema,
      strict: fc.boolean(),
    },
    { requiredKeys: ["name", "input_schema"] },
  ),
);
const toolChoice = fc.oneof(
  fc.constantFrom({ type: "auto" }, { type: "any" }, { type: "none" }, { type: "tool", name: "run_sql" }),
  fc.record({ type: fc.constantFrom("auto", "any"), disable_parallel_tool_use: fc.boolean() }),
  fc.constantFrom({ type: "none", disable_parallel_tool_use: true }, { type: "auto", extra: 1 }),
);
/**
 * A paired exchange: an assistant turn of tool calls (text first now and then) and the user turn of
 * their results — in call order, now and then reversed or followed by text.
 */
const exchange = fc
  .record({
    calls: fc.array(fc.tuple(fc.constantFrom("get_weather", "run_sql"), json), {
      minLength: 1,
      maxLength: 3,
    }),
    lead: fc.option(textBlock, { freq: 3 }),
    outputs: fc.array(
      fc.record(
        { content: fc.oneof(text, fc.array(textBlock, { maxLength: 2 })), is_error: fc.boolean() },
        { requiredKeys: [] },
      ),
      { minLength: 3, maxLength: 3 },
    ),
    order: fc.oneof(
      { weight: 8, arbitrary: fc.constant("given") },
      { weight: 1, arbitrary: fc.constantFrom("reversed", "text after", "one missing") },
    ),
    prefix: fc.constantFrom("toolu_a", "toolu_b", "call"),
  })
  .map(({ calls, lead, outputs, order, prefix }) => {
    const uses = calls.map(([name, input], index) => ({
      type: "tool_use",
      id: `${prefix}${index}`,
      name,
      input,
    }));
    let results: Record<string, unknown>[] = uses.map((use, index) => ({
      type: "tool_result",
      tool_use_id: use.id,
      ...outputs[index],
    }));
    if (order === "reversed") results = [...results].reverse();
    if (order === "one missing") results = results.slice(1);
    const user: unknown[] = order === "text after" ? [...results, { type: "text", text: "and?" }] : results;
    return [
      { role: "assistant", content: lead === null ? uses : [lead, ...uses] },
      { role: "user", content: user },
    ];
  });
const thinkingBlock = fc.constantFrom<Record<string, unknown>>(
  { type: "thinking", thinking: "hm", signature: "s" },
  { type: "redacted_thinking", data: "opaque" },
  { type: "thinking", thinking: "hm" },
);
const turns = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: message.map((one) => [one]) },
      { weight: 2, arbitrary: exchange },
      {
        weight: 1,
        arbitrary: fc
          .tuple(thinkingBlock, text)
          .map(([block, value]) => [{ role: "assistant", content: [block, { type: "text", text: value }] }]),
      },
    ),
    { maxLength: 5 },
  )
  .map((groups) => groups.flat());
const thinking = fc.constantFrom<Record<string, unknown>>(
  { type: "enabled", budget_tokens: 2048 },
  { type: "enabled", budget_tokens: 100_000 },
  { type: "enabled", budget_tokens: 64 },
  { type: "enabled" },
  { type: "adaptive" },
  { type: "disabled" },
  { type: "disabled", budget_tokens: 1 },
  { type: "other" },
);
const metadata = fc.constantFrom<Record<string, unknown>>(
  { user_id: "u-1" },
  {},
  { user_id: null },
  { other: 1 },
);

/** A sampling value: mostly within range, now and then past chat's (a clamp) or the messages schema's. */
const number = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0, 0.25, 0.5, 0.7, 1) },
  { weight: 1, arbitrary: fc.constantFrom(1.5, 2, 2.5, -1, 16) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -4, max: 4 }) },
);
/** The shapes the fused paths take, with values at and past their edges. */
export const plainMessagesRequest = fc
  .record(
    {
      model: fc.constantFrom("claude-sonnet-4-5", "m", "gemini-2.5-pro", "x-flash-lite", "gemini-3-pro"),
      max_tokens: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(1, 256, 4096) },
        { weight: 1, arbitrary: fc.constantFrom(0, 1.5, -3) },
      ),
      system: fc.oneof(text, fc.array(textBlock, { maxLength: 3 })),
      messages: turns,
      temperature: number,
      top_p: number,
      top_k: fc.constantFrom(0, 40),
      stop_sequences: fc.array(text, { maxLength: 7 }),
      stream: fc.boolean(),
      tools: fc.array(tool, { maxLength: 3 }),
      tool_choice: toolChoice,
      extra: fc.constantFrom<Record<string, unknown>>(
        { metadata: { user_id: "u" } },
        { thinking: { type: "enabled", budget_tokens: 2048 } },
        { top_k: null },
        { unknown_field: true },
        { service_tier: "auto" },
        { cache_control: { type: "ephemeral" } },
      ),
    },
    { requiredKeys: ["model", "max_tokens", "messages"] },
  )
  .chain((drawn) =>
    fc
      .record({
        first: userMessage,
        thinking: fc.oneof(
          { weight: 5, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: thinking },
        ),
        metadata: fc.oneof(
          { weight: 5, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: metadata },
        ),
        rare: fc.oneof(
          { weight: 12, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.constantFrom(1, 2) },
        ),
      })
      .map(({ first, rare, thinking, metadata }) => {
        const { extra, ...body } = drawn as typeof drawn & { extra?: Record<string, unknown> };
        const out: Record<string, unknown> = { ...body, messages: [first, ...drawn.messages] };
        if (thinking !== undefined) out.thinking = thinking;
        if (metadata !== undefined) out.metadata = metadata;
        if (rare === 1 && extra !== undefined) Object.assign(out, extra);
        if (rare === 2) out.temperature = null;
        return out;
      }),
  );
