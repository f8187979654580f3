import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { describe, expect, test } from "vitest";
import { protocols } from "../src/index";
import { type FixtureEntry, fixtureIndex, isWired, readFixture, sseDataPayloads } from "./helpers/fixtures";

// schemas/*.json as the package ships them (npm test generates them first: see "pretest"), checked
// with a JSON Schema validator of another language's kind: the way a non-TypeScript user reads them.
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, "schemas");
if (!existsSync(join(dir, "index.json"))) throw new Error("schemas/ is missing: run `npm run build` first.");
const index: { file: string; namespace: string; name: string }[] = JSON.parse(
  readFileSync(join(dir, "index.json"), "utf8"),
);

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
const validators = new Map<string, ValidateFunction>();
function validator(file: string): ValidateFunction {
  let validate = validators.get(file);
  if (validate === undefined) {
    validate = ajv.compile(JSON.parse(readFileSync(join(dir, file), "utf8")));
    validators.set(file, validate);
  }
  return validate;
}

const SCHEMA_OF_KIND: Record<FixtureEntry["kind"], string> = {
  request: "request",
  response: "response",
  stream: "streamEvent",
  error: "errorBody",
};

/** Each value a fixture holds: the body, or every data payload of a stream (`[DONE]` as the string it is). */
function valuesOf(entry: FixtureEntry): unknown[] {
  const text = readFixture(entry);
  if (entry.kind !== "stream") return [JSON.parse(text)];
  return sseDataPayloads(text).map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

describe("schemas/*.json", () => {
  test("every protocol of the table has its four wire shapes", () => {
    for (const protocol of protocols) {
      for (const name of Object.values(SCHEMA_OF_KIND)) {
        expect(index).toContainEqual(expect.objectContaining({ file: `${protocol}.${name}.json` }));
      }
    }
  });

  test.each(index.map((entry) => entry.file))("%s compiles in strict mode", (file) => {
    expect(() => validator(file)).not.toThrow();
  });

  test.each(fixtureIndex.filter(isWired).map((entry) => [entry.path, entry] as const))(
    "the recorded fixture %s validates",
    (_, entry) => {
      const validate = validator(`${entry.protocol}.${SCHEMA_OF_KIND[entry.kind]}.json`);
      for (const value of valuesOf(entry)) {
        const ok = validate(value);
        expect(ok ? [] : validate.errors).toEqual([]);
      }
    },
  );

  test.each([
    ["chat.request.json", { model: "m", messages: "hi" }],
    ["chat.request.json", { messages: [{ role: "user", content: "hi" }] }],
    ["messages.request.json", { model: "m", max_tokens: 5, messages: [{ role: "user", content: 5 }] }],
    ["messages.streamEvent.json", { type: "content_block_delta", index: "zero", delta: {} }],
    ["generative.request.json", { contents: "hi" }],
    ["chat.streamEvent.json", "[NOT DONE]"],
    ["music.audioRequest.json", { prompt: 7 }],
  ])("%s rejects %j", (file, value) => {
    expect(validator(file)(value)).toBe(false);
  });

  test("an open union takes a type it does not know and checks the ones it knows", () => {
    const validate = validator("messages.streamEvent.json");
    expect(validate({ type: "future_event", anything: [1] })).toBe(true);
    expect(validate({ type: "content_block_stop", index: 0 })).toBe(true);
    expect(validate({ type: "content_block_stop" })).toBe(false);
    expect(validate({ kind: "content_block_stop" })).toBe(false);
  });

  test("unknown fields are allowed, as the library keeps them", () => {
    const body = { model: "m", messages: [{ role: "user", content: "hi", x_extra: 1 }], x_vendor: { a: 1 } };
    expect(validator("chat.request.json")(body)).toBe(true);
  });
});
