/**
 * The oracle for the SSE model-based test: a whole body parsed at once, written as plainly as possible
 * (split into lines by a regular expression) so that it shares no code or strategy with src/stream/sse.ts.
 */
import type { SseMessage, SseParser } from "../../../src/stream/sse";

/** The model: the whole body, how far it has been fed, where the current stream began, what came out since. */
export type SseModel = { bytes: Uint8Array; offset: number; segmentStart: number; delivered: SseMessage[] };
export type SseReal = { parser: SseParser };

/**
 * The events of `bytes`. With `final` false only events closed by a blank line count (what a parser must have
 * delivered by now); with `final` true the unfinished last line and event count too (what `end()` adds).
 */
export function referenceParse(bytes: Uint8Array, final: boolean): SseMessage[] {
  const lines = new TextDecoder().decode(bytes).split(/\r\n|\r|\n/); // the decoder drops a leading BOM
  const unfinished = lines.pop() ?? "";
  if (final && unfinished !== "") lines.push(unfinished);
  const messages: SseMessage[] = [];
  let data: string[] = [];
  let event = "";
  let id: string | undefined;
  const dispatch = () => {
    if (data.length > 0) {
      messages.push({
        ...(event === "" ? {} : { event }),
        data: data.join("\n"),
        ...(id === undefined ? {} : { id }),
      });
    }
    data = [];
    event = "";
    id = undefined;
  };
  for (const line of lines) {
    if (line === "") {
      dispatch();
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? "" : line.slice(colon + 1);
    const value = raw.startsWith(" ") ? raw.slice(1) : raw;
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
  }
  if (final) dispatch();
  return messages;
}
