/**
 * Losses of streams (API.md `onLoss`, DESIGN rule 2 and 7): at the byte level `onLoss` is the only
 * channel, and it hears exactly what the event-level translator lists; every stream loss points into
 * the event it came from, never at "".
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { resolvePointer } from "../../src/common/pointer";
import {
  createStreamTranslator,
  createTranslateStream,
  type Loss,
  type Protocol,
  replay,
  translateEventStream,
  translateResponse,
} from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { generativeModel, readFixture, streamEvents, wiredFixtures } from "../helpers/fixtures";
import { runs } from "../helpers/tier";

const protocols: Protocol[] = ["chat", "messages", "generative"];
const options = { idPrefix: "gp", created: 1_700_000_000 };

function eventLevel(from: Protocol, to: Protocol, events: readonly unknown[], model?: string) {
  const heard: Loss[] = [];
  const translator = createStreamTranslator(from, to, {
    ...options,
    model,
    onLoss: (loss) => heard.push(loss),
  });
  for (const event of events) translator.push(event as never);
  translator.end();
  return { listed: translator.losses, heard };
}

async function byteLevel(
  from: Protocol,
  to: Protocol,
  text: string,
  form: "stream" | "transform",
  model?: string,
) {
  const heard: Loss[] = [];
  const withLosses = { ...options, model, onLoss: (loss: Loss) => heard.push(loss) };
  const body = new Response(text).body as ReadableStream<Uint8Array>;
  const output =
    form === "stream"
      ? translateEventStream(from, to, body, withLosses)
      : body.pipeThrough(createTranslateStream(from, to, withLosses));
  await new Response(output).text();
  return heard;
}

describe("onLoss at the byte level hears exactly what the stream translator lists, for every fixture stream", () => {
  for (const entry of wiredFixtures("stream")) {
    for (const to of protocols.filter((protocol) => protocol !== entry.protocol)) {
      test(`${entry.path} → ${to}`, async () => {
        const from = entry.protocol;
        const model = from === "generative" ? generativeModel(entry) : undefined;
        const events = streamEvents(entry);
        const { listed, heard } = eventLevel(from, to, events, model);
        // Event level: onLoss hears each listed loss once, as it is listed.
        expect(heard).toEqual(listed);
        const text = readFixture(entry);
        expect(await byteLevel(from, to, text, "stream", model)).toEqual(listed);
        expect(await byteLevel(from, to, text, "transform", model)).toEqual(listed);
        // Every loss points into the list of events: at an event (or a field of one) that resolves, or
        // one past the last (the end of a stream cut before its finish).
        for (const loss of listed) {
          expect(loss.path, loss.message).not.toBe("");
          const [, position] = /^\/(\d+)/.exec(loss.path) ?? [];
          expect(position, loss.path).toBeDefined();
          if (Number(position) === events.length) expect(loss.path).toBe(`/${events.length}`);
          else if (loss.kind !== "synthesized")
            expect(resolvePointer(events, loss.path).found, `${loss.path}: ${loss.message}`).toBe(true);
        }
      });
    }
  }
});

describe('translating any generated response and its stream never reports a loss at ""', () => {
  for (const from of protocols) {
    for (const to of protocols.filter((protocol) => protocol !== from)) {
      test(`${from} → ${to}`, () => {
        fc.assert(
          fc.property(arbitraries.response(from), (body) => {
            let response: ReturnType<typeof translateResponse>;
            let events: unknown[];
            try {
              response = translateResponse(from, to, body, { model: "m" });
              events = replay(from, body as never);
            } catch {
              // Bodies the library refuses (not every generated body is valid) lose nothing.
              return;
            }
            for (const loss of response.losses) expect(loss.path, loss.message).not.toBe("");
            const translator = createStreamTranslator(from, to, { model: "m" });
            for (const event of events) translator.push(event as never);
            translator.end();
            for (const loss of translator.losses) {
              expect(loss.path, loss.message).not.toBe("");
              expect(loss.path, loss.message).toMatch(/^\/\d+(\/|$)/);
            }
          }),
          { numRuns: runs(120) },
        );
      });
    }
  }
});

describe("stream losses point at the field, in the event it came from", () => {
  test("a dropped field of the 13th event is /12/…", () => {
    const chunk = (delta: object, extra: object = {}) => ({
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta, finish_reason: null, ...extra }],
    });
    const events = [
      ...Array.from({ length: 12 }, (_, index) => chunk({ content: `${index}` })),
      chunk({ content: "x" }, { logprobs: { content: [] } }),
    ];
    const { listed } = eventLevel("chat", "messages", events);
    expect(listed.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      "dropped /12/choices/0/logprobs",
      // The stream stops without a finish: an error event, at the event that never came.
      "synthesized /13",
    ]);
  });

  test("an encoder's loss points at the input event whose part caused it", () => {
    // A messages signature_delta has no chat form: the loss is at that delta's field.
    const events = [
      {
        type: "message_start",
        message: {
          id: "m",
          type: "message",
          role: "assistant",
          model: "c",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hm" } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "pause_turn", stop_sequence: null },
        usage: { output_tokens: 2 },
      },
      { type: "message_stop" },
    ];
    const { listed } = eventLevel("messages", "chat", events);
    expect(listed.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      // The finish reason chat has no word for: at the field that gave it.
      "approximated /5/delta/stop_reason",
      // The signature, which no tool call came to carry (issue 29): known at the end, at its own field.
      "dropped /3/delta/signature",
    ]);
    for (const loss of listed) expect(resolvePointer(events, loss.path).found).toBe(true);
  });
});

describe("token logprobs of a responses stream are reported as dropped, as the whole response reports them", () => {
  const logprob = (token: string) => ({ token, logprob: -0.5, bytes: [116], top_logprobs: [] });
  const item = { id: "msg_1", type: "message", status: "in_progress", role: "assistant", content: [] };
  const part = (text: string, logprobs: unknown[]) => ({
    type: "output_text",
    text,
    annotations: [],
    logprobs,
  });
  const at = { item_id: "msg_1", output_index: 0, content_index: 0 };
  /** A one-part answer "ab": its deltas, `.done` events and final output carrying `deltas` and `done` logprobs. */
  const stream = (deltas: unknown[][], done: unknown[]) => {
    const response = { id: "resp_1", object: "response", created_at: 1, model: "m", output: [] };
    const finished = { ...item, status: "completed", content: [part("ab", done)] };
    return [
      { type: "response.created", response: { ...response, status: "in_progress" } },
      { type: "response.output_item.added", output_index: 0, item },
      { type: "response.content_part.added", ...at, part: part("", []) },
      { type: "response.output_text.delta", ...at, delta: "a", logprobs: deltas[0] ?? [] },
      { type: "response.output_text.delta", ...at, delta: "b", logprobs: deltas[1] ?? [] },
      { type: "response.output_text.done", ...at, text: "ab", logprobs: done },
      { type: "response.content_part.done", ...at, part: part("ab", done) },
      { type: "response.output_item.done", output_index: 0, item: finished },
      {
        type: "response.completed",
        response: { ...response, status: "completed", output: [finished] },
      },
    ].map((event, sequence) => ({ ...event, sequence_number: sequence }));
  };
  const dropped = (listed: readonly Loss[]) =>
    listed.filter((loss) => loss.path.endsWith("/logprobs")).map(({ path, kind }) => `${kind} ${path}`);

  for (const to of protocols)
    test(`→ ${to}: once per stream, at the first event that has them, the whole response's loss too`, async () => {
      // On the deltas: the first delta's, not again for the second's or the .done events repeating them.
      const both = stream([[logprob("a")], [logprob("b")]], [logprob("a"), logprob("b")]);
      const { listed, heard } = eventLevel("responses", to, both);
      expect(dropped(listed)).toEqual(["dropped /3/logprobs"]);
      expect(heard).toEqual(listed);
      const sse = both.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
      expect(await byteLevel("responses", to, sse, "stream")).toEqual(listed);
      // The second delta's only: there.
      expect(dropped(eventLevel("responses", to, stream([[], [logprob("b")]], [])).listed)).toEqual([
        "dropped /4/logprobs",
      ]);
      // Only the .done events have them: at the first of those.
      expect(dropped(eventLevel("responses", to, stream([], [logprob("a")])).listed)).toEqual([
        "dropped /5/logprobs",
      ]);
      // None anywhere: no loss.
      expect(dropped(eventLevel("responses", to, stream([], [])).listed)).toEqual([]);
      // The whole response drops them with the same words.
      const whole = translateResponse("responses", to, (both.at(-1) as { response: object }).response);
      const words = (listed: readonly Loss[]) =>
        listed.filter((loss) => loss.path.endsWith("/logprobs")).map((loss) => loss.message);
      expect(words(whole.losses)).toEqual(words(listed));
    });
});

