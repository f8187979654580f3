/**
 * Tool call ids a protocol would refuse (messages takes `^[a-zA-Z0-9_-]+$`, a responses `call_id` at
 * most 64 characters; some chat providers send `functions.Bash:0`): rewritten deterministically into
 * one it takes, `gpid_` and the id's UTF-8 bytes in base64url, and restored when a client sends it
 * back. An id too long even so is shortened to a digest, which cannot be restored.
 */
import { digest } from "./digest";
import { type Loss, loss } from "./loss";
import type * as common from "./model";

/** What a protocol takes as a tool call id. */
export type IdRule = {
  /** The protocol's name, for loss messages. */
  readonly name: string;
  /** Characters it takes (the whole id must match). */
  readonly pattern?: RegExp | undefined;
  readonly maxLength?: number | undefined;
};

const PREFIX = "gpid_";
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: true });

const fits = (id: string, rule: IdRule): boolean =>
  (rule.maxLength === undefined || id.length <= rule.maxLength) &&
  (rule.pattern === undefined || rule.pattern.test(id));

function toBase64Url(text: string): string {
  let binary = "";
  for (const byte of utf8.encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
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

/** `id` as `rule` takes it: itself when it fits, else rewritten (reported at `source`). */
export function fitToolId(id: string, rule: IdRule, source: string, losses: Loss[]): string {
  if (fits(id, rule)) return id;
  const rewritten = `${PREFIX}${toBase64Url(id)}`;
  if (fits(rewritten, rule)) {
    losses.push(
      loss(
        source,
        "approximated",
        `The tool call id ${JSON.stringify(id)} is not one ${rule.name} takes; it was sent as "${rewritten}", which is read back as the original.`,
        "tool_call.id.rewritten",
      ),
    );
    return rewritten;
  }
  const shortened = `${PREFIX}h${digest(id)}`;
  losses.push(
    loss(
      source,
      "approximated",
      `The tool call id ${JSON.stringify(id)} is too long for ${rule.name}; it was sent as "${shortened}", which cannot be read back as the original.`,
      "tool_call.id.shortened",
    ),
  );
  return shortened;
}

/** The id a rewritten id stands for; any other id as it is. */
export function restoreToolId(id: string): string {
  if (!id.startsWith(PREFIX)) return id;
  return fromBase64Url(id.slice(PREFIX.length)) ?? id;
}

/** Whether a request's or response's tool ids all fit `rule` (the common case: nothing to rewrite). */
function allFit(messages: readonly { readonly parts: readonly common.Part[] }[], rule: IdRule): boolean {
  for (const message of messages)
    for (const part of message.parts) {
      if (part.type === "tool-call" && part.id !== undefined && !fits(part.id, rule)) return false;
      if (part.type === "tool-result" && part.callId !== undefined && !fits(part.callId, rule)) return false;
    }
  return true;
}

/** The parts with their tool ids fit to `rule`: a call and the result answering it get the same id. */
function fitParts(parts: readonly common.Part[], rule: IdRule, losses: Loss[]): common.Part[] {
  return parts.map((part) => {
    if (part.type === "tool-call" && part.id !== undefined && !fits(part.id, rule))
      return { ...part, id: fitToolId(part.id, rule, part.source, losses) };
    if (part.type === "tool-result" && part.callId !== undefined && !fits(part.callId, rule))
      return { ...part, callId: fitToolId(part.callId, rule, part.source, losses) };
    return part;
  });
}

/** A request whose tool ids `rule` takes. */
export function fitRequestToolIds(request: common.Request, rule: IdRule, losses: Loss[]): common.Request {
  if (allFit(request.messages, rule)) return request;
  return {
    ...request,
    messages: request.messages.map((message) => ({
      ...message,
      parts: fitParts(message.parts, rule, losses),
    })),
  };
}

/** A response whose tool ids `rule` takes. */
export function fitResponseToolIds(response: common.Response, rule: IdRule, losses: Loss[]): common.Response {
  if (allFit(response.choices, rule)) return response;
  return {
    ...response,
    choices: response.choices.map((choice) => ({ ...choice, parts: fitParts(choice.parts, rule, losses) })),
  };
}
