/**
 * What the differential tests of the fused response paths from responses share: a generator of the
 * responses response shape those paths take — message items of `output_text` (with and without
 * annotations and logprobs) and `refusal` parts, reasoning items (summary or raw reasoning text,
 * `encrypted_content`), function and custom tool calls, the server-side tool calls and other items —
 * with values at and past its edges: every status and incomplete reason, usage with details and nulls,
 * failed responses, missing ids and models, unknown fields blank and not (keys that need escaping in a
 * pointer), the request's echoed settings, and values of the wrong type (for `validate: false`).
 */
import fc from "fast-check";
import { strip } from "./oracle";

const word = fc.oneof(
  { weight: 8, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "a/b", "~0", "{}", '{"a":1}', "[1]") },
);

/** Now and then a field of no known meaning, blank or not, its key needing escaping or not. */
const unknownFields = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom("phase", "x_vendor", "a/b", "t~1", "~0", "service_tier", "__proto__"),
      fc.constantFrom(null, "", [], {}, "v", 1, { k: 1 }, [0]),
      { maxKeys: 2 },
    ),
  },
);

/** A record's fields without the undefined ones, then the unknown fields (the `extra` field). */
const withExtra = ({ extra, ...fields }: Record<string, unknown>): Record<string, unknown> => {
  const out = strip(fields);
  // Assigned by `defineProperty`: a `__proto__` key stays an own field, as JSON.parse makes it.
  for (const [key, value] of Object.entries(extra as Record<string, unknown>))
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
};

const rare = <T>(usual: fc.Arbitrary<T>, ...others: T[]): fc.Arbitrary<T> =>
  fc.oneof({ weight: 40, arbitrary: usual }, { weight: 1, arbitrary: fc.constantFrom(...others) });

const annotation = {
  type: "url_citation",
  start_index: 0,
  end_index: 1,
  url: "https://a.example",
  title: "A",
};
const outputText = fc
  .record({
    type: fc.constant("output_text"),
    text: rare(word, 7 as unknown as string, null as unknown as string),
    annotations: rare(fc.constantFrom([], [], [annotation], undefined), null as unknown as []),
    logprobs: fc.constantFrom([], [], undefined, [
      { token: "a", logprob: -0.1, bytes: [97], top_logprobs: [] },
    ]),
    extra: unknownFields,
  })
  .map(withExtra);
const refusal = fc
  .record({ type: fc.constant("refusal"), refusal: rare(word, 3 as unknown as string), extra: unknownFields })
  .map(withExtra);
const otherPart = fc.constantFrom<unknown>(
  { type: "output_audio", data: "AAAA", transcript: "t" },
  { type: "reasoning_text", text: "r" },
  { text: "no type" },
  { type: 5 },
  "a string",
  null,
);
const messageItem = fc
  .record({
    id: rare(fc.constantFrom("msg_1", "msg_2"), undefined as unknown as string),
    type: fc.constant("message"),
    status: fc.constantFrom("completed", "in_progress", "incomplete", undefined),
    role: rare(fc.constant("assistant"), "user"),
    content: fc.oneof(
      {
        weight: 20,
        arbitrary: fc.array(
          fc.oneof(
            { weight: 10, arbitrary: outputText },
            { weight: 2, arbitrary: refusal },
            { weight: 1, arbitrary: otherPart },
          ),
          { maxLength: 3 },
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, "text") },
    ),
    extra: unknownFields,
  })
  .map(withExtra);

const summaryPart = fc.oneof(
  {
    weight: 15,
    arbitrary: fc
      .record({ type: fc.constant("summary_text"), text: word, extra: unknownFields })
      .map(withExtra),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>({ type: "summary_text" }, null, { type: "summary_text", text: 1 }),
  },
);
const reasoningPart = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .record({ type: fc.constant("reasoning_text"), text: word, extra: unknownFields })
      .map(withExtra),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      { type: "image", url: "u" },
      { type: "reasoning_text", text: 2 },
      {},
      null,
      {
        type: { a: 1 },
      },
    ),
  },
);
const reasoningItem = fc
  .record({
    id: rare(fc.constant("rs_1"), undefined as unknown as string),
    type: fc.constant("reasoning"),
    summary: rare(
      fc.array(summaryPart, { maxLength: 3 }),
      undefined as unknown as unknown[],
      "s" as unknown as unknown[],
    ),
    content: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.array(reasoningPart, { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, "c") },
    ),
    encrypted_content: fc.constantFrom("gAAAA", "", null, undefined, undefined, 4),
    status: fc.constantFrom("completed", undefined),
    extra: unknownFields,
  })
  .map(withExtra);

