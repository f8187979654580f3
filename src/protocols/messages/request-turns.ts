/**
 * Common system + messages → messages `system` and turns: system hoisted, turns merged,
 * empty text removed, a user turn first, tool results first in their turn, prefill trimmed.
 */
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import { syntheticId } from "../../common/options";
import {
  cacheControl,
  encodeMediaPart,
  encodeOpaquePart,
  encodeReasoningPart,
  encodeTextPart,
  encodeToolCallPart,
  encodeToolResultPart,
} from "./encode-blocks";
import type { ContentBlockParam, Message, Request, TextBlock } from "./schema";

/** The visible placeholder of an inserted user turn (whitespace is rejected). */
export const PLACEHOLDER = ".";

/** A block with the pointer of the part it came from. */
export type Block = { readonly value: ContentBlockParam; readonly source: string };

export type Turn = {
  readonly role: "user" | "assistant";
  readonly blocks: readonly Block[];
  /** Pointer of the first source message. */
  readonly source: string;
  /** A single text the source gave as a plain string: re-emitted as a string. */
  readonly plain: boolean;
};

type Ids = {
  readonly calls: ReadonlyMap<common.ToolCallPart, string>;
  readonly results: ReadonlyMap<common.ToolResultPart, string>;
};

/** No call needed an id: the common case (every protocol but generative before Gemini 3), allocation-free. */
const NO_IDS: Ids = { calls: new Map(), results: new Map() };

/**
 * Ids for calls that have none (generative): `syntheticId(options, "req" + turn, ordinal)`, and the
 * results without a call id matched to them by name, in order.
 */
function assignIds(request: common.Request, options: ResolvedOptions): Ids {
  let calls: Map<common.ToolCallPart, string> | undefined;
  let results: Map<common.ToolResultPart, string> | undefined;
  let open: { name: string; id: string }[] = [];
  let previousRole: string | undefined;
  request.messages.forEach((message, turn) => {
    // The calls of one assistant run (consecutive assistant messages: one turn in messages) are answered
    // by the results after the run, so the open calls start anew with a run, not with each message.
    if (message.role === "assistant" && previousRole !== "assistant") open = [];
    previousRole = message.role;
    let ordinal = 0;
    for (const part of message.parts) {
      if (part.type === "tool-call" && part.server === undefined) {
        const id = part.id ?? syntheticId(options, `req${turn}`, ordinal);
        if (part.id === undefined) {
          calls ??= new Map();
          calls.set(part, id);
        }
        open.push({ name: part.name, id });
        ordinal++;
      } else if (part.type === "tool-result" && part.callId === undefined) {
        const match = open.findIndex((call) => call.name === part.name);
        const call = match === -1 ? open[0] : open[match];
        if (call !== undefined) {
          results ??= new Map();
          results.set(part, call.id);
          open = open.filter((candidate) => candidate !== call);
        }
      }
    }
  });
  return calls === undefined && results === undefined
    ? NO_IDS
    : { calls: calls ?? NO_IDS.calls, results: results ?? NO_IDS.results };
}

function encodePart(
  part: common.Part,
  message: common.Message,
  ids: Ids,
  losses: Loss[],
): ContentBlockParam | undefined {
  switch (part.type) {
    case "text":
      return encodeTextPart(part, losses);
    case "media":
      return encodeMediaPart(part, losses);
    case "tool-call": {
      if (part.server !== undefined) {
        if (part.server.origin === "messages") return part.server.raw as ContentBlockParam;
        losses.push(
          loss(
            part.source,
            "dropped",
            `A ${part.server.origin} server-side tool call cannot be replayed to the messages API and was dropped.`,
          ),
        );
        return undefined;
      }
      return encodeToolCallPart(part, part.id ?? ids.calls.get(part) ?? part.name, losses);
    }
    case "tool-result": {
      const id = part.callId ?? ids.results.get(part);
      if (id === undefined) {
        losses.push(loss(part.source, "dropped", "A tool result that answers no tool call was dropped."));
        return undefined;
      }
      return encodeToolResultPart(part, id, losses);
    }
    case "reasoning":
      if (message.role !== "assistant") {
        losses.push(
          loss(
            part.source,
            "dropped",
            "Reasoning in a user turn has no messages equivalent and was dropped.",
          ),
        );
        return undefined;
      }
      return encodeReasoningPart(part, losses);
    case "refusal":
      losses.push(
        loss(part.source, "approximated", "A refusal was sent to the messages API as plain assistant text."),
      );
      return part.text.trim() === "" ? undefined : { type: "text", text: part.text };
    case "opaque":
      return encodeOpaquePart(part, losses) as ContentBlockParam | undefined;
  }
}

