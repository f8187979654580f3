/**
 * The fused stream paths against the hub, their specification: on every stream fixture of the pair's
 * source protocol and 10,000 runs of the toolkit's stream arbitraries (well-formed, biased, and any
 * event sequence the schema accepts), under several option sets, the event-level translator gives the
 * same output events (same bytes) for each push, the same losses (those `onLoss` heard too), the same
 * ending — by `end()`, or by `fail()` as a cut or unreadable body — and the same errors as the hub
 * alone; the fused path takes a good share of the events.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Loss } from "../../src/common/loss";
import type { Protocol } from "../../src/common/model";
import type { TranslateOptions } from "../../src/common/options";
import { fusedStreams, type Pair } from "../../src/fused/index";
import { type TranslatorCore, translatorCore } from "../../src/stream/translator";
import { arbitraries } from "../../src/testing/index";
import { fixtures, streamEvents } from "../helpers/fixtures";

const optionSets: readonly TranslateOptions[] = [{}, { validate: false }, { strict: true }, { model: "m" }];

/** Every step's outcome as bytes: each push's events (or its error), the ending, the losses heard and kept. */
function transcript(
  from: Protocol,
  to: Protocol,
  events: readonly unknown[],
  options: TranslateOptions,
  fused: boolean,
  ending: "end" | "cut" | "unreadable",
): string {
  const heard: Loss[] = [];
  const core: TranslatorCore = translatorCore(
    from,
    to,
    { ...options, onLoss: (entry) => heard.push(entry) },
    fused,
  );
  const steps: string[] = [];
  const run = (step: () => unknown): void => {
    try {
      steps.push(JSON.stringify(step()));
    } catch (error) {
      const e = error as Error & { status?: unknown };
      steps.push(`THROW ${e.name}: ${e.message} ${String(e.status)}`);
    }
  };
  for (const event of events) run(() => core.push(event));
  if (ending === "end") run(() => core.end());
  else if (ending === "cut") run(() => core.fail("the body was cut"));
  else run(() => core.fail("bad JSON", events.length, true));
  steps.push(JSON.stringify(core.losses), JSON.stringify(heard), String(core.ended()));
  return steps.join("\n");
}

let taken = 0;
let total = 0;

const pairs = Object.keys(fusedStreams) as Pair[];

// Each fused path counted: the events it was offered and those it took.
for (const pair of pairs) {
  const make = fusedStreams[pair];
  if (make === undefined) continue;
  fusedStreams[pair] = () => {
    const path = make();
    return {
      next(input) {
        total++;
        const hit = path.next(input);
        if (hit !== undefined) taken++;
        return hit;
      },
      saw: (input, result, unchanged) => path.saw(input, result, unchanged),
    };
  };
}

function agrees(from: Protocol, to: Protocol, events: readonly unknown[]): void {
  for (const options of optionSets)
    for (const ending of ["end", "cut", "unreadable"] as const)
      expect(transcript(from, to, events, options, true, ending)).toBe(
        transcript(from, to, events, options, false, ending),
      );
}

const numRuns = 10_000;

const chunk = (delta: object) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
});

/** A stream cut after three text deltas, by source protocol. */
const textRun: Partial<Record<Protocol, unknown[]>> = {
  chat: [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "a" }),
    chunk({ content: "b" }),
    chunk({ content: "c" }),
  ],
  messages: [
    {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "x",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "a" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "b" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "c" } },
  ],
};

/** A responses event with its sequence number. */
const responsesEvent = (sequence: number, event: object) => ({ ...event, sequence_number: sequence });
const responsesHead = [
  responsesEvent(0, {
    type: "response.created",
    response: {
      id: "resp_1",
      object: "response",
      created_at: 1,
      status: "in_progress",
      model: "m",
      output: [],
    },
  }),
];
const textDelta = (sequence: number, delta: string) =>
  responsesEvent(sequence, {
    type: "response.output_text.delta",
    item_id: "msg_1",
    output_index: 0,
    content_index: 0,
    delta,
    logprobs: [],
  });
