/**
 * Golden outputs, for performance work that must change no output: every translate function
 * (requests, responses, event streams at the event and the byte level; validated or not, strict or
 * not) over the bench corpus and seeded samples of the test arbitraries, one line per case, plus a
 * digest of them all.
 *
 *   node --import tsx bench/golden.ts /tmp/before.txt   # on the commit before the change
 *   node --import tsx bench/golden.ts /tmp/after.txt    # after it
 *   cmp /tmp/before.txt /tmp/after.txt                  # or compare the printed digests
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import fc from "fast-check";
import * as ours from "../src/index";
import { arbitraries } from "../src/testing/index";
import { requestSets, responseSets, streamSets } from "./corpus";

const ps = ours.protocols;
const lines: string[] = [];
const run = (label: string, fn: () => unknown) => {
  let out: string;
  try {
    out = JSON.stringify(fn());
  } catch (e) {
    out = `THROW ${(e as Error).message} ${JSON.stringify((e as { losses?: unknown }).losses ?? null)}`;
  }
  lines.push(`${label}\t${out}`);
};
for (const from of ps) {
  const reqBodies = requestSets(from).flatMap((s) => s.bodies);
  reqBodies.push(...fc.sample(arbitraries.request(from), { seed: 42, numRuns: 400 }));
  const resBodies = responseSets(from).flatMap((s) => s.bodies);
  resBodies.push(...fc.sample(arbitraries.response(from), { seed: 43, numRuns: 400 }));
  const streams = streamSets(from).flatMap((s) => s.bodies.map((b) => b.events));
  streams.push(
    ...fc.sample(arbitraries.streamEvents(from), { seed: 44, numRuns: 200 }),
    ...fc.sample(arbitraries.anyStreamEvents(from), { seed: 45, numRuns: 200 }),
  );
  for (const to of ps) {
    for (const validate of [true, false]) {
      for (const strict of [false, true]) {
        for (const [i, b] of reqBodies.entries()) {
          run(`req ${from}>${to} v${validate} s${strict} ${i}`, () =>
            ours.translateRequest(from, to, b, { validate, strict, model: "m-1", idPrefix: "x" }),
          );
        }
        for (const [i, b] of resBodies.entries()) {
          run(`res ${from}>${to} v${validate} s${strict} ${i}`, () =>
            ours.translateResponse(from, to, b, { validate, strict, model: "m-1" }),
          );
        }
      }
      for (const [i, b] of reqBodies.slice(0, 60).entries()) {
        run(`req-nomodel ${from}>${to} v${validate} ${i}`, () =>
          ours.translateRequest(from, to, b, { validate }),
        );
      }
      for (const [i, events] of streams.entries()) {
        run(`stream ${from}>${to} v${validate} ${i}`, () => {
          const t = ours.createStreamTranslator(from, to, {
            validate,
            model: "m-1",
            idPrefix: "x",
            created: 5,
          });
          const out: unknown[] = [];
          try {
            for (const e of events) out.push(...t.push(e as never));
            out.push(...t.end());
          } catch (e) {
            out.push(`THROW ${(e as Error).message}`);
          }
          return { out, losses: t.losses };
        });
      }
    }
  }
}
// The byte level (translateEventStream): every corpus stream's SSE bytes to every protocol, in 4 KiB
// and 61-byte chunks (cuts fall anywhere), whole and cut off at 60%, with the losses onLoss heard.
const encoder = new TextEncoder();
const chunked = (bytes: Uint8Array, size: number) => {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
};
for (const from of ps) {
  const bodies = streamSets(from).flatMap((s) => s.bodies);
  for (const to of ps) {
    for (const [i, body] of bodies.entries()) {
      const whole = encoder.encode(body.text);
      for (const validate of [true, false]) {
        for (const size of [4096, 61]) {
          for (const cut of [false, true]) {
            const bytes = cut ? whole.subarray(0, Math.floor(whole.length * 0.6)) : whole;
            const losses: unknown[] = [];
            let out: string;
            try {
              const stream = ours.translateEventStream(from, to, chunked(bytes, size), {
                validate,
                model: "m-1",
                idPrefix: "x",
                created: 5,
                onLoss: (entry) => losses.push(entry),
              });
              out = await new Response(stream).text();
            } catch (e) {
              out = `THROW ${(e as Error).message}`;
            }
            lines.push(
              `bytes ${from}>${to} v${validate} c${size} ${cut ? "cut" : "whole"} ${i}\t${JSON.stringify({ out, losses })}`,
            );
          }
        }
      }
    }
  }
}

const text = lines.join("\n");
const out = process.argv[2];
if (out !== undefined) writeFileSync(out, text);
console.log(lines.length, "cases", createHash("sha256").update(text).digest("hex").slice(0, 16));
