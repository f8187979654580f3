/**
 * A scripted Gemini generateContent upstream (POST /v1beta/models/{model}:generateContent,
 * :streamGenerateContent with or without ?alt=sse, :countTokens). It refuses what the real service
 * refuses, with its status and error body: a thought signature it did not issue ("Corrupted thought
 * signature."), a function-call turn not answered by as many function responses, and for a Gemini 3
 * model (the name matches gemini-3) a model step of the current turn whose first functionCall part
 * carries no thoughtSignature. Gemini 3 always issues a signature with its calls (the first
 * functionCall part of a step) and on the last part of a final answer; the thought summary is sent
 * when includeThoughts asks for it. Shapes: @google/genai (GenerateContentResponse).
 */
import { pieces, sendJson, sendSse } from "../http.mjs";

/** Gemini's documented value that skips signature validation (accepted, but it is not our state). */
const BYPASS = "skip_thought_signature_validator";

const error = (code, status, message, details) => ({
  status: code,
  body: { error: { code, message, status, ...(details === undefined ? {} : { details }) } },
  reason: message,
});
const invalid = (message) => error(400, "INVALID_ARGUMENT", message);

/** @param {any} content */
const partsOf = (content) => (Array.isArray(content?.parts) ? content.parts : []);

/** Every base64 image of the request, inside function responses too. @param {any} body */
function images(body) {
  const out = [];
  const visit = (parts) => {
    for (const part of parts) {
      if (
        typeof part?.inlineData?.data === "string" &&
        String(part.inlineData.mimeType).startsWith("image/")
      ) {
        out.push(part.inlineData.data);
      }
      if (Array.isArray(part?.functionResponse?.parts)) visit(part.functionResponse.parts);
    }
  };
  for (const content of body.contents ?? []) visit(partsOf(content));
  return out;
}

