import { describe, expect, test } from "vitest";
import {
  accumulate,
  createStreamTranslator,
  type Protocol,
  replay,
  translateResponse,
} from "../../src/index";
import { normalize } from "../../src/testing/normalize";

/** Counterexamples the stream laws shrank to (test/properties), pinned so they stay fixed without a seed. */
const options = { model: "m", idPrefix: "gp", created: 1_700_000_000 };
const chatHead = { id: "", object: "chat.completion", created: 0, model: "" };
const stop = (message: object) => [
  { index: 0, finish_reason: "stop", message: { role: "assistant", content: null, ...message } },
];

const replays: [string, Protocol, object][] = [
  ["chat: an empty id, model and created 0 are given values", "chat", { ...chatHead, choices: stop({}) }],
  [
    "chat: system_fingerprint and usage null come back",
    "chat",
    { ...chatHead, choices: stop({}), system_fingerprint: null, usage: null },
  ],
  [
    "chat: annotations [] and refusal null come back",
    "chat",
    { ...chatHead, choices: stop({ annotations: [], refusal: null }) },
  ],
  [
    "chat: annotations of a message without text come back",
    "chat",
    { ...chatHead, choices: stop({ annotations: [{ type: "url_citation", url_citation: { url: "" } }] }) },
  ],
  ["chat: an empty refusal comes back", "chat", { ...chatHead, choices: stop({ refusal: "" }) }],
  [
    "chat: a tool call with an empty id and a stop reason of `stop` come back as given",
    "chat",
    {
      ...chatHead,
      choices: stop({
        tool_calls: [{ id: "", type: "function", function: { name: "a", arguments: '{"a":1,' } }],
      }),
    },
  ],
  [
    "chat: usage details chat alone knows come back",
    "chat",
    {
      ...chatHead,
      choices: stop({}),
      usage: {
        prompt_tokens: 3,
        completion_tokens: 2,
        total_tokens: 5,
        prompt_tokens_details: { cached_tokens: 1, audio_tokens: 0 },
        completion_tokens_details: {},
      },
    },
  ],
  [
    "messages: a null cache figure in usage comes back (usage rides on message_start too, X12)",
    "messages",
    {
      id: "A",
      type: "message",
      role: "assistant",
      model: "",
      stop_reason: "end_turn",
      stop_sequence: null,
      content: [{ type: "web_search_tool_result", tool_use_id: "A", content: [] }],
      usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: null },
    },
  ],
  [
    "generative: a blocked prompt with `candidates: []` keeps the empty list",
    "generative",
    { candidates: [], promptFeedback: { blockReason: "SAFETY" } },
  ],
  [
    "generative: a function call without args stays without args",
    "generative",
    { candidates: [{ content: { parts: [{ functionCall: { name: "a" } }] }, finishReason: "STOP" }] },
  ],
  [
    "generative: content without a role keeps its shape",
    "generative",
    { candidates: [{ content: { parts: [{ text: "x" }] }, finishReason: "STOP" }] },
  ],
];

describe("replay examples", () => {
  test.each(replays)("%s", (_title, protocol, body) => {
    expect(normalize(accumulate(protocol, replay(protocol, body as never)))).toEqual(normalize(body));
  });
});

function commutes(from: Protocol, to: Protocol, events: unknown[]): void {
  const translator = createStreamTranslator(from, to, options);
  const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
  const viaResponse = translateResponse(from, to, accumulate(from, events as never, options), options).value;
  expect(normalize(accumulate(to, out as never, options))).toEqual(normalize(viaResponse));
}

const chunk = (delta: object, finish_reason: string | null = null) => ({
  ...chatHead,
  object: "chat.completion.chunk",
  choices: [{ index: 0, delta, finish_reason }],
});

describe("commutation examples", () => {
  test("chat → messages: an empty refusal delta is no refusal either way", () => {
    commutes("chat", "messages", [
      chunk({ role: "assistant", content: "" }),
      chunk({ refusal: "" }),
      chunk({ refusal: "" }, "stop"),
      "[DONE]",
    ]);
  });
  test("generative → chat and messages: a blocked prompt with an empty candidate is a refusal either way", () => {
    const events = [
      { candidates: [], promptFeedback: { blockReason: "SAFETY" } },
      { candidates: [{ finishReason: "STOP" }], promptFeedback: { blockReason: "SAFETY" } },
    ];
    commutes("generative", "chat", events);
    commutes("generative", "messages", events);
  });
  test("generative → chat: a streamed call that text interrupts keeps its arguments so far", () => {
    commutes("generative", "chat", [
      {
        candidates: [
          { content: { role: "model", parts: [{ functionCall: { name: "g", willContinue: true } }] } },
        ],
      },
      { candidates: [{ content: { parts: [{ text: " " }] }, finishReason: "MAX_TOKENS" }] },
    ]);
  });
  test("generative → messages: Vertex partial arguments are not lost when text follows", () => {
    commutes("generative", "messages", [
      {
        candidates: [
          {
            content: {
              role: "model",
              parts: [
                {
                  functionCall: {
                    partialArgs: [{ jsonPath: "$.a.b", stringValue: "x", willContinue: true }],
                    willContinue: true,
                  },
                },
              ],
            },
          },
        ],
      },
      { candidates: [{ content: { parts: [{ text: "ü✓" }] }, finishReason: "MAX_TOKENS" }] },
    ]);
  });
  test("generative → messages: thought counts that a later chunk no longer reports are not kept", () => {
    commutes("generative", "messages", [
      { candidates: [{ content: { parts: [{ text: " " }] } }], usageMetadata: { thoughtsTokenCount: 0 } },
      { candidates: [{ finishReason: "STOP" }], usageMetadata: {} },
    ]);
  });
});
