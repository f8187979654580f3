import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { TranslationError } from "../../../src/common/errors";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import { decodeMessagesError, encodeMessagesError } from "../../../src/protocols/messages/error";
import { decodeMessagesRequest, encodeMessagesRequest } from "../../../src/protocols/messages/request";
import { decodeMessagesResponse, encodeMessagesResponse } from "../../../src/protocols/messages/response";
import * as messages from "../../../src/protocols/messages/schema";
import { messagesStreamDecoder } from "../../../src/protocols/messages/stream-decode";
import { messagesStreamEncoder } from "../../../src/protocols/messages/stream-encode";
import {
  messagesErrorBodyArb,
  messagesRequestArb,
  messagesResponseArb,
  messagesStreamArb,
} from "../../../src/testing/arbitraries/messages";
import { messagesGrammar } from "../../../src/testing/grammar";
import { endOnce, stepOnce } from "../../helpers/reducer";

const options = resolveOptions({ idPrefix: "gp" });

/** Runs events through the decoder then the encoder, as a stream translator would. */
function roundTrip(events: readonly unknown[]) {
  const decoder = messagesStreamDecoder(options);
  const encoder = messagesStreamEncoder(options);
  let decoded = decoder.initial;
  let encoded = encoder.initial;
  const out: messages.StreamEvent[] = [];
  const feed = (parts: readonly common.StreamPart[]) => {
    for (const part of parts) {
      const step = stepOnce(encoder, encoded, part);
      encoded = step.state;
      out.push(...step.out);
    }
  };
  for (const event of events) {
    const step = stepOnce(decoder, decoded, messages.streamEvent.parse(event));
    decoded = step.state;
    feed(step.out);
  }
  const ending = endOnce(decoder, decoded);
  feed(ending.out);
  out.push(...endOnce(encoder, encoded).out);
  return out;
}

describe("messages converters are total on schema-valid input", () => {
  test("decoding then encoding a request never throws (but TranslationError) and the output parses", () => {
    fc.assert(
      fc.property(messagesRequestArb, (body) => {
        const decoded = decodeMessagesRequest(messages.request.parse(body), options);
        try {
          const encoded = encodeMessagesRequest(decoded.value, options);
          expect(messages.request.safeParse(encoded.value).error?.issues ?? []).toEqual([]);
        } catch (error) {
          expect(error).toBeInstanceOf(TranslationError);
        }
      }),
    );
  });

  test("a decoded response encodes back to itself", () => {
    fc.assert(
      fc.property(messagesResponseArb, (body) => {
        const input = messages.response.parse(body);
        expect(encodeMessagesResponse(decodeMessagesResponse(input, options).value, options).value).toEqual(
          input,
        );
      }),
    );
  });

  test("decoding then encoding an error body keeps its type, message and status", () => {
    fc.assert(
      fc.property(messagesErrorBodyArb, fc.constantFrom(400, 401, 429, 500, 529), (body, status) => {
        const info = decodeMessagesError({ status, body });
        const encoded = encodeMessagesError(info);
        expect(messages.errorBody.safeParse(encoded.body).success).toBe(true);
        expect(encoded.body.error.message).toBe(info.message);
      }),
    );
  });

  test("decoding any JSON as an error never throws", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.integer({ min: 0, max: 999 }),
        (body, status) => void decodeMessagesError({ status, body }),
      ),
    );
  });

  test("a decoded and re-encoded stream follows the messages grammar and keeps the text", () => {
    fc.assert(
      fc.property(messagesStreamArb, (events) => {
        const out = roundTrip(events);
        expect(messagesGrammar(out)).toEqual([]);
        for (const event of out) expect(messages.streamEvent.safeParse(event).success).toBe(true);
        const text = (list: readonly unknown[]) =>
          list.map((event) => (event as { delta?: { text?: string } }).delta?.text ?? "").join("");
        expect(text(out)).toBe(text(events));
      }),
    );
  });
});
