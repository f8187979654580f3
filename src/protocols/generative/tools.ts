/**
 * generative `tools` and `toolConfig.functionCallingConfig` ⇄ common tools and tool choice.
 * Function parameters travel as converted `parameters`; see
 * `encodeGenerativeTools` for when `parametersJsonSchema` is used instead.
 * @see https://ai.google.dev/api/caching#Tool
 */
import { isObject } from "../../common/json";
import { type Loss, loss } from "../../common/loss";
import type * as common from "../../common/model";
import { at } from "../../common/pointer";
import { exactSubset, fromGenerativeSchema, lowerTypeNames } from "./json-schema";
import type * as generative from "./schema";

const DECLARATION_KEYS = new Set([
  "name",
  "description",
  "parameters",
  "parametersJsonSchema",
  "parameters_json_schema",
]);

/** `tools` → common tools: each function declaration a function tool, each other entry a provider tool. */
export function decodeGenerativeTools(
  tools: readonly generative.Tool[] | undefined,
  losses: Loss[],
): common.Tool[] {
  const out: common.Tool[] = [];
  tools?.forEach((tool, toolIndex) => {
    const base = `/tools/${toolIndex}`;
    for (const [key, value] of Object.entries(tool)) {
      if (key !== "functionDeclarations" && key !== "function_declarations") {
        const tool: common.Draft<common.ProviderTool> = {
          type: "provider",
          origin: "generative",
          raw: { [key]: value },
          label: `${key} tool`,
          source: at(base, key),
        };
        if (key === "codeExecution" || key === "code_execution") tool.kind = "code-execution";
        else if (key === "googleSearch" || key === "google_search") tool.kind = "web-search";
        out.push(tool);
        continue;
      }
      const declarations = (Array.isArray(value) ? value : []) as generative.FunctionDeclaration[];
      declarations.forEach((declaration, index) => {
        const source = at(base, key, index);
        for (const field of Object.keys(declaration)) {
          if (!DECLARATION_KEYS.has(field)) {
            losses.push(
              loss(
                at(source, field),
                "dropped",
                `functionDeclarations.${field} has no common equivalent and was dropped.`,
              ),
            );
          }
        }
        const jsonSchema = declaration.parametersJsonSchema ?? declaration.parameters_json_schema;
        const jsonField =
          declaration.parametersJsonSchema === undefined ? "parameters_json_schema" : "parametersJsonSchema";
        let parameters: common.JsonSchema | undefined;
        let parametersSource: string | undefined;
        if (isObject(jsonSchema)) {
          parameters = lowerTypeNames(jsonSchema);
          parametersSource = at(source, jsonField);
        } else if (declaration.parameters !== undefined) {
          parameters = fromGenerativeSchema(declaration.parameters);
          parametersSource = `${source}/parameters`;
        }
        const decoded: common.Draft<common.FunctionTool> = {
          type: "function",
          name: declaration.name,
          source,
        };
        if (declaration.description !== undefined) decoded.description = declaration.description;
        if (parameters !== undefined) {
          decoded.parameters = parameters;
          decoded.parametersSource = parametersSource;
        }
        out.push(decoded);
      });
    }
  });
  return out;
}

/** `functionCallingConfig` → common tool choice. */
export function decodeGenerativeToolConfig(
  config: generative.ToolConfig | undefined,
  base: string,
  losses: Loss[],
): common.ToolChoice | undefined {
  if (config === undefined) return undefined;
  const field = Object.hasOwn(config, "functionCallingConfig")
    ? "functionCallingConfig"
    : "function_calling_config";
  for (const key of Object.keys(config)) {
    if (key !== "functionCallingConfig" && key !== "function_calling_config") {
      losses.push(
        loss(at(base, key), "dropped", `toolConfig.${key} has no common equivalent and was dropped.`),
      );
    }
  }
  const calling = config.functionCallingConfig ?? config.function_calling_config;
  if (calling === undefined) return undefined;
  const source = at(base, field);
  const names = calling.allowedFunctionNames ?? calling.allowed_function_names;
  const mode = (calling.mode ?? "AUTO").toUpperCase();
  switch (mode) {
    case "NONE":
      return { type: "none", source };
    case "ANY":
      if (names === undefined || names.length === 0) return { type: "required", source };
      if (names.length === 1 && names[0] !== undefined) return { type: "tool", name: names[0], source };
      return { type: "allowed", names, mode: "required", source };
    case "AUTO":
    case "MODE_UNSPECIFIED":
      return names === undefined || names.length === 0
        ? { type: "auto", source }
        : { type: "allowed", names, mode: "auto", source };
    default:
      losses.push(
        loss(
          `${source}/mode`,
          "approximated",
          `The function calling mode "${calling.mode}" has no common equivalent; it was read as AUTO.`,
        ),
      );
      return names === undefined || names.length === 0
        ? { type: "auto", source }
        : { type: "allowed", names, mode: "auto", source };
  }
}

