/**
 * What scripts/runtimes.ts compares between runtimes: the library, given as `lib` (the packed package
 * as the runtime loads it), run over a corpus — every recorded fixture translated in every direction
 * (requests, responses, errors; streams through `pipeThrough(createTranslateStream(…))` and event by
 * event), and input around the nesting limit — each result written as one JSON line. The answer is
 * the SHA-256 of all lines and a short digest per case, so a difference names its case. Plain
 * JavaScript and Web APIs only: it runs on Node, Bun, Deno and workerd alike.
 */

const OPTIONS = { model: "m", idPrefix: "gp", created: 1_700_000_000 };
const LIMIT = 512;

/** FNV-1a over the UTF-16 units of `text`, in hex: a case's short digest. */
function short(text) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** An error as data: a TranslationError's status and message, anything else by its name. */
function thrown(error) {
  if (error && typeof error === "object" && "status" in error) {
    return { name: error.name, status: error.status, message: error.message };
  }
  return { name: error?.name ?? typeof error, crash: String(error?.message ?? error) };
}

/** Which runtime this is, and whether it lets code be generated from strings (zod's compiled parsers). */
export function runtimeInfo() {
  const g = /** @type {Record<string, any>} */ (globalThis);
  let runtime = "unknown";
  if (g.Bun !== undefined) runtime = `bun ${g.Bun.version}`;
  else if (g.Deno !== undefined) runtime = `deno ${g.Deno.version.deno}`;
  else if (g.navigator?.userAgent === "Cloudflare-Workers") runtime = "workerd";
  else if (g.process?.versions?.node !== undefined) runtime = `node ${g.process.versions.node}`;
  let codegen = true;
  try {
    new Function("return 1")();
  } catch {
    codegen = false;
  }
  return { runtime, codegen };
}

/** A value `depth` containers deep, built by a loop. */
function nested(depth) {
  let node = "leaf";
  for (let level = 0; level < depth; level++) node = level % 2 === 0 ? { n: node } : [node];
  return node;
}

/** Its JSON text, by repetition (JSON.stringify overflows on some runtimes below the deepest here). */
function nestedText(depth) {
  let open = "";
  let close = "";
  for (let level = depth - 1; level >= 0; level--) {
    open += level % 2 === 0 ? '{"n":' : "[";
    close = (level % 2 === 0 ? "}" : "]") + close;
  }
  return `${open}"leaf"${close}`;
}

/** A body that is valid for `protocol` and `kind`, carrying `value` under an unknown key at the top. */
function carrier(protocol, kind, value) {
  const request = {
    chat: { model: "m", messages: [{ role: "user", content: "hi" }] },
    messages: { model: "m", max_tokens: 16, messages: [{ role: "user", content: "hi" }] },
    generative: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
    responses: { model: "m", input: "hi" },
  };
  const response = {
    chat: {
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
    },
    messages: {
      id: "msg",
      type: "message",
      role: "assistant",
      model: "m",
      content: [{ type: "text", text: "ok" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
    generative: {
      candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }],
    },
    responses: {
      id: "r",
      object: "response",
      created_at: 1,
      status: "completed",
      model: "m",
      output: [
        {
          type: "message",
          id: "m1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "ok", annotations: [] }],
        },
      ],
    },
  };
  return { ...(kind === "request" ? request : response)[protocol], x_nested: value };
}

/** The text of a readable byte stream. */
async function textOf(stream) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

/** `text` as a byte stream in pieces of `size` bytes (a network's chunking, the same everywhere). */
function bytesOf(text, size = 61) {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
      controller.close();
    },
  });
}

/**
 * Every case of the corpus through `lib`; `{ runtime, codegen, digest, count, cases }`.
 * @param {any} lib the package's main entry, as the runtime imports it
 * @param {{ fixtures: { path: string; protocol: string; kind: string; http_status: number; text: string }[] }} corpus
 */
