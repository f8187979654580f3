/**
 * Stream translation: createStreamTranslator over parsed events (a fresh translator per stream) and
 * translateEventStream over SSE bytes, against the peers and the yardstick of parsing the same SSE
 * with eventsource-parser + JSON.parse in the same run.
 */
import {
  arrow,
  atMost,
  type Check,
  type Context,
  fastest,
  type Job,
  job,
  missing,
  type Section,
  timeAllAsync,
  timeRow,
} from "./context";
import { type Protocol, protocols, type StreamBody, type StreamSet } from "./corpus";
import { type Cell, kilobytes, Notes, rate, ratio, spread, table, unsupported } from "./report";
import { streamYardstick, streamYardstickJob } from "./sse.bench";
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

async function oursBytes(context: Context, set: StreamSet, to: Protocol, validate: boolean): Promise<Cell> {
  const translate = context.ours.translateEventStream;
  if (translate === undefined) return missing(context, "translateEventStream");
  const label = `ours translateEventStream ${arrow(set.protocol, to)}${validate ? "" : " (validate: false)"}`;
  return timeAllAsync(context, label, set.bodies, (body) =>
    drain(translate(set.protocol, to, readable(body.chunks), { validate })),
  );
}

async function peerBytes(context: Context, set: StreamSet, to: Protocol): Promise<Cell[]> {
  const cells: Cell[] = [];
  for (const peer of context.peers) {
    if (peer.problem !== undefined) {
      cells.push({ kind: "missing", why: `${peer.name} ${peer.problem}` });
      continue;
    }
    const translate = peer.bytes(set.protocol, to);
    cells.push(
      translate === undefined
        ? unsupported
        : await timeAllAsync(context, `${peer.name} ${arrow(set.protocol, to)}`, set.bodies, (body) =>
            drain(translate(readable(body.chunks))),
          ),
    );
  }
  return cells;
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
    const base = streamYardstick(context, set);
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
          met: atMost(unvalidated, fastest(peers)),
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

      const bytesValidated = await oursBytes(context, set, to, true);
      const bytesUnvalidated = await oursBytes(context, set, to, false);
      const bytePeers = await peerBytes(context, set, to);
      checks.push({
        target: "translateEventStream ≤ 2× (eventsource-parser + JSON.parse)",
        row,
        met: base.kind === "time" ? atMost(bytesValidated, 2 * base.ns) : undefined,
      });
      byteRows.push([
        set.name,
        arrow(from, to),
        kilobytes(set.bytes),
        rate(base, set.bytes, "MB/s", byteNotes),
        ratio(bytesValidated, base, byteNotes),
        ratio(bytesUnvalidated, base, byteNotes),
        rate(bytesValidated, set.bytes, "MB/s", byteNotes),
        ...bytePeers.map((cell) => ratio(cell, base, byteNotes)),
        spread([bytesValidated, bytesUnvalidated, ...bytePeers], base),
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
      `${yardstickText} Input fed as a ReadableStream of 4 KiB chunks, output read to its end; asynchronous cells take their rounds back to back, so their spread includes the machine's drift.`,
      "",
      table(
        [
          "stream",
          "direction",
          "size",
          "yardstick",
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
