import type fc from "fast-check";
import { expect } from "vitest";
import { referenceParse, type SseModel, type SseReal } from "./sse-reference";

/** Feed the next `size` bytes of the body; everything closed by a blank line so far must have come out. */
export class FeedCommand implements fc.Command<SseModel, SseReal> {
  private shown: string | undefined;

  constructor(readonly size: number) {}

  check(model: Readonly<SseModel>): boolean {
    return model.offset < model.bytes.length;
  }

  run(model: SseModel, real: SseReal): void {
    const end = Math.min(model.offset + this.size, model.bytes.length);
    const slice = model.bytes.subarray(model.offset, end);
    this.shown = JSON.stringify(new TextDecoder().decode(slice));
    model.delivered.push(...real.parser.feed(slice));
    model.offset = end;
    expect(model.delivered).toEqual(
      referenceParse(model.bytes.subarray(model.segmentStart, model.offset), false),
    );
  }

  toString(): string {
    return this.shown === undefined ? `Feed(${this.size} bytes)` : `Feed(${this.shown})`;
  }
}
