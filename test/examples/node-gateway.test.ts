/**
 * examples/node-gateway.mjs as a user runs it: a child process on loopback in front of a scripted
 * upstream that serves recorded fixtures, driven by the official client SDKs of the three protocols.
 * One gateway per upstream protocol; every client against every upstream.
 */
import Anthropic from "@anthropic-ai/sdk";
import { ApiError, type GenerateContentResponse, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Answer, answerOf } from "./answers";
import { type Gateway, startGateway } from "./spawn";
import { ANSWERS, errorAnswer, MESSAGES_RATE_LIMIT, startUpstream, type UpstreamProtocol } from "./upstream";

const UPSTREAMS: UpstreamProtocol[] = ["chat", "messages", "generative", "responses"];

const TOOLS = {
  name: "get_user_country",
  description: "The user's country",
  parameters: { type: "object" as const, properties: { city: { type: "string" } } },
};

/** What each client SDK sees, normalised to an Answer. */
type Client = {
  create(model: string, tools: boolean): Promise<Answer>;
  stream(model: string, tools: boolean): Promise<Answer>;
  errorClass: {
    rateLimit: new (...args: never[]) => Error;
    badRequest: new (...args: never[]) => Error;
    /** What the SDK raises for an error event in a stream. */
    stream: new (
      ...args: never[]
    ) => Error;
  };
};

function openaiClient(url: string): Client {
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${url}/v1`, maxRetries: 0 });
  const request = (model: string, tools: boolean) => ({
    model,
    messages: [{ role: "user" as const, content: "Where am I?" }],
    ...(tools ? { tools: [{ type: "function" as const, function: TOOLS }] } : {}),
  });
  return {
    async create(model, tools) {
      const completion = await client.chat.completions.create(request(model, tools));
      const message = completion.choices[0]?.message;
      return {
        text: message?.content ?? "",
        calls: (message?.tool_calls ?? []).map((call) =>
          call.type === "function"
            ? { name: call.function.name, args: JSON.parse(call.function.arguments) }
            : { name: "", args: null },
        ),
      };
    },
    async stream(model, tools) {
      let text = "";
      const calls = new Map<number, { name: string; args: string }>();
      for await (const chunk of await client.chat.completions.create({
        ...request(model, tools),
        stream: true,
      })) {
        const delta = chunk.choices[0]?.delta;
        text += delta?.content ?? "";
        for (const call of delta?.tool_calls ?? []) {
          const open = calls.get(call.index) ?? { name: "", args: "" };
          open.name += call.function?.name ?? "";
          open.args += call.function?.arguments ?? "";
          calls.set(call.index, open);
        }
      }
      return {
        text,
        calls: [...calls.values()].map((call) => ({ name: call.name, args: JSON.parse(call.args) })),
      };
    },
    errorClass: {
      rateLimit: OpenAI.RateLimitError,
      badRequest: OpenAI.BadRequestError,
      stream: OpenAI.APIError,
    },
  };
}

function anthropicClient(url: string): Client {
  const client = new Anthropic({ apiKey: "sk-test", baseURL: url, maxRetries: 0 });
  const request = (model: string, tools: boolean) => ({
    model,
    max_tokens: 256,
    messages: [{ role: "user" as const, content: "Where am I?" }],
    ...(tools
      ? { tools: [{ name: TOOLS.name, description: TOOLS.description, input_schema: TOOLS.parameters }] }
      : {}),
  });
  const answer = (message: Anthropic.Message): Answer => ({
    text: message.content.map((block) => (block.type === "text" ? block.text : "")).join(""),
    calls: message.content.flatMap((block) =>
      block.type === "tool_use" ? [{ name: block.name, args: block.input }] : [],
    ),
  });
  return {
    create: async (model, tools) => answer(await client.messages.create(request(model, tools))),
    stream: async (model, tools) =>
      answer(await client.messages.stream(request(model, tools)).finalMessage()),
    errorClass: {
      rateLimit: Anthropic.RateLimitError,
      badRequest: Anthropic.BadRequestError,
      stream: Anthropic.APIError,
    },
  };
}

function genaiClient(url: string): Client {
  const client = new GoogleGenAI({ apiKey: "sk-test", httpOptions: { baseUrl: url, apiVersion: "v1beta" } });
  const request = (model: string, tools: boolean) => ({
    model,
    contents: "Where am I?",
    ...(tools
      ? {
          config: {
            tools: [
              {
                functionDeclarations: [
                  {
                    name: TOOLS.name,
                    description: TOOLS.description,
                    parametersJsonSchema: TOOLS.parameters,
                  },
                ],
              },
            ],
          },
        }
      : {}),
  });
  // Read from the parts: the SDK's `text` getter warns on stderr when a response also holds calls.
  const answer = (responses: GenerateContentResponse[]): Answer => {
    const parts = responses.flatMap((response) => response.candidates?.[0]?.content?.parts ?? []);
    return {
      text: parts
        .map((part) => (part.thought !== true && typeof part.text === "string" ? part.text : ""))
        .join(""),
      calls: parts.flatMap((part) =>
        part.functionCall ? [{ name: part.functionCall.name ?? "", args: part.functionCall.args ?? {} }] : [],
      ),
    };
  };
  return {
    create: async (model, tools) => answer([await client.models.generateContent(request(model, tools))]),
    async stream(model, tools) {
      const chunks: GenerateContentResponse[] = [];
      for await (const chunk of await client.models.generateContentStream(request(model, tools)))
        chunks.push(chunk);
      return answer(chunks);
    },
    errorClass: { rateLimit: ApiError, badRequest: ApiError, stream: ApiError },
  };
}

/** The `openai` SDK's responses API: `responses.create`, and `responses.stream(...).finalResponse()`. */
function responsesClient(url: string): Client {
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${url}/v1`, maxRetries: 0 });
  const request = (model: string, tools: boolean) => ({
    model,
    input: "Where am I?",
    ...(tools ? { tools: [{ type: "function" as const, ...TOOLS, strict: false }] } : {}),
  });
  const answer = (response: OpenAI.Responses.Response): Answer => ({
    text: response.output_text,
    calls: response.output.flatMap((item) =>
      item.type === "function_call" ? [{ name: item.name, args: JSON.parse(item.arguments) }] : [],
    ),
  });
  return {
    create: async (model, tools) => answer(await client.responses.create(request(model, tools))),
    stream: async (model, tools) =>
      answer(await client.responses.stream(request(model, tools)).finalResponse()),
    errorClass: {
      rateLimit: OpenAI.RateLimitError,
      badRequest: OpenAI.BadRequestError,
      stream: OpenAI.APIError,
    },
  };
}

