/**
 * The stream laws: valid output in the target's grammar, determinism, commutation with the
 * whole-response path, promptness, replay, and chunking invariance of the byte stream.
 */
import fc from "fast-check";
import type { StreamPart } from "../../common/model";
import { resolveOptions } from "../../common/options";
import type { Protocol } from "../../index";
import { adapters } from "../../protocols/index";
import { entryOf } from "../arbitraries/index";
import { anyStreamArb, wellFormedStreamArb } from "../arbitraries/streams";
import { applyCut, cutPlanArb, type LineEnd, sseBytes } from "../bytes";
import { normalize } from "../normalize";
import { valueAt } from "../pointer";
import {
  check,
  describeThrown,
  firstDifference,
  LawBroken,
  law,
  lawInputs,
  listed,
  type RunOptions,
  runDifference,
  schemaProblems,
  shown,
  translateAll,
  translateBytes,
  translateOptions,
  withShiftedClock,
} from "./support";
import type { Law, Translator } from "./types";

type StreamTranslator = Required<Pick<Translator, "createStreamTranslator">>;

export function streamLaws(
  translator: StreamTranslator,
  from: Protocol,
  to: Protocol,
  options: RunOptions,
): Law[] {
  const pair = { subject: "stream" as const, from, to };
  const anyStream = lawInputs((hard) => anyStreamArb(from, entryOf(from), hard));
  // Same-protocol translation is the identity: it passes a stream on as it came, finished or not.
  const grammar = from === to ? undefined : entryOf(to).grammar;
  const texts = entryOf(from).texts;
  const laws: Law[] = [
    law(
      {
        ...pair,
        law: "valid-output",
        statement: `every event of a ${from} stream translated to ${to} parses with the ${to} event schema${grammar === undefined ? "" : ", in the order its grammar allows"}`,
      },
      anyStream,
      (events) => {
        const out = translateAll(translator, from, to, events).events;
        const broken = out.flatMap((event, index) => {
          const problems = schemaProblems(to, "event", event, `/${index}`);
          return problems === undefined ? [] : [problems];
        });
        check(
          broken.length === 0,
          () =>
            `${broken.length === 1 ? "an output event does" : `${broken.length} output events do`} not parse: ${broken.join("; ")}`,
        );
        const problems = grammar?.(out) ?? [];
        check(problems.length === 0, () => `the sequence breaks the ${to} grammar: ${problems.join("; ")}`);
      },
      options,
    ),
    law(
      {
        ...pair,
        law: "determinism",
        statement: `translating a ${from} stream to ${to} gives the same events and losses twice, and after the clock moves`,
      },
      anyStream,
      (events) => {
        const first = translateAll(translator, from, to, events);
        const second = runDifference(translateAll(translator, from, to, events), first);
        check(second === undefined, () => `a second run differs: ${second}`);
        const later = runDifference(
          withShiftedClock(() => translateAll(translator, from, to, events)),
          first,
        );
        check(later === undefined, () => `a run a year later differs: ${later}`);
      },
      options,
    ),
    law(
      {
        ...pair,
        law: "promptness",
        statement: `the push that receives a ${from} text delta returns its text translated to ${to}`,
      },
      lawInputs((hard) => wellFormedStreamArb(from, entryOf(from), hard)),
      (events) => {
        const stream = translator.createStreamTranslator(from, to, translateOptions);
        events.forEach((event, index) => {
          const out = JSON.stringify(stream.push(event as never));
          for (const text of texts(event)) {
            check(
              text === "" || out.includes(JSON.stringify(text).slice(1, -1)),
              () => `the text ${JSON.stringify(text)} of event ${index} was held back`,
            );
          }
        });
      },
      options,
    ),
  ];
  if (from === to) {
    laws.push(
      law(
        {
          ...pair,
          law: "identity",
          statement: `translating a ${from} stream to itself gives its events back and reports nothing, but for a stream cut before its finish: its protocol's error ending after it, and one loss saying so`,
        },
        anyStream,
        (events) => {
          const result = translateAll(translator, from, to, events);
          const difference = firstDifference(result.events.slice(0, events.length), events);
          check(difference === undefined, () => `the events differ at ${difference}`);
          const added = result.events.length - events.length;
          if (added === 0) {
            check(
              result.losses.length === 0,
              () => `losses reported at ${listed(result.losses.map((entry) => entry.path))}`,
            );
            return;
          }
          // A cut-off stream ends with the protocol's own error event.
          check(!entryOf(from).finished(events), () => "an error event was added to a finished stream");
          const decoder = adapters[to].streamDecoder(resolveOptions(translateOptions));
          const parts: StreamPart[] = [];
          let state = decoder.initial;
          for (const event of result.events.slice(events.length))
            state = decoder.step(state, event as never, parts, []);
          check(
            parts.some((part) => part.type === "error"),
            () =>
              `the events added are not an error ending: ${JSON.stringify(result.events.slice(events.length))}`,
          );
          const [only, ...more] = result.losses;
          check(
            more.length === 0 && only?.kind === "synthesized" && only.path === `/${events.length}`,
            () =>
              `a cut-off reported ${JSON.stringify(result.losses)}, not one synthesized loss at /${events.length}`,
          );
        },
        options,
      ),
    );
  }
  return laws;
}

