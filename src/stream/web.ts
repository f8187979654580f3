import { TranslationError } from "../common/errors";
import type { Protocol } from "../common/model";
import type { TranslateOptions } from "../common/options";
import { adapters } from "../protocols";
import { createJsonArrayParser, sniffStreamFormat } from "./json-array";
import { createParser, format } from "./sse";
import { createStreamTranslator } from "./translator";

type Framer = { feed(chunk: Uint8Array | string): string[]; end(): string[] };

/** SSE `data:` payloads, or (generative without `alt=sse`) the elements of one JSON array. */
function framer(from: Protocol, first: Uint8Array): Framer {
  if (from === "generative") {
    let at = 0;
    while (
      at < first.length &&
      (first[at] === 0x20 || first[at] === 0x0a || first[at] === 0x0d || first[at] === 0x09)
    )
      at++;
    if (at < first.length && sniffStreamFormat(String.fromCharCode(first[at] ?? 0)) === "json-array") {
      return createJsonArrayParser();
    }
  }
  const parser = createParser();
  return {
    feed: (chunk) => parser.feed(chunk).map((message) => message.data),
    end: () => parser.end().map((message) => message.data),
  };
}

/**
 * Byte level: an SSE body in one protocol becomes an SSE body in another. The only file that touches
 * Web Streams; no `node:` imports. Output is batched: one chunk out per chunk in.
 */
export function translateEventStream(
  from: Protocol,
  to: Protocol,
  body: ReadableStream<Uint8Array>,
  options?: TranslateOptions,
): ReadableStream<Uint8Array> {
  if (from === to) return body;
  const source = adapters[from];
  const target = adapters[to];
  const translator = createStreamTranslator(from, to, options);
  const encoder = new TextEncoder();
  let frames: Framer | undefined;

  const render = (payloads: readonly string[], closing: boolean): string => {
    let text = "";
    for (const data of payloads) {
      if (data === "") continue;
      let event: unknown;
      try {
        event = source.parseEventData(data);
      } catch {
        throw new TranslationError(
          `The ${from} stream sent an event that is not JSON: ${data.slice(0, 80)}`,
          {
            status: 502,
          },
        );
      }
      for (const out of translator.push(event as never)) {
        text += format({ event: target.sseEventName(out), data: target.formatEventData(out) });
      }
    }
    if (closing) {
      for (const out of translator.end()) {
        text += format({ event: target.sseEventName(out), data: target.formatEventData(out) });
      }
    }
    return text;
  };

  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        frames ??= framer(from, chunk);
        const text = render(frames.feed(chunk), false);
        if (text !== "") controller.enqueue(encoder.encode(text));
      },
      flush(controller) {
        const text = render(frames === undefined ? [] : frames.end(), true);
        if (text !== "") controller.enqueue(encoder.encode(text));
      },
    }),
  );
}
