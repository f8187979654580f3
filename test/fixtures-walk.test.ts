/**
 * The recorded fixtures. Each protocol's walk over them (every payload parses, translates to every
 * protocol, accumulates) runs in the protocol suite (test/protocol-suite.ts, "fixtures").
 */
import { describe, expect, test } from "vitest";
import { protocols } from "../src/index";
import { fixtureIndex } from "./helpers/fixtures";

describe("the fixture index", () => {
  test("lists 181 recorded payloads", () => {
    expect(fixtureIndex).toHaveLength(181);
  });
  test("names only protocols the library has", () => {
    for (const entry of fixtureIndex) expect(protocols).toContain(entry.protocol);
  });
});