const CLIENTS: [string, (url: string) => Client][] = [
  ["openai", openaiClient],
  ["openai (responses)", responsesClient],
  ["@anthropic-ai/sdk", anthropicClient],
  ["@google/genai", genaiClient],
];

/** The message text of an upstream error fixture, wherever its protocol keeps it. */
function errorMessage(protocol: UpstreamProtocol, scenario: "rate-limit" | "bad-request"): string {
  const body = JSON.parse(errorAnswer(protocol, scenario).text) as { error: { message: string } };
  return protocol === "messages" && scenario === "rate-limit"
    ? MESSAGES_RATE_LIMIT.error.message
    : body.error.message;
}

let upstream: Awaited<ReturnType<typeof startUpstream>>;
const gateways = new Map<UpstreamProtocol, Gateway>();

beforeAll(async () => {
  upstream = await startUpstream();
  for (const protocol of UPSTREAMS) {
    gateways.set(
      protocol,
      await startGateway({
        UPSTREAM_URL: upstream.url,
        UPSTREAM_PROTOCOL: protocol,
        UPSTREAM_KEY: "sk-upstream",
      }),
    );
  }
});

afterAll(async () => {
  for (const gateway of gateways.values()) gateway.child.kill();
  await upstream?.close();
});

const gatewayOf = (protocol: UpstreamProtocol): Gateway => {
  const gateway = gateways.get(protocol);
  if (gateway === undefined) throw new Error(`no gateway for ${protocol}`);
  return gateway;
};

