/**
 * Reasoning state that rides through a client of another protocol and comes home. An upstream's opaque
 * reasoning state (a thinking signature, a thought signature, encrypted reasoning) is valid only at the
 * provider that issued it. When the client speaks another protocol, the state is wrapped into a field
 * that client echoes back verbatim (its own thinking signature, thought signature, encrypted reasoning
 * or tool call id: each protocol folder chooses), and unwrapped on the client's next request, so the
 * issuer gets it back byte for byte and no other provider ever does.
 *
 * The wrapping is standard base64 (every carrier field accepts it, generative `thoughtSignature` is
 * bytes) of `gpr1`, the issuer's protocol id and the entries as JSON, one per line. Nothing here knows a
 * protocol's field names.
 */
import { type Loss, loss } from "./loss";
import type * as common from "./model";

/** One piece of carried state, as the issuer's folder decoded it. */
export type CarriedEntry =
  /** A whole reasoning part: its text when the carrier does not hold it, its signature or redacted data. */
  | {
      readonly reasoning: {
        readonly text?: string | undefined;
        readonly signature?: string | undefined;
        readonly redacted?: string | undefined;
      };
    }
  /**
   * A signature of another part (generative `thoughtSignature` on a call or a text): of the part the
   * carrier sits on or before (`next`), or of the one it follows (`previous`).
   */
  | { readonly signature: string; readonly of: "next" | "previous" };

/** What a carrier held: the protocol that issued the state, and the state. */
export type Carried = { readonly origin: common.Protocol; readonly entries: readonly CarriedEntry[] };

const MAGIC = "gpr1";
/** The base64 of `gpr1` followed by a line break: every carrier starts with it. */
const PREFIX = "Z3ByMQ";

/**
 * The largest carrier written, in characters: state beyond it (a thinking text of hundreds of kilobytes)
 * is not carried but reported, so that no client is handed an unbounded field to echo.
 */
export const MAX_CARRIER_LENGTH = 256 * 1024;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: true });
const ascii = new TextDecoder();

/** The base64 alphabet as character codes. */
const ALPHABET = Uint8Array.from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", (char) =>
  char.charCodeAt(0),
);
const PAD = 61; // "="

/**
 * The base64 of `text`'s UTF-8 bytes, written as ASCII bytes and decoded once: a carrier holds whole
 * reasoning texts, and `btoa` over a string built with `String.fromCharCode(...chunk)` took half of a
 * response's translation toward responses.
 */
function toBase64(text: string): string {
  const bytes = utf8.encode(text);
  const length = bytes.length;
  const out = new Uint8Array(Math.ceil(length / 3) * 4);
  let at = 0;
  let index = 0;
  for (; index + 2 < length; index += 3) {
    const triple =
      ((bytes[index] as number) << 16) | ((bytes[index + 1] as number) << 8) | (bytes[index + 2] as number);
    out[at++] = ALPHABET[triple >> 18] as number;
    out[at++] = ALPHABET[(triple >> 12) & 63] as number;
    out[at++] = ALPHABET[(triple >> 6) & 63] as number;
    out[at++] = ALPHABET[triple & 63] as number;
  }
  if (index < length) {
    const first = bytes[index] as number;
    const second = index + 1 < length ? (bytes[index + 1] as number) : 0;
    const pair = (first << 16) | (second << 8);
    out[at++] = ALPHABET[pair >> 18] as number;
    out[at++] = ALPHABET[(pair >> 12) & 63] as number;
    out[at++] = index + 1 < length ? (ALPHABET[(pair >> 6) & 63] as number) : PAD;
    out[at++] = PAD;
  }
  return ascii.decode(out);
}

