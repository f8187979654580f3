/**
 * responses `tools` and `tool_choice` ↔ common tools and tool choice. Function tools are flat
 * (`{type: "function", name, parameters, strict}`); custom and built-in tools are carried to responses
 * itself and reported elsewhere; `allowed_tools` is the common `allowed` subset.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 */
import { isObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import { keepRest } from "./fields";
import type { Request, Tool, ToolChoice } from "./schema";

const FUNCTION_KEYS = new Set(["type", "name", "description", "parameters", "strict", "defer_loading"]);
const CUSTOM_KEYS = new Set(["type", "name", "description", "format", "defer_loading"]);
const NAMESPACE_KEYS = new Set(["type", "name", "description", "tools"]);
const SEARCH_KEYS = new Set(["type", "execution", "description", "parameters"]);

type Group = NonNullable<common.FunctionTool["namespace"]>;

/** A custom tool's `format` → common: text, a grammar, or another kind kept for responses. */
function decodeFormat(format: Record<string, unknown>): common.FreeformFormat {
  if (format.type === "text" && Object.keys(format).length === 1) return { kind: "text" };
  if (
    format.type === "grammar" &&
    typeof format.syntax === "string" &&
    typeof format.definition === "string" &&
    Object.keys(format).length === 3
  )
    return { kind: "grammar", syntax: format.syntax, definition: format.definition };
  return { kind: "other", origin: "responses", raw: format };
}

/** A function or custom tool (of a namespace when `group` is given) → a common function tool. */
function decodeFunction(
  tool: Record<string, unknown>,
  source: string,
  group: Group | undefined,
  losses: Loss[],
): common.FunctionTool {
  const custom = tool.type === "custom";
  keepRest(
    tool,
    custom ? CUSTOM_KEYS : FUNCTION_KEYS,
    source,
    custom ? "a custom tool" : "a function tool",
    losses,
  );
  const decoded: common.Draft<common.FunctionTool> = { type: "function", name: String(tool.name), source };
  if (typeof tool.description === "string") decoded.description = tool.description;
  if (custom) {
    const freeform: common.Draft<NonNullable<common.FunctionTool["freeform"]>> = {};
    if (isObject(tool.format)) {
      freeform.format = decodeFormat(tool.format);
      freeform.formatSource = at(source, "format");
    }
    decoded.freeform = freeform;
  } else if (isObject(tool.parameters)) {
    decoded.parameters = tool.parameters;
    decoded.parametersSource = at(source, "parameters");
  }
  if (typeof tool.strict === "boolean") decoded.strict = tool.strict;
  else if (!custom)
    // Without `strict` the responses service makes the schema strict where it can (optional
    // parameters become required) and falls back to best effort where it cannot; no other protocol
    // has that mode, and the nearest, what they do by default, is non-strict.
    losses.push(
      loss(
        source,
        "approximated",
        "Without `strict` a responses function tool is strict where its schema allows; the target has no such mode and treats it as non-strict. Set `strict` to true or false to choose.",
        "tool.strict.approximated",
      ),
    );
  if (group !== undefined) decoded.namespace = group;
  if (typeof tool.defer_loading === "boolean")
    decoded.deferLoading = { value: tool.defer_loading, source: at(source, "defer_loading") };
  return decoded;
}

/**
 * `tools` → common tools: function and custom (free-form) tools field by field, the tools of a
 * namespace each with their group, a client-executed tool search as the function it is for the model,
 * every other kind as a provider tool kept raw. `base` is the list's pointer (`/tools`, or the
 * `tools` of an `additional_tools` or `tool_search_output` item).
 */
export function decodeTools(
  tools: readonly Tool[] | undefined,
  losses: Loss[],
  base = "/tools",
): common.Tool[] {
  const out: common.Tool[] = [];
  if (tools === undefined) return out;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index] as Tool & Record<string, unknown>;
    const source = `${base}/${index}`;
    if (tool.type === "function" || tool.type === "custom") {
      out.push(decodeFunction(tool, source, undefined, losses));
      continue;
    }
    if (tool.type === "namespace" && Array.isArray(tool.tools)) {
      keepRest(tool, NAMESPACE_KEYS, source, "a namespace tool", losses);
      const group: common.Draft<Group> = { name: String(tool.name), source };
      if (typeof tool.description === "string") group.description = tool.description;
      (tool.tools as Record<string, unknown>[]).forEach((member, at0) => {
        const memberSource = `${source}/tools/${at0}`;
        if (member.type === "function" || member.type === "custom")
          out.push(decodeFunction(member, memberSource, group, losses));
        else
          losses.push(
            loss(
              memberSource,
              "dropped",
              `A ${String(member.type)} tool in a namespace has no common equivalent and was dropped.`,
            ),
          );
      });
      continue;
    }
    if (tool.type === "tool_search" && tool.execution === "client") {
      keepRest(tool, SEARCH_KEYS, source, "the tool_search tool", losses);
      const search: common.Draft<common.FunctionTool> = {
        type: "function",
        name: "tool_search",
        search: true,
        source,
      };
      if (typeof tool.description === "string") search.description = tool.description;
      if (isObject(tool.parameters)) {
        search.parameters = tool.parameters;
        search.parametersSource = at(source, "parameters");
      }
      out.push(search);
      continue;
    }
    const provider: common.Draft<common.ProviderTool> = {
      type: "provider",
      origin: "responses",
      raw: tool,
      label: `${tool.type} tool`,
      source,
    };
    if (tool.type === "code_interpreter") provider.kind = "code-execution";
    else if (typeof tool.type === "string" && tool.type.startsWith("web_search"))
      provider.kind = "web-search";
    out.push(provider);
  }
  return out;
}

