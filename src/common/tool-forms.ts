/**
 * Tool forms a target may lack: free-form (custom) tools, tool groups (responses `namespace`) and the
 * client's own tool search (responses `tool_search`). One path for every pair, in two halves:
 * - lowering, before a target's encoder: a free-form tool becomes a function of one string parameter
 *   (common/freeform.ts) and its calls carry `{"input": text}`; a grouped tool becomes the function
 *   `namespace__name`; the tool search becomes a plain function, and the tools a search loaded join
 *   the request's tools.
 * - restoring, after a source's decoder: a request's function with the free-form marker schema is a
 *   free-form tool again, and its calls get their text back; a response's calls of a client's tool
 *   (`options.request`, the client's own request) come back in the form the client gave the tool —
 *   free-form text, grouped name, tool search — the same through a stream and a whole response.
 */
import {
  escapeChunk,
  freeformParameters,
  isFreeformParameters,
  UNWRAP_START,
  type Unwrapping,
  unwrapChunk,
  unwrapEnd,
  unwrapText,
  WRAP_CLOSE,
  WRAP_OPEN,
} from "./freeform";
import { type Loss, loss } from "./loss";
import type * as common from "./model";
import type { ResolvedOptions } from "./options";
import type { StreamReducer } from "./reducer";
import { eventPointer } from "./stream-end";

/** Which of the forms a target has (a protocol's adapter says, for the options it encodes with). */
export type ToolForms = {
  readonly freeform: boolean;
  readonly namespace: boolean;
  readonly search: boolean;
};

/** A target with none of the forms. */
export const NO_TOOL_FORMS: ToolForms = { freeform: false, namespace: false, search: false };

/** Joins a group's name and a tool's name where a target has no groups. */
export const NAMESPACE_SEPARATOR = "__";

/**
 * The name a tool of a group has where a target has no groups: `namespace__name`. A deferred tool that
 * a tool search loaded on its own is called with its own name as the namespace (recorded): that is the
 * name.
 */
export function flatName(namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === name ? name : `${namespace}${NAMESPACE_SEPARATOR}${name}`;
}

/** A client's tool, by the name a target without its form knows it by. */
export type ClientTool = {
  readonly name: string;
  readonly namespace?: string | undefined;
  readonly freeform?: boolean | undefined;
  readonly search?: boolean | undefined;
};

/** A client's tools of a form some target lacks, by the flat name they have there. */
export type ClientTools = ReadonlyMap<string, ClientTool>;

/** What the hub asks of a protocol's adapter about tool forms (src/protocols/adapter.ts). */
export type ToolFormsAdapter = {
  toolForms?(options: ResolvedOptions): ToolForms;
  clientTools?(request: unknown): readonly common.Tool[];
};

/** The forms `adapter`'s encoders write for `options`. */
export function toolForms(adapter: ToolFormsAdapter, options: ResolvedOptions): ToolForms {
  return adapter.toolForms?.(options) ?? NO_TOOL_FORMS;
}

/** The tools of the client's own request (`options.request`) whose form some upstream lacks; `undefined`: none. */
export function clientTools(adapter: ToolFormsAdapter, options: ResolvedOptions): ClientTools | undefined {
  if (options.request === undefined || adapter.clientTools === undefined) return undefined;
  return clientToolsOf(adapter.clientTools(options.request));
}

/** The client tools of `tools` that some target would see in another form; `undefined` when none. */
export function clientToolsOf(tools: readonly common.Tool[]): ClientTools | undefined {
  let found: Map<string, ClientTool> | undefined;
  for (const tool of tools) {
    if (tool.type !== "function") continue;
    if (tool.freeform === undefined && tool.namespace === undefined && tool.search !== true) continue;
    found ??= new Map();
    const entry: common.Draft<ClientTool> = { name: tool.name };
    if (tool.namespace !== undefined) entry.namespace = tool.namespace.name;
    if (tool.freeform !== undefined) entry.freeform = true;
    if (tool.search === true) entry.search = true;
    found.set(flatName(tool.namespace?.name, tool.name), entry);
  }
  return found;
}

// ─── Lowering: a request or response for a target without a form ─────────────────────────────────

const needsLowering = (
  forms: ToolForms,
  item: { freeform?: unknown; namespace?: unknown; search?: unknown },
) =>
  (item.freeform !== undefined && item.freeform !== false && !forms.freeform) ||
  (item.namespace !== undefined && !forms.namespace) ||
  (item.search === true && !forms.search);

/** The format of a free-form tool that constrains its text (a grammar): plain text constrains nothing. */
function constrains(format: unknown): boolean {
  return (
    format !== undefined &&
    !(typeof format === "object" && format !== null && (format as { type?: unknown }).type === "text")
  );
}

