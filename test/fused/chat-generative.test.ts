/**
 * The fused chat → generative request path against the hub, its specification: on every body — the
 * toolkit's chat request arbitraries (plain and biased), a generator of the shapes the fused path takes
 * (system and developer messages anywhere, user turns of text and images, assistant turns of text and
 * tool calls, tool messages answering them, repeated roles, function tools, `tool_choice`, the sampling
 * fields) with the edge values that send it back to the hub or make it report a loss (empty texts,
 * nulls, extra fields, names, image details and types, arguments that are no JSON object, calls and
 * results that do not pair up or come out of order, strict tools, values out of generative's ranges,
 * more than five stop sequences), the bench's requests and every chat request fixture — under several
 * option sets,
 * `translateRequest` gives the same value (same bytes), losses, model and stream as the hub path, or
 * throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { conversationRequest, largeRequest, shortRequest } from "../../bench/generate";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { chatToGenerativeRequest } from "../../src/fused/chat-generative";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";

const optionSets: readonly TranslateOptions[] = [
  {},
  { validate: false },
  { strict: true },
  { model: "gemini-3-pro" },
];

const { agrees, taken } = differential("request", "chat", "generative", chatToGenerativeRequest, optionSets);

const text = fc.oneof(
  { weight: 10, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "a/b~c") },
);
const textPart = fc.oneof(
  { weight: 20, arbitrary: text.map((value) => ({ type: "text", text: value })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { type: "text", text: "x", cache_control: { type: "ephemeral" } },
      { type: "text", text: "x", extra: 1 },
      { type: "image_url", image_url: { url: "https://x.test/a.png" } },
      { type: "refusal", refusal: "no" },
    ),
  },
);
const content = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 1, arbitrary: fc.array(textPart, { maxLength: 3 }) },
);
const imagePart = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          type: fc.constant("image_url"),
          image_url: fc.record(
            {
              url: fc.constantFrom("data:image/png;base64,iVBORw0K", "data:image/jpeg;base64,/9j/4AAQ"),
              detail: fc.constantFrom("auto", "low", "high"),
            },
            { requiredKeys: ["url"] },
          ),
        },
        { requiredKeys: ["type", "image_url"] },
      )
      .map((part) => part as Record<string, unknown>),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { type: "image_url", image_url: { url: "data:image/gif;base64,R0lGOD" } },
      { type: "image_url", image_url: { url: "data:image/png,abc" } },
      { type: "image_url", image_url: { url: "data:image/png;base64,AAAA", extra: 1 } },
      {
        type: "image_url",
        image_url: { url: "data:image/png;base64,AAAA" },
        cache_control: { type: "ephemeral" },
      },
    ),
  },
);
const userContent = fc.oneof(
  { weight: 2, arbitrary: text },
  {
    weight: 3,
    arbitrary: fc.array(fc.oneof({ weight: 2, arbitrary: textPart }, { weight: 1, arbitrary: imagePart }), {
      maxLength: 3,
    }),
  },
);
const toolNames = ["get_weather", "search_docs", "run_sql"] as const;
const callIds = ["call_a", "call_b", "call_c", "call_d"] as const;
const callArguments = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('{"city":"Paris"}', '{"q":"x","n":[1,2]}', "{}") },
  { weight: 1, arbitrary: fc.constantFrom("", "  ", "not json", "[1]", '{"a":', "null") },
);
const call = fc.record({
  id: fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...callIds) },
    { weight: 1, arbitrary: fc.constant("") },
  ),
  name: fc.constantFrom(...toolNames),
  arguments: callArguments,
  odd: fc.oneof({ weight: 20, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(1, 2) }),
});
/**
 * One exchange with calls: an assistant message of calls (text beside them now and then), then a tool
 * message for each — mostly each once, in order; now and then shuffled, one missing, one doubled, one
 * for an unknown id, or a user message between the calls and their results.
 */
