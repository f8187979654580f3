import type { ErrorKind } from "./model";

/** The longest error message carried over from an upstream body. */
const MAX_MESSAGE = 2048;

/**
 * The error kind an HTTP status means, whatever the protocol (research E3): status first, then each
 * protocol refines by its own type/code. `undefined` for statuses that are not errors.
 */
export function errorKindOfStatus(status: number): ErrorKind | undefined {
  switch (status) {
    case 400:
      return "invalid_request";
    case 401:
      return "authentication";
    case 402:
      return "payment";
    case 403:
      return "permission";
    case 404:
      return "not_found";
    case 408:
    case 504:
      return "timeout";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit";
    case 503:
    case 529:
      return "overloaded";
    default:
      if (status >= 500 && status < 600) return "server";
      if (status >= 400 && status < 500) return "invalid_request";
      return undefined;
  }
}

/**
 * The readable text of a body that is not JSON (an HTML error page, a proxy's plain text): the page
 * title when there is one, else the text with tags stripped and whitespace collapsed, at most 2 KB
 * (research E4). The input is cut before any pattern runs, so a huge body costs little.
 */
export function plainErrorText(body: string): string {
  const head = body.length > 65_536 ? body.slice(0, 65_536) : body;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(head)?.[1];
  const text = (title ?? head.replace(/<(script|style)[^>]*>[^<]*<\/(script|style)>/gi, " "))
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > MAX_MESSAGE ? text.slice(0, MAX_MESSAGE) : text;
}
