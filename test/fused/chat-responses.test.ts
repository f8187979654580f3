/**
 * The fused chat → responses request path against the hub, its specification: on every body — the
 * toolkit's chat request arbitraries (plain, biased and the hard list), a generator of the plain shape
 * the fused path takes with the edge values that must send it back to the hub or that the hub reports
 * (late system messages, blank text, out-of-range values, nulls, extra fields, other roles and content
 * parts), the bench's requests and every chat request fixture — under several option sets,
 * `translateRequest` gives the same value (same bytes), losses, model and stream as the hub path, or
 * throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { conversationRequest, largeRequest, shortRequest } from "../../bench/generate";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { chatToResponsesRequest } from "../../src/fused/chat-responses";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { differential } from "./oracle";

const optionSets: readonly TranslateOptions[] = [
  {},
  { maxTokens: 512 },
  { validate: false },
  { chatDialect: "deepseek", model: "fallback" },
  { strict: true },
];

const { agrees, taken } = differential("request", "chat", "responses", chatToResponsesRequest, optionSets);

const text = fc.oneof(
  { weight: 12, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "hi ", " hi", "\t\n") },
);
/** A message of `role`: mostly plain, rarely in the other key order, named, or of content parts. */
const message = (role: string) =>
  fc.oneof(
    { weight: 24, arbitrary: text.map((content) => ({ role, content })) },
    { weight: 1, arbitrary: text.map((content) => ({ content, role })) },
    { weight: 1, arbitrary: text.map((content) => ({ role, content, name: "n" })) },
    { weight: 1, arbitrary: text.map((content) => ({ role, content: [{ type: "text", text: content }] })) },
    { weight: 1, arbitrary: fc.constant({ role, content: null }) },
  );
/** A sampling value: mostly within range, now and then past it (the hub clamps: a loss). */
const number = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0, 0.25, 0.5, 0.7, 1, 1.5, 2) },
  { weight: 1, arbitrary: fc.constantFrom(2.5, -1, 16, 1024, -0) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -4, max: 4 }) },
);
/** The shape the fused path takes, with values at and past its edges. */
const plainRequest = fc
  .record(
    {
      model: fc.constantFrom("gpt-4o-mini", "m"),
      system: fc.array(fc.oneof(message("system"), message("developer")), { maxLength: 3 }),
      messages: fc.array(
        fc.oneof(
          { weight: 8, arbitrary: message("user") },
          { weight: 8, arbitrary: message("assistant") },
          { weight: 1, arbitrary: message("system") },
          { weight: 1, arbitrary: message("developer") },
          { weight: 1, arbitrary: fc.constant({ role: "tool", content: "x", tool_call_id: "c" }) },
        ),
        { maxLength: 6 },
      ),
      temperature: number,
      top_p: number,
      max: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(16, 256, 4096) },
        { weight: 2, arbitrary: fc.constantFrom(0, 1, 15, 1.5, 20.5, -3) },
      ),
      maxKey: fc.constantFrom("max_tokens", "max_completion_tokens"),
      stop: fc.oneof(text, fc.array(text, { maxLength: 3 })),
      stream: fc.boolean(),
      extra: fc.constantFrom<Record<string, unknown>>(
        { seed: 1 },
        { n: null },
        { user: "u" },
        { tools: [] },
        { max_completion_tokens: 64, max_tokens: 32 },
        { stream_options: { include_usage: true } },
        { stream: "yes" },
        { unknown_field: true },
        { temperature: null },
        { messages: [] },
      ),
      withExtra: fc.oneof(
        { weight: 8, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    },
    { requiredKeys: ["model", "system", "messages", "maxKey", "withExtra", "extra"] },
  )
  .map((drawn) => {
    const body: Record<string, unknown> = {
      model: drawn.model,
      messages: [...drawn.system, ...drawn.messages],
    };
    for (const key of ["temperature", "top_p", "stop", "stream"] as const)
      if (drawn[key] !== undefined) body[key] = drawn[key];
    if (drawn.max !== undefined) body[drawn.maxKey] = drawn.max;
    if (drawn.withExtra) Object.assign(body, drawn.extra);
    return body;
  });

const numRuns = 10_000;
// 10,000 runs under every option set: minutes on a loaded shared machine, past vitest's 60 s default.
const heavy = 600_000;

describe("fused chat → responses requests match the hub", () => {
  test("on every chat request fixture and the bench's requests", () => {
    const bodies = fixtures("request", "chat").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) agrees(body);
    for (const body of [shortRequest("chat"), conversationRequest("chat"), largeRequest("chat")])
      agrees(body);
    // The short request (a system prompt, a user turn, the sampling fields) is the path's own shape.
    expect(chatToResponsesRequest(shortRequest("chat"), resolveOptions({}))).toBeDefined();
  });

  test(
    "on the toolkit's chat requests, plain, biased and the hard list",
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

  test("a plain request takes the fused path and reports the hub's losses in the hub's order", () => {
    const body = {
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "developer", content: "Use metric units." },
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello." },
        { role: "system", content: "Late." },
        { role: "user", content: "Boiling point?" },
      ],
      temperature: 2.5,
      max_tokens: 8,
      stop: ["\n\n"],
      stream: true,
    };
    expect(chatToResponsesRequest(body, resolveOptions({ validate: false }))).toBeDefined();
    const result = translateRequest("chat", "responses", body, { validate: false });
    expect(result.value).toEqual({
      model: "m",
      input: [
        { role: "system", content: "Be brief." },
        { role: "developer", content: "Use metric units." },
        { role: "system", content: "Late." },
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello." },
        { role: "user", content: "Boiling point?" },
      ],
      stream: true,
      max_output_tokens: 16,
      temperature: 2,
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/messages/4", "approximated"],
      ["/max_tokens", "clamped"],
      ["/temperature", "clamped"],
      ["/stop", "dropped"],
    ]);
    expect(result.stream).toBe(true);
  });
});

test("a run of system messages is one item of input_text parts, a developer message after it one of its own", () => {
  // Pinned from the plain-shape property: the hub groups runs of one role, not all system text.
  const body = {
    model: "m",
    messages: [
      { role: "system", content: "A" },
      { role: "system", content: " " },
      { role: "developer", content: "B" },
      { role: "user", content: "Hi" },
    ],
  };
  expect(chatToResponsesRequest(body, resolveOptions({}))).toBeDefined();
  agrees(body);
  expect(translateRequest("chat", "responses", body).value.input).toEqual([
    {
      role: "system",
      content: [
        { type: "input_text", text: "A" },
        { type: "input_text", text: " " },
      ],
    },
    { role: "developer", content: "B" },
    { role: "user", content: "Hi" },
  ]);
});
