/**
 * The arbitraries of the testing toolkit: one table of per-protocol arbitraries keyed by protocol id (a
 * protocol's arbitraries are one file and one line here), and the `arbitraries` object users call.
 */
import type fc from "fast-check";
import type { models, Protocol } from "../../index";
import { protocols } from "../../index";
import { chatArbitraries } from "./chat";
import { type Bias, resolveBias } from "./common";
import { type EmbeddingsProtocol, embeddingsRequestArb, embeddingsResponseArb } from "./embeddings";
import { generativeArbitraries } from "./generative";
import { messagesArbitraries } from "./messages";
import { modelEntryArb, modelListArb } from "./models";
import { type MusicRule, musicRequestArb } from "./music";
import { responsesArbitraries } from "./responses";
import { jsonArrayBodyArb, sseBodyArb, sseMessageArb } from "./sse";
import { anyStreamArb, wellFormedStreamArb } from "./streams";
import type { ProtocolArbitraries } from "./types";

/**
 * The arbitraries written so far, by protocol id. Not a `Record` over every id on purpose: adding a
 * protocol to the adapter table compiles before its arbitraries exist (issue 14: a new protocol is
 * its folder and one line in the table), and the entry of a protocol missing here says what to write
 * at its first use, so the shared protocol suite fails loudly for it instead of skipping it.
 */
const written: { readonly [P in Protocol]?: ProtocolArbitraries } = {
  chat: chatArbitraries,
  messages: messagesArbitraries,
  generative: generativeArbitraries,
  responses: responsesArbitraries,
};

/** The entry of a protocol whose arbitraries are not written yet: every use throws a TypeError naming the file to write. */
export function unwrittenArbitraries(protocol: Protocol): ProtocolArbitraries {
  const missing = (): never => {
    throw new TypeError(
      `The testing toolkit has no arbitraries for protocol ${JSON.stringify(protocol)} yet: write src/testing/arbitraries/${protocol}.ts and add it to the table in src/testing/arbitraries/index.ts.`,
    );
  };
  return {
    request: missing,
    response: missing,
    replayableResponse: missing,
    stream: missing,
    rawStream: missing,
    errorBody: missing,
    givenValues: missing,
    finished: missing,
    texts: missing,
    get reach() {
      return missing();
    },
  };
}

/** Every protocol's arbitraries, by protocol id (`protocols` covers the whole `Protocol` union, checked where it is declared). */
export const protocolArbitraries = Object.fromEntries(
  protocols.map((protocol) => [protocol, written[protocol] ?? unwrittenArbitraries(protocol)]),
) as Readonly<Record<Protocol, ProtocolArbitraries>>;

/** The table entry of `protocol`; an id outside `protocols` is a TypeError naming the valid ones. */
export function entryOf(protocol: Protocol): ProtocolArbitraries {
  if (
    !(protocols as readonly unknown[]).includes(protocol) ||
    !Object.hasOwn(protocolArbitraries, protocol)
  ) {
    throw new TypeError(`Unknown protocol ${JSON.stringify(protocol)}: use one of ${protocols.join(", ")}.`);
  }
  return protocolArbitraries[protocol];
}

/**
 * fast-check arbitraries of every wire shape. `bias` leans generation toward the hard cases (`true`
 * for all, or a list such as `["tools", "zeros"]`); without it the plain mix still reaches each now and then.
 * @example
 * fc.assert(fc.property(arbitraries.request("chat", ["tools"]), (body) => { ... }));
 */
export const arbitraries = {
  /** Requests as clients send them. */
  request: (protocol: Protocol, bias?: Bias): fc.Arbitrary<unknown> =>
    entryOf(protocol).request(resolveBias(bias)),
  /** Whole responses as providers send them. */
  response: (protocol: Protocol, bias?: Bias): fc.Arbitrary<unknown> =>
    entryOf(protocol).response(resolveBias(bias)),
  /** Event sequences in the protocol's grammar, ending normally or cut off (chat's `[DONE]` as the string). */
  streamEvents: (protocol: Protocol, bias?: Bias): fc.Arbitrary<unknown[]> =>
    wellFormedStreamArb(protocol, entryOf(protocol), resolveBias(bias)),
  /** Any event sequence the event schema accepts: odd chunks and orders, error events. */
  anyStreamEvents: (protocol: Protocol, bias?: Bias): fc.Arbitrary<unknown[]> =>
    anyStreamArb(protocol, entryOf(protocol), resolveBias(bias)),
  /** Error bodies as providers send them. */
  errorBody: (protocol: Protocol): fc.Arbitrary<unknown> => entryOf(protocol).errorBody(),
  embeddingsRequest: (protocol: EmbeddingsProtocol): fc.Arbitrary<unknown> => embeddingsRequestArb(protocol),
  embeddingsResponse: (protocol: EmbeddingsProtocol): fc.Arbitrary<unknown> =>
    embeddingsResponseArb(protocol),
  /** A model list in one of the three list formats. */
  modelList: (format: models.ListFormat): fc.Arbitrary<unknown> => modelListArb(format),
  /** A catalogue entry (the input of `models.visibleModels`). */
  modelEntry: (): fc.Arbitrary<models.ModelEntry> => modelEntryArb,
  /**
   * `POST /music/audios` bodies: valid (default), or with `valid: false` breaking exactly one rule
   * (`rule`, or any of `musicRules`).
   */
  musicRequest: (options?: { valid?: boolean; rule?: MusicRule }): fc.Arbitrary<unknown> =>
    musicRequestArb(options),
  /** An SSE message `sse.format` accepts. */
  sseMessage: () => sseMessageArb,
  /** A raw SSE body written by hand: every line-end style, comments, fields without colon, a BOM. */
  sseBody: () => sseBodyArb,
  /** A stream sent as one JSON array: the body and the values it holds. */
  jsonArrayBody: () => jsonArrayBodyArb,
};
