import { describe, expect, test } from "vitest";
import { createTranslateStream, type Loss, translateEventStream } from "../../src/index";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const chunk = (content: string, extra = ""): string =>
  `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}${extra}}]}\n\n`;

/** A byte source that counts how often it was pulled, and records how it was cancelled. */
function countingSource(chunks: readonly string[]) {
  const seen = { pulls: 0, cancelled: undefined as unknown };
  let at = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        seen.pulls++;
        const next = chunks[at++];
        if (next === undefined) controller.close();
        else controller.enqueue(encoder.encode(next));
      },
      cancel(reason) {
        seen.cancelled = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(decoder.decode(value));
  }
}

describe("translateEventStream over Web Streams", () => {
  test("one output chunk per input chunk that completes events; none for a chunk that completes none", async () => {
    const whole = chunk("Hel") + chunk("lo") + chunk("", ',"finish_reason":"stop"');
    const cut = whole.indexOf("lo");
    const { stream } = countingSource([
      whole.slice(0, 10),
      whole.slice(10, cut),
      whole.slice(cut),
      "data: [DONE]\n\n",
    ]);
    const out = await readAll(translateEventStream("chat", "messages", stream));
    // The first piece completes no event; the second completes one; the third two and the finish.
    expect(out.length).toBe(3);
    expect(out[0]).toContain("event: message_start");
    expect(out.join("")).toContain('"text":"Hel"');
    expect(out.join("")).toContain('"text":"lo"');
    expect(out.join("")).toContain("event: message_stop");
  });

  test("same protocol: a CRLF body cut between the CR and the LF of its blank line passes through whole", async () => {
    // Shrunk by the chunking law: the LF after a boundary CR that ended the previous chunk was held back
    // and lost, so the error event of the cut-off stream followed "\r\n\r" without its "\n".
    const body = chunk("Hi").replaceAll("\n", "\r\n");
    const split = body.length - 1;
    const { stream } = countingSource([body.slice(0, split), body.slice(split)]);
    const whole = countingSource([body]).stream;
    const [cut, reference] = await Promise.all([
      readAll(translateEventStream("chat", "chat", stream)),
      readAll(translateEventStream("chat", "chat", whole)),
    ]);
    expect(cut.join("")).toBe(reference.join(""));
    expect(cut.join("").startsWith(body)).toBe(true);
    expect(cut.join("")).toContain('data: {"error":');
  });

  test("reads the body only as the consumer pulls (backpressure reaches the upstream)", async () => {
    const { stream, seen } = countingSource(Array.from({ length: 50 }, (_, index) => chunk(`t${index}`)));
    const reader = translateEventStream("chat", "messages", stream).getReader();
    await reader.read();
    await reader.read();
    // Two output chunks need two input chunks; a pipe with buffers would have read ahead.
    expect(seen.pulls).toBeLessThanOrEqual(3);
    await reader.cancel("client went away");
    expect(seen.cancelled).toBe("client went away");
  });

  test("an event that is not JSON ends the output with the target's error event and cancels the body", async () => {
    const { stream, seen } = countingSource([chunk("a"), "data: {not json\n\n", chunk("never read")]);
    const losses: Loss[] = [];
    const out = (
      await readAll(translateEventStream("chat", "messages", stream, { onLoss: (loss) => losses.push(loss) }))
    ).join("");
    // Everything before it, then messages' own error event; no normal stop, and the output never errors.
    expect(out).toContain('"text":"a"');
    expect(out).not.toContain("message_stop");
    expect(out.endsWith("\n\n")).toBe(true);
    const last = out.trim().split("\n\n").at(-1) ?? "";
    expect(last).toMatch(/^event: error\ndata: /);
    expect(JSON.parse(last.split("data: ")[1] ?? "")).toEqual({
      type: "error",
      error: { type: "api_error", message: expect.stringContaining("event 1 is not JSON: {not json") },
    });
    // The unreadable event is dropped, and the error made up in its place, both at its position.
    expect(losses.map(({ path, kind }) => `${kind} ${path}`)).toEqual(["dropped /1", "synthesized /1"]);
    // The upstream connection is released rather than left open until it is collected.
    expect(seen.cancelled).toBeDefined();
    expect(seen.pulls).toBe(2);
  });

  test("an upstream failure ends the output with the target's error event, saying the connection failed", async () => {
    const problem = new Error("socket hang up");
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(problem);
        else controller.enqueue(encoder.encode(chunk("partial")));
        sent = true;
      },
    });
    const reader = translateEventStream("chat", "generative", stream, { model: "m" }).getReader();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toContain("partial");
    const last = await reader.read();
    const text = decoder.decode(last.value);
    expect(JSON.parse(text.slice("data: ".length))).toEqual({
      error: {
        code: 502,
        status: "INTERNAL",
        message: expect.stringContaining(
          "failed before its finish (the upstream connection failed: socket hang up)",
        ),
      },
    });
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  test("the same protocol on both sides passes the bytes through, and ends a cut body with its own error event", async () => {
    const whole = chunk("Hel") + chunk("lo");
    const { stream } = countingSource([whole.slice(0, 30), whole.slice(30), 'data: {"id":"c1","obj']);
    const out = (await readAll(translateEventStream("chat", "chat", stream))).join("");
    // The input's own bytes, the cut event left out, then chat's error object.
    expect(out.startsWith(whole)).toBe(true);
    const rest = out.slice(whole.length);
    expect(rest).toMatch(/^data: \{"error":/);
    expect(JSON.parse(rest.slice("data: ".length))).toMatchObject({
      error: { type: "server_error", message: expect.stringContaining("not JSON") },
    });
  });

  test("the same protocol on both sides adds nothing to a complete body", async () => {
    const whole = `${chunk("Hel")}${chunk("", ',"finish_reason":"stop"')}data: [DONE]\n\n`;
    const { stream } = countingSource([whole.slice(0, 17), whole.slice(17)]);
    expect((await readAll(translateEventStream("chat", "chat", stream))).join("")).toBe(whole);
  });
});