textRun.responses = [
  ...responsesHead,
  responsesEvent(1, {
    type: "response.output_item.added",
    output_index: 0,
    item: { id: "msg_1", type: "message", status: "in_progress", role: "assistant", content: [] },
  }),
  responsesEvent(2, {
    type: "response.content_part.added",
    item_id: "msg_1",
    output_index: 0,
    content_index: 0,
    part: { type: "output_text", text: "", annotations: [] },
  }),
  textDelta(3, "a"),
  textDelta(4, "b"),
  textDelta(5, "c"),
];

/** A stream cut after four argument pieces of one tool call, by source protocol. */
const argumentsRun: Partial<Record<Protocol, unknown[]>> = {
  chat: [
    chunk({ role: "assistant", content: "" }),
    chunk({
      tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "" } }],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '":' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: "1" } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: "}" } }] }),
  ],
  messages: [
    (textRun.messages ?? [])[0],
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "toolu_1", name: "f", input: {} },
    },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"a' } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '":' } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "1" } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "}" } },
  ],
};

const argumentsDelta = (sequence: number, delta: string) =>
  responsesEvent(sequence, {
    type: "response.function_call_arguments.delta",
    item_id: "fc_1",
    output_index: 0,
    delta,
  });
argumentsRun.responses = [
  ...responsesHead,
  responsesEvent(1, {
    type: "response.output_item.added",
    output_index: 0,
    item: {
      id: "fc_1",
      type: "function_call",
      status: "in_progress",
      call_id: "call_1",
      name: "f",
      arguments: "",
    },
  }),
  argumentsDelta(2, '{"a'),
  argumentsDelta(3, '":'),
  argumentsDelta(4, "1"),
  argumentsDelta(5, "}"),
];

describe.each(pairs)("the fused stream path %s agrees with the hub", (pair) => {
  const [from, to] = pair.split(">") as [Protocol, Protocol];

  test("on every stream fixture, and takes a share of their deltas", () => {
    const before = taken;
    const entries = fixtures("stream", from).filter((entry) => entry.path.endsWith(".sse"));
    expect(entries.length).toBeGreaterThan(5);
    for (const entry of entries) agrees(from, to, streamEvents(entry));
    expect(taken - before).toBeGreaterThan(20);
  });

  test("on the toolkit's streams: well-formed, biased, and any sequence the schema accepts", () => {
    const before = taken;
    const totalBefore = total;
    fc.assert(
      fc.property(
        fc.oneof(
          arbitraries.streamEvents(from),
          arbitraries.streamEvents(from, true),
          arbitraries.anyStreamEvents(from),
        ),
        (events) => agrees(from, to, events),
      ),
      { numRuns },
    );
    // Arbitrary chunks rarely repeat a shape; the path must still take a good number of events.
    expect(taken - before).toBeGreaterThan(numRuns / 10);
    expect(total - totalBefore).toBeGreaterThan(taken - before);
    // 10,000 streams under every option set and ending: about a minute alone, more on a loaded machine.
  }, 600_000);

  test("a cut in the middle of a run of text deltas ends as the hub ends it", () => {
    const before = taken;
    agrees(from, to, textRun[from] ?? []);
    // The hub translates the first deltas (the first opens the block; the path remembers what the hub
    // made of the second), the path the third: once per option set and ending. messages → chat takes
    // the second too (its role chunk went out at message_start), but none in strict mode, which ends
    // at message_start (the stream carries no creation time for chat: a synthesized loss).
    const perEnding = pair === "messages>chat" ? 2 * (optionSets.length - 1) : optionSets.length;
    expect(taken - before).toBe(perEnding * 3);
  });

  test("a cut in the middle of a tool call's argument pieces ends as the hub ends it", () => {
    const before = taken;
    agrees(from, to, argumentsRun[from] ?? []);
    // The hub translates the first piece (the block was opened by the event before it), the path the
    // three after it: in each translation but messages' strict ones, which end at message_start.
    // Generative sends a call whole when its block ends: no piece is an event of its own to take. The
    // responses decoder takes an argument piece by its general path, which copies its state: the
    // paths from responses take text only.
    const translations = 3 * (from === "messages" ? optionSets.length - 1 : optionSets.length);
    expect(taken - before).toBe(to === "generative" || from === "responses" ? 0 : translations * 3);
  });
});

