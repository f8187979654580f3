/**
 * What the differential tests of the fused paths from chat may share: a generator of the chat request
 * shapes gateway traffic has — system messages, user messages of text or content parts (text, images
 * by data: or https URL), assistant messages of text and function tool calls answered by `tool`
 * messages, function tools, `tool_choice`, `parallel_tool_calls`, names and sampling fields — with the
 * edge values that must send a body back to the hub or make it report a loss (blank and
 * whitespace-edged text, nulls, extra and unknown fields, `cache_control`, image types a target does
 * not take, `detail`, unpaired, reordered or repeated calls and results, arguments that are no JSON
 * object, schemas of another type, late system messages, an assistant message first).
 */
import fc from "fast-check";

const text = fc.oneof(
  { weight: 40, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "hi ", " hi", "\t\n", "a/b~c") },
);

/** `usual` nineteen times in twenty, else one of `others`. */
const rare = <T>(usual: fc.Arbitrary<T>, ...others: fc.Arbitrary<T>[]): fc.Arbitrary<T> =>
  fc.oneof(
    { weight: 19 * others.length, arbitrary: usual },
    ...others.map((arbitrary) => ({ weight: 1, arbitrary })),
  );

/** Now and then one more field on a node: a name (a loss), or a field the hub reports or reads otherwise. */
const oddity = (...others: Record<string, unknown>[]) =>
  fc.oneof(
    { weight: 60, arbitrary: fc.constant<Record<string, unknown>>({}) },
    { weight: 1, arbitrary: fc.constantFrom<Record<string, unknown>>(...others) },
  );

const textPart = fc
  .tuple(text, oddity({ cache_control: { type: "ephemeral" } }, { extra: 1 }))
  .map(([value, odd]) => ({ type: "text", text: value, ...odd }));
const imagePart = fc
  .record(
    {
      url: fc.oneof(
        {
          weight: 6,
          arbitrary: fc.constantFrom(
            "https://ex.com/a.png",
            "data:image/png;base64,iVBO",
            "data:image/jpeg;base64,/9j/",
            "data:image/webp;base64,UklG",
          ),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "data:image/bmp;base64,Qk0=",
            "data:audio/wav;base64,UklG",
            "data:x",
            "",
          ),
        },
      ),
      detail: fc.constantFrom("low", "high", "auto"),
      odd: oddity({ cache_control: { type: "ephemeral" } }, { extra: 1 }),
    },
    { requiredKeys: ["url", "odd"] },
  )
  .map(({ url, detail, odd }) => ({
    type: "image_url",
    image_url: detail === undefined ? { url } : { url, detail },
    ...odd,
  }));

const userContent = rare<unknown>(
  fc.oneof(
    { weight: 3, arbitrary: text },
    {
      weight: 2,
      arbitrary: fc.array(fc.oneof({ weight: 3, arbitrary: textPart }, { weight: 2, arbitrary: imagePart }), {
        minLength: 1,
        maxLength: 3,
      }),
    },
  ),
  fc.constant([]),
  fc.constant(null),
  fc.constant([{ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }]),
  fc.constant([{ type: "file", file: { file_id: "f1" } }]),
);

const named = (role: string, content: fc.Arbitrary<unknown>) =>
  fc
    .tuple(content, oddity({ name: "n" }, { name: "" }, { name: 1 }, { extra: 1 }, { name: null }))
    .map(([value, odd]) => ({ role, content: value, ...odd }));

const assistantContent = rare<unknown>(
  fc.oneof(
    { weight: 6, arbitrary: text },
    { weight: 1, arbitrary: fc.array(textPart, { minLength: 1, maxLength: 2 }) },
  ),
  fc.constant(null),
  fc.constant([{ type: "refusal", refusal: "no" }]),
  fc.constant([]),
);

const callId = rare(fc.constantFrom("call_1", "call_2", "call_3"), fc.constant(""));
const toolName = fc.constantFrom("get_weather", "search_docs", "f");
const args = rare(
  fc.constantFrom('{"city":"Paris"}', "{}", '{"q":"a","filters":{"tags":["x"]},"n":3}'),
  fc.constantFrom("", "  ", "not json", "[1]", "null", '{"a":1'),
);

/** An exchange of tool calls and their results: usually paired by id, now and then not. */
const exchange = fc
  .record({
    ids: fc.uniqueArray(callId, { minLength: 1, maxLength: 3 }),
    names: fc.array(toolName, { minLength: 3, maxLength: 3 }),
    args: fc.array(args, { minLength: 3, maxLength: 3 }),
    outputs: fc.array(text, { minLength: 3, maxLength: 3 }),
    content: rare<unknown>(
      fc.constantFrom(null, ""),
      text,
      fc.constant([{ type: "text", text: "Let me check." }]),
    ),
    order: rare(
      fc.constant("paired"),
      fc.constant("reversed"),
      fc.constant("missing"),
      fc.constant("stray"),
      fc.constant("twice"),
      fc.constant("user-between"),
      fc.constant("user-first"),
    ),
    call: oddity({ index: 0 }, { type: "custom" }, { extra_content: { google: {} } }),
    result: oddity({ name: "n" }, { content: [{ type: "text", text: "x" }] }, { content: null }),
  })
  .map(({ ids, names, args: texts, outputs, content, order, call, result }) => {
    const calls = ids.map((id, at) => ({
      id,
      type: "function",
      function: { name: names[at] as string, arguments: texts[at] as string },
      ...(at === 0 ? call : {}),
    }));
    let results: Record<string, unknown>[] = ids.map((id, at) => ({
      role: "tool",
      tool_call_id: id,
      content: outputs[at] as string,
      ...(at === 0 ? result : {}),
    }));
    if (order === "reversed") results = results.reverse();
    if (order === "missing") results.pop();
    if (order === "stray") results.push({ role: "tool", tool_call_id: "stray", content: "x" });
    if (order === "twice") results.push({ ...(results[0] as Record<string, unknown>) });
    if (order === "user-between") results.splice(1, 0, { role: "user", content: "and?" });
    if (order === "user-first") results.unshift({ role: "user", content: "wait" });
    return [{ role: "assistant", content, tool_calls: calls }, ...results];
  });

