/**
 * The common model: a superset of the four protocols. Every translation passes through it:
 * `decode*` (protocol → common) never loses what these types can hold, `encode*` (common → protocol)
 * reports every loss. Nothing here knows a protocol's field names.
 *
 * Every node carries `source`, the JSON pointer of the input node it came from, so an encoder can
 * report a loss against the user's own input (`at(part.source, "cache_control")`).
 */

export type Protocol = "chat" | "messages" | "generative" | "responses";

/** A JSON pointer into the input the node was decoded from. */
export type Source = string;

/** A prompt-caching hint (messages `cache_control`, chat extensions that carry the same). */
export type CacheHint = {
  readonly type: string;
  readonly ttl?: string | undefined;
  /** The pointer of the hint itself (`…/cache_control`), for losses about it. */
  readonly source: Source;
};

/** Where a piece of thinking came from: its signature validates only at that protocol's provider. */
export type ReasoningOrigin = Protocol;

/**
 * Fields of the source protocol that the common model has no slot for, kept only so that the SAME
 * protocol can restore them exactly (accumulate/replay). Other protocols ignore it: the decoder has
 * already reported each of these fields as a `dropped` loss. `raw` is private to `origin`'s folder.
 */
export type Extra = { readonly origin: Protocol; readonly raw: Readonly<Record<string, unknown>> };

/**
 * A provider signature on a part (generative `thoughtSignature`): replayed only to `origin`. `source` is
 * the pointer of the signature field itself (e.g. `…/parts/1/thoughtSignature`), for losses; default: the part's.
 */
export type Signature = {
  readonly origin: Protocol;
  readonly value: string;
  readonly source?: Source | undefined;
};

// ─── Content parts ────────────────────────────────────────────────────────────────────────────────

export type TextPart = {
  readonly type: "text";
  readonly text: string;
  readonly source: Source;
  readonly cache?: CacheHint | undefined;
  /**
   * Provider citations/annotations, kept raw with the protocol that produced them; `source` is the
   * pointer of the field that held them (chat `…/message/annotations`), for losses; default: the part's.
   */
  readonly citations?:
    | { readonly origin: Protocol; readonly items: readonly unknown[]; readonly source?: Source | undefined }
    | undefined;
  /** generative `thoughtSignature` on a text part (Gemini 3): replayed only to `origin`. */
  readonly signature?: Signature | undefined;
};

/** Media (image, audio, video, PDF, any file) by inline base64 data, by URL, or by provider file id. */
export type MediaPart = {
  readonly type: "media";
  /** What the part is for; a file of unknown kind is "file". */
  readonly kind: "image" | "audio" | "video" | "document" | "file";
  /** IANA media type when known (`image/png`, `application/pdf`, `audio/wav`). */
  readonly mediaType?: string | undefined;
  readonly data?: string | undefined; // base64, no data: prefix
  readonly url?: string | undefined; // http(s) or gs:// or provider file URI
  readonly fileId?: string | undefined; // provider file id (chat `file_id`, messages `file` source)
  readonly filename?: string | undefined;
  /** chat `image_url.detail`, generative `mediaResolution`: kept raw. */
  readonly detail?: string | undefined;
  readonly title?: string | undefined;
  readonly source: Source;
  readonly cache?: CacheHint | undefined;
};

export type ToolCallPart = {
  readonly type: "tool-call";
  /** Provider id; absent only when the source protocol had none (generative before Gemini 3). */
  readonly id?: string | undefined;
  readonly name: string;
  /** Parsed arguments when they parse as a JSON object; otherwise `argumentsText` holds them raw. */
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
  /** The raw JSON text of the arguments when they came as a string (chat) — exact bytes preserved. */
  readonly argumentsText?: string | undefined;
  /** The pointer of the arguments field (chat `…/tool_calls/0/function/arguments`), for losses; default `source`. */
  readonly argumentsSource?: Source | undefined;
  /** Gemini `thoughtSignature` on a function call: replayed only to generative. */
  readonly signature?: Signature | undefined;
  /**
   * A free-form call (responses and chat `custom` tool call): `argumentsText` is the tool's plain-text
   * input, not JSON arguments. Targets without free-form calls get the arguments object `{ input }`
   * (common/tool-forms.ts).
   */
  readonly freeform?: boolean | undefined;
  /** The tool group of the called tool (responses `namespace`): targets without groups get the flat name `namespace__name`. */
  readonly namespace?: string | undefined;
  /** A call of the client's tool search (responses `tool_search_call`, client-executed): its arguments are the search's. */
  readonly search?: boolean | undefined;
  /** A server-side tool (messages `server_tool_use`, generative `executableCode`) kept raw. */
  readonly server?: { readonly origin: Protocol; readonly raw: unknown } | undefined;
  /** Source-protocol fields of the call with no common slot (messages `caller`), for the same protocol only. */
  readonly extra?: Extra | undefined;
  readonly source: Source;
  readonly cache?: CacheHint | undefined;
};

