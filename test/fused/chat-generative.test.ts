/**
 * The fused chat → generative request path against the hub, its specification: on every body — the
 * toolkit's chat request arbitraries (plain and biased), a generator of the shape the fused path takes
 * (system and developer messages anywhere, user and assistant text turns, repeated roles, the
 * sampling fields) with the edge values that send it back to the hub or make it report a loss (empty
 * texts, nulls, extra fields, names, values out of generative's ranges, more than five stop
 * sequences), the bench's requests and every chat request fixture — under several option sets,
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
const message = fc.oneof(
  { weight: 8, arbitrary: fc.record({ role: fc.constantFrom("user", "assistant"), content }) },
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
      messages: fc.array(message, { maxLength: 7 }),
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
        // Both budget fields is the hub's case (it reports one ignored); mostly one or none.
        if (!both) delete out[first.content.length % 2 === 0 ? "max_tokens" : "max_completion_tokens"];
        if (rare === 1) out.temperature = null;
        if (rare === 2) out.logit_bias = { a: 1 };
        if (rare === 3) out.tools = [];
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
    for (const body of [shortRequest("chat"), conversationRequest("chat"), largeRequest("chat")])
      agrees(body);
    expect(chatToGenerativeRequest(shortRequest("chat"), resolveOptions({}))).toBeDefined();
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
      fc.assert(fc.property(plainRequest, agrees), { numRuns });
      // Without this, a fused path that always declined would pass the comparison trivially.
      expect(taken() - before).toBeGreaterThan(numRuns / 5);
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
});