const parameters = rare<unknown>(
  fc.constantFrom(
    { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    { type: "object", properties: {} },
    { properties: { q: { type: "string" } } },
  ),
  fc.constant(undefined),
  fc.constant({ type: "string" }),
  fc.constant([]),
);
const tool = fc
  .record(
    {
      name: toolName,
      description: fc.constantFrom("Weather for a city.", ""),
      parameters,
      strict: fc.boolean(),
      odd: oddity({ cache_control: { type: "ephemeral" } }, { extra: 1 }),
    },
    { requiredKeys: ["name", "parameters", "odd"] },
  )
  .map(({ odd, parameters: schema, ...fn }) => ({
    type: "function",
    function: schema === undefined ? fn : { ...fn, parameters: schema },
    ...odd,
  }));

/** A sampling value: mostly within 0–1, now and then past it (the hub clamps: a loss). */
const number = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0, 0.25, 0.5, 0.7, 1) },
  { weight: 1, arbitrary: fc.constantFrom(1.5, 2, -1, 16, 1024) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -4, max: 4 }) },
);

/**
 * A conversation from a user message: user messages, tool exchanges, assistant answers, rarely broken
 * (an assistant message first, a late system message, a trailing assistant message that ends in
 * whitespace).
 */
const conversation = fc
  .array(
    fc.tuple(
      named("user", userContent),
      fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: exchange }),
      named("assistant", assistantContent),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .chain((groups) =>
    fc
      .record({
        cut: fc.boolean(),
        broken: rare(
          fc.constant("none"),
          fc.constant("assistant-first"),
          fc.constant("late-system"),
          fc.constant("prefill"),
          fc.constant("double-user"),
        ),
      })
      .map(({ cut, broken }) => {
        const list: unknown[] = groups.flatMap(([user, calls, answer]) => [user, ...calls, answer]);
        if (cut) list.pop();
        if (broken === "assistant-first") list.shift();
        if (broken === "late-system") list.splice(1, 0, { role: "system", content: "Late." });
        if (broken === "prefill") list.push({ role: "assistant", content: "Sure " });
        if (broken === "double-user")
          list.push({ role: "user", content: "one" }, { role: "user", content: "two" });
        return list;
      }),
  );

/** The chat request shapes the fused paths from chat take, with values at and past their edges. */
export const plainChatRequest: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      model: fc.constantFrom("gpt-4o-mini", "m"),
      system: fc.array(fc.oneof(named("system", text), named("developer", text)), { maxLength: 2 }),
      messages: conversation,
      tools: fc.array(tool, { maxLength: 3 }),
      tool_choice: rare<unknown>(
        fc.oneof(
          fc.constantFrom("auto", "none", "required"),
          toolName.map((name) => ({ type: "function", function: { name } })),
        ),
        fc.constantFrom("bogus", { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [] } }),
      ),
      parallel_tool_calls: fc.boolean(),
      temperature: number,
      top_p: number,
      max: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(1, 256, 4096) },
        { weight: 1, arbitrary: fc.constantFrom(0, 1.5, -3) },
      ),
      maxKey: fc.constantFrom("max_tokens", "max_completion_tokens"),
      stop: fc.oneof(text, fc.array(text, { maxLength: 3 })),
      stream: fc.boolean(),
      extra: rare<Record<string, unknown>>(
        fc.constant({}),
        fc.constant({ seed: 1 }),
        fc.constant({ n: null }),
        fc.constant({ user: "u" }),
        fc.constant({ tools: [] }),
        fc.constant({ max_completion_tokens: 64, max_tokens: 32 }),
        fc.constant({ unknown_field: true }),
        fc.constant({ temperature: null }),
        fc.constant({ tool_choice: null }),
        fc.constant({ tools: [{ type: "custom", custom: { name: "c" } }] }),
        fc.constant({ functions: [{ name: "f" }] }),
      ),
    },
    { requiredKeys: ["model", "system", "messages", "maxKey", "extra"] },
  )
  .map(({ system, messages, max, maxKey, extra, ...rest }) => {
    const body: Record<string, unknown> = { ...rest, messages: [...system, ...messages] };
    if (max !== undefined) body[maxKey] = max;
    return { ...body, ...extra };
  });
