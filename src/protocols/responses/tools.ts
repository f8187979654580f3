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

const FUNCTION_KEYS = new Set(["type", "name", "description", "parameters", "strict"]);

/** `tools` → common tools: function tools field by field, every other kind as a provider tool kept raw. */
export function decodeTools(tools: readonly Tool[] | undefined, losses: Loss[]): common.Tool[] {
  const out: common.Tool[] = [];
  if (tools === undefined) return out;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index] as Tool & Record<string, unknown>;
    const source = `/tools/${index}`;
    if (tool.type !== "function") {
      const provider: common.Draft<common.ProviderTool> = {
        type: "provider",
        origin: "responses",
        raw: tool,
        label: tool.type === "custom" ? "custom (free-form) tool" : `${tool.type} tool`,
        source,
      };
      if (tool.type === "code_interpreter") provider.kind = "code-execution";
      out.push(provider);
      continue;
    }
    keepRest(tool, FUNCTION_KEYS, source, "a function tool", losses);
    const decoded: common.Draft<common.FunctionTool> = {
      type: "function",
      name: tool.name as string,
      source,
    };
    if (typeof tool.description === "string") decoded.description = tool.description;
    if (isObject(tool.parameters)) {
      decoded.parameters = tool.parameters;
      decoded.parametersSource = at(source, "parameters");
    }
    if (typeof tool.strict === "boolean") decoded.strict = tool.strict;
    out.push(decoded);
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
  if (object.type === "allowed_tools" && Array.isArray(object.tools)) {
    const names: string[] = [];
    object.tools.forEach((entry: unknown, index: number) => {
      if (isObject(entry) && entry.type === "function" && typeof entry.name === "string")
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
    tools.push(encoded as Tool);
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
    case "tool":
      out.tool_choice = { type: "function", name: choice.name };
      break;
    case "allowed":
      out.tool_choice = {
        type: "allowed_tools",
        mode: choice.mode,
        tools: choice.names.map((name) => ({ type: "function", name })),
      };
      break;
  }
  return out;
}
