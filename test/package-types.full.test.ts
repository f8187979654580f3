/**
 * The packed package in a strict consumer project (scripts/consumer-types.ts, in the thorough tier):
 * every public name and type, under TypeScript 5.9, 6.0 and 7.0 with `moduleResolution` bundler,
 * node16 and nodenext, ESM and CommonJS, `skipLibCheck: false`; and the JSON Schemas imported
 * through the package's `exports` at run time. Needs the build (`npm run test:full` builds first).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { checkConsumer, publicNames, resolutions, typescripts } from "../scripts/consumer-types";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("the packed package in a strict TypeScript consumer", () => {
  test("the consumer names what the README promises: namespace types, each schema's type", () => {
    const names = publicNames().map((name) => `${name.entry}#${name.path.join(".")}`);
    for (const name of [
      "gateway-protocols#errors.ErrorKind",
      "gateway-protocols#errors.ErrorInfo",
      "gateway-protocols#models.ChatList",
      "gateway-protocols#models.ModelEntry",
      "gateway-protocols#chat.Request",
      "gateway-protocols#messages.StreamEvent",
      "gateway-protocols#music.AudioRequest",
      "gateway-protocols#embeddings.Request",
      "gateway-protocols/sse#SseMessage",
      "gateway-protocols/testing#checkTranslator",
    ]) {
      expect(names).toContain(name);
    }
  });

  test(
    "every configuration of the matrix compiles, and the JSON Schemas load by import and by require",
    async () => {
      const result = await checkConsumer();
      const title = JSON.parse(readFileSync(join(root, "schemas", "chat.request.json"), "utf8")).title;
      expect(result.names).toBeGreaterThan(600);
      expect(result.schemas).toBeGreaterThan(200);
      expect(result.cells.map((cell) => `${cell.typescript} ${cell.resolution}`).sort()).toEqual(
        Object.keys(typescripts)
          .flatMap((version) => Object.keys(resolutions).map((resolution) => `${version} ${resolution}`))
          .sort(),
      );
      const failed = result.cells.filter((cell) => cell.errors.length > 0);
      expect(
        failed,
        failed.map((cell) => `${cell.version} ${cell.resolution}:\n${cell.errors.join("\n")}`).join("\n"),
      ).toEqual([]);
      expect(result.runtime).toEqual({ esm: title, cjs: title });
    },
    15 * 60_000,
  );
});
