/**
 * Common stream parts → responses stream events (a pure reducer), in the grammar its clients expect:
 * `response.created`, `response.in_progress`, then one item at a time — `output_item.added`, its
 * content parts (`content_part.added` → deltas → `.done` → `content_part.done`), `output_item.done` —
 * and `response.completed` / `incomplete` / `failed` with the whole answer; `sequence_number` counts
 * every event from 0. An error part is an `error` event (which the SDKs raise) then
 * `response.failed`, and nothing after.
 *
 * Unlike the other encoders, this one keeps the text of what it has sent: the `.done` events and the
 * final event carry the whole item and the whole answer, and clients read them as the result (the
 * `openai` SDK's final response is the final event's; `output_item.done` replaces what deltas built).
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
import { keysAre } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { type ResolvedOptions, syntheticId } from "../../common/options";
import { at } from "../../common/pointer";
import { handlePart, type PartHandlers, type StreamReducer } from "../../common/reducer";
import { matchedStopDropped } from "../../common/stop";
import { eventPointer } from "../../common/stream-end";
import { fitToolId } from "../../common/tool-id";
import { carrierItem } from "./carrier";
import { echoOf } from "./echo";
import { errorObjectOf, responseErrorOf } from "./error";
import type { Raw } from "./fields";
import {
  annotationsOf,
  callItem,
  closeMessage,
  itemId,
  type Layout,
  layoutOf,
  type MessageShell,
  openMessage,
  type PartShell,
  refusalContent,
  textContent,
} from "./output";
import { encodeReasoningItem, type ReasoningShell } from "./reasoning";
import { completedAt, statusFields } from "./response";
import { DONE, type StreamEvent } from "./schema";
import { TOOL_IDS } from "./tool-id";
import { encodeResponsesUsage } from "./usage";

type OpenPart = {
  readonly block: number;
  readonly kind: "text" | "refusal";
  readonly text: string;
  readonly shell: PartShell | undefined;
};

type OpenItem =
  | {
      readonly kind: "message";
      readonly id: string;
      readonly shell: MessageShell | undefined;
      readonly content: readonly unknown[];
      readonly part: OpenPart | undefined;
    }
  | {
      readonly kind: "reasoning";
      readonly id: string;
      readonly block: number;
      readonly origin: common.ReasoningOrigin;
      readonly shell: ReasoningShell | undefined;
      readonly text: string;
      readonly signature: string | undefined;
      readonly redacted: string | undefined;
      readonly partOpen: boolean;
    }
  | {
      readonly kind: "call";
      readonly id: string;
      readonly block: number;
      readonly call: {
        id: string | undefined;
        name: string;
        freeform: boolean;
        /** A call of the client's tool search: no delta events, its arguments whole at `done`. */
        search: boolean;
        namespace: string | undefined;
        extra: common.Extra | undefined;
      };
      readonly shell: Raw | undefined;
      readonly ids: { item: string; call: string };
      readonly args: string;
    };

export type ResponsesEncodeState = {
  /** `new`: nothing sent; `open`: the response is streaming; `done`: its final event (or an error) was sent. */
  readonly phase: "new" | "open" | "done";
  readonly seq: number;
  readonly id: string | undefined;
  readonly model: string | undefined;
  readonly created: number | undefined;
  /** The digest an id is derived from when the input has none (`response-start`'s `seed`). */
  readonly seed: string | undefined;
  /** responses' own top-level fields (from the source's response), repeated in every response snapshot. */
  readonly top: Raw | undefined;
  readonly layout: Layout | undefined;
  /** How many envelopes of each kind the layout has given out. */
  readonly used: { readonly messages: number; readonly reasoning: number; readonly calls: number };
  /** The finished items, for the final event. */
  readonly output: readonly unknown[];
  readonly open: OpenItem | undefined;
  readonly usage: common.Usage | undefined;
  readonly finish: Extract<common.StreamPart, { type: "finish" }> | undefined;
  readonly blocked: boolean;
  readonly refusal: boolean;
};

type Work = common.Draft<ResponsesEncodeState>;

function copy(state: ResponsesEncodeState): Work {
  return {
    phase: state.phase,
    seq: state.seq,
    id: state.id,
    model: state.model,
    created: state.created,
    seed: state.seed,
    top: state.top,
    layout: state.layout,
    used: state.used,
    output: state.output,
    open: state.open,
    usage: state.usage,
    finish: state.finish,
    blocked: state.blocked,
    refusal: state.refusal,
  };
}

/** Appends `event` (type first) with the next sequence number. */
function emit(work: Work, out: StreamEvent[], type: string, fields: Raw): void {
  out.push({ type, sequence_number: work.seq, ...fields } as StreamEvent);
  work.seq += 1;
}

/** The response's id: the input's, else derived from what the input carried (`response-start`'s `seed`). */
const responseId = (work: ResponsesEncodeState, options: ResolvedOptions): string =>
  work.id ?? syntheticId(options, work.seed === undefined ? "resp" : `resp_${work.seed}`);

