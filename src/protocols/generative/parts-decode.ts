/**
 * generative parts → common parts, for request turns and response candidates alike: text, thoughts,
 * media, function calls (ids synthesized when absent) and function responses.
 */
import { isKnown, isObject, type Keys } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import { kindOfMediaType } from "../../common/media";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import type * as generative from "./schema";

/** What a run of parts needs to name its calls: the seed of synthesized ids and a running ordinal. */
export type CallNaming = {
  readonly seed: string;
  ordinal: number;
  /** `syntheticId(options, seed)`, made once for the run: a call's id is it + `_<ordinal>`. */
  head?: string;
};

const TEXT_KEYS: Keys = ["text", "thought", "thoughtSignature"];
const CALL_KEYS: Keys = ["functionCall", "thoughtSignature"];
const CALL_FIELDS: Keys = ["id", "name", "args"];
const RESPONSE_FIELDS: Keys = ["id", "name", "response", "parts"];

function reportExtra(part: object, known: Keys, source: string, losses: Loss[]): void {
  for (const key in part) {
    if (!isKnown(known, key) && Object.hasOwn(part, key))
      losses.push(
        loss(
          at(source, key),
          "dropped",
          `The part field \`${key}\` has no common equivalent and was dropped.`,
        ),
      );
  }
}

/** Decodes one part; `role` decides whether a function response is a tool result (user) or opaque (model). */
export function decodePart(
  part: generative.Part,
  source: string,
  role: "user" | "assistant",
  naming: CallNaming,
  options: ResolvedOptions,
  losses: Loss[],
  /** The id of the call a function response without an id answers, matched by the caller. */
  matchedId?: string,
): common.Part {
  // Server-side tools' parts (code execution; Gemini 3's built-in tools beside functions) stay generative's.
  if (
    part.executableCode !== undefined ||
    part.codeExecutionResult !== undefined ||
    part.toolCall !== undefined ||
    part.toolResponse !== undefined ||
    (part.functionResponse !== undefined && role === "assistant")
  ) {
    const label =
      part.executableCode !== undefined
        ? "executableCode"
        : part.codeExecutionResult !== undefined
          ? "codeExecutionResult"
          : part.toolCall !== undefined
            ? "toolCall"
            : part.toolResponse !== undefined
              ? "toolResponse"
              : "functionResponse";
    return { type: "opaque", origin: "generative", raw: part, label: `${label} part`, source };
  }
  if (part.functionCall !== undefined)
    return decodeCall(part, part.functionCall, source, naming, options, losses);
  if (part.functionResponse !== undefined)
    return decodeResult(part, part.functionResponse, source, losses, matchedId);
  if (part.inlineData !== undefined || part.fileData !== undefined) return decodeMedia(part, source, losses);
  if (part.text !== undefined) {
    reportExtra(part, TEXT_KEYS, source, losses);
    const signature = part.thoughtSignature;
    if (part.thought === true) {
      return signature === undefined
        ? { type: "reasoning", text: part.text, origin: "generative", source }
        : {
            type: "reasoning",
            text: part.text,
            origin: "generative",
            signature,
            signatureSource: `${source}/thoughtSignature`,
            source,
          };
    }
    return signature === undefined
      ? { type: "text", text: part.text, source }
      : {
          type: "text",
          text: part.text,
          signature: { origin: "generative", value: signature, source: `${source}/thoughtSignature` },
          source,
        };
  }
  return { type: "opaque", origin: "generative", raw: part, label: "part of an unknown kind", source };
}

/** `ToolCallPart.extra` of a generative call that came without `args`. */
export const NO_ARGS: common.Extra = { origin: "generative", raw: { hasArgs: false } };

function decodeCall(
  part: generative.Part,
  call: generative.FunctionCall,
  source: string,
  naming: CallNaming,
  options: ResolvedOptions,
  losses: Loss[],
): common.ToolCallPart {
  reportExtra(part, CALL_KEYS, source, losses);
  reportExtra(call, CALL_FIELDS, `${source}/functionCall`, losses);
  const ordinal = naming.ordinal++;
  let id = call.id;
  if (id === undefined) {
    if (naming.head === undefined) naming.head = syntheticId(options, naming.seed);
    id = `${naming.head}_${ordinal}`;
    losses.push(
      loss(
        `${source}/functionCall/id`,
        "synthesized",
        `The function call has no id; "${id}" was derived from the input.`,
      ),
    );
  }
  const decoded: common.Draft<common.ToolCallPart> = {
    type: "tool-call",
    id,
    name: call.name ?? "",
    arguments: call.args ?? {},
    source,
  };
  // A call without `args` (a function of no parameters): generative restores the absence (replay).
  if (call.args === undefined) decoded.extra = NO_ARGS;
  if (part.thoughtSignature !== undefined)
    decoded.signature = {
      origin: "generative",
      value: part.thoughtSignature,
      source: `${source}/thoughtSignature`,
    };
  return decoded;
}

