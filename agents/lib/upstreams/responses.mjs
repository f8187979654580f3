/**
 * A scripted OpenAI Responses upstream (POST /v1/responses, POST /v1/responses/compact). It refuses
 * what the real service refuses, with its status and error body: a `call_id` over 64 characters, a
 * function (or custom tool) call without its output and an output without its call, a reasoning item
 * whose `encrypted_content` is not the bytes it issued, a reasoning item replayed by id that it cannot
 * find (never, with `store: false`), a compaction item whose `encrypted_content` it did not issue, and
 * a `previous_response_id` it did not store (`previous_response_not_found`: unknown, or answered with
 * `store: false`). It stores what the service stores: a response's conversation (the one it continued,
 * its input, its output) under its id unless the request said `store: false`, and continues it for a
 * request that names it. A reasoning model: every answer starts with a reasoning item, with
 * `encrypted_content` when `include` asks for it and a summary when `reasoning.summary` does. Every
 * Response carries every field the service writes, the request's configuration echoed (or the
 * service's defaults). Compaction keeps the user messages and folds the rest into one `compaction`
 * item of opaque bytes, which a later request may send back in place of what it stands for.
 * Shapes: OpenAI's OpenAPI description (Response, ResponseStreamEvent, CompactResource) and the
 * openai resources/responses types.
 */
import { createHash } from "node:crypto";
import { pieces, sendJson, sendSse } from "../http.mjs";

const error = (status, message, type, param = null, code = null) => ({
  status,
  body: { error: { message, type, param, code } },
  reason: message,
});
const invalid = (message, param = null, code = null) =>
  error(400, message, "invalid_request_error", param, code);

/** @param {any} body @returns {any[]} */
const itemsOf = (body) =>
  typeof body.input === "string"
    ? [{ type: "message", role: "user", content: body.input }]
    : Array.isArray(body.input)
      ? body.input
      : [];
/** @param {any} item */
const typeOf = (item) => item?.type ?? (item?.role !== undefined ? "message" : undefined);

/** @param {unknown} output */
function outputText(output) {
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) return "";
  return output.map((part) => (typeof part?.text === "string" ? part.text : "")).join("\n");
}

/** Every base64 image of the request (tool outputs included). @param {any} body */
function images(body) {
  const out = [];
  const visit = (parts) => {
    if (!Array.isArray(parts)) return;
    for (const part of parts) {
      const match =
        part?.type === "input_image"
          ? /^data:image\/[a-z]+;base64,(.*)$/s.exec(String(part.image_url ?? ""))
          : null;
      if (match !== null) out.push(match[1]);
    }
  };
  for (const item of itemsOf(body)) {
    if (typeOf(item) === "message") visit(item.content);
    if (typeOf(item) === "function_call_output" || typeOf(item) === "custom_tool_call_output")
      visit(item.output);
  }
  return out;
}

const ENCRYPTED = "reasoning.encrypted_content";

/**
 * What the upstream issued and stored (agents/lib/upstream.mjs keeps one per upstream): reasoning
 * state, compactions (their bytes → the items they stand for) and stored responses (id → the
 * conversation up to and including that response).
 * @typedef {{ encrypted: Set<string>; reasoningIds: Set<string>; compactions?: Map<string, any[]>; responses?: Map<string, any[]> }} Issued
 */

/** The service's error for a `previous_response_id` it has no stored response for. @param {string} id */
const previousNotFound = (id) =>
  invalid(
    `Previous response with id '${id}' not found.`,
    "previous_response_id",
    "previous_response_not_found",
  );

/**
 * The conversation a request continues: the stored one its `previous_response_id` names ([] when none),
 * or undefined when that response was not stored. @param {any} body @param {Issued | undefined} issued
 */
function continued(body, issued) {
  if (typeof body.previous_response_id !== "string") return [];
  return issued?.responses?.get(body.previous_response_id);
}

/** A tool as the service echoes it: a function tool writes `description`, `parameters` (null when not given) and `strict` (true: the Responses default). @param {any} tool */
function echoedTool(tool) {
  if (tool?.type !== "function") return tool;
  const { type, description, name, parameters, strict, ...rest } = tool;
  return {
    type,
    description: description ?? null,
    name,
    parameters: parameters ?? null,
    strict: strict ?? true,
    ...rest,
  };
}