export type ToolResultPart = {
  readonly type: "tool-result";
  /** The id of the call this answers. */
  readonly callId?: string | undefined;
  /** The called tool's name, when the source protocol carries it (generative needs it). */
  readonly name?: string | undefined;
  /** Result content: text and media parts in order. */
  readonly content: readonly (TextPart | MediaPart)[];
  /** A result that came as a JSON object (generative `functionResponse.response`), kept as given. */
  readonly json?: unknown;
  readonly isError?: boolean | undefined;
  /** The tools a tool search loaded (responses `tool_search_output`): targets without tool search get them as tools. */
  readonly tools?: readonly Tool[] | undefined;
  readonly source: Source;
  readonly cache?: CacheHint | undefined;
};

export type ReasoningPart = {
  readonly type: "reasoning";
  readonly text: string;
  /** Provider signature; valid only at `origin`. */
  readonly signature?: string | undefined;
  /** The pointer of the signature field itself, for losses; default `source`. */
  readonly signatureSource?: Source | undefined;
  /** messages `redacted_thinking.data`: opaque, valid only at `origin`. */
  readonly redacted?: string | undefined;
  readonly origin: ReasoningOrigin;
  /** Fields of the source protocol's reasoning entry with no common slot (OpenRouter `id`), for that protocol only. */
  readonly extra?: Extra | undefined;
  readonly source: Source;
};

export type RefusalPart = { readonly type: "refusal"; readonly text: string; readonly source: Source };

/** Content that only its own protocol understands (server tool results, executable code results). */
export type OpaquePart = {
  readonly type: "opaque";
  readonly origin: Protocol;
  readonly raw: unknown;
  /** A short human name for loss messages ("web_search_tool_result block"). */
  readonly label: string;
  readonly source: Source;
};

export type Part =
  | TextPart
  | MediaPart
  | ToolCallPart
  | ToolResultPart
  | ReasoningPart
  | RefusalPart
  | OpaquePart;

export type Message = {
  /** Tool results live in `user` turns (chat `tool` messages decode to user turns with tool-result parts). */
  readonly role: "user" | "assistant";
  readonly parts: readonly Part[];
  /** chat `name` on a message. */
  readonly name?: string | undefined;
  readonly source: Source;
};

// ─── Request ──────────────────────────────────────────────────────────────────────────────────────

export type SystemBlock = {
  readonly text: string;
  readonly cache?: CacheHint | undefined;
  /** chat: which role carried it ("system" | "developer"); kept for same-family re-encoding. */
  readonly role?: "system" | "developer" | undefined;
  /** True when it came after the first turn; hoisting it is an approximation. */
  readonly late?: boolean | undefined;
  /**
   * A late block's place: the number of turns (`Request.messages`) before it. A target that takes
   * system messages in the conversation (chat, responses) puts it there.
   */
  readonly at?: number | undefined;
  readonly source: Source;
};

