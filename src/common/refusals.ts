/**
 * What a service refuses in a request its schema accepts, read on the decoded request by the rules the
 * request encoders enforce (`tool-pairing.ts`): each tool call answered where the encoder answers the
 * calls left without a result (chat, messages, responses), each result answering a call where the
 * encoder refuses one that does not (messages, generative, responses) — by id, or by name for parts
 * without one — and a conversation that starts with a user turn where the encoder inserts one
 * (messages, generative). Each adapter's `requestRefusals` applies it to its own bodies.
 */
import type * as common from "./model";
import { findToolPairingProblems, type PairingRules } from "./tool-pairing";

/** One thing a service refuses in a request, with the pointer of the part at fault. */
export type RequestRefusal = { readonly path: string; readonly message: string };

/** The rules of a protocol's service: which side of tool pairing it holds to, and its first turn. */
export type RefusalRules = PairingRules & {
  /** The pointer of the conversation, when the service needs it to start with a user turn. */
  readonly userFirst?: string;
};

/** Every refusal of `request` under `rules`, in the order of the conversation; [] when the service takes it. */
export function requestRefusals(request: common.Request, rules: RefusalRules): RequestRefusal[] {
  const refusals: RequestRefusal[] = [];
  if (rules.userFirst !== undefined) {
    const first = request.messages[0];
    if (first === undefined) {
      refusals.push({
        path: rules.userFirst,
        message: "the conversation is empty: the service needs a user turn first",
      });
    } else if (first.role !== "user") {
      refusals.push({
        path: first.source,
        message: `the conversation starts with an ${first.role} turn: the service needs a user turn first`,
      });
    }
  }
  for (const problem of findToolPairingProblems(request, rules)) refusals.push(problem);
  for (const problem of unpairedWithoutIds(request, rules)) refusals.push(problem);
  return refusals;
}

/**
 * Calls and results without a call id (chat's legacy `function` messages, an empty id, generative before
 * Gemini 3), which `tool-pairing.ts` leaves alone, under the same rules: a result must answer, by name,
 * a call of the assistant turn before it that no other result answered, and a call must be answered
 * before the next assistant turn.
 */
function unpairedWithoutIds(request: common.Request, rules: PairingRules): RequestRefusal[] {
  const refusals: RequestRefusal[] = [];
  let open: { id?: string | undefined; name: string; source: string }[] = [];
  const unanswered = () => {
    if (!rules.calls) return;
    for (const call of open) {
      if (call.id === undefined) {
        refusals.push({
          path: call.source,
          message: `the tool call of ${JSON.stringify(call.name)} without a call id has no tool result`,
        });
      }
    }
  };
  let previous: common.Message["role"] | undefined;
  for (const message of request.messages) {
    if (message.role === "assistant" && previous !== "assistant") {
      unanswered();
      open = [];
    }
    for (const part of message.parts) {
      if (message.role === "assistant" && part.type === "tool-call" && part.server === undefined) {
        open.push({ id: part.id, name: part.name, source: part.source });
      } else if (part.type === "tool-result") {
        const { callId, name } = part;
        const index = open.findIndex((call) =>
          callId === undefined ? name === undefined || call.name === name : call.id === callId,
        );
        if (index >= 0) open.splice(index, 1);
        else if (callId === undefined && rules.results) {
          refusals.push({
            path: part.source,
            message: `the tool result without a call id${name === undefined ? "" : ` (of ${JSON.stringify(name)})`} answers no open call of the assistant turn before it`,
          });
        }
      }
    }
    previous = message.role;
  }
  unanswered();
  return refusals;
}
