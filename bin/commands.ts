/** The commands: each reads its input, writes stdout/stderr and returns the exit code. */
import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import * as library from "gateway-protocols";
import {
  type Loss,
  music,
  type Protocol,
  protocols,
  sse,
  TranslationError,
  translateError,
  translateEventStream,
  translateRequest,
  translateResponse,
} from "gateway-protocols";
import { type Sink, writeError, writeIssues, writeJson, writeLoss } from "./output";

export type Io = { readonly stdin: Readable; readonly stdout: Sink; readonly stderr: Sink };

export type Flags = {
  from?: string | undefined;
  to?: string | undefined;
  kind?: string | undefined;
  model?: string | undefined;
  status?: string | undefined;
  protocol?: string | undefined;
  strict?: boolean | undefined;
  stream?: boolean | undefined;
};

/** A mistake in how the command was called (exit 2), reported as one line. */
export class UsageError extends Error {}

/** The protocol id of an option, or a UsageError naming the valid ones. */
function protocolOf(flag: string, value: string | undefined): Protocol {
  const valid = protocols.join(", ");
  if (value === undefined) throw new UsageError(`--${flag} is required: one of ${valid}.`);
  if (!(protocols as readonly string[]).includes(value)) {
    throw new UsageError(`unknown protocol "${value}" for --${flag}: use one of ${valid}.`);
  }
  return value as Protocol;
}

function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback?: T,
): T {
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`--${flag} is required: one of ${allowed.join(", ")}.`);
  }
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`unknown --${flag} "${value}": use one of ${allowed.join(", ")}.`);
  }
  return value as T;
}

/** The input text: the named file, or stdin for `-` or no name. */
async function readInput(io: Io, positionals: readonly string[]): Promise<string> {
  if (positionals.length > 1) throw new UsageError(`one input at most, got ${positionals.join(" ")}.`);
  const name = positionals[0];
  if (name !== undefined && name !== "-") {
    try {
      return await readFile(name, "utf8");
    } catch (error) {
      throw new UsageError(`cannot read ${name}: ${(error as Error).message}`);
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** JSON text → value; `undefined` (with the reason on stderr) when it is not JSON. */
function parseJson(io: Io, text: string, what: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    writeError(io.stderr, `the ${what} is not JSON: ${(error as Error).message}`);
    return undefined;
  }
}

/** A TranslationError: its losses (strict mode, exit 1) or its issues (invalid input, exit 2). */
function reportTranslationError(io: Io, error: TranslationError): number {
  for (const loss of error.losses) writeLoss(io.stderr, loss);
  if (error.losses.length > 0) {
    writeError(io.stderr, `strict mode: ${error.losses.length} loss(es), nothing printed.`);
    return 1;
  }
  writeIssues(io.stderr, error.issues);
  writeError(io.stderr, error.message);
  return 2;
}

export async function translate(io: Io, flags: Flags, positionals: readonly string[]): Promise<number> {
  const from = protocolOf("from", flags.from);
  const to = protocolOf("to", flags.to);
  const kind = oneOf("kind", flags.kind, ["request", "response", "error"], "request");
  let status: number | undefined;
  if (kind === "error") {
    status = Number(flags.status);
    if (flags.status === undefined || !Number.isInteger(status) || status < 100 || status > 599) {
      throw new UsageError(
        "--kind error needs --status N, the HTTP status (100-599) the error body came with.",
      );
    }
  }
  const input = parseJson(io, await readInput(io, positionals), "input");
  if (input === undefined) return 2;
  const options = {
    strict: flags.strict === true,
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.stream === true ? { stream: true } : {}),
  };
  try {
    let losses: readonly Loss[];
    if (kind === "request") {
      const result = translateRequest(from, to, input.value, options);
      writeJson(io.stdout, result.value);
      losses = result.losses;
    } else if (kind === "response") {
      const result = translateResponse(from, to, input.value, options);
      writeJson(io.stdout, result.value);
      losses = result.losses;
    } else {
      const result = translateError(from, to, { status: status ?? 500, body: input.value });
      writeJson(io.stdout, { status: result.status, body: result.body });
      // API.md: translateError reports the fields of the body that did not arrive (none where it does not yet).
      losses = (result as { losses?: readonly Loss[] }).losses ?? [];
      if (options.strict && losses.length > 0) {
        for (const loss of losses) writeLoss(io.stderr, loss);
        writeError(io.stderr, `strict mode: ${losses.length} loss(es).`);
        return 1;
      }
    }
    for (const loss of losses) writeLoss(io.stderr, loss);
    return 0;
  } catch (error) {
    if (error instanceof TranslationError) return reportTranslationError(io, error);
    throw error;
  }
}

/** Writes a chunk and waits while the pipe is full. */
function write(sink: NodeJS.WritableStream, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = sink.write(chunk, (error) => {
      if (error) reject(error);
    });
    if (ok) resolve();
    else sink.once("drain", resolve);
  });
}

