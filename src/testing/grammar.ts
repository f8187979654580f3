/**
 * Event grammars the official clients expect, checked over a whole
 * emitted sequence. Each checker returns the violations it found; an empty list means well-formed.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** chat: role first, tool-call deltas keyed by index (first carries id/name), one finish, usage after, then [DONE]. */
export function chatGrammar(events: readonly unknown[]): string[] {
  const problems: string[] = [];
  let sawRole = false;
  let finished = false;
  let done = false;
  let errored = false;
  const toolIds = new Map<number, string>();
  events.forEach((event, position) => {
    if (done) problems.push(`event ${position} after [DONE]`);
    if (errored) problems.push(`event ${position} after an error event`);
    if (event === "[DONE]") {
      done = true;
      return;
    }
    if (!isObject(event)) {
      problems.push(`event ${position} is neither a chunk nor [DONE]`);
      return;
    }
    if (isObject(event.error)) {
      errored = true;
      return;
    }
    const choices = Array.isArray(event.choices) ? event.choices : [];
    if (choices.length === 0) {
      if (!isObject(event.usage)) problems.push(`event ${position} has no choices and no usage`);
      return;
    }
    for (const choice of choices) {
      if (!isObject(choice)) continue;
      const delta = isObject(choice.delta) ? choice.delta : {};
      if (!sawRole) {
        if (delta.role !== "assistant")
          problems.push(`first chunk (event ${position}) lacks delta.role "assistant"`);
        sawRole = true;
      }
      if (finished && Object.keys(delta).length > 0)
        problems.push(`delta after finish_reason at event ${position}`);
      const calls = Array.isArray(delta.tool_calls) ? delta.tool_calls : [];
      for (const call of calls) {
        if (!isObject(call) || typeof call.index !== "number") {
          problems.push(`tool-call delta without index at event ${position}`);
          continue;
        }
        const fn = isObject(call.function) ? call.function : {};
        if (!toolIds.has(call.index)) {
          if (typeof call.id !== "string" || call.id === "" || typeof fn.name !== "string") {
            problems.push(`first delta of tool call ${call.index} lacks id or name (event ${position})`);
          }
          toolIds.set(call.index, String(call.id));
        } else if (call.id !== undefined && call.id !== toolIds.get(call.index)) {
          problems.push(`tool call ${call.index} changes id at event ${position}`);
        }
      }
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
        if (finished) problems.push(`second finish_reason at event ${position}`);
        finished = true;
      }
    }
  });
  if (!errored && !done) problems.push("stream does not end with [DONE]");
  if (!errored && !finished) problems.push("no chunk carries a finish_reason");
  return problems;
}

/** messages: message_start, blocks start/delta/stop one at a time with indices 0..n-1, message_delta, message_stop. */
export function messagesGrammar(events: readonly unknown[]): string[] {
  const problems: string[] = [];
  type State = "before" | "open" | "delta" | "stopped" | "errored";
  let state = "before" as State;
  let openBlock: number | undefined;
  let nextIndex = 0;
  events.forEach((event, position) => {
    const type = isObject(event) ? event.type : undefined;
    if (state === "stopped" || state === "errored")
      problems.push(`event ${position} (${String(type)}) after the end`);
    switch (type) {
      case "ping":
        return;
      case "error":
        state = "errored";
        return;
      case "message_start":
        if (state !== "before") problems.push(`message_start at event ${position} is not first`);
        state = "open";
        return;
      case "content_block_start": {
        const index = isObject(event) ? event.index : undefined;
        if (state !== "open")
          problems.push(`content_block_start at event ${position} outside an open message`);
        if (openBlock !== undefined)
          problems.push(`block ${String(index)} starts while block ${openBlock} is open`);
        if (index !== nextIndex)
          problems.push(`block index ${String(index)} at event ${position}, expected ${nextIndex}`);
        openBlock = typeof index === "number" ? index : undefined;
        nextIndex++;
        return;
      }
      case "content_block_delta":
        if (!isObject(event) || event.index !== openBlock)
          problems.push(`delta for a block that is not open at event ${position}`);
        return;
      case "content_block_stop":
        if (!isObject(event) || event.index !== openBlock)
          problems.push(`stop for a block that is not open at event ${position}`);
        openBlock = undefined;
        return;
      case "message_delta":
        if (openBlock !== undefined) problems.push(`message_delta while block ${openBlock} is open`);
        if (state !== "open") problems.push(`message_delta at event ${position} in state ${state}`);
        state = "delta";
        return;
      case "message_stop":
        if (state !== "delta")
          problems.push(`message_stop at event ${position} without message_delta before it`);
        state = "stopped";
        return;
      default:
        problems.push(`unknown event type ${String(type)} at event ${position}`);
    }
  });
  if (state !== "stopped" && state !== "errored")
    problems.push(`stream ends in state ${state}, without message_stop`);
  return problems;
}

