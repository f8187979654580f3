/**
 * responses response ↔ common response: output items ⇄ parts (messages' text and refusals, reasoning,
 * function calls; built-in tool items kept whole), `status` ⇄ finish reason (`incomplete` ⇄ an
 * exhausted budget or a filter), usage, and the layout that lets responses restore its own answer.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
import { inputSeed } from "../../common/digest";
import { type Loss, loss, type Translated } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import { matchedStopDropped } from "../../common/stop";
import { fitResponseToolIds } from "../../common/tool-id";
import { carrierItem } from "./carrier";
import { echoOf } from "./echo";
import { keepRest, type Raw } from "./fields";
import { decodeResponsesStatus, encodeResponsesStatus, rawStatus } from "./finish-reason";
import { decodeCall, decodeSearchCall } from "./items-decode";
import {
  annotationsOf,
  callItem,
  closeMessage,
  itemId,
  type Layout,
  layoutOf,
  layoutOfOutput,
  type MessageShell,
  refusalContent,
  textContent,
} from "./output";
import { decodeReasoningItem, encodeReasoningItem, shellOf } from "./reasoning";
import type { FunctionCall, OutputItem, Reasoning, Response } from "./schema";
import { TOOL_IDS } from "./tool-id";
import { decodeResponsesUsage, encodeResponsesUsage } from "./usage";

/** Top-level fields the common response holds. */
export const RESPONSE_HELD = new Set([
  "id",
  "object",
  "created_at",
  "model",
  "output",
  "status",
  "error",
  "incomplete_details",
  "usage",
]);

/**
 * Fields a response echoes from its request (and timestamps of its life): they describe the request the
 * gateway already holds, so another protocol's answer drops them without a loss; responses keeps them.
 */
export const ECHOED = new Set([
  "instructions",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "max_output_tokens",
  "max_tool_calls",
  "presence_penalty",
  "frequency_penalty",
  "context_management",
  "previous_response_id",
  "reasoning",
  "text",
  "temperature",
  "top_p",
  "top_logprobs",
  "truncation",
  "store",
  "background",
  "metadata",
  "user",
  "safety_identifier",
  "prompt_cache_key",
  "prompt_cache_retention",
  "prompt",
  "conversation",
  "include",
  "output_text",
  "completed_at",
]);

/** Item fields a translation back derives again: not worth a loss. */
const SILENT_ITEM = new Set(["id", "status"]);
const MESSAGE_HELD = new Set(["id", "type", "role", "status", "content"]);
const TEXT_HELD = new Set(["type", "text", "annotations", "logprobs"]);
const REFUSAL_HELD = new Set(["type", "refusal"]);

/**
 * One message item's content → text, refusal (and unknown, kept whole) parts. `logprobs`: token
 * logprobs are reported (a stream reports its first only).
 */
function decodeMessage(
  item: Raw,
  source: string,
  parts: common.Part[],
  losses: Loss[],
  logprobs: boolean,
): void {
  keepRest(item, MESSAGE_HELD, source, "a message item", losses);
  const content = Array.isArray(item.content) ? (item.content as Raw[]) : [];
  content.forEach((part, index) => {
    const partSource = at(source, "content", index);
    if (part.type === "output_text") {
      keepRest(part, TEXT_HELD, partSource, "an output_text part", losses);
      if (logprobs && Array.isArray(part.logprobs) && part.logprobs.length > 0)
        losses.push(
          loss(
            at(partSource, "logprobs"),
            "dropped",
            "Token logprobs have no common equivalent and were dropped.",
          ),
        );
      const text: common.Draft<common.TextPart> = {
        type: "text",
        text: String(part.text),
        source: partSource,
      };
      const annotations = part.annotations;
      if (Array.isArray(annotations) && annotations.length > 0)
        text.citations = { origin: "responses", items: annotations, source: at(partSource, "annotations") };
      parts.push(text);
    } else if (part.type === "refusal") {
      keepRest(part, REFUSAL_HELD, partSource, "a refusal part", losses);
      parts.push({ type: "refusal", text: String(part.refusal), source: partSource });
    } else
      parts.push({
        type: "opaque",
        origin: "responses",
        raw: part,
        label: `${String(part.type)} part`,
        source: partSource,
      });
  });
}

/**
 * One output item → its common parts, and the losses of its fields; true for a call. `logprobs`: token
 * logprobs are reported. A stream's `output_item.done` carries an item's final form: its decoder takes
 * the losses from here, so that a stream reports what the whole response would; `streamed`: which of
 * a reasoning item's lists the stream sent.
 */
