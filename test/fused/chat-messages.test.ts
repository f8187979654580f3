/**
 * The fused chat → messages request path against the hub, its specification: on every body — the
 * toolkit's chat request arbitraries (plain, biased and the hard list), a generator of the plain text
 * shape with the edge values that must send it back to the hub (blank, whitespace-edged and
 * out-of-range values, nulls, extra fields, repeated roles), a generator of the shapes with tools,
 * tool calls and results, images and names (./chat-shapes.ts), the bench's requests and every chat
 * request fixture — under several option sets, `translateRequest` gives the same value (same bytes),
 * losses, model and stream as the hub path, or throws the same error.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { conversationRequest, largeRequest, shortRequest } from "../../bench/generate";
import type { TranslateOptions } from "../../src/common/options";
import { resolveOptions } from "../../src/common/options";
import { chatToMessagesRequest } from "../../src/fused/chat-messages";
import { translateRequest } from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { fixtures, readJsonFixture } from "../helpers/fixtures";
import { plainChatRequest } from "./chat-shapes";
import { differential } from "./oracle";

const optionSets: readonly TranslateOptions[] = [{}, { maxTokens: 512 }, { validate: false }];

const { agrees, taken } = differential("request", "chat", "messages", chatToMessagesRequest, optionSets);

const text = fc.oneof(
  { weight: 12, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "hi ", " hi", "\t\n") },
);
const plainMessage = (role: string) =>
  fc.oneof(
    { weight: 24, arbitrary: text.map((content) => ({ role, content })) },
    { weight: 1, arbitrary: text.map((content) => ({ content, role })) },
    { weight: 1, arbitrary: text.map((content) => ({ role, content, name: "n" })) },
    { weight: 1, arbitrary: text.map((content) => ({ role, content: [{ type: "text", text: content }] })) },
  );
/** A sampling value: mostly within 0–1, now and then past it (the hub clamps: a loss). */
const number = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0, 0.25, 0.5, 0.7, 1) },
  { weight: 1, arbitrary: fc.constantFrom(1.5, 2, -1, 16, 1024) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, min: -4, max: 4 }) },
);
/** The shape the fused path takes, with values at and past its edges. */
const plainRequest = fc
  .record(
    {
      model: fc.constantFrom("gpt-4o-mini", "m"),
      system: fc.array(plainMessage("system"), { maxLength: 2 }),
      turns: fc.integer({ min: 0, max: 6 }),
      roles: fc.array(fc.constantFrom("user", "assistant", "system", "developer", "tool"), {
        minLength: 6,
        maxLength: 6,
      }),
      contents: fc.array(text, { minLength: 6, maxLength: 6 }),
      temperature: number,
      top_p: number,
      max_tokens: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(1, 256, 4096) },
        { weight: 1, arbitrary: fc.constantFrom(0, 1.5, -3) },
      ),
      stop: fc.oneof(text, fc.array(text, { maxLength: 3 })),
      stream: fc.boolean(),
      extra: fc.constantFrom(
        { seed: 1 },
        { logit_bias: { a: 1 } },
        { n: null },
        { user: "u" },
        { tools: [] },
        { max_completion_tokens: 64 },
        { unknown_field: true },
      ),
    },
    { requiredKeys: ["model", "system", "turns", "roles", "contents"] },
  )
  .chain((drawn) => {
    const conversation = Array.from({ length: drawn.turns }, (_, at) => ({
      role: at % 2 === 0 ? "user" : "assistant",
      content: drawn.contents[at] as string,
    }));
    return fc
      .record({
        regular: fc.oneof(
          { weight: 4, arbitrary: fc.constant(true) },
          { weight: 1, arbitrary: fc.constant(false) },
        ),
        withNull: fc.oneof(
          { weight: 8, arbitrary: fc.constant(false) },
          { weight: 1, arbitrary: fc.constant(true) },
        ),
        withExtra: fc.oneof(
          { weight: 8, arbitrary: fc.constant(false) },
          { weight: 1, arbitrary: fc.constant(true) },
        ),
      })
      .map(({ regular, withNull, withExtra }) => {
        const messages = [
          ...drawn.system,
          ...(regular
            ? conversation
            : conversation.map((message, at) => ({ ...message, role: drawn.roles[at] as string }))),
        ];
        const body: Record<string, unknown> = { model: drawn.model, messages };
        for (const key of ["temperature", "top_p", "max_tokens", "stop", "stream"])
          if (key in drawn) body[key] = (drawn as Record<string, unknown>)[key];
        if (withNull) body.temperature = null;
        if (withExtra && drawn.extra !== undefined) Object.assign(body, drawn.extra);
        return body;
      });
  });

