/**
 * Chat `messages` → common system blocks and turns: system/developer hoisted (late ones marked),
 * `tool`/`function` messages become user turns holding one tool result, assistant tool calls become parts.
 */
import { type Keys, parseJsonObject, unknownKeys } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import {
  decodeAssistantParts,
  decodeChatToolCall,
  decodeReasoning,
  TOOL_CALL_KEYS,
  withMessageSignature,
} from "./assistant-decode";
import { splitId } from "./carrier";
import { cacheHint, decodeContentPart } from "./content";
import type * as chat from "./schema";

const KNOWN_MESSAGE_KEYS: Record<chat.Message["role"], Keys> = {
  system: ["role", "content", "name"],
  developer: ["role", "content", "name"],
  user: ["role", "content", "name"],
  assistant: [
    "role",
    "content",
    "refusal",
    "tool_calls",
    "function_call",
    "name",
    "reasoning_content",
    "reasoning",
    "reasoning_details",
    "extra_content",
    "thought_signature",
  ],
  tool: ["role", "content", "tool_call_id"],
  function: ["role", "content", "name"],
};

const SYSTEM_PART_KEYS: Keys = ["type", "text", "cache_control", "prompt_cache_breakpoint"];

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (Array.isArray(value) && value.length === 0);

/** A tool call's arguments text → parsed object when it is one; the raw text is always kept. */
export function decodeToolCall(
  call: { id?: string | undefined; name: string; arguments: string },
  source: string,
  argumentsSource?: string,
): common.ToolCallPart {
  const parsed = call.arguments.trim() === "" ? {} : parseJsonObject(call.arguments);
  // Built by assignment (no conditional spreads): one hidden class for the common call.
  const part: common.Draft<common.ToolCallPart> =
    call.id === undefined || call.id === ""
      ? { type: "tool-call", name: call.name, source }
      : { type: "tool-call", id: call.id, name: call.name, source };
  if (parsed !== undefined) part.arguments = parsed;
  part.argumentsText = call.arguments;
  if (argumentsSource !== undefined) part.argumentsSource = argumentsSource;
  return part;
}

function systemBlocks(
  message: chat.SystemMessage | chat.DeveloperMessage,
  source: string,
  late: number | undefined,
  losses: Loss[],
): common.SystemBlock[] {
  const base = { role: message.role, ...(late === undefined ? {} : { late: true, at: late }) };
  if (message.name !== undefined) {
    losses.push(
      loss(
        `${source}/name`,
        "dropped",
        "A name on a system message has no common equivalent and was dropped.",
      ),
    );
  }
  if (typeof message.content === "string") return [{ text: message.content, ...base, source }];
  return message.content.map((part, index) => {
    const partSource = `${source}/content/${index}`;
    const cache = cacheHint(part.cache_control, partSource, part.prompt_cache_breakpoint);
    for (const key of unknownKeys(part, SYSTEM_PART_KEYS)) {
      losses.push(
        loss(
          at(partSource, key),
          "dropped",
          `\`${key}\` on a system part has no common equivalent and was dropped.`,
        ),
      );
    }
    return { text: part.text, ...base, ...(cache === undefined ? {} : { cache }), source: partSource };
  });
}

function textContent(
  content: string | readonly chat.ContentPart[],
  source: string,
  losses: Loss[],
): common.Part[] {
  if (typeof content === "string") return [{ type: "text", text: content, source: `${source}/content` }];
  return content.map((part, index) => decodeContentPart(part, `${source}/content/${index}`, losses));
}

function decodeAssistant(message: chat.AssistantMessage, source: string, losses: Loss[]): common.Part[] {
  const parts: common.Part[] = decodeReasoning(message, source, losses);
  const content = message.content;
  if (typeof content === "string") parts.push({ type: "text", text: content, source: `${source}/content` });
  else if (content != null) parts.push(...decodeAssistantParts(content, `${source}/content`, losses));
  if (message.refusal != null)
    parts.push({ type: "refusal", text: message.refusal, source: `${source}/refusal` });
  // Another protocol's reasoning state, carried home in the call ids (carrier.ts): the first call's
  // goes first in the message (where an issuer puts its thinking, before any text), a later call's
  // right before that call.
  let carried: common.ReasoningPart[] | undefined;
  message.tool_calls?.forEach((call, index) => {
    const callSource = `${source}/tool_calls/${index}`;
    const part = decodeChatToolCall(call, callSource, TOOL_CALL_KEYS, losses);
    const split = part.id === undefined ? undefined : splitId(part.id, callSource);
    if (split?.carried !== undefined) {
      part.id = split.id;
      if (split.carried.next !== undefined) part.signature = split.carried.next;
      if (carried === undefined) carried = [...split.carried.reasoning];
      else for (const reasoning of split.carried.reasoning) parts.push(reasoning);
    }
    parts.push(part);
  });
  if (message.function_call != null) {
    const callSource = `${source}/function_call`;
    parts.push(decodeToolCall(message.function_call, callSource, `${callSource}/arguments`));
  }
  const echoed = message as { extra_content?: unknown; thought_signature?: unknown };
  const signed =
    echoed.extra_content === undefined && echoed.thought_signature === undefined
      ? parts
      : withMessageSignature(echoed, source, parts, losses);
  return carried === undefined ? signed : withCarried(carried, signed);
}