export function decodeOutputItem(
  item: OutputItem,
  source: string,
  parts: common.Part[],
  losses: Loss[],
  logprobs: boolean,
  streamed?: "summary" | "content",
): boolean {
  switch (item.type) {
    case "message":
      decodeMessage(item as Raw, source, parts, losses, logprobs);
      return false;
    case "reasoning":
      parts.push(decodeReasoningItem(item as Reasoning, source, losses, SILENT_ITEM, streamed).part);
      return false;
    case "function_call":
    case "custom_tool_call":
      parts.push(decodeCall(item as FunctionCall, source, losses, SILENT_ITEM));
      return true;
    case "tool_search_call":
      if ((item as Raw).execution !== "client") break;
      parts.push(decodeSearchCall(item as Raw, source, losses, SILENT_ITEM));
      return true;
  }
  parts.push({ type: "opaque", origin: "responses", raw: item, label: `${item.type} item`, source });
  return false;
}

/** responses response → common response. */
export function decodeResponsesResponse(
  body: Response,
  _options: ResolvedOptions,
): Translated<common.Response> {
  const losses: Loss[] = [];
  const top = keepRest(body, RESPONSE_HELD, "", "the response", losses, ECHOED);
  const parts: common.Part[] = [];
  let calls = 0;
  body.output.forEach((item: OutputItem, index: number) => {
    if (decodeOutputItem(item, `/output/${index}`, parts, losses, true)) calls++;
  });
  const status = body.status;
  const reason = body.incomplete_details?.reason;
  const choice: common.Draft<common.Choice> = { index: 0, parts, source: "" };
  const finish = decodeResponsesStatus(status, reason, calls > 0);
  if (finish !== undefined) {
    choice.finishReason = finish;
    choice.rawFinishReason = rawStatus(status, reason);
    choice.finishReasonSource =
      typeof reason === "string" ? "/incomplete_details/reason" : status === undefined ? "" : "/status";
  } else if (status !== undefined) choice.finishReasonSource = "/status"; // not finished: what a target must make up stands for it
  if (body.error != null)
    losses.push(
      loss(
        "/error",
        "dropped",
        `The response failed (${body.error.message}); the error has no place in a translated answer.`,
      ),
    );
  choice.extra = { origin: "responses", raw: { layout: layoutOfOutput(body.output, body as Raw) } };
  const value: common.Draft<common.Response> = {
    id: body.id,
    model: body.model,
    created: body.created_at,
    createdSource: "/created_at",
    choices: [choice],
  };
  if (body.usage != null) value.usage = decodeResponsesUsage(body.usage, "/usage", losses);
  if (top !== undefined) value.extra = { origin: "responses", raw: top };
  return { value, losses };
}

/** Consumes a layout's envelopes kind by kind, in output order. */
export class LayoutCursor {
  #layout: Layout;
  #messages = 0;
  #reasoning = 0;
  #calls = 0;
  constructor(layout: Layout | undefined) {
    this.#layout = layout ?? { messages: [], reasoning: [], calls: [] };
  }
  message(): MessageShell | undefined {
    return this.#layout.messages[this.#messages++];
  }
  reasoning(): Layout["reasoning"][number] | undefined {
    return this.#layout.reasoning[this.#reasoning++];
  }
  call(): Raw | undefined {
    return this.#layout.calls[this.#calls++];
  }
}

/** The message item open for more content: its layout shell (own answers), its id, its content so far. */
type Open = { shell: MessageShell | undefined; id: string; content: unknown[] };

/** The output as it is encoded: the items so far, the message open for more content, whether a refusal went. */
type OutputDraft = {
  readonly output: unknown[];
  readonly cursor: LayoutCursor;
  readonly responseId: string;
  readonly options: ResolvedOptions;
  readonly losses: Loss[];
  open: Open | undefined;
  hasRefusal: boolean;
};

/** Common parts → output items (the whole-response encoder; the stream encoder emits the same items). */
function encodeOutput(
  parts: readonly common.Part[],
  layout: Layout | undefined,
  responseId: string,
  options: ResolvedOptions,
  losses: Loss[],
): { output: unknown[]; hasRefusal: boolean } {
  const draft: OutputDraft = {
    output: [],
    cursor: new LayoutCursor(layout),
    responseId,
    options,
    losses,
    open: undefined,
    hasRefusal: false,
  };
  for (const part of parts) {
    switch (part.type) {
      case "text":
        addOutputText(draft, part);
        break;
      case "refusal":
        addOutputRefusal(draft, part);
        break;
      case "reasoning":
        encodeOutputReasoning(draft, part);
        break;
      case "tool-call":
        encodeOutputCall(draft, part);
        break;
      case "opaque":
        encodeOutputOpaque(draft, part);
        break;
      default:
        losses.push(
          loss(
            part.source,
            "dropped",
            `A ${part.type} part cannot appear in a responses answer and was dropped.`,
          ),
        );
    }
  }
  closeMessageItem(draft);
  return { output: draft.output, hasRefusal: draft.hasRefusal };
}

