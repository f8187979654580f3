/**
 * The main job: translate every recorded sample request, response, error and stream in
 * test/fixtures between all three protocols, and print what each translation lost.
 *
 *   npm run demo            all fixtures, every loss
 *   npm run demo -- --brief one line per translation
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createStreamTranslator,
  type Loss,
  type Protocol,
  protocols,
  TranslationError,
  translateError,
  translateRequest,
  translateResponse,
} from "../src/index";

type Entry = { path: string; protocol: Protocol; kind: string; url: string; http_status: number };

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures");
const index: Entry[] = JSON.parse(readFileSync(join(root, "index.json"), "utf8"));
const brief = process.argv.includes("--brief");
const options = { idPrefix: "gp", created: 1_700_000_000 };

const totals = { translations: 0, clean: 0, losses: 0, failures: 0 };

function dataPayloads(body: string): unknown[] {
  return body
    .split(/\r\n\r\n|\n\n|\r\r/)
    .flatMap((block) => {
      const data = block
        .split(/\r\n|\r|\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""));
      return data.length > 0 ? [data.join("\n")] : [];
    })
    .map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

function report(label: string, losses: readonly Loss[]): void {
  totals.translations++;
  totals.losses += losses.length;
  if (losses.length === 0) totals.clean++;
  console.log(`${label}: ${losses.length === 0 ? "nothing lost" : `${losses.length} loss(es)`}`);
  if (brief) return;
  for (const entry of losses)
    console.log(`    ${entry.kind.padEnd(12)} ${entry.path || "/"}  ${entry.message}`);
}

function attempt(label: string, run: () => readonly Loss[]): void {
  try {
    report(label, run());
  } catch (error) {
    totals.translations++;
    totals.failures++;
    const message = error instanceof TranslationError ? error.message : String(error);
    console.log(`${label}: REJECTED (${message})`);
  }
}

for (const entry of index) {
  const text = readFileSync(join(root, entry.path), "utf8");
  for (const to of protocols) {
    if (to === entry.protocol) continue;
    const label = `${entry.kind.padEnd(8)} ${entry.path} → ${to}`;
    const from = entry.protocol;
    if (entry.kind === "request") {
      const model = /\/models\/([^?]+):[A-Za-z]+/.exec(entry.url)?.[1];
      const stream = entry.url.includes(":streamGenerateContent");
      attempt(
        label,
        () => translateRequest(from, to, JSON.parse(text), { ...options, model, stream }).losses,
      );
    } else if (entry.kind === "response") {
      attempt(label, () => translateResponse(from, to, JSON.parse(text), options).losses);
    } else if (entry.kind === "stream") {
      attempt(label, () => {
        const translator = createStreamTranslator(from, to, options);
        let events = 0;
        for (const event of dataPayloads(text)) events += translator.push(event as never).length;
        events += translator.end().length;
        if (!brief) console.log(`    (${events} ${to} events emitted)`);
        return translator.losses;
      });
    } else {
      const result = translateError(from, to, { status: entry.http_status, body: JSON.parse(text) });
      totals.translations++;
      totals.clean++;
      console.log(
        `${label}: HTTP ${entry.http_status} → ${result.status} ${JSON.stringify(result.body).slice(0, 100)}`,
      );
    }
  }
}

console.log(
  `\n${totals.translations} translations of ${index.length} recorded payloads: ${totals.clean} lost nothing, ` +
    `${totals.losses} losses reported in the rest, ${totals.failures} rejected with a TranslationError.`,
);
