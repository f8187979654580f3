/** What happened to a piece of the input that did not reach the output as it was. */
export type LossKind = "dropped" | "clamped" | "synthesized" | "approximated";

/**
 * A piece of the input that did not reach the output as it was: where it is in the input, what
 * happened to it, a stable code to count it by, and a sentence saying what to do about it. Every
 * translate function returns these (and gives each to `options.onLoss`); match on `code`, `kind` and
 * `path`, never on `message`.
 * @example
 * { path: "/temperature", kind: "clamped", code: "temperature.clamped",
 *   message: "temperature 1.5 is above messages' maximum of 1; sent as 1." }
 */
export type Loss = {
  /** JSON pointer into the caller's input (RFC 6901), e.g. "/messages/2/content/0/cache_control". */
  readonly path: string;
  readonly kind: LossKind;
  /**
   * What was lost and why, stable across versions and free of array indices, for counting:
   * `cache_control.dropped`, `thinking.signature.foreign`. Most are the last field name of `path` and
   * the kind (`codeOf`); a site whose pointer does not name the field class gives its own. Every code
   * is listed in docs/conversions.md.
   */
  readonly code: string;
  /** One sentence a person can act on. */
  readonly message: string;
};

/** A converter's result: the value and every loss it took to build it. */
export type Translated<T> = { value: T; losses: Loss[] };

/**
 * A loss at `path`. Its code is `code` when the site gives one, else derived from the pointer
 * (`codeOf`): give one where the pointer's last field does not say what was lost (a whole stream
 * event, an element of a list whose kinds differ in meaning).
 */
export function loss(path: string, kind: LossKind, message: string, code?: string): Loss {
  return { path, kind, code: code ?? codeOf(path, kind), message };
}

/**
 * The derived code of a loss: the last field name of its pointer (array indices skipped, `~1` and
 * `~0` unescaped) and its kind, `/messages/2/content/0/cache_control` → `cache_control.dropped`; a
 * pointer that ends at an element names its list (`/tools/3` → `tools.dropped`). A pointer with no
 * field name at all (the body, a whole stream event `/12`) gives `event.<kind>`.
 */
export function codeOf(path: string, kind: LossKind): string {
  let end = path.length;
  while (end > 0) {
    const start = path.lastIndexOf("/", end - 1);
    const token = path.slice(start + 1, end);
    if (token !== "" && !isIndex(token)) return `${unescapeToken(token)}.${kind}`;
    if (start < 0) break;
    end = start;
  }
  return `event.${kind}`;
}

function isIndex(token: string): boolean {
  for (let index = 0; index < token.length; index++) {
    const char = token.charCodeAt(index);
    if (char < 48 || char > 57) return false;
  }
  return true;
}

function unescapeToken(token: string): string {
  return token.indexOf("~") === -1 ? token : token.replaceAll("~1", "/").replaceAll("~0", "~");
}
