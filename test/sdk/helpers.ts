/**
 * The Vercel AI SDK providers as real clients of a translating gateway: each model is served one
 * fixed body through a stubbed `fetch` (no network), and what an SDK user sees is reduced to a view.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type LanguageModel, streamText } from "ai";
import { translateEventStream } from "../../src/index";
import type { Protocol } from "../helpers/fixtures";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** What an AI SDK user sees of one response: the fields a translation must leave unchanged. */
export type SdkView = {
  text: string;
  toolCalls: { toolName: string; input: unknown }[];
  finishReason: string;
  error?: string;
};

export type ViewField = "text" | "toolCalls" | "finishReason";

/** The AI SDK model of `protocol`, whose every HTTP call is answered with `body`. */
export function sdkModel(protocol: Protocol, body: string, stream: boolean): LanguageModel {
  const contentType = stream ? "text/event-stream" : "application/json";
  const fetch: typeof globalThis.fetch = async () =>
    new Response(body, { headers: { "content-type": contentType } });
  const common = { apiKey: "x", fetch };
  switch (protocol) {
    case "chat":
      return createOpenAI({ ...common, baseURL: "http://local.test/v1" }).chat("gpt-test");
    case "messages":
      return createAnthropic({ ...common, baseURL: "http://local.test/v1" })("claude-test");
    case "generative":
      return createGoogleGenerativeAI({ ...common, baseURL: "http://local.test/v1beta" })("gemini-test");
    case "responses":
      return createOpenAI({ ...common, baseURL: "http://local.test/v1" }).responses("gpt-test");
  }
}

type RawToolCall = { toolName: string; input: unknown; providerExecuted?: boolean };

/** Client tool calls only: provider-executed ones (web search, code execution) are not the user's to run. */
function clientToolCalls(calls: readonly RawToolCall[]): SdkView["toolCalls"] {
  return calls
    .filter((call) => call.providerExecuted !== true)
    .map(({ toolName, input }) => ({ toolName, input }));
}

const settings = { prompt: "hi", maxOutputTokens: 100, maxRetries: 0 } as const;

export async function generateView(protocol: Protocol, body: string): Promise<SdkView> {
  const result = await generateText({ ...settings, model: sdkModel(protocol, body, false) });
  return {
    text: result.text,
    toolCalls: clientToolCalls(result.toolCalls),
    finishReason: result.finishReason,
  };
}

export async function streamView(protocol: Protocol, body: string): Promise<SdkView> {
  let text = "";
  const toolCalls: RawToolCall[] = [];
  let finishReason = "none";
  let error: string | undefined;
  const result = streamText({ ...settings, model: sdkModel(protocol, body, true), onError: () => {} });
  for await (const part of result.fullStream) {
    if (part.type === "text-delta") text += part.text;
    else if (part.type === "tool-call") toolCalls.push(part);
    else if (part.type === "finish") finishReason = part.finishReason;
    else if (part.type === "error") error = String(part.error);
  }
  const view: SdkView = { text, toolCalls: clientToolCalls(toolCalls), finishReason };
  return error === undefined ? view : { ...view, error };
}

/** `translateEventStream` over a whole SSE body, collected back to text. */
export async function translateSse(from: Protocol, to: Protocol, body: string): Promise<string> {
  const input = new Response(body).body;
  if (input === null) throw new Error("no body");
  return new Response(translateEventStream(from, to, input)).text();
}

/**
 * The SSE body with its last event dispatched. Two captures end their last event with one line break;
 * the SDK's parser (per the SSE spec) drops such an event, our translator reads it — so the source
 * side is given the blank line the capture lost, and both sides see the same events.
 */
export function terminated(body: string): string {
  return /(\r\n|\r|\n)\1$/.test(body) ? body : `${body}\n\n`;
}

/** The view without the fields a case leaves out of its comparison. */
export function comparable(view: SdkView, skip: readonly ViewField[]): Partial<SdkView> {
  const { error: _error, ...fields } = view;
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !skip.includes(key as ViewField)));
}
