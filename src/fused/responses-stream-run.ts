/**
 * The responses side of the fused stream paths from responses: a memo of the last text delta the hub
 * translated into one event, and the test of whether the next event continues it.
 *
 * Why skipping the hub is exact. A reducer returns its state itself when an input changed nothing
 * (reducer.ts), and is a pure function of its state and input. The responses decoder takes a
 * `response.output_text.delta` by its inline path when the content part at its `output_index` and
 * `content_index` is text already under way, and its `logprobs` are empty or the stream's first were
 * reported already: one `text-delta` part with the event's `delta` (none when it is empty), its state
 * returned as it was, no loss; it reads nothing else of the event (not its `sequence_number`,
 * `item_id` or `obfuscation`). Any other path copies the state (the stream's first logprobs are a
 * loss). So when the hub translated such an event into exactly one output event, both states
 * unchanged, the inline path ran, and a next `response.output_text.delta` at the same `output_index`
 * and `content_index` with another non-empty `delta` — and logprobs only if that one had them, when
 * they were reported already — meets the same states and makes the same part with the other text;
 * the target's encoder, whose event for a text delta continuing its block embeds the
 * text and depends on nothing else of it, makes the same event with that text. Anything else clears
 * the memo and goes to the hub. test/fused/streams.test.ts checks each path against the hub.
 */

const TEXT_DELTA = "response.output_text.delta";

type Delta = {
  type?: unknown;
  output_index?: unknown;
  content_index?: unknown;
  delta?: unknown;
  logprobs?: unknown;
};

/** The event carries token logprobs, a non-empty list (the decoder reports the stream's first as a loss). */
const hasLogprobs = (event: Delta): boolean => Array.isArray(event.logprobs) && event.logprobs.length > 0;

/** The memo of one stream. */
export type ResponsesRun = {
  /** The text of `input` when it continues the remembered delta (the memo then stays), else `undefined`. */
  next(input: unknown): string | undefined;
  /** Remembers `input` when it is a text delta carrying `text`, which the hub translated with both states unchanged. */
  remember(input: unknown, text: unknown): boolean;
};

export function responsesRun(): ResponsesRun {
  let remembered = false;
  let output: unknown;
  let content: unknown;
  /** The remembered delta had logprobs: the decoder had reported them already, as it kept its state. */
  let logprobs = false;
  return {
    next(input) {
      // Cleared until this event is taken here or the hub has translated it (`remember`).
      const known = remembered;
      remembered = false;
      if (!known || typeof input !== "object" || input === null) return undefined;
      const event = input as Delta;
      if (event.type !== TEXT_DELTA || event.output_index !== output || event.content_index !== content)
        return undefined;
      const text = event.delta;
      if (typeof text !== "string" || text === "") return undefined;
      if (!logprobs && hasLogprobs(event)) return undefined;
      remembered = true;
      return text;
    },
    remember(input, text) {
      if (typeof input !== "object" || input === null || typeof text !== "string" || text === "")
        return false;
      const event = input as Delta;
      if (event.type !== TEXT_DELTA || event.delta !== text) return false;
      if (typeof event.output_index !== "number" || typeof event.content_index !== "number") return false;
      remembered = true;
      output = event.output_index;
      content = event.content_index;
      logprobs = hasLogprobs(event);
      return true;
    },
  };
}
