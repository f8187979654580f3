/**
 * The fixed corpus: the fixture payloads of test/fixtures (index.json) plus the generated ones, each
 * built once, outside every timed body.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { conversationRequest, largeRequest, type Protocol, shortRequest, toolResponse } from "./generate";
import { textStream, toolCallStream } from "./generate-streams";

export type { Protocol } from "./generate";
export const protocols: readonly Protocol[] = ["chat", "messages", "generative", "responses"];

/** A set of JSON bodies timed together as one operation (all fixtures of a protocol, or one big body). */
export type BodySet = {
  readonly name: string;
  readonly protocol: Protocol;
  readonly bodies: readonly unknown[];
  /** The model id for generative bodies (it travels in the URL, not the body). */
  readonly models: readonly (string | undefined)[];
  readonly bytes: number;
};

/** An SSE body, with its events already parsed for the event-level measurements. */
export type StreamSet = {
  readonly name: string;
  readonly protocol: Protocol;
  /** One or more SSE bodies (all stream fixtures of a protocol, or one generated stream). */
  readonly bodies: readonly StreamBody[];
  readonly bytes: number;
  readonly events: number;
};

export type StreamBody = {
  readonly text: string;
  /** The body cut into CHUNK_BYTES pieces, as a proxy hands them over (cuts fall anywhere). */
  readonly chunks: readonly Uint8Array[];
  /** Each `data:` payload parsed; `[DONE]` stays the string "[DONE]". */
  readonly events: readonly unknown[];
  readonly bytes: number;
};

/** Input chunk size for the byte-level measurements. */
export const CHUNK_BYTES = 4096;

type FixtureEntry = { path: string; protocol: Protocol; kind: string; url?: string };

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures");
const index: FixtureEntry[] = JSON.parse(readFileSync(join(fixturesDir, "index.json"), "utf8"));
const read = (entry: FixtureEntry): string => readFileSync(join(fixturesDir, entry.path), "utf8");
/**
 * A responses request that continues a stored response translates only with its history
 * (options.history): such fixtures are timed by no translation and left out.
 */
const continues = (entry: FixtureEntry): boolean => {
  if (entry.protocol !== "responses" || entry.kind !== "request") return false;
  const body = JSON.parse(read(entry)) as { previous_response_id?: unknown; conversation?: unknown };
  return typeof body.previous_response_id === "string" || body.conversation != null;
};

const fixtures = (kind: string, protocol: Protocol): FixtureEntry[] =>
  index.filter((entry) => entry.kind === kind && entry.protocol === protocol && !continues(entry));

const encoder = new TextEncoder();
const byteLength = (text: string): number => encoder.encode(text).byteLength;

/** The model id of a generative fixture, from its URL (`/models/{model}:method`). */
function modelOf(entry: FixtureEntry): string | undefined {
  const match = /\/models\/([^?:]+):[A-Za-z]+/.exec(entry.url ?? "");
  return match?.[1];
}

/** The `data:` payloads by a deliberately plain reading (not a parser under test). */
export function dataPayloads(body: string): string[] {
  const payloads: string[] = [];
  let data: string[] = [];
  for (const line of body.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length > 0) payloads.push(data.join("\n"));
      data = [];
    } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (data.length > 0) payloads.push(data.join("\n"));
  return payloads;
}

function streamBody(text: string): StreamBody {
  const bytes = encoder.encode(text);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES)
    chunks.push(bytes.subarray(at, at + CHUNK_BYTES));
  const events = dataPayloads(text).map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
  return { text, chunks, events, bytes: bytes.byteLength };
}

function bodySet(
  name: string,
  protocol: Protocol,
  bodies: unknown[],
  models?: (string | undefined)[],
): BodySet {
  const fallback = protocol === "generative" ? "gemini-2.5-flash" : undefined;
  return {
    name,
    protocol,
    bodies,
    models: models ?? bodies.map(() => fallback),
    bytes: bodies.reduce<number>((sum, body) => sum + byteLength(JSON.stringify(body)), 0),
  };
}

function streamSet(name: string, protocol: Protocol, texts: string[]): StreamSet {
  const bodies = texts.map(streamBody);
  return {
    name,
    protocol,
    bodies,
    bytes: bodies.reduce((sum, body) => sum + body.bytes, 0),
    events: bodies.reduce((sum, body) => sum + body.events.length, 0),
  };
}

/** The request bodies of a protocol: its fixtures, a short request, the 20-exchange conversation and the ~200 KB request. */
export function requestSets(protocol: Protocol): BodySet[] {
  const entries = fixtures("request", protocol);
  return [
    bodySet(
      `fixtures (${entries.length})`,
      protocol,
      entries.map((entry) => JSON.parse(read(entry))),
      entries.map((entry) =>
        protocol === "generative" ? (modelOf(entry) ?? "gemini-2.5-flash") : undefined,
      ),
    ),
    bodySet("short request", protocol, [shortRequest(protocol)]),
    bodySet("20-turn conversation", protocol, [conversationRequest(protocol)]),
    bodySet("200 KB request", protocol, [largeRequest(protocol)]),
  ];
}

/** The response bodies of a protocol: its fixtures and a generated response with parallel tool calls. */
export function responseSets(protocol: Protocol): BodySet[] {
  const entries = fixtures("response", protocol);
  return [
    bodySet(
      `fixtures (${entries.length})`,
      protocol,
      entries.map((entry) => JSON.parse(read(entry))),
    ),
    bodySet("text + 3 tool calls", protocol, [toolResponse(protocol)]),
  ];
}

/** The streams of a protocol: its `.sse` fixtures, a 5,000-delta text stream and a tool-call stream. */
export function streamSets(protocol: Protocol): StreamSet[] {
  const entries = fixtures("stream", protocol).filter((entry) => entry.path.endsWith(".sse"));
  return [
    streamSet(`fixtures (${entries.length})`, protocol, entries.map(read)),
    streamSet("5,000-event text", protocol, [textStream(protocol)]),
    streamSet("tool-call stream", protocol, [toolCallStream(protocol)]),
  ];
}
