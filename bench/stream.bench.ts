/**
 * Stream translation: createStreamTranslator over parsed events (a fresh translator per stream) and
 * translateEventStream over SSE bytes, against the peers and the yardstick of parsing the same SSE
 * with eventsource-parser + JSON.parse in the same run.
 */
import {
  type AsyncJob,
  arrow,
  asyncJob,
  atMost,
  type Check,
  type Context,
  fastest,
  type Job,
  job,
  missing,
  type Section,
  timeRow,
  timeRowAsync,
} from "./context";
import { type Protocol, protocols, type StreamBody, type StreamSet } from "./corpus";
import { kilobytes, Notes, rate, ratio, spread, table, unsupported } from "./report";
import { streamYardstickJob } from "./sse.bench";
import type { EventTranslator } from "./subjects";

function readable(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** Reads a stream to its end; returns the number of bytes (or characters) it produced. */
async function drain(stream: ReadableStream<unknown>): Promise<number> {
  const reader = stream.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return size;
    size += value instanceof Uint8Array ? value.byteLength : String(value).length;
  }
}

/**
 * The Web Streams share of a byte-level cell: the body passed through a pull source over its reader
 * (as translateEventStream reads it) and read to its end, translating nothing. What this costs is paid
 * by any translation that takes and returns a ReadableStream (on node 20 mostly constructing the two
 * streams and a reader each: about 25 µs per body), before it parses a byte.
 */
