/**
 * What the fused paths toward messages (src/fused/*-messages.ts) share with its request encoder
 * (src/protocols/messages/request-*.ts, encode-blocks.ts): the turn rules — consecutive messages of one
 * role merged into one turn, a single string message kept a string, tool results first in their turn in
 * the order of the calls before them, a user turn first, no trailing whitespace at the end of a final
 * assistant turn — and function tools, the tool choice, images, the made-up budget and the sampling
 * ranges, with the hub's losses word for word. Where the hub would drop, trim or insert something, a
 * reader here returns `undefined` and the path hands the body to the hub.
 */
import { parseJsonObject } from "../common/json";
import { type Loss, loss } from "../common/loss";
import { parseDataUrl } from "../common/media";
import type { ResolvedOptions } from "../common/options";
import type { RequestOf } from "../protocols";
import { IMAGE_TYPES } from "../protocols/messages/adapter";

type MessagesRequest = RequestOf<"messages">;
export type MessagesTurn = MessagesRequest["messages"][number];
export type MessagesBlock = Exclude<MessagesTurn["content"], string>[number];
export type MessagesTool = NonNullable<MessagesRequest["tools"]>[number];
export type MessagesToolChoice = NonNullable<MessagesRequest["tool_choice"]>;
type Role = "user" | "assistant";

/** The image types the messages API takes inline (encode-blocks.ts); another is dropped by the hub. */

/**
 * An image by URL as the hub encodes it: a base64 data: URL of a type messages takes as a base64
 * source, any other URL as a URL source; `undefined` (for the hub, which drops it) for a data: URL of
 * another type.
 */
export function imageBlock(url: string): MessagesBlock | undefined {
  const parsed = parseDataUrl(url);
  if (parsed === undefined) return { type: "image", source: { type: "url", url } };
  if (!IMAGE_TYPES.has(parsed.mediaType)) return undefined;
  return {
    type: "image",
    source: { type: "base64", media_type: parsed.mediaType as "image/png", data: parsed.data },
  };
}

/** The hub's loss for an image `detail` (the part at `path`). */
export function detailDropped(path: string, losses: Loss[]): void {
  losses.push(loss(path, "dropped", "Image `detail` has no messages equivalent and was dropped."));
}

/** The hub's loss for a message `name` (the message at `path`). */
export function nameDropped(path: string, losses: Loss[]): void {
  losses.push(
    loss(`${path}/name`, "dropped", "A message `name` has no messages equivalent and was dropped."),
  );
}

/**
 * Tool-call arguments text as the object messages needs, as the hub reads it: blank text is `{}`, a
 * JSON object is itself, anything else is `{"_raw": text}` with the hub's loss at `path`.
 */
export function callInput(text: string, path: string, losses: Loss[]): Record<string, unknown> {
  if (text.trim() === "") return {};
  const parsed = parseJsonObject(text);
  if (parsed !== undefined) return parsed;
  losses.push(
    loss(
      path,
      "approximated",
      'Tool-call arguments are not a JSON object; they were wrapped as `{"_raw": text}`.',
    ),
  );
  return { _raw: text };
}

/**
 * The turns of a request as the hub's messages encoder builds them, message by message: `text` adds a
 * message of one text given as a string (a string alone in its turn), `message` begins any other and
 * `block` adds a block to it; a message of the role of the turn before is merged into it. Each message
 * must give at least one block (the hub drops an empty one, with a loss).
 */
export class MessagesTurns {
  private readonly turns: MessagesTurn[] = [];
  private current: MessagesTurn | undefined;
  /** The blocks of the current turn; `undefined` while it is one string. */
  private blocks: MessagesBlock[] | undefined;
  /** Blocks of the current message so far. */
  private added = 0;
  /** A message gave no block. */
  private empty = false;
  /** A turn holds a tool result (its blocks may need ordering). */
  private results = false;

  /** The current turn's blocks, the turn made blocks when it was one string. */
  private merged(current: MessagesTurn): MessagesBlock[] {
    let blocks = this.blocks;
    if (blocks === undefined) {
      blocks = [{ type: "text", text: current.content as string }];
      current.content = blocks;
      this.blocks = blocks;
    }
    return blocks;
  }

