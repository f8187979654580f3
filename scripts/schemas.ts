/**
 * Writes a JSON Schema (draft 2020-12) for every wire shape into schemas/, for users in other
 * languages: each protocol's request, response, stream event and error body from the protocol table
 * (a new protocol's appear without a change here), and every schema of the embeddings, models and
 * music namespaces. Run by `npm run build` and before the tests; schemas/index.json lists the files.
 *
 *   tsx scripts/schemas.ts [outDir]     (default: schemas/)
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod/v4";
import { embeddings, models, music } from "../src/index";
import { adapters, protocols } from "../src/protocols";
import { openUnionOf } from "../src/validate/accepts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = resolve(process.argv[2] ?? join(root, "schemas"));
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };

type JsonSchema = Record<string, unknown>;

/**
 * zod's JSON Schema of an input shape. An open union (messages content blocks and stream events: a
 * known `type` must match its schema, any other `type` passes) is a refinement zod cannot express,
 * so it is written out here: `if` the type is a known one, `then` the known schema.
 */
function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
    override(context) {
      const open = openUnionOf(context.zodSchema as unknown as z.ZodType);
      if (open === undefined) return;
      const { $schema: _, ...known } = toJsonSchema(open.known);
      for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
      Object.assign(context.jsonSchema, {
        type: "object",
        properties: { type: { type: "string" } },
        required: ["type"],
        if: { properties: { type: { enum: [...open.names] } } },
        // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, in plain data
        then: known,
      });
    },
  });
}

// The public name of each schema an adapter carries (API.md: `chat.streamEvent`, `messages.errorBody`, ...).
const ADAPTER_NAMES = {
  request: "request",
  response: "response",
  event: "streamEvent",
  errorBody: "errorBody",
};

type Entry = { file: string; namespace: string; name: string; what: string };
const entries: { entry: Entry; schema: z.ZodType }[] = [];

for (const protocol of protocols) {
  for (const [key, name] of Object.entries(ADAPTER_NAMES)) {
    const schema = adapters[protocol].schemas[key as keyof typeof ADAPTER_NAMES] as z.ZodType;
    const what =
      key === "event"
        ? "one stream event (an SSE data payload)"
        : `a ${name === "errorBody" ? "error body" : name}`;
    entries.push({
      entry: {
        file: `${protocol}.${name}.json`,
        namespace: protocol,
        name,
        what: `the ${protocol} protocol: ${what}`,
      },
      schema,
    });
  }
}
for (const [namespace, members] of Object.entries({ embeddings, models, music })) {
  for (const [name, value] of Object.entries(members)) {
    if (!(value instanceof z.ZodType)) continue;
    entries.push({
      entry: { file: `${namespace}.${name}.json`, namespace, name, what: `${namespace}.${name}` },
      schema: value,
    });
  }
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
for (const { entry, schema } of entries) {
  const { $schema, ...rest } = toJsonSchema(schema);
  const document = {
    $schema,
    title: `${entry.namespace}.${entry.name}`,
    description: `gateway-protocols ${version}: ${entry.what}. Generated from the library's zod schema; unknown fields are allowed, as the library keeps them.`,
    ...rest,
  };
  writeFileSync(join(outDir, entry.file), `${JSON.stringify(document, null, 2)}\n`);
}
writeFileSync(
  join(outDir, "index.json"),
  `${JSON.stringify(
    entries.map(({ entry }) => entry),
    null,
    2,
  )}\n`,
);
