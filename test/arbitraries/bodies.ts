/** Each protocol's request and response arbitraries, by protocol (as streams.ts does for streams). */
import type fc from "fast-check";
import type { Protocol } from "../../src/index";
import { chatRequestArb, chatResponseArb } from "./chat";
import { generativeRequestArb, generativeResponseArb } from "./generative";
import { messagesRequestArb, messagesResponseArb } from "./messages";
import { responsesRequestArb, responsesResponseArb } from "./responses";

export const requestArbs: Record<Protocol, fc.Arbitrary<unknown>> = {
  chat: chatRequestArb,
  messages: messagesRequestArb,
  generative: generativeRequestArb,
  responses: responsesRequestArb,
};

export const responseArbs: Record<Protocol, fc.Arbitrary<unknown>> = {
  chat: chatResponseArb,
  messages: messagesResponseArb,
  generative: generativeResponseArb,
  responses: responsesResponseArb,
};