export async function probe(lib, corpus) {
  /** @type {[string, string][]} */
  const lines = [];
  const record = (id, run) => {
    let line;
    try {
      line = JSON.stringify({ ok: run() });
    } catch (error) {
      line = JSON.stringify({ error: thrown(error) });
    }
    lines.push([id, line]);
  };
  const recordAsync = async (id, run) => {
    let line;
    try {
      line = JSON.stringify({ ok: await run() });
    } catch (error) {
      line = JSON.stringify({ error: thrown(error) });
    }
    lines.push([id, line]);
  };
  const protocols = lib.protocols;

  for (const fixture of corpus.fixtures) {
    const from = fixture.protocol;
    if (!protocols.includes(from)) continue;
    if (fixture.kind === "stream") {
      const events = [];
      const parser = lib.sse.createParser();
      for (const message of [...parser.feed(fixture.text), ...parser.end()]) {
        if (message.data.trim() === "[DONE]") events.push(lib.chat.DONE);
        else {
          try {
            events.push(JSON.parse(message.data));
          } catch {
            events.push(message.data);
          }
        }
      }
      for (const to of protocols) {
        const id = `${fixture.path} ${from}→${to}`;
        await recordAsync(`${id} pipeThrough`, async () => {
          const losses = [];
          const transform = lib.createTranslateStream(from, to, {
            ...OPTIONS,
            onLoss: (loss) => losses.push(loss),
          });
          return { text: await textOf(bytesOf(fixture.text).pipeThrough(transform)), losses };
        });
        record(`${id} events`, () => {
          const translator = lib.createStreamTranslator(from, to, OPTIONS);
          const out = [];
          for (const event of events) out.push(...translator.push(event));
          out.push(...translator.end());
          let whole;
          try {
            whole = { ok: lib.accumulate(to, out) };
          } catch (error) {
            whole = { error: thrown(error) };
          }
          return { out, losses: translator.losses, whole };
        });
      }
      continue;
    }
    let body;
    try {
      body = JSON.parse(fixture.text);
    } catch {
      body = fixture.text;
    }
    for (const to of protocols) {
      const id = `${fixture.path} ${from}→${to}`;
      if (fixture.kind === "request") record(id, () => lib.translateRequest(from, to, body, OPTIONS));
      else if (fixture.kind === "response") {
        record(id, () => lib.translateResponse(from, to, body, OPTIONS));
      } else if (fixture.kind === "error") {
        record(id, () => lib.translateError(from, to, { status: fixture.http_status, body }));
      }
    }
    if (fixture.kind === "response") {
      record(`${fixture.path} replay`, () => {
        const events = lib.replay(from, body, OPTIONS);
        return { events, whole: lib.accumulate(from, events, OPTIONS) };
      });
    }
  }

  // Around the nesting limit, and far past it: refused or taken the same way everywhere.
  for (const depth of [LIMIT - 1, LIMIT, 5_000, 100_000]) {
    for (const from of protocols) {
      for (const kind of ["request", "response"]) {
        // The carrier is level 1: the value under it adds `depth - 1` levels.
        const body = carrier(from, kind, nested(depth - 1));
        for (const to of protocols) {
          const id = `nesting ${depth} ${kind} ${from}→${to}`;
          if (kind === "request") record(id, () => lib.translateRequest(from, to, body, OPTIONS));
          else record(id, () => lib.translateResponse(from, to, body, OPTIONS));
        }
        if (kind === "response") {
          record(`nesting ${depth} replay ${from}`, () => lib.replay(from, body, OPTIONS));
          record(`nesting ${depth} error ${from}`, () =>
            lib.translateError(from, from, { status: 400, body: { error: nested(depth - 1) } }),
          );
        }
      }
    }
    // Byte level: one event of a chat stream carrying it.
    const text = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}],"x_nested":${nestedText(depth - 1)}}\n\ndata: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`;
    for (const to of protocols) {
      await recordAsync(`nesting ${depth} stream chat→${to}`, () =>
        textOf(bytesOf(text, 4096).pipeThrough(lib.createTranslateStream("chat", to, OPTIONS))),
      );
    }
    // Tool-call arguments text nested that deep.
    const args = {
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "t", type: "function", function: { name: "f", arguments: nestedText(depth) } },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
    };
    for (const to of protocols) {
      record(`nesting ${depth} arguments chat→${to}`, () => {
        const result = lib.translateResponse("chat", to, args, OPTIONS);
        // The arguments themselves are long: their length and a digest stand for them.
        const json = JSON.stringify(result);
        return { length: json.length, digest: short(json), losses: result.losses };
      });
    }
  }

  const all = lines.map(([id, line]) => `${id}\t${line}`).join("\n");
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(all));
  const digest = [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return {
    ...runtimeInfo(),
    digest,
    count: lines.length,
    cases: Object.fromEntries(lines.map(([id, line]) => [id, short(line)])),
  };
}
