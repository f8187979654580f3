/**
 * Shapes of generative requests the fused paths from generative take, for their differential tests:
 * exchanges of function calls and responses (ids given or derived, responses matched by name, with rare
 * breakage), function declarations and `toolConfig`, each with the edge values the hub handles itself.
 */
import fc from "fast-check";

type Raw = Record<string, unknown>;

/** `usual` mostly, each of `others` now and then. */
export const rare = <T>(usual: fc.Arbitrary<T>, ...others: fc.Arbitrary<T>[]): fc.Arbitrary<T> =>
  fc.oneof({ weight: 20, arbitrary: usual }, ...others.map((arbitrary) => ({ weight: 1, arbitrary })));

const names = ["get_weather", "search", "f"] as const;
const args = fc.constantFrom<Raw | undefined>(
  undefined,
  {},
  { city: "Paris" },
  { n: [1, 2], o: { p: null } },
);
const responseBody = fc.constantFrom<Raw>(
  { content: "sunny" },
  { content: "" },
  { error: "failed" },
  { error: { code: 1 } },
  { ok: true, rows: 3 },
  {},
  { content: 1 },
);

/**
 * An exchange of calls: a model turn of calls (ids given or derived, rarely text around them) and the
 * user turn of their responses (ids given or matched by name, usually in order), with rare breakage.
 */
export const exchange = fc
  .record({
    count: fc.integer({ min: 1, max: 3 }),
    named: fc.array(fc.constantFrom(...names), { minLength: 3, maxLength: 3 }),
    args: fc.array(args, { minLength: 3, maxLength: 3 }),
    bodies: fc.array(responseBody, { minLength: 3, maxLength: 3 }),
    ids: fc.constantFrom("given", "derived", "responses-only", "calls-only"),
    order: rare(fc.constant("in order"), fc.constant("reversed")),
    texts: rare(fc.constant("none"), fc.constant("before"), fc.constant("after")),
    broken: rare(
      fc.constant("none"),
      fc.constant("missing"),
      fc.constant("stray"),
      fc.constant("twice"),
      fc.constant("thought"),
      fc.constant("extra"),
      fc.constant("between"),
    ),
  })
  .map(({ count, named, args: given, bodies, ids, order, texts, broken }) => {
    const calls: Raw[] = [];
    const responses: Raw[] = [];
    for (let at = 0; at < count; at++) {
      const name = named[at] as string;
      const id = `c${at}`;
      const call: Raw = ids === "given" || ids === "calls-only" ? { id, name } : { name };
      const argValue = given[at];
      if (argValue !== undefined) call.args = argValue;
      calls.push({ functionCall: call });
      const response: Raw = ids === "given" || ids === "responses-only" ? { id, name } : { name };
      response.response = bodies[at];
      responses.push({ functionResponse: response });
    }
    if (order === "reversed") responses.reverse();
    if (texts === "before") calls.unshift({ text: "Let me look." });
    if (texts === "after") responses.push({ text: "and more" });
    if (broken === "missing") responses.pop();
    if (broken === "stray") responses.push({ functionResponse: { name: "other", response: {} } });
    if (broken === "twice") responses.push(responses[0] as Raw);
    if (broken === "thought") calls[0] = { ...(calls[0] as Raw), thoughtSignature: "sig" };
    if (broken === "extra")
      responses[0] = { functionResponse: { ...((responses[0] as Raw).functionResponse as Raw), will: 1 } };
    const turns: Raw[] = [
      { role: "model", parts: calls },
      { role: "user", parts: responses },
    ];
    if (broken === "between") turns.splice(1, 0, { role: "user", parts: [{ text: "wait" }] });
    return turns;
  });

/** A generative Schema (upper-case types), a JSON Schema as given, or none. */
const parameters = fc.constantFrom<Raw>(
  {
    parameters: {
      type: "OBJECT",
      properties: { city: { type: "STRING", nullable: true } },
      required: ["city"],
    },
  },
  {
    parameters: { type: "object", properties: { n: { type: "INTEGER", format: "enum", enum: ["1", "2"] } } },
  },
  { parameters: { type: "OBJECT" } },
  { parametersJsonSchema: { type: "object", properties: { a: { type: ["string", "null"] } } } },
  {},
);
const declaration = fc
  .record({
    name: fc.constantFrom(...names),
    description: fc.option(fc.constantFrom("Weather for a city.", ""), { nil: undefined }),
    parameters,
    odd: rare<Raw>(
      fc.constant({}),
      fc.constant({ behavior: "BLOCKING" }),
      fc.constant({ parameters: { type: "OBJECT" }, parametersJsonSchema: { type: "object" } }),
    ),
  })
  .map(({ name, description, parameters: schema, odd }) => ({
    name,
    ...(description === undefined ? {} : { description }),
    ...schema,
    ...odd,
  }));
export const tools = rare<unknown>(
  fc.array(declaration, { maxLength: 3 }).map((functionDeclarations) => [{ functionDeclarations }]),
  fc.constant([]),
  fc.constant([{}]),
  fc.constant([{ googleSearch: {} }]),
  fc.constant([{ function_declarations: [{ name: "f" }] }]),
  fc.constant([{ functionDeclarations: [{ name: "f" }] }, { functionDeclarations: [{ name: "g" }] }]),
);
export const toolConfig = rare<unknown>(
  fc
    .record(
      {
        mode: fc.constantFrom("AUTO", "ANY", "NONE", "auto", "MODE_UNSPECIFIED"),
        allowedFunctionNames: fc.array(fc.constantFrom(...names), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((functionCallingConfig) => ({ functionCallingConfig })),
  fc.constant({}),
  fc.constant({ functionCallingConfig: { mode: "VALIDATED" } }),
  fc.constant({ function_calling_config: { mode: "ANY" } }),
  fc.constant({ functionCallingConfig: { mode: "ANY" }, retrievalConfig: {} }),
);