/** Each stream part `protocol`'s own decoder reads in `events`, with the index of the event it came from. */
function partsOf(protocol: Protocol, events: readonly unknown[]): { part: StreamPart; at: number }[] {
  const decoder = adapters[protocol].streamDecoder(resolveOptions(translateOptions));
  const found: { part: StreamPart; at: number }[] = [];
  let state = decoder.initial;
  events.forEach((event, at) => {
    const parts: StreamPart[] = [];
    try {
      state = decoder.step(state, event as never, parts, [], at);
    } catch (error) {
      throw new LawBroken(`gateway-protocols cannot read output event /${at}: ${describeThrown(error)}`);
    }
    for (const part of parts) found.push({ part, at });
  });
  return found;
}

/**
 * Streams end honestly: a stream cut off before its finish ends, in any target, with that protocol's own
 * error ending — never a normal stop a client would take for the whole answer — and a stream that
 * finished gets no error. (Across protocols; the same protocol's identity law says it there.)
 */
export function honestEndLaw(
  translator: StreamTranslator,
  from: Protocol,
  to: Protocol,
  options: RunOptions,
): Law {
  const source = entryOf(from);
  return law(
    {
      subject: "stream",
      from,
      to,
      law: "honest-end",
      statement: `a ${from} stream cut off before its finish, translated to ${to}, ends with ${to}'s own error ending, never as a normal finish; a finished one gets no error`,
    },
    lawInputs((hard) => wellFormedStreamArb(from, source, hard)),
    (events) => {
      const out = translateAll(translator, from, to, events).events;
      const parts = partsOf(to, out);
      const error = parts.find(({ part }) => part.type === "error");
      const at = (found: { part: StreamPart; at: number }) => {
        const pointer = found.part.type === "finish" ? found.part.source : undefined;
        return pointer === undefined
          ? `event /${found.at} (${shown(out[found.at])})`
          : `${pointer} (${shown(valueAt(out, pointer))})`;
      };
      if (source.finished(events)) {
        check(
          error === undefined,
          () =>
            `the ${from} stream finished, yet the ${to} output has an error at ${error === undefined ? "" : at(error)}`,
        );
        return;
      }
      const finish = parts.find(({ part }) => part.type === "finish" && part.reason !== "error");
      check(
        error !== undefined && (finish === undefined || finish.at >= error.at),
        () =>
          `the ${from} stream was cut off after ${events.length} event${events.length === 1 ? "" : "s"}, before its finish, yet the ${to} output ${finish === undefined ? "ends without an error" : `ends as a normal finish at ${at(finish)}`}${error === undefined ? "" : `, before its error at event /${error.at}`}`,
      );
    },
    options,
  );
}

