/**
 * Chat `tools`, `functions` and `tool_choice` ↔ common tools and tool choice.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
 */
import { isObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import type * as chat from "./schema";

function decodeFunction(definition: chat.FunctionDefinition, source: string): common.FunctionTool {
  const tool: common.Draft<common.FunctionTool> = { type: "function", name: definition.name, source };
  if (definition.description !== undefined) tool.description = definition.description;
  if (definition.parameters !== undefined) tool.parameters = definition.parameters;
  if (definition.strict !== undefined && definition.strict !== null) tool.strict = definition.strict;
  return tool;
}

/** A custom tool's `format` → common: text, a grammar, or another kind kept for chat. */
function decodeFormat(format: chat.CustomToolFormat): common.FreeformFormat {
  const raw = format as Record<string, unknown>;
  if (format.type === "text" && Object.keys(raw).length === 1) return { kind: "text" };
  if (format.type === "grammar" && Object.keys(raw).length === 2) {
    const grammar = format.grammar as Record<string, unknown>;
    if (Object.keys(grammar).length === 2)
      return { kind: "grammar", syntax: format.grammar.syntax, definition: format.grammar.definition };
  }
  return { kind: "other", origin: "chat", raw: format };
}

/** A custom (free-form) tool → a common free-form function tool. */
function decodeCustom(tool: chat.CustomTool, source: string): common.FunctionTool {
  const custom = tool.custom;
  const decoded: common.Draft<common.FunctionTool> = { type: "function", name: custom.name, source };
  if (custom.description !== undefined) decoded.description = custom.description;
  decoded.freeform =
    custom.format === undefined
      ? {}
      : { format: decodeFormat(custom.format), formatSource: `${source}/custom/format` };
  return decoded;
}

export function decodeTools(body: chat.Request): common.Tool[] {
  const tools: common.Tool[] = [];
  body.tools?.forEach((tool, index) => {
    const source = `/tools/${index}`;
    if (tool.type === "function" && "function" in tool) {
      tools.push(decodeFunction((tool as chat.FunctionTool).function, `${source}/function`));
    } else if (tool.type === "custom" && "custom" in tool && isObject(tool.custom)) {
      tools.push(decodeCustom(tool as chat.CustomTool, source));
    } else {
      tools.push({ type: "provider", origin: "chat", raw: tool, label: `${tool.type} tool`, source });
    }
  });
  body.functions?.forEach((definition, index) => {
    tools.push(decodeFunction(definition, `/functions/${index}`));
  });
  return tools;
}

function allowedNames(tools: readonly Record<string, unknown>[]): string[] {
  const names: string[] = [];
  for (const tool of tools) {
    const fn = tool.type === "custom" ? tool.custom : tool.function;
    if (isObject(fn) && typeof fn.name === "string") names.push(fn.name);
  }
  return names;
}

export function decodeToolChoice(body: chat.Request, losses: Loss[]): common.ToolChoice | undefined {
  const choice = body.tool_choice ?? body.function_call;
  const source = body.tool_choice === undefined ? "/function_call" : "/tool_choice";
  if (choice === undefined) return undefined;
  if (typeof choice === "string") {
    if (choice === "auto" || choice === "none" || choice === "required") return { type: choice, source };
    losses.push(loss(source, "dropped", `tool_choice "${choice}" has no common equivalent and was dropped.`));
    return undefined;
  }
  if (body.tool_choice === undefined && "name" in choice && typeof choice.name === "string") {
    return { type: "tool", name: choice.name, source };
  }
  if (choice.type === "function" && "function" in choice && isObject(choice.function)) {
    const name = choice.function.name;
    if (typeof name === "string") return { type: "tool", name, source };
  }
  if (choice.type === "custom" && "custom" in choice && isObject(choice.custom)) {
    const name = choice.custom.name;
    if (typeof name === "string") return { type: "tool", name, source };
  }
  if (choice.type === "allowed_tools" && "allowed_tools" in choice && isObject(choice.allowed_tools)) {
    const allowed = choice.allowed_tools as chat.AllowedToolsChoice["allowed_tools"];
    return {
      type: "allowed",
      names: allowedNames(allowed.tools),
      mode: allowed.mode === "required" ? "required" : "auto",
      source,
    };
  }
  losses.push(
    loss(
      source,
      "dropped",
      `tool_choice of type "${String(choice.type)}" has no common equivalent and was dropped.`,
    ),
  );
  return undefined;
}

const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} } as const;

/** Whether the tool `name` is a free-form tool. */
const freeformNamed = (tools: readonly common.Tool[], name: string): boolean =>
  tools.some((tool) => tool.type === "function" && tool.name === name && tool.freeform !== undefined);

