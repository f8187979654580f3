/**
 * Common system blocks and turns → chat `messages`: system blocks at the top, tool results as `tool`
 * messages (before the rest of their user turn), reasoning as `reasoning_content`.
 */
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import { syntheticId } from "../../common/options";
import { placeSystem } from "../../common/system";
import { encodeAssistant, type Target } from "./assistant";
import { cacheBreakpoint, encodeMediaPart } from "./content";
import { DIALECTS } from "./dialect";
import type * as chat from "./schema";

function encodeSystem(
  blocks: readonly common.SystemBlock[],
  breakpoints: boolean,
  losses: Loss[],
): chat.Message[] {
  const out: chat.Message[] = [];
  let group: common.SystemBlock[] = [];
  // A block's cache hint is a breakpoint on its part (OpenAI), which needs the parts form.
  const marks = new Map<common.SystemBlock, { mode: "explicit" }>();
  const flush = () => {
    const first = group[0];
    if (first === undefined) return;
    const role = first.role === "developer" ? "developer" : "system";
    const content =
      group.length === 1 && !marks.has(first)
        ? first.text
        : group.map((block) => {
            const mark = marks.get(block);
            return mark === undefined
              ? { type: "text" as const, text: block.text }
              : { type: "text" as const, text: block.text, prompt_cache_breakpoint: mark };
          });
    out.push({ role, content });
    group = [];
  };
  for (const block of blocks) {
    const mark = cacheBreakpoint(block.cache, breakpoints, losses);
    if (mark !== undefined) marks.set(block, mark);
    if (block.late === true && block.at === undefined) {
      losses.push(
        loss(block.source, "approximated", "A system message from mid-conversation was moved to the top."),
      );
    }
    const previous = group[0];
    if (previous !== undefined && (previous.role === "developer") !== (block.role === "developer")) flush();
    group.push(block);
  }
  flush();
  return out;
}

type PendingCall = { readonly name: string; readonly id: string };

function dropPart(part: common.Part, where: string, losses: Loss[]): void {
  const what = part.type === "opaque" ? part.label : `${part.type} part`;
  losses.push(
    loss(
      part.source,
      "dropped",
      `A ${what} cannot appear in a chat ${where} message and was dropped.`,
      "block.dropped",
    ),
  );
}

function toolResultText(part: common.ToolResultPart): string {
  const texts = part.content.filter((item) => item.type === "text").map((item) => item.text);
  if (texts.length > 0 || part.json === undefined) return texts.join("\n");
  return typeof part.json === "string" ? part.json : JSON.stringify(part.json);
}

function encodeUserTurn(
  message: common.Message,
  pending: PendingCall[],
  turn: number,
  options: ResolvedOptions,
  losses: Loss[],
): chat.Message[] {
  const toolMessages: chat.Message[] = [];
  const breakpoints = options.chatDialect === "openai";
  const moved: chat.ContentPart[] = [];
  const rest: chat.ContentPart[] = [];
  let ordinal = 0;
  for (const part of message.parts) {
    switch (part.type) {
      case "tool-result": {
        let callId = part.callId;
        if (callId === undefined) {
          const match = pending.findIndex((call) => part.name === undefined || call.name === part.name);
          const call = match === -1 ? undefined : pending.splice(match, 1)[0];
          callId = call?.id ?? syntheticId(options, `req${turn}`, ordinal);
          if (call === undefined) {
            losses.push(
              loss(
                `${part.source}/tool_call_id`,
                "synthesized",
                "The tool result had no call id; one was made up.",
              ),
            );
          }
        }
        ordinal++;
        if (part.isError === true) {
          losses.push(
            loss(
              part.source,
              "approximated",
              "Chat tool messages have no error flag; the error result was sent as ordinary content.",
            ),
          );
        }
        // A hint on the result, or on a text block inside it, is a breakpoint on the tool message's text.
        let mark = cacheBreakpoint(part.cache, breakpoints, losses);
        for (const item of part.content) {
          if (item.type !== "media") {
            // Media report theirs in encodeMediaPart.
            if (item.cache !== undefined) mark = cacheBreakpoint(item.cache, breakpoints, losses) ?? mark;
            continue;
          }
          const encoded = encodeMediaPart(item, losses, breakpoints);
          if (encoded === undefined) continue;
          losses.push(
            loss(
              item.source,
              "approximated",
              "Chat tool messages are text only; the media was moved into a user message after the tool results.",
            ),
          );
          moved.push(encoded);
        }
        const text = toolResultText(part);
        toolMessages.push({
          role: "tool",
          tool_call_id: callId,
          content: mark === undefined ? text : [{ type: "text", text, prompt_cache_breakpoint: mark }],
        });
        break;
      }
      case "text": {
        const mark = cacheBreakpoint(part.cache, breakpoints, losses);
        rest.push(
          mark === undefined
            ? { type: "text", text: part.text }
            : { type: "text", text: part.text, prompt_cache_breakpoint: mark },
        );
        break;
      }
      case "media": {
        const encoded = encodeMediaPart(part, losses, breakpoints);
        if (encoded !== undefined) rest.push(encoded);
        break;
      }
      default:
        dropPart(part, "user", losses);
    }
  }
  const content = [...moved, ...rest];
  if (content.length === 0 && toolMessages.length > 0) return toolMessages;
  const only = content[0];
  const user: chat.UserMessage = {
    role: "user",
    content:
      content.length === 1 && only?.type === "text" && only.prompt_cache_breakpoint === undefined
        ? only.text
        : content.length === 0
          ? ""
          : content,
    ...(message.name === undefined ? {} : { name: message.name }),
  };
  return [...toolMessages, user];
}

