import { type Loss, loss } from "./loss";
import type { Draft, ErrorInfo, ErrorKind } from "./model";
import { at } from "./pointer";

/** The longest error message carried over from an upstream body. */
const MAX_MESSAGE = 2048;

/**
 * The error kind an HTTP status means, whatever the protocol: status first, then each
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
 * title when there is one, else the text with tags stripped and whitespace collapsed, at most 2 KB.
 * The input is cut before any pattern runs, so a huge body costs little.
 */
export function plainErrorText(body: string): string {
  const head = body.length > 65_536 ? body.slice(0, 65_536) : body;
  const title = pageTitle(head);
  const text = stripTags(title ?? dropScripts(head))
    .replace(/\s+/g, " ")
    .trim();
  return text.length > MAX_MESSAGE ? text.slice(0, MAX_MESSAGE) : text;
}

// The three scans below do what `/<title[^>]*>([^<]*)<\/title>/i`, `/<(script|style)[^>]*>[^<]*<\/(script|style)>/gi`
// and `/<[^>]*>/g` do, in one pass each: those patterns backtrack over every `<` without a `>` after it
// (quadratic: a 64 KB body of `<` took 2.4 s). test/common/error-text.test.ts holds them equal.

const TITLE_OPEN = /<title/gi;
const TITLE_CLOSE = /<\/title>/iy;
const BLOCK_OPEN = /<(?:script|style)/gi;
const BLOCK_CLOSE = /<\/(?:script|style)>/iy;

/**
 * The first element opened by `open` whose text (up to the next `<`) is followed by `close`: the start of
 * the opening tag, the text's bounds and the end of the closing tag, or `undefined`. A failed candidate's
 * `>` and next `<` are those of every candidate before that `<`, so the search goes on from there.
 */
function element(
  text: string,
  from: number,
  open: RegExp,
  close: RegExp,
): { start: number; inner: number; innerEnd: number; end: number } | undefined {
  open.lastIndex = from;
  for (;;) {
    const found = open.exec(text);
    if (found === null) return undefined;
    const gt = text.indexOf(">", found.index + found[0].length);
    if (gt < 0) return undefined;
    const lt = text.indexOf("<", gt + 1);
    if (lt < 0) return undefined;
    close.lastIndex = lt;
    const closing = close.exec(text);
    if (closing !== null)
      return { start: found.index, inner: gt + 1, innerEnd: lt, end: lt + closing[0].length };
    open.lastIndex = lt;
  }
}

/** The text of the page's first `<title>…</title>`, if it has one. */
function pageTitle(head: string): string | undefined {
  const found = element(head, 0, TITLE_OPEN, TITLE_CLOSE);
  return found === undefined ? undefined : head.slice(found.inner, found.innerEnd);
}

/** `head` with each script or style element (text without tags inside) replaced by a space. */
function dropScripts(head: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const found = element(head, from, BLOCK_OPEN, BLOCK_CLOSE);
    if (found === undefined) return out + head.slice(from);
    out += `${head.slice(from, found.start)} `;
    from = found.end;
  }
}

/** `text` with each tag (`<`, anything but `>`, `>`) replaced by a space. */
function stripTags(text: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const lt = text.indexOf("<", from);
    const gt = lt < 0 ? -1 : text.indexOf(">", lt + 1);
    if (gt < 0) return out + text.slice(from);
    out += `${text.slice(from, lt)} `;
    from = gt + 1;
  }
}

/** `info` with its pointers moved under `base` (a mid-stream error: the event's pointer). */
export function rebaseError(info: ErrorInfo, base: string): ErrorInfo {
  if (base === "" || (info.codeSource === undefined && info.paramSource === undefined && !info.unread))
    return info;
  const moved: Draft<ErrorInfo> = { ...info };
  if (info.codeSource !== undefined) moved.codeSource = base + info.codeSource;
  if (info.paramSource !== undefined) moved.paramSource = base + info.paramSource;
  if (info.unread !== undefined) moved.unread = info.unread.map((path) => base + path);
  return moved;
}

/**
 * The pointers of an error body's fields that a decoder did not read: `top`'s keys outside `readTop`,
 * and `inner`'s (the body's `error` object, at `/error`) outside `readInner`; a `null` field says
 * nothing and is not one. `prefix` is `/0` for a body that came as a one-element array.
 */
export function unreadFields(
  top: Readonly<Record<string, unknown>> | undefined,
  readTop: readonly string[],
  inner: Readonly<Record<string, unknown>> | undefined,
  readInner: readonly string[],
  prefix: string,
): string[] {
  const unread: string[] = [];
  if (top !== undefined)
    for (const key in top) {
      if (Object.hasOwn(top, key) && top[key] !== null && !readTop.includes(key))
        unread.push(at(prefix, key));
    }
  if (inner !== undefined)
    for (const key in inner) {
      if (Object.hasOwn(inner, key) && inner[key] !== null && !readInner.includes(key))
        unread.push(at(prefix, "error", key));
    }
  return unread;
}

/** Each unread field of `info` as a dropped loss: every encoder's first step, so one table decides. */
export function reportUnread(info: ErrorInfo, target: string, losses: Loss[] | undefined): void {
  if (losses === undefined || info.unread === undefined) return;
  for (const path of info.unread)
    losses.push(
      loss(path, "dropped", `This field of the upstream error has no ${target} form and was dropped.`),
    );
}
