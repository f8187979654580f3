/**
 * Arbitraries for byte framing: SSE messages, raw SSE bodies written by hand (every line-end style,
 * comments, fields without colon, BOM), JSON-array stream bodies, and the offsets to cut a body at.
 */
import fc from "fast-check";
import type { sse } from "../../index";
import { anyCharacter, lazy } from "./common";

type SseMessage = sse.SseMessage;

/** Text that exercises UTF-8 widths (1–4 bytes), line ends and the characters SSE gives meaning to. */
const awkwardUnitArb = fc.oneof(
  fc.constantFrom(
    "\n",
    "\r",
    "\r\n",
    ":",
    " ",
    "  ",
    "é",
    "€",
    "😀",
    "\u2028",
    "\uFEFF",
    "\0",
    "data:",
    "{",
    '"',
    "\\",
  ),
  anyCharacter,
);

/** Any text, line breaks included. */
export const sseTextArb = lazy(() => fc.string({ unit: awkwardUnitArb, maxLength: 30 }));

/** Text without CR or LF, as an `event:` or `id:` value must be. */
export const sseFieldValueArb = lazy(() =>
  fc.string({
    unit: awkwardUnitArb.filter((unit) => !unit.includes("\n") && !unit.includes("\r")),
    maxLength: 12,
  }),
);

/** A message as `format` accepts it: `event` non-empty (empty means "message" and parses as absent), `id` without NUL. */
export const sseMessageArb: fc.Arbitrary<SseMessage> = fc.record(
  {
    event: sseFieldValueArb.filter((value) => value !== ""),
    data: sseTextArb,
    id: sseFieldValueArb.filter((value) => !value.includes("\0")),
  },
  { requiredKeys: ["data"] },
);

const lineArb = fc.oneof(
  fc
    .tuple(fc.constantFrom("data:", "data: ", "data:  "), sseFieldValueArb)
    .map(([field, value]) => field + value),
  fc.tuple(fc.constantFrom("event:", "event: "), sseFieldValueArb).map(([field, value]) => field + value),
  fc.tuple(fc.constantFrom("id:", "id: "), sseFieldValueArb).map(([field, value]) => field + value),
  sseFieldValueArb.map((text) => `:${text}`), // comment
  fc.constantFrom(
    "data",
    "event",
    "id",
    "retry: 1000",
    "retry: soon",
    "unknown: x",
    "Data: not a field",
    "dat",
  ),
  fc.constant(""), // blank line: dispatch
  fc.constant(""),
  sseFieldValueArb, // anything at all, read as a field name and value
);

/** A raw SSE body written by hand: each line with its own line end, an optional BOM, an optional unfinished last line. */
export const sseBodyArb = fc
  .record({
    bom: fc.boolean(),
    lines: fc.array(fc.tuple(lineArb, fc.constantFrom("\n", "\r", "\r\n")), { maxLength: 25 }),
    last: fc.option(lineArb, { nil: undefined }),
  })
  .map(
    ({ bom, lines, last }) =>
      (bom ? "\uFEFF" : "") +
      lines.map(([line, end]) => line + end).join("") +
      (last === undefined ? "" : last),
  );

/** Offsets to cut a body at; taken modulo its length, so they fit any body. */
export const splitPointsArb = fc.array(fc.nat(), { maxLength: 12 });

const separatorArb = fc.constantFrom(",", ",\r\n", "\r\n,", " , ", ",\n", "\n,\n");

/** A generative stream sent as one JSON array: the body and the values it holds. */
export const jsonArrayBodyArb = fc
  .record({
    values: fc.array(
      fc.oneof({ weight: 4, arbitrary: fc.dictionary(fc.string(), fc.jsonValue()) }, fc.jsonValue()),
      { maxLength: 8 },
    ),
    separators: fc.array(separatorArb, { minLength: 8, maxLength: 8 }),
    leading: fc.constantFrom("", " ", "\r\n", "\uFEFF"),
    trailing: fc.constantFrom("", "\n", "\r\n "),
  })
  .map(({ values, separators, leading, trailing }) => {
    // JSON.stringify drops undefined and turns -0 into 0; round trip first so `values` is what the body says.
    const texts = values.map((value) => JSON.stringify(value));
    const elements = texts.map((text) => JSON.parse(text) as unknown);
    let body = `${leading}[`;
    texts.forEach((text, index) => {
      body += (index === 0 ? "" : separators[index]) + text;
    });
    return { body: `${body}]${trailing}`, elements, texts };
  });