/** `tool_choice` → common; a built-in tool type or an MCP server has no common equivalent. */
export function decodeToolChoice(
  choice: ToolChoice | undefined,
  losses: Loss[],
): common.ToolChoice | undefined {
  const source = "/tool_choice";
  if (choice === undefined) return undefined;
  if (typeof choice === "string") {
    if (choice === "auto" || choice === "none" || choice === "required")
      return { type: choice as "auto" | "none" | "required", source };
    losses.push(loss(source, "dropped", `tool_choice "${choice}" has no common equivalent and was dropped.`));
    return undefined;
  }
  const object = choice as Record<string, unknown>;
  if ((object.type === "function" || object.type === "custom") && typeof object.name === "string")
    return { type: "tool", name: object.name, source };
  if (object.type === "tool_search") return { type: "tool", name: "tool_search", source };
  if (object.type === "allowed_tools" && Array.isArray(object.tools)) {
    const names: string[] = [];
    object.tools.forEach((entry: unknown, index: number) => {
      if (
        isObject(entry) &&
        (entry.type === "function" || entry.type === "custom") &&
        typeof entry.name === "string"
      )
        names.push(entry.name);
      else
        losses.push(
          loss(
            at(source, "tools", index),
            "dropped",
            "An allowed tool that is not a function has no common equivalent and was dropped.",
          ),
        );
    });
    return { type: "allowed", names, mode: object.mode === "required" ? "required" : "auto", source };
  }
  losses.push(
    loss(
      source,
      "dropped",
      `tool_choice of type "${String(object.type)}" has no common equivalent and was dropped.`,
    ),
  );
  return undefined;
}

const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} } as const;

/**
 * Common tools and tool choice → responses `tools` and `tool_choice`. A function tool always says
 * `strict`: an omitted one makes the service treat the schema as strict and rewrite optional
 * parameters into required ones, so a tool whose source did not ask for strict gets
 * `strict: false` (a synthesized value).
 */
export function encodeTools(
  request: common.Request,
  losses: Loss[],
): { tools?: Request["tools"]; tool_choice?: ToolChoice } {
  const tools: Tool[] = [];
  // The namespace tool each group's members go into, by the group's pointer.
  const groups = new Map<string, { tools: Tool[] }>();
  for (const tool of request.tools) {
    if (tool.type === "provider") {
      if (tool.origin === "responses") tools.push(tool.raw as Tool);
      else if (tool.kind === "code-execution") {
        tools.push({ type: "code_interpreter", container: { type: "auto" } });
        losses.push(
          loss(
            tool.source,
            "approximated",
            `The ${tool.origin} ${tool.label} was sent as the responses code_interpreter tool, which runs code in its own container.`,
          ),
        );
      } else if (tool.kind === "web-search") {
        tools.push({ type: "web_search" });
        losses.push(
          loss(
            tool.source,
            "approximated",
            `The ${tool.origin} ${tool.label} was sent as the responses web_search tool, with its default settings.`,
          ),
        );
      } else
        losses.push(
          loss(
            tool.source,
            "dropped",
            `The ${tool.origin} ${tool.label} has no responses equivalent and was dropped.`,
          ),
        );
      continue;
    }
    if (tool.cache !== undefined)
      losses.push(
        loss(tool.cache.source, "dropped", "responses tools take no `cache_control`; it was dropped."),
      );
    const encoded = encodeFunction(tool, losses);
    const group = tool.namespace;
    if (group === undefined) {
      tools.push(encoded);
      continue;
    }
    let namespace = groups.get(group.source);
    if (namespace === undefined) {
      namespace = { tools: [] };
      groups.set(group.source, namespace);
      const written: Record<string, unknown> = { type: "namespace", name: group.name };
      written.description = group.description ?? "";
      written.tools = namespace.tools;
      tools.push(written as Tool);
    }
    namespace.tools.push(encoded);
  }
  const out: { tools?: Request["tools"]; tool_choice?: ToolChoice } = {};
  if (tools.length > 0) out.tools = tools;
  const choice = request.toolChoice;
  if (choice === undefined) return out;
  switch (choice.type) {
    case "auto":
    case "none":
    case "required":
      out.tool_choice = choice.type;
      break;
    case "tool": {
      const kind = kindOf(request.tools, choice.name);
      out.tool_choice = kind === "tool_search" ? { type: "tool_search" } : { type: kind, name: choice.name };
      break;
    }
    case "allowed":
      out.tool_choice = {
        type: "allowed_tools",
        mode: choice.mode,
        tools: choice.names.map((name) => {
          const kind = kindOf(request.tools, name);
          return kind === "tool_search" ? { type: kind } : { type: kind, name };
        }),
      };
      break;
  }
  return out;
}

