/**
 * Translation is invisible to AI SDK users: the provider of the TARGET protocol, served the translated
 * body, reports the same text, client tool calls and finish reason as the provider of the SOURCE
 * protocol served the original body.
 */
import { describe, expect, test } from "vitest";
import { protocols, translateResponse } from "../../src/index";
import {
  type Protocol,
  readFixture,
  sseDataPayloads,
  type WiredEntry,
  wiredFixtures,
} from "../helpers/fixtures";
import {
  comparable,
  generateView,
  type SdkView,
  streamView,
  terminated,
  translateSse,
  type ViewField,
} from "./helpers";

type Exemption = { fixture: string; to?: Protocol; skip: ViewField[]; why: string };

/** Differences that are documented (a reported loss, a research rule) or the SDK's own, never silent. */
const exemptions: Exemption[] = [
  {
    fixture: "messages/response/anthropic-compaction.json",
    skip: ["text"],
    why: "the compaction block (/content/0) is reported dropped; the SDK shows its summary as text",
  },
  {
    fixture: "messages/stream/anthropic-compaction-cache-read.sse",
    skip: ["text"],
    why: "the compaction block is dropped (as reported for responses); the SDK shows its summary as text",
  },
  {
    fixture: "messages/response/anthropic-programmatic-tool-calling.json",
    skip: ["finishReason"],
    why: "`caller` is reported dropped, so code-called tool_use blocks become plain calls and F2 makes the finish tool-calls",
  },
  {
    fixture: "chat/response/snowflake-reasoning-details-signature.json",
    skip: ["finishReason"],
    why: 'the SDK reads finish_reason "" as other; the message holds a tool call, so F2 makes the finish tool-calls',
  },
  {
    fixture: "generative/response/vertex-model-armor-block.json",
    skip: ["finishReason"],
    why: "the SDK maps the unknown MODEL_ARMOR to other; the translation maps it to content_filter, its meaning",
  },
  {
    fixture: "generative/response/vertex-prompt-blocked-safety.json",
    to: "chat",
    skip: ["text"],
    why: "research F3: a blocked prompt becomes the refusal `Prompt blocked: SAFETY`, which the SDK reads as text",
  },
  {
    fixture: "generative/stream/gemini-prompt-blocked-safety.sse",
    to: "chat",
    skip: ["text"],
    why: "research F3, as for the response",
  },
  ...[
    "responses/response/openai-apply-patch.json",
    "responses/response/openai-local-shell.json",
    "responses/response/openai-shell.json",
    "responses/stream/openai-apply-patch.sse",
    "responses/stream/openai-shell-call.sse",
    "responses/stream/openai-shell-output.sse",
  ].map((fixture) => ({
    fixture,
    skip: ["toolCalls", "finishReason"] as ViewField[],
    why: "apply_patch, shell and local_shell calls are built-in tools the client runs, with no equivalent in the target: the item is reported dropped",
  })),
  {
    fixture: "responses/response/openai-background-queued.json",
    to: "chat",
    skip: ["finishReason"],
    why: "a queued background response has not finished: chat says so (finish_reason null, read as other); the responses provider reads it as stop",
  },
  {
    fixture: "responses/response/openai-background-queued.json",
    to: "generative",
    skip: ["finishReason"],
    why: "as for chat: no finishReason for an answer that has not finished",
  },
  {
    fixture: "chat/stream/openai-n3-multiple-choices.sse",
    skip: ["text"],
    why: "the SDK interleaves the deltas of all n=3 choices into one text; the translation keeps choice 0",
  },
];

function skipped(entry: WiredEntry, to: Protocol): ViewField[] {
  return exemptions
    .filter((e) => e.fixture === entry.path && (e.to === undefined || e.to === to))
    .flatMap((e) => e.skip);
}

function targets(entry: WiredEntry): Protocol[] {
  return protocols.filter((to) => to !== entry.protocol);
}

/**
 * The source view. The messages provider rejects one original body itself ("Tool call srvtoolu_… not
 * found": a pause_turn response whose server_tool_use has no result yet), so its view is read from
 * the fixture: its text blocks, no client calls, pause_turn → stop (as the SDK maps it). The OpenAI
 * provider rejects Mistral's content array ("Invalid JSON response": content expected a string): that view is read from the fixture too,
 * its text chunks (the thinking chunk is reasoning, not text), no calls, stop.
 */
/**
 * The view of a responses answer read from the body itself (its message text, function calls and
 * status, as the responses provider reads them), for recordings that provider rejects.
 */
function responsesBodyView(response: {
  status?: string;
  incomplete_details?: { reason?: string } | null;
  output: { type: string; name?: string; arguments?: string; content?: { type: string; text?: string }[] }[];
}): SdkView {
  const text = response.output
    .filter((item) => item.type === "message")
    .flatMap((item) => item.content ?? [])
    .flatMap((part) => (part.type === "output_text" && part.text !== undefined ? [part.text] : []))
    .join("");
  const toolCalls = response.output
    .filter((item) => item.type === "function_call")
    .map((item) => ({ toolName: item.name ?? "", input: JSON.parse(item.arguments ?? "{}") as unknown }));
  const reason = response.incomplete_details?.reason;
  const finishReason =
    reason === "max_output_tokens"
      ? "length"
      : reason === "content_filter"
        ? "content-filter"
        : toolCalls.length > 0
          ? "tool-calls"
          : "stop";
  return { text, toolCalls, finishReason };
}

/**
 * Recordings the AI SDK's responses provider itself cannot read, with what it says: items its schema
 * lacks (compaction, program), xAI citations without character offsets, and GitHub Copilot's item ids
 * that change between `added` and `done`. Their view is read from the recording.
 */
