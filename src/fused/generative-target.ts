/**
 * What the fused paths toward generative share with its encoder (src/protocols/generative/config.ts,
 * contents-encode.ts, media.ts): the sampling ranges, the system text, a tool's schema, the image
 * types it takes and the order of function responses, with the hub's losses word for word.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { RequestOf } from "../protocols";
import { toGenerativeSchema } from "../protocols/generative/adapter";

/** Image types generative accepts (the hub drops others, with a loss of its own): the hub's table. */
export { IMAGE_TYPES } from "../protocols/generative/adapter";

/** A part as far as the order of function responses goes: generative's, or a fused path's record. */
type CallOrResponse = { readonly functionCall?: unknown; readonly functionResponse?: unknown };

/** The id of a part's `functionCall` or `functionResponse` (`undefined` when it has none). */
const idOf = (node: unknown): unknown => (node as { id?: unknown } | undefined)?.id;

/**
 * Whether each user turn's function responses come first, in the order of the calls of the turn before
 * it that they answer: the hub (contents-encode.ts `orderResults`) sorts them otherwise, and a fused
 * path hands such a body to it.
 */
export function resultsInOrder(
  turns: readonly { readonly role: string; readonly parts: readonly CallOrResponse[] }[],
): boolean {
  for (let index = 1; index < turns.length; index++) {
    const turn = turns[index] as (typeof turns)[number];
    if (turn.role !== "user") continue;
    const calls = (turns[index - 1] as (typeof turns)[number]).parts;
    let last = -1;
    for (const part of turn.parts) {
      const response = part.functionResponse;
      if (response === undefined) {
        last = Number.POSITIVE_INFINITY;
        continue;
      }
      const id = idOf(response);
      let position = calls.length;
      for (let at = 0; at < calls.length; at++)
        if (idOf((calls[at] as CallOrResponse).functionCall) === id) {
          position = at;
          break;
        }
      if (position < last) return false;
      last = position;
    }
  }
  return true;
}

/**
 * A sampling value clamped to generative's range 0–`high`, with the hub's loss when it moved; `name`
 * is the source's field (`temperature`, `top_p`), at the top level of the body.
 */
export function clampGenerative(value: number, high: number, name: string, losses: Loss[]): number {
  if (value >= 0 && value <= high) return value;
  const clamped = Math.min(high, Math.max(0, value));
  losses.push(
    loss(
      `/${name}`,
      "clamped",
      `${name} ${value} is outside generative's range 0–${high} and was clamped to ${clamped}.`,
    ),
  );
  return clamped;
}

/**
 * A system text into `system` (its part), with the hub's losses in `losses`: moved up when `late` (it
 * came after the conversation began), dropped when empty. `source` points at the text in the input.
 */
export function systemText(
  text: string,
  late: boolean,
  source: string,
  system: { text: string }[],
  losses: Loss[],
): void {
  if (late)
    losses.push(
      loss(
        source,
        "approximated",
        "A system message after the conversation began was moved into systemInstruction.",
      ),
    );
  if (text !== "") system.push({ text });
  else losses.push(loss(source, "dropped", "An empty system text has no generative part and was dropped."));
}

type Declaration = NonNullable<
  NonNullable<RequestOf<"generative">["tools"]>[number]["functionDeclarations"]
>[number];

/**
 * A tool's JSON Schema on its function declaration as the generative encoder puts it there, through the
 * hub's own converter (its losses into `losses`): converted as `parameters` (none for a schema that says
 * only "an object", which Gemini rejects), or as it is in `parametersJsonSchema` when it cannot convert.
 */
export function declareParameters(
  declaration: Declaration,
  parameters: unknown,
  source: string,
  losses: Loss[],
): void {
  const converted = toGenerativeSchema(parameters, source);
  const schema = converted.schema;
  if (converted.raw || schema === undefined) {
    declaration.parametersJsonSchema = parameters;
    return;
  }
  for (const entry of converted.losses) losses.push(entry);
  let count = 0;
  for (const _ in schema) count++;
  if (count === 0 || (count === 1 && schema.type === "object")) return;
  declaration.parameters =
    schema.type === undefined && isObject(schema.properties) ? { type: "object", ...schema } : schema;
}