/** The responses tool type of the function tool `name` (a free-form tool is `custom`). */
function kindOf(tools: readonly common.Tool[], name: string): "function" | "custom" | "tool_search" {
  for (const tool of tools)
    if (tool.type === "function" && tool.name === name)
      return tool.search === true ? "tool_search" : tool.freeform === undefined ? "function" : "custom";
  return "function";
}

/** A common function tool → a function, custom (free-form) or client tool_search tool. */
function encodeFunction(tool: common.FunctionTool, losses: Loss[]): Tool {
  if (tool.search === true) {
    const search: Record<string, unknown> = { type: "tool_search", execution: "client" };
    if (tool.description !== undefined) search.description = tool.description;
    if (tool.parameters !== undefined) search.parameters = tool.parameters;
    return search as Tool;
  }
  if (tool.freeform !== undefined) {
    const custom: Record<string, unknown> = { type: "custom", name: tool.name };
    if (tool.description !== undefined) custom.description = tool.description;
    const format = tool.freeform.format;
    if (format?.kind === "text") custom.format = { type: "text" };
    else if (format?.kind === "grammar")
      custom.format = { type: "grammar", syntax: format.syntax, definition: format.definition };
    else if (format?.kind === "other") {
      if (format.origin === "responses") custom.format = format.raw;
      else
        losses.push(
          loss(
            tool.freeform.formatSource ?? at(tool.source, "format"),
            "dropped",
            `The ${format.origin} format of the free-form tool has no responses form and was dropped.`,
            "tool.format.dropped",
          ),
        );
    }
    if (tool.deferLoading !== undefined) custom.defer_loading = tool.deferLoading.value;
    return custom as Tool;
  }
  const encoded: Record<string, unknown> = { type: "function", name: tool.name };
  if (tool.description !== undefined) encoded.description = tool.description;
  if (tool.parameters === undefined) {
    losses.push(
      loss(
        at(tool.source, "parameters"),
        "synthesized",
        "A responses function tool needs a parameter schema; the empty object schema was sent.",
      ),
    );
  }
  encoded.parameters = tool.parameters ?? { ...EMPTY_OBJECT_SCHEMA, properties: {} };
  // Without `strict` the responses service treats the schema as strict (making optional parameters
  // required); every other protocol's default is non-strict, which `false` says. Nothing is made up.
  encoded.strict = tool.strict ?? false;
  if (tool.deferLoading !== undefined) encoded.defer_loading = tool.deferLoading.value;
  return encoded as Tool;
}

/**
 * The tools of a client's responses request (`options.request`): its `tools`, and those its input adds
 * (`additional_tools` items, the tools a client tool search loaded), as common tools.
 */
export function clientTools(body: unknown): common.Tool[] {
  if (!isObject(body)) return [];
  const scratch: Loss[] = [];
  const tools = Array.isArray(body.tools) ? decodeTools(body.tools as Tool[], scratch) : [];
  if (Array.isArray(body.input))
    for (const item of body.input)
      if (
        isObject(item) &&
        (item.type === "additional_tools" || item.type === "tool_search_output") &&
        Array.isArray(item.tools)
      )
        tools.push(...decodeTools(item.tools as Tool[], scratch));
  return tools;
}
