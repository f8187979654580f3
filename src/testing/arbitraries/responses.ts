/**
 * Arbitraries for the responses wire format, written against the wire shapes (not produced by our
 * encoders): requests with every item and part kind (calls paired with their outputs by `call_id`),
 * responses with every output item kind and status, error bodies, and hand-written event streams with
 * deltas split at odd places, numbered by `sequence_number`, ending normally, cut off or failing.
 */
import fc from "fast-check";
import { responsesGrammar } from "../grammar";
import {
  givenFact,
  givenKeysArb,
  type Hard,
  isRecord,
  lazy,
  leaning,
  pieces,
  resolveBias,
  someNode,
  textFacts,
  textFor,
  zeroOr,
} from "./common";
import type { ProtocolArbitraries, UsageTotals } from "./types";

type Json = Record<string, unknown>;

const nonEmptyPieces = (text: string, cuts: readonly number[]): string[] =>
  pieces(text, cuts).filter((piece) => piece !== "");

/**
 * Every arbitrary of the protocol under `hard`: text from `textFor`, two calls or more in an exchange
 * (`tools`), an image in every user message (`images`), encrypted reasoning (`thinking`), explicit zeros.
 */
function build(hard: Hard) {
  const textArb = textFor(hard);
  const sayArb = textFor(hard, { nonEmpty: true });
  const wordArb = fc.stringMatching(/^[a-z]{1,6}$/);
  const idArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/);
  const argsArb = fc.dictionary(
    fc.stringMatching(/^[a-z]{1,3}$/),
    fc.oneof(fc.integer(), textArb, fc.boolean()),
    {
      maxKeys: 2,
    },
  );
  const schemaArb = fc.constantFrom(
    { type: "object", properties: { a: { type: "string" } } },
    { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
  );

  const inputTextArb = fc.record({ type: fc.constant("input_text" as const), text: textArb });
  const imagePartArb = fc.record(
    {
      type: fc.constant("input_image" as const),
      image_url: fc.constantFrom("https://ex.com/a.png", "data:image/png;base64,iVBO"),
      detail: fc.constantFrom("low", "high", "auto"),
    },
    { requiredKeys: ["type", "image_url"] },
  );
  const inputPartArb = fc.oneof(
    { weight: 4, arbitrary: inputTextArb },
    { weight: 1, arbitrary: imagePartArb },
    { weight: 1, arbitrary: fc.record({ type: fc.constant("input_image" as const), file_id: idArb }) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.record({
          type: fc.constant("input_file" as const),
          file_data: fc.constant("data:application/pdf;base64,JVBER"),
          filename: fc.constant("a.pdf"),
        }),
        fc.record({
          type: fc.constant("input_file" as const),
          file_url: fc.constant("https://ex.com/a.pdf"),
        }),
        fc.record({ type: fc.constant("input_file" as const), file_id: idArb }),
      ),
    },
  );
  const outputTextArb = fc.record(
    { type: fc.constant("output_text" as const), text: textArb, annotations: fc.constant([]) },
    { requiredKeys: ["type", "text"] },
  );
  const summaryArb = fc.array(
    textArb.map((text) => ({ type: "summary_text" as const, text })),
    { maxLength: 2 },
  );
  const reasoningItemArb = fc.record(
    {
      type: fc.constant("reasoning" as const),
      id: idArb.map((id) => `rs_${id}`),
      summary: summaryArb,
      encrypted_content: hard.thinking
        ? fc.base64String({ minLength: 4, maxLength: 12 })
        : fc.option(fc.base64String({ minLength: 4, maxLength: 12 }), { nil: null }),
    },
    {
      requiredKeys: hard.thinking
        ? ["type", "id", "summary", "encrypted_content"]
        : ["type", "id", "summary"],
    },
  );

  const userMessageArb = fc.record(
    {
      type: fc.constant("message" as const),
      role: fc.constant("user" as const),
      content: hard.images
        ? fc
            .tuple(fc.array(inputPartArb, { maxLength: 2 }), imagePartArb)
            .map(([parts, image]) => [...parts, image])
        : fc.oneof(textArb, fc.array(inputPartArb, { minLength: 1, maxLength: 3 })),
    },
    { requiredKeys: ["role", "content"] },
  );
  const systemMessageArb = fc.record({
    role: fc.constantFrom("system" as const, "developer" as const),
    content: fc.oneof(textArb, fc.array(inputTextArb, { minLength: 1, maxLength: 2 })),
  });
  const assistantMessageArb = fc.record(
    {
      type: fc.constant("message" as const),
      role: fc.constant("assistant" as const),
      content: fc.oneof(
        textArb,
        fc.array(
          fc.oneof(outputTextArb, fc.record({ type: fc.constant("refusal" as const), refusal: textArb })),
          {
            minLength: 1,
            maxLength: 2,
          },
        ),
      ),
      id: idArb.map((id) => `msg_${id}`),
      status: fc.constant("completed"),
    },
    { requiredKeys: ["role", "content"] },
  );

  /** An assistant turn's calls (unique call ids) with their outputs after them; rarely an output goes missing. */
  const callExchangeArb = fc
    .record({
      reasoning: fc.array(reasoningItemArb, { maxLength: 1 }),
      calls: fc.uniqueArray(
        fc.record(
          {
            type: fc.constantFrom("function_call" as const, "custom_tool_call" as const),
            call_id: idArb.map((id) => `call_${id}`),
            name: wordArb,
            args: argsArb,
            id: idArb.map((id) => `fc_${id}`),
            status: fc.constant("completed"),
          },
          { requiredKeys: ["type", "call_id", "name", "args"] },
        ),
        { minLength: hard.tools ? 2 : 1, maxLength: 3, selector: (call) => call.call_id },
      ),
      outputs: fc.array(fc.oneof(textArb, fc.array(inputPartArb, { minLength: 1, maxLength: 2 })), {
        minLength: 3,
        maxLength: 3,
      }),
      orphan: fc.oneof(
        { weight: 19, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    })
    .map(({ reasoning, calls, outputs, orphan }) => [
      ...reasoning,
      ...calls.map(({ args, ...call }) =>
        call.type === "custom_tool_call"
          ? { ...call, input: JSON.stringify(args) }
          : { ...call, arguments: JSON.stringify(args) },
      ),
      ...calls.slice(0, orphan ? -1 : undefined).map((call, index) => ({
        type: call.type === "custom_tool_call" ? "custom_tool_call_output" : "function_call_output",
        call_id: call.call_id,
        output: outputs[index] ?? "",
      })),
    ]);

  const builtInItemArb = fc.constantFrom(
    { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "q" } },
    { type: "compaction", encrypted_content: "gAAA" },
  );

  const anyToolArb = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record(
        {
          type: fc.constant("function" as const),
          name: wordArb,
          description: textArb,
          parameters: schemaArb,
          strict: fc.boolean(),
        },
        { requiredKeys: ["type", "name"] },
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { type: "web_search" },
        { type: "code_interpreter", container: { type: "auto" } },
        { type: "custom", name: "shell", description: "Runs a command" },
        { type: "file_search", vector_store_ids: ["vs_1"] },
      ),
    },
  );

  const anyRequestArb = fc
    .record(
      {
        model: textArb,
        instructions: textArb,
        history: fc.array(
          fc.oneof(
            userMessageArb.map((item) => [item]),
            systemMessageArb.map((item) => [item]),
            assistantMessageArb.map((item) => [item]),
            callExchangeArb,
            reasoningItemArb.map((item) => [item]),
            builtInItemArb.map((item) => [item]),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        tools: fc.array(anyToolArb, { maxLength: 3 }),
        tool_choice: fc.oneof(
          fc.constantFrom("auto", "none", "required"),
          fc.record({ type: fc.constant("function"), name: wordArb }),
          fc.record({
            type: fc.constant("allowed_tools"),
            mode: fc.constantFrom("auto", "required"),
            tools: fc.array(fc.record({ type: fc.constant("function"), name: wordArb }), { maxLength: 2 }),
          }),
          fc.constant({ type: "web_search_preview" }),
        ),
        parallel_tool_calls: fc.boolean(),
        max_output_tokens: fc.integer({ min: 16, max: 100_000 }),
        temperature: zeroOr(hard, 0, fc.double({ min: 0, max: 2, noNaN: true })),
        top_p: zeroOr(hard, 0, fc.double({ min: 0, max: 1, noNaN: true })),
        top_logprobs: zeroOr(hard, 0, fc.nat({ max: 20 })),
        reasoning: fc.record(
          {
            effort: fc.constantFrom("minimal", "low", "medium", "high"),
            summary: fc.constantFrom("auto", "detailed"),
          },
          { requiredKeys: [] },
        ),
        text: fc.record(
          {
            format: fc.oneof(
              fc.constant({ type: "text" }),
              fc.constant({ type: "json_object" }),
              fc.record({
                type: fc.constant("json_schema"),
                name: wordArb,
                schema: schemaArb,
                strict: fc.boolean(),
              }),
            ),
            verbosity: fc.constantFrom("low", "high"),
          },
          { requiredKeys: [] },
        ),
        include: fc.subarray(["reasoning.encrypted_content", "message.output_text.logprobs"]),
        store: fc.boolean(),
        stream: fc.boolean(),
        user: textArb,
        metadata: fc.dictionary(wordArb, textArb, { maxKeys: 2 }),
        service_tier: fc.constantFrom("auto", "flex"),
        truncation: fc.constantFrom("auto", "disabled"),
      },
      { requiredKeys: ["model", "history"] },
    )
    .map(({ history, ...rest }) => ({ ...rest, input: history.flat() }));

  /**
   * The everyday request: user messages, assistant answers and function calls with their outputs, tools
   * that say `strict`, a few settings every protocol has — what round trips can keep.
   */
  const everydayExchangeArb = fc.oneof(
    fc.tuple(sayArb, sayArb).map(([question, answer]) => [
      { role: "user", content: question },
      { role: "assistant", content: answer },
    ]),
    fc
      .record({
        question: sayArb,
        calls: fc.uniqueArray(
          fc.record({ call_id: fc.stringMatching(/^call_[A-Za-z0-9]{1,6}$/), name: wordArb, args: argsArb }),
          { minLength: 1, maxLength: 3, selector: (call) => call.call_id },
        ),
        outputs: fc.array(sayArb, { minLength: 3, maxLength: 3 }),
      })
      .map(({ question, calls, outputs }) => [
        { role: "user", content: question },
        ...calls.map((call) => ({
          type: "function_call",
          call_id: call.call_id,
          name: call.name,
          arguments: JSON.stringify(call.args),
        })),
        ...calls.map((call, index) => ({
          type: "function_call_output",
          call_id: call.call_id,
          output: outputs[index],
        })),
      ]),
  );

  const everydayRequestArb = fc
    .record(
      {
        model: textArb,
        instructions: sayArb,
        exchanges: fc.array(everydayExchangeArb, { minLength: 1, maxLength: 3 }),
        max_output_tokens: fc.integer({ min: 16, max: 100_000 }),
        temperature: zeroOr(hard, 0, fc.double({ min: 0, max: 1, noNaN: true })),
        stream: fc.boolean(),
        tools: fc.uniqueArray(
          fc.record(
            {
              type: fc.constant("function"),
              name: wordArb,
              description: sayArb,
              parameters: schemaArb,
              strict: fc.boolean(),
            },
            { requiredKeys: ["type", "name", "parameters", "strict"] },
          ),
          { minLength: 1, maxLength: 3, selector: (tool) => tool.name },
        ),
        tool_choice: fc.constantFrom("auto", "none", "required"),
      },
      { requiredKeys: ["model", "exchanges"] },
    )
    .map(({ exchanges, tool_choice, ...rest }) => ({
      ...rest,
      ...(rest.tools === undefined ? {} : { tool_choice }),
      input: exchanges.flat(),
    }));

  const responsesRequestArb: fc.Arbitrary<Json> = fc.oneof(anyRequestArb, everydayRequestArb);

  // ─── Responses ────────────────────────────────────────────────────────────────────────────────────

  const responsesUsageArb = fc
    .record(
      {
        input_tokens: fc.nat({ max: 100_000 }),
        output_tokens: fc.nat({ max: 100_000 }),
        cached: fc.nat({ max: 100_000 }),
        reasoning: fc.nat({ max: 100_000 }),
        details: fc.boolean(),
      },
      { requiredKeys: ["input_tokens", "output_tokens"] },
    )
    .map(({ input_tokens, output_tokens, cached, reasoning, details }) => ({
      input_tokens,
      ...(details === false
        ? {}
        : { input_tokens_details: { cached_tokens: Math.min(cached ?? 0, input_tokens) } }),
      output_tokens,
      ...(details === false
        ? {}
        : { output_tokens_details: { reasoning_tokens: Math.min(reasoning ?? 0, output_tokens) } }),
      total_tokens: input_tokens + output_tokens,
    }));

  const outputMessageArb = fc.record(
    {
      id: idArb.map((id) => `msg_${id}`),
      type: fc.constant("message" as const),
      status: fc.constant("completed"),
      role: fc.constant("assistant" as const),
      content: fc.array(
        fc.oneof(
          {
            weight: 4,
            arbitrary: fc.record({
              type: fc.constant("output_text" as const),
              annotations: fc.constant([]),
              logprobs: fc.constant([]),
              text: textArb,
            }),
          },
          {
            weight: 1,
            arbitrary: fc.record({
              type: fc.constant("output_text" as const),
              annotations: fc.constant([
                { type: "url_citation", url: "https://ex.com", title: "Ex", start_index: 0, end_index: 1 },
              ]),
              text: textArb,
            }),
          },
          // A refusal always says something (a stream carries no empty refusal).
          { weight: 1, arbitrary: fc.record({ type: fc.constant("refusal" as const), refusal: sayArb }) },
        ),
        { minLength: 1, maxLength: 2 },
      ),
      phase: fc.constantFrom("commentary", "final_answer"),
    },
    { requiredKeys: ["id", "type", "role", "content"] },
  );

  const outputItemArb = fc.oneof(
    { weight: 4, arbitrary: outputMessageArb },
    { weight: 2, arbitrary: reasoningItemArb },
    {
      weight: 2,
      arbitrary: fc.record({
        type: fc.constant("function_call" as const),
        id: idArb.map((id) => `fc_${id}`),
        call_id: idArb.map((id) => `call_${id}`),
        name: wordArb,
        arguments: argsArb.map((args) => JSON.stringify(args)),
        status: fc.constant("completed"),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant("custom_tool_call" as const),
        id: idArb.map((id) => `ctc_${id}`),
        call_id: idArb.map((id) => `call_${id}`),
        name: wordArb,
        input: textArb,
      }),
    },
    { weight: 1, arbitrary: builtInItemArb },
  );

  const responsesResponseArb: fc.Arbitrary<Json> = fc
    .record(
      {
        id: idArb.map((id) => `resp_${id}`),
        created_at: fc.nat({ max: 2_000_000_000 }),
        model: textArb,
        output: fc.array(outputItemArb, { maxLength: 4 }),
        ending: fc.constantFrom("completed", "completed", "length", "filter", "failed", "in_progress"),
        usage: fc.option(responsesUsageArb, { nil: null }),
        echo: fc.record(
          {
            temperature: fc.constant(1),
            tools: fc.constant([]),
            tool_choice: fc.constant("auto"),
            parallel_tool_calls: fc.constant(true),
            metadata: fc.constant({}),
            service_tier: fc.constant("default"),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ["id", "created_at", "model", "output", "ending", "usage"] },
    )
    .map(({ id, created_at, model, output, ending, usage, echo }) => ({
      id,
      object: "response",
      created_at,
      status:
        ending === "length" || ending === "filter" ? "incomplete" : ending === "failed" ? "failed" : ending,
      error: ending === "failed" ? { code: "server_error", message: "The model failed." } : null,
      incomplete_details:
        ending === "length"
          ? { reason: "max_output_tokens" }
          : ending === "filter"
            ? { reason: "content_filter" }
            : null,
      ...echo,
      model,
      output,
      usage,
    }));

  /**
   * Answers a stream can carry (the replay law): a final status (completed or incomplete; a failed one
   * streams as an error), and no free-form calls (a stream's tool call carries no free-form flag).
   */
  const responsesReplayableResponseArb: fc.Arbitrary<Json> = responsesResponseArb
    .filter((body) => body.status === "completed" || body.status === "incomplete")
    .map((body) => ({
      ...body,
      output: (body.output as Json[]).filter((item) => item.type !== "custom_tool_call"),
    }));

  const responsesErrorBodyArb = fc.record({
    error: fc.record({
      message: textArb,
      type: fc.constantFrom(
        "invalid_request_error",
        "rate_limit_error",
        "server_error",
        "insufficient_quota",
        "new_error",
      ),
      param: fc.option(wordArb, { nil: null }),
      code: fc.option(fc.constantFrom("rate_limit_exceeded", "model_not_found", "invalid_api_key"), {
        nil: null,
      }),
    }),
  });

  // ─── Streams ──────────────────────────────────────────────────────────────────────────────────────

  const cutsArb = fc.array(fc.nat(), { maxLength: 3 });
  const streamTextArb =
    hard.unicode || hard.huge || hard.empty
      ? textFor(hard)
      : fc.string({ unit: fc.constantFrom("a", " ", "é", "😀", "\n", '"', "\\"), maxLength: 12 });

  const streamItemArb = fc.oneof(
    fc.record({ kind: fc.constant("message" as const), text: streamTextArb, cuts: cutsArb }),
    fc.record({
      kind: fc.constant("reasoning" as const),
      summaries: fc.array(fc.tuple(streamTextArb, cutsArb), { maxLength: 2 }),
      encrypted: fc.option(fc.base64String({ minLength: 4, maxLength: 8 }), { nil: undefined }),
    }),
    fc.record({ kind: fc.constant("call" as const), name: wordArb, args: argsArb, cuts: cutsArb }),
  );

  /**
   * A hand-written stream as OpenAI sends it: created, in_progress, items one at a time (text and
   * arguments split at odd places), then `response.completed` (or `incomplete`) with the whole output,
   * or cut off, or an `error` event and `response.failed`.
   */
  const responsesStreamArb: fc.Arbitrary<unknown[]> = fc
    .record({
      id: idArb.map((id) => `resp_${id}`),
      model: textArb,
      items: fc.array(streamItemArb, { maxLength: 4 }),
      ending: fc.constantFrom("completed", "incomplete", "cut", "error"),
      usage: responsesUsageArb,
      done: fc.boolean(),
    })
    .map(({ id, model, items, ending, usage, done }) => {
      const events: Json[] = [];
      const push = (event: Json): void => {
        events.push({ ...event, sequence_number: events.length });
      };
      const response = (status: string, output: unknown[], extra: Json = {}): Json => ({
        id,
        object: "response",
        created_at: 7,
        status,
        error: null,
        incomplete_details: null,
        model,
        output,
        usage: null,
        ...extra,
      });
      push({ type: "response.created", response: response("in_progress", []) });
      push({ type: "response.in_progress", response: response("in_progress", []) });
      const output: Json[] = [];
      items.forEach((item, output_index) => {
        if (item.kind === "message") {
          const item_id = `msg_${output_index}`;
          const at = { item_id, output_index, content_index: 0 };
          push({
            type: "response.output_item.added",
            output_index,
            item: { id: item_id, type: "message", status: "in_progress", content: [], role: "assistant" },
          });
          push({
            type: "response.content_part.added",
            ...at,
            part: { type: "output_text", annotations: [], logprobs: [], text: "" },
          });
          for (const delta of nonEmptyPieces(item.text, item.cuts))
            push({ type: "response.output_text.delta", ...at, delta, logprobs: [] });
          const part = { type: "output_text", annotations: [], logprobs: [], text: item.text };
          push({ type: "response.output_text.done", ...at, text: item.text, logprobs: [] });
          push({ type: "response.content_part.done", ...at, part });
          const done = {
            id: item_id,
            type: "message",
            status: "completed",
            content: [part],
            role: "assistant",
          };
          push({ type: "response.output_item.done", output_index, item: done });
          output.push(done);
        } else if (item.kind === "reasoning") {
          const item_id = `rs_${output_index}`;
          push({
            type: "response.output_item.added",
            output_index,
            item: { id: item_id, type: "reasoning", summary: [] },
          });
          item.summaries.forEach(([text, cuts], summary_index) => {
            const at = { item_id, output_index, summary_index };
            push({
              type: "response.reasoning_summary_part.added",
              ...at,
              part: { type: "summary_text", text: "" },
            });
            for (const delta of nonEmptyPieces(text, cuts))
              push({ type: "response.reasoning_summary_text.delta", ...at, delta });
            push({ type: "response.reasoning_summary_text.done", ...at, text });
            push({
              type: "response.reasoning_summary_part.done",
              ...at,
              part: { type: "summary_text", text },
            });
          });
          const done: Json = {
            id: item_id,
            type: "reasoning",
            summary: item.summaries.map(([text]) => ({ type: "summary_text", text })),
          };
          if (item.encrypted !== undefined) done.encrypted_content = item.encrypted;
          push({ type: "response.output_item.done", output_index, item: done });
          output.push(done);
        } else {
          const item_id = `fc_${output_index}`;
          const call = {
            id: item_id,
            type: "function_call",
            call_id: `call_${output_index}`,
            name: item.name,
          };
          push({
            type: "response.output_item.added",
            output_index,
            item: { ...call, status: "in_progress", arguments: "" },
          });
          const text = JSON.stringify(item.args);
          for (const delta of nonEmptyPieces(text, item.cuts))
            push({ type: "response.function_call_arguments.delta", item_id, output_index, delta });
          push({
            type: "response.function_call_arguments.done",
            item_id,
            output_index,
            arguments: text,
            name: item.name,
          });
          const done = { ...call, status: "completed", arguments: text };
          push({ type: "response.output_item.done", output_index, item: done });
          output.push(done);
        }
      });
      if (ending === "completed")
        push({ type: "response.completed", response: response("completed", output, { usage }) });
      else if (ending === "incomplete")
        push({
          type: "response.incomplete",
          response: response("incomplete", output, {
            usage,
            incomplete_details: { reason: "max_output_tokens" },
          }),
        });
      else if (ending === "error") {
        push({
          type: "error",
          error: { type: "server_error", code: "server_error", message: "Overloaded", param: null },
        });
        push({
          type: "response.failed",
          response: response("failed", output, { error: { code: "server_error", message: "Overloaded" } }),
        });
      }
      const stream: unknown[] = events;
      // OpenRouter ends its responses streams with `[DONE]` (recorded).
      if (done && ending !== "cut") stream.push("[DONE]");
      return stream;
    });

  // Leaning toward images or thinking: the conversation opens with an image and (thinking) an answer
  // whose reasoning item carries encrypted content, whatever else it holds.
  const opening =
    hard.images || hard.thinking
      ? fc
          .tuple(imagePartArb, reasoningItemArb, sayArb)
          .map(([image, reasoning, answer]) => [
            ...(hard.images
              ? [{ role: "user", content: [{ type: "input_text", text: "Look." }, image] }]
              : []),
            ...(hard.thinking ? [reasoning, { role: "assistant", content: answer }] : []),
          ])
      : undefined;
  const request =
    opening === undefined
      ? responsesRequestArb
      : fc.tuple(responsesRequestArb, opening).map(([body, first]) => ({
          ...body,
          input: [
            ...first,
            ...(typeof body.input === "string"
              ? [{ role: "user", content: body.input }]
              : (body.input as unknown[])),
          ],
        }));
  return {
    request,
    response: responsesResponseArb,
    replayable: responsesReplayableResponseArb,
    errorBody: responsesErrorBodyArb,
    stream: responsesStreamArb,
  };
}

type Built = ReturnType<typeof build>;
const builds = new Map<string, Built>();
/** The arbitraries under `hard`, built once per bias. */
function built(hard: Hard): Built {
  const key = JSON.stringify(hard);
  let found = builds.get(key);
  if (found === undefined) {
    found = build(hard);
    builds.set(key, found);
  }
  return found;
}
const plain = (pick: (arbs: Built) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  lazy(() => pick(built(resolveBias(undefined))));
const plainList = (pick: (arbs: Built) => fc.Arbitrary<unknown[]>): fc.Arbitrary<unknown[]> =>
  lazy(() => pick(built(resolveBias(undefined))));

const obj = (value: unknown): Json => (isRecord(value) ? value : {});
const num = (value: unknown): number => (typeof value === "number" ? value : 0);
const failed = (events: unknown[]) => events.some((event) => obj(event).type === "error");

/** The response reached `response.completed` or `response.incomplete` before an error event. */
function responsesFinished(events: readonly unknown[]): boolean {
  for (const event of events) {
    const type = obj(event).type;
    if (type === "error" || type === "response.failed") return false;
    if (type === "response.completed" || type === "response.incomplete") return true;
  }
  return false;
}

/** The most function calls one `input` or `output` list holds. */
const mostCalls = (value: unknown): number => {
  let most = 0;
  someNode(value, (node, key) => {
    if ((key === "input" || key === "output") && Array.isArray(node))
      most = Math.max(most, node.filter((item) => obj(item).type === "function_call").length);
    return false;
  });
  return most;
};
const encryptedReasoning = (value: unknown) =>
  someNode(
    value,
    (node) => obj(node).type === "reasoning" && typeof obj(node).encrypted_content === "string",
  );
const inputImage = (value: unknown) => someNode(value, (node) => obj(node).type === "input_image");

function usageOf(body: unknown): UsageTotals | undefined {
  const usage = obj(body).usage;
  if (usage == null) return undefined;
  const figures = obj(usage);
  return {
    input: num(figures.input_tokens),
    output: num(figures.output_tokens),
    total: num(figures.total_tokens),
    fields: {
      input: ["/usage/input_tokens"],
      output: ["/usage/output_tokens"],
      total: "/usage/total_tokens",
    },
  };
}

const givenValuesArb = givenKeysArb(["temperature", "top_p"] as const).map((keys) => ({
  body: { model: "m", input: "x", ...Object.fromEntries(keys.map((key) => [key, 0])) },
  given: keys.map((key) => `/${key}`),
}));

const reach = {
  request: [
    { name: "parallel function calls", bias: "tools", holds: (body: unknown) => mostCalls(body) >= 2 },
    { name: "an input image", bias: "images", holds: inputImage },
    { name: "reasoning with encrypted content", bias: "thinking", holds: encryptedReasoning },
    givenFact("an explicit temperature: 0", "temperature", 0),
    ...textFacts(false),
  ],
  response: [
    { name: "a function call", holds: (body: unknown) => mostCalls(body) >= 1 },
    { name: "reasoning with encrypted content", holds: encryptedReasoning },
    { name: "an incomplete answer", holds: (body: unknown) => obj(body).status === "incomplete" },
    ...textFacts(false),
  ],
  stream: [
    {
      name: "a function call",
      holds: (events: unknown) => someNode(events, (node) => obj(node).type === "function_call"),
    },
    {
      name: "a stream cut off before its finish",
      holds: (events: unknown) => Array.isArray(events) && !responsesFinished(events),
    },
  ],
  errorBody: [
    { name: "a rate limit", holds: (body: unknown) => obj(obj(body).error).type === "rate_limit_error" },
    { name: "a null code", holds: (body: unknown) => obj(obj(body).error).code === null },
  ],
} as const;

export const responsesArbitraries: ProtocolArbitraries = {
  reach,
  request: (hard) =>
    leaning(
      hard,
      plain((arbs) => arbs.request),
      built(hard).request,
    ),
  response: (hard) =>
    leaning(
      hard,
      plain((arbs) => arbs.response),
      built(hard).response,
    ),
  replayableResponse: (hard) =>
    leaning(
      hard,
      plain((arbs) => arbs.replayable),
      built(hard).replayable,
    ),
  stream: (hard) =>
    leaning(
      hard,
      plainList((arbs) => arbs.stream.filter((events) => !failed(events))),
      built(hard).stream.filter((events) => !failed(events)),
    ),
  rawStream: () => plainList((arbs) => arbs.stream),
  errorBody: () => plain((arbs) => arbs.errorBody),
  givenValues: () => givenValuesArb,
  finished: responsesFinished,
  texts: (event) =>
    obj(event).type === "response.output_text.delta" && typeof obj(event).delta === "string"
      ? [String(obj(event).delta)]
      : [],
  usage: usageOf,
  grammar: responsesGrammar,
};
