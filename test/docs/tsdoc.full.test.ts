import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { declarationComments, entries, publicDeclarations, root } from "./exports";

/** Words that send a reader to files the package does not ship. */
const outside = /\.\.\/shared|\bAPI\.md\b|\bDESIGN\.md\b|\bresearch\//;

// Read once: the program over every entry point takes a few seconds.
const declarations = publicDeclarations();

describe("TSDoc of the public surface", () => {
  test("walks every entry point of package.json and finds their exports", () => {
    const reached = new Set(declarations.map((declaration) => declaration.name.split("#")[0]));
    expect([...reached].sort()).toEqual(Object.keys(entries).sort());
    // The surface is large; a walk that stopped at the namespaces would find a few dozen names.
    expect(declarations.length).toBeGreaterThan(500);
    for (const name of [
      "gateway-protocols#translateRequest",
      "gateway-protocols#chat.request",
      "gateway-protocols#messages.StreamEvent",
      "gateway-protocols#music.validateAudioRequest",
      "gateway-protocols/testing#checkTranslator",
      "gateway-protocols/sse#createParser",
    ]) {
      expect(declarations.map((declaration) => declaration.name)).toContain(name);
    }
  });

  test("every exported declaration has a doc comment", () => {
    const missing = declarations
      .filter((declaration) => declaration.doc.replace(/[/*\s]/g, "") === "")
      .map((declaration) => `${declaration.name} (${declaration.where})`);
    expect(missing, `exports without a doc comment:\n${missing.join("\n")}`).toEqual([]);
  });

  test("no doc comment of an export refers to files outside the package", () => {
    const offending = declarations
      .filter((declaration) => outside.test(declaration.doc))
      .map(
        (declaration) => `${declaration.name} (${declaration.where}): ${declaration.doc.match(outside)?.[0]}`,
      );
    expect(offending).toEqual([]);
  });

  test("no comment in the built .d.ts files refers to files outside the package", () => {
    const dist = join(root, "dist");
    // npm test builds dist first (pretest); a bare `vitest run` needs `npm run build` before it.
    expect(existsSync(join(dist, "index.d.ts")), "dist/index.d.ts is missing: run `npm run build`").toBe(
      true,
    );
    const files = readdirSync(dist).filter((file) => file.endsWith(".d.ts") || file.endsWith(".d.cts"));
    expect(files).toEqual(expect.arrayContaining(["index.d.ts", "testing.d.ts", "music.d.ts", "sse.d.ts"]));
    const comments = declarationComments(dist, files);
    expect(comments.length).toBeGreaterThan(100);
    const offending = comments
      .filter(({ comment }) => outside.test(comment))
      .map(({ file, comment }) => `${file}: ${comment.slice(0, 200)}`);
    expect(offending).toEqual([]);
  });
});
