/**
 * What the fused response paths toward responses share (chat-responses-response.ts,
 * messages-responses-response.ts): the output items and the envelope as the hub's encoder writes
 * them for another protocol's answer (src/protocols/responses/response.ts, output.ts, reasoning.ts,
 * usage.ts) — reasoning items with one summary part, text and refusals gathered into one message item
 * until a call or reasoning closes it, function calls with their derived ids, the status fields from the
 * common finish reason, usage with both detail objects — and the hub's words for what that loses.
 */
import { type Loss, loss } from "../common/loss";
import type { FinishReason } from "../common/model";
import { type ResolvedOptions, syntheticId } from "../common/options";
import { matchedStopDropped } from "../common/stop";
import type { ResponseOf } from "../protocols";
import { encodeResponsesStatus } from "../protocols/responses/adapter";

type ResponsesResponse = ResponseOf<"responses">;
type Node = Record<string, unknown>;

/** What the encoder reports for another provider's reasoning signature. */
export const reasoningSignatureDropped = (path: string): Loss =>
  loss(
    path,
    "dropped",
    "A reasoning signature is valid only at the provider that issued it and was dropped.",
  );

/** What the encoder reports for another provider's redacted (encrypted) reasoning. */
export const redactedDropped = (path: string): Loss =>
  loss(
    path,
    "dropped",
    "Redacted reasoning of another protocol has no place in a responses answer and was dropped.",
  );

/** What the encoder reports for another provider's thought signature on a text or a call. */
export const thoughtSignatureDropped = (path: string): Loss =>
  loss(path, "dropped", "A thought signature is valid only at the provider that issued it and was dropped.");

/** What the encoder reports for another protocol's citations. */
export const citationsDropped = (path: string, origin: string): Loss =>
  loss(path, "dropped", `Citations from the ${origin} protocol have no responses form and were dropped.`);

/** What the encoder reports for a call without an id (`path`: the call). */
export const callIdSynthesized = (path: string): Loss =>
  loss(`${path}/id`, "synthesized", "The tool call had no id; a deterministic one was made up.");

/**
 * The output items of a response being written, in the hub's order and with its ids: an item's id is
 * `<kind>_<prefix>_<response id>_<its place in the output>` (`itemId` in output.ts), the head made once.
 * Text and refusals go into one open message item, which a reasoning item or a call closes.
 */
export class OutputItems {
  readonly items: unknown[] = [];
  readonly #head: string;
  #content: unknown[] | undefined;
  #messageAt = 0;

  constructor(options: ResolvedOptions, responseId: string) {
    this.#head = syntheticId(options, responseId);
  }

  /** The id the hub derives for an item of `kind` at `place` in the output. */
  id(kind: string, place: number): string {
    return `${kind}_${this.#head}_${place}`;
  }

  /** The open message's content, opened (its id fixed by its place) on the first text or refusal. */
  #open(): unknown[] {
    if (this.#content !== undefined) return this.#content;
    this.#messageAt = this.items.length;
    this.#content = [];
    return this.#content;
  }

  /** Closes the open message item, if any. */
  #close(): void {
    const content = this.#content;
    if (content === undefined) return;
    this.items.push({
      id: this.id("msg", this.#messageAt),
      type: "message",
      status: "completed",
      content,
      role: "assistant",
    });
    this.#content = undefined;
  }

  text(text: string): void {
    this.#open().push({ type: "output_text", annotations: [], logprobs: [], text });
  }

  refusal(text: string): void {
    this.#open().push({ type: "refusal", refusal: text });
  }

  /** Another protocol's reasoning: one summary part (none for empty text), no signature. */
  reasoning(text: string): void {
    this.#close();
    this.items.push(this.#reasoningItem(text, this.items.length));
  }

  #reasoningItem(text: string, place: number): Node {
    return {
      id: this.id("rs", place),
      type: "reasoning",
      summary: text === "" ? [] : [{ type: "summary_text", text }],
    };
  }

  /**
   * Reasoning texts a reader pushed to `items` ahead of everything else (chat-response-fields.ts
   * `openParts` pushes a path's parts to the array it is given), made into reasoning items in place.
   */
  reasoningRead(): void {
    const items = this.items;
    for (let place = 0; place < items.length; place++) {
      items[place] = this.#reasoningItem(items[place] as string, place);
    }
  }

  /** A function call; a call without an id (`undefined`) gets the derived `call_id`. */
  call(callId: string | undefined, name: string, args: string): void {
    this.#close();
    const place = this.items.length;
    this.items.push({
      id: this.id("fc", place),
      type: "function_call",
      status: "completed",
      call_id: callId ?? this.id("call", place),
      name,
      arguments: args,
    });
  }

  /** The output list, the open message closed. */
  done(): unknown[] {
    this.#close();
    return this.items;
  }
}

/** Usage as the encoder writes another protocol's: both detail objects, 0 where the source said nothing. */
export function responsesUsage(
  input: number,
  output: number,
  total: number,
  read: number | undefined,
  write: number | undefined,
  reasoning: number | undefined,
): Node {
  const inputDetails: Node = { cached_tokens: read ?? 0 };
  if (write !== undefined) inputDetails.cache_write_tokens = write;
  return {
    input_tokens: input,
    input_tokens_details: inputDetails,
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning ?? 0 },
    total_tokens: total,
  };
}

/** The finish of the answer as the hub's common choice holds it. */
export type Finish = {
  readonly reason: FinishReason | undefined;
  /** The source's own value, for the loss message. */
  readonly raw: string | undefined;
  /** Where it is in the input. */
  readonly path: string;
  /** Where the input says which stop sequence matched, if it does (responses does not: a loss). */
  readonly stopPath?: string | undefined;
};

/**
 * The response as the encoder writes it, in its key order: the status fields from the finish reason
 * (approximated ones reported), `created_at` from the source or `options` (else 0, reported), the model,
 * the output, the usage (`null` when the source gave none).
 */
export function responsesEnvelope(
  id: string,
  created: number | undefined,
  model: string,
  finish: Finish,
  hasRefusal: boolean,
  output: unknown[],
  usage: Node | null,
  options: ResolvedOptions,
  losses: Loss[],
): ResponsesResponse {
  const mapped = encodeResponsesStatus(finish.reason, hasRefusal);
  if (mapped.approximated)
    losses.push(
      loss(
        finish.path,
        "approximated",
        `Finish reason \`${finish.raw ?? finish.reason}\` has no responses equivalent; status "${mapped.status}" was sent.`,
      ),
    );
  if (finish.stopPath !== undefined) losses.push(matchedStopDropped(finish.stopPath, "responses"));
  const at = created ?? options.created;
  if (at === undefined)
    losses.push(
      loss(
        "/created",
        "synthesized",
        "The response carries no creation time and `options.created` gives none; `created_at` was sent as 0.",
      ),
    );
  const incomplete = mapped.incomplete;
  return {
    id,
    object: "response",
    created_at: at ?? 0,
    status: mapped.status,
    error: null,
    incomplete_details: incomplete === undefined ? null : { reason: incomplete },
    model,
    output,
    usage,
  } as ResponsesResponse;
}
