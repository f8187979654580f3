import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { describe, expect, test } from "vitest";

// The built package (npm test builds it first), bundled from a one-line entry as a user's bundler
// would: what a program that imports one thing ships. zod stays outside (a peer dependency).
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function bundle(source: string): { text: string; inputs: string[] } {
  const result = buildSync({
    stdin: { contents: source, resolveDir: root, loader: "js" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    external: ["zod", "zod/*"],
    metafile: true,
    logLevel: "silent",
    // The repository's tsconfig maps the package name to src/ for type checks; users get dist/.
    tsconfigRaw: {},
  });
  const text = result.outputFiles?.[0]?.text ?? "";
  const inputs = Object.values(result.metafile?.outputs ?? {}).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  );
  return { text, inputs };
}

// A string only each area's code holds: the embeddings default-dimension table, the chat stream
// encoder, the music model ids.
const EMBEDDINGS = "text-embedding-3-small";
const PROTOCOLS = "chat.completion.chunk";
const MUSIC = "chirp-v4";

describe("what a bundler keeps of the package", () => {
  test("the markers are where they should be (so their absence below means something)", () => {
    const all = bundle('import * as all from "gateway-protocols"; console.log(all);').text;
    for (const marker of [EMBEDDINGS, PROTOCOLS, MUSIC]) expect(all).toContain(marker);
  });

  test("gateway-protocols/music holds the music validator and nothing of embeddings or the protocols", () => {
    const { text, inputs } = bundle(
      'import { validateAudioRequest } from "gateway-protocols/music"; console.log(validateAudioRequest({}));',
    );
    expect(text).toContain(MUSIC);
    expect(text).not.toContain(EMBEDDINGS);
    expect(text).not.toContain(PROTOCOLS);
    expect(inputs).not.toContain("dist/index.js");
  });

  test("import { music } from the main entry leaves the embeddings code out", () => {
    const { text } = bundle(
      'import { music } from "gateway-protocols"; console.log(music.validateAudioRequest({}));',
    );
    expect(text).toContain(MUSIC);
    expect(text).not.toContain(EMBEDDINGS);
  });

  test("gateway-protocols/sse holds the SSE framing alone", () => {
    const { text } = bundle(
      'import { createParser } from "gateway-protocols/sse"; console.log(createParser());',
    );
    expect(text).toContain("maxLineLength");
    for (const marker of [EMBEDDINGS, PROTOCOLS, MUSIC]) expect(text).not.toContain(marker);
  });

  test("gateway-protocols/embeddings holds embeddings without the chat/messages/generative translators", () => {
    const { text } = bundle(
      'import { defaultDimensions } from "gateway-protocols/embeddings"; console.log(defaultDimensions);',
    );
    expect(text).toContain(EMBEDDINGS);
    expect(text).not.toContain(PROTOCOLS);
    expect(text).not.toContain(MUSIC);
  });
});
