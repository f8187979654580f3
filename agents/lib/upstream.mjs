/**
 * One scripted upstream of a protocol on loopback: it validates each request the way the real
 * service does (refusing with the real status and body), answers auxiliary requests with plain text
 * (or the JSON their schema asks for), and runs the task of script.mjs on the requests that offer
 * the agent's tools. What it saw is in `state`: every request, the first refusal, and the task's
 * turns (results, picture, whether the reasoning state it issued came home byte-identical).
 */
import { createHash } from "node:crypto";
import { listen, readBody, sendJson } from "./http.mjs";
import { isTaskImage } from "./png.mjs";
import { FINAL_TEXT, instanceOf, NOTE_TOKEN, plannedCalls, THINKING_TEXT } from "./script.mjs";
import chat from "./upstreams/chat.mjs";
import generative from "./upstreams/generative.mjs";
import messages from "./upstreams/messages.mjs";
import responses from "./upstreams/responses.mjs";

export const UPSTREAMS = { chat, messages, generative, responses };

/** Opaque bytes that look like the provider's (base64 of a hash chain), the same for the same seed. @param {string} seed @param {number} bytes */
function opaque(seed, bytes) {
  const chunks = [];
  let block = Buffer.from(seed);
  while (Buffer.concat(chunks).length < bytes) {
    block = createHash("sha256").update(block).digest();
    chunks.push(block);
  }
  return Buffer.concat(chunks).subarray(0, bytes).toString("base64");
}

const SECRET = /^(authorization|x-api-key|x-goog-api-key|api-key|cookie|proxy-authorization)$/i;

/** Headers without credentials. @param {import("node:http").IncomingHttpHeaders} headers */
export function redact(headers) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET.test(name) ? "<redacted>" : Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/**
 * @param {{ protocol: keyof typeof UPSTREAMS; workdir: string; seed: string; rateLimitOnce?: boolean }} options
 */
