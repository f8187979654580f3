/** The `models` namespace: catalog visibility, access checks, and the three list formats. */
export {
  CREATED_AT_PLACEHOLDER,
  CREATED_PLACEHOLDER,
  formatList,
  formatModel,
  type ListEntry,
  type ListFormat,
  notFound,
} from "./format";
export { endpointTypeOf, type RouteRequest, type RouteResult, route } from "./route";
export {
  type ChatList,
  type ChatModel,
  chatList,
  chatModel,
  type GenerativeList,
  type GenerativeModel,
  generativeList,
  generativeModel,
  type MessagesList,
  type MessagesModel,
  type ModelEntry,
  messagesList,
  messagesModel,
  modelEntry,
  type NotFoundBody,
  notFoundBody,
  type TokenScope,
  tokenScope,
  type VisibilityPolicy,
  visibilityPolicy,
} from "./schema";
export { type AccessResult, checkAccess, type HiddenBy, hiddenBy, visibleModels } from "./visibility";