export async function stream(
  io: Io & { readonly stdout: NodeJS.WritableStream & Sink },
  flags: Flags,
  positionals: readonly string[],
): Promise<number> {
  const from = protocolOf("from", flags.from);
  const to = protocolOf("to", flags.to);
  if (positionals.length > 0) throw new UsageError("stream reads stdin only: pipe the SSE body in.");
  const losses: Loss[] = [];
  const onLoss = (loss: Loss): void => {
    losses.push(loss);
    writeLoss(io.stderr, loss);
  };
  // `onLoss` reports a byte stream's losses as they happen (API.md TranslateOptions).
  const options = {
    strict: flags.strict === true,
    onLoss,
    ...(flags.model !== undefined ? { model: flags.model } : {}),
  };
  const body = Readable.toWeb(io.stdin) as ReadableStream<Uint8Array>;
  const output = translateEventStream(from, to, body, options);
  try {
    for await (const chunk of output as unknown as AsyncIterable<Uint8Array>) await write(io.stdout, chunk);
  } catch (error) {
    if (!(error instanceof TranslationError)) throw error;
    for (const loss of error.losses) if (!losses.includes(loss)) onLoss(loss);
    if (error.losses.length > 0) {
      writeError(io.stderr, `strict mode: the stream stopped at a loss.`);
      return 1;
    }
    writeError(io.stderr, error.message);
    return 2;
  }
  return options.strict && losses.length > 0 ? 1 : 0;
}

type Schema = { safeParse(value: unknown): { success: boolean; error?: { issues: readonly unknown[] } } };

const KINDS = ["request", "response", "event", "stream", "error"] as const;

/** A protocol namespace's schema for a kind (every protocol namespace has these four names). */
function schemaOf(protocol: Protocol, kind: (typeof KINDS)[number]): Schema {
  const namespace = (library as unknown as Record<string, Record<string, Schema | undefined>>)[protocol];
  const name = kind === "event" || kind === "stream" ? "streamEvent" : kind === "error" ? "errorBody" : kind;
  const schema = namespace?.[name];
  if (schema === undefined) throw new UsageError(`${protocol} has no ${kind} schema.`);
  return schema;
}

export async function validate(io: Io, flags: Flags, positionals: readonly string[]): Promise<number> {
  const protocol = protocolOf("protocol", flags.protocol);
  const kind = oneOf("kind", flags.kind, KINDS);
  const schema = schemaOf(protocol, kind);
  const text = await readInput(io, positionals);
  let values: unknown[];
  if (kind === "stream") {
    const parser = sse.createParser();
    const messages = [...parser.feed(text), ...parser.end()];
    // A data line that is not JSON is checked as the string it is (chat's `[DONE]` is one).
    values = messages.map((message) => {
      try {
        return JSON.parse(message.data);
      } catch {
        return message.data;
      }
    });
  } else {
    const input = parseJson(io, text, "input");
    if (input === undefined) return 1;
    values = [input.value];
  }
  let invalid = 0;
  values.forEach((value, index) => {
    const result = schema.safeParse(value);
    if (result.success) return;
    invalid++;
    if (kind === "stream") io.stderr.write(`event ${index + 1}:\n`);
    writeIssues(io.stderr, result.error?.issues ?? []);
  });
  const what = kind === "stream" ? `${protocol} stream (${values.length} events)` : `${protocol} ${kind}`;
  if (invalid === 0) {
    io.stdout.write(`valid ${what}\n`);
    return 0;
  }
  writeError(io.stderr, `invalid ${what}${kind === "stream" ? `: ${invalid} event(s) do not match` : ""}.`);
  return 1;
}

export async function musicValidate(io: Io, positionals: readonly string[]): Promise<number> {
  const input = parseJson(io, await readInput(io, positionals), "input");
  if (input === undefined) return 1;
  const result = music.validateAudioRequest(input.value);
  if (result.ok) {
    writeJson(io.stdout, result.value);
    return 0;
  }
  writeJson(io.stderr, result.body);
  writeError(io.stderr, `invalid music audio request (HTTP ${result.status}): ${result.body.message}`);
  return 1;
}