  /** A message of `role` that is one text given as a string. */
  text(role: Role, text: string): void {
    const current = this.current;
    if (current !== undefined && this.added === 0) this.empty = true;
    this.added = 1;
    if (current !== undefined && current.role === role) this.merged(current).push({ type: "text", text });
    else {
      this.current = { role, content: text };
      this.blocks = undefined;
      this.turns.push(this.current);
    }
  }

  /** A message of `role` begins; its blocks follow. */
  message(role: Role): void {
    const current = this.current;
    if (current !== undefined && this.added === 0) this.empty = true;
    this.added = 0;
    if (current !== undefined && current.role === role) this.merged(current);
    else {
      this.blocks = [];
      this.current = { role, content: this.blocks };
      this.turns.push(this.current);
    }
  }

  /** A block of the current message. */
  block(value: MessagesBlock): void {
    (this.blocks as MessagesBlock[]).push(value);
    this.added++;
    if (value.type === "tool_result") this.results = true;
  }

  /**
   * The turns as the wire wants them, or `undefined` where the hub would change something: an empty
   * message, no turns, an assistant turn first, trailing whitespace at the end of a final assistant turn.
   */
  finish(): MessagesTurn[] | undefined {
    const turns = this.turns;
    if (this.empty || this.added === 0 || turns.length === 0 || (turns[0] as MessagesTurn).role !== "user")
      return undefined;
    const last = turns[turns.length - 1] as MessagesTurn;
    if (last.role === "assistant") {
      const content = last.content;
      let text: string | undefined;
      if (typeof content === "string") text = content;
      else {
        const block = content[content.length - 1] as Record<string, unknown>;
        if (block.type === "text") text = block.text as string;
      }
      if (text !== undefined && text.trimEnd() !== text) return undefined;
    }
    if (this.results) order(turns);
    return turns;
  }
}

/**
 * Tool results first in each user turn, in the order of the calls of the turn before
 * (request-turns.ts `orderUserBlocks`).
 */
function order(turns: MessagesTurn[]): void {
  let calls: string[] | undefined;
  for (let index = 0; index < turns.length; index++) {
    const turn = turns[index] as MessagesTurn;
    const blocks = turn.content;
    if (turn.role === "assistant") {
      calls = undefined;
      if (typeof blocks === "string") continue;
      for (let at = 0; at < blocks.length; at++) {
        const block = blocks[at] as MessagesBlock;
        if (block.type !== "tool_use") continue;
        calls ??= [];
        calls.push((block as { id: string }).id);
      }
    } else if (typeof blocks !== "string") turn.content = ordered(blocks, calls);
  }
}

/** One user turn's blocks, tool results first in the order of `calls` (stable, as the hub sorts them). */
function ordered(blocks: MessagesBlock[], calls: readonly string[] | undefined): MessagesBlock[] {
  const known = calls ?? [];
  let sorted = true;
  let hasResult = false;
  let previous = Number.NEGATIVE_INFINITY;
  const ranks: number[] = new Array(blocks.length);
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index] as MessagesBlock;
    let rank = Number.POSITIVE_INFINITY;
    if (block.type === "tool_result") {
      hasResult = true;
      const position = known.indexOf((block as { tool_use_id: string }).tool_use_id);
      rank = position === -1 ? known.length : position;
    }
    ranks[index] = rank;
    if (rank < previous) sorted = false;
    previous = rank;
  }
  if (!hasResult || sorted) return blocks;
  return blocks
    .map((block, position) => ({ block, position, rank: ranks[position] as number }))
    .sort((left, right) => left.rank - right.rank || left.position - right.position)
    .map((entry) => entry.block);
}

/**
 * A function tool as a messages custom tool, as the hub encodes it — the input schema an object schema
 * (`{type: "object", properties: {}}` without one, `type: "object"` put first when the schema has no
 * type), a strict tool's flag dropped with the hub's loss at `strictPath` — or `undefined` for the hub
 * (a schema of another type is its error).
 */
