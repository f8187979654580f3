/**
 * The pre-flight check every target needs: each tool call has exactly one result, in the
 * user turn(s) right after the assistant turn(s) that made it, and each result answers such a call.
 * Providers reject orphans with opaque 400s; this names the orphan id instead.
 */
import { TranslationError } from "./errors";
import type * as common from "./model";
import { parsePointer } from "./pointer";

export type ToolPairingProblem = { readonly message: string; readonly path: string };

/**
 * The first pairing problem of a request, or `undefined`. Calls without an id (generative before
 * Gemini 3) and server-side calls are not paired here: their results are matched by name or are opaque.
 */
export function findToolPairingProblem(request: common.Request): ToolPairingProblem | undefined {
  // One pass; the two collections are emptied (not rebuilt) at each new assistant turn.
  const pending = new Map<string, string>();
  const answered = new Set<string>();
  let previous: common.Message["role"] | undefined;
  for (const message of request.messages) {
    if (message.role === "assistant" && previous !== "assistant") {
      if (pending.size > 0) return orphanProblem(pending);
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
        else if (answered.has(part.callId)) {
          return { message: `tool call ${part.callId} has more than one tool result`, path: part.source };
        } else {
          return {
            message: `tool result for ${part.callId} answers no tool call of the assistant turn before it`,
            path: part.source,
          };
        }
      }
    }
    previous = message.role;
  }
  return pending.size > 0 ? orphanProblem(pending) : undefined;
}

/** The first call still waiting for its result. */
function orphanProblem(pending: ReadonlyMap<string, string>): ToolPairingProblem | undefined {
  for (const [id, path] of pending) return { message: `tool call ${id} has no tool result`, path };
  return undefined;
}

/** Throws a 400 `TranslationError` naming the orphan id when the calls and results of a request do not pair up. */
export function checkToolPairing(request: common.Request): void {
  const problem = findToolPairingProblem(request);
  if (problem === undefined) return;
  throw new TranslationError(problem.message, {
    status: 400,
    issues: [{ code: "tool_pairing", path: parsePointer(problem.path), message: problem.message }],
  });
}
