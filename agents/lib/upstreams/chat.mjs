/**
 * A scripted OpenAI Chat Completions upstream (POST /v1/chat/completions). It refuses what the real
 * service refuses, with its status and error body: a tool message that answers no preceding tool
 * call, an assistant tool call left unanswered, an image in a message that is not the user's.
 * It issues no reasoning state (the protocol has none). Shapes: openai resources/chat/completions
 * (ChatCompletion, ChatCompletionChunk).
 */
import { pieces, sendJson, sendSse } from "../http.mjs";

const error = (status, message, type, param = null, code = null) => ({
  status,
  body: { error: { message, type, param, code } },
  reason: message,
});
const invalid = (message, param = null, code = null) =>
  error(400, message, "invalid_request_error", param, code);

/** @param {any} message */
const parts = (message) => (Array.isArray(message?.content) ? message.content : []);

/** Every base64 image of the request. @param {any} body */
function images(body) {
  const out = [];
  for (const message of body.messages ?? []) {
    for (const part of parts(message)) {
      const url = part?.type === "image_url" ? String(part.image_url?.url ?? "") : "";
      const match = /^data:image\/[a-z]+;base64,(.*)$/s.exec(url);
      if (match !== null) out.push(match[1]);
    }
  }
  return out;
}

export default {
  id: "chat",
  model: "gpt-5.5",

  /** @param {string} method @param {string} pathname */
  route: (method, pathname) =>
    method === "POST" && pathname === "/v1/chat/completions" ? { op: "generate" } : undefined,

  /** @param {import("node:http").IncomingHttpHeaders} headers */
  authorized: (headers) => /^Bearer \S/.test(headers.authorization ?? ""),
  unauthorized: () =>
    error(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      "invalid_request_error",
    ),
  notFound: (path) => error(404, `Invalid URL (POST ${path})`, "invalid_request_error"),
  invalidJson: (message) =>
    invalid(
      `We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. ${message})`,
    ),

  /** @param {any} body */
  validate(body) {
    if (typeof body.model !== "string") return invalid("you must provide a model parameter");
    if (!Array.isArray(body.messages))
      return invalid("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
    const messages = body.messages;
    for (const [i, message] of messages.entries()) {
      if (message?.role !== "user" && parts(message).some((part) => part?.type === "image_url")) {
        return invalid(
          `Invalid 'messages[${i}]'. Image URLs are only allowed for messages with role 'user', but this message with role '${message?.role}' contains an image URL.`,
          `messages.[${i}]`,
          "invalid_value",
        );
      }
      if (message?.role === "tool") {
        // The tool messages after an assistant message answer its calls.
        let at = i - 1;
        while (at >= 0 && messages[at]?.role === "tool") at--;
        const calls = (messages[at]?.role === "assistant" ? (messages[at].tool_calls ?? []) : []).map(
          (call) => call.id,
        );
        if (!calls.includes(message.tool_call_id)) {
          return invalid(
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
            `messages.[${i}].role`,
          );
        }
      }
      if (
        message?.role === "assistant" &&
        Array.isArray(message.tool_calls) &&
        message.tool_calls.length > 0
      ) {
        const answered = new Set();
        for (let at = i + 1; at < messages.length && messages[at]?.role === "tool"; at++) {
          answered.add(messages[at].tool_call_id);
        }
        const missing = message.tool_calls.map((call) => call.id).filter((id) => !answered.has(id));
        if (missing.length > 0) {
          return invalid(
            `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`,
            `messages.[${i}].role`,
          );
        }
      }
    }
    return undefined;
  },

  /** @param {any} body */
  view(body) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const results = messages
      .filter((message) => message?.role === "tool")
      .map((message) => ({
        text:
          typeof message.content === "string"
            ? message.content
            : parts(message)
                .map((part) => part?.text ?? "")
                .join("\n"),
      }));
    const format = body.response_format;
    return {
      tools: (body.tools ?? [])
        .filter((tool) => tool?.type === "function")
        .map((tool) => ({ name: tool.function?.name, schema: tool.function?.parameters })),
      stream: body.stream === true,
      includeUsage: body.stream_options?.include_usage === true,
      results,
      images: images(body),
      reasoningAsked: false,
      jsonSchema: format?.type === "json_schema" ? (format.json_schema?.schema ?? {}) : undefined,
    };
  },

  home: () => false,

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
   * @param {import("node:http").ServerResponse} res
   * @param {{ calls?: { id: string; name: string; args: unknown }[]; text?: string }} plan
   * @param {{ model: string; view: any; id: (prefix: string) => string; created: number }} context
   */
  async respond(res, plan, { model, view, id, created }) {
    const calls = plan.calls ?? [];
    const finish = calls.length > 0 ? "tool_calls" : "stop";
    const usage = {
      prompt_tokens: 1234,
      completion_tokens: 56,
      total_tokens: 1290,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 32,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    };
    const toolCalls = calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
    const base = { id: id("chatcmpl-"), created, model, service_tier: "default", system_fingerprint: null };
    if (!view.stream) {
      sendJson(res, 200, {
        ...base,
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: plan.text ?? null,
              refusal: null,
              annotations: [],
              ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            },
            logprobs: null,
            finish_reason: finish,
          },
        ],
        usage,
      });
      return;
    }
    const chunk = (delta, finishReason = null) => ({
      ...base,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(view.includeUsage ? { usage: null } : {}),
    });
    const chunks = [
      chunk({ role: "assistant", content: plan.text === undefined ? null : "", refusal: null }),
    ];
    if (plan.text !== undefined)
      for (const piece of pieces(plan.text, 3)) chunks.push(chunk({ content: piece }));
    for (const [index, call] of toolCalls.entries()) {
      chunks.push(
        chunk({
          tool_calls: [
            { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
          ],
        }),
      );
      for (const piece of pieces(call.function.arguments, 3)) {
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    }
    chunks.push(chunk({}, finish));
    if (view.includeUsage) chunks.push({ ...base, object: "chat.completion.chunk", choices: [], usage });
    await sendSse(res, [...chunks.map((value) => ({ data: JSON.stringify(value) })), { data: "[DONE]" }]);
  },
};
