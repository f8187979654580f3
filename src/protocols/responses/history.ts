/**
 * What a gateway stores to serve a later request that names this response by `previous_response_id`:
 * the library keeps no state, and a translated request needs the earlier items in `options.history`.
 * @see https://platform.openai.com/docs/guides/conversation-state
 */
import type { InputItem, Request, Response } from "./schema";

/**
 * The items a request and its response add to a conversation, to store under `response.id`: the
 * earlier history the request continued (when it named one), the request's `input` (a string input as
 * one user message) and the response's output items, which are valid input items as they are.
 * `instructions` are not among them: they do not carry over to the next response (as the service does).
 *
 * @example
 * const stored = responses.historyOf(request, response, history);   // store under response.id
 * translateRequest("responses", "messages", next, { history: stored }); // next.previous_response_id === response.id
 */
export function historyOf(
  request: Request,
  response: Response,
  history: readonly unknown[] = [],
): InputItem[] {
  const items: InputItem[] = [...(history as readonly InputItem[])];
  const input = request.input;
  if (typeof input === "string") items.push({ role: "user", content: input });
  else if (input !== undefined) items.push(...input);
  items.push(...(response.output as InputItem[]));
  return items;
}
