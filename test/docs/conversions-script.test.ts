import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { analyze, type Matrix, render, renderText, rowsOf, type Section } from "../../scripts/conversions";

// The reading rules of scripts/conversions.ts on a small made-up source tree: two wired protocols,
// one folder not in the table yet, helpers that take the message or the kind from their callers.

const files: Record<string, string> = {
  "src/common/loss.ts": `
export type LossKind = "dropped" | "clamped" | "synthesized" | "approximated";
export type Loss = { readonly path: string; readonly kind: LossKind; readonly message: string };
export function loss(path: string, kind: LossKind, message: string): Loss {
  return { path, kind, message };
}`,
  "src/common/limit.ts": `
import { type Loss, loss } from "./loss";
export function keepFirst(values: string[], max: number, target: string, losses: Loss[]): string[] {
  for (const value of values.slice(max)) {
    losses.push(loss("/stop", "dropped", \`\${target} takes \${max} at most; \${JSON.stringify(value)} was dropped.\`));
  }
  return values.slice(0, max);
}`,
  "src/protocols/index.ts": `
import { alphaAdapter } from "./alpha/adapter";
import { betaAdapter } from "./beta/adapter";
const table = { alpha: alphaAdapter, beta: betaAdapter };
export const adapters = table;`,
  "src/protocols/alpha/adapter.ts": `
import * as codec from "./codec";
import { alphaStream } from "./stream";
export const alphaAdapter = {
  decodeRequest: codec.decodeAlpha,
  encodeRequest: codec.encodeAlpha,
  decodeResponse: codec.decodeAlpha,
  encodeResponse: codec.encodeAlpha,
  streamDecoder: () => alphaStream,
  streamEncoder: () => alphaStream,
};`,
  "src/protocols/alpha/codec.ts": `
import { keepFirst } from "../../common/limit";
import { type Loss, loss } from "../../common/loss";
const dropped = (losses: Loss[], what: string): void => {
  losses.push(loss("", "dropped", \`\${what} has no common equivalent and was dropped.\`));
};
export function decodeAlpha(body: { extra?: string; odd?: string }): Loss[] {
  const losses: Loss[] = [];
  if (body.extra !== undefined) dropped(losses, "\`extra\`");
  if (body.odd !== undefined) dropped(losses, \`The field \${body.odd}\`);
  return losses;
}
export function encodeAlpha(stop: string[]): Loss[] {
  const losses: Loss[] = [];
  keepFirst(stop, 4, "alpha", losses);
  return losses;
}`,
  "src/protocols/alpha/stream.ts": `
import { type Loss, loss } from "../../common/loss";
import { mapReason } from "./finish";
export const alphaStream = {
  step(reason: string, losses: Loss[]): void {
    const mapped = mapReason(reason);
    if (mapped.loss !== undefined) losses.push(loss("", mapped.loss, \`Reason \${reason} became \${mapped.value}.\`));
  },
};`,
  "src/protocols/alpha/finish.ts": `
export function mapReason(reason: string): { value: string; loss?: "clamped" | "approximated" | "dropped" } {
  if (reason === "a") return { value: "A" };
  if (reason === "b") return { value: "B", loss: "approximated" };
  return { value: "C", loss: "clamped" };
}`,
  "src/protocols/beta/adapter.ts": `
import { decodeBeta, encodeBeta, unused } from "./codec";
export const betaAdapter = {
  decodeRequest: decodeBeta,
  encodeRequest: encodeBeta,
  decodeResponse: decodeBeta,
  encodeResponse: encodeBeta,
  streamDecoder: () => decodeBeta,
  streamEncoder: () => encodeBeta,
};
void unused;`,
  "src/protocols/beta/codec.ts": `
import { keepFirst } from "../../common/limit";
import { type Loss, loss } from "../../common/loss";
const LABEL = { short: "a short label", long: "a longer label" } as const;
export function decodeBeta(kind: "short" | "long"): Loss[] {
  return [loss("", "approximated", \`Beta read \${LABEL[kind]}.\`)];
}
export function encodeBeta(stop: string[]): Loss[] {
  const losses: Loss[] = [];
  keepFirst(stop, 5, "beta", losses);
  losses.push(loss("/max", kind() ? "clamped" : "synthesized", "Beta needs a max."));
  return losses;
}
function kind(): boolean {
  return true;
}
export function unused(): Loss {
  return loss("", "dropped", "Nothing calls this.");
}`,
  "src/protocols/gamma/codec.ts": `
import { loss } from "../../common/loss";
export const gammaLoss = () => loss("", "dropped", "Gamma is not wired yet.");`,
  "src/translate.ts": `
import { adapters } from "./protocols";
export function translateRequest(from: "alpha" | "beta", body: string[]) {
  return adapters[from].encodeRequest(body);
}
export function translateResponse(from: "alpha" | "beta", body: string[]) {
  return adapters[from].encodeResponse(body);
}`,
  "src/stream/translator.ts": `
import { adapters } from "../protocols";
export function createStreamTranslator(from: "alpha" | "beta") {
  return adapters[from].streamEncoder();
}`,
  "src/embeddings/request.ts": `
import { loss } from "../common/loss";
export function translateEmbeddingsRequest() {
  return [loss("/user", "dropped", "Embeddings drop the user.")];
}`,
  "src/embeddings/response.ts": `
export function translateEmbeddingsResponse() {
  return [];
}`,
};

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function project(extra: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), "conversions-"));
  roots.push(root);
  for (const [path, text] of Object.entries({ ...files, ...extra })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function messages(matrix: Matrix, from: string, to: string, section: Section): string[] {
  return rowsOf(matrix, from, to, section).map((row) => `${row.kinds.join("|")}: ${renderText(row.text)}`);
}

describe("scripts/conversions.ts reads", () => {
  const matrix = analyze(project());

  test("the protocols of the table, every ordered pair once, and the folders not in it", () => {
    expect(matrix.protocols).toEqual(["alpha", "beta"]);
    expect(matrix.pairs.map((pair) => `${pair.from}→${pair.to}`)).toEqual(["alpha→beta", "beta→alpha"]);
    expect(matrix.unwired).toEqual(["gamma"]);
    expect(render(matrix)).not.toContain("Gamma is not wired yet.");
  });

  test("a helper's message once per call, at the call: each target names itself", () => {
    expect(messages(matrix, "alpha", "beta", "request")).toEqual([
      "dropped: The field ‹body.odd› has no common equivalent and was dropped.",
      "dropped: `extra` has no common equivalent and was dropped.",
      "dropped: beta takes 5 at most; ‹value› was dropped.",
      "clamped|synthesized: Beta needs a max.",
    ]);
    expect(messages(matrix, "beta", "alpha", "request")).toEqual([
      "approximated: Beta read a longer label.",
      "approximated: Beta read a short label.",
      "dropped: alpha takes 4 at most; ‹value› was dropped.",
    ]);
  });

  test("where each loss comes from, through the helper", () => {
    const row = rowsOf(matrix, "alpha", "beta", "request").find((entry) =>
      renderText(entry.text).startsWith("`extra`"),
    );
    expect(row?.where).toEqual(["protocols/alpha/codec.ts: decodeAlpha → dropped"]);
    const stop = rowsOf(matrix, "alpha", "beta", "request").find((entry) =>
      renderText(entry.text).startsWith("beta"),
    );
    expect(stop?.where).toEqual(["protocols/beta/codec.ts: encodeBeta → keepFirst (common/limit.ts)"]);
  });

  test("a kind computed from what a function returns, marked as computed", () => {
    const [reading] = matrix.pairs[0]?.sections.stream ?? [];
    expect(reading?.rows).toEqual([
      {
        kinds: ["clamped", "approximated"],
        computed: true,
        text: ["Reason ", { hole: "reason" }, " became ", { hole: "mapped.value" }, "."],
        // A pointer with no field name: the code names the event, as codeOf does.
        codes: ["event.approximated", "event.clamped"],
        where: ["protocols/alpha/stream.ts: alphaStream › step"],
      },
    ]);
  });

  test("each loss's codes: from its pointer's last field and its kind", () => {
    const codes = (from: string, to: string) =>
      rowsOf(matrix, from, to, "request").map((row) => `${renderText(row.text)} ${row.codes.join(" ")}`);
    expect(codes("alpha", "beta")).toContain("Beta needs a max. max.clamped max.synthesized");
    expect(codes("alpha", "beta")).toContain("beta takes 5 at most; ‹value› was dropped. stop.dropped");
    expect(render(matrix)).toContain("| `stop.dropped` |");
  });

  test("sites nothing reaches, apart; the embeddings translation, apart", () => {
    expect(matrix.unreached.map((row) => renderText(row.text))).toEqual(["Nothing calls this."]);
    expect(matrix.embeddings.map((side) => side.rows.map((row) => renderText(row.text)))).toEqual([
      ["Embeddings drop the user."],
      [],
    ]);
  });

  test("a loss added to an encoder changes the document", () => {
    const changed = analyze(
      project({
        "src/protocols/beta/codec.ts": files["src/protocols/beta/codec.ts"]?.replace(
          "  return losses;\n}\nfunction kind",
          '  losses.push(loss("/new", "dropped", "A new loss."));\n  return losses;\n}\nfunction kind',
        ) as string,
      }),
    );
    expect(messages(changed, "alpha", "beta", "request")).toContain("dropped: A new loss.");
    expect(messages(changed, "beta", "alpha", "request")).not.toContain("dropped: A new loss.");
    expect(render(changed)).not.toBe(render(matrix));
  });
});
