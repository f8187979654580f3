/**
 * SSE framing: our `sse.createParser` against eventsource-parser on the same bytes, fed in the same
 * chunks; and the stream yardstick every stream ratio divides by: eventsource-parser + `JSON.parse` of
 * each event's data.
 */
import { createParser as createEventSourceParser } from "eventsource-parser";
import { type Context, type Job, job, missing, type Section, timeAll } from "./context";
import type { StreamBody, StreamSet } from "./corpus";
import { type Cell, formatRatio, kilobytes, Notes, rate, table } from "./report";
import { consume } from "./timing";

function eventSourceParse(body: StreamBody, parseJson: boolean): number {
  const decoder = new TextDecoder();
  let count = 0;
  const parser = createEventSourceParser({
    onEvent(event) {
      count++;
      if (parseJson && event.data !== "[DONE]") consume(JSON.parse(event.data));
      else consume(event);
    },
  });
  for (const chunk of body.chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  parser.reset({ consume: true });
  return count;
}

/** The yardstick as a job, for rows that interleave their rounds with it. */
export const streamYardstickJob = (set: StreamSet): Job =>
  job("eventsource-parser + JSON.parse", set.bodies, (body) => eventSourceParse(body, true));

const cache = new WeakMap<StreamSet, Cell>();

/** eventsource-parser + JSON.parse over every body of the set, from the byte chunks (memoized per set). */
function streamYardstick(context: Context, set: StreamSet): Cell {
  const known = cache.get(set);
  if (known !== undefined) return known;
  const cell = timeAll(context, "eventsource-parser + JSON.parse", set.bodies, (body) =>
    eventSourceParse(body, true),
  );
  cache.set(set, cell);
  return cell;
}

function oursSse(context: Context, set: StreamSet): Cell {
  const sse = context.ours.sse;
  if (sse === undefined) return missing(context, "sse.createParser");
  return timeAll(context, "ours sse.createParser", set.bodies, (body) => {
    const parser = sse.createParser();
    let count = 0;
    for (const chunk of body.chunks) count += parser.feed(chunk).length;
    count += parser.end().length;
    if (count !== body.events.length)
      throw new Error(`parsed ${count} events, expected ${body.events.length}`);
    return count;
  });
}

/** The SSE parsing table. */
export function sseSection(context: Context, sets: readonly StreamSet[]): Section {
  const notes = new Notes();
  const rows: string[][] = [];
  for (const set of sets) {
    context.progress(`sse ${set.protocol} ${set.name}`);
    const plain = timeAll(context, "eventsource-parser", set.bodies, (body) => eventSourceParse(body, false));
    const withJson = streamYardstick(context, set);
    const ours = oursSse(context, set);
    const over = (base: Cell): string => {
      if (ours.kind !== "time") return ours.kind === "unsupported" ? "—" : `n/a ${notes.mark(ours.why)}`;
      if (base.kind !== "time") return base.kind === "unsupported" ? "—" : `n/a ${notes.mark(base.why)}`;
      return formatRatio(ours.ns / base.ns);
    };
    rows.push([
      set.name,
      set.protocol,
      kilobytes(set.bytes),
      rate(plain, set.bytes, "MB/s", notes),
      rate(ours, set.bytes, "MB/s", notes),
      over(plain),
      over(withJson),
    ]);
  }
  const header = [
    "stream",
    "protocol",
    "size",
    "eventsource-parser",
    "ours sse",
    "ours ÷ eventsource-parser",
    "ours ÷ (eventsource-parser + JSON.parse)",
  ];
  return {
    markdown: [
      "### SSE parsing (`sse.createParser`)",
      "",
      "Bytes fed in 4 KiB chunks (cut anywhere), parser created per body. Throughput in MB/s of input.",
      "",
      table(header, rows),
      ...(notes.size > 0 ? ["", notes.render()] : []),
    ].join("\n"),
    checks: [],
  };
}