/** A JSON Schema object as given by the user (chat/messages) or converted from a generative Schema. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export type FunctionTool = {
  readonly type: "function";
  readonly name: string;
  readonly description?: string | undefined;
  /** JSON Schema of the arguments (always JSON Schema in common; generative's OpenAPI subset is converted). */
  readonly parameters?: JsonSchema | undefined;
  /** The pointer of the schema itself (chat `/tools/0/function/parameters`, messages `/tools/0/input_schema`); default `at(source, "parameters")`. */
  readonly parametersSource?: Source | undefined;
  readonly strict?: boolean | undefined;
  readonly cache?: CacheHint | undefined;
  /**
   * A free-form tool (responses and chat `custom`): called with plain text. `format` is how that text is
   * constrained, from `formatSource`; absent: any text.
   */
  readonly freeform?:
    | { readonly format?: FreeformFormat | undefined; readonly formatSource?: Source | undefined }
    | undefined;
  /** The group it belongs to (responses `namespace` tool); targets without groups get the flat name `namespace__name`. */
  readonly namespace?:
    | { readonly name: string; readonly description?: string | undefined; readonly source: Source }
    | undefined;
  /** The client's own tool search (responses `tool_search` executed by the client): a function elsewhere. */
  readonly search?: boolean | undefined;
  /** Loaded only when a tool search finds it (responses and messages `defer_loading`), as given. */
  readonly deferLoading?: Given<boolean> | undefined;
  readonly source: Source;
};

/** How a free-form tool's text is constrained: any text, a grammar (`lark`, `regex`), or a form of one protocol's. */
export type FreeformFormat =
  | { readonly kind: "text" }
  | { readonly kind: "grammar"; readonly syntax: string; readonly definition: string }
  | { readonly kind: "other"; readonly origin: Protocol; readonly raw: unknown };

/** A provider-hosted tool (web search, code execution, google_search, url_context ...), kept raw. */
export type ProviderTool = {
  readonly type: "provider";
  readonly origin: Protocol;
  readonly raw: unknown;
  readonly label: string;
  /**
   * What the tool does, when another protocol has a tool that does the same: runs code (messages
   * `code_execution`, generative `codeExecution`, responses `code_interpreter`) or searches the web
   * (messages `web_search`, generative `googleSearch`, responses `web_search`).
   */
  readonly kind?: "code-execution" | "web-search" | undefined;
  readonly source: Source;
};

export type Tool = FunctionTool | ProviderTool;

export type ToolChoice =
  | { readonly type: "auto"; readonly source: Source }
  | { readonly type: "none"; readonly source: Source }
  | { readonly type: "required"; readonly source: Source }
  | { readonly type: "tool"; readonly name: string; readonly source: Source }
  /** generative `allowedFunctionNames` with mode ANY/AUTO: a subset of tools. */
  | {
      readonly type: "allowed";
      readonly names: readonly string[];
      readonly mode: "auto" | "required";
      readonly source: Source;
    };

export type ResponseFormat =
  | { readonly type: "text"; readonly source: Source }
  | { readonly type: "json"; readonly source: Source }
  | {
      readonly type: "json-schema";
      readonly schema: JsonSchema;
      /** The pointer of the schema itself, for losses inside it; default `at(source, "schema")`. */
      readonly schemaSource?: Source | undefined;
      readonly name?: string | undefined;
      readonly description?: string | undefined;
      readonly strict?: boolean | undefined;
      readonly source: Source;
    };

export type ReasoningConfig = {
  /** chat `reasoning_effort` as given ("minimal" | "low" | "medium" | "high" | vendor values). */
  readonly effort?: string | undefined;
  /** Explicit budget (messages `thinking.budget_tokens`, generative `thinkingBudget`). */
  readonly budgetTokens?: number | undefined;
  /** false when the source explicitly disabled thinking. */
  readonly enabled?: boolean | undefined;
  /** The model's thoughts asked for (true) or to be left out (false): generative `includeThoughts`, responses `summary`. */
  readonly includeThoughts?: boolean | undefined;
  /** The pointer of the field that set `includeThoughts`, for losses about it. */
  readonly includeSource?: Source | undefined;
  /** The pointer of the budget field itself ("/thinking/budget_tokens"), for losses about the budget. */
  readonly budgetSource?: Source | undefined;
  readonly source: Source;
};

/** A scalar together with where it came from. */
export type Given<T> = { readonly value: T; readonly source: Source };

/**
 * A node while its decoder or encoder fills it in: optional fields are assigned one by one in a fixed
 * order instead of spread in. Conditional spreads give each result its own hidden class in V8, which
 * turns every later read of the node megamorphic (measured: encoders 3-6x slower).
 */