function lowerTool(
  tool: common.FunctionTool,
  forms: ToolForms,
  told: Set<string>,
  losses: Loss[],
): common.FunctionTool {
  if (!needsLowering(forms, tool)) return tool;
  const lowered: common.Draft<common.FunctionTool> = { ...tool };
  if (tool.freeform !== undefined && !forms.freeform) {
    lowered.freeform = undefined;
    lowered.parameters = freeformParameters();
    lowered.parametersSource = undefined;
    if (constrains(tool.freeform.format))
      losses.push(
        loss(
          tool.freeform.formatSource ?? `${tool.source}/format`,
          "dropped",
          `The target has no free-form tools: \`${tool.name}\` was sent as a function of one string parameter \`input\`, and the grammar that constrains its text was dropped.`,
          "tool.format.dropped",
        ),
      );
  }
  if (tool.namespace !== undefined && !forms.namespace) {
    lowered.namespace = undefined;
    lowered.name = flatName(tool.namespace.name, tool.name);
    const group = tool.namespace;
    if (group.description !== undefined && !told.has(group.source)) {
      told.add(group.source);
      losses.push(
        loss(
          `${group.source}/description`,
          "dropped",
          `The target has no tool groups: the tools of namespace \`${group.name}\` were sent as functions named \`${group.name}${NAMESPACE_SEPARATOR}…\`, and the namespace's description was dropped.`,
          "namespace.description.dropped",
        ),
      );
    }
  }
  if (tool.search === true && !forms.search) lowered.search = undefined;
  return lowered;
}

/** A call's `{"input": text}` arguments (the JSON text keeps the input's bytes). */
function wrappedArguments(
  part: common.ToolCallPart,
): Pick<common.ToolCallPart, "arguments" | "argumentsText"> {
  const input = part.argumentsText ?? "";
  return { arguments: { input }, argumentsText: `${WRAP_OPEN}${escapeChunk(input)}${WRAP_CLOSE}` };
}

function lowerCall(
  part: common.ToolCallPart,
  forms: ToolForms,
  declared: ReadonlySet<string> | undefined,
  losses: Loss[],
): common.ToolCallPart {
  if (!needsLowering(forms, part)) return part;
  const lowered: common.Draft<common.ToolCallPart> = { ...part };
  if (part.freeform === true && !forms.freeform) {
    lowered.freeform = undefined;
    const wrapped = wrappedArguments(part);
    lowered.arguments = wrapped.arguments;
    lowered.argumentsText = wrapped.argumentsText;
    // With the tool declared in the same request, the call comes back as it was (the marker schema).
    if (declared === undefined || !declared.has(part.name))
      losses.push(
        loss(
          part.argumentsSource ?? part.source,
          "approximated",
          'The target has no free-form tool calls; the call\'s text input was sent as the arguments `{"input": text}`.',
          "tool_call.freeform.approximated",
        ),
      );
  }
  if (part.namespace !== undefined && !forms.namespace) {
    lowered.namespace = undefined;
    lowered.name = flatName(part.namespace, part.name);
  }
  if (part.search === true && !forms.search) lowered.search = undefined;
  return lowered;
}

/** The text a tool search's result becomes where its tools join the request's tools instead. */
function loadedText(tools: readonly common.Tool[]): string {
  const names = tools.map((tool) =>
    tool.type === "function" ? flatName(tool.namespace?.name, tool.name) : tool.label,
  );
  return JSON.stringify({ loaded_tools: names });
}

/** Whether anything in the request has a form `forms` lacks. */
function requestNeeds(request: common.Request, forms: ToolForms): boolean {
  for (const tool of request.tools) if (tool.type === "function" && needsLowering(forms, tool)) return true;
  if (forms.freeform && forms.namespace && forms.search) return false;
  for (const message of request.messages)
    for (const part of message.parts) {
      if (part.type === "tool-call" && needsLowering(forms, part)) return true;
      if (part.type === "tool-result" && part.tools !== undefined && !forms.search) return true;
    }
  return false;
}