const numRuns = 10_000;
// 10,000 runs under every option set: minutes on a loaded shared machine, past vitest's 60 s default.
const heavy = 600_000;

describe("fused chat → messages requests match the hub", () => {
  test("on every chat request fixture and the bench's requests, which the fused path takes", () => {
    const bodies = fixtures("request", "chat").map(readJsonFixture);
    expect(bodies.length).toBeGreaterThan(0);
    const before = taken();
    for (const body of bodies) agrees(body);
    expect(taken() - before).toBeGreaterThan(0);
    // The bench's bodies: a short request, a 20-turn conversation with tools, parallel tool calls and an
    // image, and a 200 KB one of the same shape.
    for (const body of [shortRequest("chat"), conversationRequest("chat"), largeRequest("chat")]) {
      agrees(body);
      expect(chatToMessagesRequest(body, resolveOptions({}))).toBeDefined();
    }
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

  test(
    "on the shapes with tools, calls, results and images, edges included, and the fused path takes a good share of them",
    () => {
      const before = taken();
      fc.assert(fc.property(plainChatRequest, agrees), { numRuns });
      // Measured at 37% of the evaluations (numRuns under each option set).
      expect(taken() - before).toBeGreaterThan(numRuns * optionSets.length * 0.3);
    },
    heavy,
  );

  test("a plain request takes the fused path and reports the synthesized max_tokens as the hub does", () => {
    const body = {
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      temperature: 0.5,
      stop: "END",
    };
    expect(chatToMessagesRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("chat", "messages", body);
    expect(result.value).toEqual({
      model: "m",
      max_tokens: 4096,
      system: "Be brief.",
      messages: [{ role: "user", content: "Hi" }],
      temperature: 0.5,
      stop_sequences: ["END"],
      stream: false,
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([["/max_tokens", "synthesized"]]);
  });

  test("a request with tools, calls and results merges turns, orders results and reports as the hub does", () => {
    const body = {
      model: "m",
      messages: [
        { role: "system", content: "Be brief.", name: "ops" },
        {
          role: "user",
          content: [
            { type: "text", text: "Weather here?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBO", detail: "low" } },
          ],
          name: "ann",
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            { id: "c2", type: "function", function: { name: "get_weather", arguments: "oops" } },
          ],
        },
        { role: "tool", tool_call_id: "c2", content: "rain" },
        { role: "tool", tool_call_id: "c1", content: "sun" },
        { role: "user", content: "And tomorrow?" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            parameters: { properties: { city: { type: "string" } } },
            strict: true,
          },
        },
      ],
      tool_choice: "required",
      parallel_tool_calls: false,
      max_tokens: 100,
    };
    expect(chatToMessagesRequest(body, resolveOptions({}))).toBeDefined();
    const result = translateRequest("chat", "messages", body);
    expect(result.value).toEqual({
      model: "m",
      max_tokens: 100,
      system: "Be brief.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Weather here?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "c1", name: "get_weather", input: { city: "Paris" } },
            { type: "tool_use", id: "c2", name: "get_weather", input: { _raw: "oops" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c1", content: "sun" },
            { type: "tool_result", tool_use_id: "c2", content: "rain" },
            { type: "text", text: "And tomorrow?" },
          ],
        },
      ],
      tools: [
        {
          name: "get_weather",
          input_schema: { type: "object", properties: { city: { type: "string" } } },
        },
      ],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
      stream: false,
    });
    expect(result.losses.map((entry) => [entry.path, entry.kind])).toEqual([
      ["/messages/0/name", "dropped"],
      ["/messages/1/name", "dropped"],
      ["/messages/1/content/1", "dropped"],
      ["/messages/2/tool_calls/1/function/arguments", "approximated"],
      ["/tools/0/function/strict", "dropped"],
    ]);
  });

  test("a user message between tool results joins their turn after them (a shrunk counterexample, pinned)", () => {
    // Found by the shape generator with the reordering of results planted out of messages-target.ts.
    const body = {
      model: "gpt-4o-mini",
      messages: [
        { role: "user", content: "!" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "get_weather", arguments: '{"city":"Paris"}' },
            },
            {
              id: "call_3",
              type: "function",
              function: { name: "get_weather", arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: " " },
        { role: "user", content: "and?" },
        { role: "tool", tool_call_id: "call_3", content: " " },
        { role: "assistant", content: "!" },
        { role: "user", content: "!" },
        { role: "assistant", content: "!" },
      ],
    };
    expect(chatToMessagesRequest(body, resolveOptions({}))).toBeDefined();
    agrees(body);
  });
});
