/**
 * Model lists and single models in the three client formats, and the retrieve answer for an
 * unknown model. No clock: `created`/`created_at` are fixed placeholders.
 * @see https://platform.openai.com/docs/api-reference/models/list
 * @see https://docs.anthropic.com/en/api/models-list
 * @see https://ai.google.dev/api/models#method:-models.list
 */
import type {
  ChatList,
  ChatModel,
  GenerativeList,
  GenerativeModel,
  MessagesList,
  MessagesModel,
  ModelEntry,
  NotFoundBody,
} from "./schema";

/** `created` of every model: a placeholder, not a real time. */
export const CREATED_PLACEHOLDER = 1626777600;

/** `created_at` of every messages-format model: the same instant as `CREATED_PLACEHOLDER`, in ISO 8601. */
export const CREATED_AT_PLACEHOLDER = "2021-07-20T10:40:00Z";

/**
 * The model-list format a client expects: chat `/v1/models`, messages `/v1/models` (with the
 * messages headers) or generative `/v1beta/models`. `identifyRequest` tells it as `listFormat`.
 */
export type ListFormat = "chat" | "messages" | "generative";

/** What a list entry needs from the catalog. */
export type ListEntry = Pick<ModelEntry, "id" | "owned_by" | "supported_endpoint_types">;

function chatEntry(entry: ListEntry): ChatModel {
  return {
    id: entry.id,
    object: "model",
    created: CREATED_PLACEHOLDER,
    owned_by: entry.owned_by,
    supported_endpoint_types: [...entry.supported_endpoint_types],
  };
}

function messagesEntry(entry: Pick<ModelEntry, "id">): MessagesModel {
  return { id: entry.id, type: "model", display_name: entry.id, created_at: CREATED_AT_PLACEHOLDER };
}

function generativeEntry(entry: Pick<ModelEntry, "id">): GenerativeModel {
  return {
    name: `models/${entry.id}`,
    baseModelId: null,
    version: null,
    displayName: entry.id,
    description: null,
    inputTokenLimit: null,
    outputTokenLimit: null,
    supportedGenerationMethods: null,
    temperature: null,
    maxTemperature: null,
    topP: null,
    topK: null,
    thinking: null,
  };
}

/**
 * The whole list (no pagination) in a client format: chat `{success, object: "list", data}` (2.1),
 * messages `{data, first_id, last_id, has_more: false}` with empty-string ids on an empty list (2.2),
 * generative `{models, nextPageToken: null}` with only `name`/`displayName` filled (2.3).
 */
export function formatList(format: "chat", entries: readonly ListEntry[]): ChatList;
export function formatList(format: "messages", entries: readonly ListEntry[]): MessagesList;
export function formatList(format: "generative", entries: readonly ListEntry[]): GenerativeList;
export function formatList(
  format: ListFormat,
  entries: readonly ListEntry[],
): ChatList | MessagesList | GenerativeList;
export function formatList(
  format: ListFormat,
  entries: readonly ListEntry[],
): ChatList | MessagesList | GenerativeList {
  switch (format) {
    case "chat":
      return { success: true, object: "list", data: entries.map(chatEntry) };
    case "messages":
      return {
        data: entries.map(messagesEntry),
        first_id: entries[0]?.id ?? "",
        last_id: entries[entries.length - 1]?.id ?? "",
        has_more: false,
      };
    case "generative":
      return { models: entries.map(generativeEntry), nextPageToken: null };
    default:
      throw new TypeError(
        `Unknown list format ${JSON.stringify(format)}: use "chat", "messages" or "generative".`,
      );
  }
}

/**
 * The retrieve answer (HTTP 200) for a visible model: the 2.1 object `{id, object, created, owned_by}`
 * by default; `format` gives the messages or generative single-model object instead.
 */
export function formatModel(entry: Pick<ModelEntry, "id" | "owned_by">, format?: "chat"): ChatModel;
export function formatModel(entry: Pick<ModelEntry, "id">, format: "messages"): MessagesModel;
export function formatModel(entry: Pick<ModelEntry, "id">, format: "generative"): GenerativeModel;
export function formatModel(
  entry: Pick<ModelEntry, "id"> & Partial<Pick<ModelEntry, "owned_by">>,
  format: ListFormat = "chat",
): ChatModel | MessagesModel | GenerativeModel {
  if (format === "messages") return messagesEntry(entry);
  if (format === "generative") return generativeEntry(entry);
  return { id: entry.id, object: "model", created: CREATED_PLACEHOLDER, owned_by: entry.owned_by ?? "" };
}

/**
 * The retrieve answer for an unknown or invisible model: sent with HTTP 200, the error is in the body
 *, so invisible and nonexistent models look the same.
 * @example
 * notFound("gpt-x");
 * // => { error: { message: "The model 'gpt-x' does not exist", type: "invalid_request_error", param: "model", code: "model_not_found" } }
 */
export function notFound(model: string): NotFoundBody {
  return {
    error: {
      message: `The model '${model}' does not exist`,
      type: "invalid_request_error",
      param: "model",
      code: "model_not_found",
    },
  };
}
