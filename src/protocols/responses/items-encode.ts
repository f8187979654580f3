/**
 * Common system blocks and turns → responses `instructions` and `input` items. One system block without
 * a role is `instructions`; any other system text goes first as system/developer messages. A user turn
 * becomes its messages and function outputs in order; an assistant turn its reasoning, message and
 * call items in order, so a reasoning item stays right before the item it belongs to. Reasoning and
 * signatures of another protocol are never replayed here: they are valid only where they were issued.
 */
import { parseJsonObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import { placeSystem } from "../../common/system";
import { cacheBreakpoint, cacheDropped, encodeMediaPart } from "./content";
import type { Raw } from "./fields";
import { encodeReasoningItem, shellOf } from "./reasoning";
import type { InputContent, InputItem } from "./schema";
import { encodeTools } from "./tools";

/** A request with nothing but what `encodeTools` is given. */
const EMPTY_REQUEST: common.Request = { model: "", stream: false, system: [], messages: [], tools: [] };

type Pending = { readonly name: string; readonly id: string };

function encodeSystem(
  blocks: readonly common.SystemBlock[],
  losses: Loss[],
  asItems = false,
): { instructions?: string; items: InputItem[] } {
  const marks = new Map<common.SystemBlock, { mode: "explicit" }>();
  for (const block of blocks) {
    const mark = cacheBreakpoint(block.cache, losses);
    if (mark !== undefined) marks.set(block, mark);
    if (block.late === true && block.at === undefined)
      losses.push(
        loss(block.source, "approximated", "A system message from mid-conversation was moved to the top."),
      );
  }
  const only = blocks[0];
  if (!asItems && blocks.length === 1 && only !== undefined && only.role === undefined && marks.size === 0)
    return { instructions: only.text, items: [] };
  const items: InputItem[] = [];
  let group: common.SystemBlock[] = [];
  const flush = (): void => {
    const first = group[0];
    if (first === undefined) return;
    const role = first.role === "developer" ? "developer" : "system";
    const content =
      group.length === 1 && !marks.has(first)
        ? first.text
        : group.map((block) => {
            const mark = marks.get(block);
            return mark === undefined
              ? { type: "input_text" as const, text: block.text }
              : { type: "input_text" as const, text: block.text, prompt_cache_breakpoint: mark };
          });
    items.push({ role, content });
    group = [];
  };
  for (const block of blocks) {
    const previous = group[0];
    if (previous !== undefined && (previous.role === "developer") !== (block.role === "developer")) flush();
    group.push(block);
  }
  flush();
  return { items };
}

function dropPart(part: common.Part, where: string, losses: Loss[]): void {
  const what = part.type === "opaque" ? `${part.origin} ${part.label}` : `${part.type} part`;
  losses.push(
    loss(part.source, "dropped", `A ${what} cannot appear in a responses ${where} and was dropped.`),
  );
}

/** The `output` of a function_call_output: one text as a string, else the parts (text, images, files). */
function resultOutput(part: common.ToolResultPart, losses: Loss[]): string | InputContent[] {
  // A hint on the whole result is a breakpoint on its last part (the parts form, then).
  const mark = cacheBreakpoint(part.cache, losses);
  if (part.content.length === 0 && part.json !== undefined) {
    if (typeof part.json !== "string")
      losses.push(
        loss(part.source, "approximated", "The tool result was a JSON value; it was sent as its JSON text."),
      );
    const text = typeof part.json === "string" ? part.json : JSON.stringify(part.json);
    return mark === undefined ? text : [{ type: "input_text", text, prompt_cache_breakpoint: mark }];
  }
  const only = part.content[0];
  if (part.content.length === 1 && only?.type === "text" && only.cache === undefined && mark === undefined)
    return only.text;
  if (part.content.length === 0)
    return mark === undefined ? "" : [{ type: "input_text", text: "", prompt_cache_breakpoint: mark }];
  const parts: InputContent[] = [];
  for (const item of part.content) {
    if (item.type === "text") {
      const own = cacheBreakpoint(item.cache, losses);
      parts.push(
        own === undefined
          ? { type: "input_text", text: item.text }
          : { type: "input_text", text: item.text, prompt_cache_breakpoint: own },
      );
    } else {
      const encoded = encodeMediaPart(item, losses);
      if (encoded !== undefined) parts.push(encoded);
    }
  }
  if (part.json !== undefined)
    losses.push(loss(part.source, "dropped", "A JSON value beside the tool result's content was dropped."));
  const last = parts.at(-1);
  if (mark !== undefined && last !== undefined)
    parts[parts.length - 1] = { ...last, prompt_cache_breakpoint: mark } as InputContent;
  return parts;
}

function encodeUserTurn(
  message: common.Message,
  pending: Pending[],
  turn: number,
  options: ResolvedOptions,
  items: InputItem[],
  losses: Loss[],
): void {
  let content: InputContent[] = [];
  let textSource: string | undefined;
  const flush = (): void => {
    if (content.length === 0) return;
    const only = content[0] as { type: string; text?: string };
    // One plain text part is the message's string content (EasyInputMessage).
    const plain = content.length === 1 && only.type === "input_text" && textSource !== undefined;
    items.push({ role: "user", content: plain ? (only.text as string) : content });
    content = [];
    textSource = undefined;
  };
  let ordinal = 0;
  for (const part of message.parts) {
    switch (part.type) {
      case "text": {
        const mark = cacheBreakpoint(part.cache, losses);
        // A part with a breakpoint keeps the parts form.
        textSource = content.length === 0 && mark === undefined ? part.source : undefined;
        content.push(
          mark === undefined
            ? { type: "input_text", text: part.text }
            : { type: "input_text", text: part.text, prompt_cache_breakpoint: mark },
        );
        break;
      }
      case "media": {
        const encoded = encodeMediaPart(part, losses);
        if (encoded !== undefined) {
          content.push(encoded);
          textSource = undefined;
        }
        break;
      }
      case "tool-result": {
        flush();
        let callId = part.callId;
        if (callId === undefined) {
          const match = pending.findIndex((call) => part.name === undefined || call.name === part.name);
          const call = match === -1 ? undefined : pending.splice(match, 1)[0];
          callId = call?.id ?? syntheticId(options, `req${turn}`, ordinal);
          if (call === undefined)
            losses.push(
              loss(
                at(part.source, "call_id"),
                "synthesized",
                "The tool result had no call id; one was made up.",
              ),
            );
        }
        ordinal++;
        if (part.isError === true)
          losses.push(
            loss(
              part.source,
              "approximated",
              "responses function outputs have no error flag; the error result was sent as ordinary output.",
            ),
          );
        if (part.tools !== undefined) {
          if (part.cache !== undefined) losses.push(cacheDropped(part.cache));
          // The tools a client's tool search loaded go back as its output.
          const tools = encodeTools({ ...EMPTY_REQUEST, tools: part.tools }, losses).tools ?? [];
          items.push({
            type: "tool_search_output",
            call_id: callId,
            execution: "client",
            tools,
          } as InputItem);
          if (part.content.length > 0 || part.json !== undefined)
            losses.push(
              loss(
                part.source,
                "dropped",
                "A tool search's output holds only the tools it loaded; its content was dropped.",
              ),
            );
          break;
        }
        items.push({ type: "function_call_output", call_id: callId, output: resultOutput(part, losses) });
        break;
      }
      case "opaque":
        flush();
        if (part.origin === "responses") items.push(part.raw as InputItem);
        else dropPart(part, "user turn", losses);
        break;
      default:
        dropPart(part, "user turn", losses);
    }
  }
  flush();
}

/**
 * An assistant turn as it is encoded: the message content gathered so far (sent as one assistant
 * message before the next item and at the end of the turn), whether it is one plain text, and the
 * number of calls so far (the ordinal of a made-up call id).
 */
type AssistantDraft = {
  readonly items: InputItem[];
  readonly pending: Pending[];
  readonly turn: number;
  readonly options: ResolvedOptions;
  readonly losses: Loss[];
  content: Raw[];
  plain: boolean;
  calls: number;
};

/** An assistant message → items: its texts and refusals as assistant messages, reasoning and calls as items. */
function encodeAssistantTurn(
  message: common.Message,
  pending: Pending[],
  turn: number,
  options: ResolvedOptions,
  items: InputItem[],
  losses: Loss[],
): void {
  const draft: AssistantDraft = {
    items,
    pending,
    turn,
    options,
    losses,
    content: [],
    plain: false,
    calls: 0,
  };
  for (const part of message.parts) {
    switch (part.type) {
      case "text":
        addAssistantText(draft, part);
        break;
      case "refusal":
        draft.plain = false;
        draft.content.push({ type: "refusal", refusal: part.text });
        break;
      case "reasoning":
        flushAssistantContent(draft);
        encodeAssistantReasoning(draft, part);
        break;
      case "tool-call":
        flushAssistantContent(draft);
        encodeAssistantCall(draft, part);
        break;
      case "opaque":
        flushAssistantContent(draft);
        if (part.origin === "responses") items.push(part.raw as InputItem);
        else dropPart(part, "assistant turn", losses);
        break;
      default:
        dropPart(part, "assistant turn", losses);
    }
  }
  flushAssistantContent(draft);
}

/** The content gathered, as one assistant message (one plain text as its string content). */
function flushAssistantContent(draft: AssistantDraft): void {
  const { content } = draft;
  if (content.length === 0) return;
  const only = content[0] as { type: string; text?: string };
  draft.items.push({
    role: "assistant",
    content:
      draft.plain && content.length === 1 && only.type === "output_text" ? (only.text as string) : content,
  } as InputItem);
  draft.content = [];
}

/** A thought signature of another provider on a text or call: dropped, said. */
function signatureDropped(part: common.TextPart | common.ToolCallPart, signature: common.Signature): Loss {
  return loss(
    signature.source ?? part.source,
    "dropped",
    "A thought signature is valid only at the provider that issued it and was dropped.",
    "thinking.signature.foreign",
  );
}

/** A text part: an `output_text` of the content, with its annotations when they are responses' own. */
function addAssistantText(draft: AssistantDraft, part: common.TextPart): void {
  const { losses } = draft;
  if (part.cache !== undefined) losses.push(cacheDropped(part.cache));
  if (part.signature !== undefined) losses.push(signatureDropped(part, part.signature));
  const text: Raw = { type: "output_text", text: part.text };
  if (part.citations !== undefined) {
    if (part.citations.origin === "responses") text.annotations = part.citations.items;
    else
      losses.push(
        loss(
          part.citations.source ?? at(part.source, "citations"),
          "dropped",
          "Citations in history have no responses request field and were dropped.",
        ),
      );
  }
  draft.plain = draft.content.length === 0 && text.annotations === undefined;
  draft.content.push(text);
}

/** A reasoning part: responses' own becomes a reasoning item again; another protocol's is dropped. */
function encodeAssistantReasoning(draft: AssistantDraft, part: common.ReasoningPart): void {
  if (part.origin !== "responses") {
    draft.losses.push(
      loss(
        part.source,
        "dropped",
        `Reasoning of the ${part.origin} protocol cannot be replayed to a responses service (its reasoning items are valid only with the ids and encrypted content it issued) and was dropped.`,
        "thinking.foreign",
      ),
    );
    return;
  }
  draft.items.push(
    encodeReasoningItem(
      part,
      shellOf(part),
      syntheticId(draft.options, `rs_req${draft.turn}`, draft.items.length),
      draft.losses,
      "a responses request",
      false,
    ) as InputItem,
  );
}

/**
 * A tool call: a server call of responses' own is replayed as it was (another's is dropped); a client
 * call becomes a function, custom or tool search call item (an id made up when it has none), pending
 * its result.
 */
function encodeAssistantCall(draft: AssistantDraft, part: common.ToolCallPart): void {
  const { losses } = draft;
  if (part.cache !== undefined) losses.push(cacheDropped(part.cache));
  if (part.server !== undefined) {
    if (part.server.origin === "responses") draft.items.push(part.server.raw as InputItem);
    else
      losses.push(
        loss(
          part.source,
          "dropped",
          `A ${part.server.origin} server-side tool call cannot be replayed to a responses service and was dropped.`,
        ),
      );
    return;
  }
  if (part.signature !== undefined) losses.push(signatureDropped(part, part.signature));
  const id = part.id ?? syntheticId(draft.options, `req${draft.turn}`, draft.calls);
  if (part.id === undefined)
    losses.push(loss(at(part.source, "id"), "synthesized", "The tool call had no id; one was made up."));
  draft.calls++;
  draft.pending.push({ name: part.name, id });
  const own = part.extra?.origin === "responses" ? part.extra.raw : undefined;
  const item: Raw = own === undefined ? {} : { ...own };
  const text = part.argumentsText ?? JSON.stringify(part.arguments ?? {});
  if (part.search === true) {
    item.type = "tool_search_call";
    item.call_id = id;
    item.execution = "client";
    item.arguments = part.arguments ?? parseJsonObject(text) ?? {};
  } else if (part.freeform === true) {
    item.type = "custom_tool_call";
    item.call_id = id;
    item.name = part.name;
    item.input = text;
  } else {
    item.type = "function_call";
    item.call_id = id;
    item.name = part.name;
    item.arguments = text;
  }
  if (part.namespace !== undefined && part.search !== true) item.namespace = part.namespace;
  draft.items.push(item as InputItem);
}

/** Common system and messages → `instructions` and `input`. */
export function encodeItems(
  request: common.Request,
  options: ResolvedOptions,
  losses: Loss[],
): { instructions?: string; input: InputItem[] } {
  // A system message of the conversation stays in its place: responses takes them anywhere in `input`.
  const { top, placed } = placeSystem(request.system, request.messages.length);
  const { instructions, items } = encodeSystem(top, losses);
  const pending: Pending[] = [];
  const inPlace = (turn: number): void => {
    const here = placed.get(turn);
    if (here !== undefined) items.push(...encodeSystem(here, losses, true).items);
  };
  request.messages.forEach((message, turn) => {
    inPlace(turn);
    if (message.name !== undefined)
      losses.push(
        loss(
          at(message.source, "name"),
          "dropped",
          "A message `name` has no responses equivalent and was dropped.",
        ),
      );
    if (message.role === "assistant") encodeAssistantTurn(message, pending, turn, options, items, losses);
    else encodeUserTurn(message, pending, turn, options, items, losses);
  });
  inPlace(request.messages.length);
  return instructions === undefined ? { input: items } : { instructions, input: items };
}