const exchange = fc
  .record({
    calls: fc.array(call, { minLength: 1, maxLength: 3 }),
    content: fc.constantFrom<unknown>(null, undefined, "", "Let me check.", [{ type: "text", text: "ok" }]),
    results: fc.oneof(
      { weight: 12, arbitrary: fc.constant("in-order") },
      {
        weight: 1,
        arbitrary: fc.constantFrom("reversed", "missing", "doubled", "unknown", "user-first", "parts"),
      },
    ),
    answer: fc.option(text, { nil: undefined }),
  })
  .map(({ calls, content, results, answer }) => {
    const toolCalls = calls.map(({ id, name, arguments: args, odd }) => {
      const fn: Record<string, unknown> = { name, arguments: args };
      if (odd === 2) fn.extra = 1;
      const entry: Record<string, unknown> = { id, type: "function", function: fn };
      if (odd === 1) entry.index = 0;
      return entry;
    });
    const assistant: Record<string, unknown> = { role: "assistant", tool_calls: toolCalls };
    if (content !== undefined) assistant.content = content;
    let answered = calls.map((entry) => entry.id as string);
    if (results === "reversed") answered = [...answered].reverse();
    if (results === "missing") answered = answered.slice(1);
    if (results === "doubled") answered = [...answered, answered[0] as string];
    if (results === "unknown") answered = [...answered, "call_zzz"];
    const tools: Record<string, unknown>[] = answered.map((id, index) => ({
      role: "tool",
      tool_call_id: id,
      content:
        results === "parts"
          ? [
              { type: "text", text: `r${index}` },
              { type: "text", text: "more" },
            ]
          : JSON.stringify({ ok: true, index }),
    }));
    const out: Record<string, unknown>[] = [assistant];
    if (results === "user-first") out.push({ role: "user", content: "wait" });
    out.push(...tools);
    if (answer !== undefined) out.push({ role: "assistant", content: answer });
    return out;
  });
const functionTool = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .record(
        {
          name: fc.constantFrom(...toolNames),
          description: fc.constantFrom("Looks things up.", ""),
          parameters: fc.constantFrom<Record<string, unknown>>(
            { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
            { type: "object", properties: {} },
            { type: "object" },
            {
              type: "object",
              properties: {
                unit: { type: "string", enum: ["c", "f"] },
                days: { type: "integer", minimum: 1 },
              },
            },
            { type: "object", properties: { a: { type: ["string", "null"] } }, additionalProperties: false },
            {
              $ref: "#/$defs/x",
              $defs: { x: { type: "object", properties: { next: { $ref: "#/$defs/x" } } } },
            },
          ),
          strict: fc.boolean(),
        },
        { requiredKeys: ["name"] },
      )
      .map((fn) => ({ type: "function", function: fn }) as Record<string, unknown>),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { type: "function", function: { name: "f", parameters: null } },
      { type: "function", function: { name: "f" }, extra: 1 },
      { type: "custom", custom: { name: "c" } },
    ),
  },
);
const toolChoice = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.constantFrom<unknown>("auto", "none", "required", {
      type: "function",
      function: { name: "run_sql" },
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [] } },
      { type: "function", function: { name: "run_sql", extra: 1 } },
    ),
  },
);