/**
 * The response object as a lifecycle event carries it. Another protocol's answer gets the configuration
 * its request set (echo.ts), as the whole-response encoder writes it.
 */
function snapshot(work: ResponsesEncodeState, options: ResolvedOptions, fields: Raw, usage: unknown): Raw {
  const own = work.top !== undefined || work.layout !== undefined;
  const value: Raw = work.top === undefined ? {} : { ...work.top };
  value.id = responseId(work, options);
  value.object = "response";
  const created = work.created ?? options.created;
  value.created_at = created;
  const echo = own ? undefined : echoOf(options.request);
  if (echo !== undefined) {
    value.status = fields.status;
    for (const key in echo.before) value[key] = echo.before[key];
    value.completed_at = completedAt(fields.status, created, options);
  }
  for (const key in fields) value[key] = fields[key];
  value.model = work.model ?? options.model ?? "";
  value.output = work.output;
  if (echo !== undefined) for (const key in echo.after) value[key] = echo.after[key];
  if (usage !== null || work.layout?.noUsage !== true) value.usage = usage;
  return value;
}

const IN_PROGRESS = { status: "in_progress", error: null, incomplete_details: null };

function begin(work: Work, out: StreamEvent[], options: ResolvedOptions, losses: Loss[]): void {
  if (work.phase !== "new") return;
  work.phase = "open";
  if (work.created === undefined && options.created === undefined) {
    losses.push(
      loss(
        "/created_at",
        "synthesized",
        "The stream carries no creation time and `options.created` gives none; `created_at` was sent as 0.",
      ),
    );
    work.created = 0;
  }
  work.id = responseId(work, options);
  const response = snapshot(work, options, IN_PROGRESS, null);
  emit(work, out, "response.created", { response });
  emit(work, out, "response.in_progress", { response });
}

function place(work: Work): { item_id: string; output_index: number } {
  return { item_id: (work.open as OpenItem).id, output_index: work.output.length };
}

function finishItem(work: Work, item: unknown, out: StreamEvent[]): void {
  emit(work, out, "response.output_item.done", { output_index: work.output.length, item });
  work.output = [...work.output, item];
  work.open = undefined;
}

function closePart(
  work: Work,
  out: StreamEvent[],
  citations: common.TextPart["citations"],
  losses: Loss[],
): void {
  const open = work.open;
  if (open?.kind !== "message" || open.part === undefined) return;
  const part = open.part;
  const at = { ...place(work), content_index: open.content.length };
  let done: Raw;
  if (part.kind === "text") {
    const annotations = annotationsOf(citations, "", losses);
    annotations.forEach((annotation, index) => {
      emit(work, out, "response.output_text.annotation.added", {
        ...at,
        annotation_index: index,
        annotation,
      });
    });
    emit(work, out, "response.output_text.done", { ...at, text: part.text, logprobs: [] });
    done = textContent(part.shell, part.text, annotations);
  } else {
    emit(work, out, "response.refusal.done", { ...at, refusal: part.text });
    done = refusalContent(part.shell, part.text);
  }
  emit(work, out, "response.content_part.done", { ...at, part: done });
  const content = [...open.content, done];
  work.open = { ...open, content, part: undefined };
  // A message of responses origin holds as many parts as its layout says.
  if (open.shell !== undefined && content.length >= open.shell.content.length) closeItem(work, out, losses);
}

/** Closes the open item, sending its `done` events. */
function closeItem(work: Work, out: StreamEvent[], losses: Loss[]): void {
  const open = work.open;
  if (open === undefined) return;
  switch (open.kind) {
    case "message": {
      if (open.part !== undefined) {
        closePart(work, out, undefined, losses);
        // A message of responses origin closes itself with its last part.
        if (work.open?.kind !== "message") return;
      }
      const current = work.open as Extract<OpenItem, { kind: "message" }>;
      finishItem(work, closeMessage(current.shell, current.id, current.content), out);
      return;
    }
    case "reasoning": {
      const at = place(work);
      if (open.partOpen) {
        if (open.shell?.use === "content") {
          emit(work, out, "response.reasoning_text.done", { ...at, content_index: 0, text: open.text });
          emit(work, out, "response.content_part.done", {
            ...at,
            content_index: 0,
            part: { type: "reasoning_text", text: open.text },
          });
        } else {
          emit(work, out, "response.reasoning_summary_text.done", {
            ...at,
            summary_index: 0,
            text: open.text,
          });
          emit(work, out, "response.reasoning_summary_part.done", {
            ...at,
            summary_index: 0,
            part: { type: "summary_text", text: open.text },
          });
        }
      }
      const part: common.Draft<common.ReasoningPart> = {
        type: "reasoning",
        text: open.text,
        origin: open.origin,
        source: "",
      };
      if (open.signature !== undefined) part.signature = open.signature;
      if (open.redacted !== undefined) part.redacted = open.redacted;
      finishItem(
        work,
        encodeReasoningItem(part, open.shell, open.id, losses, "a responses stream", true),
        out,
      );
      return;
    }
    case "call": {
      const at = place(work);
      const custom = open.call.freeform;
      if (open.call.search) {
        // tool_search_call items stream no arguments events: the item is whole at its done.
      } else if (custom) emit(work, out, "response.custom_tool_call_input.done", { ...at, input: open.args });
      else
        emit(work, out, "response.function_call_arguments.done", {
          ...at,
          arguments: open.args,
          name: open.call.name,
        });
      const call = { ...open.call, source: "" };
      finishItem(work, callItem(call, open.shell, open.args, open.ids, []), out);
      return;
    }
  }
}