/** Request history: everything chat cannot carry is reported against the user's own input. */
const HISTORY: Target = {
  reportCache: true,
  callId: (part) => part.id,
  idPath: (part) => `${part.source}/id`,
  citations: (citations, source, losses) => {
    losses.push(
      loss(
        citations.source ?? `${source}/citations`,
        "dropped",
        "Citations in history have no chat request field and were dropped.",
      ),
    );
    return undefined;
  },
  unsupported: (part, losses) => dropPart(part, "assistant", losses),
};

function encodeAssistantTurn(
  message: common.Message,
  pending: PendingCall[],
  turn: number,
  options: ResolvedOptions,
  losses: Loss[],
): chat.AssistantMessage {
  const dialect = DIALECTS[options.chatDialect];
  const { text, reasoning, refusal, reasoningDetails, toolCalls } = encodeAssistant(
    message.parts,
    HISTORY,
    `req${turn}`,
    options,
    losses,
  );
  for (const call of toolCalls)
    pending.push({ name: call.type === "custom" ? call.custom.name : call.function.name, id: call.id });
  // An assistant message needs content or tool calls: an empty turn (generative `{"role":"model"}`) says "".
  const value: chat.AssistantMessage = {
    role: "assistant",
    content: text ?? (toolCalls.length > 0 || refusal !== undefined ? null : ""),
  };
  if (reasoningDetails !== undefined) value.reasoning_details = reasoningDetails;
  else if (reasoning !== undefined) value[dialect.reasoningField] = reasoning;
  else if (dialect.reasoningOnToolTurns && toolCalls.length > 0) {
    // DeepSeek rejects a tool-call turn of the history without its reasoning.
    value[dialect.reasoningField] = "";
    losses.push(
      loss(
        message.source,
        "synthesized",
        `The tool-call turn had no reasoning; an empty \`${dialect.reasoningField}\` was sent, as the upstream requires one.`,
      ),
    );
  }
  if (refusal !== undefined) value.refusal = refusal;
  if (toolCalls.length > 0) value.tool_calls = toolCalls;
  if (message.name !== undefined) value.name = message.name;
  return value;
}

export function encodeMessages(
  request: common.Request,
  options: ResolvedOptions,
  losses: Loss[],
): chat.Message[] {
  // A system message of the conversation stays in its place: chat takes system messages anywhere.
  const { top, placed } = placeSystem(request.system, request.messages.length);
  // OpenAI's chat takes cache breakpoints on parts; the compatible dialects have no cache hint.
  const breakpoints = options.chatDialect === "openai";
  const out = encodeSystem(top, breakpoints, losses);
  const pending: PendingCall[] = [];
  request.messages.forEach((message, turn) => {
    const here = placed.get(turn);
    if (here !== undefined) out.push(...encodeSystem(here, breakpoints, losses));
    if (message.role === "assistant") out.push(encodeAssistantTurn(message, pending, turn, options, losses));
    else out.push(...encodeUserTurn(message, pending, turn, options, losses));
  });
  const last = placed.get(request.messages.length);
  if (last !== undefined) out.push(...encodeSystem(last, breakpoints, losses));
  return out;
}