export async function startUpstream({ protocol, workdir, seed, rateLimitOnce = false }) {
  const wire = UPSTREAMS[protocol];
  let counter = 0;
  const id = (/** @type {string} */ prefix) => `${prefix}Scripted${String(++counter).padStart(4, "0")}`;
  const state = {
    protocol,
    /** @type {any[]} */
    requests: [],
    /** @type {{ n: number; status: number; reason: string } | undefined} */
    refused: undefined,
    issued: {
      signatures: new Map(),
      encrypted: new Set(),
      reasoningIds: new Set(),
      compactions: new Map(),
      responses: new Map(),
    },
    rateLimited: false,
    task: {
      /** @type {any} */
      reasoning: undefined,
      /** @type {"home" | "lost" | undefined} the reasoning state in the first request that answered the calls */
      back: undefined,
      /** @type {any[]} */
      turns: [],
    },
  };

  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://upstream");
    const raw = (await readBody(req)).toString("utf8");
    const entry = {
      n: state.requests.length + 1,
      method: req.method,
      path: url.pathname + url.search,
      headers: redact(req.headers),
      kind: "",
      status: 200,
    };
    state.requests.push(entry);
    /** @param {{ status: number; body: unknown; reason?: string; headers?: Record<string, string> }} answer @param {string} kind */
    const fail = (answer, kind) => {
      entry.kind = kind;
      entry.status = answer.status;
      entry.reason = answer.reason;
      if (kind === "refused" && state.refused === undefined)
        state.refused = { n: entry.n, status: answer.status, reason: answer.reason ?? "" };
      sendJson(res, answer.status, answer.body, answer.headers ?? {});
    };
    const route = wire.route(req.method ?? "GET", url.pathname, url.searchParams);
    if (route === undefined) return fail(wire.notFound(url.pathname), "refused");
    if (!wire.authorized(req.headers, url.searchParams)) return fail(wire.unauthorized(), "refused");
    /** @type {any} */
    let body;
    try {
      body = JSON.parse(raw);
    } catch (error) {
      return fail(wire.invalidJson(String(error)), "refused");
    }
    entry.body = body;
    if (route.op === "count") {
      entry.kind = "count";
      return sendJson(res, 200, wire.count(body));
    }
    const model = route.model ?? String(body.model ?? "");
    const view = wire.view(body, route);
    entry.stream = view.stream;
    const calls = plannedCalls(view.tools, workdir);
    // Whether the reasoning state came home is read from the first request that answers the
    // calls, refused or not.
    if (
      calls !== undefined &&
      view.results.length > 0 &&
      state.task.back === undefined &&
      state.task.reasoning !== undefined
    ) {
      state.task.back = wire.home(body, state.task.reasoning) ? "home" : "lost";
    }
    const refusal = wire.validate(body, req.headers, { ...route, model }, state.issued);
    if (refusal !== undefined) return fail(refusal, "refused");

    const created = 1795000000 + entry.n;
    const context = { model, view, body, id, created, issued: state.issued };
    if (route.op === "compact") {
      entry.kind = "compact";
      return sendJson(res, 200, wire.compact(body, context));
    }
    if (calls === undefined) {
      entry.kind = "aux";
      const text = view.jsonSchema === undefined ? "OK" : JSON.stringify(instanceOf(view.jsonSchema));
      return wire.respond(res, { text }, context);
    }
    if (rateLimitOnce && !state.rateLimited) {
      state.rateLimited = true;
      return fail(wire.rateLimit(), "rate-limited");
    }
    const first = view.results.length === 0;
    const asked = state.task.turns.filter((turn) => turn.n === 1).length;
    if (first && asked < 3) {
      // Turn 1: reasoning state and two parallel calls.
      entry.kind = "task-1";
      /** @type {any} */
      let reasoning;
      if (view.reasoningAsked) {
        const tag = `${seed}/${entry.n}`;
        if (protocol === "messages") {
          const value = opaque(`signature:${tag}`, 240);
          const text = view.omitted ? "" : THINKING_TEXT;
          state.issued.signatures.set(value, text);
          reasoning = { kind: "thinking signature", value, text };
        } else if (protocol === "generative") {
          const value = opaque(`thought:${tag}`, 180);
          const final = opaque(`thought-final:${tag}`, 120);
          state.issued.signatures.set(value, "");
          state.issued.signatures.set(final, "");
          reasoning = { kind: "thoughtSignature", value, final, text: THINKING_TEXT };
        } else {
          const reasoningId = id("rs_");
          const value = view.encrypted
            ? `gAAAAAB${opaque(`encrypted:${tag}`, 300).replaceAll("+", "-").replaceAll("/", "_")}`
            : undefined;
          state.issued.reasoningIds.add(reasoningId);
          if (value !== undefined) state.issued.encrypted.add(value);
          reasoning = {
            kind: value === undefined ? "reasoning item id" : "encrypted_content",
            id: reasoningId,
            value,
            text: THINKING_TEXT,
          };
        }
      }
      const planned = calls.map((call) => ({
        ...call,
        id: id(protocol === "messages" ? "toolu_01" : "call_"),
        itemId: id("fc_"),
      }));
      if (reasoning !== undefined) reasoning.callIds = planned.map((call) => call.id);
      state.task.reasoning = reasoning;
      state.task.turns.push({
        n: 1,
        stream: view.stream,
        reasoning: reasoning?.kind ?? "none",
        calls: planned.map((call) => call.name),
      });
      const { final: _final, callIds: _ids, ...sent } = reasoning ?? {};
      return wire.respond(
        res,
        { reasoning: reasoning === undefined ? undefined : sent, calls: planned },
        context,
      );
    }
    // Turn 2 (and any later turn): check what came back, then the final answer.
    entry.kind = first ? "task-1 (no results after 3 tries)" : "task-2";
    const issued = state.task.reasoning;
    const home =
      issued === undefined
        ? view.reasoningAsked
          ? "not issued"
          : "not asked"
        : wire.home(body, issued)
          ? "home"
          : "lost";
    state.task.turns.push({
      n: 2,
      stream: view.stream,
      results: view.results.length,
      note: view.results.some((result) => result.text.includes(NOTE_TOKEN)),
      image: view.images.some(isTaskImage),
      reasoning: home,
    });
    return wire.respond(res, { text: FINAL_TEXT, finalSignature: issued?.final }, context);
  });
  return { ...server, state };
}
