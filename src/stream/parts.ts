import { parseJsonObject } from "../common/json";
import type * as common from "../common/model";

/**
 * The protocol-free half of `accumulate` and `replay`: stream parts ⇄ a whole common response.
 * A stream carries one choice; a response with several choices replays its first one only.
 */

type OpenBlock =
  | {
      kind: "text";
      texts: string[];
      signature?: common.TextPart["signature"];
      citations?: common.TextPart["citations"];
    }
  | {
      kind: "reasoning";
      texts: string[];
      origin: common.ReasoningOrigin;
      signature?: string;
      redacted?: string;
    }
  | {
      kind: "tool-call";
      id: string | undefined;
      name: string;
      pieces: string[];
      signature: common.ToolCallPart["signature"];
      extra: common.Extra | undefined;
      freeform: boolean | undefined;
      namespace: string | undefined;
      search: boolean | undefined;
    }
  | { kind: "refusal"; texts: string[] }
  | { kind: "done"; part: common.Part };

/** Folds stream parts into a whole response; text is gathered here, which a translator never does. */
export class ResponseBuilder {
  #blocks = new Map<number, OpenBlock>();
  #order: number[] = [];
  #start: Extract<common.StreamPart, { type: "response-start" }> | undefined;
  #usage: common.Usage | undefined;
  #finish: Extract<common.StreamPart, { type: "finish" }> | undefined;
  #promptBlocked: string | undefined;
  #error: common.ErrorInfo | undefined;

  get error(): common.ErrorInfo | undefined {
    return this.#error;
  }

  #open(index: number, block: OpenBlock): void {
    if (!this.#blocks.has(index)) this.#order.push(index);
    this.#blocks.set(index, block);
  }

  add(part: common.StreamPart): void {
    switch (part.type) {
      case "response-start":
        this.#start = part;
        if (part.usage !== undefined) this.#usage = part.usage;
        return;
      case "text-start":
        this.#open(part.index, { kind: "text", texts: [] });
        return;
      case "text-delta": {
        const block = this.#blocks.get(part.index);
        if (block?.kind === "text") block.texts.push(part.text);
        else this.#open(part.index, { kind: "text", texts: [part.text] });
        return;
      }
      case "text-end": {
        const block = this.#blocks.get(part.index);
        if (block?.kind === "text" && part.citations !== undefined) block.citations = part.citations;
        return;
      }
      case "reasoning-start":
        this.#open(part.index, { kind: "reasoning", texts: [], origin: part.origin });
        return;
      case "reasoning-delta": {
        const block = this.#blocks.get(part.index);
        if (block?.kind === "reasoning") block.texts.push(part.text);
        return;
      }
      case "reasoning-signature": {
        const block = this.#blocks.get(part.index);
        if (block?.kind === "reasoning") block.signature = (block.signature ?? "") + part.signature;
        return;
      }
      case "reasoning-redacted": {
        const block = this.#blocks.get(part.index);
        if (block?.kind === "reasoning") block.redacted = part.data;
        return;
      }
      case "block-signature": {
        const block = this.#blocks.get(part.index);
        if (block?.kind === "text" || block?.kind === "tool-call") block.signature = part.signature;
        return;
      }
      case "tool-call-start":
        this.#open(part.index, {
          kind: "tool-call",
          id: part.id,
          name: part.name,
          pieces: [],
          signature: part.signature,
          extra: part.extra,
          freeform: part.freeform,
          namespace: part.namespace,
          search: part.search,
        });
        return;
      case "tool-call-delta": {
        const block = this.#blocks.get(part.index);
        if (block?.kind === "tool-call") block.pieces.push(part.argumentsText);
        return;
      }
      case "refusal-delta": {
        const block = this.#blocks.get(part.index);
        if (block?.kind === "refusal") block.texts.push(part.text);
        else this.#open(part.index, { kind: "refusal", texts: [part.text] });
        return;
      }
      case "media":
      case "opaque":
        this.#open(part.index, { kind: "done", part: part.part });
        return;
      case "usage":
        this.#usage = part.usage;
        return;
      case "finish":
        this.#finish = part;
        return;
      case "prompt-blocked":
        this.#promptBlocked = part.reason;
        return;
      case "error":
        this.#error = part.error;
        return;
      case "reasoning-end":
      case "tool-call-end":
        return;
    }
  }

  build(): common.Response {
    const parts: common.Part[] = [];
    for (const index of this.#order) {
      const block = this.#blocks.get(index);
      if (block !== undefined) parts.push(toPart(block, `/${index}`));
    }
    const start = this.#start;
    const finish = this.#finish;
    const choice: common.Choice = {
      index: 0,
      parts,
      finishReason: finish?.reason,
      rawFinishReason: finish?.rawReason,
      stopSequence: finish?.stopSequence,
      extra: finish?.extra,
      source: "",
    };
    const blocked = this.#promptBlocked;
    return {
      id: start?.id,
      seed: start?.seed,
      model: start?.model,
      created: start?.created,
      choices: blocked !== undefined && parts.length === 0 && finish === undefined ? [] : [choice],
      usage: this.#usage,
      promptBlocked: blocked === undefined ? undefined : { reason: blocked, source: "" },
      extra: start?.extra,
    };
  }
}