const args = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .dictionary(word, fc.oneof(word, fc.integer()), { maxKeys: 3 })
      .map((v) => JSON.stringify(v)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("", "  ", "[1]", "not json", '"s"', "null", '{"__proto__":{"a":1}}', "{"),
  },
);
const callItem = fc
  .record({
    type: fc.constant("function_call"),
    id: rare(fc.constant("fc_1"), undefined as unknown as string),
    call_id: rare(
      fc.constantFrom("call_1", "call_2", ""),
      undefined as unknown as string,
      9 as unknown as string,
    ),
    name: rare(fc.constantFrom("get_weather", "search"), undefined as unknown as string),
    arguments: rare(args, 1 as unknown as string, undefined as unknown as string),
    status: fc.constantFrom("completed", "in_progress", undefined),
    extra: unknownFields,
  })
  .map(withExtra);
const customCallItem = fc
  .record({
    type: fc.constant("custom_tool_call"),
    id: rare(fc.constant("ctc_1"), undefined as unknown as string),
    call_id: fc.constantFrom("call_c"),
    name: fc.constantFrom("apply_patch", "run"),
    input: rare(word, 5 as unknown as string),
    status: fc.constantFrom("completed", undefined),
    extra: unknownFields,
  })
  .map(withExtra);
/** The server-side tool calls and other items the common model keeps whole, and items of no shape. */
const otherItem = fc.constantFrom<unknown>(
  { id: "ws_1", type: "web_search_call", status: "completed", action: { type: "search", query: "q" } },
  { id: "fs_1", type: "file_search_call", status: "completed", queries: ["q"], results: null },
  {
    id: "ci_1",
    type: "code_interpreter_call",
    status: "completed",
    code: "1+1",
    container_id: "c",
    outputs: [],
  },
  { id: "ig_1", type: "image_generation_call", status: "completed", result: "AAAA" },
  { id: "mcp_1", type: "mcp_call", name: "t", server_label: "s", arguments: "{}", output: "o" },
  { id: "mcpr_1", type: "mcp_approval_request", name: "t", server_label: "s", arguments: "{}" },
  {
    id: "lsc_1",
    type: "local_shell_call",
    call_id: "c",
    status: "completed",
    action: { type: "exec", command: ["ls"], env: {} },
  },
  { id: "cmp_1", type: "compaction", encrypted_content: "e" },
  { type: 3 },
  null,
);
const item = fc.oneof(
  { weight: 8, arbitrary: messageItem },
  { weight: 3, arbitrary: reasoningItem },
  { weight: 5, arbitrary: callItem },
  { weight: 1, arbitrary: customCallItem },
  { weight: 2, arbitrary: otherItem },
);

const count = rare(
  fc.nat(5000),
  null as unknown as number,
  "12" as unknown as number,
  undefined as unknown as number,
);
/** Details of the wrong type, now and then. */
const wrongDetails = fc.constantFrom<Record<string, unknown>>(
  { input_tokens_details: [1] },
  { input_tokens_details: { cached_tokens: null } },
  { output_tokens_details: "d" },
  { output_tokens_details: { reasoning_tokens: null } },
);
const usage = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, undefined, "u", [1]) },
  {
    weight: 12,
    arbitrary: fc
      .record({
        input_tokens: count,
        output_tokens: count,
        total_tokens: rare(
          fc.nat(10000),
          null as unknown as number,
          undefined as unknown as number,
          "x" as unknown as number,
        ),
        input_tokens_details: fc.constantFrom<unknown>(
          { cached_tokens: 0 },
          { cached_tokens: 1500 },
          { cached_tokens: 3, cache_write_tokens: 2 },
          { cached_tokens: 1, "a/b": 2 },
          {},
          null,
          undefined,
        ),
        output_tokens_details: fc.constantFrom<unknown>(
          { reasoning_tokens: 0 },
          { reasoning_tokens: 59 },
          { reasoning_tokens: 1, "~x": "" },
          { reasoning_tokens: 1, extra_tokens: 4 },
          {},
          null,
          undefined,
        ),
        extra: unknownFields,
      })
      .map(withExtra),
  },
  {
    weight: 1,
    arbitrary: wrongDetails.map((details) => ({
      input_tokens: 1,
      output_tokens: 2,
      total_tokens: 3,
      ...details,
    })),
  },
);

