/**
 * Default vector sizes of the named embedding models, and the rule that only the 3-series models
 * accept `dimensions`.
 */

/** Default dimensions by model id. */
export const defaultDimensions: Readonly<Record<string, number>> = Object.freeze({
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
  "text-embedding-004": 768,
  "x-embedding-001": 768,
  "text-embedding-v1": 1024,
  "embedding-bert-512-v1": 512,
  "bge-large-zh": 1024,
  "bge-large-en": 1024,
});

/** The default dimensions of `model`, when the table names it. */
export function defaultDimensionsOf(model: string): number | undefined {
  return Object.hasOwn(defaultDimensions, model) ? defaultDimensions[model] : undefined;
}

/** True for the 3-series text-embedding models, the only ones that accept `dimensions`. */
export function supportsDimensions(model: string): boolean {
  return model.startsWith("text-embedding-3-");
}

/** The chat-shaped 400 body `checkDimensions` answers with (`param: "dimensions"`). */
export type DimensionsErrorBody = {
  error: { message: string; type: "invalid_request_error"; param: "dimensions"; code: string };
};

/** The answer of `checkDimensions`: `{ ok: true }`, or the 400 to send the client. */
export type DimensionsCheck = { ok: true } | { ok: false; status: 400; body: DimensionsErrorBody };

function reject(message: string, code: string): DimensionsCheck {
  return {
    ok: false,
    status: 400,
    body: { error: { message, type: "invalid_request_error", param: "dimensions", code } },
  };
}

/**
 * Checks `dimensions` of a chat-style embeddings request: absent is fine; otherwise the model must
 * support it (by default the 3-series, `supports` overrides) and the value must be a whole number from
 * 1 to the model's default size. A refusal is a 400 in chat's error shape.
 * @example
 * checkDimensions({ model: "text-embedding-ada-002", dimensions: 256 }).ok; // => false
 */
export function checkDimensions(
  request: { readonly model: string; readonly dimensions?: number | undefined },
  supports: (model: string) => boolean = supportsDimensions,
): DimensionsCheck {
  const { model, dimensions } = request;
  if (dimensions === undefined) return { ok: true };
  if (!supports(model))
    return reject(
      `The model ${model} does not support \`dimensions\`; remove it from the request.`,
      "unsupported_parameter",
    );
  const max = defaultDimensionsOf(model);
  if (!Number.isInteger(dimensions) || dimensions < 1 || (max !== undefined && dimensions > max)) {
    const range = max === undefined ? "a whole number of at least 1" : `a whole number from 1 to ${max}`;
    return reject(`\`dimensions\` must be ${range} for ${model}; got ${dimensions}.`, "invalid_value");
  }
  return { ok: true };
}