export default {
  id: "generative",
  model: "gemini-3.1-pro-preview",

  /** @param {string} method @param {string} pathname @param {URLSearchParams} search */
  route(method, pathname, search) {
    const match = /^\/v1beta\/models\/(.+):(generateContent|streamGenerateContent|countTokens)$/.exec(
      pathname,
    );
    if (method !== "POST" || match === null) return undefined;
    const model = decodeURIComponent(match[1]);
    if (match[2] === "countTokens") return { op: "count", model };
    return {
      op: "generate",
      model,
      stream: match[2] === "streamGenerateContent",
      sse: search.get("alt") === "sse",
    };
  },

  /** @param {import("node:http").IncomingHttpHeaders} headers @param {URLSearchParams} search */
  authorized: (headers, search) => typeof headers["x-goog-api-key"] === "string" || search.has("key"),
  unauthorized: () =>
    error(
      403,
      "PERMISSION_DENIED",
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    ),
  notFound: (path) => error(404, "NOT_FOUND", `The requested URL ${path} was not found on this server.`),
  invalidJson: (message) => invalid(`Invalid JSON payload received. ${message}`),

  /**
   * @param {any} body @param {unknown} _headers @param {{ op: string; model: string }} route
   * @param {{ signatures: Map<string, string> }} issued
   */
  validate(body, _headers, route, issued) {
    const contents = Array.isArray(body.contents) ? body.contents : [];
    if (contents.length === 0)
      return invalid("* GenerateContentRequest.contents: contents is not specified\n");
    for (const content of contents) {
      for (const part of partsOf(content)) {
        const signature = part?.thoughtSignature;
        if (signature !== undefined && signature !== BYPASS && !issued.signatures.has(signature)) {
          return invalid("Corrupted thought signature.");
        }
      }
    }
    for (const [i, content] of contents.entries()) {
      const calls = partsOf(content).filter((part) => part?.functionCall !== undefined).length;
      if (calls === 0) continue;
      const next = contents[i + 1];
      if (next === undefined) continue;
      const responses = partsOf(next).filter((part) => part?.functionResponse !== undefined).length;
      if (responses !== calls) {
        return invalid(
          "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
        );
      }
    }
    if (/gemini-3/.test(route.model)) {
      // The current turn: every step after the last user content without function responses (a
      // content that answers calls is a step of the turn, whatever else it holds: Gemini CLI sends
      // a picture beside the function responses it belongs to).
      let start = 0;
      contents.forEach((content, i) => {
        if (
          content?.role !== "model" &&
          !partsOf(content).some((part) => part?.functionResponse !== undefined)
        )
          start = i + 1;
      });
      for (let i = start; i < contents.length; i++) {
        const first = partsOf(contents[i]).find((part) => part?.functionCall !== undefined);
        if (contents[i]?.role === "model" && first !== undefined && first.thoughtSignature === undefined) {
          return invalid(
            `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.functionCall.name}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
          );
        }
      }
    }
    return undefined;
  },

  /** @param {any} body @param {{ model: string; stream: boolean; sse: boolean }} route */
  view(body, route) {
    const contents = Array.isArray(body.contents) ? body.contents : [];
    const results = contents
      .flatMap((content) => partsOf(content))
      .filter((part) => part?.functionResponse !== undefined)
      .map((part) => ({ text: JSON.stringify(part.functionResponse) }));
    const config = body.generationConfig ?? {};
    return {
      tools: (body.tools ?? []).flatMap((tool) =>
        (tool?.functionDeclarations ?? []).map((declaration) => ({
          name: declaration.name,
          schema: declaration.parametersJsonSchema ?? declaration.parameters,
        })),
      ),
      stream: route.stream,
      sse: route.sse,
      results,
      images: images(body),
      reasoningAsked: /gemini-3/.test(route.model),
      includeThoughts: config.thinkingConfig?.includeThoughts === true,
      jsonSchema:
        config.responseMimeType === "application/json"
          ? (config.responseJsonSchema ?? config.responseSchema ?? {})
          : undefined,
    };
  },

  /** Whether the signature issued with the calls came back on the first functionCall part. @param {any} body @param {any} issued */
  home(body, issued) {
    for (const content of body.contents ?? []) {
      const first = partsOf(content).find((part) => part?.functionCall !== undefined);
      if (content?.role === "model" && first !== undefined) return first.thoughtSignature === issued.value;
    }
    return false;
  },

  rateLimit: () => ({
    ...error(
      429,
      "RESOURCE_EXHAUSTED",
      "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
      [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1s" }],
    ),
    headers: {},
  }),

  count: () => ({ totalTokens: 1234, promptTokensDetails: [{ modality: "TEXT", tokenCount: 1234 }] }),

  /**
   * @param {import("node:http").ServerResponse} res
   * @param {{ reasoning?: { text: string; value: string }; calls?: { name: string; args: unknown }[]; text?: string; finalSignature?: string }} plan
   * @param {{ model: string; view: any; id: (prefix: string) => string }} context
   */
  async respond(res, plan, { model, view, id }) {
    const usageMetadata = {
      promptTokenCount: 1234,
      candidatesTokenCount: 56,
      totalTokenCount: 1322,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 1234 }],
      thoughtsTokenCount: 32,
    };
    const responseId = id("resp");
    const thought =
      plan.reasoning !== undefined && view.includeThoughts
        ? [{ text: plan.reasoning.text, thought: true }]
        : [];
    const calls = (plan.calls ?? []).map((call, index) => ({
      functionCall: { name: call.name, args: call.args },
      ...(index === 0 && plan.reasoning !== undefined ? { thoughtSignature: plan.reasoning.value } : {}),
    }));
    const texts = plan.text === undefined ? [] : pieces(plan.text, 2).map((text) => ({ text }));
    const finalSignature = plan.finalSignature;
    if (finalSignature !== undefined && texts.length > 0)
      texts[texts.length - 1].thoughtSignature = finalSignature;
    const chunk = (parts, done) => ({
      candidates: [
        { content: { parts, role: "model" }, ...(done ? { finishReason: "STOP" } : {}), index: 0 },
      ],
      usageMetadata,
      modelVersion: model,
      responseId,
    });
    if (!view.stream) {
      sendJson(res, 200, chunk([...thought, ...calls, ...texts], true));
      return;
    }
    const chunks = [];
    if (thought.length > 0) chunks.push(chunk(thought, false));
    if (calls.length > 0) chunks.push(chunk(calls, true));
    for (const [i, text] of texts.entries()) chunks.push(chunk([text], i === texts.length - 1));
    if (!view.sse) {
      sendJson(res, 200, chunks);
      return;
    }
    await sendSse(
      res,
      chunks.map((value) => ({ data: JSON.stringify(value) })),
      "\r\n",
    );
  },
};