describe("a responses stream reports what the whole response reports of its items' fields", () => {
  // Unknown fields of items and parts, summary parts joined: each item's final form (output_item.done).
  const output = [
    {
      id: "rs_1",
      type: "reasoning",
      summary: [
        { type: "summary_text", text: "first", x_part: 1 },
        { type: "summary_text", text: "second" },
      ],
      x_item: 1,
    },
    {
      id: "msg_1",
      type: "message",
      status: "completed",
      role: "assistant",
      content: [
        { type: "output_text", text: "ab", annotations: [], logprobs: [], x_part: 2 },
        { type: "refusal", refusal: "no", x_part: 3 },
      ],
      x_item: 2,
    },
    {
      id: "fc_1",
      type: "function_call",
      status: "completed",
      call_id: "call_1",
      name: "f",
      arguments: "{}",
      x_item: 3,
    },
  ];
  const response = { id: "resp_1", object: "response", created_at: 1, model: "m" };
  const events = [
    { type: "response.created", response: { ...response, status: "in_progress", output: [] } },
    ...output.flatMap((item, index) => [
      {
        type: "response.output_item.added",
        output_index: index,
        item: { ...item, content: [], summary: [] },
      },
      { type: "response.output_item.done", output_index: index, item },
    ]),
    { type: "response.completed", response: { ...response, status: "completed", output } },
  ].map((event, sequence) => ({ ...event, sequence_number: sequence }));
  // The stream's item losses, in the whole response's pointers: `/<event>/item/…` → `/output/<index>/…`.
  const asWhole = (listed: readonly Loss[]) =>
    listed
      .filter((loss) => /^\/\d+\/item\//.test(loss.path))
      .map((loss) => {
        const at = Number(loss.path.split("/")[1]);
        const index = (events[at] as { output_index: number }).output_index;
        return { ...loss, path: loss.path.replace(/^\/\d+\/item/, `/output/${index}`) };
      });

  // Every field above that no target holds, and the joined summary, in the order the items come.
  const fieldLosses = [
    "dropped /output/0/x_item",
    "dropped /output/0/summary/0/x_part",
    "approximated /output/0/summary",
    "dropped /output/1/x_item",
    "dropped /output/1/content/0/x_part",
    "dropped /output/1/content/1/x_part",
    "dropped /output/2/x_item",
  ];
  const said = (listed: readonly Loss[]) => listed.map(({ kind, path }) => `${kind} ${path}`);

  for (const to of protocols)
    test(`→ ${to}`, () => {
      const whole = translateResponse(
        "responses",
        to,
        (events.at(-1) as { response: object }).response as never,
      ).losses;
      expect(said(whole)).toEqual(expect.arrayContaining(fieldLosses));
      const { listed } = eventLevel("responses", to, events);
      const streamed = asWhole(listed);
      expect(said(streamed)).toEqual(fieldLosses);
      // In the same words.
      for (const loss of streamed) expect(whole).toContainEqual(loss);
    });
});

describe("a responses reasoning item with a summary and raw text: the loss names the list the stream did not send", () => {
  // The first list to stream is the one sent (a stream never holds text back); the whole response
  // prefers the summary. Both lists end up in the item's final form.
  const item = {
    id: "rs_1",
    type: "reasoning",
    summary: [{ type: "summary_text", text: "in short" }],
    content: [{ type: "reasoning_text", text: "step by step" }],
  };
  const response = { id: "resp_1", object: "response", created_at: 1, model: "m" };
  const summaryDelta = {
    type: "response.reasoning_summary_text.delta",
    output_index: 0,
    item_id: "rs_1",
    summary_index: 0,
    delta: "in short",
  };
  const rawDelta = {
    type: "response.reasoning_text.delta",
    output_index: 0,
    item_id: "rs_1",
    content_index: 0,
    delta: "step by step",
  };
  const stream = (deltas: object[]) =>
    [
      { type: "response.created", response: { ...response, status: "in_progress", output: [] } },
      { type: "response.output_item.added", output_index: 0, item: { ...item, summary: [], content: [] } },
      ...deltas,
      { type: "response.output_item.done", output_index: 0, item },
      { type: "response.completed", response: { ...response, status: "completed", output: [item] } },
    ].map((event, sequence) => ({ ...event, sequence_number: sequence }));
  const reasoning = (events: readonly unknown[]) => {
    const translator = createStreamTranslator("responses", "messages", options);
    const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
    const text = out
      .map((event) => (event as { delta?: { thinking?: string } }).delta?.thinking ?? "")
      .join("");
    const said = translator.losses
      .filter((loss) => loss.path.startsWith("/4/item/"))
      .map((loss) => `${loss.kind} ${loss.path}`);
    return { text, said };
  };

  test("the summary first: its text is sent and the raw text reported dropped, as the whole response does", () => {
    expect(reasoning(stream([summaryDelta, rawDelta]))).toEqual({
      text: "in short",
      said: ["dropped /4/item/content"],
    });
    const whole = translateResponse("responses", "messages", {
      ...response,
      status: "completed",
      output: [item],
    } as never);
    expect(whole.losses.map((loss) => `${loss.kind} ${loss.path}`)).toContain("dropped /output/0/content");
  });

  test("the raw text first: its text is sent and the summary reported dropped", () => {
    expect(reasoning(stream([rawDelta, summaryDelta]))).toEqual({
      text: "step by step",
      said: ["dropped /4/item/summary"],
    });
  });
});

describe("the stop sequence that matched (messages says which) is reported as dropped by every target", () => {
  const events = [
    {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: "stop_sequence", stop_sequence: "END" },
      usage: { output_tokens: 2 },
    },
    { type: "message_stop" },
  ];
  const whole = {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude",
    content: [{ type: "text", text: "Hi" }],
    stop_reason: "stop_sequence",
    stop_sequence: "END",
    usage: { input_tokens: 1, output_tokens: 2 },
  };
  const dropped = (listed: readonly Loss[]) =>
    listed.filter((loss) => loss.path.endsWith("/stop_sequence")).map(({ kind, path }) => `${kind} ${path}`);

  for (const to of ["chat", "generative", "responses"] as const)
    test(`→ ${to}, whole and streamed`, async () => {
      const translated = translateResponse("messages", to, whole as never);
      expect(dropped(translated.losses)).toEqual(["dropped /stop_sequence"]);
      const { listed, heard } = eventLevel("messages", to, events);
      expect(dropped(listed)).toEqual(["dropped /4/delta/stop_sequence"]);
      // responses has no status for it either: at the field that gave it too (was the last event's).
      if (to === "responses")
        expect(listed).toContainEqual(
          expect.objectContaining({ kind: "approximated", path: "/4/delta/stop_reason" }),
        );
      expect(heard).toEqual(listed);
      const sse = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
      expect(await byteLevel("messages", to, sse, "stream")).toEqual(listed);
      // No sequence named (null): nothing to report.
      const unnamed = { ...whole, stop_sequence: null };
      expect(dropped(translateResponse("messages", to, unnamed as never).losses)).toEqual([]);
    });
});
