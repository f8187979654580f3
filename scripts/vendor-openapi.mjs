/**
 * Writes test/descriptions/openai-2.3.0.json: the part of OpenAI's OpenAPI description (openai/openai-openapi,
 * `openapi.json`, info.version 2.3.0, MIT) that judges what this library emits — the chat completion, its
 * stream chunk, the Response and the Responses stream events, the error body (chat's mid-stream error), with every schema they reference — as
 * `$defs` of one JSON Schema document (references rewritten to `#/$defs/…`, prose dropped).
 *
 *   node scripts/vendor-openapi.mjs /path/to/openai-openapi/openapi.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOTS = [
  "CreateChatCompletionResponse",
  "CreateChatCompletionStreamResponse",
  "Response",
  "ResponseStreamEvent",
  "ErrorResponse",
];
const PROSE = new Set([
  "description",
  "example",
  "examples",
  "title",
  "x-oaiMeta",
  "x-oaiExpandable",
  "x-oaiTypeLabel",
]);

const source = process.argv[2];
if (source === undefined) throw new Error("usage: node scripts/vendor-openapi.mjs <openapi.json>");
const doc = JSON.parse(readFileSync(source, "utf8"));
const schemas = doc.components.schemas;
const seen = new Set();
const stack = [...ROOTS];
while (stack.length > 0) {
  const name = stack.pop();
  if (seen.has(name)) continue;
  seen.add(name);
  JSON.stringify(schemas[name], (key, value) => {
    if (key === "$ref" && typeof value === "string") stack.push(value.split("/").pop());
    return value;
  });
}
/**
 * A schema without prose, its references pointing into `$defs`; draft 2019-09's `$recursiveRef: "#"`
 * (CompoundFilter's own filters) as a plain reference to the schema it sits in.
 */
const clean = (name, schema) =>
  JSON.parse(
    JSON.stringify(schema, (key, value) => {
      if (PROSE.has(key) || key === "$recursiveAnchor") return undefined;
      if (key === "$ref" && typeof value === "string") return `#/$defs/${value.split("/").pop()}`;
      if (value !== null && typeof value === "object" && value.$recursiveRef === "#") {
        const { $recursiveRef: _, ...rest } = value;
        return { ...rest, $ref: `#/$defs/${name}` };
      }
      return value;
    }),
  );
const $defs = {};
for (const name of [...seen].sort()) $defs[name] = clean(name, schemas[name]);
const out = {
  $comment: `OpenAI's OpenAPI description ${doc.info.version} (openai/openai-openapi openapi.json, MIT: see README.md), the schemas under ${ROOTS.join(", ")} and what they reference, without prose. Written by scripts/vendor-openapi.mjs.`,
  $defs,
};
const target = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "test",
  "descriptions",
  "openai-2.3.0.json",
);
writeFileSync(target, `${JSON.stringify(out)}\n`);
console.log(`${target}: ${seen.size} schemas, ${JSON.stringify(out).length} bytes`);
