/**
 * Content parts of the responses protocol: what a message, a function output or a reasoning item holds
 * (input_text / input_image / input_file, output_text with annotations and logprobs, refusal,
 * summary_text, reasoning_text).
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
import { z } from "zod/v4";
import {
  type KnownOf,
  nonNegativeInt,
  openEnum,
  openUnion,
  promptCacheBreakpoint,
  type UnknownKind,
} from "./schema-shared";

const cacheBreakpoint = { prompt_cache_breakpoint: promptCacheBreakpoint.nullable().optional() };

/** A text part of an input message: `{ type: "input_text", text }`. */
export const inputText = z.looseObject({
  type: z.literal("input_text"),
  text: z.string(),
  ...cacheBreakpoint,
});
/** A text part of an input message: `{ type: "input_text", text }`. The type `inputText` parses to. */
export type InputText = z.infer<typeof inputText>;

/** An image by URL (https or `data:`) or file id; the SDK types `detail` as required, the API defaults it. */
export const inputImage = z.looseObject({
  type: z.literal("input_image"),
  detail: openEnum(["low", "high", "auto", "original"]).nullable().optional(),
  image_url: z.string().nullable().optional(),
  file_id: z.string().nullable().optional(),
  ...cacheBreakpoint,
});
/**
 * An image by URL (https or `data:`) or file id; the SDK types `detail` as required, the API defaults it. The
 * type `inputImage` parses to.
 */
export type InputImage = z.infer<typeof inputImage>;

/** A file by `file_data` (base64 data URL, with `filename`), `file_url` or `file_id`. */
export const inputFile = z.looseObject({
  type: z.literal("input_file"),
  file_data: z.string().nullable().optional(),
  file_id: z.string().nullable().optional(),
  file_url: z.string().nullable().optional(),
  filename: z.string().nullable().optional(),
  detail: openEnum(["auto", "low", "high"]).nullable().optional(),
  ...cacheBreakpoint,
});
/**
 * A file by `file_data` (base64 data URL, with `filename`), `file_url` or `file_id`. The type `inputFile`
 * parses to.
 */
export type InputFile = z.infer<typeof inputFile>;

/** Audio input (`input_audio`), listed by the SDK though not among message parts. */
export const inputAudio = z.looseObject({
  type: z.literal("input_audio"),
  input_audio: z.looseObject({ data: z.string(), format: openEnum(["mp3", "wav"]) }),
});
export type InputAudio = z.infer<typeof inputAudio>;

// ─── Annotations and logprobs of output text ──────────────────────────────────────────────────────

export const urlCitation = z.looseObject({
  type: z.literal("url_citation"),
  url: z.string(),
  title: z.string().optional(),
  // OpenAI always sends the span; xAI sends none.
  start_index: nonNegativeInt.optional(),
  end_index: nonNegativeInt.optional(),
});
export type UrlCitation = z.infer<typeof urlCitation>;

export const fileCitation = z.looseObject({
  type: z.literal("file_citation"),
  file_id: z.string(),
  filename: z.string().optional(),
  index: nonNegativeInt.optional(),
});
export type FileCitation = z.infer<typeof fileCitation>;

export const containerFileCitation = z.looseObject({
  type: z.literal("container_file_citation"),
  container_id: z.string(),
  file_id: z.string(),
  filename: z.string().optional(),
  start_index: nonNegativeInt.optional(),
  end_index: nonNegativeInt.optional(),
});
export type ContainerFileCitation = z.infer<typeof containerFileCitation>;

export const filePath = z.looseObject({
  type: z.literal("file_path"),
  file_id: z.string(),
  index: nonNegativeInt.optional(),
});
export type FilePath = z.infer<typeof filePath>;

const annotationKinds = [urlCitation, fileCitation, containerFileCitation, filePath] as const;
/**
 * An annotation of output text (`url_citation`, `file_citation`, `container_file_citation`, `file_path`), or a kind this library does not know (kept).
 */
export type Annotation = z.output<KnownOf<typeof annotationKinds>> | UnknownKind;
export type AnnotationInput = z.input<KnownOf<typeof annotationKinds>> | UnknownKind;
/** One annotation of an output_text part; new kinds are kept. */
export const annotation: z.ZodType<Annotation, AnnotationInput> = openUnion(annotationKinds);

export const topLogprob = z.looseObject({
  token: z.string().optional(),
  logprob: z.number().optional(),
  bytes: z.array(z.number()).optional(),
});
export type TopLogprob = z.infer<typeof topLogprob>;