const unreadable: Record<string, RegExp> = {
  "responses/response/openai-compaction.json": /Invalid JSON response/,
  "responses/response/openai-program.json": /Invalid JSON response/,
  "responses/response/xai-web-search.json": /Invalid JSON response/,
  "responses/stream/github-copilot-id-rotation.sse": /summaryParts/,
  "responses/stream/xai-web-search.sse": /Type validation failed/,
};

async function sourceStreamView(entry: WiredEntry, body: string): Promise<SdkView> {
  const refused = unreadable[entry.path];
  if (refused === undefined) return streamSourceView(entry, body);
  // The provider reports it as a stream error, or its stream throws.
  const failure = await streamView(entry.protocol, body).then(
    (view) => view.error,
    (error: unknown) => String(error),
  );
  expect(failure).toMatch(refused);
  const events = sseDataPayloads(body)
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data));
  const final = events.find((event) => event.type === "response.completed");
  return responsesBodyView(final.response);
}

async function sourceView(entry: WiredEntry, body: string): Promise<SdkView> {
  const refused = unreadable[entry.path];
  if (refused !== undefined) {
    await expect(generateView(entry.protocol, body)).rejects.toThrow(refused);
    return responsesBodyView(JSON.parse(body));
  }
  if (entry.path === "chat/response/mistral-thinking.json") {
    await expect(generateView(entry.protocol, body)).rejects.toThrow(/Invalid JSON response/);
    const message = (
      JSON.parse(body) as { choices: { message: { content: { type: string; text?: string }[] } }[] }
    ).choices[0]?.message;
    const text = (message?.content ?? []).flatMap((part) =>
      part.type === "text" && part.text !== undefined ? [part.text] : [],
    );
    return { text: text.join(""), toolCalls: [], finishReason: "stop" };
  }
  if (entry.path !== "messages/response/anthropic-pause-turn-web-search.json")
    return generateView(entry.protocol, body);
  await expect(generateView(entry.protocol, body)).rejects.toThrow(/not found/);
  const content = (JSON.parse(body) as { content: { type: string; text?: string }[] }).content;
  const text = content.flatMap((block) =>
    block.type === "text" && block.text !== undefined ? [block.text] : [],
  );
  return { text: text.join(""), toolCalls: [], finishReason: "stop" };
}

describe("AI SDK providers read translated responses as they read the originals", () => {
  for (const entry of wiredFixtures("response")) {
    for (const to of targets(entry)) {
      test(`${entry.path} → ${to}`, async () => {
        const body = readFixture(entry);
        const expected = await sourceView(entry, body);
        const translated = translateResponse(entry.protocol, to, JSON.parse(body), { created: 1 });
        const actual = await generateView(to, JSON.stringify(translated.value));
        const skip = skipped(entry, to);
        expect(comparable(actual, skip)).toEqual(comparable(expected, skip));
      });
    }
  }
});

/**
 * The source view of a stream. The OpenAI provider rejects Mistral's content arrays in deltas as it does
 * in a response ("Type validation failed": content expected a string): that view is read from the
 * fixture, its text chunks (thinking chunks are reasoning, not text), no calls, its finish.
 */
async function streamSourceView(entry: WiredEntry, body: string): Promise<SdkView> {
  if (entry.path !== "chat/stream/mistral-reasoning.sse") return streamView(entry.protocol, body);
  expect((await streamView(entry.protocol, body)).error).toMatch(/Type validation failed/);
  let text = "";
  for (const data of sseDataPayloads(body)) {
    const chunk = JSON.parse(data) as { choices: { delta: { content?: unknown } }[] };
    const content = chunk.choices[0]?.delta.content;
    if (Array.isArray(content))
      for (const part of content as { type: string; text?: string }[])
        if (part.type === "text") text += part.text ?? "";
  }
  return { text, toolCalls: [], finishReason: "stop" };
}

/** Streams whose SSE carries an error event (the SDK's view of the source may not show it). */
const errorStreams = new Set([
  "messages/stream/anthropic-error-event-overloaded.sse",
  "chat/stream/openrouter-midstream-error.sse",
  "responses/stream/openai-error-insufficient-quota.sse",
]);

describe("AI SDK providers read translated event streams as they read the originals", () => {
  for (const entry of wiredFixtures("stream")) {
    for (const to of targets(entry)) {
      test(`${entry.path} → ${to}`, async () => {
        const body = readFixture(entry);
        const expected = await sourceStreamView(entry, terminated(body));
        const actual = await streamView(to, await translateSse(entry.protocol, to, body));
        const skip = skipped(entry, to);
        if (errorStreams.has(entry.path)) {
          // The target surfaces the error (X10); the finish then differs by design (none, error or the
          // finish seen before the error), so only what came before the error is compared.
          expect(actual.error).toBeDefined();
          if (expected.error === undefined) {
            // The chat provider parses an error chunk that still carries `choices` as a normal chunk.
            expect(entry.protocol).toBe("chat");
          }
          expect(comparable(actual, [...skip, "finishReason"])).toEqual(
            comparable(expected, [...skip, "finishReason"]),
          );
          return;
        }
        expect(actual.error).toBeUndefined();
        expect(expected.error).toBeUndefined();
        expect(comparable(actual, skip)).toEqual(comparable(expected, skip));
      });
    }
  }
});

test("every exemption names a fixture case that exists", () => {
  const paths = new Set(
    [...wiredFixtures("response"), ...wiredFixtures("stream")].map((entry) => entry.path),
  );
  for (const { fixture } of exemptions) expect(paths).toContain(fixture);
  for (const { why } of exemptions) expect(why.length).toBeGreaterThan(0);
});
