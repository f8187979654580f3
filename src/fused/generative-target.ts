/**
 * What the fused paths toward generative share with its encoder (src/protocols/generative/config.ts):
 * the sampling ranges, the system text and a tool's schema, with the hub's losses word for word.
 */
import { isObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import type { RequestOf } from "../protocols";
import { toGenerativeSchema } from "../protocols/generative/adapter";

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
