import type fc from "fast-check";
import { expect } from "vitest";
import { referenceParse, type SseModel, type SseReal } from "./sse-reference";

/** End the body fed so far: the unfinished last event comes out; the bytes after it form a new stream. */
export class EndCommand implements fc.Command<SseModel, SseReal> {
  check(): boolean {
    return true;
  }

  run(model: SseModel, real: SseReal): void {
    model.delivered.push(...real.parser.end());
    expect(model.delivered).toEqual(
      referenceParse(model.bytes.subarray(model.segmentStart, model.offset), true),
    );
    model.segmentStart = model.offset;
    model.delivered = [];
  }

  toString(): string {
    return "End()";
  }
}
