import { TranslationError } from "../common/errors";
import type * as common from "../common/model";
import { resolveOptions, type TranslateOptions } from "../common/options";
import { checkProtocol } from "../common/protocol-id";
import type { EventOf, ResponseOf } from "../protocols";
import { adapters, protocols } from "../protocols";
import { guarded, validated } from "../validate";
import { ResponseBuilder, responseToParts } from "./parts";
import { decodeEvents, encodeParts } from "./translator";

/**
 * A protocol's stream as the whole response it adds up to: the protocol's stream decoder folded into a
 * common response, encoded back by the same protocol. A stream that carried an error throws a
 * TranslationError with the error's status and message; so does a stream cut off before its protocol's
 * finish: it adds up to no whole response.
 */
export function accumulate<P extends common.Protocol>(
  protocol: P,
  events: Iterable<EventOf<P>>,
  options?: TranslateOptions,
): ResponseOf<P> {
  checkProtocol(protocol, protocols, "protocol");
  const resolved = resolveOptions(options);
  return guarded(protocol, "stream", () => {
    const builder = new ResponseBuilder();
    decodeEvents(protocol, events, resolved, (part) => builder.add(part));
    const error = builder.error;
    if (error !== undefined) {
      throw new TranslationError(`The ${protocol} stream ended with an error: ${error.message}`, {
        status: error.status,
      });
    }
    return adapters[protocol].encodeResponse(builder.build(), resolved).value as ResponseOf<P>;
  });
}

/**
 * A whole response as the event list its protocol would have streamed, so that `accumulate(p,
 * replay(p, r))` gives `r` back. Two limits come from streams themselves: a stream carries one choice,
 * so only the first choice (candidate) is replayed; and every well-formed stream ends with a finish
 * reason, so a choice without one replays with the protocol's default (chat `stop`, generative `STOP`).
 */
export function replay<P extends common.Protocol>(
  protocol: P,
  response: ResponseOf<P>,
  options?: TranslateOptions,
): EventOf<P>[] {
  checkProtocol(protocol, protocols, "protocol");
  const resolved = resolveOptions(options);
  const adapter = adapters[protocol];
  return guarded(protocol, "response", () => {
    const input = validated(adapter, "response", protocol, response, resolved);
    const decoded = adapter.decodeResponse(input, resolved).value;
    return encodeParts(protocol, responseToParts(decoded), resolved) as EventOf<P>[];
  });
}
