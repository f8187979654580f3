/**
 * chat's own fields with no common slot, kept in `extra` so that chat itself restores them exactly
 * (accumulate/replay). Other protocols ignore them: the decoders report them as dropped.
 */
import { isKnown, isObject, type Keys, unknownKeys } from "../../common/json";
import type * as common from "../../common/model";

type Raw = Readonly<Record<string, unknown>>;

/** `ToolCallPart.extra` of a chat call whose id was `""`: no id for other protocols, `""` again for chat. */
export const EMPTY_ID: common.Extra = { origin: "chat", raw: { id: "" } };

/** The id a chat encoder writes for a call: its own, chat's kept `""`, or none (the caller makes one up). */
export function callId(part: {
  id?: string | undefined;
  extra?: common.Extra | undefined;
}): string | undefined {
  if (part.id !== undefined) return part.id;
  return part.extra?.origin === "chat" && part.extra.raw.id === "" ? "" : undefined;
}

/** Fields of a response or chunk outside `known` (`system_fingerprint`, `service_tier` ...). */
export function chatExtra(node: object, known: Keys): common.Extra | undefined {
  const keys = unknownKeys(node, known);
  // `usage: null` (every chunk but the last of a chat stream) says "no usage yet"; chat restores it as given.
  if ((node as { usage?: unknown }).usage === null) keys.push("usage");
  if (keys.length === 0) return undefined;
  return { origin: "chat", raw: pick(node, keys) };
}

/**
 * The fields `keys` of `node` as a new object. Plain assignment is the fast path; a `__proto__` key
 * takes `Object.fromEntries`, which makes it an own field instead of touching the prototype.
 */
export function pick(node: object, keys: readonly string[]): Record<string, unknown> {
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (key === "__proto__") return Object.fromEntries(keys.map((name) => [name, source[name]]));
    out[key] = source[key];
  }
  return out;
}

/** Known fields kept in a message's rest when `null` or `[]`: they say nothing, and chat restores them as given. */
export const EMPTY_TOO: Keys = [
  "content",
  "refusal",
  "tool_calls",
  "annotations",
  "reasoning_content",
  "reasoning",
  "reasoning_details",
  "audio",
];

const isEmpty = (value: unknown): boolean => value === null || (Array.isArray(value) && value.length === 0);

/**
 * An audio answer that says nothing: every field `null`, `""` or 0 (Snowflake Cortex sends
 * `{id: "", data: "", expires_at: 0, transcript: ""}` on every message). Kept as given, never a loss.
 * `except`: a field not looked at (a stream piece's transcript, which is read as text).
 */
export function isEmptyAudio(audio: object, except?: string): boolean {
  for (const key in audio) {
    const value = (audio as Record<string, unknown>)[key];
    if (key !== except && value !== null && value !== "" && value !== 0) return false;
  }
  return true;
}

/** Empty text a stream never carries as a delta; not `content`, whose `""` opens every chat stream. */
export const EMPTY_TEXT: Keys = ["refusal", "reasoning_content", "reasoning"];

/**
 * What a message (or a delta) says beyond the common parts: fields that are null or empty (`refusal:
 * null`, `annotations: []`, which chat sends on every message) and fields chat alone knows (`audio` ...).
 */
export function messageRest(message: object, known: Keys): Raw {
  let keys: string[] | undefined;
  for (const key in message) {
    if (key === "role" || !Object.hasOwn(message, key)) continue;
    if (isKnown(known, key)) {
      const value = (message as Record<string, unknown>)[key];
      if (!((isKnown(EMPTY_TOO, key) && isEmpty(value)) || (isKnown(EMPTY_TEXT, key) && value === "")))
        continue;
    }
    if (keys === undefined) keys = [];
    keys.push(key);
  }
  return keys === undefined ? {} : pick(message, keys);
}

/** A choice's kept fields: its own unknown fields (`logprobs` ...) and its message's rest. */
export type ChoiceRaw = { readonly choice: Raw; readonly message: Raw };

/** Always given for a chat choice: it also says the finish reason is chat's own (kept verbatim). */
export function choiceExtra(raw: ChoiceRaw): common.Extra {
  return { origin: "chat", raw };
}

/** The kept fields of a chat choice extra, or empty ones when the extra is another protocol's. */
export function choiceRaw(extra: common.Extra | undefined): ChoiceRaw {
  if (extra?.origin !== "chat") return { choice: {}, message: {} };
  const { choice, message } = extra.raw as Partial<ChoiceRaw>;
  return { choice: choice ?? {}, message: message ?? {} };
}

/**
 * Folds one more chunk's fields into those gathered so far: an empty value never hides a given one,
 * `logprobs` lists are concatenated (each chunk carries the log probabilities of its own tokens).
 */
export function mergeRaw(before: Raw, after: Raw): Raw {
  const out: Record<string, unknown> = { ...before };
  for (const [key, value] of Object.entries(after)) {
    const prior = out[key];
    if (isEmpty(value) && prior !== undefined) continue;
    if (key === "logprobs" && isObject(prior) && isObject(value)) {
      const merged: Record<string, unknown> = { ...prior };
      for (const [field, list] of Object.entries(value)) {
        const old = merged[field];
        merged[field] = Array.isArray(old) && Array.isArray(list) ? [...old, ...list] : list;
      }
      out[key] = merged;
    } else out[key] = value;
  }
  return out;
}
