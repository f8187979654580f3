/**
 * Issue 29's law: reasoning state an upstream issued (Anthropic thinking signatures and redacted
 * thinking, Gemini thought signatures, Responses encrypted reasoning) rides through a client of another
 * protocol and comes home byte-identical on that client's next request, and never reaches a third
 * protocol. The client echoes its answer the way the real agents do (Gemini CLI drops thought parts).
 * Chat issues no opaque state of its own: it is a client here, never an issuer.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  accumulate,
  createStreamTranslator,
  type Loss,
  type Protocol,
  protocols,
  replay,
  translateRequest,
  translateResponse,
} from "../../src/index";
import { arbitraries } from "../../src/testing/index";
import { runs } from "../helpers/tier";

type Json = Record<string, unknown>;
const issuers = ["messages", "generative", "responses"] as const;
type Issuer = (typeof issuers)[number];

const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** The opaque state in an issuer's blocks, parts or items (an answer's, or a request's assistant turns). */
function stateIn(issuer: Issuer, blocks: readonly Json[]): string[] {
  const out: string[] = [];
  for (const block of blocks) {
    const found =
      issuer === "messages"
        ? block.type === "thinking"
          ? text(block.signature)
          : block.type === "redacted_thinking"
            ? text(block.data)
            : undefined
        : issuer === "generative"
          ? text(block.thoughtSignature)
          : block.type === "reasoning"
            ? text(block.encrypted_content)
            : undefined;
    // An empty signature signs nothing; the documented Gemini sentinel is no state either.
    if (found !== undefined && found !== "" && found !== "skip_thought_signature_validator") out.push(found);
  }
  return out;
}

/** The state an issuer's whole response holds. */
function responseState(issuer: Issuer, response: Json): string[] {
  if (issuer === "messages") return stateIn(issuer, list(response.content));
  if (issuer === "generative") {
    const content = list(response.candidates)[0]?.content as Json | undefined;
    return stateIn(issuer, list(content?.parts));
  }
  return stateIn(issuer, list(response.output));
}

/** The state of a request's assistant turns, as the issuer reads them. */
function requestState(issuer: Issuer, request: Json): string[] {
  if (issuer === "messages")
    return list(request.messages)
      .filter((message) => message.role === "assistant")
      .flatMap((message) => stateIn(issuer, list(message.content)));
  if (issuer === "generative")
    return list(request.contents)
      .filter((content) => content.role === "model")
      .flatMap((content) => stateIn(issuer, list(content.parts)));
  return stateIn(issuer, list(request.input));
}

/** The opaque state a chat request holds: OpenRouter reasoning_details and Gemini's extra_content. */
function chatState(request: Json): string[] {
  const out: string[] = [];
  for (const message of list(request.messages)) {
    for (const detail of list(message.reasoning_details))
      for (const key of ["signature", "data"]) {
        const found = text(detail[key]);
        if (found !== undefined) out.push(found);
      }
    for (const call of list(message.tool_calls)) {
      const google = (call.extra_content as Json | undefined)?.google as Json | undefined;
      const found = text(google?.thought_signature);
      if (found !== undefined) out.push(found);
    }
  }
  return out;
}