/** A free-form function tool → a custom tool (the dialects without one get a function: common/tool-forms.ts). */
function encodeCustom(tool: common.FunctionTool, losses: Loss[]): chat.Tool {
  const custom: chat.CustomTool["custom"] = { name: tool.name };
  if (tool.description !== undefined) custom.description = tool.description;
  const format = tool.freeform?.format;
  if (format?.kind === "text") custom.format = { type: "text" };
  else if (format?.kind === "grammar")
    custom.format = { type: "grammar", grammar: { definition: format.definition, syntax: format.syntax } };
  else if (format?.kind === "other") {
    if (format.origin === "chat") custom.format = format.raw as chat.CustomToolFormat;
    else
      losses.push(
        loss(
          tool.freeform?.formatSource ?? `${tool.source}/format`,
          "dropped",
          `The ${format.origin} format of the free-form tool has no chat form and was dropped.`,
          "tool.format.dropped",
        ),
      );
  }
  return { type: "custom", custom };
}

/** The tools of a client's chat request (`options.request`), as common tools. */
export function clientTools(body: unknown): common.Tool[] {
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  return decodeTools({ tools: body.tools } as chat.Request);
}

/**
 * Common tools and tool choice → chat `tools` and `tool_choice`. An `allowed` subset is chat's
 * `allowed_tools` choice where the upstream takes it (`allowedTools`: every tool stays offered, so the
 * prompt cache holds); elsewhere it narrows the tools to the allowed ones (C4).
 */
export function encodeTools(
  request: common.Request,
  allowedTools: boolean,
  losses: Loss[],
): { tools?: chat.Tool[]; tool_choice?: chat.ToolChoice } {
  const choice = request.toolChoice;
  const allowed = choice?.type === "allowed" && !allowedTools ? new Set(choice.names) : undefined;
  const tools: chat.Tool[] = [];
  for (const tool of request.tools) {
    if (tool.type === "provider") {
      if (tool.origin === "chat" && isObject(tool.raw)) tools.push(tool.raw as chat.Tool);
      else
        losses.push(
          loss(tool.source, "dropped", `The ${tool.label} has no chat equivalent and was dropped.`),
        );
      continue;
    }
    if (allowed !== undefined && !allowed.has(tool.name)) {
      losses.push(
        loss(
          tool.source,
          "dropped",
          `Tool "${tool.name}" is not among the allowed tools, so it was left out.`,
        ),
      );
      continue;
    }
    if (tool.cache !== undefined) {
      losses.push(loss(tool.cache.source, "dropped", "Chat tools take no `cache_control`; it was dropped."));
    }
    if (tool.deferLoading?.value === true)
      losses.push(
        loss(
          tool.deferLoading.source,
          "dropped",
          "Chat has no tool search: a deferred tool is offered from the start.",
        ),
      );
    if (tool.freeform !== undefined) {
      tools.push(encodeCustom(tool, losses));
      continue;
    }
    // Chat clients expect an object schema; a tool without parameters gets the empty one.
    const parameters = tool.parameters ?? { ...EMPTY_OBJECT_SCHEMA, properties: {} };
    const fn: chat.FunctionDefinition =
      tool.description === undefined
        ? { name: tool.name, parameters }
        : { name: tool.name, description: tool.description, parameters };
    if (tool.strict !== undefined) fn.strict = tool.strict;
    tools.push({ type: "function", function: fn });
  }
  const out: { tools?: chat.Tool[]; tool_choice?: chat.ToolChoice } = {};
  if (tools.length > 0) out.tools = tools;
  if (choice === undefined) return out;
  switch (choice.type) {
    case "auto":
    case "none":
    case "required":
      out.tool_choice = choice.type;
      break;
    case "tool":
      out.tool_choice = freeformNamed(request.tools, choice.name)
        ? { type: "custom", custom: { name: choice.name } }
        : { type: "function", function: { name: choice.name } };
      break;
    case "allowed": {
      if (allowedTools) {
        out.tool_choice = {
          type: "allowed_tools",
          allowed_tools: {
            mode: choice.mode,
            tools: choice.names.map((name) =>
              freeformNamed(request.tools, name)
                ? { type: "custom", custom: { name } }
                : { type: "function", function: { name } },
            ),
          },
        };
        break;
      }
      const only = choice.names.length === 1 ? choice.names[0] : undefined;
      out.tool_choice =
        choice.mode === "required" && only !== undefined
          ? { type: "function", function: { name: only } }
          : choice.mode;
      break;
    }
  }
  return out;
}