/** A chat chunk, as a mutable record (the next piece of a run, to be changed in one or two places). */
type Mutable = {
  choices: { index: number; delta: Record<string, unknown>; [key: string]: unknown }[];
  [key: string]: unknown;
};
const call0 = (chunk: Mutable): Record<string, unknown> =>
  ((chunk.choices[0]?.delta.tool_calls as Record<string, unknown>[] | undefined) ?? [])[0] ?? {};
const fn0 = (chunk: Mutable): Record<string, unknown> =>
  (call0(chunk).function as Record<string, unknown> | undefined) ?? {};
const choice0 = (chunk: Mutable) => chunk.choices[0] as Mutable["choices"][number];

/**
 * One-field changes of a chunk that continues a run of text or argument pieces: each gives a chunk the
 * fused path must not take, or must take exactly as the hub would.
 */
const changes: readonly ((chunk: Mutable) => void)[] = [
  (c) => (choice0(c).index = 1),
  (c) => delete choice0(c).logprobs,
  (c) => (choice0(c).logprobs = { content: [] }),
  (c) => (choice0(c).finish_reason = "stop"),
  (c) => (choice0(c).extra = 1),
  (c) => c.choices.push({ index: 1, delta: { content: "z" }, finish_reason: null }),
  (c) => (c.usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }),
  (c) => (c.error = { message: "boom" }),
  (c) => (choice0(c).delta.role = "assistant"),
  (c) => (choice0(c).delta.content = ""),
  (c) => (choice0(c).delta.content = "t"),
  (c) => (choice0(c).delta.refusal = "r"),
  (c) => (choice0(c).delta.reasoning = "why"),
  (c) => (choice0(c).delta.tool_calls = [{ index: 1, function: { arguments: "x" } }]),
  (c) => (call0(c).index = 1),
  (c) => delete call0(c).index,
  (c) => (call0(c).id = "call_1"),
  (c) => (call0(c).id = "call_2"),
  (c) => (call0(c).id = ""),
  (c) => (call0(c).type = "function"),
  (c) => (call0(c).extra_content = { google: { thought_signature: "s" } }),
  (c) => (call0(c).extra_content = null),
  // Fields of a call or its function the chat decoder does not read: the path takes the piece anyway.
  (c) => (call0(c).x_vendor = 1),
  (c) => (fn0(c).x_vendor = { k: 1 }),
  (c) => (fn0(c).name = "g"),
  (c) => (fn0(c).arguments = ""),
  (c) => (fn0(c).arguments = null),
  (c) => (fn0(c).arguments = 1),
  (c) => {
    const calls = choice0(c).delta.tool_calls as unknown[] | undefined;
    calls?.push({ index: 1, function: { arguments: "w" } });
  },
  (c) => {
    // The same fields in another order.
    const { index, ...rest } = choice0(c);
    c.choices[0] = { ...rest, index } as Mutable["choices"][number];
  },
];

test.each(pairs.filter((pair) => pair.startsWith("chat>")))(
  "%s: a chunk one or two fields away from a run of text, reasoning, refusal or argument pieces goes as the hub sends it",
  (pair) => {
    const to = pair.split(">")[1] as Protocol;
    const before = taken;
    const opening = chunk({ role: "assistant", content: "" });
    const run = (delta: (text: string) => object) => ({
      run: [opening, ...["a", "b", "c"].map((text) => chunk(delta(text)))],
      next: () => chunk(delta("d")),
    });
    const runs = [
      { run: textRun.chat ?? [], next: () => chunk({ content: "d" }) },
      run((text) => ({ content: null, reasoning_content: text })),
      run((text) => ({ reasoning: text })),
      run((text) => ({ refusal: text })),
      {
        run: argumentsRun.chat ?? [],
        next: () => chunk({ tool_calls: [{ index: 0, function: { arguments: "x" } }] }),
      },
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...runs),
        fc.subarray([...changes.keys()], { minLength: 1, maxLength: 2 }),
        ({ run, next }, picked) => {
          const changed = next() as Mutable;
          for (const at of picked) changes[at]?.(changed);
          // The piece after it: does the path take over again exactly when it may?
          agrees("chat", to, [...run, changed, next(), next()]);
        },
      ),
      { numRuns: 2_000 },
    );
    // Generative sends a call whole: of the argument runs, nothing is taken.
    expect(taken - before).toBeGreaterThan(to === "generative" ? 1_000 : 2_000);
  },
  600_000,
);