function passThrough(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= body.getReader();
        const result = await reader.read();
        if (result.done) controller.close();
        else controller.enqueue(result.value);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The pass-through of every body of the set, as a job of a byte-level row. */
const floorJob = (set: StreamSet): Promise<AsyncJob> =>
  asyncJob("Web Streams pass-through", set.bodies, (body) => drain(passThrough(readable(body.chunks))));

function translateEvents(create: () => EventTranslator, body: StreamBody, done: unknown): number {
  const translator = create();
  let count = 0;
  for (const event of body.events) count += translator.push(event === "[DONE]" ? done : event).length;
  return count + translator.end().length;
}

function oursEvents(context: Context, set: StreamSet, to: Protocol, validate: boolean): Job {
  const create = context.ours.createStreamTranslator;
  if (create === undefined) return missing(context, "createStreamTranslator");
  const done = context.ours.chat?.DONE ?? "[DONE]";
  const label = `ours createStreamTranslator ${arrow(set.protocol, to)}${validate ? "" : " (validate: false)"}`;
  return job(label, set.bodies, (body) =>
    translateEvents(() => create(set.protocol, to, { validate }), body, done),
  );
}

function peerEvents(context: Context, set: StreamSet, to: Protocol): Job[] {
  return context.peers.map((peer) => {
    if (peer.problem !== undefined) return { kind: "missing", why: `${peer.name} ${peer.problem}` };
    const create = peer.events(set.protocol, to);
    if (create === undefined) return unsupported;
    return job(`${peer.name} ${arrow(set.protocol, to)}`, set.bodies, (body) =>
      translateEvents(create, body, "[DONE]"),
    );
  });
}

function oursBytes(context: Context, set: StreamSet, to: Protocol, validate: boolean): Promise<AsyncJob> {
  const translate = context.ours.translateEventStream;
  if (translate === undefined) return Promise.resolve(missing(context, "translateEventStream"));
  const label = `ours translateEventStream ${arrow(set.protocol, to)}${validate ? "" : " (validate: false)"}`;
  return asyncJob(label, set.bodies, (body) =>
    drain(translate(set.protocol, to, readable(body.chunks), { validate })),
  );
}

async function peerBytes(context: Context, set: StreamSet, to: Protocol): Promise<AsyncJob[]> {
  const jobs: AsyncJob[] = [];
  for (const peer of context.peers) {
    if (peer.problem !== undefined) {
      jobs.push({ kind: "missing", why: `${peer.name} ${peer.problem}` });
      continue;
    }
    const translate = peer.bytes(set.protocol, to);
    jobs.push(
      translate === undefined
        ? unsupported
        : await asyncJob(`${peer.name} ${arrow(set.protocol, to)}`, set.bodies, (body) =>
            drain(translate(readable(body.chunks))),
          ),
    );
  }
  return jobs;
}

/** The event-level and byte-level stream tables. */
export async function streamSections(context: Context, sets: readonly StreamSet[]): Promise<Section[]> {
  const eventNotes = new Notes();
  const byteNotes = new Notes();
  const eventRows: string[][] = [];
  const byteRows: string[][] = [];
  const checks: Check[] = [];
  for (const set of sets) {
    const from = set.protocol;
    context.progress(`stream ${from} ${set.name}`);
    for (const to of protocols) {
      if (to === from) continue;
      const row = `${set.name} ${arrow(from, to)}`;
      // The event-level cells of a row take their rounds interleaved with a yardstick of their own.
      const [eventBase = unsupported, validated = unsupported, unvalidated = unsupported, ...peers] = timeRow(
        context,
        [
          streamYardstickJob(set),
          oursEvents(context, set, to, true),
          oursEvents(context, set, to, false),
          ...peerEvents(context, set, to),
        ],
      );
      if (peers.some((cell) => cell.kind !== "unsupported")) {
        checks.push({
          target: "event-level stream translation ≤ fastest peer",
          row,
          met: atMost(unvalidated, fastest(peers, eventBase), eventBase),
        });
      }
      eventRows.push([
        set.name,
        arrow(from, to),
        String(set.events),
        rate(eventBase, set.events, "events/s", eventNotes),
        ratio(validated, eventBase, eventNotes),
        ratio(unvalidated, eventBase, eventNotes),
        rate(validated, set.events, "events/s", eventNotes),
        rate(unvalidated, set.events, "events/s", eventNotes),
        ...peers.map((cell) => ratio(cell, eventBase, eventNotes)),
        spread([validated, unvalidated, ...peers], eventBase),
      ]);

      // The byte-level cells of a row take their rounds interleaved with the row's own yardstick too.
      const [
        byteBase = unsupported,
        floor = unsupported,
        bytesValidated = unsupported,
        bytesUnvalidated = unsupported,
        ...bytePeers
      ] = await timeRowAsync(context, [
        streamYardstickJob(set),
        await floorJob(set),
        await oursBytes(context, set, to, true),
        await oursBytes(context, set, to, false),
        ...(await peerBytes(context, set, to)),
      ]);
      checks.push({
        target: "translateEventStream ≤ 2× (eventsource-parser + JSON.parse)",
        row,
        met: atMost(bytesValidated, 2, byteBase),
      });
      byteRows.push([
        set.name,
        arrow(from, to),
        kilobytes(set.bytes),
        rate(byteBase, set.bytes, "MB/s", byteNotes),
        ratio(floor, byteBase, byteNotes),
        ratio(bytesValidated, byteBase, byteNotes),
        ratio(bytesUnvalidated, byteBase, byteNotes),
        rate(bytesValidated, set.bytes, "MB/s", byteNotes),
        ...bytePeers.map((cell) => ratio(cell, byteBase, byteNotes)),
        spread([floor, bytesValidated, bytesUnvalidated, ...bytePeers], byteBase),
      ]);
    }
  }
  const peerNames = context.peers.map((peer) => peer.name);
  const yardstickText =
    "Time ÷ parsing the same SSE bytes with eventsource-parser + `JSON.parse` of each event in the same run, in steady state, the median over rounds (the yardstick column shows its absolute throughput; spread as in the tables above).";
  const events: Section = {
    markdown: [
      "### createStreamTranslator (event level)",
      "",
      `${yardstickText} Parsed events in, a fresh translator per stream; the rounds of a row are interleaved with the row's own yardstick. — = the library has no event-level API for that direction.`,
      "",
      table(
        [
          "stream",
          "direction",
          "events",
          "yardstick",
          "ours validated",
          "ours unvalidated",
          "ours events/s (validated)",
          "ours events/s (unvalidated)",
          ...peerNames,
          "spread",
        ],
        eventRows,
      ),
      ...(eventNotes.size > 0 ? ["", eventNotes.render()] : []),
    ].join("\n"),
    checks: checks.filter((check) => check.target.startsWith("event-level")),
  };
  const bytes: Section = {
    markdown: [
      "### translateEventStream (bytes in, bytes out, Web Streams)",
      "",
      `${yardstickText} Input fed as a ReadableStream of 4 KiB chunks, output read to its end; the rounds of a row are interleaved with the row's own yardstick, as at the event level. Web Streams floor: the same input passed through a pull source over its reader and read to its end, translating nothing — what taking and returning a ReadableStream costs before a byte is parsed, part of every cell to its right.`,
      "",
      table(
        [
          "stream",
          "direction",
          "size",
          "yardstick",
          "Web Streams floor",
          "ours validated",
          "ours unvalidated",
          "ours MB/s (validated)",
          ...peerNames,
          "spread",
        ],
        byteRows,
      ),
      ...(byteNotes.size > 0 ? ["", byteNotes.render()] : []),
    ].join("\n"),
    checks: checks.filter((check) => !check.target.startsWith("event-level")),
  };
  return [events, bytes];
}

/** A body that ends at once: what a stream costs before it carries anything. */
function emptyBody(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.close();
    },
  });
}