/** Closes the open message, if any, into an output item. */
function closeMessageItem(draft: OutputDraft): void {
  const open = draft.open;
  if (open === undefined) return;
  draft.output.push(closeMessage(open.shell, open.id, open.content));
  draft.open = undefined;
}

/** The open message, or a new one (its shell the layout's next). */
function openMessageItem(draft: OutputDraft): Open {
  if (draft.open !== undefined) return draft.open;
  const shell = draft.cursor.message();
  const open: Open = {
    shell,
    id: itemId(draft.options, "msg", draft.responseId, draft.output.length),
    content: [],
  };
  draft.open = open;
  return open;
}

/** The open message is full when its layout says so (own answers); another's stays open for more text. */
function closeWhenFull(draft: OutputDraft, current: Open): void {
  if (current.shell !== undefined && current.content.length >= current.shell.content.length)
    closeMessageItem(draft);
}

/** A reasoning item of its own carrying another protocol's signature of the part before or after it. */
function carrySignature(
  draft: OutputDraft,
  signature: common.Signature,
  of: "next" | "previous",
  source: string,
): void {
  const id = itemId(draft.options, "rs", draft.responseId, draft.output.length);
  const entries = [{ signature: signature.value, of }];
  const item = carrierItem(signature.origin, entries, "", id, signature.source ?? source, draft.losses);
  if (item !== undefined) draft.output.push(item);
}

/** A text part: `output_text` content of the open message; another protocol's signature carried after it. */
function addOutputText(draft: OutputDraft, part: common.TextPart): void {
  const current = openMessageItem(draft);
  const shell = current.shell?.content[current.content.length];
  current.content.push(
    textContent(shell, part.text, annotationsOf(part.citations, part.source, draft.losses)),
  );
  closeWhenFull(draft, current);
  // Another protocol's signature of the text rides in a reasoning item after its message (carrier.ts).
  if (part.signature !== undefined && part.signature.origin !== "responses") {
    closeMessageItem(draft);
    carrySignature(draft, part.signature, "previous", part.source);
  }
}

/** A refusal part: `refusal` content of the open message. */
function addOutputRefusal(draft: OutputDraft, part: common.RefusalPart): void {
  draft.hasRefusal = true;
  const current = openMessageItem(draft);
  current.content.push(refusalContent(current.shell?.content[current.content.length], part.text));
  closeWhenFull(draft, current);
}

/** A reasoning part: a reasoning item of its own (its shell the layout's next, else the part's own). */
function encodeOutputReasoning(draft: OutputDraft, part: common.ReasoningPart): void {
  closeMessageItem(draft);
  draft.output.push(
    encodeReasoningItem(
      part,
      draft.cursor.reasoning() ?? shellOf(part),
      itemId(draft.options, "rs", draft.responseId, draft.output.length),
      draft.losses,
      "a responses answer",
      true,
    ),
  );
}

/**
 * A tool call: a server call of responses' own goes back as it was (another's is dropped); a client
 * call becomes a call item, another protocol's signature carried before it.
 */
function encodeOutputCall(draft: OutputDraft, part: common.ToolCallPart): void {
  if (part.server !== undefined) {
    if (part.server.origin === "responses") {
      closeMessageItem(draft);
      draft.output.push(part.server.raw);
    } else
      draft.losses.push(
        loss(
          part.source,
          "dropped",
          `A ${part.server.origin} server-side tool call has no responses form and was dropped.`,
          "block.dropped",
        ),
      );
    return;
  }
  closeMessageItem(draft);
  if (part.signature !== undefined && part.signature.origin !== "responses")
    carrySignature(draft, part.signature, "next", part.source);
  const place = draft.output.length;
  const ids = {
    item: itemId(draft.options, "fc", draft.responseId, place),
    call: itemId(draft.options, "call", draft.responseId, place),
  };
  draft.output.push(
    callItem(
      part,
      draft.cursor.call(),
      part.argumentsText ?? JSON.stringify(part.arguments ?? {}),
      ids,
      draft.losses,
    ),
  );
}

/**
 * A part kept whole: responses' own goes back as it was, as content of the open message where its
 * layout says so, else as an item; another protocol's is dropped.
 */
function encodeOutputOpaque(draft: OutputDraft, part: common.OpaquePart): void {
  const open = draft.open;
  const shell = open?.shell?.content[open.content.length];
  if (open !== undefined && shell?.opaque === true && part.origin === "responses") {
    open.content.push(part.raw);
    closeWhenFull(draft, open);
    return;
  }
  if (part.origin === "responses") {
    closeMessageItem(draft);
    draft.output.push(part.raw);
  } else
    draft.losses.push(
      loss(
        part.source,
        "dropped",
        `A ${part.origin} ${part.label} has no responses form and was dropped.`,
        "block.dropped",
      ),
    );
}

