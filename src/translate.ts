import { strictLosses } from "./common/errors";
import type { Loss } from "./common/loss";
import type { Protocol } from "./common/model";
import { type ResolvedOptions, resolveOptions, type TranslateOptions } from "./common/options";
import type { ErrorBodyOf, RequestOf, ResponseOf } from "./protocols";
import { adapters } from "./protocols";
import { guarded, validated } from "./validate";

function finish<T>(value: T, losses: Loss[], options: ResolvedOptions): { value: T; losses: Loss[] } {
  if (options.strict && losses.length > 0) throw strictLosses(losses);
  return { value, losses };
}

/** Translates a request body from one protocol to another; every loss is reported with a pointer into `body`. */
export function translateRequest<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  body: unknown,
  options?: TranslateOptions,
): { value: RequestOf<To>; losses: Loss[]; model: string; stream: boolean } {
  const resolved = resolveOptions(options);
  const source = adapters[from];
  const input = validated(source, "request", from, body, resolved);
  return guarded(from, "request", () => {
    if (from === (to as Protocol)) {
      const info = source.requestInfo(input, resolved);
      return { value: input as RequestOf<To>, losses: [], model: info.model, stream: info.stream };
    }
    const decoded = source.decodeRequest(input, resolved);
    const encoded = adapters[to].encodeRequest(decoded.value, resolved);
    const { value, losses } = finish(
      encoded.value as RequestOf<To>,
      [...decoded.losses, ...encoded.losses],
      resolved,
    );
    return { value, losses, model: decoded.value.model, stream: decoded.value.stream };
  });
}

/** Translates a whole (non-streamed) response body from one protocol to another. */
export function translateResponse<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  body: unknown,
  options?: TranslateOptions,
): { value: ResponseOf<To>; losses: Loss[] } {
  const resolved = resolveOptions(options);
  const source = adapters[from];
  const input = validated(source, "response", from, body, resolved);
  return guarded(from, "response", () => {
    if (from === (to as Protocol)) return { value: input as ResponseOf<To>, losses: [] };
    const decoded = source.decodeResponse(input, resolved);
    const encoded = adapters[to].encodeResponse(decoded.value, resolved);
    return finish(encoded.value as ResponseOf<To>, [...decoded.losses, ...encoded.losses], resolved);
  });
}

/**
 * Translates an upstream error (any status, any body: JSON or not, known shape or not) into the
 * target protocol's error status and body. Never throws.
 */
export function translateError<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  error: { status: number; body: unknown },
): { status: number; body: ErrorBodyOf<To> } {
  const source = adapters[from];
  if (from === (to as Protocol) && source.schemas.errorBody.safeParse(error.body).success) {
    return { status: error.status, body: error.body as ErrorBodyOf<To> };
  }
  const info = source.decodeError(error);
  return adapters[to].encodeError(info) as { status: number; body: ErrorBodyOf<To> };
}