/**
 * The per-stream fixed cost (issue 28): translateEventStream on an empty body (it answers with the
 * target's error event: the body ended before its finish) against draining the same empty body, the
 * floor of anything that reads a stream, and against the pass-through, the floor of anything that also
 * returns one. One row per pair; the target is 2× the drained body.
 */
export async function fixedCostSection(context: Context): Promise<Section> {
  const translate = context.ours.translateEventStream;
  const notes = new Notes();
  const rows: string[][] = [];
  const checks: Check[] = [];
  const one = [0];
  for (const from of protocols) {
    for (const to of protocols) {
      const [floor = unsupported, through = unsupported, ours = unsupported] = await timeRowAsync(context, [
        await asyncJob("drain an empty body", one, () => drain(emptyBody())),
        await asyncJob("pass an empty body through", one, () => drain(passThrough(emptyBody()))),
        translate === undefined
          ? missing(context, "translateEventStream")
          : await asyncJob(`ours ${arrow(from, to)}`, one, () => drain(translate(from, to, emptyBody()))),
      ]);
      const row = `per-stream fixed cost ${arrow(from, to)}`;
      checks.push({
        target: "per-stream fixed cost ≤ 2× the drained body",
        row,
        met: atMost(ours, 2, floor),
      });
      rows.push([
        arrow(from, to),
        floor.kind === "time" ? `${(floor.ns / 1000).toFixed(2)} µs` : ratio(floor, floor, notes),
        ratio(through, floor, notes),
        ratio(ours, floor, notes),
        ours.kind === "time" ? `${(ours.ns / 1000).toFixed(2)} µs` : "",
        spread([through, ours], floor),
      ]);
    }
  }
  return {
    markdown: [
      "### Per-stream fixed cost (translateEventStream on an empty body)",
      "",
      "Time ÷ draining the same empty body (a ReadableStream that closes at once, read to its end) in the same round, the median over rounds. Pass-through: the empty body through a pull source over its reader, translating nothing — what returning a ReadableStream adds. Ours: `translateEventStream` on the empty body, read to its end (its output is the target's error event: the body ended before its finish).",
      "",
      table(["direction", "drained body", "pass-through", "ours", "ours (absolute)", "spread"], rows),
      ...(notes.size > 0 ? ["", notes.render()] : []),
    ].join("\n"),
    checks,
  };
}
