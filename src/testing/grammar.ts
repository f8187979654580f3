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
