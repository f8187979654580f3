/**
 * What is measured: our public functions (from the built package, dist/index.js, as users run them;
 * src/index when no build is there; each piece optional while the
 * library is being written) and the peer libraries, called in-process on the same payloads.
 */
import { createRequire } from "node:module";
import type { Protocol } from "./corpus";

type Options = { validate?: boolean; model?: string };
type Schema = { safeParse(value: unknown): { success: boolean } };
type Parser = { feed(chunk: string | Uint8Array): unknown[]; end(): unknown[] };

/** The slice of API.md the benchmark calls, typed structurally so a half-written src still typechecks here. */
export type Ours = {
  translateRequest?: (from: Protocol, to: Protocol, body: unknown, options?: Options) => unknown;
  translateResponse?: (from: Protocol, to: Protocol, body: unknown, options?: Options) => unknown;
  createStreamTranslator?: (
    from: Protocol,
    to: Protocol,
    options?: Options,
  ) => { push(event: unknown): unknown[]; end(): unknown[] };
  translateEventStream?: (
    from: Protocol,
    to: Protocol,
    body: ReadableStream<Uint8Array>,
    options?: Options,
  ) => ReadableStream<Uint8Array>;
  sse?: { createParser(): Parser };
  chat?: { request?: Schema; response?: Schema; chunk?: Schema; DONE?: unknown };
  messages?: { request?: Schema; response?: Schema; streamEvent?: Schema };
  generative?: { request?: Schema; response?: Schema };
  responses?: { request?: Schema; response?: Schema; streamEvent?: Schema };
};

export type Loaded = { ours: Ours; problems: string[]; from: string };

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split("\n")[0]?.slice(0, 160) ?? "";

