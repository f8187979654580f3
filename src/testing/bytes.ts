/**
 * Byte streams as the wire carries them: the SSE body a provider sends for a list of events, and every
 * way a network may cut it (anywhere, inside a multi-byte UTF-8 character, between CR and LF, one byte
 * at a time).
 */
import fc from "fast-check";
import { type Protocol, sse } from "../index";
import { adapters } from "../protocols/index";
import { entryOf } from "./arbitraries/index";

const encoder = new TextEncoder();

/** The line ends SSE allows (WHATWG HTML 9.2.5): a server may use any of them. */
export type LineEnd = "\n" | "\r\n" | "\r";

/**
 * The SSE body a provider sends for `events`: one `data:` line each (chat's `[DONE]` as is), with the
 * `event:` line the protocol names (messages: the event type), lines ended by `lineEnd` (default LF).
 * @example
 * sseBytes("chat", [chunk, "[DONE]"]); // => bytes of "data: {…}\n\ndata: [DONE]\n\n"
 */
export function sseBytes(
  protocol: Protocol,
  events: readonly unknown[],
  options: { lineEnd?: LineEnd } = {},
): Uint8Array {
  entryOf(protocol);
  const adapter = adapters[protocol];
  const text = events
    .map((event) => {
      const name = adapter.sseEventName(event);
      return sse.format({
        ...(name === undefined ? {} : { event: name }),
        data: typeof event === "string" ? event : JSON.stringify(event),
      });
    })
    .join("");
  // JSON data holds no raw line break, so every LF here is a line end.
  const lineEnd = options.lineEnd ?? "\n";
  return encoder.encode(lineEnd === "\n" ? text : text.replaceAll("\n", lineEnd));
}

/** `bytes` cut at `offsets` (modulo length + 1, sorted): consecutive pieces, empty ones included. */
export function cutAt<T extends Uint8Array | string>(bytes: T, offsets: readonly number[]): T[] {
  const points = offsets.map((offset) => offset % (bytes.length + 1)).sort((left, right) => left - right);
  const chunks: T[] = [];
  let previous = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(previous, point) as T);
    previous = point;
  }
  return chunks;
}

/** `bytes` one byte per chunk. */
export function oneByteAtATime(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (_, index) => bytes.subarray(index, index + 1));
}

/** How to cut a body: at arbitrary offsets, at awkward places only, or one byte at a time. */
export type CutPlan = {
  readonly mode: "anywhere" | "awkward" | "bytes";
  readonly offsets: readonly number[];
};

export const cutPlanArb: fc.Arbitrary<CutPlan> = fc.record({
  mode: fc.constantFrom("anywhere", "awkward", "bytes"),
  offsets: fc.array(fc.nat(), { maxLength: 16 }),
});

/** Offsets inside a multi-byte UTF-8 character (before a continuation byte) or between CR and LF. */
function awkwardOffsets(bytes: Uint8Array): number[] {
  const offsets: number[] = [];
  bytes.forEach((byte, index) => {
    if ((byte & 0xc0) === 0x80 || (index > 0 && bytes[index - 1] === 0x0d && byte === 0x0a))
      offsets.push(index);
  });
  return offsets;
}

/** `bytes` cut as `plan` says; concatenated, the chunks are always `bytes`. */
export function applyCut(bytes: Uint8Array, plan: CutPlan): Uint8Array[] {
  if (plan.mode === "bytes") return oneByteAtATime(bytes);
  const awkward = plan.mode === "awkward" ? awkwardOffsets(bytes) : [];
  if (awkward.length === 0) return cutAt(bytes, plan.offsets);
  return cutAt(
    bytes,
    plan.offsets.map((offset) => awkward[offset % awkward.length] ?? 0),
  );
}

/**
 * Every way a network may cut `bytes`: at arbitrary offsets, inside multi-byte UTF-8 characters and
 * between CR and LF, or one byte at a time. Concatenated, the chunks are always `bytes`.
 * @example
 * fc.assert(fc.property(cutBytes(body), (chunks) => { ... feed chunks, compare with the whole body ... }));
 */
export function cutBytes(bytes: Uint8Array): fc.Arbitrary<Uint8Array[]> {
  return cutPlanArb.map((plan) => applyCut(bytes, plan));
}
