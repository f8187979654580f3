/**
 * Memory, run in its own process by run.ts (`node --expose-gc --import tsx bench/memory.ts <events> <budget-ms>`):
 * heapUsed after a full GC every 100,000 events of one long chat→messages text stream (a single
 * translator, and the same stream as SSE bytes through translateEventStream), and the heap a
 * translated ~200 KB request keeps alive next to a JSON round-trip copy.
 * Prints one JSON object on stdout.
 */
import { largeRequest } from "./generate";
import { textDeltaEvent } from "./generate-streams";
import { type EventTranslator, loadOurs, loadPeers } from "./subjects";
import { consume } from "./timing";

export type HeapRun = {
  name: string;
  /** [events pushed, heapUsed in bytes after a full GC]. */
  samples: [number, number][];
  events: number;
  ms: number;
  error?: string;
};

export type Retained = { name: string; bytes?: number; error?: string };

export type MemoryReport = { runs: HeapRun[]; retained: Retained[]; inputBytes: number; problem?: string };

const SAMPLE_EVERY = 100_000;

function heapAfterCollect(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function longStream(
  name: string,
  create: () => EventTranslator,
  events: number,
  deadline: number,
  gc: () => void,
): HeapRun {
  const samples: [number, number][] = [];
  const start = Date.now();
  try {
    const translator = create();
    consume(
      translator.push({
        id: "chatcmpl-bench",
        object: "chat.completion.chunk",
        created: 1_700_000_000,
        model: "gpt-4o-mini",
        choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
      }),
    );
    samples.push([0, heapAfterCollect(gc)]);
    let pushed = 0;
    while (pushed < events) {
      consume(translator.push(textDeltaEvent("chat", pushed)));
      pushed++;
      if (pushed % SAMPLE_EVERY === 0) {
        samples.push([pushed, heapAfterCollect(gc)]);
        if (Date.now() > deadline) break;
      }
    }
    consume(translator.end());
    return { name, samples, events: pushed, ms: Date.now() - start };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name, samples, events: 0, ms: Date.now() - start, error: message.split("\n")[0] ?? "" };
  }
}

/** Events per input chunk of the byte-level run (about 12 KB of SSE). */
const EVENTS_PER_CHUNK = 64;

/**
 * The same long chat text stream as SSE bytes through a Web Streams translator, generated as the
 * translator pulls it; heapUsed sampled (after a full GC) each time another 100,000 events were
 * handed over. The output is read to its end as it comes.
 */
async function longByteStream(
  name: string,
  translate: (body: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>,
  events: number,
  deadline: number,
  gc: () => void,
): Promise<HeapRun> {
  const samples: [number, number][] = [];
  const start = Date.now();
  const encoder = new TextEncoder();
  const sse = (event: unknown): string => `data: ${JSON.stringify(event)}\n\n`;
  let pushed = 0;
  let stopped = false;
  try {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pushed === 0) {
          samples.push([0, heapAfterCollect(gc)]);
          const first = {
            id: "chatcmpl-bench",
            object: "chat.completion.chunk",
            created: 1_700_000_000,
            model: "gpt-4o-mini",
            choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
          };
          controller.enqueue(encoder.encode(sse(first)));
        }
        if (pushed >= events || stopped) {
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
          return;
        }
        let text = "";
        for (let index = 0; index < EVENTS_PER_CHUNK && pushed < events; index++) {
          text += sse(textDeltaEvent("chat", pushed));
          pushed++;
          if (pushed % SAMPLE_EVERY === 0) {
            samples.push([pushed, heapAfterCollect(gc)]);
            if (Date.now() > deadline) stopped = true;
          }
        }
        controller.enqueue(encoder.encode(text));
      },
    });
    const reader = translate(body).getReader();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    return { name, samples, events: pushed, ms: Date.now() - start };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name, samples, events: 0, ms: Date.now() - start, error: message.split("\n")[0] ?? "" };
  }
}

function retained(name: string, run: () => unknown, gc: () => void): Retained {
  try {
    run(); // warm: compile the code and create any lazily built schema first
    const before = heapAfterCollect(gc);
    const kept = run();
    const after = heapAfterCollect(gc);
    consume(kept);
    return { name, bytes: after - before };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name, error: message.split("\n")[0] ?? "" };
  }
}

async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 1_000_000);
  const budgetMs = Number(process.argv[3] ?? 120_000);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) {
    const report: MemoryReport = {
      runs: [],
      retained: [],
      inputBytes: 0,
      problem: "node was not started with --expose-gc",
    };
    process.stdout.write(JSON.stringify(report));
    return;
  }
  const { ours, problems } = await loadOurs();
  const peers = await loadPeers();
  const runs: HeapRun[] = [];
  const subjects: { name: string; create: (() => EventTranslator) | undefined }[] = [
    {
      name: "ours createStreamTranslator (validated)",
      create:
        ours.createStreamTranslator === undefined
          ? undefined
          : () =>
              (ours.createStreamTranslator as NonNullable<typeof ours.createStreamTranslator>)(
                "chat",
                "messages",
              ),
    },
    ...peers.map((peer) => ({ name: peer.name, create: peer.events("chat", "messages") })),
  ];
  const available = subjects.filter((subject) => subject.create !== undefined);
  const byteLevel = ours.translateEventStream;
  const total = available.length + (byteLevel === undefined ? 0 : 1);
  const start = Date.now();
  // Share what is left of the budget among the runs still to come.
  const deadlineFor = (at: number): number => Date.now() + (budgetMs - (Date.now() - start)) / (total - at);
  for (const [at, subject] of available.entries()) {
    runs.push(longStream(subject.name, subject.create as () => EventTranslator, events, deadlineFor(at), gc));
  }
  if (byteLevel !== undefined) {
    runs.push(
      await longByteStream(
        "ours translateEventStream (validated, SSE bytes)",
        (body) => byteLevel("chat", "messages", body),
        events,
        deadlineFor(available.length),
        gc,
      ),
    );
  }
  if (ours.createStreamTranslator === undefined) {
    runs.unshift({
      name: "ours createStreamTranslator",
      samples: [],
      events: 0,
      ms: 0,
      error: `not available yet (${problems.length > 0 ? "src/index does not load yet" : "no such export"})`,
    });
  }

  const request = largeRequest("chat");
  const translate = ours.translateRequest;
  const retainedRuns: Retained[] = [
    retained(
      "JSON.parse(JSON.stringify(x)) (copies every string)",
      () => JSON.parse(JSON.stringify(request)),
      gc,
    ),
    retained("structuredClone(x)", () => structuredClone(request), gc),
    translate === undefined
      ? {
          name: "ours translateRequest chat→messages (validated)",
          error: "translateRequest is not available yet",
        }
      : retained(
          "ours translateRequest chat→messages (validated)",
          () => translate("chat", "messages", request),
          gc,
        ),
    translate === undefined
      ? {
          name: "ours translateRequest chat→messages (validate: false)",
          error: "translateRequest is not available yet",
        }
      : retained(
          "ours translateRequest chat→messages (validate: false)",
          () => translate("chat", "messages", request, { validate: false }),
          gc,
        ),
    ...peers.flatMap((peer) => {
      const run = peer.request("chat", "messages");
      return run === undefined ? [] : [retained(`${peer.name} chat→messages`, () => run(request), gc)];
    }),
  ];
  const report: MemoryReport = {
    runs,
    retained: retainedRuns,
    inputBytes: new TextEncoder().encode(JSON.stringify(request)).byteLength,
  };
  process.stdout.write(JSON.stringify(report));
}

await main();
