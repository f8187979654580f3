/**
 * The official @google/genai SDK reads what our encoders produce: a whole response and an SSE stream,
 * served by a stubbed `fetch` (no network).
 */
import { type GenerateContentResponse, GoogleGenAI } from "@google/genai";
import { afterEach, describe, expect, test, vi } from "vitest";
import type * as common from "../../../src/common/model";
import { resolveOptions } from "../../../src/common/options";
import { encodeGenerativeResponse } from "../../../src/protocols/generative/response";
import type * as generative from "../../../src/protocols/generative/schema";
import { generativeStreamEncoder } from "../../../src/protocols/generative/stream-encode";
import { runAll } from "../../helpers/reducer";

const options = resolveOptions({ idPrefix: "gp" });

function serve(body: string, contentType: string): string[] {
  const urls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return new Response(body, { status: 200, headers: { "content-type": contentType } });
    }),
  );
  return urls;
}

function client(): GoogleGenAI {
  return new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: "http://local.test" } });
}

/**
 * The answer's text, read from the parts: the SDK's `text` getter prints a warning on stderr for a
 * response that also holds function calls (as these do), and the test output stays clean.
 */
function textOf(response: GenerateContentResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts
    .map((part) => (part.thought !== true && typeof part.text === "string" ? part.text : ""))
    .join("");
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("@google/genai reads our generative output", () => {
  test("generateContent: text, function calls and usage of an encoded response", async () => {
    const response: common.Response = {
      id: "chatcmpl-1",
      model: "gpt-x",
      choices: [
        {
          index: 0,
          parts: [
            { type: "text", text: "Checking the weather.", source: "/c/0" },
            {
              type: "tool-call",
              id: "call_1",
              name: "get_weather",
              arguments: { city: "Paris" },
              source: "/c/1",
            },
          ],
          finishReason: "tool-calls",
          source: "/choices/0",
        },
      ],
      usage: { inputTokens: 20, outputTokens: 7, cacheReadTokens: 5, totalTokens: 27, source: "/usage" },
    };
    const encoded = encodeGenerativeResponse(response, options).value;
    const urls = serve(JSON.stringify(encoded), "application/json");
    const result = await client().models.generateContent({
      model: "gemini-2.5-flash",
      contents: "weather in Paris?",
    });
    expect(urls[0]).toContain("http://local.test/");
    expect(urls[0]).toContain("models/gemini-2.5-flash:generateContent");
    expect(textOf(result)).toBe("Checking the weather.");
    expect(result.functionCalls).toEqual([{ id: "call_1", name: "get_weather", args: { city: "Paris" } }]);
    expect(result.usageMetadata).toMatchObject({
      promptTokenCount: 20,
      candidatesTokenCount: 7,
      cachedContentTokenCount: 5,
      totalTokenCount: 27,
    });
    expect(result.candidates?.[0]?.finishReason).toBe("STOP");
    expect(result.responseId).toBe("chatcmpl-1");
  });

  test("generateContentStream: every chunk of an encoded stream arrives, with the finish and usage last", async () => {
    const parts: common.StreamPart[] = [
      {
        type: "response-start",
        id: "msg_1",
        model: "claude-x",
        usage: { inputTokens: 10, outputTokens: 0, source: "" },
      },
      { type: "reasoning-start", index: 0, origin: "messages" },
      { type: "reasoning-delta", index: 0, text: "hm" },
      { type: "reasoning-end", index: 0 },
      { type: "text-start", index: 1 },
      { type: "text-delta", index: 1, text: "Hel" },
      { type: "text-delta", index: 1, text: "lo ✓" },
      { type: "text-end", index: 1 },
      { type: "tool-call-start", index: 2, id: "toolu_1", name: "f" },
      { type: "tool-call-delta", index: 2, argumentsText: '{"a":' },
      { type: "tool-call-delta", index: 2, argumentsText: "1}" },
      { type: "tool-call-end", index: 2 },
      { type: "finish", reason: "tool-calls", rawReason: "tool_use" },
      { type: "usage", usage: { inputTokens: 10, outputTokens: 20, source: "" } },
    ];
    const encoder = generativeStreamEncoder(options);
    const events: generative.StreamEvent[] = runAll(encoder, parts).out;
    const sse = events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join("");
    const urls = serve(sse, "text/event-stream");

    const chunks = [];
    for await (const chunk of await client().models.generateContentStream({
      model: "gemini-2.5-flash",
      contents: "hi",
    })) {
      chunks.push(chunk);
    }
    expect(urls[0]).toContain("streamGenerateContent");
    expect(urls[0]).toContain("alt=sse");
    expect(chunks).toHaveLength(events.length);
    expect(chunks.map(textOf).join("")).toBe("Hello ✓");
    expect(chunks.flatMap((chunk) => chunk.functionCalls ?? [])).toEqual([
      { id: "toolu_1", name: "f", args: { a: 1 } },
    ]);
    const last = chunks.at(-1);
    expect(last?.candidates?.[0]?.finishReason).toBe("STOP");
    expect(last?.usageMetadata).toMatchObject({
      promptTokenCount: 10,
      candidatesTokenCount: 20,
      totalTokenCount: 30,
    });
  });
});
