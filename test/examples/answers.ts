/**
 * What an upstream fixture says, read straight from its wire shape (not through the library): the
 * answer's text and its tool calls. The example gateway's clients must receive the same.
 */
import { sseDataPayloads } from "../helpers/fixtures";
import { fixtureText, type UpstreamProtocol } from "./upstream";

export type Answer = { text: string; calls: { name: string; args: unknown }[] };

// biome-ignore lint/suspicious/noExplicitAny: raw fixture JSON, read loosely
type Json = Record<string, any>;

/** A responses answer: the text of its message items, its function calls. */
function fromOutput(output: Json[]): Answer {
  return {
    text: output
      .filter((item) => item.type === "message")
      .flatMap((item: Json) => item.content)
      .filter((part: Json) => part.type === "output_text")
      .map((part: Json) => part.text)
      .join(""),
    calls: output
      .filter((item) => item.type === "function_call")
      .map((item) => ({ name: item.name, args: JSON.parse(item.arguments) })),
  };
}

function fromResponse(protocol: UpstreamProtocol, body: Json): Answer {
  if (protocol === "responses") return fromOutput(body.output);
  if (protocol === "chat") {
    const message = body.choices[0].message;
    return {
      text: message.content ?? "",
      calls: (message.tool_calls ?? []).map((call: Json) => ({
        name: call.function.name,
        args: JSON.parse(call.function.arguments),
      })),
    };
  }
  if (protocol === "messages") {
    return {
      text: body.content
        .filter((block: Json) => block.type === "text")
        .map((block: Json) => block.text)
        .join(""),
      calls: body.content
        .filter((block: Json) => block.type === "tool_use")
        .map((block: Json) => ({ name: block.name, args: block.input })),
    };
  }
  const parts: Json[] = body.candidates?.[0]?.content?.parts ?? [];
  return {
    text: parts
      .filter((part) => typeof part.text === "string" && part.thought !== true)
      .map((part) => part.text)
      .join(""),
    calls: parts
      .filter((part) => part.functionCall)
      .map((part) => ({ name: part.functionCall.name, args: part.functionCall.args ?? {} })),
  };
}

function fromStream(protocol: UpstreamProtocol, sse: string): Answer {
  const events = sseDataPayloads(sse)
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data) as Json);
  if (protocol === "responses") {
    // The items as they were done, in the order of their output index.
    const done = events.filter((event) => event.type === "response.output_item.done");
    return fromOutput(done.sort((a, b) => a.output_index - b.output_index).map((event) => event.item));
  }
  if (protocol === "generative") {
    const answers = events.map((event) => fromResponse("generative", event));
    return {
      text: answers.map((answer) => answer.text).join(""),
      calls: answers.flatMap((answer) => answer.calls),
    };
  }
  let text = "";
  const calls: { name: string; args: string }[] = [];
  const byIndex = new Map<number, { name: string; args: string }>();
  for (const event of events) {
    if (protocol === "chat") {
      const delta = event.choices?.[0]?.delta ?? {};
      text += delta.content ?? "";
      for (const call of delta.tool_calls ?? []) {
        let open = byIndex.get(call.index);
        if (open === undefined) {
          open = { name: call.function?.name ?? "", args: "" };
          byIndex.set(call.index, open);
          calls.push(open);
        }
        open.args += call.function?.arguments ?? "";
      }
    } else if (event.type === "content_block_start" && event.content_block.type === "tool_use") {
      const open = { name: event.content_block.name, args: "" };
      byIndex.set(event.index, open);
      calls.push(open);
    } else if (event.type === "content_block_delta") {
      if (event.delta.type === "text_delta") text += event.delta.text;
      if (event.delta.type === "input_json_delta") {
        const open = byIndex.get(event.index);
        if (open !== undefined) open.args += event.delta.partial_json;
      }
    }
  }
  return { text, calls: calls.map((call) => ({ name: call.name, args: JSON.parse(call.args || "{}") })) };
}

/** The answer of a whole-response fixture, or of a stream fixture (`.sse`). */
export function answerOf(protocol: UpstreamProtocol, path: string): Answer {
  const text = fixtureText(path);
  return path.endsWith(".sse") ? fromStream(protocol, text) : fromResponse(protocol, JSON.parse(text));
}
