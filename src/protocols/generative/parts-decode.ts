/**
 * generative parts → common parts, for request turns and response candidates alike: text, thoughts,
 * media, function calls (ids synthesized when absent, research U1) and function responses.
 */
import { isObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import { kindOfMediaType } from "./media";
import type * as generative from "./schema";

/** What a run of parts needs to name its calls: the seed of synthesized ids and a running ordinal. */
export type CallNaming = { readonly seed: string; ordinal: number };

const TEXT_KEYS = new Set(["text", "thought", "thoughtSignature"]);
const CALL_KEYS = new Set(["functionCall", "thoughtSignature"]);
const CALL_FIELDS = new Set(["id", "name", "args"]);
const RESPONSE_FIELDS = new Set(["id", "name", "response", "parts"]);

function reportExtra(part: object, known: ReadonlySet<string>, source: string, losses: Loss[]): void {
  for (const key of Object.keys(part)) {
    if (!known.has(key))
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
): common.Part {
  if (
    part.executableCode !== undefined ||
    part.codeExecutionResult !== undefined ||
    (part.functionResponse !== undefined && role === "assistant")
  ) {
    const label =
      part.executableCode !== undefined
        ? "executableCode"
        : part.codeExecutionResult !== undefined
          ? "codeExecutionResult"
          : "functionResponse";
    return { type: "opaque", origin: "generative", raw: part, label: `${label} part`, source };
  }
  if (part.functionCall !== undefined)
    return decodeCall(part, part.functionCall, source, naming, options, losses);
  if (part.functionResponse !== undefined) return decodeResult(part, part.functionResponse, source, losses);
  if (part.inlineData !== undefined || part.fileData !== undefined) return decodeMedia(part, source, losses);
  if (part.text !== undefined) {
    reportExtra(part, TEXT_KEYS, source, losses);
    if (part.thought === true) {
      return {
        type: "reasoning",
        text: part.text,
        origin: "generative",
        ...(part.thoughtSignature === undefined
          ? {}
          : { signature: part.thoughtSignature, signatureSource: at(source, "thoughtSignature") }),
        source,
      };
    }
    return {
      type: "text",
      text: part.text,
      ...(part.thoughtSignature === undefined
        ? {}
        : {
            signature: {
              origin: "generative",
              value: part.thoughtSignature,
              source: at(source, "thoughtSignature"),
            },
          }),
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
  reportExtra(call, CALL_FIELDS, at(source, "functionCall"), losses);
  const ordinal = naming.ordinal++;
  let id = call.id;
  if (id === undefined) {
    id = syntheticId(options, naming.seed, ordinal);
    losses.push(
      loss(
        at(source, "functionCall", "id"),
        "synthesized",
        `The function call has no id; "${id}" was derived from the input.`,
      ),
    );
  }
  return {
    type: "tool-call",
    id,
    name: call.name ?? "",
    arguments: call.args ?? {},
    // A call without `args` (a function of no parameters): generative restores the absence (replay).
    ...(call.args === undefined ? { extra: NO_ARGS } : {}),
    ...(part.thoughtSignature === undefined
      ? {}
      : {
          signature: {
            origin: "generative",
            value: part.thoughtSignature,
            source: at(source, "thoughtSignature"),
          },
        }),
    source,
  };
}

/** `{content: "text"}` and `{error: "text"}` are the shapes encoders write for text results (research U4, U8). */
function decodeResult(
  part: generative.Part,
  response: generative.FunctionResponse,
  source: string,
  losses: Loss[],
): common.ToolResultPart {
  reportExtra(part, new Set(["functionResponse"]), source, losses);
  reportExtra(response, RESPONSE_FIELDS, at(source, "functionResponse"), losses);
  const body = response.response;
  const keys = Object.keys(body);
  const only = keys.length === 1 ? keys[0] : undefined;
  const media: common.MediaPart[] = [];
  response.parts?.forEach((inner, index) => {
    const decoded = decodeMedia(inner, at(source, "functionResponse", "parts", index), losses);
    if (decoded.type === "media") media.push(decoded);
  });
  const base = {
    type: "tool-result" as const,
    ...(response.id === undefined ? {} : { callId: response.id }),
    name: response.name,
    source,
  };
  if (only === "content" && typeof body.content === "string") {
    return {
      ...base,
      content: [
        { type: "text", text: body.content, source: at(source, "functionResponse", "response", "content") },
        ...media,
      ],
    };
  }
  if (only === "error") {
    const error = body.error;
    return typeof error === "string"
      ? {
          ...base,
          content: [
            { type: "text", text: error, source: at(source, "functionResponse", "response", "error") },
            ...media,
          ],
          isError: true,
        }
      : { ...base, content: media, json: error, isError: true };
  }
  return { ...base, content: media, json: body };
}

function decodeMedia(
  part: generative.Part | { inlineData?: generative.Blob; fileData?: generative.FileData },
  source: string,
  losses: Loss[],
): common.MediaPart | common.OpaquePart {
  const known = new Set(["inlineData", "fileData", "mediaResolution"]);
  reportExtra(part, known, source, losses);
  const resolution = "mediaResolution" in part ? part.mediaResolution : undefined;
  let detail: string | undefined;
  if (typeof resolution === "string") detail = resolution;
  else if (isObject(resolution)) {
    losses.push(
      loss(
        at(source, "mediaResolution"),
        "dropped",
        "A per-part mediaResolution object has no common equivalent and was dropped.",
      ),
    );
  }
  const inline = part.inlineData;
  if (inline !== undefined) {
    reportExtra(inline, new Set(["mimeType", "data"]), at(source, "inlineData"), losses);
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
  reportExtra(file, new Set(["mimeType", "fileUri"]), at(source, "fileData"), losses);
  return {
    type: "media",
    kind: kindOfMediaType(file.mimeType),
    ...(file.mimeType === undefined ? {} : { mediaType: file.mimeType }),
    url: file.fileUri,
    ...(detail === undefined ? {} : { detail }),
    source,
  };
}