/** The status with the details a response carries beside it, each reason included, and mismatched ones. */
const status = fc.constantFrom<Record<string, unknown>>(
  { status: "completed", incomplete_details: null, error: null },
  { status: "completed", incomplete_details: null, error: null },
  { status: "completed" },
  {},
  { status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, error: null },
  { status: "incomplete", incomplete_details: { reason: "content_filter" }, error: null },
  { status: "incomplete", incomplete_details: { reason: "other_reason" }, error: null },
  { status: "incomplete", incomplete_details: { reason: null } },
  { status: "incomplete", incomplete_details: {} },
  { status: "incomplete" },
  { status: "failed", error: { code: "server_error", message: "boom" }, incomplete_details: null },
  { status: "failed", error: { code: null, message: "" } },
  { status: "in_progress", incomplete_details: null, error: null },
  { status: "queued" },
  { status: "cancelled" },
  { status: "later_status" },
  { status: "completed", incomplete_details: { reason: "end_turn" } },
  { status: "completed", incomplete_details: { reason: "max_output_tokens", note: "x" } },
  { incomplete_details: { reason: "content_filter" } },
);
/** Status fields of the wrong type, now and then. */
const wrongStatus = fc.constantFrom<Record<string, unknown>>(
  { status: 5 },
  { status: "completed", incomplete_details: "x" },
  { status: "failed", error: "boom" },
  { status: "failed", error: { message: 1 } },
);

/** The request settings a response echoes (passed over without a loss), now and then. */
const echoed = fc.constantFrom<Record<string, unknown>>(
  {},
  {},
  {
    instructions: null,
    max_output_tokens: null,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    metadata: {},
    user: null,
  },
  { background: false, billing: { payer: "developer" }, service_tier: "default", output_text: "hi" },
  { completed_at: 1, prompt_cache_key: "k", safety_identifier: "s", top_logprobs: 0 },
);

/** A responses response of the shape the fused paths take, with values at and past its edges. */
export const edgeResponse = fc
  .record({
    id: rare(fc.constantFrom("resp_1", "r"), undefined as unknown as string, 1 as unknown as string),
    object: fc.constant("response"),
    created_at: rare(
      fc.constantFrom(1_761_323_546, 0),
      undefined as unknown as number,
      null as unknown as number,
      "t" as unknown as number,
    ),
    model: rare(
      fc.constantFrom("gpt-5-mini", ""),
      undefined as unknown as string,
      null as unknown as string,
      2 as unknown as string,
    ),
    output: rare(fc.array(item, { maxLength: 5 }), "o" as unknown as unknown[]),
    usage,
    status: fc.oneof({ weight: 30, arbitrary: status }, { weight: 1, arbitrary: wrongStatus }),
    echoed,
    extra: unknownFields,
  })
  .map(({ status: fields, echoed: settings, ...rest }) => ({ ...withExtra(rest), ...fields, ...settings }));

/** A reasoning model's answer: two summary parts and encrypted reasoning, cited text, a call, a web search. */
export const exampleResponse = {
  id: "resp_1",
  object: "response",
  created_at: 1,
  model: "gpt-5-mini",
  status: "completed",
  error: null,
  incomplete_details: null,
  service_tier: "default",
  store: true,
  output: [
    {
      id: "rs_1",
      type: "reasoning",
      summary: [
        { type: "summary_text", text: "Plan." },
        { type: "summary_text", text: "Call." },
      ],
      encrypted_content: "gAAAA",
    },
    {
      id: "msg_1",
      type: "message",
      status: "completed",
      role: "assistant",
      content: [
        {
          type: "output_text",
          text: "Looking.",
          annotations: [{ type: "url_citation", url: "u", title: "t", start_index: 0, end_index: 1 }],
          logprobs: [],
        },
      ],
    },
    {
      id: "fc_1",
      type: "function_call",
      status: "completed",
      call_id: "call_1",
      name: "get_weather",
      arguments: '{"city":"Oslo"}',
    },
    { id: "ws_1", type: "web_search_call", status: "completed", action: { type: "search", query: "q" } },
  ],
  usage: {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 90 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 12 },
    total_tokens: 120,
  },
};

/** What decoding `exampleResponse` loses, before what each target loses: the same for every target. */
export const exampleDecodeLosses = [
  [
    "/service_tier",
    "dropped",
    "`service_tier` of the response has no equivalent in the target and was dropped.",
  ],
  [
    "/output/0/summary",
    "approximated",
    "The 2 summary parts of the reasoning item were joined into one text, parted by blank lines.",
  ],
];