async function tryImport(
  specifier: string,
  problems: string[],
): Promise<Record<string, unknown> | undefined> {
  try {
    return (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    problems.push(`${specifier}: ${firstLine(error)}`);
    return undefined;
  }
}

/**
 * Our library as users get it: the built dist/index.js (`npm run bench` builds it first). Code run
 * through tsx instead carries esbuild's keepNames wrappers, a call per closure created, which cost up
 * to a third of a small translation. Without a build, src/index; while parts of it do not exist yet,
 * the import fails as a whole; then the modules that do exist (the SSE parser, the protocol schemas)
 * are loaded one by one.
 */
export async function loadOurs(): Promise<Loaded> {
  const problems: string[] = [];
  const built = await tryImport("../dist/index.js", []);
  if (built !== undefined) return { ours: built as Ours, problems, from: "dist/index.js (the build)" };
  const whole = await tryImport("../src/index", problems);
  if (whole !== undefined) return { ours: whole as Ours, problems, from: "src/index (no build found)" };
  const ours: Record<string, unknown> = {};
  const sse = await tryImport("../src/stream/sse", problems);
  if (sse !== undefined) ours.sse = sse;
  for (const protocol of ["chat", "messages", "generative", "responses"]) {
    const schemas =
      (await tryImport(`../src/protocols/${protocol}/index`, problems)) ??
      (await tryImport(`../src/protocols/${protocol}/schema`, problems));
    if (schemas !== undefined) ours[protocol] = schemas;
  }
  return { ours: ours as Ours, problems, from: "src (parts)" };
}

/**
 * A second instance of our library that generates no code, as on workerd and edge runtimes where
 * `new Function` is forbidden: the CommonJS build (dist/index.cjs), which loads its own instance of
 * zod (zod's CommonJS files), required while zod's `jitless` is set. That instance's schemas are built
 * without zod's JIT and its `allowsEval` is fixed to false, so the library takes its fallback (the
 * closure accept-checks and zod's plain parsers, src/validate); the ESM instance the other columns time
 * is untouched (`jitless` is restored, and its own `allowsEval` was fixed first).
 */
export async function loadOursWithoutCodegen(): Promise<{ ours?: Ours; problem?: string }> {
  type Zod = {
    config(next?: { jitless?: boolean }): { jitless?: boolean };
    util: { allowsEval: { value: boolean } };
  };
  try {
    const esm = (await import("zod/v4")) as unknown as Zod;
    if (!esm.util.allowsEval.value) return { problem: "this runtime generates no code for either instance" };
    const require = createRequire(import.meta.url);
    const zod = require("zod/v4") as Zod;
    if (zod === esm) return { problem: "zod's CommonJS and ESM files are one instance here" };
    const before = zod.config().jitless;
    zod.config({ jitless: true });
    try {
      const ours = require("../dist/index.cjs") as Ours;
      if (zod.util.allowsEval.value)
        return { problem: "zod's CommonJS instance still allows code generation" };
      return { ours };
    } finally {
      zod.config({ jitless: before ?? false });
    }
  } catch (error) {
    return { problem: `dist/index.cjs: ${firstLine(error)}` };
  }
}

/** The schema a protocol's body of `kind` is validated with. */
export function schemaOf(
  ours: Ours,
  protocol: Protocol,
  kind: "request" | "response" | "event",
): Schema | undefined {
  if (kind === "request") return ours[protocol]?.request;
  if (kind === "response") return ours[protocol]?.response;
  if (protocol === "chat") return ours.chat?.chunk;
  if (protocol === "messages") return ours.messages?.streamEvent;
  if (protocol === "responses") return ours.responses?.streamEvent;
  return ours.generative?.response;
}

export type EventTranslator = { push(event: unknown): unknown[]; end(): unknown[] };

/** A peer library: what it can translate, by direction; `undefined` where it has no such function. */
export type Peer = {
  readonly name: string;
  readonly problem?: string;
  request(from: Protocol, to: Protocol): ((body: unknown) => unknown) | undefined;
  response(from: Protocol, to: Protocol): ((body: unknown) => unknown) | undefined;
  events(from: Protocol, to: Protocol): (() => EventTranslator) | undefined;
  bytes(
    from: Protocol,
    to: Protocol,
  ): ((body: ReadableStream<Uint8Array>) => ReadableStream<unknown>) | undefined;
};

const none = (): undefined => undefined;

function unavailable(name: string, problem: string): Peer {
  return { name, problem, request: none, response: none, events: none, bytes: none };
}

type Body = Record<string, unknown>;
const modelOf = (body: unknown): string => String((body as Body).model ?? "bench-model");
const streamOf = (body: unknown): boolean => (body as Body).stream === true;

/**
 * @khanglvm/llm-router: chat ↔ messages only (its translator has no generative side). Deep imports of
 * src/translator/ for requests and stream events; its runtime module for whole responses and byte streams.
 */
async function loadLlmRouter(): Promise<Peer> {
  const name = "llm-router";
  try {
    const toMessagesRequest = await import("@khanglvm/llm-router/src/translator/request/openai-to-claude.js");
    const toChatRequest = await import("@khanglvm/llm-router/src/translator/request/claude-to-openai.js");
    const toChatResponse = await import("@khanglvm/llm-router/src/translator/response/claude-to-openai.js");
    const toMessagesEvents = await import("@khanglvm/llm-router/src/translator/response/openai-to-claude.js");
    const registry = await import("@khanglvm/llm-router/src/translator/index.js");
    const runtime = await import("@khanglvm/llm-router/src/runtime/handler/provider-translation.js");
    const pair = (from: Protocol, to: Protocol): "chat>messages" | "messages>chat" | undefined =>
      from === "chat" && to === "messages"
        ? "chat>messages"
        : from === "messages" && to === "chat"
          ? "messages>chat"
          : undefined;
    return {
      name,
      request(from, to) {
        const direction = pair(from, to);
        if (direction === "chat>messages") {
          return (body) => toMessagesRequest.openAIToClaudeRequest(modelOf(body), body, streamOf(body));
        }
        if (direction === "messages>chat") {
          return (body) => toChatRequest.claudeToOpenAIRequest(modelOf(body), body, streamOf(body));
        }
        return undefined;
      },
      response(from, to) {
        const direction = pair(from, to);
        if (direction === "chat>messages") return (body) => runtime.convertOpenAINonStreamToClaude(body);
        if (direction === "messages>chat")
          return (body) => toChatResponse.claudeToOpenAINonStreamResponse(body);
        return undefined;
      },
      events(from, to) {
        const direction = pair(from, to);
        if (direction === "chat>messages") {
          // As its handleOpenAIStreamToClaude does: [DONE] finalizes, every other chunk is translated.
          return () => {
            const state = registry.initState(registry.FORMATS.CLAUDE);
            return {
              push: (event) =>
                event === "[DONE]"
                  ? toMessagesEvents.finalizeOpenAIToClaudeStream(state)
                  : registry.translateResponse(
                      registry.FORMATS.OPENAI,
                      registry.FORMATS.CLAUDE,
                      event,
                      state,
                    ),
              end: () =>
                state.messageStopSent === true
                  ? []
                  : toMessagesEvents.finalizeOpenAIToClaudeStream(state, {
                      force: state.messageStartSent === true,
                    }),
            };
          };
        }
        if (direction === "messages>chat") {
          return () => {
            const state = toChatResponse.initClaudeToOpenAIState();
            return {
              push: (event) =>
                toChatResponse.claudeEventToOpenAIChunks(String((event as Body).type), event, state),
              end: () => [],
            };
          };
        }
        return undefined;
      },
      bytes(from, to) {
        const direction = pair(from, to);
        const handler =
          direction === "chat>messages"
            ? runtime.handleOpenAIStreamToClaude
            : direction === "messages>chat"
              ? runtime.handleClaudeStreamToOpenAI
              : undefined;
        if (handler === undefined) return undefined;
        return (body) => {
          const translated = handler(new Response(body)).body;
          if (translated === null) throw new Error("llm-router returned a response without a body");
          return translated;
        };
      },
    };
  } catch (error) {
    return unavailable(name, `could not be imported: ${firstLine(error)}`);
  }
}

const bridgeProvider: Record<Protocol, "openai" | "anthropic" | "google" | "openai-responses"> = {
  chat: "openai",
  messages: "anthropic",
  generative: "google",
  responses: "openai-responses",
};

/**
 * llm-bridge: `translateBetweenProviders` translates request bodies in all twelve directions;
 * `handleUniversalStreamRequest` translates SSE bytes. It has no whole-response translation and no
 * event-level stream API (its parsers read a ReadableStream).
 */
async function loadLlmBridge(): Promise<Peer> {
  const name = "llm-bridge";
  try {
    const bridge = await import("llm-bridge");
    return {
      name,
      request: (from, to) => (body) =>
        bridge.translateBetweenProviders(bridgeProvider[from], bridgeProvider[to], body as never),
      response: none,
      events: none,
      bytes: (from, to) => (body) =>
        bridge.handleUniversalStreamRequest(
          body,
          bridgeProvider[from],
          bridgeProvider[to],
        ) as ReadableStream<unknown>,
    };
  } catch (error) {
    return unavailable(name, `could not be imported: ${firstLine(error)}`);
  }
}

export async function loadPeers(): Promise<Peer[]> {
  return [await loadLlmRouter(), await loadLlmBridge()];
}
