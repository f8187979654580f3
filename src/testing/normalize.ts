/**
 * What "equal" ignores when two translations are compared. Every line here weakens a law, so each
 * says why it is sound.
 */

type Json = unknown;

// A synthesized id, alone or inside an item id derived from it (responses `fc_gp_gp_resp_<digest>_0`),
// or carrying reasoning state after it (a chat tool call id, `<id>~<carrier>`: common/carrier.ts).
const SYNTHESIZED_ID =
  /^((?:[a-z]+_gp_)?gp_(?:chatcmpl|msg|resp))_[0-9a-z]{11}((?:_\d+)?(?:~Z3ByMQ[A-Za-z0-9+/=]*)?)$/;

/**
 * Puts a payload in the form two equivalent translations share, for comparing them: -0 is 0,
 * `undefined` and `stream: false` are absent, synthesized ids are one placeholder, string content is
 * one text part, empty texts and reasoning are nothing, adjacent texts are joined, tool-call
 * arguments are compared as parsed JSON, consecutive same-role turns are one. The round-trip and
 * commutation laws compare through it; it returns a new value and never mutates its input.
 * @param value - any JSON value (a request, response or list of events)
 * @returns the value in normal form
 * @example
 * normalize({ stream: false, messages: [{ role: "user", content: "Hi" }] });
 * // => { messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }] }
 */