/**
 * The status fields of an encoded response: the layout's own as they came (own answers), else mapped from
 * the finish reason.
 */
export function statusFields(
  layout: Layout | undefined,
  finish: { reason?: common.FinishReason | undefined; raw?: string | undefined; source: string } | undefined,
  hasRefusal: boolean,
  losses: Loss[],
): Raw {
  if (layout?.status !== undefined) {
    const own: Raw = { status: layout.status };
    if (layout.error !== undefined) own.error = layout.error;
    if (layout.incomplete_details !== undefined) own.incomplete_details = layout.incomplete_details;
    return own;
  }
  const mapped = encodeResponsesStatus(finish?.reason, hasRefusal);
  if (mapped.approximated)
    losses.push(
      loss(
        finish?.source ?? "",
        "approximated",
        `Finish reason \`${finish?.raw ?? finish?.reason}\` has no responses equivalent; status "${mapped.status}" was sent.`,
        "finish_reason.approximated",
      ),
    );
  return {
    status: mapped.status,
    error: null,
    incomplete_details: mapped.incomplete === undefined ? null : { reason: mapped.incomplete },
  };
}

/** Common response → responses response; a missing id or timestamp comes from `options`, never the clock. */
export function encodeResponsesResponse(
  original: common.Response,
  options: ResolvedOptions,
): Translated<Response> {
  const losses: Loss[] = [];
  // Tool ids responses refuses are rewritten, and read back as the original (common/tool-id.ts).
  const response = fitResponseToolIds(original, TOOL_IDS, losses);
  const choices = response.choices;
  for (let index = 1; index < choices.length; index++)
    losses.push(
      loss(
        (choices[index] as common.Choice).source,
        "dropped",
        "A responses answer holds one candidate; this one was dropped.",
      ),
    );
  const choice = choices[0];
  const layout = layoutOf(choice?.extra);
  // A missing id is derived from what the response carries: equal inputs, equal ids.
  const id = response.id ?? syntheticId(options, `resp_${response.seed ?? inputSeed(response)}`);
  const { output, hasRefusal } = encodeOutput(choice?.parts ?? [], layout, id, options, losses);
  const finish =
    choice === undefined
      ? undefined
      : {
          reason: choice.finishReason,
          raw: choice.rawFinishReason,
          source: choice.finishReasonSource ?? choice.source,
        };
  let fields: Raw;
  if (response.promptBlocked !== undefined && output.length === 0 && layout?.status === undefined) {
    losses.push(
      loss(
        response.promptBlocked.source,
        "approximated",
        `The prompt was blocked (${response.promptBlocked.reason}); it is reported as an answer cut by the content filter.`,
      ),
    );
    fields = { status: "incomplete", error: null, incomplete_details: { reason: "content_filter" } };
  } else fields = statusFields(layout, finish, hasRefusal, losses);
  if (choice?.stopSequence !== undefined)
    losses.push(matchedStopDropped(choice.stopSequenceSource ?? choice.source, "responses"));
  const kept = response.extra?.origin === "responses" ? response.extra.raw : undefined;
  // responses' own answer (its layout came with it) keeps what it had; another protocol's is completed.
  const own = kept !== undefined || layout !== undefined;
  // Spread, not assignment: a kept `__proto__` field stays a plain own field.
  const value: Raw = own ? { ...kept, ...layout?.top } : {};
  value.id = id;
  value.object = "response";
  const created = response.created ?? options.created;
  if (created === undefined)
    losses.push(
      loss(
        "/created",
        "synthesized",
        "The response carries no creation time and `options.created` gives none; `created_at` was sent as 0.",
      ),
    );
  value.created_at = created ?? 0;
  // Another protocol's answer gets what the service writes: the configuration its request set (echo.ts).
  const echo = own ? undefined : echoOf(options.request);
  if (echo !== undefined) {
    value.status = fields.status;
    for (const key in echo.before) value[key] = echo.before[key];
    value.completed_at = completedAt(fields.status, created, options);
  }
  for (const key in fields) value[key] = fields[key];
  value.model = response.model ?? options.model ?? "";
  value.output = output;
  if (echo !== undefined) for (const key in echo.after) value[key] = echo.after[key];
  // The API always writes `usage`, `null` while unknown; an own answer without the field stays without.
  if (response.usage !== undefined) value.usage = encodeResponsesUsage(response.usage);
  else if (layout?.noUsage !== true) value.usage = null;
  return { value: value as Response, losses };
}

/**
 * When a translated answer was completed: the gateway's clock (`options.created`, when the answer
 * arrived) or else its creation time; null while it is not completed, as the service writes it.
 */
export function completedAt(
  status: unknown,
  created: number | undefined,
  options: ResolvedOptions,
): number | null {
  if (status !== "completed") return null;
  return options.created ?? created ?? 0;
}