/** A request for a target lacking some of the forms: its tools, calls, results and tool choice in forms it has. */
export function lowerRequest(request: common.Request, forms: ToolForms, losses: Loss[]): common.Request {
  if (!requestNeeds(request, forms)) return request;
  const told = new Set<string>();
  const tools: common.Tool[] = [];
  const names = new Set<string>();
  const add = (tool: common.Tool): void => {
    if (tool.type !== "function") {
      tools.push(tool);
      return;
    }
    const lowered = lowerTool(tool, forms, told, losses);
    if (names.has(lowered.name)) return;
    names.add(lowered.name);
    tools.push(lowered);
  };
  for (const tool of request.tools) add(tool);
  // A call of a free-form tool declared here comes back as it was (the marker schema): no loss.
  const declared = new Set<string>();
  for (const tool of request.tools)
    if (tool.type === "function" && tool.freeform !== undefined) declared.add(tool.name);
  // Flat names of calls by id, for their results (generative names each result).
  const callNames = new Map<string, string>();
  const messages = request.messages.map((message) => {
    let changed = false;
    const parts = message.parts.map((part) => {
      if (part.type === "tool-call") {
        const lowered = lowerCall(part, forms, declared, losses);
        if (lowered !== part) {
          changed = true;
          if (part.id !== undefined) callNames.set(part.id, lowered.name);
        }
        return lowered;
      }
      if (part.type === "tool-result") {
        const name = part.callId === undefined ? undefined : callNames.get(part.callId);
        if (part.tools === undefined || forms.search) {
          if (name === undefined || name === part.name) return part;
          changed = true;
          return { ...part, name };
        }
        changed = true;
        for (const tool of part.tools) add(tool);
        const result: common.Draft<common.ToolResultPart> = {
          ...part,
          tools: undefined,
          content: [...part.content, { type: "text", text: loadedText(part.tools), source: part.source }],
        };
        if (name !== undefined) result.name = name;
        return result;
      }
      return part;
    });
    return changed ? { ...message, parts } : message;
  });
  const lowered: common.Draft<common.Request> = { ...request, tools, messages };
  const choice = request.toolChoice;
  if (choice !== undefined && !forms.namespace) lowered.toolChoice = lowerChoice(choice, request.tools);
  return lowered;
}

/** A tool choice naming a grouped tool names its flat name (when the bare name is one tool's). */
function lowerChoice(choice: common.ToolChoice, tools: readonly common.Tool[]): common.ToolChoice {
  const flat = (name: string): string => {
    let found: string | undefined;
    for (const tool of tools)
      if (tool.type === "function" && tool.name === name) {
        if (found !== undefined) return name;
        found = flatName(tool.namespace?.name, name);
      }
    return found ?? name;
  };
  if (choice.type === "tool") return { ...choice, name: flat(choice.name) };
  if (choice.type === "allowed") return { ...choice, names: choice.names.map(flat) };
  return choice;
}

/** A response for a client lacking some of the forms: its calls in forms the client has. */
export function lowerResponse(response: common.Response, forms: ToolForms, losses: Loss[]): common.Response {
  let changed = false;
  const choices = response.choices.map((choice) => {
    if (!choice.parts.some((part) => part.type === "tool-call" && needsLowering(forms, part))) return choice;
    changed = true;
    const parts = choice.parts.map((part) =>
      part.type === "tool-call" ? lowerCall(part, forms, undefined, losses) : part,
    );
    return { ...choice, parts };
  });
  return changed ? { ...response, choices } : response;
}

/**
 * The encoder of a target lacking some of the forms, behind which stream parts are lowered: a free-form
 * call's start is a function call's, followed by the delta `{"input":"`, its text deltas are escaped
 * into that string, and `"}` closes it before its end — as a whole response wraps the text.
 */