function fromBase64(text: string): string | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  try {
    return fromUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The carrier for `carried`, or `undefined` when it would be longer than `MAX_CARRIER_LENGTH`. */
export function wrapCarried(carried: Carried): string | undefined {
  const lines = [MAGIC, carried.origin];
  for (const entry of carried.entries) lines.push(JSON.stringify(entry));
  // A length check before encoding: base64 is 4/3 of the UTF-8 bytes, at least the characters.
  let length = 0;
  for (const line of lines) length += line.length + 1;
  if (length > MAX_CARRIER_LENGTH) return undefined;
  const wrapped = toBase64(lines.join("\n"));
  return wrapped.length > MAX_CARRIER_LENGTH ? undefined : wrapped;
}

const isString = (value: unknown): value is string => typeof value === "string";
const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === "string";

function readEntry(line: string): CarriedEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  if (isString(entry.signature) && (entry.of === "next" || entry.of === "previous"))
    return { signature: entry.signature, of: entry.of };
  const reasoning = entry.reasoning as Record<string, unknown> | undefined;
  if (typeof reasoning !== "object" || reasoning === null) return undefined;
  if (!isOptionalString(reasoning.text) || !isOptionalString(reasoning.signature)) return undefined;
  if (!isOptionalString(reasoning.redacted)) return undefined;
  const out: { text?: string; signature?: string; redacted?: string } = {};
  if (isString(reasoning.text)) out.text = reasoning.text;
  if (isString(reasoning.signature)) out.signature = reasoning.signature;
  if (isString(reasoning.redacted)) out.redacted = reasoning.redacted;
  return { reasoning: out };
}

/**
 * What a carrier holds, or `undefined` when `text` is not one (a provider's own signature, or anything
 * else): only a well-formed carrier is read. Its origin is a protocol id as written; one the library
 * does not know matches no target, so its state is dropped like any foreign state.
 */
export function unwrapCarried(text: string): Carried | undefined {
  if (!text.startsWith(PREFIX)) return undefined;
  const decoded = fromBase64(text);
  if (decoded === undefined) return undefined;
  const lines = decoded.split("\n");
  if (lines[0] !== MAGIC) return undefined;
  const origin = lines[1];
  if (origin === undefined || !/^[a-z]+$/.test(origin)) return undefined;
  const entries: CarriedEntry[] = [];
  for (let index = 2; index < lines.length; index++) {
    const entry = readEntry(lines[index] as string);
    if (entry === undefined) return undefined;
    entries.push(entry);
  }
  return { origin: origin as common.Protocol, entries };
}

/** Whether `text` looks like a carrier (cheap: the prefix only), before `unwrapCarried` reads it. */
export function mayBeCarrier(text: string): boolean {
  return text.startsWith(PREFIX);
}

/** The common parts a carrier stands for: reasoning parts, and signatures for the parts around it. */
export type CarriedParts = {
  readonly reasoning: readonly common.ReasoningPart[];
  /** For the part the carrier sits on, or the one after it. */
  readonly next?: common.Signature | undefined;
  /** For the part before the carrier. */
  readonly previous?: common.Signature | undefined;
};

/**
 * The parts of a carrier read at `source`, its field at `fieldSource`. `visibleText` is the text the
 * carrier's own block shows (a thinking text, a reasoning summary): the text of a reasoning entry
 * that does not hold its own.
 */
export function carriedParts(
  carried: Carried,
  visibleText: string,
  source: common.Source,
  fieldSource: common.Source,
): CarriedParts {
  const reasoning: common.ReasoningPart[] = [];
  let next: common.Signature | undefined;
  let previous: common.Signature | undefined;
  for (const entry of carried.entries) {
    if ("signature" in entry) {
      const signature = { origin: carried.origin, value: entry.signature, source: fieldSource };
      if (entry.of === "next") next = signature;
      else previous = signature;
      continue;
    }
    const part: common.Draft<common.ReasoningPart> = {
      type: "reasoning",
      text: entry.reasoning.text ?? visibleText,
      origin: carried.origin,
      source,
    };
    if (entry.reasoning.signature !== undefined) {
      part.signature = entry.reasoning.signature;
      part.signatureSource = fieldSource;
    }
    if (entry.reasoning.redacted !== undefined) part.redacted = entry.reasoning.redacted;
    reasoning.push(part);
  }
  return { reasoning, next, previous };
}