/**
 * Common tools → generative `tools`: all functions in one `functionDeclarations` entry, then the
 * provider tools of generative origin. Parameters go as `parameters` (the OpenAPI subset) when it says
 * all of them, else unchanged as `parametersJsonSchema` (full JSON Schema, as Gemini CLI sends them):
 * `$schema`, `additionalProperties`, `exclusiveMinimum` … reach Gemini, which takes them there.
 */
export function encodeGenerativeTools(
  tools: readonly common.Tool[],
  losses: Loss[],
): generative.Tool[] | undefined {
  const declarations: generative.FunctionDeclaration[] = [];
  const others: generative.Tool[] = [];
  for (const tool of tools) {
    if (tool.type === "provider") {
      if (tool.origin === "generative" && isObject(tool.raw)) others.push(tool.raw);
      else if (tool.kind === "code-execution") {
        others.push({ codeExecution: {} });
        losses.push(
          loss(
            tool.source,
            "approximated",
            `The ${tool.origin} ${tool.label} was sent as generative's codeExecution tool, which runs Python in its own sandbox.`,
          ),
        );
      } else if (tool.kind === "web-search") {
        others.push({ googleSearch: {} });
        losses.push(
          loss(
            tool.source,
            "approximated",
            `The ${tool.origin} ${tool.label} was sent as generative's googleSearch tool, with its default settings.`,
          ),
        );
      } else
        losses.push(
          loss(tool.source, "dropped", `The ${tool.label} has no generative equivalent and was dropped.`),
        );
      continue;
    }
    // `strict: false` asks for what generative does anyway: only a strict tool loses something.
    if (tool.strict === true) {
      losses.push(
        loss(`${tool.source}/strict`, "dropped", "`strict` has no generative equivalent and was dropped."),
      );
    }
    if (tool.deferLoading?.value === true)
      losses.push(
        loss(
          tool.deferLoading.source,
          "dropped",
          "generative has no tool search: a deferred tool is offered from the start.",
        ),
      );
    if (tool.cache !== undefined) {
      losses.push(
        loss(tool.cache.source, "dropped", "Cache hints have no generative equivalent and were dropped."),
      );
    }
    // The description requires `description`: an empty one says no more than none.
    const declaration: generative.FunctionDeclaration = {
      name: tool.name,
      description: tool.description ?? "",
    };
    encodeParameters(tool, declaration, losses);
    declarations.push(declaration);
  }
  const out = declarations.length === 0 ? others : [{ functionDeclarations: declarations }, ...others];
  return out.length === 0 ? undefined : out;
}

/**
 * A tool's parameters → the declaration's `parameters` when the OpenAPI subset says all of them, else
 * unchanged as `parametersJsonSchema` (full JSON Schema, which Gemini takes whole): nothing is dropped.
 */
function encodeParameters(
  tool: common.FunctionTool,
  into: generative.FunctionDeclaration,
  losses: Loss[],
): void {
  if (tool.parameters === undefined) return;
  const source = tool.parametersSource ?? `${tool.source}/parameters`;
  const schema = exactSubset(tool.parameters, source);
  if (schema === undefined) {
    into.parametersJsonSchema = tool.parameters;
    return;
  }
  const keys = Object.keys(schema);
  // A parameter-less tool: Gemini rejects an object schema without properties.
  if (keys.length === 0 || (keys.length === 1 && schema.type === "object")) return;
  // The subset requires a type: one told by `properties` is written, and said (JSON Schema allows any).
  if (tool.parameters.type === undefined && schema.type !== undefined)
    losses.push(
      loss(
        at(source, "type"),
        "synthesized",
        `Tool \`${tool.name}\`: generative's schema needs a type; the parameters had none, and "${String(schema.type)}" (what their properties tell) was written.`,
        "tool.schema.type.synthesized",
      ),
    );
  into.parameters = schema;
}

/** Common tool choice → `toolConfig`. */
export function encodeGenerativeToolChoice(
  choice: common.ToolChoice | undefined,
): generative.ToolConfig | undefined {
  if (choice === undefined) return undefined;
  switch (choice.type) {
    case "auto":
      return { functionCallingConfig: { mode: "AUTO" } };
    case "none":
      return { functionCallingConfig: { mode: "NONE" } };
    case "required":
      return { functionCallingConfig: { mode: "ANY" } };
    case "tool":
      return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [choice.name] } };
    case "allowed":
      return {
        functionCallingConfig: {
          mode: choice.mode === "required" ? "ANY" : "AUTO",
          allowedFunctionNames: [...choice.names],
        },
      };
  }
}