const message = fc.oneof(
  { weight: 8, arbitrary: fc.record({ role: fc.constantFrom("user", "assistant"), content }) },
  { weight: 3, arbitrary: fc.record({ role: fc.constant("user"), content: userContent }) },
  { weight: 2, arbitrary: fc.record({ role: fc.constantFrom("system", "developer"), content }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { role: "user", content: "hi", name: "n" },
      { content: "hi", role: "user" },
      { role: "assistant", content: null },
      { role: "assistant", content: "x", reasoning_content: "think" },
      { role: "tool", tool_call_id: "c", content: "r" },
      { role: "system", content: "s", name: "n" },
    ),
  },
);
/** A sampling value: mostly within range, now and then past generative's (a clamp). */
const number = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0, 0.25, 0.5, 0.7, 1) },
  { weight: 1, arbitrary: fc.constantFrom(1.5, 2, 2.5, -1, 16) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -4, max: 4 }) },
);
const plainRequest = fc
  .record(
    {
      model: fc.constantFrom("gpt-4o-mini", "gemini-3-flash"),
      messages: fc
        .array(
          fc.oneof(
            { weight: 3, arbitrary: message.map((entry) => [entry]) },
            { weight: 1, arbitrary: exchange },
          ),
          { maxLength: 6 },
        )
        .map((chunks) => chunks.flat()),
      tools: fc.array(functionTool, { maxLength: 3 }),
      tool_choice: toolChoice,
      temperature: number,
      top_p: number,
      top_k: fc.constantFrom(0, 40),
      max_tokens: fc.constantFrom(1, 256),
      max_completion_tokens: fc.constantFrom(1, 4096),
      stop: fc.oneof(text, fc.array(text, { maxLength: 7 })),
      stream: fc.boolean(),
      n: fc.constantFrom(1, 2),
      presence_penalty: number,
      frequency_penalty: number,
      seed: fc.constantFrom(0, 42),
      user: fc.constantFrom("u", ""),
      parallel_tool_calls: fc.boolean(),
    },
    { requiredKeys: ["model", "messages"] },
  )
  .chain((drawn) =>
    fc
      .record({
        first: fc.record({ role: fc.constantFrom("user", "assistant", "system"), content: text }),
        rare: fc.oneof(
          { weight: 12, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.constantFrom(1, 2, 3) },
        ),
        both: fc.oneof(
          { weight: 6, arbitrary: fc.constant(false) },
          { weight: 1, arbitrary: fc.constant(true) },
        ),
      })
      .map(({ first, rare, both }) => {
        const out: Record<string, unknown> = { ...drawn, messages: [first, ...drawn.messages] };
        // The tools are a list of distinct names, as a client sends them.
        if (Array.isArray(drawn.tools)) {
          const seen = new Set<unknown>();
          out.tools = drawn.tools.filter((tool) => {
            const name = (tool.function as { name?: unknown } | undefined)?.name;
            if (seen.has(name)) return false;
            seen.add(name);
            return true;
          });
        }
        // Both budget fields is the hub's case (it reports one ignored); mostly one or none.
        if (!both) delete out[first.content.length % 2 === 0 ? "max_tokens" : "max_completion_tokens"];
        if (rare === 1) out.temperature = null;
        if (rare === 2) out.logit_bias = { a: 1 };
        if (rare === 3) out.functions = [];
        return out;
      }),
  );

const numRuns = 10_000;
/** 10,000 runs under several option sets take most of a minute on a busy machine: not vitest's default 60 s. */
const heavy = 600_000;