/**
 * The entry for a reasoning part of another protocol. `withText`: the carrier does not show the text
 * itself. `stateless`: whether a part with no signature or redacted data gets one (marking its origin,
 * so that its text goes home as that protocol's reasoning) or `undefined`.
 */
export function reasoningEntry(
  part: common.ReasoningPart,
  withText: boolean,
  stateless: boolean,
): CarriedEntry | undefined {
  if (!stateless && part.signature === undefined && part.redacted === undefined) return undefined;
  const reasoning: { text?: string; signature?: string; redacted?: string } = {};
  if (withText) reasoning.text = part.text;
  if (part.signature !== undefined) reasoning.signature = part.signature;
  if (part.redacted !== undefined) reasoning.redacted = part.redacted;
  return { reasoning };
}

/** The code of the loss for state too large to carry. */
export const TOO_LARGE_CODE = "reasoning_state.oversize";

/** The message of the loss for state too large to carry. */
export const TOO_LARGE_TO_CARRY = `The reasoning state is larger than a carrier holds (${MAX_CARRIER_LENGTH / 1024} KiB); it cannot ride through the client and was dropped.`;

const takesSignature = (part: common.Part | undefined): part is common.TextPart | common.ToolCallPart =>
  part?.type === "text" || part?.type === "tool-call";

/**
 * A message's parts as a request decoder reads them, with what carriers stand for put in place: their
 * reasoning parts where the carrier was, their signatures on the call or text beside it.
 */
export type PartList = {
  push(part: common.Part): void;
  carry(carried: CarriedParts, source: common.Source): void;
  /** The parts, once the message is read. */
  parts(): common.Part[];
};

export function createPartList(losses: Loss[]): PartList {
  const parts: common.Part[] = [];
  let next: { signature: common.Signature; source: common.Source } | undefined;
  const unplaced = (source: common.Source): void => {
    losses.push(
      loss(
        source,
        "dropped",
        "A carried signature had no call or text beside it and was dropped.",
        "reasoning_state.unplaced",
      ),
    );
  };
  return {
    push(part) {
      if (next !== undefined && takesSignature(part)) {
        parts.push({ ...part, signature: next.signature });
        next = undefined;
        return;
      }
      parts.push(part);
    },
    carry(carried, source) {
      if (next !== undefined) unplaced(next.source);
      next = undefined;
      if (carried.previous !== undefined) {
        const last = parts[parts.length - 1];
        if (takesSignature(last)) parts[parts.length - 1] = { ...last, signature: carried.previous };
        else unplaced(source);
      }
      for (const part of carried.reasoning) parts.push(part);
      if (carried.next !== undefined) next = { signature: carried.next, source };
    },
    parts() {
      if (next !== undefined) unplaced(next.source);
      next = undefined;
      return parts;
    },
  };
}

// ─── Carriers that ride on a later part (generative thought signatures, chat tool call ids) ─────────

/** State held for the next part that can carry it: entries of one origin, and where each came from. */
export type Held = {
  readonly origin: common.Protocol;
  readonly entries: readonly CarriedEntry[];
  readonly sources: readonly string[];
};

/**
 * `held` with a foreign reasoning part's state added; state of another origin before it is reported
 * (a carrier holds one origin). `home` is the client protocol, `what` the parts that carry its state.
 */
export function holdState(
  held: Held | undefined,
  part: common.ReasoningPart,
  losses: Loss[],
  home: common.Protocol,
  what: string,
): Held | undefined {
  if (part.signature === undefined && part.redacted === undefined) return held;
  const state: { text: string; signature?: string; redacted?: string } = { text: part.text };
  if (part.signature !== undefined) state.signature = part.signature;
  if (part.redacted !== undefined) state.redacted = part.redacted;
  const source = part.signatureSource ?? part.source;
  const kept = held !== undefined && held.origin === part.origin ? held : undefined;
  if (held !== undefined && kept === undefined) unplacedState(held, losses, home, what);
  return {
    origin: part.origin,
    entries: [...(kept?.entries ?? []), { reasoning: state }],
    sources: [...(kept?.sources ?? []), source],
  };
}

