/**
 * A scripted Anthropic Messages upstream (POST /v1/messages, /v1/messages/count_tokens). It refuses
 * what the real service refuses, with its status and error body: a missing version header or
 * max_tokens, beta body fields without their `anthropic-beta` header, `temperature` with `top_p` on
 * the models that take only one, tool ids outside `^[a-zA-Z0-9_-]+$`, a `tool_use` not answered by
 * a `tool_result` in the next user message and a `tool_result` that answers none, a thinking block
 * whose signature it did not issue, and (thinking on) a tool loop whose assistant turn lost its
 * thinking block. Shapes: @anthropic-ai/sdk resources/messages (Message, RawMessageStreamEvent).
 */
import { pieces, sendJson, sendSse } from "../http.mjs";

const ID = /^[a-zA-Z0-9_-]+$/;

/** Body fields the API takes only with a beta header (what the real service answers without it). */
const BETA_FIELDS = [
  ["context_management", "context-management-2025-06-27"],
  ["mcp_servers", "mcp-client-2025-04-04"],
];

/** Models that take `temperature` or `top_p`, not both (Claude 4.5 and later). */
const ONE_SAMPLER = /^claude-(opus|sonnet|haiku)-(4-[5-9]|[5-9])/;

const error = (status, type, message) => ({
  status,
  body: { type: "error", error: { type, message }, request_id: "req_011Scripted0000000000001" },
  reason: message,
});
const invalid = (message) => error(400, "invalid_request_error", message);

/** @param {any} message */
const blocks = (message) => (Array.isArray(message?.content) ? message.content : []);

/** @param {any} block */
function resultText(block) {
  if (typeof block.content === "string") return block.content;
  return blocks(block)
    .filter((part) => part?.type === "text")
    .map((part) => part.text)
    .join("\n");
}

/** Every base64 image in the request (tool results included). @param {any} body */
function images(body) {
  const out = [];
  const visit = (list) => {
    for (const block of list) {
      if (block?.type === "image" && block.source?.type === "base64") out.push(block.source.data);
      if (block?.type === "tool_result" && Array.isArray(block.content)) visit(block.content);
    }
  };
  for (const message of body.messages ?? []) visit(blocks(message));
  return out;
}

