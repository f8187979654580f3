/**
 * Types for the deep imports of @khanglvm/llm-router (plain JavaScript without declarations), as far as
 * the benchmark calls them. Read from its src/translator/ and src/runtime/handler/ (v2.6).
 */

declare module "@khanglvm/llm-router/src/translator/request/openai-to-claude.js" {
  export function openAIToClaudeRequest(model: string, body: unknown, stream?: boolean): unknown;
}

declare module "@khanglvm/llm-router/src/translator/request/claude-to-openai.js" {
  export function claudeToOpenAIRequest(model: string, body: unknown, stream?: boolean): unknown;
}

declare module "@khanglvm/llm-router/src/translator/response/claude-to-openai.js" {
  export type ClaudeToOpenAIState = Record<string, unknown>;
  export function claudeToOpenAINonStreamResponse(message: unknown): unknown;
  export function initClaudeToOpenAIState(): ClaudeToOpenAIState;
  export function claudeEventToOpenAIChunks(
    eventType: string,
    event: unknown,
    state: ClaudeToOpenAIState,
  ): unknown[];
}

declare module "@khanglvm/llm-router/src/translator/response/openai-to-claude.js" {
  export function openaiToClaudeResponse(chunk: unknown, state: Record<string, unknown>): unknown[] | null;
  export function finalizeOpenAIToClaudeStream(
    state: Record<string, unknown>,
    options?: { force?: boolean },
  ): unknown[];
}

declare module "@khanglvm/llm-router/src/translator/index.js" {
  export const FORMATS: { readonly OPENAI: "openai"; readonly CLAUDE: "claude" };
  export function initState(sourceFormat: string): Record<string, unknown>;
  export function translateResponse(
    targetFormat: string,
    sourceFormat: string,
    chunk: unknown,
    state: Record<string, unknown>,
  ): unknown[];
}

declare module "@khanglvm/llm-router/src/runtime/handler/provider-translation.js" {
  export function convertOpenAINonStreamToClaude(result: unknown, fallbackModel?: string): unknown;
  export function handleOpenAIStreamToClaude(response: Response): Response;
  export function handleClaudeStreamToOpenAI(response: Response): Response;
}
