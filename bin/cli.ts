/**
 * `gateway-protocols`, the command line (package `bin`): translate, stream, validate and
 * music validate. It lives outside the library's pure modules and imports the package by name, so
 * the library's bundle never holds it.
 */
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { musicValidate, stream, translate, UsageError, validate } from "./commands";
import { help } from "./help";
import { writeError } from "./output";

const OPTIONS = {
  from: { type: "string" },
  to: { type: "string" },
  kind: { type: "string" },
  model: { type: "string" },
  status: { type: "string" },
  protocol: { type: "string" },
  strict: { type: "boolean" },
  stream: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

async function main(argv: readonly string[]): Promise<number> {
  const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    writeError(io.stderr, `${(error as Error).message} (gateway-protocols --help)`);
    return 2;
  }
  const { values: flags, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (flags.version === true) {
    const { version } = createRequire(import.meta.url)("../package.json") as { version: string };
    io.stdout.write(`${version}\n`);
    return 0;
  }
  const topic = command === "help" ? rest[0] : command;
  if (command === undefined || command === "help" || flags.help === true) {
    const text = help[topic ?? "main"];
    if (text === undefined) {
      writeError(io.stderr, `no command "${topic}": see gateway-protocols --help.`);
      return 2;
    }
    io.stdout.write(text);
    return 0;
  }
  try {
    switch (command) {
      case "translate":
        return await translate(io, flags, rest);
      case "stream":
        return await stream(io, flags, rest);
      case "validate":
        return await validate(io, flags, rest);
      case "music":
        if (rest[0] !== "validate") throw new UsageError('music has one command: "music validate [file|-]".');
        return await musicValidate(io, rest.slice(1));
      default:
        throw new UsageError(
          `unknown command "${command}": use translate, stream, validate or music validate.`,
        );
    }
  } catch (error) {
    if (error instanceof UsageError) {
      writeError(io.stderr, `${error.message} (gateway-protocols ${command} --help)`);
      return 2;
    }
    throw error;
  }
}

// A reader that stops early (`| head`) closes the pipe: stop quietly, as other command-line tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    writeError(process.stderr, error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 2;
  },
);