export function loweringEncoder<S, Out>(
  inner: StreamReducer<S, common.StreamPart, Out>,
  forms: ToolForms,
): StreamReducer<{ readonly inner: S; readonly wrapping: readonly number[] }, common.StreamPart, Out> {
  type State = { readonly inner: S; readonly wrapping: readonly number[] };
  const feed = (
    state: State,
    part: common.StreamPart,
    out: Out[],
    losses: Loss[],
    position?: number,
  ): State => {
    switch (part.type) {
      case "tool-call-start": {
        if (!needsLowering(forms, part)) break;
        const lowered: common.Draft<Extract<common.StreamPart, { type: "tool-call-start" }>> = { ...part };
        const wrap = part.freeform === true && !forms.freeform;
        if (wrap) {
          lowered.freeform = undefined;
          losses.push(
            loss(
              part.source ?? eventPointer(position),
              "approximated",
              'The target has no free-form tool calls; the call\'s text input was sent as the arguments `{"input": text}`.',
              "tool_call.freeform.approximated",
            ),
          );
        }
        if (part.namespace !== undefined && !forms.namespace) {
          lowered.namespace = undefined;
          lowered.name = flatName(part.namespace, part.name);
        }
        if (part.search === true && !forms.search) lowered.search = undefined;
        let next = inner.step(state.inner, lowered, out, losses, position);
        if (!wrap) return { inner: next, wrapping: state.wrapping };
        const open = { type: "tool-call-delta", index: part.index, argumentsText: WRAP_OPEN } as const;
        next = inner.step(next, open, out, losses, position);
        return { inner: next, wrapping: [...state.wrapping, part.index] };
      }
      case "tool-call-delta":
        if (state.wrapping.length === 0 || !state.wrapping.includes(part.index)) break;
        if (part.argumentsText === "") return state;
        return {
          inner: inner.step(
            state.inner,
            { ...part, argumentsText: escapeChunk(part.argumentsText) },
            out,
            losses,
            position,
          ),
          wrapping: state.wrapping,
        };
      case "tool-call-end": {
        if (state.wrapping.length === 0 || !state.wrapping.includes(part.index)) break;
        const close = { type: "tool-call-delta", index: part.index, argumentsText: WRAP_CLOSE } as const;
        const next = inner.step(
          inner.step(state.inner, close, out, losses, position),
          part,
          out,
          losses,
          position,
        );
        return { inner: next, wrapping: state.wrapping.filter((index) => index !== part.index) };
      }
      default:
        break;
    }
    const next = inner.step(state.inner, part, out, losses, position);
    return next === state.inner ? state : { inner: next, wrapping: state.wrapping };
  };
  return {
    initial: { inner: inner.initial, wrapping: [] },
    step: feed,
    end(state, out, losses, position, failure) {
      // A call still open when the stream ends gets its JSON closed before the encoder closes the block.
      let current = state.inner;
      for (const index of state.wrapping)
        current = inner.step(
          current,
          { type: "tool-call-delta", index, argumentsText: WRAP_CLOSE },
          out,
          losses,
          position,
        );
      return { inner: inner.end(current, out, losses, position, failure), wrapping: [] };
    },
  };
}

// ─── Restoring: what a target without a form sent, back in the client's form ─────────────────────

/**
 * A request whose functions carry the free-form marker schema (a free-form tool lowered by this
 * library on the way to the client): those are free-form tools again, and their calls carry their
 * text (`{"input": text}` unwrapped; arguments of another shape pass as their JSON text, reported).
 */
export function restoreRequest(request: common.Request, losses: Loss[]): common.Request {
  let freeform: Set<string> | undefined;
  for (const tool of request.tools)
    if (tool.type === "function" && tool.freeform === undefined && isFreeformParameters(tool.parameters)) {
      freeform ??= new Set();
      freeform.add(tool.name);
    }
  if (freeform === undefined) return request;
  const names = freeform;
  const tools = request.tools.map((tool) => {
    if (tool.type !== "function" || !names.has(tool.name) || tool.freeform !== undefined) return tool;
    const restored: common.Draft<common.FunctionTool> = { ...tool, freeform: {} };
    restored.parameters = undefined;
    restored.parametersSource = undefined;
    return restored;
  });
  const messages = request.messages.map((message) => {
    if (
      !message.parts.some(
        (part) => part.type === "tool-call" && part.freeform !== true && names.has(part.name),
      )
    )
      return message;
    const parts = message.parts.map((part) =>
      part.type === "tool-call" && part.freeform !== true && names.has(part.name)
        ? freeformCall(part, losses)
        : part,
    );
    return { ...message, parts };
  });
  return { ...request, tools, messages };
}

/** A function call's `{"input": text}` arguments → the free-form call of that text. */
function freeformCall(part: common.ToolCallPart, losses: Loss[]): common.ToolCallPart {
  const text = part.argumentsText ?? JSON.stringify(part.arguments ?? {});
  const unwrapped = unwrapText(text);
  if (!unwrapped.exact) losses.push(notWrapped(part.argumentsSource ?? part.source));
  const restored: common.Draft<common.ToolCallPart> = {
    ...part,
    freeform: true,
    argumentsText: unwrapped.text,
  };
  restored.arguments = undefined;
  return restored;
}

const notWrapped = (path: string): Loss =>
  loss(
    path,
    "approximated",
    'The arguments of a call of a free-form tool were not `{"input": text}`; their JSON text was passed as the input (other arguments beside `input` were left out).',
    "tool_call.freeform.unwrapped",
  );

