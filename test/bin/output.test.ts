import { afterEach, describe, expect, test, vi } from "vitest";
import { writeJson, writeLoss } from "../../bin/output";

function sink(isTTY: boolean) {
  let text = "";
  return { isTTY, write: (chunk: string) => (text += chunk), text: () => text };
}

const value = { model: "m", n: 2, stream: false, stop: null, messages: [{ role: "user" }] };

describe("the command line's output", () => {
  afterEach(() => vi.unstubAllEnvs());

  test("piped: one line of plain JSON", () => {
    const out = sink(false);
    writeJson(out, value);
    expect(out.text()).toBe(`${JSON.stringify(value)}\n`);
  });

  test("on a terminal: indented JSON, keys, strings, numbers and literals coloured", () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm-256color");
    const out = sink(true);
    writeJson(out, value);
    expect(out.text()).toContain('\u001b[36m"model"\u001b[39m: \u001b[32m"m"\u001b[39m');
    expect(out.text()).toContain("\u001b[33m2\u001b[39m");
    expect(out.text()).toContain("\u001b[35mfalse\u001b[39m");
    // Without the colours it is the indented JSON.
    expect(out.text().replace(new RegExp(`${"\u001b"}\\[\\d+m`, "g"), "")).toBe(
      `${JSON.stringify(value, null, 2)}\n`,
    );
  });

  test("NO_COLOR: indented, no colour", () => {
    vi.stubEnv("NO_COLOR", "1");
    const out = sink(true);
    writeJson(out, value);
    expect(out.text()).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  test("a loss at the root shows as /", () => {
    const out = sink(false);
    writeLoss(out, { path: "", kind: "dropped", code: "event.dropped", message: "gone." });
    expect(out.text()).toBe("loss dropped /: gone.\n");
  });
});
