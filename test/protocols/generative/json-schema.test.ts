import { describe, expect, test } from "vitest";
import { fromGenerativeSchema, toGenerativeSchema } from "../../../src/protocols/generative/json-schema";

const lossList = (losses: readonly { path: string; how: string }[]) =>
  losses.map(({ path, how }) => ({ path, kind: how }));

describe("JSON Schema → generative Schema", () => {
  test("drops keywords outside the allow-list, each a loss at its pointer (T3)", () => {
    const result = toGenerativeSchema(
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        additionalProperties: false,
        properties: { n: { type: "integer", exclusiveMinimum: 0 }, title: { type: "string", const: "a" } },
        required: ["n"],
      },
      "/p",
    );
    expect(result.schema).toEqual({
      type: "object",
      properties: { n: { type: "integer" }, title: { type: "string", enum: ["a"] } },
      required: ["n"],
    });
    expect(lossList(result.losses)).toEqual([
      { path: "/p/$schema", kind: "dropped" },
      { path: "/p/additionalProperties", kind: "dropped" },
      { path: "/p/properties/n/exclusiveMinimum", kind: "dropped" },
    ]);
  });

  test("never filters property names that look like keywords", () => {
    const result = toGenerativeSchema(
      { type: "object", properties: { format: { type: "string" }, $id: { type: "number" } } },
      "",
    );
    expect(result.schema).toEqual({
      type: "object",
      properties: { format: { type: "string" }, $id: { type: "number" } },
    });
    expect(result.losses).toEqual([]);
  });

  test("inlines a local $ref keeping sibling keys, without a loss for $defs (T5)", () => {
    const result = toGenerativeSchema(
      {
        type: "object",
        $defs: { P: { type: "object", properties: { x: { type: "number" } } } },
        properties: { p: { $ref: "#/$defs/P", description: "pt" } },
      },
      "/s",
    );
    expect(result.schema).toEqual({
      type: "object",
      properties: { p: { type: "object", description: "pt", properties: { x: { type: "number" } } } },
    });
    expect(result.losses).toEqual([]);
  });

  test("a loss inside a referenced definition points into the definition", () => {
    const result = toGenerativeSchema(
      {
        definitions: { A: { type: "string", format: "uuid" } },
        type: "object",
        properties: { a: { $ref: "#/definitions/A" } },
      },
      "/s",
    );
    expect(result.schema).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(lossList(result.losses)).toEqual([{ path: "/s/definitions/A/format", kind: "dropped" }]);
  });

  test("a recursive, foreign or malformed $ref cannot be expressed: the schema goes raw, nothing lost", () => {
    const recursive = {
      $defs: { N: { type: "object", properties: { next: { $ref: "#/$defs/N" } } } },
      $ref: "#/$defs/N",
    };
    expect(toGenerativeSchema(recursive, "")).toEqual({ schema: undefined, raw: true, losses: [] });
    expect(toGenerativeSchema({ $ref: "https://x/s.json" }, "").raw).toBe(true);
    expect(toGenerativeSchema({ $ref: "#/%E0%A4%A" }, "").raw).toBe(true);
    expect(toGenerativeSchema({ $ref: "#/missing" }, "").raw).toBe(true);
  });

  test("type arrays become nullable or anyOf (T6)", () => {
    const result = toGenerativeSchema(
      { type: "object", properties: { a: { type: ["string", "null"] }, b: { type: ["string", "integer"] } } },
      "",
    );
    expect(result.schema).toEqual({
      type: "object",
      properties: {
        a: { type: "string", nullable: true },
        b: { anyOf: [{ type: "string" }, { type: "integer" }] },
      },
    });
    expect(result.losses).toEqual([]);
  });

  test("anyOf with a null member becomes the member plus nullable (T7)", () => {
    const result = toGenerativeSchema(
      { anyOf: [{ type: "object", properties: { k: { type: "string" } } }, { type: "null" }] },
      "",
    );
    expect(result.schema).toEqual({ type: "object", nullable: true, properties: { k: { type: "string" } } });
  });

  test("numeric enums become strings with format enum; null in an enum becomes nullable (T8)", () => {
    expect(toGenerativeSchema({ type: "integer", enum: [1, 2, 3] }, "").schema).toEqual({
      type: "integer",
      format: "enum",
      enum: ["1", "2", "3"],
    });
    expect(toGenerativeSchema({ type: "string", enum: ["a", null] }, "").schema).toEqual({
      type: "string",
      enum: ["a"],
      nullable: true,
    });
    expect(lossList(toGenerativeSchema({ enum: [1, "a"] }, "/e").losses)).toEqual([
      { path: "/e/enum", kind: "dropped" },
    ]);
  });

  test("keeps only the formats generative supports (T9)", () => {
    const result = toGenerativeSchema(
      {
        type: "object",
        properties: { u: { type: "string", format: "uri" }, t: { type: "string", format: "date-time" } },
      },
      "/p",
    );
    expect(result.schema).toEqual({
      type: "object",
      properties: { u: { type: "string" }, t: { type: "string", format: "date-time" } },
    });
    expect(lossList(result.losses)).toEqual([{ path: "/p/properties/u/format", kind: "dropped" }]);
  });

  test("a map (additionalProperties schema) is approximated by a plain object (T10)", () => {
    const result = toGenerativeSchema({ type: "object", additionalProperties: { type: "string" } }, "/m");
    expect(result.schema).toEqual({ type: "object" });
    expect(lossList(result.losses)).toEqual([{ path: "/m/additionalProperties", kind: "approximated" }]);
  });

  test("oneOf becomes anyOf as an approximation; allOf members are merged", () => {
    const oneOf = toGenerativeSchema({ oneOf: [{ type: "string" }, { type: "number" }] }, "/o");
    expect(oneOf.schema).toEqual({ anyOf: [{ type: "string" }, { type: "number" }] });
    expect(lossList(oneOf.losses)).toEqual([{ path: "/o/oneOf", kind: "approximated" }]);
    const allOf = toGenerativeSchema(
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { properties: { b: { type: "number" } } },
        ],
      },
      "",
    );
    expect(allOf.schema).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "number" } },
      required: ["a"],
    });
  });

  test("a 10,000-deep schema does not crash: it goes raw", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 10_000; level++) deep = { type: "object", properties: { a: deep } };
    expect(toGenerativeSchema(deep, "").raw).toBe(true);
  });

  test("__proto__ property names stay own properties and never reach Object.prototype", () => {
    const input = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","polluted":true}}}',
    );
    const result = toGenerativeSchema(input, "");
    expect(Object.hasOwn(result.schema?.properties as object, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("never mutates its input", () => {
    const input = { type: ["string", "null"], format: "uri", additionalProperties: false };
    const copy = structuredClone(input);
    toGenerativeSchema(input, "");
    expect(input).toEqual(copy);
  });
});

describe("generative Schema → JSON Schema", () => {
  test("lower-cases types, turns nullable into a null type and drops format enum", () => {
    expect(
      fromGenerativeSchema({
        type: "OBJECT",
        properties: {
          a: { type: "STRING", nullable: true },
          n: { type: "INTEGER", format: "enum", enum: ["1", "2"] },
        },
        required: ["a"],
      }),
    ).toEqual({
      type: "object",
      properties: { a: { type: ["string", "null"] }, n: { type: "integer", enum: [1, 2] } },
      required: ["a"],
    });
  });

  test("round-trips what the forward converter produces", () => {
    const original = {
      type: "object",
      properties: { s: { type: ["string", "null"] }, l: { type: "array", items: { type: "number" } } },
    };
    const forward = toGenerativeSchema(original, "");
    expect(fromGenerativeSchema(forward.schema)).toEqual(original);
  });
});
