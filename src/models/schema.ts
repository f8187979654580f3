/**
 * The model catalog, token and policy inputs of the visibility rules, and the three model-list wire
 * formats. Loose objects (unknown fields kept); the wire schemas also accept real provider lists.
 * @see https://platform.openai.com/docs/api-reference/models/list
 * @see https://docs.anthropic.com/en/api/models-list
 * @see https://ai.google.dev/api/models#method:-models.list
 */
import { z } from "zod/v4";

// ─── Gateway inputs ──────────────────────────────────────────────────────────────────────────────

/** One catalog entry as the gateway knows it. */
export const modelEntry = z.looseObject({
  id: z.string(),
  /** Channel type the model belongs to; platform custom models have `custom`. */
  owned_by: z.string(),
  /** `std`, `msg`, `gen`, `embeddings`, ...; open. */
  supported_endpoint_types: z.array(z.string()),
  /** Groups the model is enabled for. */
  groups: z.array(z.string()),
  /** A usable upstream channel exists. */
  hasChannel: z.boolean(),
  /** Catalog listing status. */
  listed: z.boolean(),
  /** A price is configured. */
  priced: z.boolean(),
});
/** One catalog entry as the gateway knows it. The type `modelEntry` parses to. */
export type ModelEntry = z.infer<typeof modelEntry>;

/** A token's scope: its allowlist (`null`: allowlist disabled) and the group it names. */
export const tokenScope = z.looseObject({
  key: z.string(),
  allowlist: z.array(z.string()).nullable(),
  group: z.string().optional(),
});
/**
 * A token's scope: its allowlist (`null`: allowlist disabled) and the group it names. The type `tokenScope`
 * parses to.
 */
export type TokenScope = z.infer<typeof tokenScope>;

/** Account-wide settings that decide visibility. */
export const visibilityPolicy = z.looseObject({
  userGroup: z.string(),
  /** Strict metadata mode: an unlisted model acts as nonexistent. */
  strictMetadata: z.boolean(),
  /** Self-use mode: unpriced models are visible. */
  selfUse: z.boolean(),
  /** The account accepts models without pricing. */
  acceptUnpriced: z.boolean(),
});
/** Account-wide settings that decide visibility. The type `visibilityPolicy` parses to. */
export type VisibilityPolicy = z.infer<typeof visibilityPolicy>;

// ─── 2.1 chat-compatible ─────────────────────────────────────────────────────────────────────────

/** A list entry, or the retrieve object (which has no `supported_endpoint_types`). */
export const chatModel = z.looseObject({
  id: z.string(),
  object: z.string(),
  created: z.number(),
  owned_by: z.string(),
  supported_endpoint_types: z.array(z.string()).optional(),
});
/**
 * A list entry, or the retrieve object (which has no `supported_endpoint_types`). The type `chatModel` parses
 * to.
 */
export type ChatModel = z.infer<typeof chatModel>;

/** `{success, object: "list", data}`; `success` is the gateway's extra, absent from upstream lists. */
export const chatList = z.looseObject({
  success: z.boolean().optional(),
  object: z.string(),
  data: z.array(chatModel),
});
/**
 * `{success, object: "list", data}`; `success` is the gateway's extra, absent from upstream lists. The type
 * `chatList` parses to.
 */
export type ChatList = z.infer<typeof chatList>;

// ─── 2.2 messages-style ──────────────────────────────────────────────────────────────────────────

/** One model of a messages-style model list (`{ type: "model", id, display_name, created_at }`). */
export const messagesModel = z.looseObject({
  id: z.string(),
  type: z.string(),
  display_name: z.string(),
  created_at: z.string(),
});
/**
 * One model of a messages-style model list (`{ type: "model", id, display_name, created_at }`). The type
 * `messagesModel` parses to.
 */
export type MessagesModel = z.infer<typeof messagesModel>;

/** `first_id`/`last_id` are empty strings on an empty gateway list; the upstream API sends null. */
export const messagesList = z.looseObject({
  data: z.array(messagesModel),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});
/**
 * `first_id`/`last_id` are empty strings on an empty gateway list; the upstream API sends null. The type
 * `messagesList` parses to.
 */
export type MessagesList = z.infer<typeof messagesList>;

// ─── 2.3 generative-content-style ────────────────────────────────────────────────────────────────

const nullableNumber = z.number().nullish();
const nullableString = z.string().nullish();

/** One model of a generative model list (`{ name: "models/<id>", supportedGenerationMethods, … }`). */
export const generativeModel = z.looseObject({
  /** `models/{id}`. */
  name: z.string(),
  baseModelId: nullableString,
  version: nullableString,
  displayName: nullableString,
  description: nullableString,
  inputTokenLimit: nullableNumber,
  outputTokenLimit: nullableNumber,
  supportedGenerationMethods: z.array(z.string()).nullish(),
  temperature: nullableNumber,
  maxTemperature: nullableNumber,
  topP: nullableNumber,
  topK: nullableNumber,
  thinking: z.boolean().nullish(),
});
/**
 * One model of a generative model list (`{ name: "models/<id>", supportedGenerationMethods, … }`). The type
 * `generativeModel` parses to.
 */
export type GenerativeModel = z.infer<typeof generativeModel>;

/** A generative model list: `{ models, nextPageToken? }`. */
export const generativeList = z.looseObject({
  models: z.array(generativeModel),
  nextPageToken: nullableString,
});
/** A generative model list: `{ models, nextPageToken? }`. The type `generativeList` parses to. */
export type GenerativeList = z.infer<typeof generativeList>;

// ─── Retrieve of an unknown model ──────────────────────────────────────────────

/** The HTTP-200 body of a retrieve whose model is unknown or invisible. */
export const notFoundBody = z.looseObject({
  error: z.looseObject({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
/** The HTTP-200 body of a retrieve whose model is unknown or invisible. The type `notFoundBody` parses to. */
export type NotFoundBody = z.infer<typeof notFoundBody>;