/** generative: every event a response object; the finishReason on the last candidate chunk only; or a final error. */
export function generativeGrammar(events: readonly unknown[]): string[] {
  const problems: string[] = [];
  let finished = false;
  let errored = false;
  events.forEach((event, position) => {
    if (errored) problems.push(`event ${position} after an error`);
    if (!isObject(event)) {
      problems.push(`event ${position} is not an object`);
      return;
    }
    if (isObject(event.error)) {
      errored = true;
      return;
    }
    const candidates = Array.isArray(event.candidates) ? event.candidates : [];
    for (const candidate of candidates) {
      if (!isObject(candidate)) continue;
      if (finished) problems.push(`candidate content after the finishing chunk at event ${position}`);
      if (typeof candidate.finishReason === "string" && candidate.finishReason !== "") finished = true;
    }
    if (candidates.length === 0 && !isObject(event.usageMetadata) && !isObject(event.promptFeedback)) {
      problems.push(`event ${position} carries neither candidates, usage nor promptFeedback`);
    }
  });
  const last = events.at(-1);
  const blocked =
    isObject(last) && isObject(last.promptFeedback) && typeof last.promptFeedback.blockReason === "string";
  if (!errored && !finished && !blocked) problems.push("no chunk carries a finishReason");
  return problems;
}

type OpenItem = { type: string; parts: string[]; summaries: number; closed: boolean };

/**
 * responses: `sequence_number` counts every event from 0; `response.created` first; items are added at
 * the next `output_index` and every event about an item (its content parts, deltas, summary parts)
 * names one that is added and not done; every item is done before the final event; exactly one final
 * event (`response.completed` / `incomplete` / `failed`) ends the stream, its status matching its type
 * and its output holding every item; after an `error` event only `response.failed` may follow.
 */
