/**
 * What the differential tests of the fused paths from responses share: a generator of the plain responses request shape those paths take — `instructions`, a
 * string `input` or user and assistant messages, function calls and their outputs, function tools,
 * `tool_choice` and sampling fields — with the edge values that must send it back to the hub (system
 * messages, item ids and statuses, refusals, annotations, file inputs, unpaired calls, nulls, extra and
 * unknown fields, out-of-range sampling values, blank text).
 */
import fc from "fast-check";

const text = fc.oneof(
  { weight: 12, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "hi ", " hi", "\t\n") },
);

const rare = <T>(usual: fc.Arbitrary<T>, ...others: fc.Arbitrary<T>[]): fc.Arbitrary<T> =>
  fc.oneof({ weight: 20, arbitrary: usual }, ...others.map((arbitrary) => ({ weight: 1, arbitrary })));

const inputText = text.map((value) => ({ type: "input_text", text: value }));
const image = fc
  .record(
    {
      url: fc.constantFrom(
        "https://ex.com/a.png",
        "data:image/png;base64,iVBO",
        "data:image/jpeg;base64,/9j/",
      ),
      detail: fc.constantFrom("low", "high", "auto"),
    },
    { requiredKeys: ["url"] },
  )
  .map(({ url, detail }) =>
    detail === undefined
      ? { type: "input_image", image_url: url }
      : { type: "input_image", image_url: url, detail },
  );

const userContent = rare<unknown>(
  fc.oneof(
    { weight: 3, arbitrary: text },
    {
      weight: 2,
      arbitrary: fc.array(fc.oneof({ weight: 3, arbitrary: inputText }, { weight: 1, arbitrary: image }), {
        minLength: 1,
        maxLength: 3,
      }),
    },
  ),
  fc.constant([]),
  fc.constant([{ type: "input_file", file_id: "f1" }]),
  fc.constant([{ type: "input_image", file_id: "f1" }]),
  fc.constant([{ type: "input_text", text: "x", extra: 1 }]),
  fc.constant([{ type: "output_text", text: "x" }]),
);

const assistantContent = rare<unknown>(
  fc.oneof(
    { weight: 3, arbitrary: text },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.oneof(
          text.map((value) => ({ type: "output_text", text: value })),
          text.map((value) => ({ type: "output_text", text: value, annotations: [] })),
          inputText,
        ),
        { minLength: 1, maxLength: 2 },
      ),
    },
  ),
  fc.constant([{ type: "refusal", refusal: "no" }]),
  fc.constant([{ type: "output_text", text: "x", annotations: [{ type: "url_citation", url: "u" }] }]),
  fc.constant([]),
);

/** A message item: `type: "message"` now and then, rarely an id and status or another role. */
const message = (role: string, content: fc.Arbitrary<unknown>) =>
  fc
    .record({
      content,
      typed: fc.boolean(),
      extra: rare<Record<string, unknown>>(
        fc.constant({}),
        fc.constant({ id: "msg_1", status: "completed" }),
        fc.constant({ id: "" }),
        fc.constant({ role: "system" }),
        fc.constant({ role: "developer" }),
      ),
    })
    .map(({ content: value, typed, extra }) => ({
      ...(typed ? { type: "message" } : {}),
      role,
      content: value,
      ...extra,
    }));

const callId = fc.constantFrom("call_1", "call_2", "c", "");
const toolName = fc.constantFrom("get_weather", "search", "f");
const args = fc.constantFrom('{"city":"Paris"}', "{}", "", "  ", "not json", "[1]");

/** An exchange of calls and outputs: usually paired by id, now and then not, with rare extra fields. */
const calls = fc
  .record({
    ids: fc.uniqueArray(callId, { minLength: 1, maxLength: 3 }),
    names: fc.array(toolName, { minLength: 3, maxLength: 3 }),
    args: fc.array(args, { minLength: 3, maxLength: 3 }),
    outputs: fc.array(text, { minLength: 3, maxLength: 3 }),
    pairing: rare(fc.constant("paired"), fc.constant("missing"), fc.constant("stray"), fc.constant("early")),
    extra: rare<Record<string, unknown>>(
      fc.constant({}),
      fc.constant({ id: "fc_1", status: "completed" }),
      fc.constant({ output: [{ type: "input_text", text: "x" }] }),
    ),
  })
  .map(({ ids, names, args: texts, outputs, pairing, extra }) => {
    const made = ids.map((id, at) => ({
      type: "function_call",
      call_id: id,
      name: names[at] as string,
      arguments: texts[at] as string,
    }));
    const results: Record<string, unknown>[] = ids.map((id, at) => ({
      type: "function_call_output",
      call_id: id,
      output: outputs[at] as string,
    }));
    if (pairing === "missing") results.pop();
    if (pairing === "stray") results.push({ type: "function_call_output", call_id: "stray", output: "x" });
    const first = (made[0] ?? {}) as Record<string, unknown>;
    Object.assign(extra.output === undefined ? first : (results[0] ?? first), extra);
    return pairing === "early" ? [...results, ...made] : [...made, ...results];
  });