test.each(pairs.filter((pair) => pair.startsWith("messages>")))(
  "%s: an event of another kind, block or text after a run of text or thinking goes as the hub sends it",
  (pair) => {
    const to = pair.split(">")[1] as Protocol;
    const [start, textStart] = textRun.messages ?? [];
    const thinkingStart = {
      type: "content_block_start",
      index: 0,
      content_block: { type: "thinking", thinking: "", signature: "" },
    };
    const delta = (index: number, change: object) => ({ type: "content_block_delta", index, delta: change });
    const text = (value: string, index = 0) => delta(index, { type: "text_delta", text: value });
    const thought = (value: string, index = 0) => delta(index, { type: "thinking_delta", thinking: value });
    const odd = [
      text("d"),
      thought("d"),
      delta(0, { type: "input_json_delta", partial_json: "{}" }),
      text("d", 1),
      thought("d", 1),
      text(""),
      thought(""),
      delta(0, { type: "signature_delta", signature: "sig" }),
      delta(0, { type: "citations_delta", citation: { type: "char_location", cited_text: "c" } }),
      { type: "content_block_stop", index: 0 },
      { ...text("d"), extra: 1 },
      { type: "ping" },
    ];
    const before = taken;
    for (const [opening, piece] of [
      [textStart, text],
      [thinkingStart, thought],
    ] as const)
      for (const event of odd)
        agrees("messages", to, [
          start,
          opening,
          piece("a"),
          piece("b"),
          piece("c"),
          event,
          piece("e"),
          piece("f"),
        ]);
    expect(taken - before).toBeGreaterThan(0);
  },
);

test.each(pairs.filter((pair) => pair.startsWith("responses>")))(
  "%s: a text delta of another item or part, or an event of another kind, after a run of text goes as the hub sends it",
  (pair) => {
    const to = pair.split(">")[1] as Protocol;
    let sequence = 1;
    const next = (event: object) => responsesEvent(sequence++, event);
    const message = (output: number) =>
      next({
        type: "response.output_item.added",
        output_index: output,
        item: { id: `msg_${output}`, type: "message", status: "in_progress", role: "assistant", content: [] },
      });
    const part = (output: number, content: number) =>
      next({
        type: "response.content_part.added",
        item_id: `msg_${output}`,
        output_index: output,
        content_index: content,
        part: { type: "output_text", text: "", annotations: [] },
      });
    const text = (output: number, content: number, delta: unknown, extra: object = {}) =>
      next({
        type: "response.output_text.delta",
        item_id: `msg_${output}`,
        output_index: output,
        content_index: content,
        delta,
        logprobs: [],
        ...extra,
      });
    // Two items, the second with two parts, each part's text under way; then a run at item 1, part 0.
    const opening = () => {
      sequence = 1;
      return [
        ...responsesHead,
        message(0),
        part(0, 0),
        text(0, 0, "a"),
        message(1),
        part(1, 0),
        text(1, 0, "b"),
        part(1, 1),
        text(1, 1, "c"),
        text(1, 0, "d"),
        text(1, 0, "e"),
      ];
    };
    const odd: (() => object)[] = [
      () => text(1, 0, "f"),
      () => text(0, 0, "f"),
      () => text(1, 1, "f"),
      () => text(1, 2, "f"),
      () => text(2, 0, "f"),
      () => text(1, 0, ""),
      () => text(1, 0, "f", { obfuscation: "xyz" }),
      () => text(1, 0, "f", { logprobs: [{ token: "f", logprob: -0.1, bytes: [102], top_logprobs: [] }] }),
      () => text(1, 0, "f", { extra: 1 }),
      () =>
        next({
          type: "response.refusal.delta",
          item_id: "msg_1",
          output_index: 1,
          content_index: 0,
          delta: "f",
        }),
      () =>
        next({
          type: "response.output_text.done",
          item_id: "msg_1",
          output_index: 1,
          content_index: 0,
          text: "bdef",
        }),
    ];
    const before = taken;
    for (const event of odd) {
      const events = opening();
      events.push(event() as never, text(1, 0, "g"), text(1, 0, "h"), text(0, 0, "i"), text(0, 0, "j"));
      agrees("responses", to, events);
    }
    expect(taken - before).toBeGreaterThan(0);
  },
);