/** The message was one plain string: its single surviving block is an uncached text from `content` itself. */
function isPlain(message: common.Message, blocks: readonly Block[]): boolean {
  const only = blocks[0];
  if (blocks.length !== 1 || only === undefined || only.value.type !== "text") return false;
  // `only.source === `${message.source}/content``, without building that string.
  const source = only.source;
  return (
    source.length === message.source.length + 8 &&
    source.endsWith("/content") &&
    source.startsWith(message.source) &&
    (only.value as TextBlock).cache_control === undefined &&
    (only.value as TextBlock).citations === undefined
  );
}

/** Tool results first, in the order of the calls of the turn before (the API requires them to lead). */
function orderUserBlocks(blocks: readonly Block[], callOrder: readonly string[]): readonly Block[] {
  const ranks: number[] = new Array(blocks.length);
  let sorted = true;
  let hasResult = false;
  for (let index = 0; index < blocks.length; index++) {
    const value = (blocks[index] as Block).value;
    let rank = Number.POSITIVE_INFINITY;
    if (value.type === "tool_result") {
      hasResult = true;
      const position = callOrder.indexOf((value as { tool_use_id: string }).tool_use_id);
      rank = position === -1 ? callOrder.length : position;
    }
    ranks[index] = rank;
    if (index > 0 && rank < (ranks[index - 1] as number)) sorted = false;
  }
  if (!hasResult || sorted) return blocks;
  return blocks
    .map((block, position) => ({ block, position, rank: ranks[position] as number }))
    .sort((left, right) => left.rank - right.rank || left.position - right.position)
    .map((entry) => entry.block);
}

function trimPrefill(turn: Turn, losses: Loss[]): Turn | undefined {
  const blocks = [...turn.blocks];
  const last = blocks.at(-1);
  if (last === undefined || last.value.type !== "text") return turn;
  const given = (last.value as TextBlock).text;
  const text = given.trimEnd();
  if (text === given) return turn;
  losses.push(
    loss(
      last.source,
      "approximated",
      "The messages API rejects trailing whitespace at the end of a final assistant turn; it was trimmed.",
    ),
  );
  if (text === "") blocks.pop();
  else blocks[blocks.length - 1] = { ...last, value: { ...(last.value as TextBlock), text } };
  return blocks.length === 0 ? undefined : { ...turn, blocks };
}

