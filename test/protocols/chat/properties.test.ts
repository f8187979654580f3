import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { resolveOptions } from "../../../src/common/options";
import { resolvePointer } from "../../../src/common/pointer";
import { decodeChatRequest, encodeChatRequest } from "../../../src/protocols/chat/request";
import { decodeChatResponse, encodeChatResponse } from "../../../src/protocols/chat/response";
import * as chat from "../../../src/protocols/chat/schema";
import { chatStreamDecoder } from "../../../src/protocols/chat/stream-decode";
import { chatStreamEncoder } from "../../../src/protocols/chat/stream-encode";
import { chatRequestArb, chatResponseArb, chatStreamArb } from "../../../src/testing/arbitraries/chat";
import { runAll } from "../../helpers/reducer";

const options = resolveOptions({});

describe("chat converters on schema-valid input", () => {
  test("decoding and re-encoding a request never throws, gives a valid request, and every decoder loss resolves", () => {
    fc.assert(
      fc.property(chatRequestArb, (input) => {
        const body = chat.request.parse(input);
        const decoded = decodeChatRequest(body, options);
        for (const entry of decoded.losses) expect(resolvePointer(body, entry.path).found).toBe(true);
        const encoded = encodeChatRequest(decoded.value, options);
        expect(chat.request.safeParse(encoded.value).error?.issues ?? []).toEqual([]);
        expect(JSON.stringify(encodeChatRequest(decoded.value, options))).toBe(JSON.stringify(encoded));
      }),
    );
  });

  test("decoding and re-encoding a response never throws and gives a valid response", () => {
    fc.assert(
      fc.property(chatResponseArb, (input) => {
        const body = chat.response.parse(input);
        const decoded = decodeChatResponse(body, options);
        for (const entry of decoded.losses) expect(resolvePointer(body, entry.path).found).toBe(true);
        const encoded = encodeChatResponse(decoded.value, options);
        expect(chat.response.safeParse(encoded.value).error?.issues ?? []).toEqual([]);
        expect(encoded.value.choices.map((choice) => choice.message.content ?? null)).toEqual(
          body.choices.map((choice) => choice.message.content ?? null),
        );
      }),
    );
  });

  test("any stream decodes and re-encodes into valid chat events ending in DONE or an error", () => {
    fc.assert(
      fc.property(chatStreamArb, (events) => {
        const parsed = events.map((event) => chat.streamEvent.parse(event));
        const parts = runAll(chatStreamDecoder(options), parsed).out;
        const out = runAll(chatStreamEncoder(options), parts).out;
        for (const event of out) expect(chat.streamEvent.safeParse(event).success).toBe(true);
        const last = out.at(-1);
        expect(
          last === chat.DONE || (typeof last === "object" && "error" in last && !("choices" in last)),
        ).toBe(true);
      }),
    );
  });
});