function toPart(block: OpenBlock, source: string): common.Part {
  switch (block.kind) {
    case "text":
      return {
        type: "text",
        text: block.texts.join(""),
        source,
        signature: block.signature,
        citations: block.citations,
      };
    case "reasoning":
      return {
        type: "reasoning",
        text: block.texts.join(""),
        origin: block.origin,
        signature: block.signature,
        redacted: block.redacted,
        source,
      };
    case "tool-call": {
      const text = block.pieces.join("");
      const call: common.Draft<common.ToolCallPart> = {
        type: "tool-call",
        id: block.id,
        name: block.name,
        // A free-form call's text is its input, not JSON arguments.
        arguments: block.freeform === true ? undefined : parseJsonObject(text === "" ? "{}" : text),
        argumentsText: text,
        signature: block.signature,
        extra: block.extra,
        source,
      };
      if (block.freeform === true) call.freeform = true;
      if (block.namespace !== undefined) call.namespace = block.namespace;
      if (block.search === true) call.search = true;
      return call;
    }
    case "refusal":
      return { type: "refusal", text: block.texts.join(""), source };
    case "done":
      return block.part;
  }
}

/** A whole response as the stream parts that would have produced it (first choice only). */
export function responseToParts(response: common.Response): common.StreamPart[] {
  const out: common.StreamPart[] = [
    {
      type: "response-start",
      id: response.id,
      seed: response.seed,
      model: response.model,
      created: response.created,
      // Usage known up front goes in the start too (messages `message_start` carries it).
      usage: response.usage,
      extra: response.extra,
      choiceExtra: response.choices[0]?.extra,
    },
  ];
  const choice = response.choices[0];
  if (choice !== undefined) {
    choice.parts.forEach((part, index) => {
      pushPart(out, part, index);
    });
  }
  if (response.promptBlocked !== undefined)
    out.push({ type: "prompt-blocked", reason: response.promptBlocked.reason });
  if (response.usage !== undefined) out.push({ type: "usage", usage: response.usage });
  if (choice?.finishReason !== undefined) {
    out.push({
      type: "finish",
      reason: choice.finishReason,
      rawReason: choice.rawFinishReason,
      stopSequence: choice.stopSequence,
      extra: choice.extra,
    });
  }
  return out;
}

function pushPart(out: common.StreamPart[], part: common.Part, index: number): void {
  switch (part.type) {
    case "text":
      out.push({ type: "text-start", index });
      if (part.signature !== undefined)
        out.push({ type: "block-signature", index, signature: part.signature });
      if (part.text !== "") out.push({ type: "text-delta", index, text: part.text });
      out.push({ type: "text-end", index, citations: part.citations });
      return;
    case "reasoning":
      out.push({ type: "reasoning-start", index, origin: part.origin });
      if (part.redacted !== undefined) out.push({ type: "reasoning-redacted", index, data: part.redacted });
      if (part.text !== "") out.push({ type: "reasoning-delta", index, text: part.text });
      if (part.signature !== undefined)
        out.push({ type: "reasoning-signature", index, signature: part.signature });
      out.push({ type: "reasoning-end", index });
      return;
    case "tool-call": {
      out.push({
        type: "tool-call-start",
        index,
        id: part.id,
        name: part.name,
        signature: part.signature,
        extra: part.extra,
        ...(part.freeform === true ? { freeform: true } : {}),
        ...(part.namespace === undefined ? {} : { namespace: part.namespace }),
        ...(part.search === true ? { search: true } : {}),
      });
      const text = part.argumentsText ?? JSON.stringify(part.arguments ?? {});
      if (text !== "") out.push({ type: "tool-call-delta", index, argumentsText: text });
      out.push({ type: "tool-call-end", index });
      return;
    }
    case "refusal":
      out.push({ type: "refusal-delta", index, text: part.text });
      return;
    case "media":
      out.push({ type: "media", index, part });
      return;
    case "opaque":
      out.push({ type: "opaque", index, part });
      return;
    case "tool-result":
      // A response never holds tool results; nothing to replay.
      return;
  }
}
