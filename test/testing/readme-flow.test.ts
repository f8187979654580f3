/**
 * The README's property-testing flow, as a user runs it: a small hand-written chat → messages
 * translator with two classic slips (an explicit `temperature: 0` dropped, a second tool result
 * overwriting the first), checked for its one direction with `checkTranslator` and asserted with
 * `assertLaws`. The failure names both slips with their pointers, and carries the seed, the path and
 * the shrunk input; the translator is never called on the direction it does not cover.
 */
import { expect, test } from "vitest";
import { assertLaws, checkTranslator, type LawResult } from "../../src/testing/index";

type ChatMessage = {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};
type ChatRequest = { model: string; messages: ChatMessage[]; temperature?: number; max_tokens?: number };
type Block = Record<string, unknown>;
type Loss = { path: string; kind: "synthesized"; message: string };

/** The README's translator, as written there (typed): a gateway's own chat → messages conversion. */
function toMessages(body: ChatRequest) {
  const losses: Loss[] = [];
  const system = body.messages.filter((m) => m.role === "system").map((m) => m.content);
  const messages: { role: string; content: unknown }[] = [];
  for (const m of body.messages) {
    if (m.role === "system") continue;
    if (m.role === "tool") {
      const result = { type: "tool_result", tool_use_id: m.tool_call_id, content: m.content };
      const last = messages.at(-1);
      if ((last?.content as Block[] | undefined)?.[0]?.type === "tool_result" && last !== undefined)
        last.content = [result]; // slip: replaces the result before
      else messages.push({ role: "user", content: [result] });
    } else if (m.role === "assistant") {
      const text = m.content ? [{ type: "text", text: m.content }] : [];
      const calls = (m.tool_calls ?? []).map((c) => ({
        type: "tool_use",
        id: c.id,
        name: c.function.name,
        input: JSON.parse(c.function.arguments || "{}"),
      }));
      messages.push({ role: "assistant", content: [...text, ...calls] });
    } else messages.push({ role: "user", content: m.content });
  }
  if (body.max_tokens === undefined)
    losses.push({ path: "/max_tokens", kind: "synthesized", message: "1024 was used." });
  return {
    value: {
      model: body.model,
      max_tokens: body.max_tokens ?? 1024,
      ...(system.length > 0 ? { system: system.join("\n") } : {}),
      ...(body.temperature ? { temperature: body.temperature } : {}), // slip: `0` is falsy, so dropped
      messages,
    },
    losses,
  };
}

test("checkTranslator + assertLaws on a hand-written chat → messages translator name both slips, with seed, path and input", async () => {
  const directions = new Set<string>();
  const results: LawResult[] = await checkTranslator(
    {
      translateRequest: (from, to, body) => {
        directions.add(`${from} → ${to}`);
        return toMessages(body as ChatRequest);
      },
    },
    {
      pairs: [["chat", "messages"]],
      laws: ["valid-output", "explicit-zeros", "round-trip"],
      numRuns: 200,
      seed: 4,
    },
  );
  expect([...directions]).toEqual(["chat → messages"]);
  let thrown: unknown;
  try {
    assertLaws(results);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(Error);
  const report = (thrown as Error).message;
  if (process.env.PRINT_REPORT) console.log(report);
  // The explicit zero: named, with its value, by the law about it.
  expect(report).toMatch(
    /explicit-zeros \(request, chat → messages\)\n.*: (\/temperature \(0\) was translated as if it were absent|\d+ given values were translated as if they were absent, and no loss names them: .*\/temperature \(0\))/,
  );
  // The overwritten result: the messages service would refuse the call left without it, or it is
  // missing on the way back (taken by the library's own messages → chat, as the statement says).
  expect(report).toMatch(
    /tool call \S+ has no tool result|came back different at \/messages\/\d+: missing \(expected \{.*"role":"tool"/,
  );
  expect(report).toContain("the way back by gateway-protocols' own translateRequest");
  // Every failure carries what replays it and the input it shrank to.
  const failures = report.split(/\n\n(?=\d+\. )/).slice(1);
  expect(failures.length).toBe(results.filter((result) => !result.ok).length);
  for (const failure of failures) {
    expect(failure).toMatch(
      /\(seed 4, path "\d+(:\d+)*", found at run \d+( after \d+ skipped)?, shrunk \d+ times?\)/,
    );
    expect(failure).toMatch(/\n {3}input \(shrunk\): \{/);
    expect(failure).toMatch(
      /\n {3}replay: checkTranslator\(translator, \{ seed: 4, laws: \["[\w-]+"\], pairs: \[\["chat", "messages"\]\] \}\)$/,
    );
  }
});
