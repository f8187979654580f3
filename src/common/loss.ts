/** What happened to a piece of the input that did not reach the output as it was. */
export type LossKind = "dropped" | "clamped" | "synthesized" | "approximated";

/**
 * A piece of the input that did not reach the output as it was: where it is in the input, what
 * happened to it, and a sentence saying what to do about it. Every translate function returns these
 * (and gives each to `options.onLoss`); match on `kind` and `path`, never on `message`.
 * @example
 * { path: "/temperature", kind: "clamped", message: "temperature 1.5 is above messages' maximum of 1; sent as 1." }
 */
export type Loss = {
  /** JSON pointer into the caller's input (RFC 6901), e.g. "/messages/2/content/0/cache_control". */
  readonly path: string;
  readonly kind: LossKind;
  /** One sentence a person can act on. */
  readonly message: string;
};

/** A converter's result: the value and every loss it took to build it. */
export type Translated<T> = { value: T; losses: Loss[] };

export function loss(path: string, kind: LossKind, message: string): Loss {
  return { path, kind, message };
}