describe("fused chat → generative requests match the hub", () => {
  test("on every chat request fixture and the bench's requests", () => {
    const bodies = fixtures("request", "chat").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    const before = taken();
    for (const body of bodies) agrees(body);
    const bench = [shortRequest("chat"), conversationRequest("chat"), largeRequest("chat")];
    for (const body of bench) {
      agrees(body);
      // The bench's bodies (tools, parallel calls and their results, an image) all take the fused path.
      expect(chatToGenerativeRequest(body, resolveOptions({}))).toBeDefined();
    }
    expect(taken() - before).toBeGreaterThan(0);
  });

  test(
    "on the toolkit's chat requests, plain and biased",
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            arbitraries.request("chat"),
            arbitraries.request("chat", true),
            arbitraries.request("chat", ["unicode", "empty", "zeros"]),
          ),
          agrees,
        ),
        { numRuns },
      );
    },
    heavy,
  );

  test(
    "on the plain shape, edges included, and the fused path takes a good share of it",
    () => {
      const before = taken();
      // What the fused path itself took, by kind: calls, their results and images must be among it.
      let calls = 0;
      let results = 0;
      let images = 0;
      const options = resolveOptions({ validate: false });
      fc.assert(
        fc.property(plainRequest, (body) => {
          agrees(body);
          const fused = chatToGenerativeRequest(body, options);
          if (fused === undefined) return;
          const parts = fused.value.contents.flatMap((turn) => turn.parts ?? []);
          if (parts.some((part) => part.functionCall !== undefined)) calls++;
          if (parts.some((part) => part.functionResponse !== undefined)) results++;
          if (parts.some((part) => part.inlineData !== undefined)) images++;
        }),
        { numRuns },
      );
      // Without this, a fused path that always declined would pass the comparison trivially.
      expect(taken() - before).toBeGreaterThan(numRuns / 5);
      expect(calls).toBeGreaterThan(numRuns / 40);
      expect(results).toBeGreaterThan(numRuns / 40);
      expect(images).toBeGreaterThan(numRuns / 100);
    },
    heavy,
  );

  test("a plain request takes the fused path, merges turns and reports as the hub does", () => {
    const body = {
      model: "m",
      messages: [
        { role: "assistant", content: "Hello." },
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
        { role: "user", content: [{ type: "text", text: "there" }] },
      ],
      temperature: 3,
      stop: "END",
      user: "u1",
    };
    expect(chatToGenerativeRequest(body, resolveOptions({}))).toBeDefined();
    // temperature 3 is past chat's own schema (0–2): unvalidated, as a gateway trusting its input sends it.
    const result = translateRequest("chat", "generative", body, { validate: false });
    expect(result.value).toEqual({
      contents: [
        { role: "user", parts: [{ text: "." }] },
        { role: "model", parts: [{ text: "Hello." }] },
        { role: "user", parts: [{ text: "Hi" }, { text: "there" }] },
      ],
      systemInstruction: { parts: [{ text: "Be brief." }] },
      generationConfig: { temperature: 2, stopSequences: ["END"] },
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/messages/1", "approximated"],
      ["/messages/0", "synthesized"],
      ["/user", "dropped"],
      ["/temperature", "clamped"],
    ]);
  });

  test("tool calls, their results, an image and tools take the fused path as the hub builds them", () => {
    const body = {
      model: "m",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Weather?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0K", detail: "low" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
            { id: "c2", type: "function", function: { name: "run_sql", arguments: "select 1" } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: '{"ok":true}' },
        {
          role: "tool",
          tool_call_id: "c2",
          content: [
            { type: "text", text: "a" },
            { type: "text", text: "b" },
          ],
        },
        { role: "assistant", content: "Cold." },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather.",
            parameters: { type: "object", properties: { city: { type: "string" } } },
            strict: true,
          },
        },
        { type: "function", function: { name: "run_sql", parameters: { type: "object", properties: {} } } },
      ],
      tool_choice: { type: "function", function: { name: "get_weather" } },
    };
    expect(chatToGenerativeRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("chat", "generative", body);
    expect(result.value).toEqual({
      contents: [
        {
          role: "user",
          parts: [{ text: "Weather?" }, { inlineData: { mimeType: "image/png", data: "iVBORw0K" } }],
        },
        {
          role: "model",
          parts: [
            { functionCall: { id: "c1", name: "get_weather", args: { city: "Oslo" } } },
            { functionCall: { id: "c2", name: "run_sql", args: { _raw: "select 1" } } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { id: "c1", name: "get_weather", response: { content: '{"ok":true}' } } },
            { functionResponse: { id: "c2", name: "run_sql", response: { content: "a\nb" } } },
          ],
        },
        { role: "model", parts: [{ text: "Cold." }] },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: "get_weather",
              description: "Weather.",
              parameters: { type: "object", properties: { city: { type: "string" } } },
            },
            { name: "run_sql" },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/messages/0/content/1", "dropped"],
      ["/messages/1/tool_calls/1/function/arguments", "approximated"],
      ["/tools/0/function/strict", "dropped"],
    ]);
  });

  test("a user message between calls and their results is the hub's, which sorts the results first", () => {
    // Found by the shape generator when the order check was left out (a planted bug).
    const body = {
      model: "gpt-4o-mini",
      messages: [
        { role: "user", content: " " },
        {
          role: "assistant",
          tool_calls: [
            {
              id: "call_a",
              type: "function",
              function: { name: "get_weather", arguments: '{"city":"Paris"}' },
            },
          ],
          content: null,
        },
        { role: "user", content: "wait" },
        { role: "tool", tool_call_id: "call_a", content: '{"ok":true,"index":0}' },
      ],
    };
    expect(chatToGenerativeRequest(body, resolveOptions({}))).toBeUndefined();
    agrees(body);
    const parts = translateRequest("chat", "generative", body).value.contents[2]?.parts;
    expect(parts?.map((part) => Object.keys(part)[0])).toEqual(["functionResponse", "text"]);
  });
});