test.each(pairs.filter((pair) => pair.startsWith("responses>")))(
  "%s: a run of text deltas with token logprobs is taken after the hub reported the first as dropped",
  (pair) => {
    const to = pair.split(">")[1] as Protocol;
    const logprobs = (token: string) => [{ token, logprob: -0.1, bytes: [116], top_logprobs: [] }];
    const withLogprobs = (sequence: number, delta: string) => ({
      ...textDelta(sequence, delta),
      logprobs: logprobs(delta),
    });
    const [created, added, part] = textRun.responses ?? [];
    const before = taken;
    // Logprobs from the first delta on; then from the third only (the memo of a delta without them
    // must not take one with them: that one is the stream's first loss).
    agrees("responses", to, [
      created,
      added,
      part,
      ...["a", "b", "c", "d"].map((d, i) => withLogprobs(3 + i, d)),
    ]);
    agrees("responses", to, [
      created,
      added,
      part,
      textDelta(3, "a"),
      textDelta(4, "b"),
      withLogprobs(5, "c"),
      withLogprobs(6, "d"),
      withLogprobs(7, "e"),
    ]);
    // The hub translates a part's first delta (its state changes) and the delta after any it had to
    // take: the path takes the first run's "c" and "d", the second run's "e" ("c" has the stream's
    // first logprobs, after a memo without them), in each of the 12 translations (option sets ×
    // endings) but the 3 strict ones, which end at the first logprobs.
    expect(taken - before).toBe(9 * 2 + 9 * 1);
  },
);

test.each([
  ["reasoning_content", { content: null }],
  ["reasoning", {}],
  ["refusal", {}],
] as const)("chat>messages takes a run of `%s` pieces after its second", (field, beside) => {
  const before = taken;
  const events = [
    chunk({ role: "assistant", content: "" }),
    ...["a", "b", "c", "d"].map((text) => chunk({ ...beside, [field]: text })),
  ];
  agrees("chat", "messages", events);
  // The first piece opens the block, the hub translates the second, the path the two after it: in each
  // of the 12 translations (option sets × endings).
  expect(taken - before).toBe(12 * 2);
});

test.each(["openai", "vllm", "openrouter"] as const)(
  "messages>chat in the %s dialect takes a run of thinking pieces as the hub sends them",
  (chatDialect) => {
    const events = [
      (textRun.messages ?? [])[0],
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      ...["a", "b", "c", "d"].map((thinking) => ({
        type: "content_block_delta",
        index: 0,
        delta: { type: "thinking_delta", thinking },
      })),
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "s" } },
      { type: "content_block_stop", index: 0 },
    ];
    const before = taken;
    for (const ending of ["end", "cut", "unreadable"] as const) {
      const options = { chatDialect, created: 1 };
      expect(transcript("messages", "chat", events, options, true, ending)).toBe(
        transcript("messages", "chat", events, options, false, ending),
      );
    }
    // The hub translates the first piece (its states kept), the path the three after it — but where the
    // dialect's chunk carries reasoning entries beside the text, which the path never takes.
    expect(taken - before).toBe(chatDialect === "openrouter" ? 0 : 3 * 3);
  },
);