describe("createTranslateStream: the same translation for pipeThrough", () => {
  test("it is a TransformStream, and its output equals translateEventStream's, losses included", async () => {
    const text =
      chunk("Hel", ',"logprobs":{"content":[]}') + chunk("lo") + chunk("", ',"finish_reason":"stop"');
    const transform = createTranslateStream("chat", "messages", {});
    expect(transform).toBeInstanceOf(TransformStream);
    const heard: Loss[][] = [[], []];
    const viaPipe = await new Response(
      countingSource([text]).stream.pipeThrough(
        createTranslateStream("chat", "messages", { onLoss: (loss) => heard[0]?.push(loss) }),
      ),
    ).text();
    const viaStream = (
      await readAll(
        translateEventStream("chat", "messages", countingSource([text]).stream, {
          onLoss: (loss) => heard[1]?.push(loss),
        }),
      )
    ).join("");
    expect(viaPipe).toBe(viaStream);
    expect(viaPipe).toContain("event: message_stop");
    expect(heard[0]).toEqual(heard[1]);
    expect(heard[0]?.map((loss) => loss.path)).toEqual(["/0/choices/0/logprobs"]);
  });

  test("cancelling its output cancels the source of the pipe", async () => {
    const { stream, seen } = countingSource(Array.from({ length: 50 }, (_, index) => chunk(`t${index}`)));
    const reader = stream.pipeThrough(createTranslateStream("chat", "messages")).getReader();
    await reader.read();
    await reader.cancel("client went away");
    // The pipe notices its destination failed on its next step.
    for (let tries = 0; tries < 20 && seen.cancelled === undefined; tries++)
      await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen.cancelled).toBe("client went away");
    expect(seen.pulls).toBeLessThan(50);
  });

  test("a source that fails ends the output with the target's error event, never an errored output", async () => {
    let sent = false;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(new Error("socket hang up"));
        else controller.enqueue(encoder.encode(chunk("partial")));
        sent = true;
      },
    });
    const out = await new Response(source.pipeThrough(createTranslateStream("chat", "chat"))).text();
    expect(out.startsWith(chunk("partial"))).toBe(true);
    expect(out.slice(chunk("partial").length)).toMatch(
      /^data: \{"error":\{"message":"The upstream chat stream failed before its finish \(the upstream connection failed: socket hang up\)/,
    );
  });

  test("an event that is not JSON ends the output and cancels the source", async () => {
    const { stream, seen } = countingSource([
      chunk("a"),
      "data: {not json\n\n",
      chunk("never read"),
      chunk("x"),
    ]);
    const out = await new Response(stream.pipeThrough(createTranslateStream("chat", "generative"))).text();
    expect(out).toContain('"text":"a"');
    expect(out).toMatch(
      /data: \{"error":\{"code":502,"message":"The upstream chat stream failed before its finish \(event 1 is not JSON/,
    );
    expect(out).not.toContain("never read");
    expect(seen.cancelled).toBeDefined();
  });
});

describe("strict at the byte level", () => {
  test("the first loss ends the output with the target's error event and releases the body", async () => {
    const { stream, seen } = countingSource([
      chunk("kept"),
      chunk("lost", ',"logprobs":{"content":[]}'),
      chunk("never read"),
    ]);
    const heard: Loss[] = [];
    const out = (
      await readAll(
        translateEventStream("chat", "messages", stream, {
          strict: true,
          onLoss: (loss) => heard.push(loss),
        }),
      )
    ).join("");
    expect(out).toContain('"text":"kept"');
    expect(out).not.toContain('"text":"lost"');
    expect(out).not.toContain("message_stop");
    expect(out).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"invalid_request_error","message":"Translation would lose information: \/1\/choices\/0\/logprobs \(dropped\)/,
    );
    expect(heard.map((loss) => loss.path)).toEqual(["/1/choices/0/logprobs"]);
    expect(seen.cancelled).toBeDefined();
    expect(seen.pulls).toBe(2);
  });
});