/** Token counts as the service reports them (every detail the description requires). */
const USAGE = {
  input_tokens: 1234,
  input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
  output_tokens: 56,
  output_tokens_details: { reasoning_tokens: 32 },
  total_tokens: 1290,
};

/** A user message's content as input parts (a string is one input_text). @param {unknown} content */
const inputParts = (content) =>
  typeof content === "string"
    ? [{ type: "input_text", text: content }]
    : Array.isArray(content)
      ? content
      : [];

export default {
  id: "responses",
  model: "gpt-5.5",

  /** @param {string} method @param {string} pathname */
  route: (method, pathname) =>
    method !== "POST"
      ? undefined
      : pathname === "/v1/responses"
        ? { op: "generate" }
        : pathname === "/v1/responses/compact"
          ? { op: "compact" }
          : undefined,

  /** @param {import("node:http").IncomingHttpHeaders} headers */
  authorized: (headers) => /^Bearer \S/.test(headers.authorization ?? ""),
  unauthorized: () =>
    error(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      "invalid_request_error",
    ),
  notFound: (path) => error(404, `Invalid URL (POST ${path})`, "invalid_request_error"),
  invalidJson: (message) => invalid(`We could not parse the JSON body of your request. ${message}`),

  /**
   * @param {any} body @param {unknown} _headers @param {unknown} _route
   * @param {Issued} issued
   */
  validate(body, _headers, _route, issued) {
    if (typeof body.model !== "string")
      return invalid("Missing required parameter: 'model'.", "model", "missing_required_parameter");
    const history = continued(body, issued);
    if (history === undefined) return previousNotFound(body.previous_response_id);
    const items = itemsOf(body);
    const calls = new Map();
    const outputs = new Map();
    // The stored conversation's calls and outputs pair with the new input's.
    for (const item of history) {
      const type = typeOf(item);
      if (["function_call", "custom_tool_call"].includes(type)) calls.set(String(item.call_id), type);
      if (["function_call_output", "custom_tool_call_output"].includes(type))
        outputs.set(String(item.call_id), type);
    }
    for (const [i, item] of items.entries()) {
      const type = typeOf(item);
      if (
        ["function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output"].includes(
          type,
        )
      ) {
        const callId = String(item.call_id ?? "");
        if (callId.length > 64) {
          return invalid(
            `Invalid 'input[${i}].call_id': string too long. Expected a string with maximum length 64, but got a string with length ${callId.length} instead.`,
            `input[${i}].call_id`,
            "string_above_max_length",
          );
        }
        (type.endsWith("_output") ? outputs : calls).set(callId, type);
      }
      if (type === "reasoning") {
        if (typeof item.encrypted_content === "string") {
          if (!issued.encrypted.has(item.encrypted_content)) {
            const shown = `${item.encrypted_content.slice(0, 4)}...${item.encrypted_content.slice(-4)}`;
            return invalid(
              `The encrypted content ${shown} could not be verified. Reason: Encrypted content could not be decrypted or parsed.`,
              null,
              "invalid_encrypted_content",
            );
          }
        } else if (body.store === false) {
          return error(
            404,
            `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
            "invalid_request_error",
            "input",
          );
        } else if (!issued.reasoningIds.has(item.id)) {
          return error(404, `Item with id '${item.id}' not found.`, "invalid_request_error", "input");
        }
      }
      if (type === "compaction" && !issued.compactions?.has(String(item.encrypted_content))) {
        const bytes = String(item.encrypted_content ?? "");
        return invalid(
          `The encrypted content ${bytes.slice(0, 4)}...${bytes.slice(-4)} could not be verified. Reason: Encrypted content could not be decrypted or parsed.`,
          null,
          "invalid_encrypted_content",
        );
      }
    }
    for (const [callId, type] of calls) {
      if (!outputs.has(callId)) {
        const what = type === "custom_tool_call" ? "custom tool call" : "function call";
        return invalid(`No tool output found for ${what} ${callId}.`, "input");
      }
    }
    for (const [callId, type] of outputs) {
      if (!calls.has(callId)) {
        const what = type === "custom_tool_call_output" ? "custom tool call output" : "function call output";
        return invalid(`No tool call found for ${what} with call_id ${callId}.`, "input");
      }
    }
    return undefined;
  },

  /** @param {any} body */
  view(body) {
    const items = itemsOf(body);
    const format = body.text?.format;
    return {
      tools: (body.tools ?? [])
        .filter((tool) => tool?.type === "function" || tool?.type === "custom")
        .map((tool) => ({ name: tool.name, schema: tool.parameters })),
      stream: body.stream === true,
      results: items
        .filter(
          (item) => typeOf(item) === "function_call_output" || typeOf(item) === "custom_tool_call_output",
        )
        .map((item) => ({ text: outputText(item.output) })),
      images: images(body),
      reasoningAsked: true,
      encrypted: Array.isArray(body.include) && body.include.includes(ENCRYPTED),
      summary: typeof body.reasoning?.summary === "string" && body.reasoning.summary !== "none",
      jsonSchema: format?.type === "json_schema" ? (format.schema ?? {}) : undefined,
    };
  },

  /** Whether the reasoning item came back: its encrypted bytes, or (stored) its id. @param {any} body @param {any} issued */
  home(body, issued) {
    return itemsOf(body).some(
      (item) =>
        typeOf(item) === "reasoning" &&
        (issued.value === undefined ? item.id === issued.id : item.encrypted_content === issued.value),
    );
  },

  rateLimit: () => ({
    ...error(
      429,
      "Rate limit reached for gpt-5.5 in organization org-scripted on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.",
      "requests",
      null,
      "rate_limit_exceeded",
    ),
    headers: {
      "retry-after": "1",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "1s",
    },
  }),

  /**
   * POST /v1/responses/compact (CompactResource): the conversation (the stored one the request
   * continues, then its input) as its user messages, kept, and one `compaction` item whose opaque
   * bytes stand for all of it (issued: a later request may send them back).
   * @param {any} body
   * @param {{ id: (prefix: string) => string; created: number; issued?: Issued }} context
   */
  compact(body, { id, created, issued }) {
    const items = [...(continued(body, issued) ?? []), ...itemsOf(body)];
    const kept = items
      .filter((item) => typeOf(item) === "message" && item.role === "user")
      .map((item) => ({
        id: id("msg_"),
        type: "message",
        status: "completed",
        content: inputParts(item.content),
        role: "user",
      }));
    const digest = createHash("sha256")
      .update(`${created}:${issued?.compactions?.size ?? 0}:${JSON.stringify(items)}`)
      .digest("base64url");
    const encrypted = `gAAAAAB${digest}${digest}`;
    issued?.compactions?.set(encrypted, items);
    return {
      id: id("resp_"),
      object: "response.compaction",
      created_at: created,
      output: [...kept, { id: id("cmp_"), type: "compaction", encrypted_content: encrypted }],
      usage: USAGE,
    };
  },

  /**
   * @param {import("node:http").ServerResponse} res
   * @param {{ reasoning?: { id: string; text: string; value?: string }; calls?: { id: string; itemId: string; name: string; args: unknown }[]; text?: string }} plan
   * @param {{ model: string; view: any; body: any; id: (prefix: string) => string; created: number; issued?: Issued }} context
   */
  async respond(res, plan, { model, view, body, id, created, issued }) {
    const responseId = id("resp_");
    const output = [];
    if (plan.reasoning !== undefined) {
      output.push({
        id: plan.reasoning.id,
        type: "reasoning",
        summary: view.summary ? [{ type: "summary_text", text: plan.reasoning.text }] : [],
        ...(plan.reasoning.value === undefined ? {} : { encrypted_content: plan.reasoning.value }),
      });
    }
    if (plan.text !== undefined) {
      output.push({
        id: id("msg_"),
        type: "message",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: plan.text, annotations: [], logprobs: [] }],
      });
    }
    for (const call of plan.calls ?? []) {
      const isCustom = (body.tools ?? []).some((tool) => tool?.type === "custom" && tool.name === call.name);
      output.push(
        isCustom
          ? {
              id: call.itemId,
              type: "custom_tool_call",
              status: "completed",
              call_id: call.id,
              name: call.name,
              input: String(call.args),
            }
          : {
              id: call.itemId,
              type: "function_call",
              status: "completed",
              arguments: JSON.stringify(call.args),
              call_id: call.id,
              name: call.name,
            },
      );
    }
    const history = continued(body, issued) ?? [];
    /** @param {string} status @param {any[]} items @param {boolean} done */
    const response = (status, items, done) => ({
      id: responseId,
      object: "response",
      created_at: created,
      status,
      background: false,
      completed_at: done ? created + 1 : null,
      error: null,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      max_tool_calls: body.max_tool_calls ?? null,
      model,
      output: items,
      parallel_tool_calls: body.parallel_tool_calls ?? true,
      presence_penalty: body.presence_penalty ?? 0,
      frequency_penalty: body.frequency_penalty ?? 0,
      previous_response_id: body.previous_response_id ?? null,
      prompt_cache_key: body.prompt_cache_key ?? null,
      prompt_cache_retention: body.prompt_cache_retention ?? null,
      reasoning: { effort: body.reasoning?.effort ?? "medium", summary: body.reasoning?.summary ?? null },
      safety_identifier: body.safety_identifier ?? null,
      service_tier:
        typeof body.service_tier === "string" && body.service_tier !== "auto" ? body.service_tier : "default",
      store: body.store ?? true,
      temperature: body.temperature ?? 1,
      text: {
        format: body.text?.format ?? { type: "text" },
        verbosity: body.text?.verbosity ?? "medium",
      },
      tool_choice: body.tool_choice ?? "auto",
      tools: (body.tools ?? []).map(echoedTool),
      top_logprobs: body.top_logprobs ?? 0,
      top_p: body.top_p ?? 1,
      truncation: body.truncation ?? "disabled",
      usage: done ? USAGE : null,
      // The deprecated `user` is a string in the description: written when the request set one.
      ...(typeof body.user === "string" ? { user: body.user } : {}),
      metadata: body.metadata ?? {},
    });
    // Stored before the answer goes out (the client may name it at once), unless `store: false`.
    if (body.store !== false) issued?.responses?.set(responseId, [...history, ...itemsOf(body), ...output]);
    if (!view.stream) {
      sendJson(res, 200, response("completed", output, true));
      return;
    }
    const events = [];
    const push = (event) => events.push({ ...event, sequence_number: events.length });
    const started = response("in_progress", [], false);
    push({ type: "response.created", response: started });
    push({ type: "response.in_progress", response: started });
    for (const [index, item] of output.entries()) {
      if (item.type === "reasoning") {
        push({ type: "response.output_item.added", output_index: index, item: { ...item, summary: [] } });
        for (const [s, part] of item.summary.entries()) {
          const at = { item_id: item.id, output_index: index, summary_index: s };
          push({
            type: "response.reasoning_summary_part.added",
            ...at,
            part: { type: "summary_text", text: "" },
          });
          for (const delta of pieces(part.text, 2))
            push({ type: "response.reasoning_summary_text.delta", ...at, delta });
          push({ type: "response.reasoning_summary_text.done", ...at, text: part.text });
          push({ type: "response.reasoning_summary_part.done", ...at, part });
        }
      } else if (item.type === "message") {
        push({
          type: "response.output_item.added",
          output_index: index,
          item: { ...item, status: "in_progress", content: [] },
        });
        const at = { item_id: item.id, output_index: index, content_index: 0 };
        const text = item.content[0].text;
        push({
          type: "response.content_part.added",
          ...at,
          part: { type: "output_text", text: "", annotations: [], logprobs: [] },
        });
        for (const delta of pieces(text, 3))
          push({ type: "response.output_text.delta", ...at, delta, logprobs: [] });
        push({ type: "response.output_text.done", ...at, text, logprobs: [] });
        push({ type: "response.content_part.done", ...at, part: item.content[0] });
      } else if (item.type === "function_call") {
        push({
          type: "response.output_item.added",
          output_index: index,
          item: { ...item, status: "in_progress", arguments: "" },
        });
        for (const delta of pieces(item.arguments, 3)) {
          push({
            type: "response.function_call_arguments.delta",
            item_id: item.id,
            output_index: index,
            delta,
          });
        }
        push({
          type: "response.function_call_arguments.done",
          item_id: item.id,
          name: item.name,
          output_index: index,
          arguments: item.arguments,
        });
      } else {
        push({
          type: "response.output_item.added",
          output_index: index,
          item: { ...item, status: "in_progress", input: "" },
        });
        push({
          type: "response.custom_tool_call_input.delta",
          item_id: item.id,
          output_index: index,
          delta: item.input,
        });
        push({
          type: "response.custom_tool_call_input.done",
          item_id: item.id,
          output_index: index,
          input: item.input,
        });
      }
      push({ type: "response.output_item.done", output_index: index, item });
    }
    push({ type: "response.completed", response: response("completed", output, true) });
    await sendSse(
      res,
      events.map((event) => ({ event: event.type, data: JSON.stringify(event) })),
    );
  },
};