const RESULT_PART_KEYS: Keys = ["functionResponse"];

/** `{content: "text"}` and `{error: "text"}` are the shapes encoders write for text results. */
function decodeResult(
  part: generative.Part,
  response: generative.FunctionResponse,
  source: string,
  losses: Loss[],
  matchedId: string | undefined,
): common.ToolResultPart {
  reportExtra(part, RESULT_PART_KEYS, source, losses);
  const responseSource = `${source}/functionResponse`;
  reportExtra(response, RESPONSE_FIELDS, responseSource, losses);
  const body = response.response;
  const keys = Object.keys(body);
  const only = keys.length === 1 ? keys[0] : undefined;
  const media: common.MediaPart[] = [];
  const inner = response.parts;
  if (inner !== undefined) {
    for (let index = 0; index < inner.length; index++) {
      const decoded = decodeMedia(
        inner[index] as generative.Part,
        `${responseSource}/parts/${index}`,
        losses,
      );
      if (decoded.type === "media") media.push(decoded);
    }
  }
  const id = response.id ?? matchedId;
  const name = response.name;
  if (only === "content" && typeof body.content === "string") {
    const text: common.TextPart = {
      type: "text",
      text: body.content,
      source: `${responseSource}/response/content`,
    };
    const content = media.length === 0 ? [text] : [text, ...media];
    return id === undefined
      ? { type: "tool-result", name, source, content }
      : { type: "tool-result", callId: id, name, source, content };
  }
  if (only === "error") {
    const error = body.error;
    if (typeof error === "string") {
      const text: common.TextPart = { type: "text", text: error, source: `${responseSource}/response/error` };
      const content = media.length === 0 ? [text] : [text, ...media];
      return id === undefined
        ? { type: "tool-result", name, source, content, isError: true }
        : { type: "tool-result", callId: id, name, source, content, isError: true };
    }
    return id === undefined
      ? { type: "tool-result", name, source, content: media, json: error, isError: true }
      : { type: "tool-result", callId: id, name, source, content: media, json: error, isError: true };
  }
  return id === undefined
    ? { type: "tool-result", name, source, content: media, json: body }
    : { type: "tool-result", callId: id, name, source, content: media, json: body };
}

const MEDIA_KEYS: Keys = ["inlineData", "fileData", "mediaResolution"];
const INLINE_KEYS: Keys = ["mimeType", "data"];
const FILE_KEYS: Keys = ["mimeType", "fileUri"];

function decodeMedia(
  part: generative.Part | { inlineData?: generative.Blob; fileData?: generative.FileData },
  source: string,
  losses: Loss[],
): common.MediaPart | common.OpaquePart {
  reportExtra(part, MEDIA_KEYS, source, losses);
  const resolution = "mediaResolution" in part ? part.mediaResolution : undefined;
  let detail: string | undefined;
  if (typeof resolution === "string") detail = resolution;
  else if (isObject(resolution)) {
    losses.push(
      loss(
        `${source}/mediaResolution`,
        "dropped",
        "A per-part mediaResolution object has no common equivalent and was dropped.",
      ),
    );
  }
  const inline = part.inlineData;
  if (inline !== undefined) {
    reportExtra(inline, INLINE_KEYS, `${source}/inlineData`, losses);
    return {
      type: "media",
      kind: kindOfMediaType(inline.mimeType),
      mediaType: inline.mimeType,
      data: inline.data,
      ...(detail === undefined ? {} : { detail }),
      source,
    };
  }
  const file = part.fileData;
  if (file === undefined)
    return { type: "opaque", origin: "generative", raw: part, label: "part of an unknown kind", source };
  reportExtra(file, FILE_KEYS, `${source}/fileData`, losses);
  return {
    type: "media",
    kind: kindOfMediaType(file.mimeType),
    ...(file.mimeType === undefined ? {} : { mediaType: file.mimeType }),
    url: file.fileUri,
    ...(detail === undefined ? {} : { detail }),
    source,
  };
}