/** The log probability of one output token, with its `top_logprobs` alternatives. */
export const logprob = z.looseObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.array(z.number()).optional(),
  top_logprobs: z.array(topLogprob).optional(),
});
/**
 * The log probability of one output token, with its `top_logprobs` alternatives. The type `logprob` parses
 * to.
 */
export type Logprob = z.infer<typeof logprob>;

// ─── Output parts ─────────────────────────────────────────────────────────────────────────────────

/** Model text; `annotations` and `logprobs` are always sent by OpenAI, not by every server. */
export const outputText = z.looseObject({
  type: z.literal("output_text"),
  text: z.string(),
  annotations: z.array(annotation).optional(),
  logprobs: z.array(logprob).nullable().optional(),
});
/**
 * Model text; `annotations` and `logprobs` are always sent by OpenAI, not by every server. The type
 * `outputText` parses to.
 */
export type OutputText = z.infer<typeof outputText>;

/** A refusal part of an output message: `{ type: "refusal", refusal }`. */
export const refusal = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });
/** A refusal part of an output message: `{ type: "refusal", refusal }`. The type `refusal` parses to. */
export type Refusal = z.infer<typeof refusal>;

/** A reasoning summary part (`reasoning.summary[]`). */
export const summaryText = z.looseObject({ type: z.literal("summary_text"), text: z.string() });
/** A reasoning summary part (`reasoning.summary[]`). The type `summaryText` parses to. */
export type SummaryText = z.infer<typeof summaryText>;

/** Raw reasoning text (`reasoning.content[]`, open-weight models and compatible servers). */
export const reasoningText = z.looseObject({ type: z.literal("reasoning_text"), text: z.string() });
/**
 * Raw reasoning text (`reasoning.content[]`, open-weight models and compatible servers). The type
 * `reasoningText` parses to.
 */
export type ReasoningText = z.infer<typeof reasoningText>;

// ─── Unions ───────────────────────────────────────────────────────────────────────────────────────

const inputContentKinds = [inputText, inputImage, inputFile, inputAudio, outputText, refusal] as const;
/**
 * A part of an input message: `input_text`, `input_image`, `input_file`, `input_audio`, or an unknown kind (kept).
 */
export type InputContent = z.output<KnownOf<typeof inputContentKinds>> | UnknownKind;
export type InputContentInput = z.input<KnownOf<typeof inputContentKinds>> | UnknownKind;
/**
 * One part of an input message's content, for any role: input parts, and the output parts an assistant
 * turn is replayed with. Unknown part types are kept.
 */
export const inputContent: z.ZodType<InputContent, InputContentInput> = openUnion(inputContentKinds);

const toolOutputContentKinds = [inputText, inputImage, inputFile] as const;
/** A part of a tool call's output when it is not a string: text, image or file. */
export type ToolOutputContent = z.output<KnownOf<typeof toolOutputContentKinds>> | UnknownKind;
export type ToolOutputContentInput = z.input<KnownOf<typeof toolOutputContentKinds>> | UnknownKind;
/** One part of a function or custom tool output given as a list. */
export const toolOutputContent: z.ZodType<ToolOutputContent, ToolOutputContentInput> =
  openUnion(toolOutputContentKinds);

const outputContentKinds = [outputText, refusal] as const;
/** A part of an output message: `output_text` or `refusal`, or an unknown kind (kept). */
export type OutputContent = z.output<KnownOf<typeof outputContentKinds>> | UnknownKind;
export type OutputContentInput = z.input<KnownOf<typeof outputContentKinds>> | UnknownKind;
/** One part of an output message. */
export const outputContent: z.ZodType<OutputContent, OutputContentInput> = openUnion(outputContentKinds);

const streamedPartKinds = [outputText, refusal, reasoningText] as const;
export type StreamedPart = z.output<KnownOf<typeof streamedPartKinds>> | UnknownKind;
export type StreamedPartInput = z.input<KnownOf<typeof streamedPartKinds>> | UnknownKind;
/** A part announced by `response.content_part.added` / `.done`. */
export const streamedPart: z.ZodType<StreamedPart, StreamedPartInput> = openUnion(streamedPartKinds);

const reasoningContentKinds = [reasoningText] as const;
export type ReasoningContent = z.output<KnownOf<typeof reasoningContentKinds>> | UnknownKind;
export type ReasoningContentInput = z.input<KnownOf<typeof reasoningContentKinds>> | UnknownKind;
/** One part of `reasoning.content`. */
export const reasoningContent: z.ZodType<ReasoningContent, ReasoningContentInput> =
  openUnion(reasoningContentKinds);