export function commutationLaw(
  translator: Required<Pick<Translator, "createStreamTranslator" | "accumulate" | "translateResponse">>,
  from: Protocol,
  to: Protocol,
  options: RunOptions,
): Law {
  const source = entryOf(from);
  const streamable = entryOf(to).streamable;
  return law(
    {
      subject: "stream",
      from,
      to,
      law: "commutation",
      statement: `accumulating a ${from} stream translated to ${to} equals translating the accumulated ${from} response`,
    },
    lawInputs((hard) => wellFormedStreamArb(from, source, hard)),
    (events) => {
      // A cut-off stream has no whole response to agree with.
      fc.pre(source.finished(events));
      const viaStream = translator.accumulate(
        to,
        translateAll(translator, from, to, events).events as never[],
        translateOptions,
      );
      const accumulated = translator.accumulate(from, events as never[], translateOptions);
      const viaResponse = translator.translateResponse(from, to, accumulated, translateOptions).value;
      fc.pre(streamable === undefined || streamable(viaStream));
      const difference = firstDifference(normalize(viaStream), normalize(viaResponse));
      check(difference === undefined, () => `the two paths disagree at ${difference}`);
    },
    options,
  );
}

export function replayLaw(
  translator: Required<Pick<Translator, "accumulate" | "replay">>,
  protocol: Protocol,
  options: RunOptions,
): Law {
  return law(
    {
      subject: "stream",
      from: protocol,
      law: "replay",
      statement: `accumulating the replay of a ${protocol} response gives the response back`,
    },
    lawInputs((hard) => entryOf(protocol).replayableResponse(hard)),
    (body) => {
      const events = translator.replay(protocol, body as never);
      const back = translator.accumulate(protocol, events as never[], translateOptions);
      const difference = firstDifference(normalize(back), normalize(body));
      check(difference === undefined, () => `the response came back different at ${difference}`);
    },
    options,
  );
}

const lineEnds: readonly LineEnd[] = ["\n", "\r\n", "\r"];

export function chunkingLaw(
  translator: Required<Pick<Translator, "translateEventStream">>,
  from: Protocol,
  to: Protocol,
  options: RunOptions,
): Law {
  const decoder = new TextDecoder();
  return law(
    {
      subject: "bytes",
      from,
      to,
      law: "chunking",
      statement:
        from === to
          ? `a ${from} SSE body passed through as ${to} gives the same bytes however it is cut (inside UTF-8 characters and one byte at a time included)`
          : `a ${from} SSE body translated to ${to} gives the same bytes with any line ends, cut anywhere (inside UTF-8 characters and one byte at a time included)`,
    },
    fc.record({
      events: lawInputs((hard) => anyStreamArb(from, entryOf(from), hard)),
      lineEnd: fc.constantFrom(...lineEnds),
      cut: cutPlanArb,
    }),
    async ({ events, lineEnd, cut }) => {
      const body = sseBytes(from, events, { lineEnd });
      // Across protocols the line ends are framing and the output is the same; same-protocol passes bytes on as they came.
      const reference = await translateBytes(translator, from, to, [
        from === to ? body : sseBytes(from, events),
      ]);
      const chunks = applyCut(body, cut);
      const output = await translateBytes(translator, from, to, chunks);
      const same =
        output.length === reference.length && output.every((byte, index) => byte === reference[index]);
      check(same, () => {
        const [actual, expected] = [decoder.decode(output), decoder.decode(reference)];
        let index = 0;
        while (index < actual.length && actual[index] === expected[index]) index++;
        // Output events are framed by a blank line: name the one where the bytes part.
        const event = expected.slice(0, index).split(/\r\n\r\n|\n\n|\r\r/).length - 1;
        return `the output differs from that of the whole ${from === to ? "" : "LF-framed "}body in output event ${event}, at character ${index}: ${JSON.stringify(actual.slice(index, index + 80))} instead of ${JSON.stringify(expected.slice(index, index + 80))}`;
      });
    },
    options,
  );
}