export type Draft<T> = { -readonly [K in keyof T]: T[K] };

export type Request = {
  readonly model: string;
  readonly stream: boolean;
  /** The source set the flag itself, `false` included (DESIGN rule 5): an encoder writes it as given. */
  readonly streamGiven?: boolean | undefined;
  readonly system: readonly SystemBlock[];
  readonly messages: readonly Message[];
  readonly tools: readonly Tool[];
  readonly toolChoice?: ToolChoice | undefined;
  /** `true` allows several calls per turn; `false` asks for at most one. */
  readonly parallelToolCalls?: Given<boolean> | undefined;
  readonly maxTokens?: Given<number> | undefined;
  readonly temperature?: Given<number> | undefined;
  readonly topP?: Given<number> | undefined;
  readonly topK?: Given<number> | undefined;
  readonly presencePenalty?: Given<number> | undefined;
  readonly frequencyPenalty?: Given<number> | undefined;
  readonly seed?: Given<number> | undefined;
  readonly candidateCount?: Given<number> | undefined;
  /**
   * `scalar`: the source gave one string, not a list (chat `stop: "x"`), so a loss about an item points
   * at `source` itself, not at `source/0`.
   */
  readonly stop?: (Given<readonly string[]> & { readonly scalar?: boolean | undefined }) | undefined;
  readonly responseFormat?: ResponseFormat | undefined;
  readonly reasoning?: ReasoningConfig | undefined;
  readonly user?: Given<string> | undefined;
  /**
   * The processing tier asked for, in the words of chat and responses (`auto`, `default`, `flex`,
   * `scale`, `priority`, or another a provider accepts): messages' `standard_only` is `default` here.
   */
  readonly serviceTier?: Given<string> | undefined;
  /** chat and responses `prompt_cache_key`: requests that share it share a prompt cache. */
  readonly promptCacheKey?: Given<string> | undefined;
  /**
   * chat and responses `prompt_cache_options`: `mode` (`implicit`: the service adds a breakpoint of its
   * own to the parts' cache hints; `explicit`: only those) and `ttl`, as given.
   */
  readonly promptCacheOptions?:
    | Given<{ readonly mode?: string | undefined; readonly ttl?: string | undefined }>
    | undefined;
  /** chat and responses `moderation` (OpenAI's: a moderation model and what a flag does), as given. */
  readonly moderation?: Given<Readonly<Record<string, unknown>>> | undefined;
  /** chat `verbosity`, responses `text.verbosity`: how long an answer should be ("low" … "high"). */
  readonly verbosity?: Given<string> | undefined;
  readonly logprobs?: Given<boolean> | undefined;
  readonly topLogprobs?: Given<number> | undefined;
  /** chat `stream_options.include_usage`. */
  readonly includeUsage?: Given<boolean> | undefined;
};

// ─── Response ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Why generation stopped. The common vocabulary; each protocol maps from and to it in its own
 * `finish-reason.ts`.
 */
export type FinishReason =
  | "stop" // natural end
  | "stop-sequence" // a stop sequence matched (`stopSequence` says which, when known)
  | "length" // output budget reached
  | "context-length" // context window exceeded
  | "tool-calls" // the model wants tool results
  | "content-filter" // output blocked by a safety/recitation filter
  | "refusal" // the model refused (messages `refusal`)
  | "pause" // messages `pause_turn`: a long server-tool turn paused
  | "error" // generation failed (generative MALFORMED_FUNCTION_CALL)
  | "other";

/**
 * Token usage in one normalised form:
 * - `inputTokens` counts every prompt token, cached ones included;
 * - `outputTokens` counts every generated token, reasoning included.
 * Each decoder converts its protocol's arithmetic into this; each encoder converts back.
 */
export type Usage = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number | undefined;
  readonly cacheWriteTokens?: number | undefined;
  readonly reasoningTokens?: number | undefined;
  /** generative `toolUsePromptTokenCount`: part of the prompt, counted in `inputTokens` too. */
  readonly toolUseInputTokens?: number | undefined;
  /** The total the source reported, when it reported one. */
  readonly totalTokens?: number | undefined;
  /** Source-protocol details with no common slot (token details by modality, service tier ...). */
  readonly extra?: Extra | undefined;
  readonly source: Source;
};