/** Common messages → merged, ordered turns that follow the messages turn rules. */
export function encodeTurns(request: common.Request, options: ResolvedOptions, losses: Loss[]): Turn[] {
  const ids = assignIds(request, options);
  const turns: Turn[] = [];
  for (const message of request.messages) {
    if (message.name !== undefined) {
      losses.push(
        loss(
          `${message.source}/name`,
          "dropped",
          "A message `name` has no messages equivalent and was dropped.",
        ),
      );
    }
    const blocks: Block[] = [];
    const reported = losses.length;
    for (const part of message.parts) {
      const value = encodePart(part, message, ids, losses);
      if (value !== undefined) blocks.push({ value, source: part.source });
    }
    if (blocks.length === 0) {
      // The API rejects empty turns; an empty message says nothing, but dropping it is still reported.
      if (losses.length === reported)
        losses.push(
          loss(
            message.source,
            "dropped",
            "An empty message is rejected by the messages API and was dropped.",
          ),
        );
      continue;
    }
    const previous = turns[turns.length - 1];
    if (previous !== undefined && previous.role === message.role) {
      // Merged in place: `blocks` of a turn built here is a fresh array no one else holds.
      const merged = previous.blocks as Block[];
      for (const block of blocks) merged.push(block);
      if (previous.plain) turns[turns.length - 1] = { ...previous, plain: false };
    } else {
      turns.push({ role: message.role, blocks, source: message.source, plain: isPlain(message, blocks) });
    }
  }
  let callOrder: string[] = [];
  const ordered: Turn[] = [];
  for (const turn of turns) {
    if (turn.role === "assistant") {
      callOrder = [];
      for (const block of turn.blocks)
        if (block.value.type === "tool_use") callOrder.push((block.value as { id: string }).id);
      ordered.push(turn);
      continue;
    }
    const blocks = orderUserBlocks(turn.blocks, callOrder);
    ordered.push(blocks === turn.blocks ? turn : { ...turn, blocks });
  }
  const last = ordered.at(-1);
  if (last?.role === "assistant") {
    const trimmed = trimPrefill(last, losses);
    ordered.pop();
    if (trimmed !== undefined) ordered.push(trimmed);
  }
  return ordered;
}

/** A turn as the wire wants it: a plain single text as a string, else blocks. */
export function toMessage(turn: Turn): Message {
  const only = turn.blocks[0]?.value;
  if (turn.plain && turn.blocks.length === 1 && only?.type === "text") {
    return { role: turn.role, content: (only as TextBlock).text };
  }
  return { role: turn.role, content: turn.blocks.map((block) => block.value) };
}

/**
 * System blocks → top-level `system` (a string when it is one uncached text); a late system message is
 * hoisted with an approximated loss. With no conversation at all, the last system text becomes the user turn.
 */
export function encodeSystem(
  request: common.Request,
  turns: Turn[],
  losses: Loss[],
): { system: Request["system"]; turns: Turn[] } {
  let blocks = request.system.filter((block) => {
    if (block.text.trim() !== "") return true;
    losses.push(
      loss(
        block.source,
        "dropped",
        `${block.text === "" ? "An empty" : "A whitespace-only"} system text is rejected by the messages API and was dropped.`,
      ),
    );
    return false;
  });
  let result = turns;
  const lastSystem = blocks.at(-1);
  if (result.length === 0 && lastSystem !== undefined) {
    losses.push(
      loss(
        lastSystem.source,
        "synthesized",
        "The request had no conversation; its last system text was sent as the user turn.",
      ),
    );
    result = [
      {
        role: "user",
        blocks: [{ value: { type: "text", text: lastSystem.text }, source: lastSystem.source }],
        source: lastSystem.source,
        plain: true,
      },
    ];
    blocks = blocks.slice(0, -1);
  }
  for (const block of blocks) {
    if (block.late === true) {
      losses.push(
        loss(
          block.source,
          "approximated",
          "A system message after the first turn was moved to the top-level `system`.",
        ),
      );
    }
  }
  if (blocks.length === 0) return { system: undefined, turns: result };
  const [first] = blocks;
  if (blocks.length === 1 && first !== undefined && first.cache === undefined)
    return { system: first.text, turns: result };
  return {
    system: blocks.map((block) => {
      const control = cacheControl(block.cache, losses);
      return control === undefined
        ? { type: "text" as const, text: block.text }
        : { type: "text" as const, text: block.text, cache_control: control };
    }),
    turns: result,
  };
}

/** A user turn first: a visible placeholder is inserted, with a synthesized loss. */
export function ensureUserFirst(turns: Turn[], fallback: string, losses: Loss[]): Turn[] {
  const first = turns[0];
  if (first !== undefined && first.role === "user") return turns;
  const source = first?.source ?? fallback;
  losses.push(
    loss(
      source,
      "synthesized",
      "The messages API needs a user turn first; a placeholder user turn was inserted.",
    ),
  );
  const placeholder: Turn = {
    role: "user",
    blocks: [{ value: { type: "text", text: PLACEHOLDER }, source }],
    source,
    plain: true,
  };
  return [placeholder, ...turns];
}