/** The client's next request: its answer echoed as the agents do, each call answered, a new question. */
function nextRequest(client: Protocol, answer: Json): Json {
  switch (client) {
    case "chat": {
      const message = list(answer.choices)[0]?.message as Json;
      const results = list(message.tool_calls).map((call) => ({
        role: "tool",
        tool_call_id: call.id,
        content: "ok",
      }));
      return {
        model: "m",
        messages: [{ role: "user", content: "go" }, message, ...results, { role: "user", content: "next" }],
      };
    }
    case "messages": {
      const content = list(answer.content);
      const results = content
        .filter((block) => block.type === "tool_use")
        .map((block) => ({ type: "tool_result", tool_use_id: block.id, content: "ok" }));
      return {
        model: "m",
        max_tokens: 100,
        messages: [
          { role: "user", content: "go" },
          ...(content.length === 0 ? [] : [{ role: "assistant", content }]),
          { role: "user", content: [...results, { type: "text", text: "next" }] },
        ],
      };
    }
    case "generative": {
      const content = list(answer.candidates)[0]?.content as Json | undefined;
      // Gemini CLI keeps a turn's calls and texts, not its thought parts.
      const parts = list(content?.parts).filter((part) => part.thought !== true);
      const results = parts
        .filter((part) => part.functionCall !== undefined)
        .map((part) => {
          const call = part.functionCall as Json;
          return { functionResponse: { id: call.id, name: call.name, response: { output: "ok" } } };
        });
      return {
        contents: [
          { role: "user", parts: [{ text: "go" }] },
          ...(parts.length === 0 ? [] : [{ role: "model", parts }]),
          { role: "user", parts: [...results, { text: "next" }] },
        ],
      };
    }
    case "responses": {
      const output = list(answer.output);
      const results = output
        .filter((item) => item.type === "function_call")
        .map((item) => ({ type: "function_call_output", call_id: item.call_id, output: "ok" }));
      return {
        model: "m",
        input: [{ role: "user", content: "go" }, ...output, ...results, { role: "user", content: "next" }],
      };
    }
  }
}

/** The client's answer through a stream: the issuer's events translated, accumulated as the client's SDK does. */
function streamed(
  issuer: Issuer,
  client: Protocol,
  response: Json,
  options: object,
): { value: Json; losses: Loss[] } {
  const translator = createStreamTranslator(issuer, client, options);
  const events = replay(issuer, response as never);
  const out = [...events.flatMap((event) => translator.push(event as never)), ...translator.end()];
  return { value: accumulate(client, out as never) as Json, losses: translator.losses };
}

const options = { model: "m-1", idPrefix: "gp", created: 1 };
/** Anything a carrier leaves in a body: its prefix (common/carrier.ts). */
const CARRIER = "Z3ByMQ";

describe.each(issuers)("reasoning state %s issued", (issuer) => {
  const clients = protocols.filter((protocol) => protocol !== issuer);
  test.each(clients)(
    `comes home from a %s client byte-identical, whole or streamed, and reaches no third protocol`,
    (client) => {
      fc.assert(
        fc.property(
          arbitraries.response(issuer, ["thinking", "tools"]),
          fc.boolean(),
          (response, viaStream) => {
            const issued = responseState(issuer, response as Json);
            fc.pre(issued.length > 0);
            // A failed answer streams as an error event: no answer to echo.
            fc.pre(!(viaStream && (response as Json).status === "failed"));
            const forward = viaStream
              ? streamed(issuer, client, response as Json, options)
              : translateResponse(issuer, client, response, options);
            const answer = forward.value as Json;
            const request = nextRequest(client, answer);
            const home = translateRequest(client, issuer, request, { model: "m-1", maxTokens: 100 });
            const returned = requestState(issuer, home.value as Json);
            // Chat carries state only in a tool call's id: state with no call after it, and a text's own
            // signature, are reported lost.
            const uncarried = forward.losses.filter(
              (loss) =>
                loss.code === "reasoning_state.uncarried" || loss.code === "thinking.signature.foreign",
            ).length;
            expect(returned.length + uncarried).toBeGreaterThanOrEqual(issued.length);
            for (const state of returned) expect(issued).toContain(state);
            if (uncarried === 0) expect(returned).toEqual(issued);
            // Never a third protocol: no carrier reaches one, and its state fields hold none of the state.
            for (const third of protocols.filter((protocol) => protocol !== issuer && protocol !== client)) {
              const elsewhere = translateRequest(client, third, request, {
                model: "m-1",
                maxTokens: 100,
              }).value;
              expect(JSON.stringify(elsewhere)).not.toContain(CARRIER);
              const held =
                third === "chat" ? chatState(elsewhere as Json) : requestState(third, elsewhere as Json);
              for (const state of issued) expect(held).not.toContain(state);
            }
          },
        ),
        { numRuns: runs(2000, 40) },
      );
    },
  );
});