export type Choice = {
  readonly index: number;
  readonly parts: readonly Part[];
  readonly finishReason?: FinishReason | undefined;
  /** The source protocol's own finish value, for messages and losses. */
  readonly rawFinishReason?: string | undefined;
  /** The pointer of the finish field itself (`/stop_reason`, `/choices/0/finish_reason`), for losses; default `source`. */
  readonly finishReasonSource?: Source | undefined;
  /** The stop sequence that matched, when the source says. */
  readonly stopSequence?: string | undefined;
  /** The pointer of the stop-sequence field (`/stop_sequence`), for losses; default `source`. */
  readonly stopSequenceSource?: Source | undefined;
  /** Source-protocol candidate fields with no common slot (safety ratings, grounding metadata ...). */
  readonly extra?: Extra | undefined;
  readonly source: Source;
};

export type Response = {
  readonly id?: string | undefined;
  /**
   * When `id` is absent: a digest of the input body (`inputSeed`, common/digest.ts), from which a target
   * that needs an id derives one, so different inputs get different ids. Never sent as is.
   */
  readonly seed?: string | undefined;
  readonly model?: string | undefined;
  /** Unix seconds. */
  readonly created?: number | undefined;
  /** Where `created` is in the input (a target that must change it points there). */
  readonly createdSource?: Source | undefined;
  readonly choices: readonly Choice[];
  readonly usage?: Usage | undefined;
  /** The prompt itself was blocked (generative `promptFeedback.blockReason`). */
  readonly promptBlocked?: { readonly reason: string; readonly source: Source } | undefined;
  /** Source-protocol top-level fields with no common slot (generative `createTime`, `promptFeedback` ratings ...). */
  readonly extra?: Extra | undefined;
};

// ─── Errors ───────────────────────────────────────────────────────────────────────────────────────

/**
 * What an error means, whatever protocol carries it: the kinds the error table maps each protocol's
 * statuses and types to (`invalid_request` 400, `authentication` 401, `permission` 403, `not_found`
 * 404, `request_too_large` 413, `rate_limit` 429, `payment` 402, `server` 500, `overloaded` 529/503,
 * `timeout` 504).
 */
export type ErrorKind =
  | "invalid_request"
  | "authentication"
  | "permission"
  | "not_found"
  | "request_too_large"
  | "rate_limit"
  | "payment"
  | "server"
  | "overloaded"
  | "timeout";

/**
 * An error without a protocol's shape: status, kind and message (plus the source's own code and
 * parameter). The gateway's own errors (`errors.noAccessToModel` …) are these; `errors.render` puts
 * one in a client protocol's error body.
 */
export type ErrorInfo = {
  readonly status: number;
  readonly kind: ErrorKind;
  readonly message: string;
  /** The source's own type/status/code string, so nothing is lost (chat puts it in `code`). */
  readonly code?: string | undefined;
  readonly param?: string | undefined;
  /**
   * The pointer of the body field `code` came from, for a loss when a target cannot carry it; absent
   * when `code` is the source protocol's own name for `kind` (it says no more than the kind).
   */
  readonly codeSource?: Source | undefined;
  /** The pointer of the body field `param` came from, likewise. */
  readonly paramSource?: Source | undefined;
  /**
   * Pointers of the body's fields with no slot here (generative `details`, messages `request_id` ...):
   * every encoder reports each as dropped, so an error loses the same fields as a body or mid-stream.
   */
  readonly unread?: readonly Source[] | undefined;
  /**
   * When the source says to retry (generative `RetryInfo.retryDelay`, or the upstream's `retry-after`
   * headers through `translateError`), in milliseconds; `source` is the body field it came from, which
   * is also in `unread` (a target that carries the delay in its body or headers drops it from there).
   */
  readonly retryAfter?: { readonly ms: number; readonly source?: Source | undefined } | undefined;
};

// ─── Stream parts ─────────────────────────────────────────────────────────────────────────────────

