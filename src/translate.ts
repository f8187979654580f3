import { strictLosses } from "./common/errors";
import type { Loss } from "./common/loss";
import type { Protocol } from "./common/model";
import { type ResolvedOptions, resolveOptions, type TranslateOptions } from "./common/options";
import { checkProtocol } from "./common/protocol-id";
import type { ErrorBodyOf, RequestOf, ResponseOf } from "./protocols";
import { adapters, protocols } from "./protocols";
import { guarded, validated } from "./validate";

/** Tells `onLoss` of each loss, then, in strict mode, fails with them. */
function finish<T>(value: T, losses: Loss[], options: ResolvedOptions): { value: T; losses: Loss[] } {
  const onLoss = options.onLoss;
  if (onLoss !== undefined) for (const entry of losses) onLoss(entry);
  if (options.strict && losses.length > 0) throw strictLosses(losses);
  return { value, losses };
}

/** Both ids are checked before anything else. */
function checkPair(from: unknown, to: unknown): void {
  checkProtocol(from, protocols, "from");
  checkProtocol(to, protocols, "to");
}

/** Translates a request body from one protocol to another; every loss is reported with a pointer into `body`. */
export function translateRequest<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  body: unknown,
  options?: TranslateOptions,
): { value: RequestOf<To>; losses: Loss[]; model: string; stream: boolean } {
  checkPair(from, to);
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
    // Both lists are the converters' own: the common case (no decode loss) copies nothing.
    const all = decoded.losses.length === 0 ? encoded.losses : decoded.losses.concat(encoded.losses);
    const { value, losses } = finish(encoded.value as RequestOf<To>, all, resolved);
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
  checkPair(from, to);
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
 * target protocol's error status and body, with a loss for each field of the body that does not arrive
 * (a `param` or `code` the target has no field for, a type it names otherwise, fields such as
 * generative `details`). The mapping is the one a stream encoder renders a mid-stream error with, so
 * an error reads the same either way. Never throws for a body (an unknown protocol id is a TypeError);
 * `options.onLoss` hears each loss, and `strict` does not apply (an error is always rendered).
 */
export function translateError<From extends Protocol, To extends Protocol>(
  from: From,
  to: To,
  error: { status: number; body: unknown },
  options?: Pick<TranslateOptions, "onLoss">,
): { status: number; body: ErrorBodyOf<To>; losses: Loss[] } {
  checkPair(from, to);
  const source = adapters[from];
  if (from === (to as Protocol) && source.schemas.errorBody.safeParse(error.body).success) {
    return { status: error.status, body: error.body as ErrorBodyOf<To>, losses: [] };
  }
  const info = source.decodeError(error);
  const losses: Loss[] = [];
  const encoded = adapters[to].encodeError(info, losses);
  const onLoss = options?.onLoss;
  if (onLoss !== undefined) for (const entry of losses) onLoss(entry);
  return { status: encoded.status, body: encoded.body as ErrorBodyOf<To>, losses };
}