/**
 * The reasoning the first call carried home first; the message's own reasoning text goes when it is the
 * carried reasoning shown to the client (sent back as it was given), and stays otherwise.
 */
function withCarried(carried: readonly common.ReasoningPart[], parts: readonly common.Part[]): common.Part[] {
  let shown = "";
  for (const part of parts) if (part.type === "reasoning" && part.origin === "chat") shown += part.text;
  let text = "";
  for (const part of carried) text += part.text;
  for (const part of parts) if (part.type === "reasoning" && part.origin !== "chat") text += part.text;
  const echo = shown !== "" && shown === text;
  return [
    ...carried,
    ...parts.filter((part) => !(echo && part.type === "reasoning" && part.origin === "chat")),
  ];
}

/** Names of the calls of earlier assistant turns by id, the latest call of an id winning (a tool message names its call). */
function noteCallNames(message: chat.AssistantMessage, names: Map<string, string>): void {
  const calls = message.tool_calls;
  if (calls == null) return;
  // Backwards, so the first call of an id within one message wins, as a search from the front would.
  for (let index = calls.length - 1; index >= 0; index--) {
    const call = calls[index] as chat.ToolCall;
    names.set(splitId(call.id, "").id, call.type === "function" ? call.function.name : call.custom.name);
  }
}

export function decodeMessages(
  messages: readonly chat.Message[],
  losses: Loss[],
): { system: common.SystemBlock[]; messages: common.Message[] } {
  const system: common.SystemBlock[] = [];
  const turns: common.Message[] = [];
  // A system message after the conversation began changes meaning when hoisted.
  let seenTurn = false;
  const names = new Map<string, string>();
  messages.forEach((message, index) => {
    const source = `/messages/${index}`;
    if (message.role !== "system" && message.role !== "developer") seenTurn = true;
    for (const key of unknownKeys(message, KNOWN_MESSAGE_KEYS[message.role])) {
      // An echoed response message carries `annotations: null`, `audio: null` ...: they say nothing.
      if (isBlank((message as Record<string, unknown>)[key])) continue;
      losses.push(
        loss(
          at(source, key),
          "dropped",
          `\`${key}\` on a ${message.role} message has no common equivalent and was dropped.`,
        ),
      );
    }
    switch (message.role) {
      case "system":
      case "developer":
        system.push(...systemBlocks(message, source, seenTurn ? turns.length : undefined, losses));
        return;
      case "user":
        turns.push(
          message.name === undefined
            ? { role: "user", parts: textContent(message.content, source, losses), source }
            : {
                role: "user",
                parts: textContent(message.content, source, losses),
                name: message.name,
                source,
              },
        );
        return;
      case "assistant":
        noteCallNames(message, names);
        turns.push(
          message.name === undefined
            ? { role: "assistant", parts: decodeAssistant(message, source, losses), source }
            : {
                role: "assistant",
                parts: decodeAssistant(message, source, losses),
                name: message.name,
                source,
              },
        );
        return;
      case "tool": {
        // A call id that carried reasoning state (carrier.ts) answers the call by its own id.
        const callId = splitId(message.tool_call_id, source).id;
        const name = names.get(callId);
        const content =
          typeof message.content === "string"
            ? [{ type: "text" as const, text: message.content, source: `${source}/content` }]
            : message.content.map((part, partIndex) => ({
                type: "text" as const,
                text: part.text,
                source: `${source}/content/${partIndex}`,
              }));
        turns.push({
          role: "user",
          parts: [
            name === undefined
              ? { type: "tool-result", callId, content, source }
              : { type: "tool-result", callId, name, content, source },
          ],
          source,
        });
        return;
      }
      case "function":
        turns.push({
          role: "user",
          parts: [
            {
              type: "tool-result",
              name: message.name,
              content:
                message.content === null
                  ? []
                  : [{ type: "text", text: message.content, source: `${source}/content` }],
              source,
            },
          ],
          source,
        });
        return;
    }
  });
  return { system, messages: turns };
}