/** Opens a message item unless one is open. */
function message(
  work: Work,
  out: StreamEvent[],
  options: ResolvedOptions,
  losses: Loss[],
): Extract<OpenItem, { kind: "message" }> {
  begin(work, out, options, losses);
  if (work.open?.kind === "message") return work.open;
  closeItem(work, out, losses);
  const shell = work.layout?.messages[work.used.messages];
  if (work.layout !== undefined) work.used = { ...work.used, messages: work.used.messages + 1 };
  const id =
    (shell?.fields.id as string | undefined) ??
    itemId(options, "msg", responseId(work, options), work.output.length);
  emit(work, out, "response.output_item.added", {
    output_index: work.output.length,
    item: openMessage(shell, id),
  });
  const open = { kind: "message" as const, id, shell, content: [], part: undefined };
  work.open = open;
  return open;
}

/** The open content part for `block`, opening the message and the part as needed. */
function part(
  work: Work,
  block: number,
  kind: "text" | "refusal",
  out: StreamEvent[],
  options: ResolvedOptions,
  losses: Loss[],
): OpenPart {
  const current = message(work, out, options, losses);
  if (current.part?.block === block && current.part.kind === kind) return current.part;
  if (current.part !== undefined) closePart(work, out, undefined, losses);
  const open = message(work, out, options, losses);
  const shell = open.shell?.content[open.content.length];
  const added = kind === "text" ? textContent(shell, "", []) : refusalContent(shell, "");
  emit(work, out, "response.content_part.added", {
    ...place(work),
    content_index: open.content.length,
    part: added,
  });
  const fresh: OpenPart = { block, kind, text: "", shell };
  work.open = { ...open, part: fresh };
  return fresh;
}

function appendText(work: Work, kind: "text" | "refusal", text: string, out: StreamEvent[]): void {
  const open = work.open as Extract<OpenItem, { kind: "message" }>;
  const current = open.part as OpenPart;
  const at = { ...place(work), content_index: open.content.length };
  if (kind === "text") emit(work, out, "response.output_text.delta", { ...at, delta: text, logprobs: [] });
  else emit(work, out, "response.refusal.delta", { ...at, delta: text });
  work.open = { ...open, part: { ...current, text: current.text + text } };
}