/**
 * The carrier for the next part that can carry state, as a signature of `home`'s own: what `held`
 * carries, and the part's own `signature` when another protocol issued it. `signature` itself when
 * there is nothing to carry; `undefined` when the carrier would be too large (reported).
 */
export function carrierOf(
  home: common.Protocol,
  held: Held | undefined,
  signature: common.Signature | undefined,
  source: string,
  losses: Loss[],
  what: string,
): common.Signature | undefined {
  const own = signature !== undefined && signature.origin !== home ? signature : undefined;
  if (own === undefined && held === undefined) return signature;
  let entries = held?.entries ?? [];
  if (held !== undefined && own !== undefined && held.origin !== own.origin) {
    unplacedState(held, losses, home, what);
    entries = [];
  }
  if (own !== undefined) entries = [...entries, { signature: own.value, of: "next" }];
  const origin = own?.origin ?? (held as Held).origin;
  const at = own?.source ?? held?.sources[0] ?? source;
  const value = wrapCarried({ origin, entries });
  if (value === undefined) {
    losses.push(loss(at, "dropped", TOO_LARGE_TO_CARRY, TOO_LARGE_CODE));
    return undefined;
  }
  return { origin: home, value, source: at };
}

/** Reports state held for a part that never came. */
export function unplacedState(
  held: Held | undefined,
  losses: Loss[],
  home: common.Protocol,
  what: string,
): void {
  for (const source of held?.sources ?? [])
    losses.push(
      loss(
        source,
        "dropped",
        `Reasoning state of another protocol with no ${what} after it has no field a ${home} client sends back; it was dropped.`,
        "reasoning_state.uncarried",
      ),
    );
}

/**
 * A response's parts as a `home` client gets them: another protocol's reasoning shows as its text, its
 * state held for the next part that `carries`, which gets a signature of `home`'s own (the carrier)
 * for that state and its own foreign signature. The carrier's field is the protocol folder's choice.
 */
export function carryState(
  home: common.Protocol,
  parts: readonly common.Part[],
  carries: (part: common.Part) => part is common.TextPart | common.ToolCallPart,
  losses: Loss[],
  what: string,
  /**
   * What the client protocol carries in a field of its own (left on the part as it is): reasoning
   * parts, and a signature of a part with nothing else to carry.
   */
  native?: {
    readonly reasoning?: (part: common.ReasoningPart) => boolean;
    readonly signature?: (signature: common.Signature) => boolean;
  },
): readonly common.Part[] {
  let held: Held | undefined;
  let changed = false;
  const out: common.Part[] = [];
  for (const part of parts) {
    if (part.type === "reasoning" && part.origin !== home && native?.reasoning?.(part) !== true) {
      held = holdState(held, part, losses, home, what);
      changed = true;
      if (part.text !== "")
        out.push({ type: "reasoning", text: part.text, origin: part.origin, source: part.source });
      continue;
    }
    if (carries(part)) {
      const own = part.signature;
      const foreign = own !== undefined && own.origin !== home;
      if (own !== undefined && !foreign && held !== undefined) {
        // The part's own signature takes its field: what was held finds no place.
        unplacedState(held, losses, home, what);
        held = undefined;
      }
      if (held !== undefined || (foreign && native?.signature?.(own) !== true)) {
        const signature = carrierOf(home, held, own, part.source, losses, what);
        held = undefined;
        changed = true;
        const { signature: _, ...rest } = part;
        out.push(signature === undefined ? rest : { ...rest, signature });
        continue;
      }
    }
    out.push(part);
  }
  unplacedState(held, losses, home, what);
  return changed ? out : parts;
}