export function normalize(value: Json): Json {
  if (Array.isArray(value)) return value.map(normalize);
  // -0 and 0 are one JSON number: text arguments (chat) print -0 as 0.
  if (Object.is(value, -0)) return 0;
  // An id the input lacked is derived from a digest of what the translation saw (common/digest.ts): a
  // stream's from its first event (the id goes out with the first event), a response's from the whole
  // body. Both are `<prefix>_<kind>_<digest>`; which digest is not part of the answer.
  if (typeof value === "string") return value.replace(SYNTHESIZED_ID, "$1_<digest>$2");
  if (value === null || typeof value !== "object") return value;
  let object = value as Record<string, Json>;
  // A responses input or output text part of text only is a text part (chat and messages write `text`).
  if ((object.type === "input_text" || object.type === "output_text") && isTextOnly(object))
    return { type: "text", text: object.text };
  // responses `instructions` is the request's system prompt: the same as a system message at the head of
  // `input` (the two differ only in what a later request's previous_response_id carries over, a state
  // a stateless translation never has).
  if (typeof object.instructions === "string" && Array.isArray(object.input)) {
    const { instructions, input, ...rest } = object;
    object = { ...rest, input: [{ role: "system", content: instructions }, ...(input as Json[])] };
  }
  const out: Record<string, Json> = {};
  for (const key of Object.keys(object).sort()) {
    const item = object[key];
    // Absent and undefined are the same on the wire (JSON.stringify drops undefined).
    if (item === undefined) continue;
    // An empty tool list offers no tools, as no list does.
    if (key === "tools" && Array.isArray(item) && item.length === 0) continue;
    // A responses input message says the same with or without `type: "message"` (EasyInputMessage).
    if (key === "type" && item === "message" && typeof object.role === "string") continue;
    // `strict: false` is the default of a chat function and a messages tool: it says the same as no
    // `strict`. Not of a responses function tool (`type: "function"` beside it), whose default is strict.
    if (key === "strict" && item === false && object.type !== "function") continue;
    // An empty `metadata` (chat, messages, responses) attaches nothing, and an empty messages
    // `output_config` configures nothing: each says what no such field says.
    if ((key === "metadata" || key === "output_config") && isEmptyObject(item)) continue;
    // `store` (chat's stored completions, responses' stored responses) says whether the provider keeps
    // the exchange for later requests; it changes no answer (as `include` of the encrypted reasoning),
    // and a stateless translation toward a protocol without it cannot carry it back.
    if (key === "store" && typeof item === "boolean") continue;
    // A function's parameters of the empty object schema take no arguments, as no parameters do (chat
    // writes the empty schema for a tool without one).
    if (key === "parameters" && isEmptyObjectSchema(item)) continue;
    // Choosing no tool where no tool is offered says what no tool choice says.
    if (key === "tool_choice" && isNoTool(item) && (object.tools === undefined || isEmptyList(object.tools)))
      continue;
    // `service_tier: "auto"` is the default of chat, messages and responses: it asks what no tier asks.
    if (key === "service_tier" && item === "auto") continue;
    // responses `truncation: "disabled"` is the service's default: it says what no `truncation` says.
    if (key === "truncation" && item === "disabled") continue;
    // messages `thinking.display: "summarized"` returns the thinking text as thinking did before `display`
    // existed: a translation that asks for the thoughts explicitly (generative `includeThoughts: true`),
    // where the input relied on that behaviour, asks for what the input got.
    if (key === "display" && item === "summarized" && typeof object.type === "string") continue;
    // An empty list of stop sequences stops on nothing, as no list does.
    if ((key === "stop" || key === "stop_sequences" || key === "stopSequences") && isEmptyList(item))
      continue;
    // Asking a responses service for its encrypted reasoning changes no answer, only the opaque state that
    // comes with it (which a translation toward responses asks for, to carry it home: common/carrier.ts).
    if (key === "include" && Array.isArray(item) && item.includes("reasoning.encrypted_content")) {
      const rest = item.filter((entry) => entry !== "reasoning.encrypted_content");
      if (rest.length > 0) out[key] = normalize(rest);
      continue;
    }
    // An empty `include` asks for nothing more, as no `include` does.
    if (key === "include" && isEmptyList(item)) continue;
    // `stream: false` is every protocol's default: a body that says it and one that omits it ask the same.
    if (key === "stream" && item === false) continue;
    // chat's empty `reasoning_content` (`reasoning` in the vLLM and OpenRouter dialects) is no reasoning
    // (streams carry no empty deltas).
    if ((key === "reasoning_content" || key === "reasoning") && item === "") continue;
    // A tool's empty description says nothing, as none does (generative requires the field, so a
    // translation toward it writes it empty).
    if (key === "description" && item === "" && typeof object.name === "string") continue;
    // An image's `detail: "auto"` is chat's and responses' default: it says the same as no `detail`
    // (responses requires the field, so a translation toward it writes the default).
    if (
      key === "detail" &&
      item === "auto" &&
      (object.type === "input_image" || typeof object.url === "string")
    )
      continue;
    // generative `thought: false` is the default of a part: it says the same as no `thought`.
    if (key === "thought" && item === false) continue;
    // A streamed request to chat asks for the final usage chunk (chat request encoder): the answer is the
    // same stream plus one usage chunk, which the gateway needs to report usage in the client's protocol.
    if (key === "stream_options" && object.stream === true && isUsageOnly(item)) continue;
    // chat and messages define string `content` (and messages `system`) as one text part, and an empty
    // text part says nothing (every target drops it), nor does chat's `content: null`.
    if (key === "content" || key === "system") {
      const parts = item === null ? [] : typeof item === "string" ? [{ type: "text", text: item }] : item;
      const kept = Array.isArray(parts)
        ? parts.map(normalize).filter((part) => !isEmptyText(part))
        : undefined;
      // An empty system prompt is no system prompt.
      if (key === "system" && kept !== undefined && kept.length === 0) continue;
      // Adjacent texts of an assistant turn are one text: chat joins them.
      out[key] = kept === undefined ? normalize(parts) : object.role === "assistant" ? joinTexts(kept) : kept;
      continue;
    }
    // The same for a generative model turn of a request (its empty text parts are dropped).
    if (key === "parts" && object.role === "model" && Array.isArray(item)) {
      out[key] = joinTexts(item.map(normalize).filter((part) => JSON.stringify(part) !== '{"text":""}'));
      continue;
    }
    // In a generative answer an empty text part (or thought) says nothing either, and adjacent text parts
    // are one text (`foldParts`): a stream carries no empty deltas and splits text anywhere.
    if (key === "candidates" && Array.isArray(item)) {
      out[key] = item.map((candidate) => foldCandidate(normalize(candidate)));
      continue;
    }
    // Tool-call arguments are JSON text in chat: `{"a":1}` and `{"a": 1}` are the same arguments.
    // messages `input_json_delta` pieces (`partial_json`) likewise.
    if ((key === "arguments" || key === "partial_json") && typeof item === "string") {
      out[key] = parsedOrSame(item);
      continue;
    }
    // Consecutive user (or assistant) turns of role and content only are one turn with their parts in
    // order: messages merges them itself, and the encoders toward messages and generative merge them so.
    // responses `input` messages likewise.
    if ((key === "messages" || key === "contents" || key === "input") && Array.isArray(item)) {
      out[key] = mergeTurns(item.map(normalize), key === "contents" ? "parts" : "content");
      continue;
    }
    out[key] = normalize(item);
  }
  return out;
}

