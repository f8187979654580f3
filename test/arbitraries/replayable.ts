/**
 * Responses a stream can carry, for the replay law, derived from each protocol's wire arbitrary so they
 * keep its odd shapes. Two limits of streams (documented on `replay`): a stream carries choice 0 only,
 * and every well-formed stream ends with a finish reason, so a response without one replays as finished.
 */
import type fc from "fast-check";
import { chatResponseArb } from "./chat";
import { generativeResponseArb } from "./generative";
import { messagesResponseArb } from "./messages";

export { responsesReplayableResponseArb } from "./responses";

type Json = Record<string, unknown>;

/** The figures every chat usage object has (required by the API), when the wire arbitrary left them out. */
const figures = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/**
 * One finished choice at index 0; `content` always present and usage with its figures, as in every chat
 * response (both required by the API).
 */
export const chatReplayableResponseArb: fc.Arbitrary<Json> = chatResponseArb
  .filter((body) => body.choices.length > 0 && body.choices[0]?.finish_reason != null)
  .map((body) => {
    const [first] = body.choices;
    const message = first?.message ?? { role: "assistant" };
    const usage = body.usage == null ? body.usage : { ...figures, ...body.usage };
    return {
      ...body,
      choices: [{ ...first, index: 0, message: { ...message, content: message.content ?? null } }],
      ...(usage === undefined ? {} : { usage }),
    };
  });

/** A messages response holds one message already (its stop reason is never null here). */
export const messagesReplayableResponseArb: fc.Arbitrary<Json> = messagesResponseArb;

/** One finished candidate (index 0 when given), or none when the prompt was blocked (never both). */
export const generativeReplayableResponseArb: fc.Arbitrary<Json> = generativeResponseArb
  .filter((body) =>
    body.candidates !== undefined && body.candidates.length > 0
      ? body.candidates[0]?.finishReason !== undefined && body.promptFeedback?.blockReason === undefined
      : body.promptFeedback?.blockReason !== undefined,
  )
  .map((body) => ({
    ...body,
    ...(body.candidates === undefined
      ? {}
      : {
          candidates: body.candidates
            .slice(0, 1)
            .map((candidate) => (candidate.index === undefined ? candidate : { ...candidate, index: 0 })),
        }),
  }));