/**
 * What flows between a protocol's stream decoder and another's encoder. Blocks are numbered by
 * `index` in order of first appearance; a block is started, gets deltas, and ends.
 *
 * `source`, on the parts an encoder may have to drop or change, is the pointer of the input field the
 * part came from, in the stream's list of events (`/3/delta/signature`; common/stream-end.ts): an
 * encoder reports its loss there. Without it, the loss points at the event the part was decoded from.
 */
export type StreamPart =
  | {
      readonly type: "response-start";
      readonly id?: string | undefined;
      readonly model?: string | undefined;
      readonly created?: number | undefined;
      /** Where `created` is in the input, as `Response.createdSource`. */
      readonly createdSource?: Source | undefined;
      readonly usage?: Usage | undefined;
      /** `Response.extra`, for the same protocol's encoder (accumulate/replay). */
      readonly extra?: Extra | undefined;
      /**
       * `Choice.extra` when it is known before the content (a replayed response), so that the same
       * protocol's encoder shapes content chunks as the response had them; `finish` carries it too.
       */
      readonly choiceExtra?: Extra | undefined;
      /** When `id` is absent: a digest of the event that started the response (`Response.seed`). */
      readonly seed?: string | undefined;
    }
  | { readonly type: "text-start"; readonly index: number }
  | { readonly type: "text-delta"; readonly index: number; readonly text: string }
  | {
      readonly type: "text-end";
      readonly index: number;
      readonly citations?: TextPart["citations"];
    }
  | { readonly type: "reasoning-start"; readonly index: number; readonly origin: ReasoningOrigin }
  | { readonly type: "reasoning-delta"; readonly index: number; readonly text: string }
  | {
      readonly type: "reasoning-signature";
      readonly index: number;
      readonly signature: string;
      readonly source?: Source | undefined;
    }
  | {
      readonly type: "reasoning-redacted";
      readonly index: number;
      readonly data: string;
      readonly source?: Source | undefined;
    }
  | { readonly type: "reasoning-end"; readonly index: number }
  | {
      readonly type: "tool-call-start";
      readonly index: number;
      readonly id?: string | undefined;
      readonly name: string;
      readonly signature?: ToolCallPart["signature"];
      /** `ToolCallPart.extra`, for the same protocol's encoder (accumulate/replay). */
      readonly extra?: Extra | undefined;
      /** The call in the input (`/4/choices/0/delta/tool_calls/0`); the signature's own pointer is `signature.source`. */
      readonly source?: Source | undefined;
      /** A free-form call: its deltas are the input text itself (`ToolCallPart.freeform`). */
      readonly freeform?: boolean | undefined;
      /** `ToolCallPart.namespace`. */
      readonly namespace?: string | undefined;
      /** `ToolCallPart.search`. */
      readonly search?: boolean | undefined;
    }
  /** A signature attached to a text or tool-call block (generative `thoughtSignature`). */
  | {
      readonly type: "block-signature";
      readonly index: number;
      readonly signature: { readonly origin: Protocol; readonly value: string };
      readonly source?: Source | undefined;
    }
  | { readonly type: "tool-call-delta"; readonly index: number; readonly argumentsText: string }
  | { readonly type: "tool-call-end"; readonly index: number }
  | { readonly type: "refusal-delta"; readonly index: number; readonly text: string }
  | { readonly type: "media"; readonly index: number; readonly part: MediaPart }
  | { readonly type: "opaque"; readonly index: number; readonly part: OpaquePart }
  /** Usage so far (cumulative, replaces earlier figures). */
  | { readonly type: "usage"; readonly usage: Usage }
  | {
      readonly type: "finish";
      readonly reason: FinishReason;
      readonly rawReason?: string | undefined;
      readonly stopSequence?: string | undefined;
      /** Where the input gave `stopSequence`, for a target that drops it. */
      readonly stopSequenceSource?: Source | undefined;
      /** `Choice.extra` of the streamed choice, for the same protocol's encoder (accumulate/replay). */
      readonly extra?: Extra | undefined;
      /** The finish field in the input (`/9/candidates/0/finishReason`), for a loss about the reason. */
      readonly source?: Source | undefined;
    }
  | { readonly type: "prompt-blocked"; readonly reason: string }
  /** A mid-stream error: the target must render its own error shape, never a normal stop. */
  | { readonly type: "error"; readonly error: ErrorInfo };