function reasoningDelta(work: Work, text: string, out: StreamEvent[]): void {
  const open = work.open as Extract<OpenItem, { kind: "reasoning" }>;
  const at = place(work);
  const raw = open.shell?.use === "content";
  if (!open.partOpen) {
    if (raw)
      emit(work, out, "response.content_part.added", {
        ...at,
        content_index: 0,
        part: { type: "reasoning_text", text: "" },
      });
    else
      emit(work, out, "response.reasoning_summary_part.added", {
        ...at,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      });
  }
  if (raw) emit(work, out, "response.reasoning_text.delta", { ...at, content_index: 0, delta: text });
  else emit(work, out, "response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta: text });
  work.open = { ...open, text: open.text + text, partOpen: true };
}

function argumentsDelta(work: Work, text: string, out: StreamEvent[]): void {
  const open = work.open as Extract<OpenItem, { kind: "call" }>;
  if (open.call.search) {
    work.open = { ...open, args: open.args + text };
    return;
  }
  const type = open.call.freeform
    ? "response.custom_tool_call_input.delta"
    : "response.function_call_arguments.delta";
  emit(work, out, type, { ...place(work), delta: text });
  work.open = { ...open, args: open.args + text };
}

/** The final event: the whole answer with its status and usage. */
function terminal(work: Work, out: StreamEvent[], losses: Loss[], options: ResolvedOptions): void {
  begin(work, out, options, losses);
  closeItem(work, out, losses);
  const given = work.finish;
  if (given === undefined && !work.blocked)
    losses.push(
      loss(
        "",
        "synthesized",
        "The stream ended without a finish reason; the responses stream was completed with a made-up status.",
        "finish_reason.synthesized",
      ),
    );
  let fields: Raw;
  if (work.blocked && work.output.length === 0 && work.layout?.status === undefined) {
    losses.push(
      loss(
        "",
        "approximated",
        "The prompt was blocked; it is reported as an answer cut by the content filter.",
        "blockReason.approximated",
      ),
    );
    fields = { status: "incomplete", error: null, incomplete_details: { reason: "content_filter" } };
  } else
    fields = statusFields(
      work.layout,
      given === undefined
        ? undefined
        : { reason: given.reason, raw: given.rawReason, source: given.source ?? "" },
      work.refusal,
      losses,
    );
  const usage = work.usage === undefined ? null : encodeResponsesUsage(work.usage);
  const type =
    fields.status === "incomplete"
      ? "response.incomplete"
      : fields.status === "failed"
        ? "response.failed"
        : "response.completed";
  emit(work, out, type, { response: snapshot(work, options, fields, usage) });
  work.phase = "done";
}

/** A whole reasoning item carrying another protocol's signature of the part before or after it (carrier.ts). */
function carry(
  work: Work,
  signature: common.Signature,
  of: "next" | "previous",
  source: string,
  out: StreamEvent[],
  losses: Loss[],
  options: ResolvedOptions,
): void {
  const id = itemId(options, "rs", responseId(work, options), work.output.length);
  const entries = [{ signature: signature.value, of }];
  const item = carrierItem(signature.origin, entries, "", id, signature.source ?? source, losses);
  if (item === undefined) return;
  emit(work, out, "response.output_item.added", {
    output_index: work.output.length,
    item: { id, type: "reasoning", summary: [] },
  });
  work.open = undefined;
  emit(work, out, "response.output_item.done", { output_index: work.output.length, item });
  work.output = [...work.output, item];
}

const dropped = (losses: Loss[], message: string, code: string): void => {
  losses.push(loss("", "dropped", message, code));
};

/** What each common part becomes. */
const handlers: PartHandlers<Work, StreamEvent, ResolvedOptions> = {
  "response-start": (work, part) => {
    if (work.phase !== "new") return;
    work.id = part.id ?? work.id;
    work.seed = part.seed ?? work.seed;
    work.model = part.model ?? work.model;
    work.created = part.created ?? work.created;
    if (part.usage !== undefined) work.usage = part.usage;
    if (part.extra?.origin === "responses") work.top = part.extra.raw as Raw;
    const layout = layoutOf(part.choiceExtra);
    if (layout !== undefined) {
      work.layout = layout;
      if (layout.top !== undefined) work.top = { ...work.top, ...layout.top };
    }
  },
  "text-start": (work, part, out, losses, options) => {
    partOf(work, part.index, "text", out, options, losses);
  },
  "text-delta": (work, part, out, losses, options) => {
    if (part.text === "") return;
    partOf(work, part.index, "text", out, options, losses);
    appendText(work, "text", part.text, out);
  },
  "text-end": (work, part, out, losses) => {
    const open = work.open;
    if (open?.kind === "message" && open.part?.block === part.index && open.part.kind === "text")
      closePart(work, out, part.citations, losses);
    else if (part.citations !== undefined) annotationsOf(part.citations, "", losses);
  },
  "refusal-delta": (work, part, out, losses, options) => {
    work.refusal = true;
    if (part.text === "") return;
    partOf(work, part.index, "refusal", out, options, losses);
    appendText(work, "refusal", part.text, out);
  },
  "reasoning-start": (work, part, out, losses, options) => {
    begin(work, out, options, losses);
    closeItem(work, out, losses);
    const shell = part.origin === "responses" ? work.layout?.reasoning[work.used.reasoning] : undefined;
    if (work.layout !== undefined && part.origin === "responses")
      work.used = { ...work.used, reasoning: work.used.reasoning + 1 };
    const id =
      (shell?.fields.id as string | undefined) ??
      itemId(options, "rs", responseId(work, options), work.output.length);
    const item: Raw =
      shell === undefined
        ? { id, type: "reasoning", summary: [] }
        : { ...shell.fields, type: "reasoning", summary: [] };
    if (item.id === undefined) item.id = id;
    emit(work, out, "response.output_item.added", { output_index: work.output.length, item });
    work.open = {
      kind: "reasoning",
      id,
      block: part.index,
      origin: part.origin,
      shell,
      text: "",
      signature: undefined,
      redacted: undefined,
      partOpen: false,
    };
  },
  "reasoning-delta": (work, part, out) => {
    if (part.text === "" || work.open?.kind !== "reasoning" || work.open.block !== part.index) return;
    reasoningDelta(work, part.text, out);
  },
  "reasoning-signature": (work, part, _out, losses) => {
    const open = work.open;
    if (open?.kind !== "reasoning" || open.block !== part.index) {
      dropped(
        losses,
        "A reasoning signature arrived after its reasoning item was closed and was dropped.",
        "thinking.signature.late",
      );
      return;
    }
    work.open = { ...open, signature: (open.signature ?? "") + part.signature };
  },
  "reasoning-redacted": (work, part, _out, losses) => {
    const open = work.open;
    if (open?.kind !== "reasoning" || open.block !== part.index) {
      dropped(
        losses,
        "Redacted reasoning arrived outside its reasoning item and was dropped.",
        "thinking.redacted.late",
      );
      return;
    }
    work.open = { ...open, redacted: part.data };
  },
  "reasoning-end": (work, part, out, losses) => {
    if (work.open?.kind === "reasoning" && work.open.block === part.index) closeItem(work, out, losses);
  },
  "tool-call-start": (work, part, out, losses, options, position) => {
    begin(work, out, options, losses);
    closeItem(work, out, losses);
    if (part.signature !== undefined && part.signature.origin !== "responses")
      carry(work, part.signature, "next", part.source ?? eventPointer(position), out, losses, options);
    const shell = work.layout?.calls[work.used.calls];
    if (work.layout !== undefined) work.used = { ...work.used, calls: work.used.calls + 1 };
    const id = responseId(work, options);
    const at = work.output.length;
    const ids = { item: itemId(options, "fc", id, at), call: itemId(options, "call", id, at) };
    const freeform =
      part.freeform === true ||
      shell?.type === "custom_tool_call" ||
      (part.extra?.origin === "responses" && part.extra.raw.type === "custom_tool_call");
    const search = part.search === true || shell?.type === "tool_search_call";
    // An id responses refuses is rewritten, and read back as the original (common/tool-id.ts).
    const callId =
      part.id === undefined
        ? undefined
        : fitToolId(part.id, TOOL_IDS, part.source ?? eventPointer(position), losses);
    const call = {
      id: callId,
      name: part.name,
      freeform,
      search,
      namespace: part.namespace,
      extra: part.extra,
    };
    const item = callItem({ ...call, source: part.source ?? eventPointer(position) }, shell, "", ids, losses);
    if (shell === undefined || shell.status !== undefined) item.status = "in_progress";
    emit(work, out, "response.output_item.added", { output_index: at, item });
    work.open = { kind: "call", id: item.id as string, block: part.index, call, shell, ids, args: "" };
  },
  "tool-call-delta": (work, part, out, losses) => {
    if (part.argumentsText === "") return;
    if (work.open?.kind !== "call" || work.open.block !== part.index) {
      dropped(
        losses,
        "Arguments of a tool call arrived after its item was closed; a responses stream cannot reopen it.",
        "tool_call.arguments.late",
      );
      return;
    }
    argumentsDelta(work, part.argumentsText, out);
  },
  "tool-call-end": (work, part, out, losses) => {
    if (work.open?.kind === "call" && work.open.block === part.index) closeItem(work, out, losses);
  },
  "block-signature": (work, part, out, losses, options, position) => {
    if (part.signature.origin === "responses") return;
    // The text it signs ends here: its message closes, and the carrier follows it.
    begin(work, out, options, losses);
    closeItem(work, out, losses);
    carry(work, part.signature, "previous", part.source ?? eventPointer(position), out, losses, options);
  },
  media: (_work, part, _out, losses) =>
    dropped(
      losses,
      `Streamed ${part.part.kind} output has no responses form and was dropped.`,
      "media.dropped",
    ),
  opaque: (work, part, out, losses, options) => {
    if (part.part.origin !== "responses") {
      dropped(
        losses,
        `A ${part.part.origin} ${part.part.label} has no responses form and was dropped.`,
        "block.dropped",
      );
      return;
    }
    begin(work, out, options, losses);
    const open = work.open;
    const shell = open?.kind === "message" ? open.shell?.content[open.content.length] : undefined;
    if (open?.kind === "message" && open.part === undefined && shell?.opaque === true) {
      const at = { ...place(work), content_index: open.content.length };
      emit(work, out, "response.content_part.added", { ...at, part: part.part.raw });
      emit(work, out, "response.content_part.done", { ...at, part: part.part.raw });
      const content = [...open.content, part.part.raw];
      work.open = { ...open, content };
      if (open.shell !== undefined && content.length >= open.shell.content.length)
        closeItem(work, out, losses);
      return;
    }
    closeItem(work, out, losses);
    emit(work, out, "response.output_item.added", { output_index: work.output.length, item: part.part.raw });
    emit(work, out, "response.output_item.done", { output_index: work.output.length, item: part.part.raw });
    work.output = [...work.output, part.part.raw];
  },
  usage: (work, part, out, losses, options) => {
    work.usage = part.usage;
    // Usage after the finish is the final figure (providers send usage last): the response can end now.
    if (work.finish !== undefined) terminal(work, out, losses, options);
  },
  finish: (work, part, out, losses, options, position) => {
    begin(work, out, options, losses);
    closeItem(work, out, losses);
    if (part.stopSequence !== undefined)
      losses.push(
        matchedStopDropped(part.stopSequenceSource ?? part.source ?? eventPointer(position), "responses"),
      );
    work.finish = part;
    if (part.extra?.origin === "responses") {
      const layout = layoutOf(part.extra);
      if (layout !== undefined && work.layout === undefined) work.layout = layout;
      if (layout?.top !== undefined) work.top = { ...work.top, ...layout.top };
    }
  },
  "prompt-blocked": (work, _part, out, losses, options) => {
    begin(work, out, options, losses);
    work.blocked = true;
  },
  error: (work, part, out, losses, options) => {
    begin(work, out, options, losses);
    const inner = errorObjectOf(part.error);
    emit(work, out, "error", { code: inner.code, message: inner.message, param: inner.param, error: inner });
    const response = snapshot(
      work,
      options,
      { status: "failed", error: responseErrorOf(part.error), incomplete_details: null },
      work.usage === undefined ? null : encodeResponsesUsage(work.usage),
    );
    emit(work, out, "response.failed", { response });
    work.phase = "done";
    work.open = undefined;
  },
};

/** The open content part for `block`: the message and part opened as needed. */
function partOf(
  work: Work,
  block: number,
  kind: "text" | "refusal",
  out: StreamEvent[],
  options: ResolvedOptions,
  losses: Loss[],
): void {
  part(work, block, kind, out, options, losses);
}

/**
 * A delta continuing the open item (text of the open text part, or arguments of the open call): its
 * event and the next state, or `undefined`.
 */
function continued(
  state: ResponsesEncodeState,
  input: common.StreamPart,
  out: StreamEvent[],
): ResponsesEncodeState | undefined {
  if (input.type === "tool-call-delta") return continuedCall(state, input, out);
  if (input.type === "reasoning-delta") return continuedReasoning(state, input, out);
  if (input.type !== "text-delta" || input.text === "") return undefined;
  const open = state.open;
  if (open?.kind !== "message") return undefined;
  const current = open.part;
  if (current === undefined || current.block !== input.index || current.kind !== "text") return undefined;
  out.push({
    type: "response.output_text.delta",
    sequence_number: state.seq,
    item_id: open.id,
    output_index: state.output.length,
    content_index: open.content.length,
    delta: input.text,
    logprobs: [],
  } as StreamEvent);
  const work = copy(state);
  work.seq = state.seq + 1;
  // Literals rather than spreads: one delta is the whole of this step, and a spread of a union costs
  // as much as the rest of it.
  work.open = {
    kind: "message",
    id: open.id,
    shell: open.shell,
    content: open.content,
    part: { block: current.block, kind: current.kind, text: current.text + input.text, shell: current.shell },
  };
  return work;
}

/**
 * Arguments continuing the open call: what `tool-call-delta` does (`argumentsDelta`), with literals
 * rather than spreads of the open item, which cost most of a tool-call stream's translation.
 */
function continuedCall(
  state: ResponsesEncodeState,
  input: Extract<common.StreamPart, { type: "tool-call-delta" }>,
  out: StreamEvent[],
): ResponsesEncodeState | undefined {
  const open = state.open;
  if (input.argumentsText === "" || open?.kind !== "call" || open.block !== input.index || open.call.search)
    return undefined;
  out.push({
    type: open.call.freeform
      ? "response.custom_tool_call_input.delta"
      : "response.function_call_arguments.delta",
    sequence_number: state.seq,
    item_id: open.id,
    output_index: state.output.length,
    delta: input.argumentsText,
  } as StreamEvent);
  const work = copy(state);
  work.seq = state.seq + 1;
  work.open = {
    kind: "call",
    id: open.id,
    block: open.block,
    call: open.call,
    shell: open.shell,
    ids: open.ids,
    args: open.args + input.argumentsText,
  };
  return work;
}

/**
 * Reasoning continuing the open reasoning part: what `reasoning-delta` does (`reasoningDelta`) once
 * the part is open, with literals rather than spreads.
 */
function continuedReasoning(
  state: ResponsesEncodeState,
  input: Extract<common.StreamPart, { type: "reasoning-delta" }>,
  out: StreamEvent[],
): ResponsesEncodeState | undefined {
  const open = state.open;
  if (input.text === "" || open?.kind !== "reasoning" || open.block !== input.index || !open.partOpen)
    return undefined;
  out.push(
    (open.shell?.use === "content"
      ? {
          type: "response.reasoning_text.delta",
          sequence_number: state.seq,
          item_id: open.id,
          output_index: state.output.length,
          content_index: 0,
          delta: input.text,
        }
      : {
          type: "response.reasoning_summary_text.delta",
          sequence_number: state.seq,
          item_id: open.id,
          output_index: state.output.length,
          summary_index: 0,
          delta: input.text,
        }) as StreamEvent,
  );
  const work = copy(state);
  work.seq = state.seq + 1;
  work.open = {
    kind: "reasoning",
    id: open.id,
    block: open.block,
    origin: open.origin,
    shell: open.shell,
    text: open.text + input.text,
    signature: open.signature,
    redacted: open.redacted,
    partOpen: true,
  };
  return work;
}

function step(
  state: ResponsesEncodeState,
  input: common.StreamPart,
  out: StreamEvent[],
  losses: Loss[],
  options: ResolvedOptions,
  position: number | undefined,
): ResponsesEncodeState {
  if (state.phase === "done") return state;
  // The most frequent part: text continuing the open part (one event, one small draft).
  const next = continued(state, input, out);
  if (next !== undefined) return next;
  const work = copy(state);
  const before = losses.length;
  handlePart(handlers, work, input, out, losses, options, position);
  if (losses.length > before) pointInto(losses, before, position);
  return work;
}

/**
 * Losses from `from` on that name no place of their own ("") or a place in the response the stream
 * makes up (`/created_at`) point into the event they came from.
 */
function pointInto(losses: Loss[], from: number, position: number | undefined): void {
  const base = eventPointer(position);
  for (let index = from; index < losses.length; index++) {
    const entry = losses[index] as Loss;
    if (entry.path === "") losses[index] = { ...entry, path: base };
    else if (entry.path === "/created_at") losses[index] = { ...entry, path: at(base, "created") };
  }
}

/** The responses stream encoder: common stream parts → events, always a well-formed responses stream. */
export function responsesStreamEncoder(
  options: ResolvedOptions,
): StreamReducer<ResponsesEncodeState, common.StreamPart, StreamEvent> {
  return {
    initial: {
      phase: "new",
      seq: 0,
      id: undefined,
      model: undefined,
      created: undefined,
      seed: undefined,
      top: undefined,
      layout: undefined,
      used: { messages: 0, reasoning: 0, calls: 0 },
      output: [],
      open: undefined,
      usage: undefined,
      finish: undefined,
      blocked: false,
      refusal: false,
    },
    step: (state, input, out, losses, position) => step(state, input, out, losses, options, position),
    end(state, out, losses, position) {
      if (state.phase === "done") return state;
      const work = copy(state);
      const before = losses.length;
      terminal(work, out, losses, options);
      if (losses.length > before) pointInto(losses, before, position);
      return work;
    },
  };
}

/** Delta events: their keys in the order this encoder writes them. */
const TEXT_DELTA_KEYS = [
  "type",
  "sequence_number",
  "item_id",
  "output_index",
  "content_index",
  "delta",
  "logprobs",
];
const SUMMARY_DELTA_KEYS = ["type", "sequence_number", "item_id", "output_index", "summary_index", "delta"];
const ARGUMENTS_DELTA_KEYS = ["type", "sequence_number", "item_id", "output_index", "delta"];

/** The events around a message's text or a call's arguments, and their parts: keys in the order written. */
const ITEM_EVENT_KEYS = ["type", "sequence_number", "output_index", "item"];
const PART_EVENT_KEYS = ["type", "sequence_number", "item_id", "output_index", "content_index", "part"];
const TEXT_DONE_KEYS = [
  "type",
  "sequence_number",
  "item_id",
  "output_index",
  "content_index",
  "text",
  "logprobs",
];
const ARGUMENTS_DONE_KEYS = ["type", "sequence_number", "item_id", "output_index", "arguments", "name"];
const TEXT_PART_KEYS = ["type", "annotations", "logprobs", "text"];
const MESSAGE_ITEM_KEYS = ["id", "type", "status", "content", "role"];
const CALL_ITEM_KEYS = ["id", "type", "status", "call_id", "name", "arguments"];

/**
 * The adapter's `eventFormatter`: each event's `data:` payload. The deltas a stream sends most (text,
 * reasoning summary, call arguments) are built by one template each, the same bytes as JSON.stringify,
 * after a key-by-key check of their shape; so are the events around a message's text and a call's
 * arguments (`output_item.added`/`.done`, `content_part.added`/`.done`, `output_text.done`,
 * `function_call_arguments.done`). JSON.stringify writes every other event.
 */
export function responsesEventFormatter(): (event: StreamEvent) => string {
  // The item id repeats on every delta of an item: its JSON is written once per item.
  let itemId: string | undefined;
  let itemJson = "";
  const item = (value: string): string => {
    if (value !== itemId) {
      itemId = value;
      itemJson = JSON.stringify(value);
    }
    return itemJson;
  };
  return (event) =>
    event === DONE ? DONE : (formatDelta(event, item) ?? formatFrame(event, item) ?? JSON.stringify(event));
}

const isEmptyList = (value: unknown): boolean => Array.isArray(value) && value.length === 0;

/** An `output_text` part without annotations or logprobs, as JSON.stringify writes it; `undefined` for any other. */
function textPartJson(part: unknown): string | undefined {
  if (typeof part !== "object" || part === null || !keysAre(part, TEXT_PART_KEYS)) return undefined;
  const { type, annotations, logprobs, text } = part as Raw;
  if (
    type !== "output_text" ||
    !isEmptyList(annotations) ||
    !isEmptyList(logprobs) ||
    typeof text !== "string"
  )
    return undefined;
  return `{"type":"output_text","annotations":[],"logprobs":[],"text":${JSON.stringify(text)}}`;
}

/** A message item of such parts or a function call item, as JSON.stringify writes it; `undefined` for any other. */
function itemJson(value: unknown, item: (value: string) => string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const raw = value as Raw;
  const { id, status } = raw;
  if (typeof id !== "string" || typeof status !== "string") return undefined;
  if (raw.type === "message") {
    const content = raw.content;
    if (raw.role !== "assistant" || !Array.isArray(content) || !keysAre(value, MESSAGE_ITEM_KEYS))
      return undefined;
    let parts = "";
    for (let index = 0; index < content.length; index++) {
      const part = textPartJson(content[index]);
      if (part === undefined) return undefined;
      parts = index === 0 ? part : `${parts},${part}`;
    }
    return `{"id":${item(id)},"type":"message","status":${JSON.stringify(status)},"content":[${parts}],"role":"assistant"}`;
  }
  if (raw.type !== "function_call" || !keysAre(value, CALL_ITEM_KEYS)) return undefined;
  const { call_id: call, name, arguments: args } = raw;
  if (typeof call !== "string" || typeof name !== "string" || typeof args !== "string") return undefined;
  return `{"id":${item(id)},"type":"function_call","status":${JSON.stringify(status)},"call_id":${JSON.stringify(call)},"name":${JSON.stringify(name)},"arguments":${JSON.stringify(args)}}`;
}

/**
 * The events around a message's text and a call's arguments, as JSON.stringify writes them;
 * `undefined` for any other event or shape.
 */
function formatFrame(event: StreamEvent, item: (value: string) => string): string | undefined {
  if (typeof event !== "object") return undefined;
  const raw = event as Raw;
  const { type, sequence_number: sequence, output_index: output } = raw;
  if (!isWritten(sequence) || !isWritten(output)) return undefined;
  switch (type) {
    case "response.output_item.added":
    case "response.output_item.done": {
      if (!keysAre(event, ITEM_EVENT_KEYS)) return undefined;
      const json = itemJson(raw.item, item);
      return json === undefined
        ? undefined
        : `{"type":"${type}","sequence_number":${sequence},"output_index":${output},"item":${json}}`;
    }
    case "response.content_part.added":
    case "response.content_part.done": {
      const { item_id: id, content_index: content } = raw;
      if (!keysAre(event, PART_EVENT_KEYS) || typeof id !== "string" || !isWritten(content)) return undefined;
      const part = textPartJson(raw.part);
      return part === undefined
        ? undefined
        : `{"type":"${type}","sequence_number":${sequence},"item_id":${item(id)},"output_index":${output},"content_index":${content},"part":${part}}`;
    }
    case "response.output_text.done": {
      const { item_id: id, content_index: content, text, logprobs } = raw;
      if (!keysAre(event, TEXT_DONE_KEYS) || typeof id !== "string" || !isWritten(content)) return undefined;
      if (typeof text !== "string" || !isEmptyList(logprobs)) return undefined;
      return `{"type":"response.output_text.done","sequence_number":${sequence},"item_id":${item(id)},"output_index":${output},"content_index":${content},"text":${JSON.stringify(text)},"logprobs":[]}`;
    }
    case "response.function_call_arguments.done": {
      const { item_id: id, arguments: args, name } = raw;
      if (!keysAre(event, ARGUMENTS_DONE_KEYS) || typeof id !== "string") return undefined;
      if (typeof args !== "string" || typeof name !== "string") return undefined;
      return `{"type":"response.function_call_arguments.done","sequence_number":${sequence},"item_id":${item(id)},"output_index":${output},"arguments":${JSON.stringify(args)},"name":${JSON.stringify(name)}}`;
    }
    default:
      return undefined;
  }
}

/** A number as JSON.stringify writes it, by a template literal: the same text for every finite number. */
const isWritten = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * A delta event's JSON, or `undefined` for any other event or shape. One template per type rather than a
 * loop over its keys: a third of the cost of writing a text delta (the most frequent event of a stream).
 */
function formatDelta(event: StreamEvent, item: (value: string) => string): string | undefined {
  if (typeof event !== "object") return undefined;
  const raw = event as Raw;
  const { sequence_number: sequence, item_id: id, output_index: output, delta } = raw;
  switch (raw.type) {
    case "response.output_text.delta": {
      const { content_index: content, logprobs } = raw;
      if (!keysAre(event, TEXT_DELTA_KEYS) || !isWritten(sequence) || typeof id !== "string")
        return undefined;
      if (!isWritten(output) || !isWritten(content) || typeof delta !== "string") return undefined;
      if (!Array.isArray(logprobs) || logprobs.length !== 0) return undefined;
      return `{"type":"response.output_text.delta","sequence_number":${sequence},"item_id":${item(id)},"output_index":${output},"content_index":${content},"delta":${JSON.stringify(delta)},"logprobs":[]}`;
    }
    case "response.reasoning_summary_text.delta": {
      const summary = raw.summary_index;
      if (!keysAre(event, SUMMARY_DELTA_KEYS) || !isWritten(sequence) || typeof id !== "string")
        return undefined;
      if (!isWritten(output) || !isWritten(summary) || typeof delta !== "string") return undefined;
      return `{"type":"response.reasoning_summary_text.delta","sequence_number":${sequence},"item_id":${item(id)},"output_index":${output},"summary_index":${summary},"delta":${JSON.stringify(delta)}}`;
    }
    case "response.function_call_arguments.delta": {
      if (!keysAre(event, ARGUMENTS_DELTA_KEYS) || !isWritten(sequence) || typeof id !== "string")
        return undefined;
      if (!isWritten(output) || typeof delta !== "string") return undefined;
      return `{"type":"response.function_call_arguments.delta","sequence_number":${sequence},"item_id":${item(id)},"output_index":${output},"delta":${JSON.stringify(delta)}}`;
    }
    default:
      return undefined;
  }
}
