/**
 * The pre-flight check every target needs: each tool call has exactly one result, in the
 * user turn(s) right after the assistant turn(s) that made it, and each result answers such a call.
 * Providers reject orphans with opaque 400s; this names the orphan id instead.
 */
import { TranslationError } from "./errors";
import { type Loss, loss } from "./loss";
import type * as common from "./model";
import { parsePointer } from "./pointer";

export type ToolPairingProblem = { readonly message: string; readonly path: string };

/**
 * The first pairing problem of a request, or `undefined`. Calls without an id (generative before
 * Gemini 3) and server-side calls are not paired here: their results are matched by name or are opaque.
 */
export function findToolPairingProblem(request: common.Request): ToolPairingProblem | undefined {
  return pairsUp(request.messages) ? undefined : findToolPairingProblemByMaps(request);
}

/** Beyond this many results in one turn the quadratic scans of `pairsUp` give way to `findToolPairingProblemByMaps`. */
const MAX_SCANNED_RESULTS = 32;

/** The call with `id` among the assistant messages `from`…`to` (exclusive). */
function hasCall(messages: readonly common.Message[], from: number, to: number, id: string): boolean {
  for (let index = from; index < to; index++) {
    const parts = (messages[index] as common.Message).parts;
    for (let at = 0; at < parts.length; at++) {
      const part = parts[at] as common.Part;
      if (part.type === "tool-call" && part.server === undefined && part.id === id) return true;
    }
  }
  return false;
}

/** Whether a result for `id` comes before part `before` of message `to`, from message `from` on. */
function answeredBefore(
  messages: readonly common.Message[],
  from: number,
  to: number,
  before: number,
  id: string,
): boolean {
  for (let index = from; index <= to; index++) {
    const parts = (messages[index] as common.Message).parts;
    const end = index === to ? before : parts.length;
    for (let at = 0; at < end; at++) {
      const part = parts[at] as common.Part;
      if (part.type === "tool-result" && part.callId === id) return true;
    }
  }
  return false;
}

/**
 * The common case decided without allocating: every call of an assistant turn has a distinct id and
 * exactly one result in the messages before the next assistant turn, and every result answers one of
 * them. `false` whenever it is not sure (duplicate ids, a result in an assistant message, a long
 * turn): `findToolPairingProblemByMaps` then finds the problem, or none, exactly as it always did.
 */
function pairsUp(messages: readonly common.Message[]): boolean {
  let runStart = 0; // the current assistant turn: messages runStart…runEnd (exclusive)
  let runEnd = 0;
  let calls = 0; // calls with an id in that turn
  let answered = 0; // results for them since
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as common.Message;
    const parts = message.parts;
    if (message.role === "assistant") {
      if (runEnd !== index) {
        // A new assistant turn: the previous one must be fully answered.
        if (answered !== calls) return false;
        runStart = index;
        calls = 0;
        answered = 0;
      }
      runEnd = index + 1;
      for (let at = 0; at < parts.length; at++) {
        const part = parts[at] as common.Part;
        if (part.type === "tool-call") {
          if (part.server === undefined && part.id !== undefined) calls++;
        } else if (part.type === "tool-result" && part.callId !== undefined) return false;
      }
      continue;
    }
    for (let at = 0; at < parts.length; at++) {
      const part = parts[at] as common.Part;
      if (part.type !== "tool-result" || part.callId === undefined) continue;
      if (answered >= MAX_SCANNED_RESULTS || runEnd === runStart) return false;
      if (!hasCall(messages, runStart, runEnd, part.callId)) return false;
      if (answeredBefore(messages, runEnd, index, at, part.callId)) return false;
      answered++;
    }
  }
  return answered === calls;
}

/**
 * The first pairing problem, with a map of the calls waiting for results: the reference the
 * allocation-free `pairsUp` is tested against, and the path for everything it is not sure of.
 */
export function findToolPairingProblemByMaps(
  request: common.Request,
  /** Calls may go unanswered (generative takes them): only results are checked. */
  unanswered = false,
): ToolPairingProblem | undefined {
  let first: ToolPairingProblem | undefined;
  scanPairing(request, { calls: !unanswered, results: true }, (problem) => {
    first = problem;
    return false;
  });
  return first;
}

/** Which side of the pairing a target holds to: every call answered, every result answering a call. */
export type PairingRules = { readonly calls: boolean; readonly results: boolean };

/**
 * Every pairing problem of a request under `rules`, in the order of the conversation ([] when the calls
 * and results pair up): the rules the encoders enforce (`checkToolPairing`, `answerToolCalls`), read in
 * full rather than stopped at the first orphan.
 */
export function findToolPairingProblems(request: common.Request, rules: PairingRules): ToolPairingProblem[] {
  if (pairsUp(request.messages)) return [];
  const problems: ToolPairingProblem[] = [];
  scanPairing(request, rules, (problem) => {
    problems.push(problem);
    return true;
  });
  return problems;
}

/**
 * One pass over the conversation, telling `report` of each problem `rules` asks about until it answers
 * `false`; the two collections are emptied (not rebuilt) at each new assistant turn.
 */