/** The input items: a conversation of user and assistant messages with call exchanges between. */
const items = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: message("user", userContent).map((item) => [item]) },
      { weight: 3, arbitrary: message("assistant", assistantContent).map((item) => [item]) },
      { weight: 2, arbitrary: calls },
      {
        weight: 1,
        arbitrary: fc.constantFrom<unknown[][]>(
          [{ role: "system", content: "Be brief." }],
          [{ type: "item_reference", id: "msg_1" }],
          [{ type: "reasoning", id: "rs_1", summary: [] }],
          [{ role: "user", content: null }],
          [null],
        ),
      },
    ),
    { maxLength: 7 },
  )
  .map((groups) => groups.flat());

/** A sampling value: mostly within range, now and then past it (the hub clamps: a loss). */
const number = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0, 0.25, 0.5, 0.7, 1, 1.5) },
  { weight: 1, arbitrary: fc.constantFrom(2, 2.5, -1, 16, 1024) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -4, max: 4 }) },
);

const tool = fc
  .record(
    {
      name: toolName,
      description: fc.constantFrom("Weather for a city.", ""),
      parameters: fc.constantFrom(
        { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        { type: "object", properties: {} },
      ),
      strict: fc.boolean(),
    },
    { requiredKeys: ["name"] },
  )
  .map((fields) => ({ type: "function", ...fields }));

/** An alternating conversation from a user turn (the shape a messages target takes), rarely broken. */
const conversation = fc
  .array(fc.tuple(userContent, assistantContent), { minLength: 1, maxLength: 4 })
  .chain((pairs) =>
    fc
      .record({
        cut: fc.boolean(),
        broken: rare(
          fc.constant("none"),
          fc.constant("flip"),
          fc.constant("call"),
          fc.constant("assistant-first"),
        ),
      })
      .map(({ cut, broken }) => {
        const list: Record<string, unknown>[] = pairs.flatMap(([user, assistant]) => [
          { role: "user", content: user },
          { role: "assistant", content: assistant },
        ]);
        if (cut) list.pop();
        if (broken === "flip") (list[list.length - 1] as Record<string, unknown>).role = "user";
        if (broken === "call") list.push({ type: "function_call", call_id: "c", name: "f", arguments: "{}" });
        if (broken === "assistant-first") list.shift();
        return list;
      }),
  );

/**
 * The plain shape the fused paths from responses take, with values at and past its edges: `calls`
 * says whether the input mixes in function calls and the body carries tools (chat takes them), or is
 * mostly a conversation of text without tools (what messages takes).
 */
export function plainResponsesRequest(calls: boolean): fc.Arbitrary<Record<string, unknown>> {
  const toolFields = calls
    ? {
        tools: fc.array(tool, { maxLength: 3 }),
        tool_choice: fc.oneof(
          fc.constantFrom("auto", "none", "required"),
          toolName.map((name) => ({ type: "function", name })),
        ),
        parallel_tool_calls: fc.boolean(),
      }
    : {};
  return fc
    .record(
      {
        model: fc.constantFrom("gpt-5-mini", "m"),
        instructions: text,
        input: calls
          ? fc.oneof({ weight: 1, arbitrary: text }, { weight: 4, arbitrary: items })
          : fc.oneof({ weight: 1, arbitrary: text }, { weight: 4, arbitrary: conversation }),
        temperature: number,
        top_p: number,
        max_output_tokens: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(16, 256, 4096) },
          { weight: 1, arbitrary: fc.constantFrom(1, 8) },
        ),
        stream: fc.boolean(),
        ...toolFields,
        extra: rare<Record<string, unknown>>(
          fc.constant({}),
          fc.constant({ store: false }),
          fc.constant({ user: "u" }),
          fc.constant({ temperature: null }),
          fc.constant({ instructions: null }),
          fc.constant({ reasoning: { effort: "low" } }),
          fc.constant({ text: { format: { type: "text" } } }),
          fc.constant({ unknown_field: true }),
          fc.constant({ tool_choice: { type: "allowed_tools", mode: "auto", tools: [] } }),
          fc.constant({ tools: [{ type: "web_search" }] }),
          fc.constant({ tools: [] }),
          fc.constant({ parallel_tool_calls: false }),
          fc.constant({ previous_response_id: "resp_1" }),
        ),
      },
      { requiredKeys: ["model", "input", "extra"] },
    )
    .map(({ extra, ...body }) => ({ ...body, ...extra }));
}