describe.each(UPSTREAMS)("examples/node-gateway.mjs in front of a %s upstream", (protocol) => {
  const [textWhole, textStream] = ANSWERS[protocol].text;
  const [toolWhole, toolStream] = ANSWERS[protocol].tool;

  describe.each(CLIENTS)("the %s client", (_, make) => {
    const client = () => make(gatewayOf(protocol).url);

    test("text", async () => {
      const answer = await client().create("text-model", false);
      expect(answer).toEqual(answerOf(protocol, textWhole));
      expect(answer.text).not.toBe("");
    });

    test("stream", async () => {
      const answer = await client().stream("text-model", false);
      expect(answer).toEqual(answerOf(protocol, textStream));
      expect(answer.text).not.toBe("");
    });

    test("tool call", async () => {
      const answer = await client().create("tool-model", true);
      const expected = answerOf(protocol, toolWhole);
      expect(expected.calls.length).toBeGreaterThan(0);
      expect(answer.calls).toEqual(expected.calls);
    });

    test("tool call, streamed", async () => {
      const answer = await client().stream("tool-model", true);
      const expected = answerOf(protocol, toolStream);
      expect(expected.calls.length).toBeGreaterThan(0);
      expect(answer.calls).toEqual(expected.calls);
    });

    test("429 from the upstream is the client's rate-limit error, with the upstream's message", async () => {
      const { errorClass } = client();
      const failure = await client()
        .create("rate-limit-model", false)
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(errorClass.rateLimit);
      expect(failure).toMatchObject({ status: 429 });
      expect((failure as Error).message).toContain(errorMessage(protocol, "rate-limit"));
    });

    test("400 from the upstream is the client's bad-request error, with the upstream's message", async () => {
      const { errorClass } = client();
      const failure = await client()
        .create("bad-request-model", false)
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(errorClass.badRequest);
      expect(failure).toMatchObject({ status: 400 });
      expect((failure as Error).message).toContain(errorMessage(protocol, "bad-request"));
    });

    test("an upstream reset mid-stream is the client's own stream error, and the gateway keeps serving", async () => {
      // Translated or native, the client's SDK raises its error for the error event the stream ends
      // with (not a dropped connection, not a complete-looking answer).
      const failure = await client()
        .stream("reset-model", false)
        .then(
          (answer) => answer,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(client().errorClass.stream);
      expect((failure as Error).message).toMatch(
        new RegExp(
          `The upstream ${protocol} stream failed before its finish \\(the upstream connection failed: `,
        ),
      );
      expect(gatewayOf(protocol).child.exitCode).toBeNull();
      expect((await client().create("text-model", false)).text).toBe(answerOf(protocol, textWhole).text);
    });
  });

  test("the upstream received the upstream protocol's request, with the upstream key", () => {
    const seen = upstream.received.filter((request) =>
      protocol === "generative"
        ? request.path.startsWith("/v1beta/")
        : request.path === ANSWERS_PATH[protocol],
    );
    expect(seen.length).toBeGreaterThan(0);
    const key = {
      chat: "authorization",
      messages: "x-api-key",
      generative: "x-goog-api-key",
      responses: "authorization",
    }[protocol];
    for (const request of seen) expect(request.headers[key]).toContain("sk-upstream");
  });
});

const ANSWERS_PATH: Record<UpstreamProtocol, string> = {
  chat: "/v1/chat/completions",
  messages: "/v1/messages",
  generative: "/v1beta/models",
  responses: "/v1/responses",
};

describe("the example gateway's own answers", () => {
  test("a model without the endpoint: /v1/embeddings is refused in the chat shape (models.route)", async () => {
    const client = new OpenAI({
      apiKey: "sk-test",
      baseURL: `${gatewayOf("messages").url}/v1`,
      maxRetries: 0,
    });
    const failure = await client.embeddings.create({ model: "text-model", input: "hi" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain("does not support POST /v1/embeddings");
  });

  test("the model lists answer in each client's format", async () => {
    const gateway = await startGateway({
      UPSTREAM_URL: upstream.url,
      UPSTREAM_PROTOCOL: "messages",
      UPSTREAM_MODEL: "text-model",
    });
    try {
      const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      expect((await openai.models.list()).data.map((model) => model.id)).toEqual(["text-model"]);
      const anthropic = new Anthropic({ apiKey: "sk-test", baseURL: gateway.url, maxRetries: 0 });
      expect((await anthropic.models.list()).data.map((model) => model.id)).toEqual(["text-model"]);
      const genai = new GoogleGenAI({
        apiKey: "sk-test",
        httpOptions: { baseUrl: gateway.url, apiVersion: "v1beta" },
      });
      const listed = [];
      for await (const model of await genai.models.list()) listed.push(model.name);
      expect(listed).toEqual(["models/text-model"]);
      // UPSTREAM_MODEL replaces the client's model upstream.
      const before = upstream.received.length;
      await openai.chat.completions.create({
        model: "anything",
        messages: [{ role: "user", content: "hi" }],
      });
      expect(upstream.received.slice(before)).toMatchObject([
        { path: "/v1/messages", body: { model: "text-model" } },
      ]);
    } finally {
      gateway.child.kill();
    }
  });

  test("a wrong method is 405 in the client's shape", async () => {
    const response = await fetch(`${gatewayOf("chat").url}/v1/messages`, { headers: { "x-api-key": "k" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });

  test("an unknown UPSTREAM_PROTOCOL stops the gateway with an error naming the valid ones", async () => {
    await expect(startGateway({ UPSTREAM_URL: upstream.url, UPSTREAM_PROTOCOL: "openai" })).rejects.toThrow(
      /UPSTREAM_PROTOCOL "openai" is not one of the protocols: use one of chat, messages, generative, responses/,
    );
  });
});