export default {
  id: "messages",
  model: "claude-sonnet-4-6",

  /** @param {string} method @param {string} pathname */
  route(method, pathname) {
    if (method !== "POST") return undefined;
    if (pathname === "/v1/messages") return { op: "generate" };
    if (pathname === "/v1/messages/count_tokens") return { op: "count" };
    return undefined;
  },

  /** @param {import("node:http").IncomingHttpHeaders} headers */
  authorized: (headers) =>
    typeof headers["x-api-key"] === "string" || /^Bearer /.test(headers.authorization ?? ""),
  unauthorized: () => error(401, "authentication_error", "x-api-key header is required"),
  notFound: () => error(404, "not_found_error", "Not Found"),
  invalidJson: (message) => invalid(`There was an error parsing the body: ${message}`),

  /**
   * @param {any} body @param {import("node:http").IncomingHttpHeaders} headers
   * @param {{ op: string }} route @param {{ signatures: Map<string, string> }} issued
   */
  validate(body, headers, route, issued) {
    if (headers["anthropic-version"] === undefined) return invalid("anthropic-version: header is required");
    if (route.op === "generate" && body.max_tokens === undefined)
      return invalid("max_tokens: Field required");
    const betas = String(headers["anthropic-beta"] ?? "")
      .split(",")
      .map((beta) => beta.trim());
    for (const [field, beta] of BETA_FIELDS) {
      if (body[field] !== undefined && !betas.includes(beta))
        return invalid(`${field}: Extra inputs are not permitted`);
    }
    if (body.thinking?.type === "enabled" && !(body.thinking.budget_tokens >= 1024)) {
      return invalid("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
    }
    if (ONE_SAMPLER.test(String(body.model)) && body.temperature !== undefined && body.top_p !== undefined) {
      return invalid(
        "`temperature` and `top_p` cannot both be specified for this model. Please use only one.",
      );
    }
    const messages = Array.isArray(body.messages) ? body.messages : [];
    for (const [m, message] of messages.entries()) {
      for (const [b, block] of blocks(message).entries()) {
        if (block?.type === "tool_use" && !ID.test(String(block.id))) {
          return invalid(
            `messages.${m}.content.${b}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`,
          );
        }
        if (block?.type === "tool_result" && !ID.test(String(block.tool_use_id))) {
          return invalid(
            `messages.${m}.content.${b}.tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'`,
          );
        }
        // The signature covers the thinking text: both come back as they were issued.
        if (block?.type === "thinking" && issued.signatures.get(block.signature) !== block.thinking) {
          return invalid(`messages.${m}.content.${b}: Invalid \`signature\` in \`thinking\` block`);
        }
      }
    }
    // Pairing: the calls of an assistant message are answered in the next (user) message, and a
    // result answers a call of the previous one.
    const turns = messages.filter((message) => message?.role === "user" || message?.role === "assistant");
    const indexOf = (message) => messages.indexOf(message);
    for (const [t, message] of turns.entries()) {
      const previous = turns[t - 1];
      const calls = new Set(
        previous?.role === "assistant"
          ? blocks(previous)
              .filter((block) => block?.type === "tool_use")
              .map((block) => block.id)
          : [],
      );
      for (const [b, block] of blocks(message).entries()) {
        if (block?.type === "tool_result" && !calls.has(block.tool_use_id)) {
          return invalid(
            `messages.${indexOf(message)}.content.${b}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        }
      }
      if (message.role !== "assistant") continue;
      const next = turns[t + 1];
      const answered = new Set(
        blocks(next)
          .filter((block) => block?.type === "tool_result")
          .map((block) => block.tool_use_id),
      );
      const missing = blocks(message)
        .filter((block) => block?.type === "tool_use" && !answered.has(block.id))
        .map((block) => block.id);
      if (missing.length > 0 && next !== undefined) {
        return invalid(
          `messages.${indexOf(next)}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
    // Thinking on, inside a tool loop: the last assistant turn starts with its thinking block.
    const thinking = body.thinking?.type === "enabled" || body.thinking?.type === "adaptive";
    const last = turns.at(-1);
    const lastAssistant = turns.at(-2);
    if (
      thinking &&
      last?.role === "user" &&
      blocks(last).some((block) => block?.type === "tool_result") &&
      lastAssistant?.role === "assistant" &&
      blocks(lastAssistant).some((block) => block?.type === "tool_use")
    ) {
      const first = blocks(lastAssistant)[0];
      if (first?.type !== "thinking" && first?.type !== "redacted_thinking") {
        return invalid(
          `messages.${indexOf(lastAssistant)}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`,
        );
      }
    }
    return undefined;
  },

  /** @param {any} body */
  view(body) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const results = messages
      .flatMap((message) => blocks(message))
      .filter((block) => block?.type === "tool_result")
      .map((block) => ({ text: resultText(block) }));
    const thinking = body.thinking?.type === "enabled" || body.thinking?.type === "adaptive";
    return {
      tools: (body.tools ?? []).map((tool) => ({ name: tool.name, schema: tool.input_schema })),
      stream: body.stream === true,
      results,
      images: images(body),
      reasoningAsked: thinking,
      omitted: body.thinking?.display === "omitted",
      jsonSchema: body.output_config?.format?.schema ?? body.output_format?.schema,
    };
  },

  /** Whether the signature issued with the calls came back on the thinking block before them. @param {any} body @param {any} issued */
  home(body, issued) {
    for (const message of body.messages ?? []) {
      if (message?.role !== "assistant") continue;
      const list = blocks(message);
      if (!list.some((block) => block?.type === "tool_use" && issued.callIds.includes(block.id))) continue;
      const thinking = list.find((block) => block?.type === "thinking");
      return thinking?.signature === issued.value && thinking?.thinking === issued.text;
    }
    return false;
  },

  rateLimit: () => ({
    ...error(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit."),
    headers: { "retry-after": "1", "anthropic-ratelimit-requests-remaining": "0" },
  }),

  count: () => ({ input_tokens: 1234 }),

  /**
   * @param {import("node:http").ServerResponse} res
   * @param {{ reasoning?: { text: string; value: string }; calls?: { id: string; name: string; args: unknown }[]; text?: string }} plan
   * @param {{ model: string; view: any; id: (prefix: string) => string }} context
   */
  async respond(res, plan, { model, view, id }) {
    const content = [];
    if (plan.reasoning !== undefined) {
      content.push({ type: "thinking", thinking: plan.reasoning.text, signature: plan.reasoning.value });
    }
    if (plan.text !== undefined) content.push({ type: "text", text: plan.text });
    for (const call of plan.calls ?? [])
      content.push({ type: "tool_use", id: call.id, name: call.name, input: call.args });
    const stopReason = (plan.calls ?? []).length > 0 ? "tool_use" : "end_turn";
    const usage = {
      input_tokens: 1234,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 56,
    };
    const message = { id: id("msg_01"), type: "message", role: "assistant", model, content };
    if (!view.stream) {
      sendJson(res, 200, { ...message, stop_reason: stopReason, stop_sequence: null, usage });
      return;
    }
    const events = [
      {
        type: "message_start",
        message: {
          ...message,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
      { type: "ping" },
    ];
    for (const [index, block] of content.entries()) {
      if (block.type === "thinking") {
        events.push({
          type: "content_block_start",
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        });
        if (block.thinking !== "") {
          for (const piece of pieces(block.thinking, 2)) {
            events.push({
              type: "content_block_delta",
              index,
              delta: { type: "thinking_delta", thinking: piece },
            });
          }
        }
        events.push({
          type: "content_block_delta",
          index,
          delta: { type: "signature_delta", signature: block.signature },
        });
      } else if (block.type === "text") {
        events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
        for (const piece of pieces(block.text, 3)) {
          events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
        }
      } else {
        events.push({
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        });
        events.push({
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: "" },
        });
        for (const piece of pieces(JSON.stringify(block.input), 3)) {
          events.push({
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json: piece },
          });
        }
      }
      events.push({ type: "content_block_stop", index });
    }
    events.push({
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    });
    events.push({ type: "message_stop" });
    await sendSse(
      res,
      events.map((event) => ({ event: event.type, data: JSON.stringify(event) })),
    );
  },
};