export function customTool(
  name: string,
  description: string | undefined,
  parameters: Record<string, unknown> | undefined,
  strict: boolean | undefined,
  strictPath: string,
  losses: Loss[],
): MessagesTool | undefined {
  let schema: Record<string, unknown>;
  if (parameters === undefined) schema = { type: "object", properties: {} };
  else if (parameters.type === undefined) schema = { type: "object", ...parameters };
  else if (parameters.type === "object") schema = parameters;
  else return undefined;
  if (strict === true)
    losses.push(
      loss(strictPath, "dropped", "The tool's `strict` flag has no messages equivalent and was dropped."),
    );
  const input_schema = schema as { type: "object" };
  return description === undefined ? { name, input_schema } : { name, description, input_schema };
}

/** A tool choice as the common model holds it: a mode, or one tool by name. */
export type Choice =
  | { readonly type: "auto" | "none" | "required" }
  | { readonly type: "tool"; readonly name: string };

/**
 * The tool choice and the parallel switch as the hub encodes them (request-settings.ts
 * `encodeToolChoice`, without thinking): nothing without tools (a forcing choice dropped with the hub's
 * loss at `/tool_choice`), the switch as `disable_parallel_tool_use` beside the choice.
 */
export function toolChoice(
  choice: Choice | undefined,
  parallel: boolean | undefined,
  hasTools: boolean,
  losses: Loss[],
): MessagesToolChoice | undefined {
  if (!hasTools) {
    if (choice !== undefined && choice.type !== "auto" && choice.type !== "none")
      losses.push(
        loss(
          "/tool_choice",
          "dropped",
          "A tool choice without tools has no messages equivalent and was dropped.",
        ),
      );
    return undefined;
  }
  if (choice === undefined)
    return parallel === false ? { type: "auto", disable_parallel_tool_use: true } : undefined;
  let out: MessagesToolChoice;
  switch (choice.type) {
    case "none":
      return { type: "none" };
    case "auto":
      out = { type: "auto" };
      break;
    case "required":
      out = { type: "any" };
      break;
    case "tool":
      out = { type: "tool", name: choice.name };
      break;
  }
  if (parallel !== undefined) out.disable_parallel_tool_use = !parallel;
  return out;
}

/** The hub's loss for the made-up `max_tokens`, when neither the request nor the options gave one. */
export function budgetSynthesized(given: number | undefined, options: ResolvedOptions, losses: Loss[]): void {
  if (given === undefined && !options.maxTokensGiven)
    losses.push(
      loss(
        "/max_tokens",
        "synthesized",
        `The messages API requires \`max_tokens\`; ${options.maxTokens} was used.`,
      ),
    );
}

/** A sampling value clamped to the messages range 0–1, with the hub's loss when it moved. */
export function clampUnit(value: number, path: string, name: string, losses: Loss[]): number {
  if (value >= 0 && value <= 1) return value;
  const clamped = Math.min(1, Math.max(0, value));
  losses.push(
    loss(
      path,
      "clamped",
      `\`${name}\` ${value} is outside the messages range 0–1 and was clamped to ${clamped}.`,
    ),
  );
  return clamped;
}

/**
 * `temperature` and `top_p` (at `/temperature` and `/top_p`) into `value` as the hub sends them:
 * clamped to 0–1, `top_p` dropped beside `temperature`, each with the hub's loss.
 */
export function sampling(
  temperature: number | undefined,
  topP: number | undefined,
  value: { temperature?: number; top_p?: number },
  losses: Loss[],
): void {
  if (temperature !== undefined)
    value.temperature = clampUnit(temperature, "/temperature", "temperature", losses);
  if (topP === undefined) return;
  if (temperature !== undefined)
    losses.push(
      loss(
        "/top_p",
        "dropped",
        "The messages API rejects `temperature` and `top_p` together; `top_p` was dropped.",
      ),
    );
  else value.top_p = clampUnit(topP, "/top_p", "top_p", losses);
}
