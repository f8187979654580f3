/**
 * The messages side of the fused response paths from messages (messages → chat, messages → responses):
 * the top of a messages response checked as the hub's decoder reads it, and the decoder's report of the
 * fields it does not know, node by node, in its words. A pointer is built only for a field reported.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { at } from "../common/pointer";

type Node = Record<string, unknown>;

/** The tool the messages encoder emulates a JSON response format with: the hub reads its call as text. */
export const JSON_TOOL = "json_tool_call";

/** A count the hub reads with `?? 0` or `!= null`: a number, null or absent. */
export const isCount = (value: unknown): value is number | null | undefined =>
  value === undefined || value === null || typeof value === "number";

const droppedField = (path: string, key: string, what: string): Loss =>
  loss(path, "dropped", `\`${key}\` of ${what} has no equivalent in the common model and was dropped.`);

/** The nodes whose unknown fields the hub's decoder reports, each with the keys it knows. */
export const BODY = 0;
export const TEXT = 1;
export const THINKING = 2;
export const REDACTED = 3;
export const TOOL_USE = 4;
export const USAGE = 5;
export type Kind = 0 | 1 | 2 | 3 | 4 | 5;

function isKnown(kind: Kind, key: string): boolean {
  switch (kind) {
    case BODY:
      return (
        key === "id" ||
        key === "type" ||
        key === "role" ||
        key === "model" ||
        key === "content" ||
        key === "stop_reason" ||
        key === "stop_sequence" ||
        key === "usage"
      );
    case TEXT:
      return key === "type" || key === "text" || key === "cache_control" || key === "citations";
    case THINKING:
      return key === "type" || key === "thinking" || key === "signature";
    case REDACTED:
      return key === "type" || key === "data";
    case TOOL_USE:
      return key === "type" || key === "id" || key === "name" || key === "input" || key === "cache_control";
    default:
      return (
        key === "input_tokens" ||
        key === "output_tokens" ||
        key === "cache_creation_input_tokens" ||
        key === "cache_read_input_tokens" ||
        key === "output_tokens_details"
      );
  }
}

const WHAT: readonly string[] = [
  "the response",
  "a text block",
  "a thinking block",
  "a redacted_thinking block",
  "a tool_use block",
  "`usage`",
];

/**
 * Reports each own key of `node` (the block at `index`, for blocks) that the hub's decoder does not
 * know, as it does; the pointer is built only for such a key.
 */
export function dropExtras(node: Node, kind: Kind, index: number, losses: Loss[]): void {
  for (const key in node) {
    if (isKnown(kind, key) || !Object.hasOwn(node, key)) continue;
    const base = kind === BODY ? "" : kind === USAGE ? "/usage" : `/content/${index}`;
    losses.push(droppedField(at(base, key), key, WHAT[kind] as string));
  }
}

/** Blocks only a request carries: the hub decodes them into parts no response encoder expects here. */
export const isRequestBlock = (type: string): boolean =>
  type === "image" || type === "document" || type === "tool_result";

/** The top of a messages response as the paths read it: its fields, and usage's counts checked. */
export type MessagesHead = {
  readonly body: Node;
  readonly id: string;
  readonly model: string;
  readonly content: readonly unknown[];
  readonly reason: string | null;
  readonly usage: Node;
  readonly input: number | null | undefined;
  readonly output: number;
  readonly write: number | null | undefined;
  readonly read: number | null | undefined;
  readonly thinkingTokens: number | null | undefined;
};

/** The top of `body`, or `undefined` for a value of a type the hub's decoder does not expect (unvalidated input). */
export function readMessagesHead(body: unknown): MessagesHead | undefined {
  if (!isObject(body)) return undefined;
  const id = body.id;
  const model = body.model;
  const content = body.content;
  const reason = body.stop_reason;
  const usage = body.usage;
  if (typeof id !== "string" || typeof model !== "string" || !Array.isArray(content)) return undefined;
  if ((reason !== null && typeof reason !== "string") || !isObject(usage)) return undefined;
  const input = usage.input_tokens;
  const output = usage.output_tokens;
  const write = usage.cache_creation_input_tokens;
  const read = usage.cache_read_input_tokens;
  const outputDetails = usage.output_tokens_details;
  if (typeof output !== "number" || !isCount(input) || !isCount(write) || !isCount(read)) return undefined;
  if (outputDetails != null && !isObject(outputDetails)) return undefined;
  const thinkingTokens = outputDetails?.thinking_tokens;
  if (!isCount(thinkingTokens)) return undefined;
  return { body, id, model, content, reason, usage, input, output, write, read, thinkingTokens };
}
