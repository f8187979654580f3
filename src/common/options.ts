import type { Loss } from "./loss";
import type { Usage } from "./usage";

/** Options every translation takes, and their resolved form with defaults filled once. */
export type TranslateOptions = {
  /** Parse the input with the `from` schema first. Default true. */
  validate?: boolean;
  /** Any loss throws `TranslationError` instead of being reported. Default false. */
  strict?: boolean;
  /** The model id when the input protocol carries it outside the body (generative). */
  model?: string;
  /** The stream flag when the input protocol carries it outside the body (generative). */
  stream?: boolean;
  /**
   * Output budget when the target requires one (messages) and the input has none. Default 4096, with a
   * `synthesized` loss; a budget given here is the caller's choice and reports nothing.
   */
  maxTokens?: number;
  /**
   * Synthesized ids are this, `_`, and a digest of what the input carries (`gp_chatcmpl_1k3f…`): equal
   * inputs give equal ids, different inputs different ones; never random. Default "gp".
   */
  idPrefix?: string;
  /**
   * Unix seconds used where a target needs a timestamp the input lacks (chat `created`). Without it,
   * such a timestamp is 0 with a `synthesized` loss.
   */
  created?: number;
  /**
   * Called once per loss as it happens, with the same `Loss` the result's `losses` lists: by every
   * translate function, by a stream translator as events are pushed, and by `translateEventStream` /
   * `createTranslateStream`, where it is the only channel. Stream losses point into the input as a
   * list of events: `/12/choices/0/logprobs` is a field of the 13th event; `/<count>` (one past the
   * last event) is the end of the stream, where a cut-off is reported. With `strict`, it is called
   * for the loss before the translation fails.
   */
  onLoss?: (loss: Loss) => void;
  /**
   * Streams: called once when the stream ends, with the usage it carried (the last figures, which are
   * cumulative) — also when it ends cut off or failing, with what arrived. Not called when the stream
   * carried no usage (a chat stream without `stream_options.include_usage`). The same figures as
   * `usageOf(from, events)`, so a gateway bills from the stream it translates without parsing it again.
   */
  onUsage?: (usage: Usage) => void;
  /**
   * How a JSON response format reaches the messages protocol: `"native"` sends `output_config.format`
   * (structured outputs: Claude Sonnet 4.5, Opus 4.1, Haiku 4.5 and later), which keeps the answer in a
   * text block and works with thinking; `"tool"` emulates it with a forced `json_tool_call` tool, which
   * every model accepts. Default: `"tool"` for the models before structured outputs (Claude 3, Sonnet 4,
   * Opus 4), named by `targetModel` or the request's model; `"native"` for any other.
   */
  jsonMode?: "tool" | "native";
  /**
   * Which chat-compatible upstream (or client) an encoding toward chat is for: the field names, how
   * reasoning is sent back on assistant turns and which reasoning switches the body carries. Decoding
   * reads every dialect without it.
   * - `"openai"` (default): `max_completion_tokens`, `reasoning_effort`, reasoning echoed as `reasoning_content`.
   * - `"compatible"`: the widest-supported names — `max_tokens`, `reasoning_effort`, `reasoning_content`.
   * - `"deepseek"`: `max_tokens`, `thinking: {type}` + `reasoning_effort`; every assistant turn with tool
   *   calls carries `reasoning_content` (DeepSeek rejects the request without it).
   * - `"openrouter"`: `max_tokens`, `reasoning: {effort | max_tokens, exclude, enabled}`; reasoning with its
   *   signatures as `reasoning_details` (and `reasoning`), so signed thinking survives the round trip.
   * - `"qwen"`: `max_tokens`, `enable_thinking` + `thinking_budget`, `reasoning_content`.
   * - `"vllm"`: `max_tokens`, `chat_template_kwargs.enable_thinking` + `reasoning_effort`, reasoning as `reasoning`.
   *
   * The table is `src/protocols/chat/dialect.ts`; README "Chat-compatible upstreams" shows it.
   * @defaultValue "openai"
   */
  chatDialect?: ChatDialect;
  /**
   * responses: the items a request's `previous_response_id` (or `conversation`) stands for, oldest
   * first, as the gateway stored them (`responses.historyOf`). The library keeps no state: a responses
   * request that names an earlier response translates to another protocol only with its history
   * here (they go before its `input`), else it is refused with a 400 that says so. Its
   * `item_reference` entries are looked up here by id too. Ignored by every other protocol, and by
   * responses → responses (the upstream holds the state). Losses about these items point into this
   * list, as `/history/<index>/…`.
   */
  history?: readonly unknown[];
  /**
   * The model the upstream will be asked for, when the gateway asks for another than the client named.
   * The translated request names it (generative: the returned `model`, for the URL), and the target's
   * model-dependent rules follow it: Gemini 3's thought-signature rule, its thinking levels and budget
   * ranges. Default: the client's model.
   */
  targetModel?: string;
  /**
   * The client's own request, when the translation answers it (`translateResponse`,
   * `createStreamTranslator`, `translateEventStream`): a responses answer echoes its configuration
   * (`instructions`, `tools`, `tool_choice`, `temperature`, `store`, `metadata` …) as the service does;
   * without it, each such field is the value the service gives a request that sets none. Its tools also
   * say which calls of the upstream's answer are calls of a free-form tool, of a tool group or of the
   * tool search, for a client whose protocol has them (responses, chat): those come back in the
   * client's form (`apply_patch` called with `{"input": text}` → a `custom_tool_call` with the text);
   * without it, they come back as the function calls the upstream made. Read, never validated: a field
   * of the wrong type counts as not set. Ignored by same-protocol passes.
   */
  request?: unknown;
};