export function responsesGrammar(events: readonly unknown[]): string[] {
  const problems: string[] = [];
  const items: OpenItem[] = [];
  let ended = false;
  let errored = false;
  const itemOf = (event: Json, position: number): OpenItem | undefined => {
    const item = typeof event.output_index === "number" ? items[event.output_index] : undefined;
    if (item === undefined || item.closed) {
      problems.push(
        `${String(event.type)} at event ${position} names output ${String(event.output_index)}, which is not open`,
      );
      return undefined;
    }
    return item;
  };
  events.forEach((event, position) => {
    if (!isObject(event) || typeof event.type !== "string") {
      problems.push(`event ${position} is not an event object`);
      return;
    }
    const type = event.type;
    if (event.sequence_number !== position)
      problems.push(`event ${position} has sequence_number ${String(event.sequence_number)}`);
    if (ended) problems.push(`${type} at event ${position} after the final event`);
    if (errored && type !== "response.failed")
      problems.push(`${type} at event ${position} after an error event`);
    if (position === 0 && type !== "response.created")
      problems.push(`the first event is ${type}, not response.created`);
    switch (type) {
      case "response.created":
      case "response.in_progress":
      case "response.queued":
        if (position > 1) problems.push(`${type} at event ${position}`);
        return;
      case "error":
        errored = true;
        return;
      case "response.completed":
      case "response.incomplete":
      case "response.failed": {
        ended = true;
        const response = isObject(event.response) ? event.response : {};
        const status = type.slice("response.".length);
        if (type !== "response.completed" && response.status !== status)
          problems.push(`${type} carries status ${String(response.status)}`);
        if (
          type === "response.completed" &&
          (response.status === "incomplete" || response.status === "failed")
        )
          problems.push(`response.completed carries status ${String(response.status)}`);
        const open = items.filter((item) => !item.closed).length;
        if (open > 0 && !errored && type !== "response.failed")
          problems.push(`${open} items still open at ${type}`);
        // A failed response need not list what was streamed before the failure (OpenAI's failed
        // responses list what the service kept; a gateway ending a cut-off stream knows none).
        const output = Array.isArray(response.output) ? response.output : [];
        const done = items.filter((item) => item.closed).length;
        if (output.length !== done && type !== "response.failed")
          problems.push(`${type} holds ${output.length} items, ${done} were done`);
        return;
      }
      case "response.output_item.added": {
        const item = isObject(event.item) ? event.item : {};
        if (event.output_index !== items.length)
          problems.push(`item added at output ${String(event.output_index)}, expected ${items.length}`);
        items.push({ type: String(item.type), parts: [], summaries: 0, closed: false });
        return;
      }
      case "response.output_item.done": {
        const item = itemOf(event, position);
        if (item === undefined) return;
        const done = isObject(event.item) ? event.item : {};
        if (done.type !== item.type)
          problems.push(`item ${String(event.output_index)} is done as ${String(done.type)}`);
        item.closed = true;
        return;
      }
      case "response.content_part.added": {
        const item = itemOf(event, position);
        if (item === undefined) return;
        if (event.content_index !== item.parts.length)
          problems.push(
            `content part ${String(event.content_index)} added at event ${position}, expected ${item.parts.length}`,
          );
        item.parts.push(isObject(event.part) ? String(event.part.type) : "?");
        return;
      }
      case "response.content_part.done":
      case "response.output_text.delta":
      case "response.output_text.done":
      case "response.output_text.annotation.added":
      case "response.refusal.delta":
      case "response.refusal.done":
      case "response.reasoning_text.delta":
      case "response.reasoning_text.done": {
        const item = itemOf(event, position);
        const part = typeof event.content_index === "number" ? item?.parts[event.content_index] : undefined;
        if (item !== undefined && part === undefined)
          problems.push(
            `${type} at event ${position} names content part ${String(event.content_index)}, which was not added`,
          );
        const expected = type.includes("output_text")
          ? "output_text"
          : type.includes("refusal")
            ? "refusal"
            : type.includes("reasoning")
              ? "reasoning_text"
              : part;
        if (part !== undefined && part !== expected)
          problems.push(`${type} at event ${position} is for a ${part} part`);
        return;
      }
      case "response.function_call_arguments.delta":
      case "response.function_call_arguments.done": {
        const item = itemOf(event, position);
        if (item !== undefined && item.type !== "function_call")
          problems.push(`${type} for a ${item.type} item`);
        return;
      }
      case "response.custom_tool_call_input.delta":
      case "response.custom_tool_call_input.done": {
        const item = itemOf(event, position);
        if (item !== undefined && item.type !== "custom_tool_call")
          problems.push(`${type} for a ${item.type} item`);
        return;
      }
      case "response.reasoning_summary_part.added": {
        const item = itemOf(event, position);
        if (item === undefined) return;
        if (event.summary_index !== item.summaries)
          problems.push(`summary part ${String(event.summary_index)} added, expected ${item.summaries}`);
        item.summaries++;
        return;
      }
      case "response.reasoning_summary_part.done":
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_summary_text.done": {
        const item = itemOf(event, position);
        if (
          item !== undefined &&
          (typeof event.summary_index !== "number" || event.summary_index >= item.summaries)
        )
          problems.push(
            `${type} at event ${position} names summary part ${String(event.summary_index)}, which was not added`,
          );
        return;
      }
      default:
        problems.push(`event type ${type} at event ${position} is not one this library sends`);
    }
  });
  if (!ended) problems.push("the stream has no final event (response.completed, incomplete or failed)");
  return problems;
}