function mergeTurns(turns: Json[], parts: "content" | "parts"): Json[] {
  const merged: Record<string, Json>[] = [];
  const plain = (turn: Json): turn is Record<string, Json> & Record<typeof parts, Json[]> => {
    if (turn === null || typeof turn !== "object") return false;
    const { role, [parts]: list, ...rest } = turn as Record<string, Json>;
    return typeof role === "string" && Array.isArray(list) && Object.keys(rest).length === 0;
  };
  for (const turn of turns) {
    const previous = merged.at(-1);
    if (plain(turn) && plain(previous) && turn.role === previous.role) {
      merged[merged.length - 1] = {
        ...previous,
        [parts]: (turn.role === "assistant" || turn.role === "model" ? joinTexts : (list: Json[]) => list)([
          ...(previous[parts] ?? []),
          ...(turn[parts] ?? []),
        ]),
      };
    } else merged.push(turn as Record<string, Json>);
  }
  return merged;
}

/**
 * Adjacent generative text parts of one kind are one text: a stream splits text anywhere,
 * and a signature on the later one ends the block: `[{text:"a"},{text:"b",thoughtSignature:"S"}]`
 * says `[{text:"ab",thoughtSignature:"S"}]`.
 */
function foldParts(parts: Json[]): Json[] {
  const out: Json[] = [];
  const plain = (part: Json, extra: string[]): part is Record<string, Json> =>
    part !== null &&
    typeof part === "object" &&
    typeof (part as Record<string, Json>).text === "string" &&
    Object.keys(part).every((name) => name === "text" || name === "thought" || extra.includes(name));
  for (const part of parts) {
    const previous = out.at(-1);
    if (plain(previous, []) && plain(part, ["thoughtSignature"]) && previous.thought === part.thought) {
      out[out.length - 1] = { ...part, text: `${previous.text}${part.text}` };
    } else out.push(part);
  }
  return out;
}

function foldCandidate(candidate: Json): Json {
  const content = (candidate as { content?: { parts?: Json } } | null)?.content;
  if (content === undefined || !Array.isArray(content.parts)) return candidate;
  const empty = new Set(['{"text":""}', '{"text":"","thought":true}']);
  const parts = foldParts(content.parts.filter((part) => !empty.has(JSON.stringify(part))));
  // Model content with no parts says nothing: `{role: "model", parts: []}` is no content.
  const { content: _, ...rest } = candidate as Record<string, Json>;
  if (parts.length === 0 && Object.keys(content).every((key) => key === "role" || key === "parts"))
    return rest;
  return { ...(candidate as object), content: { ...content, parts } };
}

function joinTexts(parts: Json[]): Json[] {
  const joined: Json[] = [];
  for (const part of parts) {
    const previous = joined.at(-1);
    if (isPlainText(part) && isPlainText(previous)) {
      joined[joined.length - 1] = { ...part, text: `${previous.text}${part.text}` };
    } else joined.push(part);
  }
  return joined;
}

/** A text part with nothing else: chat/messages `{type: "text", text}`, generative `{text}`. */
function isPlainText(part: Json): part is { text: string } {
  if (part === null || typeof part !== "object") return false;
  const { type, text, ...rest } = part as Record<string, Json>;
  return (
    (type === "text" || type === undefined) && typeof text === "string" && Object.keys(rest).length === 0
  );
}

function isEmptyText(part: Json): boolean {
  if (part === null || typeof part !== "object") return false;
  const { type, text, thinking, signature } = part as Record<string, Json>;
  const size = Object.keys(part).length;
  // Empty thinking without a signature says nothing either: streams carry no empty deltas.
  if (type === "thinking") return thinking === "" && signature === "" && size === 3;
  return type === "text" && text === "" && size === 2;
}

/** `{type, text}` and at most an empty `annotations` list. */
function isTextOnly(part: Record<string, Json>): boolean {
  for (const key of Object.keys(part)) {
    if (key === "type" || key === "text") continue;
    if (key === "annotations" && Array.isArray(part.annotations) && part.annotations.length === 0) continue;
    return false;
  }
  return typeof part.text === "string";
}

function isUsageOnly(options: Json): boolean {
  if (options === null || typeof options !== "object") return false;
  const keys = Object.keys(options);
  return keys.length === 1 && (options as Record<string, Json>).include_usage === true;
}

function parsedOrSame(text: string): Json {
  try {
    return normalize(JSON.parse(text));
  } catch {
    return text;
  }
}

function isNoTool(value: Json): boolean {
  return (
    value === "none" ||
    (value !== null && typeof value === "object" && (value as { type?: unknown }).type === "none")
  );
}

function isEmptyObjectSchema(value: Json): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const { type, properties, ...rest } = value as Record<string, Json>;
  return (
    type === "object" &&
    Object.keys(rest).length === 0 &&
    (properties === undefined || isEmptyObject(properties))
  );
}

function isEmptyObject(value: Json): boolean {
  return (
    value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

function isEmptyList(value: Json): boolean {
  return Array.isArray(value) && value.length === 0;
}