function scanPairing(
  request: common.Request,
  rules: PairingRules,
  report: (problem: ToolPairingProblem) => boolean,
): void {
  const pending = new Map<string, string>();
  const answered = new Set<string>();
  let previous: common.Message["role"] | undefined;
  for (const message of request.messages) {
    if (message.role === "assistant" && previous !== "assistant") {
      if (rules.calls && !reportOrphans(pending, report)) return;
      pending.clear();
      if (answered.size > 0) answered.clear();
    }
    for (const part of message.parts) {
      if (
        message.role === "assistant" &&
        part.type === "tool-call" &&
        part.server === undefined &&
        part.id !== undefined
      ) {
        pending.set(part.id, part.source);
      } else if (part.type === "tool-result" && part.callId !== undefined) {
        if (pending.delete(part.callId)) answered.add(part.callId);
        else if (!rules.results) continue;
        else if (answered.has(part.callId)) {
          const message = `tool call ${part.callId} has more than one tool result`;
          if (!report({ message, path: part.source })) return;
        } else {
          const message = `tool result for ${part.callId} answers no tool call of the assistant turn before it`;
          if (!report({ message, path: part.source })) return;
        }
      }
    }
    previous = message.role;
  }
  if (rules.calls) reportOrphans(pending, report);
}

/** Reports each call still waiting for its result; `false` when `report` asked to stop. */
function reportOrphans(
  pending: ReadonlyMap<string, string>,
  report: (problem: ToolPairingProblem) => boolean,
): boolean {
  for (const [id, path] of pending) {
    if (!report({ message: `tool call ${id} has no tool result`, path })) return false;
  }
  return true;
}

/**
 * Throws a 400 `TranslationError` naming the orphan id when the calls and results of a request do not
 * pair up (`unanswered`: a call may go without a result, as generative takes it).
 */
export function checkToolPairing(request: common.Request, unanswered = false): void {
  const problem = unanswered
    ? pairsUp(request.messages)
      ? undefined
      : findToolPairingProblemByMaps(request, true)
    : findToolPairingProblem(request);
  if (problem === undefined) return;
  throw new TranslationError(problem.message, {
    status: 400,
    issues: [{ code: "tool_pairing", path: parsePointer(problem.path), message: problem.message }],
  });
}

/**
 * A request whose every tool call has its result, for a target that refuses an unanswered call (chat,
 * messages, responses): a call without one gets a synthesized result saying it was not answered, in
 * the user turn after its assistant turn (a new one when none follows), reported as synthesized.
 * A result that answers no call, or a second result of one call, is still a 400 (`checkToolPairing`),
 * unless `lenient`.
 */
export function answerToolCalls(
  request: common.Request,
  target: string,
  losses: Loss[],
  /** A result of no call passes (chat-compatible servers differ on it; chat never checked): no 400. */
  lenient = false,
): common.Request {
  const problem = findToolPairingProblem(request);
  if (problem === undefined && !hasCallWithoutId(request.messages)) return request;
  const messages = request.messages;
  const out: common.Message[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index] as common.Message;
    if (message.role !== "assistant") {
      out.push(message);
      index++;
      continue;
    }
    // An assistant run, then the user messages up to the next one.
    const calls: common.ToolCallPart[] = [];
    // Calls without an id (an empty chat id, generative before Gemini 3) get theirs from the encoder, and
    // results without one are matched to them by name, in order (as the encoders match them).
    const withoutId: common.ToolCallPart[] = [];
    while (index < messages.length && (messages[index] as common.Message).role === "assistant") {
      const turn = messages[index] as common.Message;
      for (const part of turn.parts) {
        if (part.type !== "tool-call" || part.server !== undefined) continue;
        (part.id === undefined ? withoutId : calls).push(part);
      }
      out.push(turn);
      index++;
    }
    const answered = new Set<string>();
    for (let next = index; next < messages.length; next++) {
      const turn = messages[next] as common.Message;
      if (turn.role === "assistant") break;
      for (const part of turn.parts) {
        if (part.type !== "tool-result") continue;
        if (part.callId !== undefined) answered.add(part.callId);
        else if (withoutId.length > 0) {
          const match = withoutId.findIndex((call) => part.name === undefined || call.name === part.name);
          withoutId.splice(match === -1 ? 0 : match, 1);
        }
      }
    }
    const missing = [...calls.filter((call) => !answered.has(call.id as string)), ...withoutId];
    if (missing.length === 0) continue;
    const results: common.ToolResultPart[] = missing.map((call) => {
      losses.push(
        loss(
          call.source,
          "synthesized",
          `The tool call ${call.id === undefined ? `of ${JSON.stringify(call.name)}` : JSON.stringify(call.id)} has no result, which ${target} refuses; a result saying it was not answered was added.`,
          "tool_result.synthesized",
        ),
      );
      return {
        type: "tool-result",
        callId: call.id,
        name: call.name,
        content: [{ type: "text", text: NOT_ANSWERED, source: call.source }],
        isError: true,
        source: call.source,
      };
    });
    const following = messages[index];
    if (following !== undefined && following.role === "user") {
      out.push({ ...following, parts: [...results, ...following.parts] });
      index++;
    } else out.push({ role: "user", parts: results, source: (missing[0] as common.ToolCallPart).source });
  }
  const answeredRequest = { ...request, messages: out };
  // What remains is a result of no call, or a call answered twice: the input's own error.
  if (!lenient) checkToolPairing(answeredRequest);
  return answeredRequest;
}

/** Whether a client tool call has no id (the encoder gives it one; its result is matched by name). */
function hasCallWithoutId(messages: readonly common.Message[]): boolean {
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const part of message.parts)
      if (part.type === "tool-call" && part.server === undefined && part.id === undefined) return true;
  }
  return false;
}

/** The text of a result synthesized for a call that was never answered. */
export const NOT_ANSWERED = "The tool call was not answered.";
