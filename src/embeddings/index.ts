/** The `embeddings` namespace: wire schemas, default dimensions, base64 vectors and translation. */
export { decodeBase64, encodeBase64 } from "./base64";
export {
  checkDimensions,
  type DimensionsCheck,
  type DimensionsErrorBody,
  defaultDimensions,
  defaultDimensionsOf,
  supportsDimensions,
} from "./dimensions";
export {
  type EmbeddingsRequestOf,
  type EmbeddingsRequestOptions,
  type GenerativeEmbeddingsCall,
  type TranslatedEmbeddingsRequest,
  translateEmbeddingsRequest,
} from "./request";
export {
  type EmbeddingsResponseOf,
  type EmbeddingsResponseOptions,
  translateEmbeddingsResponse,
} from "./response";
export * from "./schema";
export type { EmbeddingsProtocol, GenerativeMethod } from "./shared";