/** The chat-compatible dialects an encoding toward chat can follow (`TranslateOptions.chatDialect`). */
export type ChatDialect = "openai" | "compatible" | "deepseek" | "openrouter" | "qwen" | "vllm";

export type ResolvedOptions = {
  readonly validate: boolean;
  readonly strict: boolean;
  readonly model: string | undefined;
  readonly stream: boolean | undefined;
  readonly maxTokens: number;
  /** `maxTokens` came from the caller: using it is their choice, not a loss. */
  readonly maxTokensGiven: boolean;
  readonly idPrefix: string;
  /** Undefined when the caller gave none: an encoder that needs one reports the 0 it uses. */
  readonly created: number | undefined;
  readonly onLoss: ((loss: Loss) => void) | undefined;
  readonly onUsage: ((usage: Usage) => void) | undefined;
  readonly jsonMode: "tool" | "native" | undefined;
  readonly chatDialect: ChatDialect;
  readonly history: readonly unknown[] | undefined;
  readonly targetModel: string | undefined;
  readonly request: unknown;
};

export const DEFAULT_MAX_TOKENS = 4096;
export const DEFAULT_ID_PREFIX = "gp";

export function resolveOptions(options: TranslateOptions | undefined): ResolvedOptions {
  return {
    validate: options?.validate !== false,
    strict: options?.strict === true,
    model: options?.model,
    stream: options?.stream,
    maxTokens: options?.maxTokens ?? DEFAULT_MAX_TOKENS,
    maxTokensGiven: options?.maxTokens !== undefined,
    idPrefix: options?.idPrefix ?? DEFAULT_ID_PREFIX,
    created: options?.created,
    onLoss: options?.onLoss,
    onUsage: options?.onUsage,
    jsonMode: options?.jsonMode,
    chatDialect: options?.chatDialect ?? "openai",
    history: options?.history,
    targetModel: options?.targetModel,
    request: options?.request,
  };
}

/**
 * A deterministic id: `prefix_seed_ordinal`, restricted to `[A-Za-z0-9_-]` (messages requires that of
 * tool ids) and short (chat rejects long ids). `seed` comes from the input (a response id, a turn index,
 * or a kind and the digest of what the input carries: `inputSeed` in digest.ts).
 */
export function syntheticId(options: ResolvedOptions, seed: string | number, ordinal?: number): string {
  const clean = String(seed)
    .replace(/[^A-Za-z0-9_-]/g, "")
    .slice(0, 40);
  const head = `${options.idPrefix.replace(/[^A-Za-z0-9_-]/g, "")}_${clean}`;
  return ordinal === undefined ? head : `${head}_${ordinal}`;
}
