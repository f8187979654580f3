import { accumulate, createStreamTranslator, replay, translateRequest, translateResponse } from "./src/index";

const msg = {
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude",
  content: [
    { type: "thinking", thinking: "I should list.", signature: "EqSIGNATURE1" },
    { type: "text", text: "Listing." },
    { type: "tool_use", id: "toolu_01", name: "ls", input: { p: "." } },
    { type: "tool_use", id: "toolu_02", name: "cat", input: { p: "a" } },
  ],
  stop_reason: "tool_use",
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 2 },
};
for (const chatDialect of ["openai", "deepseek", "openrouter"] as const) {
  const r = translateResponse("messages", "chat", msg, { idPrefix: "x", created: 1, chatDialect });
  const t = createStreamTranslator("messages", "chat", { idPrefix: "x", created: 1, chatDialect });
  const out = [...replay("messages", msg as any).flatMap((e) => t.push(e as any)), ...t.end()];
  const acc = accumulate("chat", out as any);
  console.log(
    chatDialect,
    JSON.stringify(acc.choices) === JSON.stringify(r.value.choices),
    r.losses.map((l) => l.message),
    t.losses.map((l) => l.message),
  );
  const m = r.value.choices[0]!.message as any;
  console.log(JSON.stringify(m).slice(0, 400));
  const req = {
    model: "x",
    messages: [
      { role: "user", content: "go" },
      m,
      ...m.tool_calls.map((c: any) => ({ role: "tool", tool_call_id: c.id, content: "ok" })),
    ],
  };
  const back = translateRequest("chat", "messages", req, {
    targetModel: "claude-sonnet-4-5",
    maxTokens: 1000,
  });
  console.log(
    JSON.stringify(back.value.messages.slice(1)),
    back.losses.map((l) => l.path + " " + l.message),
  );
}