/** A call of a client tool, in the client's form (`undefined`: not one of them, or already in it). */
function restoredCall(
  part: common.ToolCallPart,
  tools: ClientTools,
  losses: Loss[],
): common.ToolCallPart | undefined {
  if (part.server !== undefined || part.namespace !== undefined || part.search === true) return undefined;
  const tool = tools.get(part.name);
  if (tool === undefined) return undefined;
  if (tool.freeform === true && part.freeform === true && tool.namespace === undefined) return undefined;
  let restored: common.Draft<common.ToolCallPart> =
    tool.freeform === true && part.freeform !== true ? { ...freeformCall(part, losses) } : { ...part };
  restored.name = tool.name;
  if (tool.namespace !== undefined) restored.namespace = tool.namespace;
  if (tool.search === true) restored.search = true;
  if (tool.freeform !== true && part.freeform === true) {
    // A client function answered in free form (a target that has it): its text as the arguments.
    restored = { ...restored, freeform: undefined };
  }
  return restored;
}

/** A response whose calls of the client's tools (`tools`: from the client's own request) are in the client's form. */
export function restoreResponse(
  response: common.Response,
  tools: ClientTools,
  losses: Loss[],
): common.Response {
  let changed = false;
  const choices = response.choices.map((choice) => {
    let parts: common.Part[] | undefined;
    choice.parts.forEach((part, index) => {
      if (part.type !== "tool-call") return;
      const restored = restoredCall(part, tools, losses);
      if (restored === undefined) return;
      parts ??= [...choice.parts];
      parts[index] = restored;
    });
    if (parts === undefined) return choice;
    changed = true;
    return { ...choice, parts };
  });
  return changed ? { ...response, choices } : response;
}

type Open = { readonly index: number; readonly unwrapping: Unwrapping; readonly source: string };

/**
 * The decoder of an upstream whose calls of the client's tools are restored to the client's form as
 * they stream: the start gets the client's name (and group, or search), and a free-form tool's
 * `{"input": …}` deltas are unwrapped into its text as they arrive (what `restoreResponse` gives).
 */
export function restoringDecoder<S, In>(
  inner: StreamReducer<S, In, common.StreamPart>,
  tools: ClientTools,
): StreamReducer<{ readonly inner: S; readonly open: readonly Open[] }, In, common.StreamPart> {
  type State = { readonly inner: S; readonly open: readonly Open[] };
  /** Rewrites the parts `out[from…]` the inner decoder just made. */
  const rewrite = (
    state: State,
    out: common.StreamPart[],
    from: number,
    losses: Loss[],
    position?: number,
  ): readonly Open[] => {
    if (from === out.length) return state.open;
    let open = state.open;
    const made = out.splice(from);
    for (const part of made) {
      if (part.type === "tool-call-start") {
        const tool = part.namespace === undefined && part.search !== true ? tools.get(part.name) : undefined;
        if (
          tool === undefined ||
          (tool.freeform === true && part.freeform === true && tool.namespace === undefined)
        ) {
          out.push(part);
          continue;
        }
        const restored: common.Draft<Extract<common.StreamPart, { type: "tool-call-start" }>> = {
          ...part,
          name: tool.name,
        };
        if (tool.namespace !== undefined) restored.namespace = tool.namespace;
        if (tool.search === true) restored.search = true;
        if (tool.freeform === true && part.freeform !== true) {
          restored.freeform = true;
          open = [
            ...open,
            { index: part.index, unwrapping: UNWRAP_START, source: part.source ?? eventPointer(position) },
          ];
        } else if (tool.freeform !== true && part.freeform === true) restored.freeform = undefined;
        out.push(restored);
        continue;
      }
      if (open.length > 0 && (part.type === "tool-call-delta" || part.type === "tool-call-end")) {
        const entry = open.find((candidate) => candidate.index === part.index);
        if (entry !== undefined) {
          if (part.type === "tool-call-delta") {
            const next = unwrapChunk(entry.unwrapping, part.argumentsText);
            open = open.map((candidate) =>
              candidate === entry ? { ...entry, unwrapping: next.state } : candidate,
            );
            if (next.text !== "")
              out.push({ type: "tool-call-delta", index: part.index, argumentsText: next.text });
            continue;
          }
          const end = unwrapEnd(entry.unwrapping);
          if (end.text !== "")
            out.push({ type: "tool-call-delta", index: part.index, argumentsText: end.text });
          if (!end.exact) losses.push(notWrapped(entry.source));
          open = open.filter((candidate) => candidate !== entry);
        }
      }
      out.push(part);
    }
    return open;
  };
  return {
    initial: { inner: inner.initial, open: [] },
    step(state, input, out, losses, position) {
      const from = out.length;
      const next = inner.step(state.inner, input, out, losses, position);
      const open = rewrite(state, out, from, losses, position);
      return next === state.inner && open === state.open ? state : { inner: next, open };
    },
    end(state, out, losses, position, failure) {
      const from = out.length;
      const next = inner.end(state.inner, out, losses, position, failure);
      rewrite(state, out, from, losses, position);
      return { inner: next, open: [] };
    },
  };
}
