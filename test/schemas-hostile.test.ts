import { describe, expect, test } from "vitest";
import type { z } from "zod/v4";
import { chat, embeddings, generative, messages, models, music } from "../src/index";

// Every exported schema, fed what an attacker or a broken client sends: it answers with a zod
// result, never a crash or a hang.
const schemas: [string, z.ZodType][] = [
  ["chat.request", chat.request],
  ["chat.response", chat.response],
  ["chat.chunk", chat.chunk],
  ["chat.errorBody", chat.errorBody],
  ["messages.request", messages.request],
  ["messages.response", messages.response],
  ["messages.streamEvent", messages.streamEvent],
  ["messages.errorBody", messages.errorBody],
  ["generative.request", generative.request],
  ["generative.response", generative.response],
  ["generative.errorBody", generative.errorBody],
  ["embeddings.request", embeddings.request],
  ["embeddings.response", embeddings.response],
  ["models.chatList", models.chatList],
  ["models.messagesList", models.messagesList],
  ["models.generativeList", models.generativeList],
  ["models.chatModel", models.chatModel],
  ["music.audioRequest", music.audioRequest],
  ["music.task", music.task],
  ["music.tasksRequest", music.tasksRequest],
  ["music.lyricsRequest", music.lyricsRequest],
  ["music.uploadRequest", music.uploadRequest],
  ["music.personaRequest", music.personaRequest],
  ["music.errorBody", music.errorBody],
];

function deep(depth: number): unknown {
  let node: unknown = "leaf";
  for (let i = 0; i < depth; i++) node = { type: "object", properties: { a: node }, items: [node] };
  return node;
}

const big = "x".repeat(10_000_000);
const nested = deep(10_000);
const hostile: [string, unknown][] = [
  ["null", null],
  ["a string", "hello"],
  ["a number", 1],
  ["an array", [1, 2]],
  ["10 MB of text", big],
  [
    "10 MB of text in every common field",
    { model: big, messages: [{ role: "user", content: big }], contents: big, prompt: big },
  ],
  ["10,000-deep nesting", nested],
  [
    "10,000-deep nesting in every common field",
    {
      model: "m",
      max_tokens: 1,
      messages: [{ role: "user", content: [nested] }],
      contents: [{ role: "user", parts: [nested] }],
      tools: [nested],
      choices: [nested],
      candidates: [nested],
      data: [nested],
    },
  ],
];

describe.each(schemas)("%s", (_, schema) => {
  test.each(hostile)("answers %s with a result, not a crash", (_, input) => {
    const result = schema.safeParse(input);
    expect(typeof result.success).toBe("boolean");
  });
});
