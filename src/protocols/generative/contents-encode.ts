/**
 * Common messages → generative `contents`: roles `user`/`model`, consecutive turns merged,
 * empty parts skipped, a user turn first, function responses named after their calls and
 * grouped in call order, media as `inlineData`/`fileData`, foreign signatures and
 * reasoning dropped, and Gemini 3's signature sentinel on unsigned replayed calls.
 */
import { TranslationError } from "../../common/errors";
import { isObject, parseJsonObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import { parseDataUrl } from "../../common/media";
import type * as common from "../../common/model";
import type { ResolvedOptions } from "../../common/options";
import { parsePointer } from "../../common/pointer";
import { fallbackMediaType, IMAGE_TYPES, mediaTypeOfUrl } from "./media";
import type * as generative from "./schema";

/** The documented value Gemini 3 accepts in place of a missing thought signature. */
export const SKIP_SIGNATURE = "skip_thought_signature_validator";

type Turn = { role: "user" | "model"; parts: generative.Part[]; sources: common.Part[]; first: string };

export function encodeContents(
  request: common.Request,
  _options: ResolvedOptions,
  losses: Loss[],
): generative.Content[] {
  const names = new Map<string, string>();
  const turns: Turn[] = [];
  // Gemini 3 takes images and PDFs inside a function response (`functionResponse.parts`).
  const nested = /gemini-3/.test(request.model);
  for (const message of request.messages) {
    const role = message.role === "assistant" ? "model" : "user";
    if (message.name !== undefined) {
      losses.push(
        loss(
          `${message.source}/name`,
          "dropped",
          "A participant name has no generative equivalent and was dropped.",
        ),
      );
    }
    const parts: generative.Part[] = [];
    const sources: common.Part[] = [];
    const reported = losses.length;
    for (const part of message.parts) {
      const encoded = encodePart(part, names, nested, losses);
      for (const item of encoded) {
        parts.push(item);
        sources.push(part);
      }
      if (part.type === "tool-call" && part.id !== undefined) names.set(part.id, part.name);
    }
    if (parts.length === 0) {
      // generative rejects empty contents; dropping a turn is still reported.
      if (losses.length === reported)
        losses.push(
          loss(message.source, "dropped", "An empty message has no generative equivalent and was dropped."),
        );
      continue;
    }
    const previous = turns.at(-1);
    if (previous?.role === role) {
      previous.parts.push(...parts);
      previous.sources.push(...sources);
    } else {
      turns.push({ role, parts, sources, first: message.source });
    }
  }
  const first = turns[0];
  if (first !== undefined && first.role !== "user") {
    turns.unshift({ role: "user", parts: [{ text: "." }], sources: [], first: first.first });
    losses.push(
      loss(
        first.first,
        "synthesized",
        "generative conversations start with a user turn; a minimal one was inserted.",
      ),
    );
  }
  if (/gemini-3/.test(request.model)) signFirstCalls(turns, losses);
  return turns.map((turn, index) => ({ role: turn.role, parts: orderResults(turn, turns[index - 1]) }));
}

/** Function responses first, in the order of the calls they answer. */
function orderResults(turn: Turn, previous: Turn | undefined): generative.Part[] {
  if (turn.role !== "user" || previous === undefined) return turn.parts;
  const order: (string | undefined)[] = [];
  for (const part of previous.parts) order.push(part.functionCall?.id);
  const rank = (part: generative.Part) => {
    const position = order.indexOf(part.functionResponse?.id);
    return position === -1 ? order.length : position;
  };
  // Already in order (responses first, ranks not decreasing): the common case needs no sort.
  let inOrder = true;
  let responses = 0;
  let last = -1;
  for (const part of turn.parts) {
    if (part.functionResponse === undefined) {
      last = Number.POSITIVE_INFINITY;
      continue;
    }
    responses++;
    const position = rank(part);
    if (position < last) inOrder = false;
    last = position;
  }
  if (responses === 0 || inOrder) return turn.parts;
  const sorted = turn.parts
    .filter((part) => part.functionResponse !== undefined)
    .map((part, index) => ({ part, index }))
    .sort((a, b) => rank(a.part) - rank(b.part) || a.index - b.index);
  return [
    ...sorted.map((entry) => entry.part),
    ...turn.parts.filter((part) => part.functionResponse === undefined),
  ];
}

/** Gemini 3 rejects a replayed turn whose first call lacks a signature: send the sentinel. */
function signFirstCalls(turns: Turn[], losses: Loss[]): void {
  for (const turn of turns) {
    if (turn.role !== "model") continue;
    const index = turn.parts.findIndex((part) => part.functionCall !== undefined);
    const part = turn.parts[index];
    if (part === undefined || part.thoughtSignature !== undefined) continue;
    turn.parts[index] = { ...part, thoughtSignature: SKIP_SIGNATURE };
    const source = turn.sources[index];
    if (source !== undefined) {
      losses.push(
        loss(
          source.source,
          "synthesized",
          "The call had no Gemini thought signature; the documented skip value was sent.",
        ),
      );
    }
  }
}

function encodePart(
  part: common.Part,
  names: ReadonlyMap<string, string>,
  nested: boolean,
  losses: Loss[],
): generative.Part[] {
  if ("cache" in part && part.cache !== undefined) {
    losses.push(
      loss(part.cache.source, "dropped", "Cache hints have no generative equivalent and were dropped."),
    );
  }
  switch (part.type) {
    case "text": {
      const signature = ownSignature(part.signature, part.source, losses);
      if (part.citations !== undefined) {
        losses.push(
          loss(part.source, "dropped", "Citations cannot be sent back to generative and were dropped."),
        );
      }
      if (part.text === "" && signature === undefined) return [];
      return [
        signature === undefined ? { text: part.text } : { text: part.text, thoughtSignature: signature },
      ];
    }
    case "media":
      return encodeMedia(part, losses);
    case "tool-call":
      return [encodeCall(part, losses)];
    case "tool-result":
      return encodeResult(part, names, nested, losses);
    case "reasoning":
      if (part.origin !== "generative" || part.redacted !== undefined) {
        losses.push(
          loss(
            part.source,
            "dropped",
            `Reasoning from ${part.origin} cannot be replayed to generative and was dropped.`,
            "thinking.foreign",
          ),
        );
        return [];
      }
      if (part.text === "" && part.signature === undefined) return [];
      return [
        {
          text: part.text,
          thought: true,
          ...(part.signature === undefined ? {} : { thoughtSignature: part.signature }),
        },
      ];
    case "refusal":
      losses.push(loss(part.source, "approximated", "A refusal was sent to generative as plain text."));
      return part.text === "" ? [] : [{ text: part.text }];
    case "opaque": {
      const kept = encodeOpaque(part, losses);
      return kept === undefined ? [] : [kept];
    }
  }
}

/** A signature is sent only to the protocol that issued it. */
function ownSignature(
  signature: common.TextPart["signature"],
  source: string,
  losses: Loss[],
): string | undefined {
  if (signature === undefined) return undefined;
  if (signature.origin === "generative") return signature.value;
  losses.push(
    loss(
      signature.source ?? source,
      "dropped",
      `A ${signature.origin} signature is not valid at generative and was dropped.`,
    ),
  );
  return undefined;
}

function encodeCall(part: common.ToolCallPart, losses: Loss[]): generative.Part {
  if (part.server !== undefined && part.server.origin !== "generative") {
    losses.push(
      loss(
        part.source,
        "dropped",
        "A server-side tool call of another protocol was sent as a plain function call.",
      ),
    );
  }
  let args = part.arguments;
  if (args === undefined) {
    const text = part.argumentsText ?? "";
    args = text.trim() === "" ? {} : parseJsonObject(text);
    if (args === undefined) {
      args = { _raw: text };
      losses.push(
        loss(
          part.argumentsSource ?? part.source,
          "approximated",
          "The call's arguments are not a JSON object; they were sent as { _raw: <text> }.",
        ),
      );
    }
  }
  const signature = ownSignature(part.signature, part.source, losses);
  const functionCall =
    part.id === undefined ? { name: part.name, args } : { id: part.id, name: part.name, args };
  return signature === undefined ? { functionCall } : { functionCall, thoughtSignature: signature };
}

/** What Gemini 3 takes inside a function response: images and PDFs. */
const NESTED_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"]);

function encodeResult(
  part: common.ToolResultPart,
  names: ReadonlyMap<string, string>,
  nested: boolean,
  losses: Loss[],
): generative.Part[] {
  const name = part.name ?? (part.callId === undefined ? undefined : names.get(part.callId));
  if (name === undefined) {
    const message = `tool result ${part.callId ?? "(without id)"} answers no earlier tool call: generative needs the function's name.`;
    throw new TranslationError(message, {
      status: 400,
      issues: [{ code: "tool_pairing", path: parsePointer(part.source), message }],
    });
  }
  const texts: string[] = [];
  let media: common.MediaPart[] | undefined;
  for (const item of part.content) {
    // Each block inside the result may carry its own hint; encodePart reports only the result's.
    if (item.cache !== undefined) {
      losses.push(
        loss(item.cache.source, "dropped", "Cache hints have no generative equivalent and were dropped."),
      );
    }
    if (item.type === "text") texts.push(item.text);
    else if (media === undefined) media = [item];
    else media.push(item);
  }
  let value: unknown = part.json !== undefined ? part.json : texts.length === 1 ? texts[0] : texts.join("\n");
  if (part.json !== undefined && texts.length > 0) value = [part.json, ...texts];
  // The response must be a JSON object: wrap anything else.
  const response = part.isError === true ? { error: value } : isObject(value) ? value : { content: value };
  const functionResponse: generative.FunctionResponse =
    part.callId === undefined ? { name, response } : { id: part.callId, name, response };
  const result: generative.Part = { functionResponse };
  if (media === undefined) return [result];
  const parts = [result];
  const inner: NonNullable<generative.FunctionResponse["parts"]> = [];
  for (const item of media) {
    if (nested) {
      const reported = losses.length;
      const encoded = encodeMedia(item, losses);
      const type = encoded[0]?.inlineData?.mimeType ?? encoded[0]?.fileData?.mimeType;
      if (encoded.length === 1 && type !== undefined && NESTED_TYPES.has(type)) {
        for (const one of encoded) inner.push(one);
        continue;
      }
      losses.length = reported;
    }
    losses.push(
      loss(
        item.source,
        "approximated",
        "Media inside a tool result was sent as a separate part after the function response.",
      ),
    );
    for (const encoded of encodeMedia(item, losses)) parts.push(encoded);
  }
  if (inner.length > 0) functionResponse.parts = inner;
  return parts;
}

function encodeMedia(part: common.MediaPart, losses: Loss[]): generative.Part[] {
  if (part.filename !== undefined || part.title !== undefined) {
    losses.push(
      loss(
        part.source,
        "dropped",
        "The file's name or title has no generative equivalent and was dropped.",
        "media.filename.dropped",
      ),
    );
  }
  if (part.detail !== undefined) {
    losses.push(
      loss(
        part.source,
        "dropped",
        `The image detail "${part.detail}" has no generative equivalent and was dropped.`,
        "media.detail.dropped",
      ),
    );
  }
  const inline =
    part.data !== undefined
      ? { mediaType: part.mediaType, data: part.data }
      : part.url === undefined
        ? undefined
        : parseDataUrl(part.url);
  if (inline === undefined && part.url === undefined) {
    losses.push(
      loss(part.source, "dropped", "A provider file id cannot be used at generative; the file was dropped."),
    );
    return [];
  }
  let mediaType =
    inline?.mediaType ?? part.mediaType ?? (part.url === undefined ? undefined : mediaTypeOfUrl(part.url));
  if (mediaType === undefined) {
    mediaType = fallbackMediaType(part.kind);
    losses.push(loss(part.source, "approximated", `The media type is unknown; "${mediaType}" was sent.`));
  }
  if ((part.kind === "image" || mediaType.startsWith("image/")) && !IMAGE_TYPES.has(mediaType)) {
    losses.push(
      loss(part.source, "dropped", `generative does not accept ${mediaType} images; the image was dropped.`),
    );
    return [];
  }
  if (inline !== undefined) return [{ inlineData: { mimeType: mediaType, data: inline.data } }];
  return [{ fileData: { mimeType: mediaType, fileUri: part.url ?? "" } }];
}

/** A part kept whole (of a request or a response): generative's own goes back as it was; another protocol's is dropped. */
export function encodeOpaque(part: common.OpaquePart, losses: Loss[]): generative.Part | undefined {
  if (part.origin === "generative" && isObject(part.raw)) return part.raw;
  losses.push(
    loss(
      part.source,
      "dropped",
      `The ${part.label} has no generative equivalent and was dropped.`,
      "block.dropped",
    ),
  );
  return undefined;
}
